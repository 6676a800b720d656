"""The script language (French or English words): one line → one ``Command``.

``initiative`` · ``embuscade bob`` · ``couvert bob partiel`` · ``dégâts bob 2 létal`` ·
``ana: tire sur bête portée moyenne`` · ``ana: rafale longue bête goule`` ·
``bob: empoigne bête`` · ``bob: domine renverse`` · ``ana: retarde après bob``.

The words are data (``data/script.yaml``), read with the engine's script kit
(``conteur.engine.lexicon``): a phrase of several words is written with ``_``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from conteur.engine import Command
from conteur.engine import lexicon as kit
from conteur.engine.lexicon import Entry, Lexicon, Reader, Tok
from conteur.i18n import ConteurError, Msg
from conteur.i18n.spelling import key_of

from .state import HunterState

ARGS = ("flag", "valued", "band", "option", "fighter", "weapon", "filler")
"""Which meaning of an action's word wins (the order the words are tried in)."""


@lru_cache(maxsize=1)
def words() -> dict[str, Any]:
    text = resources.files("conteur.rulesets.hunter").joinpath("data", "script.yaml")
    data: dict[str, Any] = yaml.safe_load(text.read_text("utf-8"))
    return data


@dataclass(frozen=True)
class Vocabulary:
    """The lexicons of one encounter: who speaks, the verbs, an action's words."""

    actors: Lexicon
    verbs: Lexicon
    args: Lexicon
    details: Lexicon
    """The words a game master's command or a quick draw picks out of its line."""
    bands: Lexicon
    gm: frozenset[str]


def _fighters(state: HunterState) -> dict[str, list[str]]:
    """Each fighter by its id and its whole name."""
    return {f.id: [f.id, f.name] for f in state.fighters.values()}


def _build(state: HunterState) -> Vocabulary:
    w = words()
    fighters = _fighters(state)
    actors = Lexicon(("actor",))
    actors.add_all(w["gm"], Entry("actor", "", surface=w["gm"][0]))
    kit.add_names(actors, fighters, "actor")
    verbs = Lexicon()
    verbs.add_map(w["verbs"], "verb")
    args = Lexicon(ARGS)
    args.add_map(w["flags"], "flag")
    args.add_map(w["valued"], "valued")
    args.add_map(w["bands"], "band")
    args.add_map(w["options"], "option")
    kit.add_names(args, fighters, "fighter")
    for weapon in state.tables.weapons.values():
        args.add_all((weapon.fr, weapon.en, weapon.id), Entry("weapon", weapon.id))
    args.add_all(w["fillers"], Entry("filler"))
    details = Lexicon()
    kit.add_names(details, fighters, "fighter")
    details.add_map(w["cover"], "cover")
    details.add_map(w["damage_types"], "damage_type")
    for weapon in state.tables.weapons.values():
        details.add_all((weapon.fr, weapon.en, weapon.id), Entry("weapon", weapon.id))
    bands = Lexicon()
    bands.add_map(w["bands"], "band")
    return Vocabulary(actors, verbs, args, details, bands, frozenset(w["gm_verbs"]))


def vocabulary(state: HunterState) -> Vocabulary:
    """The lexicons for this state's fighters and weapons (cached by them)."""
    key = (id(state.tables), tuple((f.id, f.name) for f in state.fighters.values()))
    return _CACHE.get(key, state.tables, lambda: _build(state))


_CACHE: kit.Vocabularies[Vocabulary] = kit.Vocabularies()


UNKNOWN = ("hunter.script.unknown_word", "hunter.script.unknown_word_suggest")
"""The errors of a word not understood (without, with suggestions)."""


