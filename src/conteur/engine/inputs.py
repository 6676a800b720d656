"""Strict input: the one validation layer of every file a user writes.

Scenarios, sheets, tables, campaigns and scripts are read by the engine and by each
ruleset; whatever reads them goes through this kit, so that every bad input is refused
the same way — an ``InputError`` naming the file, the entry and the field, with the
reason in the reader's language, and never a traceback:

* ``read_data(path)`` reads a YAML or JSON file (unreadable, not YAML, nested too deep:
  refused by name);
* ``Key`` / ``check_keys`` accept the keys an entry may have, in French or English, and
  refuse any other with the nearest valid one (``difflib``), shown in the reader's
  language;
* ``validate(model, data, ...)`` checks the values with a pydantic model and turns its
  first error into an ``InputError`` (``pydantic_reason`` says it in words; the custom
  errors raised by ``reason(key, ...)`` carry a catalogue message);
* ``Position``, ``Text``, ``Flag``, ``Count``: the value types entries share (a position is
  two finite numbers of metres; a text is a non-empty string, never a number; a flag is
  a boolean, ``oui``/``non`` accepted; a count a non-negative integer, never a boolean);
* ``with_file(name)`` fills in the file of an error raised while reading it.
"""

from __future__ import annotations

import difflib
import math
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, TypedDict, TypeVar, get_args

import yaml
from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError
from pydantic_core import ErrorDetails, PydanticCustomError

from conteur.i18n import Bilingual, ConteurError, Lang, Msg, os_reason, register_package_catalog, t

MAX_DEPTH = 40
"""How deeply lists and mappings may nest in a file (deeper is refused, not a crash)."""

MAX_METRES = 1e6
"""The largest coordinate of a position, in metres (a thousand kilometres)."""

_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

M = TypeVar("M", bound=BaseModel)


# --------------------------------------------------------------------------- errors


class InputError(ConteurError):
    """A bad input: the file, the entry in it, the field, and why (a catalogue message)."""

    def __init__(
        self,
        reason: Msg,
        *,
        file: str = "",
        entry: Any = "",
        field: Any = "",
    ) -> None:
        super().__init__("input.invalid", file=file, entry=entry, field=field, reason=reason)
        self.params["where"] = _Where(self.params)

    @property
    def field(self) -> str:
        """The field named, in French (for programs that sort errors by field)."""
        value = self.params["field"]
        return str(value.describe("fr") if hasattr(value, "describe") else value)


class _Where:
    """The file, entry and field of an error, read when it is rendered (``with_file`` may
    fill the file in later); a message field, so ``Msg(error.key, **error.params)`` works."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.params = params

    def describe(self, lang: Lang | None = None) -> str:
        p = self.params
        parts = [p["file"] or t("input.no_file", lang)]
        if p["entry"]:
            parts.append(t("input.entry", lang, entry=p["entry"]))
        if p["field"]:
            parts.append(t("input.field", lang, field=p["field"]))
        return t("input.sep", lang).join(parts)


@contextmanager
def with_file(name: str | Path) -> Iterator[None]:
    """Errors of the ``with`` block that name no file name ``name``."""
    try:
        yield
    except InputError as error:
        if not error.params["file"]:
            error.params["file"] = str(name)
        raise


def entry_of(index: int, raw: object) -> Msg:
    """The entry ``combatants[index]`` as a reader finds it: its number and its id."""
    ident = raw.get("id") if isinstance(raw, Mapping) else None
    if isinstance(ident, str) and ident.strip():
        return Msg("input.entry.combatant_id", number=index + 1, id=ident.strip()[:40])
    return Msg("input.entry.combatant", number=index + 1)


TOP = Msg("input.entry.top")
"""The entry of a file's top-level keys."""


# --------------------------------------------------------------------------- files


def not_utf8(path: str | Path, error: UnicodeDecodeError) -> InputError:
    """The refusal of a file that is not UTF-8 text (a binary file given by mistake)."""
    return InputError(Msg("input.reason.not_utf8", position=error.start), file=str(path))


