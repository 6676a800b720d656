"""The script language's grammar, shared by every ruleset: verbs and their slots, as data.

A ruleset writes its commands in its data file (``data/script.yaml``), each a ``Verb``:
the words that open it, the engine command it makes, fixed arguments, and its ``slots``
(each a ``Slot``: a kind, the keywords that introduce it, the words of its values,
whether it may stand with no keyword, whether it must be given, its default). The kit
reads the rest of a line against them (``SlotReader.slots``) and reports, line and word
named, what it did not understand or what is missing (the ruleset's message keys, under
its ``prefix``: ``PREFIX.unknown_word``, ``PREFIX.missing``, ``PREFIX.expect.KIND``...).

The kinds every ruleset has are here (``flag``, ``int``, ``choice``, ``text``, ``data``,
``position``, ``place``, ``fighter``, ``fighters``); a kind only one ruleset has (a
weapon of its tables, a cover level...) is a ``Kind`` the ruleset registers by name in
its ``Grammar``, and so is a ``hook`` (post-processing of a verb's slots, by name) and a
``body`` (a verb whose rest is not slots: a ruleset's declaration of several actions).
Nothing here knows a game. The data form: docs/scenarios.en.md, "Adding a verb"
(docs/scenarios.fr.md, « Ajouter un verbe »).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError

from conteur.i18n import ConteurError, Msg

from .commands import Command
from .inputs import InputError, first_error, plain_path, pydantic_reason
from .lexicon import NOTHING, Entry, Lexicon, Quoted, Reader, Tok

# --------------------------------------------------------------------------- the data


class Slot(BaseModel):
    """A detail of a command: how its value is written (a ruleset's ``data/script.yaml``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: str
    words: tuple[str, ...] = ()
    """The keywords that introduce it (``portée``, ``range``)."""
    values: dict[str | bool | int, tuple[str, ...]] = {}
    """A choice's values, each with its words (which also work alone unless ``keyword_only``)."""
    value: Any = True
    """What a flag sets."""
    default: Any = None
    positional: bool = False
    """Whether it may be given with no keyword (a fighter, a number, a text...)."""
    required: bool = False
    keyword_only: bool = False
    what: str | None = None
    """The message naming what is missing (``PREFIX.expect.WHAT``; the kind when not given)."""


class Verb(BaseModel):
    """A command verb: its words, the engine command it makes and how the rest reads."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    command: str | None = None
    """The engine command (the verb's own name when not given)."""
    words: tuple[str, ...]
    args: dict[str, Any] = {}
    """Arguments the command always has (``kind: attack``)."""
    body: str = "slots"
    """``slots``, or the name of a body the ruleset's grammar reads itself."""
    slots: dict[str, Slot] = {}
    hook: str | None = None


M = TypeVar("M", bound=BaseModel)


def _checked(
    data: BaseModel, kinds: list[str], bodies: list[str]
) -> Iterable[tuple[tuple[str, ...], str, list[str]]]:
    """Every slot's kind and verb's body in ``data``'s groups, with where it is written and
    what it may be."""
    for name, value in data:
        groups = value if isinstance(value, dict) else {}
        for key, item in groups.items():
            if isinstance(item, Verb):
                yield (name, str(key), "body"), item.body, bodies
                for slot_name, slot in item.slots.items():
                    yield (name, str(key), "slots", slot_name, "kind"), slot.kind, kinds
            elif isinstance(item, Slot):
                yield (name, str(key), "kind"), item.kind, kinds


def load_words(
    package: str, path: str, model: type[M], kinds: Iterable[str], bodies: Iterable[str] = ()
) -> M:
    """A ruleset's script words (``path`` in ``package``) as ``model`` (``parse_words``)."""
    text = resources.files(package).joinpath(path).read_text(encoding="utf-8")
    return parse_words(text, f"{package.rsplit('.', 1)[-1]}/{path}", model, kinds, bodies)


def parse_words(
    text: str, file: str, model: type[M], kinds: Iterable[str], bodies: Iterable[str] = ()
) -> M:
    """Script words (the YAML ``text`` of ``file``) as ``model``; an ``InputError`` naming
    the file, the entry (``verbs.attack``) and the field when they are wrong: a slot's
    kind none of ``kinds``, a verb's body neither ``slots`` nor one of ``bodies``."""
    try:
        data = model.model_validate(yaml.safe_load(text))
    except ValidationError as exc:
        loc, why = pydantic_reason(first_error(exc), model)
        entry = ".".join(str(p) for p in loc[:2])
        raise InputError(why, file=file, entry=entry, field=plain_path(loc[2:])) from None
    for where, value, known in _checked(data, sorted(kinds), sorted({"slots", *bodies})):
        if value not in known:
            reason = Msg("input.reason.choice", value=value, expected=", ".join(known))
            entry = ".".join(where[:2])
            raise InputError(reason, file=file, entry=entry, field=plain_path(where[2:]))
    return data


# --------------------------------------------------------------------------- kinds


def _key(e: Entry) -> Any:
    return e.key


@dataclass(frozen=True)
class Kind:
    """How a slot's value is read.

    ``fills``: the lexicon categories whose words fill a positional slot of this kind (a
    fighter's name...), ``value`` what such a word gives; ``read`` reads the value after
    a keyword (the entries of ``fills`` when not given); ``number`` what a number alone
    gives (``NOTHING``: none); ``segment``: the value is the words up to the next keyword
    (a positional slot of this kind takes a word not understood)."""

    fills: tuple[str, ...] = ()
    value: Callable[[Entry], Any] = _key
    read: Callable[[SlotReader, Slot, Lexicon], Any] | None = None
    number: Callable[[int | float], Any] | None = None
    segment: bool = False


def _entries(kind: Kind) -> Callable[[SlotReader, Slot, Lexicon], Any]:
    def read(reader: SlotReader, spec: Slot, lex: Lexicon) -> Any:
        return reader.take(lex, lambda e: e.cat in kind.fills, kind.value)

    return read


FIGHTER = ("fighter",)

KINDS: dict[str, Kind] = {
    "flag": Kind(),
    "int": Kind(),
    "text": Kind(),
    "choice": Kind(),
    "data": Kind(),
    "position": Kind(),
    "place": Kind(fills=FIGHTER),
    "fighter": Kind(fills=FIGHTER),
    "fighters": Kind(fills=FIGHTER),
}
"""The kinds every ruleset has (read by ``SlotReader.read_typed`` itself)."""

Hook = Callable[["SlotReader", dict[str, Any]], dict[str, Any]]
Body = Callable[["SlotReader"], dict[str, Any]]
"""A verb's rest read by the ruleset (from the reader's current word): the command's
arguments."""


MESSAGES = (
    "unknown_word",
    "unknown_word_suggest",
    "expected",
    "missing",
    "missing_value",
    "number",
    "bad_data",
)
"""The messages a grammar says under its prefix (``PREFIX.missing``...), beside the
``PREFIX.expect.KIND`` family naming what a slot expects: each ruleset's catalogue has
them."""


@dataclass
class Grammar:
    """A ruleset's grammar: its message keys' ``prefix``, its own kinds and hooks.

    ``strict_values``: a keyword's value not understood is the word there not understood
    (``PREFIX.unknown_word``, with the closest values), and a keyword ending the line is
    ``PREFIX.missing_value``; otherwise both are ``PREFIX.expected`` (what the keyword
    takes)."""

    prefix: str
    kinds: dict[str, Kind] = field(default_factory=dict)
    hooks: dict[str, Hook] = field(default_factory=dict)
    bodies: dict[str, Body] = field(default_factory=dict)
    priority: tuple[str, ...] = ("param", "value", "fighter", "number", "filler", "kwvalue")
    strict_values: bool = False

    def kind(self, name: str) -> Kind:
        return self.kinds.get(name) or KINDS[name]

    def known_kinds(self) -> set[str]:
        return set(KINDS) | set(self.kinds)

    def hook(self, name: str) -> Callable[[Hook], Hook]:
        """Register a slot post-processor under ``name`` (``hook:`` in the data)."""

        def wrap(fn: Hook) -> Hook:
            self.hooks[name] = fn
            return fn

        return wrap

    def body(self, name: str) -> Callable[[Body], Body]:
        """Register the reader of a verb's rest under ``name`` (``body:`` in the data)."""

        def wrap(fn: Body) -> Body:
            self.bodies[name] = fn
            return fn

        return wrap

    def lexicon(self) -> Lexicon:
        return Lexicon(self.priority)

    @property
    def unknown(self) -> tuple[str, str]:
        return (f"{self.prefix}.{MESSAGES[0]}", f"{self.prefix}.{MESSAGES[1]}")

    def slot_lexicon(
        self,
        slots: Mapping[str, Slot],
        base: Lexicon | None = None,
        words: Mapping[str, Callable[[Lexicon], None]] | None = None,
    ) -> Lexicon:
        """The words of ``slots``: ``base``'s (small words, number words), the keywords and
        values, and the words (``words``, by category) of what their kinds take."""
        lex = base.copy() if base is not None else self.lexicon()
        add_slots(lex, slots, "param")
        cats = dict.fromkeys(c for s in slots.values() for c in self.kind(s.kind).fills)
        for cat in cats:
            if words is not None and cat in words:
                words[cat](lex)
        return lex


def add_slots(lex: Lexicon, slots: Mapping[str, Slot], cat: str) -> None:
    """The keywords of ``slots`` (as ``cat``) and their choices' values into ``lex``."""
    for name, spec in slots.items():
        lex.add_all(spec.words, Entry(cat, name, spec=spec))
        if spec.kind == "choice":
            value_cat = "kwvalue" if spec.keyword_only else "value"
            for value, phrases in spec.values.items():
                lex.add_all(phrases, Entry(value_cat, name, value, spec=spec))


def verbs_lexicon(groups: Iterable[tuple[str, Mapping[str, Verb]]]) -> Lexicon:
    """The verbs of ``groups`` (a tag, verbs by id): each an entry ``verb`` keyed by its id,
    the tag as its value and the ``Verb`` as its spec."""
    lex = Lexicon(("verb",))
    for tag, verbs in groups:
        for vid, verb in verbs.items():
            lex.add_all(verb.words, Entry("verb", vid, tag, spec=verb))
    return lex


# --------------------------------------------------------------------------- reading


def _fills(cat: str) -> Callable[[Kind], bool]:
    return lambda k: cat in k.fills


class SlotReader(Reader):
    """Reads a line's slots for one ruleset's ``Grammar``; ``names`` are the fighters'
    names (listed when a fighter is expected)."""

    def __init__(self, line: str, body: str, grammar: Grammar, names: Iterable[str] = ()) -> None:
        super().__init__(line, body, grammar.unknown)
        self.grammar = grammar
        self.names = list(names)
        self.pending: list[Tok] = []
        self.signs: dict[str, str] = {}

    # ---- the verb

    def verb(self, lex: Lexicon, keys: tuple[str, str], **params: Any) -> tuple[str, Entry]:
        """The verb the line starts with: (its words as typed, its entry); else the error
        ``keys`` (without, with suggestions) naming the first word."""
        found = self.best(lex, lambda e: e.cat == "verb")
        if found is None:
            tok = self.peek()
            word = tok.raw if tok is not None else ""
            close = lex.suggestions(word) if word else []
            if close:
                raise self.error(keys[1], word=word, suggestions=Quoted(close), **params)
            raise self.error(keys[0], word=word, **params)
        words = self.words(found[0])
        self.i += found[0]
        return words, found[1]

    def command(self, verb: str, spec: Verb, lex: Lexicon, actor: str | None) -> Command:
        """The engine command ``spec`` makes of the rest of the line (its slots, or the
        ruleset's ``body`` of that name)."""
        if spec.body != "slots":
            args = {**spec.args, **self.grammar.bodies[spec.body](self)}
        else:
            args = {**spec.args, **self.slots(spec, lex)}
        return Command(spec.command or verb, actor, args)

    # ---- errors

    def key(self, name: str) -> str:
        """The grammar's message ``name`` (one of ``MESSAGES``) under its prefix."""
        assert name in MESSAGES, name
        return f"{self.grammar.prefix}.{name}"

    def expected(self, kind: str, after: str, spec: Slot | None = None) -> ConteurError:
        return self.error(self.key("expected"), word=after, expected=self.what(kind, spec))

    def what(self, kind: str, spec: Slot | None = None) -> Msg:
        choices = ""
        if spec is not None and spec.values:
            choices = " / ".join(v[0] for v in spec.values.values() if v)
        elif "fighter" in self.grammar.kind(kind).fills:
            choices = ", ".join(self.names)
        what = spec.what if spec is not None and spec.what else kind
        return Msg(f"{self.grammar.prefix}.expect.{what}", choices=choices)

    def not_read(self, kind: str, spec: Slot, lex: Lexicon, after: str) -> ConteurError:
        """A keyword's value not understood (``Grammar.strict_values``)."""
        tok = self.peek()
        if not self.grammar.strict_values:
            return self.expected(kind, after, spec)
        if tok is None:
            return self.error(self.key("missing_value"), word=after)
        if spec.kind == "choice":
            values = Lexicon()
            for phrases in spec.values.values():
                values.add_all(phrases, Entry("value"))
            return self.unknown(tok, values)
        return self.unknown(tok, lex)

    # ---- values

    def read_value(self, name: str, spec: Slot, lex: Lexicon, after: str) -> Any:
        """The value of detail ``name`` right after its keyword ``after``."""
        kind = spec.kind
        if kind == "flag":
            return spec.value
        if kind == "int":
            return self.read_int(name, spec, lex, after)
        if kind == "text":
            tok = self.peek()
            if tok is not None and tok.type == "text":
                self.i += 1
                return tok.value
            text = self.rest()
            if not text:
                if spec.default is not None:
                    return spec.default
                raise self.expected("text", after)
            self.i = len(self.toks)
            return text
        mark = self.i
        self.skip_fillers(lex)
        value = self.read_typed(kind, spec, lex)
        if value is NOTHING:
            self.i = mark
            if spec.default is not None:
                return spec.default
            raise self.not_read(kind, spec, lex, after)
        return value

    def read_int(self, name: str, spec: Slot, lex: Lexicon, after: str) -> Any:
        if self.pending:
            tok = self.pending.pop()
            self.signs[name] = tok.raw[:1]
            return int(tok.value)
        mark = self.i
        self.skip_fillers(lex)
        nxt = self.peek()
        if nxt is not None and nxt.type == "num":
            self.i += 1
            self.signs[name] = nxt.raw[:1]
            return int(nxt.value)
        found = self.best(lex, lambda e: e.cat == "number")
        if found is not None:
            self.i += found[0]
            return int(found[1].value)
        self.i = mark
        if spec.default is not None:
            return spec.default
        raise self.not_read("int", spec, lex, after)

    def read_typed(self, kind: str, spec: Slot, lex: Lexicon) -> Any:
        """A value of ``kind`` at the current token, or ``NOTHING``."""
        tok = self.peek()
        if tok is None:
            return NOTHING
        own = self.grammar.kinds.get(kind)
        if own is not None:
            return (own.read or _entries(own))(self, spec, lex)
        if kind in ("place", "position"):
            pos = self.read_position()
            if pos is not None:
                return pos
            if kind == "position":
                return NOTHING
        if kind == "choice":
            return self.take(lex, lambda e: e.spec is spec and e.cat in ("value", "kwvalue"))
        if kind in ("fighter", "place"):
            return self.take(lex, lambda e: e.cat == "fighter")
        if kind == "fighters":
            found: list[str] = []
            while True:
                one = self.take(lex, lambda e: e.cat == "fighter")
                if one is NOTHING:
                    break
                found.append(one)
                self.skip_fillers(lex)
            return found or NOTHING
        if kind == "data":
            return self.read_data(self.key("bad_data"))
        return NOTHING

    def take(
        self,
        lex: Lexicon,
        accept: Callable[[Entry], bool],
        value: Callable[[Entry], Any] | None = None,
    ) -> Any:
        """The value of the longest phrase here ``accept`` takes (``value`` of its entry:
        a choice's value, else its key), or ``NOTHING``."""
        found = self.best(lex, accept)
        if found is None:
            return NOTHING
        self.i += found[0]
        e = found[1]
        if value is not None:
            return value(e)
        if e.cat in ("value", "kwvalue"):
            return e.value
        return e.key

    def at_keyword(self, lex: Lexicon) -> bool:
        """Whether a keyword or a value of ``lex`` starts here."""
        found = lex.matches(self.toks, self.i)
        return any(e.cat in ("param", "value", "kwvalue") for _, es in found for e in es)

    def segment(self, lex: Lexicon) -> str:
        """The words as typed from here up to the next keyword or value of ``lex`` (or the
        end of the line), small words first skipped."""
        self.skip_fillers(lex)
        start = self.i
        while not self.done() and not self.at_keyword(lex):
            self.i += 1
        if self.i == start:
            return ""
        return self.body[self.toks[start].start : self.toks[self.i - 1].end].strip()

    # ---- slots

    def slots(self, spec: Verb, lex: Lexicon) -> dict[str, Any]:
        """The slots of ``spec`` read from the rest of the line (``lex``: their words)."""
        args: dict[str, Any] = {}
        slots = spec.slots
        grammar = self.grammar

        def free(kinds: tuple[str, ...] | Callable[[Kind], bool]) -> str | None:
            def fits(s: Slot) -> bool:
                if callable(kinds):
                    return kinds(grammar.kind(s.kind))
                return s.kind in kinds

            def open_(n: str, s: Slot) -> bool:
                return n not in args or s.kind == "fighters"  # several, one after another

            return next(
                (n for n, s in slots.items() if fits(s) and s.positional and open_(n, s)),
                None,
            )

        fillers_from: int | None = None
        """Where the fillers just skipped began: a text read from here keeps them."""

        def text_from_here(name: str) -> None:
            first = self.toks[fillers_from if fillers_from is not None else self.i]
            args[name] = self.body[first.start :].strip()
            self.i = len(self.toks)

        while not self.done():
            tok = self.toks[self.i]
            if tok.type == "num":
                self.pending.append(tok)
                self.i += 1
                fillers_from = None
                continue
            if tok.type == "pos":
                name = free(("position", "place"))
                if name is None:
                    raise self.unknown(tok, lex)
                args[name] = [float(tok.value[0]), float(tok.value[1])]
                self.i += 1
                continue
            if tok.type == "text":
                name = free(("text",))
                if name is None:
                    raise self.unknown(tok, lex)
                if self.i == len(self.toks) - 1:
                    args[name] = tok.value  # a text in quotes ends the line: the quotes go
                    self.i += 1
                else:
                    text_from_here(name)  # quotes inside a longer text stay
                continue
            found = self.best(lex, lambda e: True)
            if found is None or tok.type in ("sep", "rep"):
                segment = free(lambda k: k.segment)
                if segment is not None and tok.type == "word":
                    if fillers_from is not None:
                        self.i = fillers_from
                    args[segment] = self.read_value(segment, slots[segment], lex, tok.raw)
                    fillers_from = None
                    continue
                name = free(("text",))
                if name is not None:
                    text_from_here(name)
                    break
                raise self.unknown(tok, lex)
            n, e = found
            if e.cat == "kwvalue":
                raise self.unknown(tok, lex)
            words = self.body[tok.start : self.toks[self.i + n - 1].end]
            if e.cat == "filler":
                if fillers_from is None:
                    fillers_from = self.i
                self.i += n
                continue
            self.i += n
            if e.cat == "param":
                assert isinstance(e.spec, Slot)
                args[e.key] = self.read_value(e.key, e.spec, lex, words)
            elif e.cat == "value":
                args[e.key] = e.value
            elif e.cat == "number":
                self.pending.append(Tok("num", words, "", tok.start, tok.end, e.value))
            else:
                name = free(_fills(e.cat))
                if name is None:
                    text = free(("text",))
                    if text is None:
                        raise self.unknown(tok, lex)
                    self.i -= n
                    text_from_here(text)
                    break
                if slots[name].kind == "fighters":
                    args.setdefault(name, []).append(e.key)
                else:
                    args[name] = grammar.kind(slots[name].kind).value(e)
            fillers_from = None
        while self.pending:
            tok = self.pending[0]
            name = free(("int",))
            number = free(lambda k: k.number is not None)
            pos = free(("position", "place"))
            given = NOTHING
            if name is None and number is not None:
                read_number = grammar.kind(slots[number].kind).number
                assert read_number is not None
                given = read_number(tok.value)
            if given is not NOTHING and number is not None:
                args[number] = given
            elif name is None and pos is not None and len(self.pending) >= 2:
                args[pos] = [float(tok.value), float(self.pending[1].value)]
                self.pending.pop(0)
            elif name is not None:
                args[name] = int(tok.value)
                self.signs[name] = tok.raw[:1]
            else:
                raise self.error(self.key("number"), word=tok.raw)
            self.pending.pop(0)
        for name, s in slots.items():
            if name in args:
                continue
            if s.required:
                raise self.error(self.key("missing"), expected=self.what(s.kind, s))
            if s.default is not None:
                args[name] = s.default
        if spec.hook:
            args = grammar.hooks[spec.hook](self, args)
        return args
