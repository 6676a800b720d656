"""User-facing text in French (default) and English.

Every message a user can read is a key in a catalog file (``*.yaml`` with one
``fr`` and one ``en`` form per key). Rulesets register their own catalogs, so
a new ruleset adds text without touching this module.

Numbers are written the way the reader's language writes them (Babel): a decimal
field reads ``2,5`` in French and ``2.5`` in English. A counted word is a plural
field: ``{levels:niveau|niveaux}`` renders the number and the word of its plural
category (``one|other``, chosen by Babel's plural rules of the language: « 1 dé »,
« 0 dé », « 3 dés »; "1 die", "0 dice"), so no catalog writes « dé(s) ».
French puts a narrow no-break space (U+202F) before « : ; ? ! » and inside « »;
English none (``tests/test_words.py`` checks every entry).

A package's catalog (``register_package_catalog``) is read when a message is first
looked up that the catalogs read so far lack — the catalogs registered are read in
order until one has it — or when the whole ``catalog()`` is asked for: registering
costs nothing at import, so a command that prints no message (``conteur odds ...
--json``) reads no catalog, and one that prints a few reads only the catalogs up to
them. Catalogs are read in the order they were registered, so a key defined twice is
reported as before (once the second catalog is read). The words made from a ruleset's
tables (``register_words``, ``register_catalog_later``) are made when their turn comes
too: a command that reads no catalog up to them builds none.
"""

from __future__ import annotations

import errno
import os
import string
import sys
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal, Protocol

import yaml

from conteur import runcache

if TYPE_CHECKING:
    from pathlib import Path

Lang = Literal["fr", "en"]
LANGS: tuple[Lang, ...] = ("fr", "en")
DEFAULT_LANG: Lang = "fr"