def read_text(path: str | Path) -> str:
    """The text of a file in UTF-8; ``InputError`` naming the file otherwise (missing, a
    folder, not readable, or not UTF-8 text — said in words, not Python's error)."""
    file = Path(path)
    try:
        return file.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise not_utf8(file, exc) from None
    except OSError as exc:
        detail = os_reason(exc)
        raise InputError(Msg("input.reason.unreadable", detail=detail), file=str(file)) from None


def read_data(path: str | Path) -> Any:
    """The data of a YAML (or JSON) file; ``InputError`` naming the file otherwise."""
    return parse_data(read_text(path), str(path))


def parse_data(text: str, file: str) -> Any:
    """YAML (or JSON) text read from ``file``; ``InputError`` when it is not, or too deep."""
    try:
        data = yaml.load(text, Loader=_LOADER)
    except yaml.YAMLError as exc:
        if "nesting depth" in str(exc):  # libyaml's own limit
            raise InputError(Msg("input.reason.too_deep", limit=MAX_DEPTH), file=file) from None
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 0
        raise InputError(Msg("input.reason.bad_yaml", line=line), file=file) from None
    except RecursionError:
        raise InputError(Msg("input.reason.too_deep", limit=MAX_DEPTH), file=file) from None
    if depth(data) > MAX_DEPTH:
        raise InputError(Msg("input.reason.too_deep", limit=MAX_DEPTH), file=file)
    return data


class TooDeep(yaml.YAMLError):
    """A YAML text nested more than ``MAX_DEPTH`` levels deep."""


def safe_yaml(text: str) -> Any:
    """``yaml.safe_load`` for a user's text: nesting too deep raises ``TooDeep``, a
    ``yaml.YAMLError`` like any other bad YAML (never a ``RecursionError``)."""
    try:
        data = yaml.load(text, Loader=_LOADER)
    except RecursionError:
        raise TooDeep(f"nested more than {MAX_DEPTH} levels deep") from None
    if depth(data) > MAX_DEPTH:
        raise TooDeep(f"nested more than {MAX_DEPTH} levels deep")
    return data


def depth(data: Any) -> int:
    """How deeply lists and mappings nest in ``data`` (iteratively: no recursion limit)."""
    deepest = 0
    todo: list[tuple[Any, int]] = [(data, 0)]
    seen: set[int] = set()
    while todo:
        value, level = todo.pop()
        if isinstance(value, Mapping | list | tuple):
            if id(value) in seen:  # a YAML alias seen twice
                continue
            seen.add(id(value))
            level += 1
            deepest = max(deepest, level)
            if deepest > MAX_DEPTH:
                return deepest
            items = value.values() if isinstance(value, Mapping) else value
            todo.extend((item, level) for item in items)
    return deepest


# --------------------------------------------------------------------------- keys


def normalize(word: str) -> str:
    """A key reduced for comparison: lower case, no accents, words joined by ``_``."""
    text = unicodedata.normalize("NFKD", str(word).strip().lower())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return "_".join(text.replace("-", " ").replace("'", " ").split())


@dataclass(frozen=True)
class Key:
    """A key an entry may have: its canonical name, how French and English readers write
    it, and other accepted spellings."""

    name: str
    fr: str
    en: str
    aliases: tuple[str, ...] = ()

    def spellings(self) -> set[str]:
        return {normalize(s) for s in (self.name, self.fr, self.en, *self.aliases)}

    def describe(self, lang: Lang | None = None) -> str:
        return Bilingual(self.fr, self.en).describe(lang)


def keys(*given: Key | str) -> tuple[Key, ...]:
    """Keys from ``Key`` objects or plain names (a name spelled the same in both languages)."""
    return tuple(k if isinstance(k, Key) else Key(k, k, k) for k in given)


def overlay(
    under: Mapping[Any, Any], over: Mapping[Any, Any], known: Sequence[Key]
) -> dict[Any, Any]:
    """``under`` with ``over`` laid on it, a key of ``over`` replacing the key of ``under``
    that names the same field in another spelling (a carried state's ``weapon`` over the
    sheet's ``arme``); keys neither knows are kept, for ``check_keys`` to refuse."""
    index = {s: k.name for k in known for s in k.spellings()}

    def name(raw: Any) -> Any:
        return index.get(normalize(str(raw)), raw)

    replaced = {name(k) for k in over}
    kept = {k: v for k, v in under.items() if name(k) not in replaced}
    return {**kept, **over}


