"""The western script language (words in ``data/script.yaml``, French or English).

round                                   # the next round (GM)
bill: tire sur joe                      # the shot or blow due now
bill: tire sur joe vise tête mod -10    # aimed at a zone (no critical shift), GM modifier
bill: passe / recharge
mj: surprise joe soudain | attaqué
bill: approche garde : nuit, silence, peu de caches, 15 m
bill: assomme garde avec colt_saa
mj: ligote garde
mj: duel gagné par bill témoin
annuler

The verbs and their slots are data, read with the engine's grammar
(``conteur.engine.grammar``): the verb is the longest phrase the line starts with, and
a fighter, a zone, a weapon or a side is the words up to the next keyword (``vise``,
``mod``, ``avec``, ``témoin``...), as the tables and the scenario name them: those kinds,
and the stealth modifiers of an approach, are western's own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from pydantic import BaseModel, ConfigDict

from conteur.engine import Command
from conteur.engine.grammar import Grammar, Kind, Slot, SlotReader, Verb, load_words, verbs_lexicon
from conteur.engine.lexicon import NOTHING, Entry, Lexicon, head, speaker
from conteur.i18n import ConteurError

from .state import WesternState
from .tables import fold


class ScriptWords(BaseModel):
    """The whole vocabulary of ``data/script.yaml``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    gm: tuple[str, ...]
    fillers: tuple[str, ...]
    verbs: dict[str, Verb]
    gm_verbs: dict[str, Verb]


class _Reader(SlotReader):
    """The kit's reader, with the state the names are found in."""

    def __init__(self, line: str, body: str, state: WesternState) -> None:
        super().__init__(line, body, GRAMMAR, (f.name for f in state.fighters.values()))
        self.state = state


def _named(find: Callable[[WesternState, str], Any]) -> Kind:
    """A kind whose value is the words up to the next keyword, found by ``find``."""

    def read(reader: SlotReader, spec: Slot, lex: Lexicon) -> Any:
        assert isinstance(reader, _Reader)
        text = reader.segment(lex)
        return find(reader.state, text) if text else NOTHING

    return Kind(read=read, segment=True)


def _zone(state: WesternState, text: str) -> str:
    key = fold(text)
    for loc in state.tables.locations:
        if key in (fold(loc.id), fold(loc.fr), fold(loc.en)):
            return loc.id
    raise ConteurError(
        "western.unknown_zone", name=text, known=", ".join(loc.fr for loc in state.tables.locations)
    )


def _modifier(state: WesternState, text: str) -> int:
    try:
        return int(text.replace(" ", ""))
    except ValueError:
        raise ConteurError("western.script.bad_number", value=text) from None


def _side(state: WesternState, text: str) -> str:
    """A side by its name, or the side of the fighter named."""
    sides = {fold(f.side): f.side for f in state.fighters.values()}
    if fold(text) in sides:
        return sides[fold(text)]
    try:
        return state.fighter(text).side
    except ConteurError:
        raise ConteurError(
            "western.unknown_side", side=text, known=", ".join(sorted(set(sides.values())))
        ) from None


GRAMMAR = Grammar(
    "western.script",
    kinds={
        "fighter": _named(lambda state, text: state.fighter(text).id),
        "zone": _named(_zone),
        "weapon": _named(lambda state, text: state.tables.weapon(text).id),
        "modifier": _named(_modifier),
        "side": _named(_side),
    },
)
"""Western's grammar: the kit's slots, with names found in the scenario and the tables."""


@cache
def words() -> ScriptWords:
    """The script's words, checked once (``InputError`` naming entry and field)."""
    return load_words(
        "conteur.rulesets.western",
        "data/script.yaml",
        ScriptWords,
        GRAMMAR.known_kinds(),
        GRAMMAR.bodies,
    )


@dataclass(frozen=True)
class Vocabulary:
    """The lexicons of the language: the game master's words, the verbs, their slots."""

    gm: Lexicon
    verbs: Lexicon
    slots: dict[str, Lexicon]


@cache
def vocabulary() -> Vocabulary:
    w = words()
    gm = Lexicon()
    gm.add_all(w.gm, Entry("gm"))
    verbs = verbs_lexicon((("fighter", w.verbs), ("gm", w.gm_verbs)))
    base = GRAMMAR.lexicon()
    base.add_all(w.fillers, Entry("filler"))
    slots = {
        vid: GRAMMAR.slot_lexicon(verb.slots, base)
        for vid, verb in (*w.verbs.items(), *w.gm_verbs.items())
    }
    return Vocabulary(gm, verbs, slots)


def _speaker(state: WesternState, text: str) -> tuple[str | None, str]:
    """Who speaks (``bill:``, ``mj:``; none for the game master) and the rest of the line.
    A colon that names no one is part of the command (``approche garde : nuit``)."""
    cut = head(text)
    if not cut.colon:
        return None, text
    name = cut.head.strip()
    if speaker(name, vocabulary().gm, "gm") is not None:
        return None, cut.body.strip()
    try:
        return state.fighter(name).id, cut.body.strip()
    except ConteurError:
        return None, text


def parse_line(line: str, state: WesternState) -> Command:
    """One script line as a command (ConteurError ``western.script.unknown`` otherwise)."""
    actor, text = _speaker(state, line.strip())
    reader = _Reader(line, text, state)
    vocab = vocabulary()
    keys = ("western.script.unknown", "western.script.unknown_suggest")
    _, found = reader.verb(vocab.verbs, keys)
    assert isinstance(found.spec, Verb)
    who = actor if found.value == "fighter" else None
    return reader.command(found.key, found.spec, vocab.slots[found.key], who)


@GRAMMAR.body("approach")
def _approach(reader: SlotReader) -> dict[str, Any]:
    """``approche garde : nuit, silence, 15 m``: the victim, then the stealth modifiers
    (the colon and commas the words are cut at are western's)."""
    from .knockout import stealth_entry

    assert isinstance(reader, _Reader)
    state = reader.state
    rest = reader.body[reader.toks[reader.i - 1].end :].strip(" :")
    target, _, mods = rest.partition(":")
    if not mods and "," in target:
        target, _, mods = target.partition(",")
    items = [m.strip() for m in mods.split(",") if m.strip()]
    args: dict[str, Any] = {"target": state.fighter(target.strip()).id}
    args["modifiers"] = [stealth_entry(state, m).id for m in items]
    return args
