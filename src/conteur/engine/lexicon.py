"""The script language's kit, shared by every ruleset: tokens, lexicons of phrases, a reader.

A script line is read in three steps, the same for every ruleset:

1. ``tokenize`` cuts it into words, numbers, positions (``3,4``), repeats (``x2``),
   quoted texts and separators; each word keeps what was typed (``raw``) and its
   folded spelling (``norm``: case, accents and ligatures folded, ``spelling.key_of``).
2. A ``Lexicon`` holds the phrases of one context (a phrase of several words is their
   folded spellings joined by ``_``) with what they mean (an ``Entry``: a category, a key,
   a value); ``matches`` finds the longest phrase at a token, several meanings ordered by
   the lexicon's priority. A ruleset fills its lexicons from its data (its words file,
   its tables, the fighters of the encounter: ``name_forms``).
3. The line's head says who acts: ``NAME: …`` (a fighter, or the game master's word),
   or no head for a line of its own (``head``); a ``Reader`` then walks the tokens of
   the rest with the ruleset's grammar, and its errors name the line and the word,
   with the closest known words as suggestions.

Nothing here knows a game: the categories, the words and the message keys are the
ruleset's.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

import yaml

from conteur.i18n import ConteurError, Lang, env_lang
from conteur.i18n.spelling import key_of

from .inputs import safe_yaml

# --------------------------------------------------------------------------- tokens

TokType = Literal["word", "num", "pos", "text", "sep", "rep"]

_NUM = r"[-+]?\d+(?:[.,]\d+)?"
_TOKEN = re.compile(
    r'"(?P<dq>[^"]*)"'
    r"|«\s*(?P<gq>[^»]*?)\s*»"
    r"|“(?P<cq>[^”]*)”"
    r"|(?P<bpos>[(\[]\s*" + _NUM + r"\s*[,;]\s*" + _NUM + r"\s*[)\]])"
    r"|(?P<pos>[-+]?\d+(?:[.,]\d+)?;[-+]?\d+(?:[.,]\d+)?|[-+]?\d+(?:\.\d+)?,[-+]?\d+(?:\.\d+)?)"
    r"(?![\w.,;])"
    r"|(?P<rep>(?:[x×]\d+|\d+[x×]))(?!\w)"
    r"|(?P<num>[-+]?\d+(?:[.,]\d+)?)(?:m\b)?(?![\w])"
    r"|(?P<sep>[+;/])"
    r"|(?P<word>[^\s:'’+;/\"«»“”()\[\],!?]+)"
    r"|(?P<skip>[\s:'’,!?]+|[()\[\]])"
)


@dataclass(frozen=True)
class Tok:
    """One token of a line: a word, a number, a position, a quoted text, a separator."""

    type: TokType
    raw: str
    norm: str
    start: int
    end: int
    value: Any = None


def parse_pair(text: str) -> tuple[float, float] | None:
    """``3,4`` / ``3;4`` / ``(2,5 ; 4)`` → (x, y); a ``;`` lets commas be decimal commas."""
    inner = text.strip().strip("()[]").strip()
    if ";" in inner:
        parts = inner.split(";")
        parts = [p.replace(",", ".") for p in parts]
    else:
        parts = inner.split(",")
    if len(parts) != 2:
        return None
    try:
        return (float(parts[0]), float(parts[1]))
    except ValueError:
        return None


def _number(raw: str) -> int | float:
    value = float(raw.replace(",", "."))
    return int(value) if value.is_integer() else value


def tokenize(text: str) -> list[Tok]:
    """The tokens of ``text`` (apostrophes and colons split words; quotes keep a text whole)."""
    out: list[Tok] = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        raw = m.group(0)
        start, end = m.start(), m.end()
        if kind in ("dq", "gq", "cq"):
            out.append(Tok("text", raw, "", start, end, m.group(kind).strip()))
        elif kind in ("bpos", "pos"):
            pair = parse_pair(raw)
            if pair is None:
                out.append(Tok("word", raw, key_of(raw), start, end))
            else:
                out.append(Tok("pos", raw, "", start, end, pair))
        elif kind == "rep":
            out.append(Tok("rep", raw, "", start, end, int(raw.strip("x×"))))
        elif kind == "num":
            number = m.group("num")
            out.append(Tok("num", raw, key_of(number), start, end, _number(number)))
        elif kind == "sep":
            out.append(Tok("sep", raw, "", start, end))
        elif kind == "word":
            word = raw.rstrip(".")
            norm = key_of(word)
            if norm:
                out.append(Tok("word", word, norm, start, start + len(word)))
    return out


def phrase_key(text: str) -> str:
    """How a lexicon files a phrase: its tokens' folded spellings joined by ``_``
    (``"Ana  Reyes"`` and ``"ana-reyes"`` give ``ana_reyes``)."""
    return "_".join(t.norm for t in tokenize(text))


# --------------------------------------------------------------------------- lexicons


@dataclass(frozen=True)
class Entry:
    """What a phrase means in one context: a category, a key and a value.

    ``surface`` is the phrase as the data writes it (shown in suggestions); ``spec`` is
    whatever the ruleset's grammar attaches (the detail a keyword introduces...)."""

    cat: str
    key: str = ""
    value: Any = None
    surface: str = ""
    spec: Any = None