class _Reader(Reader):
    """The tokens of one line's body, each read in the lexicon of an action's words."""

    def __init__(self, line: str, body: str, vocab: Vocabulary) -> None:
        super().__init__(line, body, UNKNOWN)
        self.vocab = vocab

    def missing(self, what: str) -> ConteurError:
        return self.error("hunter.script.missing", expected=Msg(f"hunter.script.what.{what}"))

    def number(self) -> int | None:
        """A whole number here (a sign is not read: ``-1`` is 1), else None."""
        tok = self.peek()
        if tok is not None and tok.type == "num" and tok.norm.isdigit():
            self.i += 1
            return int(tok.norm)
        return None

    def meaning(self, cat: str, lex: Lexicon | None = None) -> str | None:
        """The key of a phrase of category ``cat`` here (the longest), else None."""
        found = self.best(lex or self.vocab.args, lambda e: e.cat == cat)
        if found is None:
            return None
        self.i += found[0]
        return found[1].key

    def first(self, cat: str) -> str | None:
        """The first phrase of category ``cat`` anywhere in the rest (the other words are
        not read: a game master's command takes what it needs)."""
        mark = self.i
        while not self.done():
            key = self.meaning(cat, self.vocab.details)
            if key is not None:
                self.i = mark
                return key
            self.i += 1
        self.i = mark
        return None

    def word(self) -> str:
        """The next word as typed, folded (what a detail takes when nothing else fits)."""
        tok = self.toks[self.i]
        self.i += 1
        return tok.norm or key_of(str(tok.value if tok.type == "text" else tok.raw))


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
    reader = _Reader(line, text, vocab)
    reader.toks = _pairs_as_numbers(reader.toks)
    if reader.done():
        raise reader.error("hunter.script.empty")
    found = reader.best(vocab.verbs, lambda e: e.cat == "verb")
    if found is None:
        first = reader.toks[0]
        close = vocab.verbs.suggestions(first.raw)
        if close:
            raise reader.error(
                "hunter.script.unknown_verb_suggest",
                word=first.raw,
                suggestions=kit.Quoted(close),
            )
        raise reader.error("hunter.script.unknown_verb", word=first.raw)
    verb_words = reader.words(found[0])
    reader.i += found[0]
    verb = found[1].key
    if (verb in vocab.gm) != (actor is None):
        raise reader.error("hunter.script.who", word=verb_words)
    return _command(reader, verb, actor, state)


def _command(reader: _Reader, verb: str, actor: str | None, state: HunterState) -> Command:
    if verb in ("initiative", "undo"):
        return Command(verb)
    if verb in ("ambush", "gm_xp_reset"):
        return Command(verb, None, {"fighter": _fighter(reader)})
    if verb == "gm_cover":
        level = reader.first("cover")
        if level is None:
            raise reader.missing("cover")
        return Command("gm_cover", None, {"fighter": _fighter(reader), "cover": level})
    if verb == "gm_damage":
        numbers = [int(t.norm) for t in reader.toks[reader.i :] if t.norm.isdigit()]
        kind = reader.first("damage_type") or "lethal"
        if not numbers:
            raise reader.missing("amount")
        args = {"fighter": _fighter(reader), "amount": numbers[0], "damage_type": kind}
        return Command("gm_damage", None, args)
    if verb in ("pass", "dodge", "stop_aiming"):
        return Command(verb, actor)
    if verb == "delay":
        return Command("delay", actor, {"after": _fighter(reader)})
    if verb == "quick_draw":
        weapon = reader.first("weapon")
        if weapon is None:
            raise reader.missing("weapon")
        return Command("quick_draw", actor, {"weapon": weapon})
    return Command("act", actor, _act_args(verb, reader))


def _fighter(reader: _Reader) -> str:
    found = reader.first("fighter")
    if found is None:
        raise reader.missing("fighter")
    return found


def _act_args(verb: str, reader: _Reader) -> dict[str, Any]:
    args: dict[str, Any] = {"kind": verb}
    targets: list[str] = []
    lex = reader.vocab.args

    def takes(e: Entry) -> bool:
        if e.cat == "band":
            return verb == "burst" and "burst" not in args
        if e.cat == "option":
            return verb == "overpower" and "option" not in args
        if e.cat == "weapon":
            return verb in ("throw", "draw")
        return e.cat in ARGS

    while not reader.done():
        tok = reader.toks[reader.i]
        found = reader.best(lex, takes) if tok.type in ("word", "num") else None
        if found is None:
            raise reader.unknown(tok, lex)
        n, e = found
        words = reader.words(n)
        reader.i += n
        if e.cat == "flag":
            args[e.key] = True
        elif e.cat == "valued":
            args[e.key] = _value(reader, e.key, words)
        elif e.cat == "band":
            args["burst"] = e.key
        elif e.cat == "option":
            args["option"] = e.key
        elif e.cat == "fighter":
            targets.append(e.key)
        elif e.cat == "weapon":
            args["object" if verb == "throw" else "weapon"] = e.key
    if verb == "burst":
        if targets:
            args["targets"] = targets
    elif targets:
        args["target"] = targets[0]
    return args


def _value(reader: _Reader, key: str, after: str) -> Any:
    """The value after the keyword ``after`` of detail ``key`` (``portée moyenne``)."""
    tok = reader.peek()
    if tok is None:
        raise reader.error("hunter.script.missing_value", word=after)
    if key == "range":
        band = reader.meaning("band")
        if band is None:
            raise reader.unknown(tok, reader.vocab.bands)
        return band
    if key in ("distance", "avoid"):
        number = reader.number()
        if number is None:
            raise reader.unknown(tok, reader.vocab.args)
        return number
    cat = "fighter" if key == "ally" else "weapon"
    found = reader.meaning(cat)
    return found if found is not None else reader.word()