def over_sheet(
    raw: Mapping[Any, Any], sheet: Any, known: Sequence[Key], *, entry: Any
) -> dict[Any, Any]:
    """The combatant entry ``raw`` laid over its inline ``sheet`` (``overlay``: the entry's
    keys, but ``sheet``, replace the sheet's); ``InputError`` naming the entry's ``sheet``
    when it is no mapping."""
    if not isinstance(sheet, Mapping):
        raise InputError(
            Msg("input.reason.not_mapping", value=short(sheet)), entry=entry, field="sheet"
        )
    return overlay(sheet, {k: v for k, v in raw.items() if k != "sheet"}, known)


def check_keys(
    data: Mapping[Any, Any], known: Sequence[Key], *, entry: Any = "", file: str = ""
) -> dict[str, Any]:
    """``data`` with its keys canonical; ``InputError`` for a key not in ``known`` (with the
    nearest known one, in the reader's language) or given twice under two spellings."""
    index = {s: k for k in known for s in k.spellings()}
    out: dict[str, Any] = {}
    written: dict[str, str] = {}
    for raw, value in data.items():
        key = index.get(normalize(str(raw)))
        if key is None:
            raise InputError(unknown_key(str(raw), known), file=file, entry=entry, field=str(raw))
        if key.name in out:
            raise InputError(
                Msg("input.reason.twice", first=written[key.name], second=str(raw)),
                file=file,
                entry=entry,
                field=key,
            )
        out[key.name] = value
        written[key.name] = str(raw)
    return out


def unknown_key(written: str, known: Sequence[Key]) -> Msg:
    """The reason for an unknown key: the nearest known one, or the list of them."""
    index = {s: k for k in known for s in k.spellings()}
    close = difflib.get_close_matches(normalize(written), list(index), n=1, cutoff=0.6)
    if close:
        return Msg("input.reason.unknown_key_suggest", suggestion=index[close[0]])
    return Msg("input.reason.unknown_key", allowed=_KeyList(known))


class _KeyList:
    """Keys listed in the reader's language."""

    def __init__(self, known: Sequence[Key]) -> None:
        self.known = known

    def describe(self, lang: Lang | None = None) -> str:
        return ", ".join(sorted(k.describe(lang) for k in self.known))


# --------------------------------------------------------------------------- values


def reason(key: str, /, field: str | None = None, **params: Any) -> PydanticCustomError:
    """A validation error carrying a catalogue message (``key``) instead of English text;
    ``field`` adds a part to the error's location."""
    ctx: dict[str, Any] = {"key": key, **params}
    if field is not None:
        ctx["field"] = field
    return PydanticCustomError("conteur", "{key}", ctx)


def _position(value: Any) -> tuple[float, float]:
    if isinstance(value, str):
        parts = [p.strip() for p in value.replace(";", ",").split(",")]
    elif isinstance(value, list | tuple):
        parts = list(value)
    else:
        raise reason("input.reason.position", value=short(value))
    if len(parts) != 2:
        raise reason("input.reason.position", value=short(value))
    out: list[float] = []
    for part in parts:
        if isinstance(part, bool):
            raise reason("input.reason.position", value=short(value))
        try:
            number = float(part)
        except (TypeError, ValueError):
            raise reason("input.reason.position", value=short(value)) from None
        if not math.isfinite(number):
            raise reason("input.reason.position", value=short(value))
        if abs(number) > MAX_METRES:
            raise reason("input.reason.position_range", value=short(value))
        out.append(number)
    return (out[0], out[1])


def parse_position(value: Any) -> tuple[float, float]:
    """A position from ``[x, y]`` or ``"x,y"``: two finite numbers of metres, or ConteurError."""
    try:
        return _position(value)
    except PydanticCustomError as exc:
        ctx = dict(exc.context or {})
        position = Key("position", "position", "position")
        raise InputError(Msg(ctx.pop("key"), **ctx), field=position) from None


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise reason("input.reason.not_text", value=short(value))
    text = value.strip()
    if not text:
        raise reason("input.reason.empty")
    return text