SILENT = frozenset({"filler", "number", "sep"})
"""Categories never offered as suggestions (small words, number words, separators)."""


class Lexicon:
    """Phrases (folded, words joined by ``_``) and what they mean.

    ``priority`` orders the meanings of one phrase (categories named earlier win; a
    category it does not name comes after them all, in the order it was added)."""

    def __init__(self, priority: Sequence[str] = ()) -> None:
        self.entries: dict[str, list[Entry]] = {}
        self.longest = 1
        self.priority = tuple(priority)

    def copy(self) -> Lexicon:
        """A lexicon with the same phrases, to add more to."""
        out = Lexicon(self.priority)
        out.entries = {k: list(v) for k, v in self.entries.items()}
        out.longest = self.longest
        return out

    def drop(self, cat: str) -> None:
        """Forget every meaning of category ``cat``."""
        for key in list(self.entries):
            self.entries[key] = [e for e in self.entries[key] if e.cat != cat]
            if not self.entries[key]:
                del self.entries[key]

    def add(self, phrase: str, entry: Entry) -> None:
        key = key_of(phrase)
        if not key:
            return
        if not entry.surface:
            entry = Entry(entry.cat, entry.key, entry.value, phrase, entry.spec)
        found = self.entries.setdefault(key, [])
        if any(e.cat == entry.cat and e.key == entry.key for e in found):
            return
        found.append(entry)
        self.longest = max(self.longest, key.count("_") + 1)

    def add_all(self, phrases: Iterable[str], entry: Entry) -> None:
        for phrase in phrases:
            self.add(phrase, entry)

    def add_map(self, words: Mapping[str, Any], cat: str) -> None:
        """Each phrase of ``words`` meaning its value (``{"tire": "attack"}``), as ``cat``."""
        for phrase, key in words.items():
            self.add(str(phrase), Entry(cat, str(key)))

    def meanings(self, phrase: str) -> list[Entry]:
        """What ``phrase`` means, written whole (the words of a line's head...)."""
        return self._ordered(self.entries.get(phrase_key(phrase), []))

    def _ordered(self, found: list[Entry]) -> list[Entry]:
        if not self.priority:
            return list(found)
        last = len(self.priority)
        return sorted(
            found, key=lambda e: self.priority.index(e.cat) if e.cat in self.priority else last
        )

    def matches(self, toks: list[Tok], i: int) -> list[tuple[int, list[Entry]]]:
        """Every phrase starting at token ``i``, longest first (entries in priority order)."""
        out: list[tuple[int, list[Entry]]] = []
        parts: list[str] = []
        for j in range(i, len(toks)):
            if toks[j].type not in ("word", "num"):
                break
            parts.append(toks[j].norm)
        # A phrase key may hold more "_" than tokens (``armes-à-feu`` is one token).
        for n in range(len(parts), 0, -1):
            found = self.entries.get("_".join(parts[:n]))
            if found:
                out.append((n, self._ordered(found)))
        return out

    def suggestions(self, word: str, limit: int = 3) -> list[str]:
        """The surface forms closest to ``word`` (fillers, number words, separators left out)."""
        forms: dict[str, str] = {}
        for key, entries in self.entries.items():
            for e in entries:
                if e.cat not in SILENT:
                    forms.setdefault(key, e.surface)
        close = difflib.get_close_matches(key_of(word), list(forms), n=limit * 2, cutoff=0.6)
        out: list[str] = []
        for key in close:
            if forms[key] not in out:
                out.append(forms[key])
        return out[:limit]


