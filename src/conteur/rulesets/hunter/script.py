"""The script language (French or English words): one line → one ``Command``.

``initiative`` · ``embuscade bob`` · ``couvert bob partiel`` · ``dégâts bob 2 létal`` ·
``ana: tire sur bête portée moyenne`` · ``ana: rafale longue bête goule`` ·
``bob: empoigne bête`` · ``bob: domine renverse`` · ``ana: retarde après bob``.

The verbs and their slots are data (``data/script.yaml``), read with the engine's
grammar (``conteur.engine.grammar``); only the weapons of the tables are a kind of
hunter's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from pydantic import BaseModel, ConfigDict

from conteur.engine import Command
from conteur.engine import lexicon as kit
from conteur.engine.grammar import Grammar, Kind, SlotReader, Verb, load_words, verbs_lexicon
from conteur.engine.lexicon import Entry, Lexicon, Tok
from conteur.i18n import ConteurError

from .state import HunterState


class ScriptWords(BaseModel):
    """The whole vocabulary of ``data/script.yaml``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    gm: tuple[str, ...]
    fillers: tuple[str, ...]
    groups: dict[str, Any] = {}
    """Slots several verbs share (YAML anchors): read where the verbs merge them."""
    gm_verbs: dict[str, Verb]
    verbs: dict[str, Verb]


GRAMMAR = Grammar("hunter.script", kinds={"weapon": Kind(fills=("weapon",))}, strict_values=True)
"""Hunter's grammar: the kit's slots and the weapons of its tables; a keyword's value
not understood is the word not understood (``hunter.script.unknown_word``)."""


@cache
def words() -> ScriptWords:
    """The script's words, checked once (``InputError`` naming entry and field)."""
    return load_words(
        "conteur.rulesets.hunter", "data/script.yaml", ScriptWords, GRAMMAR.known_kinds()
    )


def meanings() -> frozenset[str]:
    """The commands and action kinds the verbs mean (the ruleset's vocabulary)."""
    w = words()
    verbs = {**w.gm_verbs, **w.verbs}
    return frozenset(
        {
            *verbs,
            *(v.command for v in verbs.values() if v.command),
            *(str(v.args["kind"]) for v in verbs.values() if "kind" in v.args),
        }
    )


@dataclass(frozen=True)
class Vocabulary:
    """The lexicons of one encounter: who speaks, the verbs, each verb's slot words."""

    actors: Lexicon
    verbs: Lexicon
    slots: dict[str, Lexicon]
    names: tuple[str, ...]


def _build(state: HunterState) -> Vocabulary:
    w = words()
    fighters = {f.id: [f.id, f.name] for f in state.fighters.values()}
    actors = Lexicon(("actor",))
    actors.add_all(w.gm, Entry("actor", "", surface=w.gm[0]))
    kit.add_names(actors, fighters, "actor")
    verbs = verbs_lexicon((("gm", w.gm_verbs), ("fighter", w.verbs)))
    base = GRAMMAR.lexicon()
    base.add_all(w.fillers, Entry("filler"))

    def weapons(lex: Lexicon) -> None:
        for weapon in state.tables.weapons.values():
            lex.add_all((weapon.fr, weapon.en, weapon.id), Entry("weapon", weapon.id))

    adders = {"fighter": lambda lex: kit.add_names(lex, fighters, "fighter"), "weapon": weapons}
    slots = {
        vid: GRAMMAR.slot_lexicon(verb.slots, base, adders)
        for vid, verb in (*w.gm_verbs.items(), *w.verbs.items())
    }
    names = tuple(f.name for f in state.fighters.values())
    return Vocabulary(actors, verbs, slots, names)


def vocabulary(state: HunterState) -> Vocabulary:
    """The lexicons for this state's fighters and weapons (cached by them)."""
    key = (id(state.tables), tuple((f.id, f.name) for f in state.fighters.values()))
    return _CACHE.get(key, state.tables, lambda: _build(state))


_CACHE: kit.Vocabularies[Vocabulary] = kit.Vocabularies()


def _pairs_as_numbers(toks: list[Tok]) -> list[Tok]:
    """``3,4`` read as two numbers (a comma separates words here); ``;`` is a space."""
    out: list[Tok] = []
    for tok in toks:
        if tok.type == "pos":
            for value in tok.value:
                n = str(int(value)) if float(value).is_integer() else str(value)
                out.append(Tok("num", n, n, tok.start, tok.end, value))
        elif not (tok.type == "sep" and tok.raw == ";"):
            out.append(tok)
    return out


def parse_line(line: str, state: HunterState) -> Command:
    """Read one script line (ConteurError ``hunter.script.*`` naming the line and the word
    not understood)."""
    vocab = vocabulary(state)
    text = line.strip()
    actor: str | None = None
    cut = kit.head(text)
    if cut.colon and cut.head.strip():
        who = kit.speaker(cut.head, vocab.actors, "actor")
        if who is None:
            close = vocab.actors.suggestions(cut.head)
            if close:
                raise ConteurError(
                    "hunter.script.unknown_fighter_suggest",
                    line=text,
                    word=cut.head.strip(),
                    suggestions=kit.Quoted(close),
                )
            raise ConteurError("hunter.script.unknown_fighter", line=text, word=cut.head.strip())
        actor = who.key or None
        text = cut.body
    reader = SlotReader(line, text, GRAMMAR, vocab.names)
    reader.toks = _pairs_as_numbers(reader.toks)
    if reader.done():
        raise reader.error("hunter.script.empty")
    keys = ("hunter.script.unknown_verb", "hunter.script.unknown_verb_suggest")
    verb_words, found = reader.verb(vocab.verbs, keys)
    if (found.value == "gm") != (actor is None):
        raise reader.error("hunter.script.who", word=verb_words)
    assert isinstance(found.spec, Verb)
    return reader.command(found.key, found.spec, vocab.slots[found.key], actor)