def _flag(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        word = normalize(value)
        if word in ("oui", "vrai", "yes", "true"):
            return True
        if word in ("non", "faux", "no", "false"):
            return False
    raise reason("input.reason.not_bool", value=short(value))


def _count(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise reason("input.reason.not_int", value=short(value))
    if value < 0:
        raise reason("input.reason.min", limit=0, value=value)
    return value


Position = Annotated[tuple[float, float], BeforeValidator(_position)]
"""A position in metres: ``[x, y]`` or ``"x,y"``, two finite numbers."""
Text = Annotated[str, BeforeValidator(_text)]
"""A non-empty text, stripped (a number is refused: ``nom: 3`` is a mistake)."""
Flag = Annotated[bool, BeforeValidator(_flag)]
"""A yes/no: a boolean, or oui/non, vrai/faux, yes/no, true/false."""
Count = Annotated[int, BeforeValidator(_count)]
"""A whole number, 0 or more (a boolean is refused)."""


def short(value: Any) -> str:
    """A value as an error quotes it (cut at 60 characters)."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def plain_path(loc: Sequence[int | str]) -> str:
    """A pydantic error location as a reader writes it: ``weapons[2].damage``."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part + 1}]"
        else:
            text += f".{part}" if text else str(part)
    return text or "-"


_PYDANTIC_REASONS = {
    "missing": "input.reason.missing",
    "int_parsing": "input.reason.not_int",
    "int_type": "input.reason.not_int",
    "int_from_float": "input.reason.not_int",
    "float_parsing": "input.reason.not_number",
    "float_type": "input.reason.not_number",
    "finite_number": "input.reason.not_number",
    "bool_parsing": "input.reason.not_bool",
    "bool_type": "input.reason.not_bool",
    "string_type": "input.reason.not_text",
    "list_type": "input.reason.not_list",
    "tuple_type": "input.reason.not_list",
    "dict_type": "input.reason.not_mapping",
    "model_type": "input.reason.not_mapping",
    "model_attributes_type": "input.reason.not_mapping",
    "too_short": "input.reason.empty",
    "string_too_short": "input.reason.empty",
}


def pydantic_reason(
    error: ErrorDetails, model: type[BaseModel] | None = None
) -> tuple[tuple[int | str, ...], Msg]:
    """The field path and a bilingual reason for one pydantic error.

    ``model`` (the model validated) lets an unknown field suggest the closest known one.
    """
    loc = tuple(error["loc"])
    ctx: dict[str, Any] = dict(error.get("ctx") or {})
    kind = error["type"]
    value = error.get("input")
    if "key" in ctx and kind not in _PYDANTIC_REASONS:  # reason(...): a catalogue message
        key = ctx.pop("key")
        field = ctx.pop("field", None)
        if field is not None:
            loc += (field,)
        return loc, Msg(key, **ctx)
    if kind == "greater_than_equal":
        return loc, Msg("input.reason.min", limit=ctx.get("ge"), value=short(value))
    if kind == "greater_than":  # strictly: "at least 0" would be wrong for gt=0
        return loc, Msg("input.reason.above", limit=ctx.get("gt"), value=short(value))
    if kind == "less_than_equal":
        return loc, Msg("input.reason.max", limit=ctx.get("le"), value=short(value))
    if kind == "less_than":
        return loc, Msg("input.reason.below", limit=ctx.get("lt"), value=short(value))
    if kind in ("literal_error", "enum"):
        # pydantic lists the choices "'a', 'b' or 'c'": the "or" is English
        expected = str(ctx.get("expected", "")).replace(" or ", ", ")
        return loc, Msg("input.reason.choice", value=short(value), expected=expected)
    if kind == "extra_forbidden":
        return loc, _unknown_field_reason(_model_at(model, loc[:-1]), str(loc[-1]) if loc else "")
    if kind in _PYDANTIC_REASONS:
        return loc, Msg(_PYDANTIC_REASONS[kind], value=short(value))
    return loc, Msg("input.reason.other", detail=error["msg"])


def first_error(exc: ValidationError) -> ErrorDetails:
    """The error to report first: a misspelt key (it also makes the real one "missing")."""
    errors = exc.errors()
    return next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])