class Quoted:
    """Words shown in quotes the way each language writes them: « a », « b » / "a", "b"."""

    def __init__(self, words: Iterable[str]) -> None:
        self.words = list(words)

    def describe(self, lang: Lang | None = None) -> str:
        if (lang or env_lang()) == "fr":
            return ", ".join(f"«\u202f{w}\u202f»" for w in self.words)
        return ", ".join(f'"{w}"' for w in self.words)


def name_forms(names: Mapping[str, str]) -> dict[str, list[str]]:
    """How a line may name each fighter (``{id: name}``): its id, its name, and the words
    of its name (three letters or more) that no other fighter's name has."""
    forms: dict[str, list[str]] = {fid: [fid, name] for fid, name in names.items()}
    owners: dict[str, set[str]] = {}
    for fid, name in names.items():
        for part in key_of(name).split("_"):
            if len(part) >= 3:
                owners.setdefault(part, set()).add(fid)
    for part, ids in owners.items():
        if len(ids) == 1:
            forms[next(iter(ids))].append(part)
    return forms


def add_names(lex: Lexicon, forms: Mapping[str, list[str]], cat: str) -> None:
    """The fighters of ``name_forms`` into ``lex``, as ``cat`` (their name as surface)."""
    for fid, names in forms.items():
        for name in names:
            lex.add(name, Entry(cat, fid, surface=names[1] if len(names) > 1 else fid))


V = TypeVar("V")


