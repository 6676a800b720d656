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

The words are read with the engine's script kit (``conteur.engine.lexicon``): the verb
is the longest phrase the line starts with, and a keyword (``vise``, ``mod``, ``avec``,
``témoin``...) cuts the rest where it stands; what lies between is a fighter, a zone or
a weapon as the tables name them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from conteur.engine import Command
from conteur.engine.lexicon import Entry, Lexicon, Quoted, Tok, head, speaker, tokenize
from conteur.i18n import ConteurError

from .state import WesternState
from .tables import fold, package_yaml

KEYWORDS = ("zone", "modifier", "with", "sudden", "attacked", "witness", "no_witness")
"""The groups of ``data/script.yaml`` that are keywords inside a command."""


@cache
def words() -> dict[str, Any]:
    """The script's words (``data/script.yaml``)."""
    return package_yaml("script.yaml")


@dataclass(frozen=True)
class Vocabulary:
    """The lexicons of the language: the game master's words, the verbs, the keywords."""

    gm: Lexicon
    verbs: Lexicon
    keywords: Lexicon


@cache
def vocabulary() -> Vocabulary:
    w = words()
    gm = Lexicon()
    gm.add_all(w["gm"], Entry("gm"))
    verbs = Lexicon()
    for verb, forms in w["verbs"].items():
        verbs.add_all(forms, Entry("verb", verb))
    keywords = Lexicon()
    for group in KEYWORDS:
        keywords.add_all(w[group], Entry(group))
    return Vocabulary(gm, verbs, keywords)


@dataclass(frozen=True)
class _Text:
    """Raw text and its tokens, cut by keywords where they stand."""

    text: str
    toks: list[Tok]

    @staticmethod
    def of(text: str) -> _Text:
        return _Text(text, tokenize(text))

    def cut(self, group: str) -> tuple[str, str | None]:
        """The text before the first keyword of ``group`` (``vise``...) and what follows it."""
        lex = vocabulary().keywords
        for i in range(len(self.toks)):
            for n, entries in lex.matches(self.toks, i):
                if any(e.cat == group for e in entries):
                    before = self.text[: self.toks[i].start].strip()
                    return before, self.text[self.toks[i + n - 1].end :].strip()
        return self.text.strip(), None

    def ending(self, group: str) -> str | None:
        """The text before a keyword of ``group`` that ends it (``joe soudain``), else None."""
        lex = vocabulary().keywords
        for i in range(len(self.toks)):
            for n, entries in lex.matches(self.toks, i):
                if i + n == len(self.toks) and any(e.cat == group for e in entries):
                    return self.text[: self.toks[i].start].strip()
        return None


def _zone(state: WesternState, text: str) -> str:
    key = fold(text)
    for loc in state.tables.locations:
        if key in (fold(loc.id), fold(loc.fr), fold(loc.en)):
            return loc.id
    raise ConteurError(
        "western.unknown_zone", name=text, known=", ".join(loc.fr for loc in state.tables.locations)
    )


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
    toks = tokenize(text)
    found = next(iter(vocabulary().verbs.matches(toks, 0)), None)
    if found is None:
        close = vocabulary().verbs.suggestions(toks[0].raw) if toks else []
        if close:
            raise ConteurError(
                "western.script.unknown_suggest",
                line=line.strip(),
                word=toks[0].raw,
                suggestions=Quoted(close),
            )
        raise ConteurError("western.script.unknown", line=line)
    n, entries = found
    verb = entries[0].key
    rest = text[toks[n - 1].end :].strip(" :")
    if verb in ("round", "undo"):
        return Command(verb)
    if verb in ("pass", "reload", "run"):
        return Command(verb, actor)
    if verb == "attack":
        return _attack(state, actor, rest)
    if verb == "approach":
        return _approach(state, actor, rest)
    if verb == "knockout":
        who, obj = _Text.of(rest).cut("with")
        args: dict[str, Any] = {"target": state.fighter(who).id}
        if obj:
            args["weapon"] = state.tables.weapon(obj).id
        return Command("knockout", actor, args)
    if verb == "surprise":
        kind, who = "sudden", rest
        for k in ("attacked", "sudden"):
            before = _Text.of(rest).ending(k)
            if before is not None:
                kind, who = k, before
                break
        return Command("surprise", None, {"target": state.fighter(who).id, "surprise": kind})
    if verb == "bind":
        return Command("bind", None, {"target": state.fighter(rest).id})
    return _duel(state, rest)


def _attack(state: WesternState, actor: str | None, rest: str) -> Command:
    rest, mod = _Text.of(rest).cut("modifier")
    rest, zone = _Text.of(rest).cut("zone")
    target = rest.strip()
    for article in words()["articles"]:
        if target.lower().startswith(article + " "):
            target = target[len(article) + 1 :]
    args: dict[str, Any] = {"target": state.fighter(target).id}
    if zone:
        args["zone"] = _zone(state, zone)
    if mod:
        try:
            args["modifier"] = int(mod.replace(" ", ""))
        except ValueError:
            raise ConteurError("western.script.bad_number", value=mod) from None
    return Command("attack", actor, args)


def _approach(state: WesternState, actor: str | None, rest: str) -> Command:
    """``approche garde : nuit, silence, 15 m``: the victim, then the stealth modifiers."""
    from .knockout import stealth_entry

    target, _, mods = rest.partition(":")
    if not mods and "," in target:
        target, _, mods = target.partition(",")
    items = [m.strip() for m in mods.split(",") if m.strip()]
    args: dict[str, Any] = {"target": state.fighter(target.strip()).id}
    args["modifiers"] = [stealth_entry(state, m).id for m in items]
    return Command("approach", actor, args)


def _duel(state: WesternState, rest: str) -> Command:
    witness: bool | None = None
    side = rest.strip()
    for group, value in (("no_witness", False), ("witness", True)):
        before = _Text.of(side).ending(group)
        if before is not None:
            witness, side = value, before
            break
    sides = {fold(f.side): f.side for f in state.fighters.values()}
    if fold(side) not in sides:
        try:
            side = state.fighter(side).side
        except ConteurError:
            raise ConteurError(
                "western.unknown_side", side=side, known=", ".join(sorted(set(sides.values())))
            ) from None
    else:
        side = sides[fold(side)]
    args: dict[str, Any] = {"side": side}
    if witness is not None:
        args["witness"] = witness
    return Command("duel_won", None, args)