def _model_at(model: type[BaseModel] | None, loc: Sequence[int | str]) -> type[BaseModel] | None:
    """The nested model a path leads to (``requires`` → Requirements), when it can be told."""
    for part in loc:
        if model is None:
            return None
        if isinstance(part, int):
            continue
        field = model.model_fields.get(part)
        model = _first_model(field.annotation) if field is not None else None
    return model


def _first_model(annotation: Any) -> type[BaseModel] | None:
    """The first pydantic model inside an annotation (``list[Effect]`` → Effect)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        found = _first_model(arg)
        if found is not None:
            return found
    return None


def _unknown_field_reason(model: type[BaseModel] | None, name: str) -> Msg:
    fields = list(model.model_fields) if model is not None else []
    close = difflib.get_close_matches(name, fields, n=1, cutoff=0.6)
    if close:
        return Msg("input.reason.unknown_field_suggest", suggestion=close[0])
    return Msg("input.reason.unknown_field", allowed=", ".join(fields))


def validate(
    model: type[M],
    data: Any,
    *,
    known: Sequence[Key] = (),
    entry: Any = "",
    file: str = "",
    where: Callable[[tuple[int | str, ...]], tuple[Any, Any]] | None = None,
) -> M:
    """``data`` (keys already canonical: ``check_keys``) as a ``model``; ``InputError`` when
    it is no mapping, or for its first error, naming the field as ``known`` spells it in
    the reader's language. ``where``: the entry and field an error's path names instead
    (a row of one of the file's tables, a sheet's own field names)."""
    if not isinstance(data, Mapping):
        raise InputError(Msg("input.reason.not_mapping", value=short(data)), file=file, entry=entry)
    try:
        return model.model_validate(dict(data))
    except ValidationError as exc:
        loc, why = pydantic_reason(first_error(exc), model)
        field: Any = plain_path(loc)
        labels = {k.name: k for k in known}
        if where is not None:
            entry, field = where(loc)
        elif loc and isinstance(loc[0], str) and loc[0] in labels:
            field = _Path(labels[loc[0]], loc[1:])
        raise InputError(why, file=file, entry=entry, field=field) from None


class Common(BaseModel):
    """The keys every ruleset's combatant entry shares, checked alike (others are ignored)."""

    model_config = ConfigDict(extra="ignore")

    id: Text | None = None
    name: Text | None = None
    side: Text | None = None
    position: Position = (0.0, 0.0)


def common(
    data: Mapping[str, Any], *, known: Sequence[Key] = (), entry: Any = "", file: str = ""
) -> Common:
    """The id, name, side and position of an entry (keys canonical), checked (``validate``)."""
    return validate(Common, data, known=known, entry=entry, file=file)


class Placement(TypedDict):
    """A combatant's id, side and position, the fields every ruleset's fighter has."""

    id: str
    side: str
    position: tuple[float, float]


def placement(fid: str, side: str | None, position: tuple[float, float]) -> Placement:
    """The id, side and position of the combatant ``fid`` as its entry gives them (for its
    fighter's keywords): a combatant with no side fights alone, on a side of its own id."""
    return {"id": fid, "side": side or fid, "position": position}


class _Path:
    """A field path whose first part is a key named in the reader's language."""

    def __init__(self, key: Key, rest: Sequence[int | str]) -> None:
        self.key = key
        self.rest = tuple(rest)

    def describe(self, lang: Lang | None = None) -> str:
        tail = plain_path(self.rest) if self.rest else ""
        if tail and not tail.startswith("["):
            tail = "." + tail
        return self.key.describe(lang) + tail


register_package_catalog("conteur.engine", "messages-inputs.yaml")

__all__ = [
    "MAX_DEPTH",
    "TOP",
    "Common",
    "Count",
    "Flag",
    "InputError",
    "Key",
    "Placement",
    "Position",
    "Text",
    "check_keys",
    "common",
    "depth",
    "entry_of",
    "first_error",
    "keys",
    "normalize",
    "parse_data",
    "parse_position",
    "placement",
    "plain_path",
    "pydantic_reason",
    "read_data",
    "reason",
    "safe_yaml",
    "short",
    "unknown_key",
    "validate",
    "with_file",
]