class Vocabularies(Generic[V]):
    """A ruleset's lexicons, built once per encounter's words: by a key of what they are
    built from (fighters' names...), and kept only while ``tables`` (the object the key
    holds the id of) is the same one; at most ``size`` at a time."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self.found: dict[Hashable, tuple[object, V]] = {}

    def get(self, key: Hashable, tables: object, build: Callable[[], V]) -> V:
        found = self.found.get(key)
        if found is None or found[0] is not tables:
            if len(self.found) > self.size:
                self.found.clear()
            found = self.found[key] = (tables, build())
        return found[1]

    def clear(self) -> None:
        """Forget them all (the words changed)."""
        self.found.clear()


# --------------------------------------------------------------------------- the head


@dataclass(frozen=True)
class Head:
    """A line cut at its head: who speaks (``colon`` says whether ``NAME:`` was written),
    the text before the colon and the rest."""

    colon: bool
    head: str
    body: str


def head(text: str) -> Head:
    """``text`` cut at its first colon: ``bob: tire`` → (True, ``bob``, ``tire``)."""
    before, colon, rest = text.partition(":")
    if not colon:
        return Head(False, "", text)
    return Head(True, before, rest)


def speaker(words: str, actors: Lexicon, cat: str) -> Entry | None:
    """Who ``words`` (a line's head, whole) names among ``actors``' entries of ``cat``."""
    return next((e for e in actors.meanings(words) if e.cat == cat), None)


# --------------------------------------------------------------------------- a reader


class _Nothing:
    """No value read."""


NOTHING: Any = _Nothing()
"""What a reader's ``read_…`` gives when no value of the kind asked is there."""


class Reader:
    """Walks the tokens of one line (``body``, a part of ``line``) for a ruleset's grammar.

    Errors are ConteurErrors with the whole line as ``line``; a word not understood is
    the first of the ruleset's ``unknown`` keys (its fields: ``line``, ``word``), or the
    second when close words are known (and ``suggestions``)."""

    def __init__(self, line: str, body: str, unknown: tuple[str, str]) -> None:
        self.line = line
        self.body = body
        self.unknown_keys = unknown
        self.toks = tokenize(body)
        self.i = 0
        self.verbs: Lexicon | None = None
        """The verbs that could open this line (for suggestions about its first word)."""

    # ---- errors

    def error(self, key: str, **params: Any) -> ConteurError:
        return ConteurError(key, line=self.line.strip(), **params)

    def unknown(self, tok: Tok, lex: Lexicon) -> ConteurError:
        """``tok`` not understood in ``lex`` (or known, but where nothing takes it), with the
        closest other words as suggestions."""
        close = lex.suggestions(tok.raw)
        if self.verbs is not None and self.toks and tok is self.toks[0]:
            # The first word may have been meant as a verb.
            close = list(dict.fromkeys(self.verbs.suggestions(tok.raw) + close))[:3]
        close = [c for c in close if key_of(c) != key_of(tok.raw)]  # not the word itself
        if close:
            return self.error(self.unknown_keys[1], word=tok.raw, suggestions=Quoted(close))
        return self.error(self.unknown_keys[0], word=tok.raw)

    # ---- tokens

    def done(self) -> bool:
        return self.i >= len(self.toks)

    def peek(self, offset: int = 0) -> Tok | None:
        j = self.i + offset
        return self.toks[j] if j < len(self.toks) else None

    def best(self, lex: Lexicon, accept: Callable[[Entry], bool]) -> tuple[int, Entry] | None:
        """The longest phrase here with a meaning ``accept`` takes."""
        for n, entries in lex.matches(self.toks, self.i):
            for e in entries:
                if accept(e):
                    return n, e
        return None

    def skip_fillers(self, lex: Lexicon) -> None:
        """Past the small words (``filler`` entries) at the current token."""
        while not self.done():
            found = lex.matches(self.toks, self.i)
            if found and all(e.cat == "filler" for e in found[0][1]):
                self.i += found[0][0]
            else:
                return

    def rest(self) -> str:
        """The raw text from the current token to the end of the line."""
        tok = self.peek()
        return self.body[tok.start :].strip() if tok is not None else ""

    def words(self, n: int) -> str:
        """The raw text of the ``n`` tokens from the current one."""
        first = self.toks[self.i]
        return self.body[first.start : self.toks[self.i + n - 1].end]

    def read_position(self) -> list[float] | None:
        """A position here (``3,4``, or two numbers in a row), or None."""
        tok = self.peek()
        if tok is not None and tok.type == "pos":
            self.i += 1
            return [float(tok.value[0]), float(tok.value[1])]
        nxt = self.peek(1)
        if tok is not None and nxt is not None and tok.type == "num" and nxt.type == "num":
            self.i += 2
            return [float(tok.value), float(nxt.value)]
        return None

    def read_data(self, bad: str) -> Any:
        """A YAML value in brackets (``{colt: 3}``, ``[lethal, L]``), else one word as typed
        (``NOTHING`` at the end of the line; the ruleset's error ``bad`` when the brackets
        do not close or do not hold YAML, its ``detail`` the text in them)."""
        tok = self.peek()
        if tok is None:
            return NOTHING
        start = tok.start
        before = self.toks[self.i - 1].end if self.i > 0 else 0
        opened = self.body.rfind("[", before, start)
        if opened >= 0 and not self.body[opened + 1 : start].strip():
            start = opened  # "[" is punctuation to the tokenizer
        opening = self.body[start : start + 1]
        if opening not in "{[" or not opening:
            self.i += 1
            return tok.value if tok.type in ("num", "text") else tok.raw
        closing = {"{": "}", "[": "]"}[opening]
        depth, end = 0, -1
        for j in range(start, len(self.body)):
            depth += {opening: 1, closing: -1}.get(self.body[j], 0)
            if depth == 0:
                end = j + 1
                break
        if end < 0:
            raise self.error(bad, detail=self.body[start:])
        try:
            value = safe_yaml(self.body[start:end])
        except yaml.YAMLError:
            raise self.error(bad, detail=self.body[start:end]) from None
        while not self.done() and self.toks[self.i].start < end:
            self.i += 1
        return value