_catalog: dict[str, dict[Lang, str]] = {}
_YAML_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""The libyaml safe loader when PyYAML was built with it (faster start), else the pure one."""
_sources: dict[str, str] = {}


def safe_yaml(text: str) -> Any:
    """The data of a shipped YAML text (``yaml.safe_load``'s, read by libyaml when PyYAML
    has it: several times faster than the pure-Python reader)."""
    return yaml.load(text, Loader=_YAML_LOADER)


class CatalogError(ValueError):
    """A catalog file is malformed (a developer error, reported in English)."""


def parse_lang(value: str | None) -> Lang:
    """The language named by ``value`` (``fr``/``en``, any case, ``fr_FR``); French otherwise."""
    if not value:
        return DEFAULT_LANG
    short = value.strip().lower().replace("-", "_").split("_")[0]
    return "en" if short == "en" else "fr"


LANG_ENV = "CONTEUR_LANG"
"""The variable naming the language of messages when no ``--lang`` is given."""


def env_lang() -> Lang:
    """The language asked for by ``CONTEUR_LANG`` (French when unset)."""
    return parse_lang(os.environ.get(LANG_ENV))


def known_lang(value: str) -> bool:
    """Whether ``value`` names one of conteur's languages (``fr``, ``en``, ``fr_FR``,
    ``en-GB``, any case)."""
    return value.strip().lower().replace("-", "_").split("_")[0] in LANGS


def env_lang_refusal() -> str | None:
    """When ``CONTEUR_LANG`` names a language conteur does not speak (``de``), the refusal
    in every language, one line each (the reader's language is what is unknown); None
    when it is unset, empty or known. The CLI and the server check it as they start,
    rather than read it as French without a word."""
    value = os.environ.get(LANG_ENV) or ""
    if not value.strip() or known_lang(value):
        return None
    error = ConteurError("i18n.env_lang_bad", value=value[:40], known=", ".join(LANGS))
    return "\n".join(t("cli.error", lang, message=error.message(lang)) for lang in LANGS)


def register_catalog(path: Path | str, text: str | None = None) -> None:
    """Add the messages of one catalog file; a key may be defined only once."""
    with _lock:
        _read_pending()
        _register(path, text)


def _register(path: Path | str, text: str | None) -> None:
    if text is None:
        with open(path, encoding="utf-8") as file:
            text = file.read()
    _add(path, safe_yaml(text))


def _add(path: Path | str, raw: Any) -> None:
    """Add the messages ``raw`` (a catalog's data) read from ``path``."""
    if raw is None:
        return  # a catalog with no message yet
    if not isinstance(raw, dict):
        raise CatalogError(f"{path}: a catalog is a mapping of keys")
    for key, forms in raw.items():
        if not isinstance(forms, dict) or set(forms) != set(LANGS):
            raise CatalogError(f"{path}: {key!r} needs exactly the forms {LANGS}")
        if len({frozenset(placeholders(str(forms[lang]))) for lang in LANGS}) != 1:
            raise CatalogError(f"{path}: {key!r} uses different {{fields}} in fr and en")
        if key in _catalog:
            raise CatalogError(f"{path}: {key!r} already defined in {_sources[key]}")
        _catalog[str(key)] = {lang: str(forms[lang]) for lang in LANGS}
        _sources[str(key)] = str(path)


def register_words(
    source: str, words: Mapping[str, tuple[str, str]], prefix: str = "word."
) -> None:
    """Add ``<prefix><id>`` for each ``id: (fr, en)`` of a ruleset's tables (its weapons,
    armour...) that no catalog defines yet, so that a field holding the id reads as the
    table's name in the reader's language. A key a catalog defines is never replaced: the
    words are made when their turn comes to be read (``register_catalog_later``), once
    every catalog registered before them is read."""

    def fresh(known: Mapping[str, Mapping[Lang, str]]) -> Entries:
        return {
            f"{prefix}{ident}": {"fr": fr, "en": en}
            for ident, (fr, en) in words.items()
            if f"{prefix}{ident}" not in known and "{" not in fr + en
        }

    register_catalog_later(source, fresh)


Entries = Mapping[str, Mapping[str, str]]
"""Messages as a catalog file holds them: key → ``{"fr": ..., "en": ...}``."""


def register_catalog_later(
    source: str, entries: Callable[[Mapping[str, Mapping[Lang, str]]], Entries]
) -> None:
    """Register the messages ``entries(known)`` gives, made when this catalog's turn comes
    to be read (as a package catalog's, ``register_package_catalog``): ``known`` holds the
    messages of every catalog registered before it, all read by then, so that ``entries``
    can leave out the keys they define; they join the catalog in key order. For messages
    made from data (a table's names) that only a command printing them needs. ``entries``
    must not look a message up itself."""
    with _lock:
        _pending.append((source, entries))


def register_package_catalog(package: str, name: str = "messages.yaml") -> None:
    """Register the catalog shipped as ``name`` inside ``package`` (once; it is read
    when a message it may hold is first looked up)."""
    marker = f"{package}/{name}"
    with _lock:
        if marker in _loaded_packages:
            return
        _loaded_packages.add(marker)
        _pending.append((package, name))


_loaded_packages: set[str] = set()
_pending: list[tuple[str, str | Callable[[Mapping[str, Mapping[Lang, str]]], Entries]]] = []
"""Catalogs registered but not read yet, in the order of registration: a package and its
file's name, or a source and the function that makes its messages."""
_lock = threading.RLock()


def _read_pending(key: str | None = None) -> None:
    """Read the catalogs registered and not read yet, in order — all of them, or
    until one defines ``key`` (the caller holds ``_lock``). A key a later catalog defines
    again is reported when that catalog is read (by the next miss, or ``catalog()``)."""
    while _pending and (key is None or key not in _catalog):
        source, what = _pending.pop(0)
        if isinstance(what, str):
            text = _package_text(source, what)
            _add(f"{source}/{what}", runcache.shipped_yaml(text, safe_yaml))
        else:
            _add(source, dict(sorted(what(_catalog).items())))  # in key order, as ever


def _package_text(package: str, name: str) -> str:
    """The text of the file ``name`` shipped inside ``package``: read beside the package's
    ``__init__`` when it is a plain folder (no ``importlib.resources``, whose import costs
    more than most catalogs), else through ``importlib.resources`` (a zip, say)."""
    module = sys.modules.get(package)
    where = getattr(module, "__file__", None)
    if where:
        try:
            with open(os.path.join(os.path.dirname(where), name), encoding="utf-8") as file:
                return file.read()
        except FileNotFoundError:
            pass
    from importlib import resources

    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


def _read_all() -> None:
    if _pending:
        with _lock:
            _read_pending()


def catalog() -> Mapping[str, Mapping[Lang, str]]:
    """Every registered message (read-only view for tests and tools)."""
    _read_all()
    return _catalog


def placeholders(template: str) -> set[str]:
    """The ``{name}`` fields a template uses."""
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


_LOCALES: dict[Lang, str] = {"fr": "fr_FR", "en": "en_US"}


def number(value: float, lang: Lang | None = None, digits: int = 2) -> str:
    """``value`` written the way ``lang`` writes it, with at most ``digits`` decimals
    (``2,5`` and ``1\u202f234`` in French, ``2.5`` and ``1,234`` in English)."""
    from babel.numbers import format_decimal

    chosen = lang or env_lang()
    pattern = "#,##0" + ("." + "#" * digits if digits > 0 else "")
    return str(format_decimal(value, format=pattern, locale=_LOCALES[chosen]))


MINUS = "\u2212"
"""The true minus sign a signed number is written with (« −2 », never ASCII « -2 »)."""


def signed(value: float, lang: Lang | None = None) -> str:
    """``value`` with its sign, through Babel: « +1 », « −2 », « +2,5 » (a true minus, U+2212;
    0 reads « +0 »). A catalogue field written ``{x:+d}`` is filled so too."""
    return ("+" if value >= 0 else MINUS) + number(abs(value), lang)


def plural_category(count: float, lang: Lang | None = None) -> str:
    """The plural category of ``count`` in ``lang`` (``one``, ``other``...: Babel's rules)."""
    from babel import Locale

    return str(Locale.parse(_LOCALES[lang or env_lang()]).plural_form(abs(count)))


def plural(count: float, forms: str, lang: Lang | None = None) -> str:
    """``count`` and the word of its plural category: ``forms`` is ``one|other``
    (``plural(1, "dé|dés", "fr")`` is « 1 dé », ``plural(3, "die|dice", "en")`` "3 dice")."""
    one, _, other = forms.partition("|")
    word = one if plural_category(count, lang) == "one" or not other else other
    shown = number(count, lang) if isinstance(count, float) else str(count)
    return f"{shown} {word}" if word else shown


def _count(value: Any) -> int | float | None:
    """``value`` as a count (a number, or a string of one), None when it is none."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int | float):
        return value
    try:
        return int(str(value))
    except ValueError:
        return None


class _Formatter(string.Formatter):
    """Fills a catalog template in one language: a float through Babel, a plural field
    (``{n:one|other}``) as the number and its word."""

    def __init__(self, lang: Lang) -> None:
        self.lang = lang

    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" in format_spec:
            count = _count(value)
            if count is None:  # a count already written out: the plural word follows it
                return f"{value} {format_spec.rpartition('|')[2]}".strip()
            return plural(count, format_spec, self.lang)
        if not format_spec and isinstance(value, float):
            return number(value, self.lang)
        if format_spec == "+d" and isinstance(value, int) and not isinstance(value, bool):
            return signed(value, self.lang)
        return str(super().format_field(value, format_spec))


_FORMATTERS: dict[Lang, _Formatter] = {lang: _Formatter(lang) for lang in LANGS}


def percent(p: float, lang: Lang | None = None, digits: int = 1) -> str:
    """A probability as a percentage written the way ``lang`` writes it (``12,3 %``, ``12.3%``)."""
    from babel.numbers import format_percent

    chosen = lang or env_lang()
    decimals = "." + "0" * digits if digits > 0 else ""
    pattern = f"#,##0{decimals} %" if chosen == "fr" else f"#,##0{decimals}%"
    return str(format_percent(p, format=pattern, locale="fr_FR" if chosen == "fr" else "en_US"))


class Describable(Protocol):
    """Anything that can say itself in a language (a roll, a nested message)."""

    def describe(self, lang: Lang | None = None) -> str: ...


def t(key: str, lang: Lang | None = None, /, **params: Any) -> str:
    """The message ``key`` in ``lang`` (default: ``CONTEUR_LANG``), with its fields filled.

    A field value with a ``describe(lang)`` method (a roll request, a ``Msg``)
    is rendered in the same language.
    """
    forms = _catalog.get(key)
    if forms is None and _pending:
        with _lock:
            _read_pending(key)
        forms = _catalog.get(key)
    if forms is None:
        raise KeyError(f"no message {key!r}")
    chosen = lang or env_lang()
    filled = {k: v.describe(chosen) if hasattr(v, "describe") else v for k, v in params.items()}
    return _FORMATTERS[chosen].vformat(forms[chosen], (), filled)


class Msg:
    """A message key and its fields, rendered later in whatever language is asked."""

    __slots__ = ("key", "params")

    def __init__(self, key: str, /, **params: Any) -> None:
        self.key = key
        self.params = params

    def describe(self, lang: Lang | None = None) -> str:
        return t(self.key, lang, **self.params)

    def __repr__(self) -> str:
        return f"Msg({self.key!r}, **{self.params!r})"


class Bilingual:
    """A text given in both languages by data (a weapon's name), usable as a message field."""

    __slots__ = ("en", "fr")

    def __init__(self, fr: str, en: str) -> None:
        self.fr = fr
        self.en = en

    def describe(self, lang: Lang | None = None) -> str:
        return self.en if (lang or env_lang()) == "en" else self.fr

    def __repr__(self) -> str:
        return f"Bilingual({self.fr!r}, {self.en!r})"


class ConteurError(Exception):
    """An error a user can read: a message key, its fields, and the rule it enforces."""

    def __init__(self, key: str, /, *, rule: str | None = None, **params: Any) -> None:
        self.key = key
        self.rule = rule
        self.params = params
        super().__init__(key)

    def message(self, lang: Lang | None = None) -> str:
        """The error in ``lang``, prefixed with its rule id when it has one."""
        text = t(self.key, lang, **self.params)
        return f"[{self.rule}] {text}" if self.rule else text

    def __str__(self) -> str:
        return self.message()

    def to_dict(self, lang: Lang | None = None) -> dict[str, Any]:
        """A JSON-ready form: key, rule, message."""
        return {"error": self.key, "rule": self.rule, "message": self.message(lang)}


_OS_REASONS: dict[int, str] = {
    errno.ENOENT: "os.no_such_file",
    errno.EACCES: "os.denied",
    errno.EPERM: "os.denied",
    errno.EISDIR: "os.is_folder",
    errno.ENOTDIR: "os.not_folder",
    errno.EROFS: "os.read_only",
    errno.ENOSPC: "os.disk_full",
    errno.EDQUOT: "os.disk_full",
    errno.ENAMETOOLONG: "os.name_too_long",
    errno.ELOOP: "os.loop",
    errno.EEXIST: "os.exists",
    errno.EMFILE: "os.too_many_open",
    errno.ENFILE: "os.too_many_open",
    errno.EBUSY: "os.busy",
    errno.EIO: "os.io",
}
"""The common reasons a file cannot be read or written, said in our own words."""


def os_reason(exc: OSError) -> Msg | str:
    """Why the system refused a file, in the reader's words (``os.*`` catalog keys) for the
    common cases (missing, a folder, permission denied, read-only, disk full...); the
    system's own text only for the rare ones."""
    key = _OS_REASONS.get(exc.errno) if exc.errno is not None else None
    if key is not None:
        return Msg(key)
    return exc.strerror or type(exc).__name__


register_package_catalog("conteur.i18n")
