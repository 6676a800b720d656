"""Sheet forms: the fields of a ruleset's character sheet, described for a form.

A ruleset describes its sheet through the contract (``Ruleset.sheet_form(era)``) as
sections of typed fields, each naming where its value goes in the sheet (a dotted
path: ``attributes.dexterity``), how it is entered (``dots``, a number, a choice from a
table, several choices, a text, a yes/no) and its label in French and English. The web
page draws the form from it; ``build_sheet`` turns what was typed back into the sheet a
YAML import would hold, which then goes through the same checks as an import (the
ruleset's ``load_sheet`` and a one-character encounter, ``conteur.store.sheets``):
nothing is validated twice, nothing here knows a game.

``field_of_error`` finds the form field a refusal is about (the field an ``InputError``
names, or the ``field`` of a ruleset's ConteurError), so that the error is shown beside
it. The same description serves the written-back state (``Ruleset.state_form``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from conteur.i18n import ConteurError, Describable, Lang, Msg

from .inputs import normalize

FieldKind = Literal["text", "dots", "number", "choice", "many", "flag", "marks"]
"""How a field is entered: ``dots`` a row of radio buttons (●●●○○); ``number`` a number
box; ``choice`` one of ``choices`` (``many``: several); ``flag`` a check box; ``marks``
one number per choice, written to the sheet as a list repeating each choice that many
times (a health track: two ``bashing``, one ``lethal``)."""


@dataclass(frozen=True)
class Choice:
    """One value a ``choice``/``many``/``marks`` field offers, with its label."""

    value: str
    label: Describable
    sheet_value: Any = None
    """What the sheet holds for it, when not ``value`` (a ghoul is a ``mortal`` kind)."""

    def written(self) -> Any:
        return self.value if self.sheet_value is None else self.sheet_value


@dataclass(frozen=True)
class FormField:
    """One field of a sheet form."""

    key: str
    """Where its value goes in the sheet: a dotted path (``attributes.dexterity``)."""
    kind: FieldKind
    label: Describable
    low: int = 0
    high: int | None = None
    default: Any = None
    """The value shown when the sheet gives none; a value equal to it is left off the
    sheet (the ruleset's own default applies)."""
    choices: tuple[Choice, ...] = ()
    required: bool = False
    aliases: tuple[str, ...] = ()
    """Other names a refusal may give this field (the French key, the table's key)."""
    kinds: tuple[str, ...] = ()
    """The values of the form's ``kind`` field this one belongs to (empty: every kind)."""
    size: int | None = None
    """A ``marks`` field's number of boxes: the list is filled up to it with ``pad``."""
    pad: str = " "

    @property
    def name(self) -> str:
        """The form control's name."""
        return "f." + self.key


@dataclass(frozen=True)
class FormSection:
    """A group of fields (attributes, abilities, weapons...)."""

    id: str
    label: Describable
    fields: tuple[FormField, ...]
    kinds: tuple[str, ...] = ()
    """As ``FormField.kinds``, for the whole section."""


@dataclass(frozen=True)
class FormWords:
    """The catalogue keys of a ruleset's sheet form, all below one ``prefix``
    (``<ruleset>.form``): a section's title ``<prefix>.<section>``, a field's label
    ``<prefix>.field.<key>``, the choice of nothing ``<prefix>.none``."""

    prefix: str

    def label(self, key: str) -> Msg:
        """The label of the field ``key``."""
        return Msg(f"{self.prefix}.field.{key}")

    def field(self, key: str, kind: FieldKind, **more: Any) -> FormField:
        """The field ``key`` with its label (``more``: the other ``FormField`` fields)."""
        return FormField(key, kind, self.label(key), **more)

    def section(self, key: str, *fields: FormField) -> FormSection:
        """The section ``key`` of these fields, with its title."""
        return FormSection(key, Msg(f"{self.prefix}.{key}"), fields)

    def none(self) -> Choice:
        """The empty choice of a field that may be left empty (no armour, no off hand)."""
        return Choice("", Msg(f"{self.prefix}.none"))


@dataclass(frozen=True)
class SheetForm:
    """A ruleset's sheet (or state) form: its sections, in order."""

    sections: tuple[FormSection, ...]
    kind_key: str | None = None
    """The key of the field choosing the kind (sections and fields may depend on it)."""

    def fields(self) -> Iterator[FormField]:
        for section in self.sections:
            yield from section.fields

    def field(self, key: str) -> FormField | None:
        return next((f for f in self.fields() if f.key == key), None)


MAX_MARKS = 100
"""The most marks of one kind a ``marks`` field writes (more is passed on as text, refused)."""

Values = Callable[[str], Sequence[str]]
"""What a form sent for one control name (every value of it, in order)."""


_WHOLE = re.compile(r"-?[0-9]{1,9}")


def _number(text: str) -> int | str:
    """A whole number when ``text`` is one (nine digits at most), the text itself otherwise
    (then refused by the ruleset's own check, with its words)."""
    clean = text.strip()
    if _WHOLE.fullmatch(clean):
        return int(clean)
    return clean


def _put(sheet: dict[str, Any], key: str, value: Any) -> None:
    parts = key.split(".")
    node = sheet
    for part in parts[:-1]:
        child = node.get(part)
        if not isinstance(child, dict):
            child = node[part] = {}
        node = child
    node[parts[-1]] = value


def field_value(f: FormField, values: Values) -> tuple[bool, Any]:
    """What a form gave for ``f``, as the sheet holds it: (given, value)."""
    if f.kind == "marks":
        marks: list[Any] = []
        for choice in f.choices:
            sent = [v for v in values(f"{f.name}.{choice.value}") if v.strip()]
            count = _number(sent[0]) if sent else 0
            if isinstance(count, str) or not 0 <= count <= MAX_MARKS:
                return True, str(count)  # the ruleset names the field and the value
            marks.extend([choice.written()] * count)
        if f.size is not None:
            marks.extend([f.pad] * (f.size - len(marks)))
        return bool(marks), marks
    sent = [v for v in values(f.name) if v.strip()]
    if f.kind == "many":
        by_value = {c.value: c for c in f.choices}
        chosen = [by_value[v].written() if v in by_value else v for v in sent]
        return bool(chosen), chosen
    if f.kind == "flag":
        return bool(sent), bool(sent)
    if not sent:
        return False, None
    text = sent[0].strip()
    if f.kind in ("dots", "number"):
        return True, _number(text)
    if f.kind == "choice":
        match = next((c for c in f.choices if c.value == text), None)
        return True, match.written() if match is not None else text
    return True, text


def build_sheet(form: SheetForm, values: Values) -> dict[str, Any]:
    """The sheet a filled form describes (fields equal to their default left off, and the
    fields of another kind than the one chosen); unchecked: the store checks it as it
    checks an import."""
    kind: str | None = None
    if form.kind_key is not None:
        kind_field = form.field(form.kind_key)
        sent = values(kind_field.name) if kind_field is not None else ()
        kind = sent[0] if sent else None
    sheet: dict[str, Any] = {}
    for section in form.sections:
        if kind is not None and section.kinds and kind not in section.kinds:
            continue
        for f in section.fields:
            if kind is not None and f.kinds and kind not in f.kinds:
                continue
            given, value = field_value(f, values)
            if not given:
                continue
            if f.default is not None and value == f.default and not f.required:
                continue
            _put(sheet, f.key, value)
    return sheet


def sheet_values(form: SheetForm, sheet: Mapping[str, Any]) -> dict[str, list[str]]:
    """The form's controls filled from ``sheet`` (the keys the form writes), for editing."""
    out: dict[str, list[str]] = {}
    for f in form.fields():
        node: Any = sheet
        for part in f.key.split("."):
            node = node.get(part) if isinstance(node, Mapping) else None
        if node is None:
            continue
        if f.kind == "marks":
            items = list(node) if isinstance(node, list | tuple) else _boxes(node)
            for choice in f.choices:
                out[f"{f.name}.{choice.value}"] = [str(items.count(choice.written()))]
        elif f.kind == "many":
            items = list(node) if isinstance(node, list | tuple) else [node]
            back = {str(c.written()): c.value for c in f.choices}
            out[f.name] = [back.get(str(v), str(v)) for v in items]
        elif f.kind == "flag":
            out[f.name] = ["1"] if node else []
        elif f.kind == "choice":
            back = {str(c.written()): c.value for c in f.choices}
            out[f.name] = [back.get(str(node), str(node))]
        else:
            out[f.name] = [str(node)]
    return out


def _boxes(value: Any) -> list[str]:
    """The marks of a track written as boxes (``[X][/][ ]``)."""
    return [c for c in str(value) if c not in "[]"]


# ------------------------------------------------------------------ errors


def _texts(value: Any) -> list[str]:
    """The names a refusal's ``field`` may be read as."""
    if value is None or value == "":
        return []
    loc = getattr(value, "loc", None)
    if isinstance(loc, tuple):
        parts = [str(p) for p in loc if not isinstance(p, int)]
        return [".".join(parts), *parts[-1:]] if parts else []
    inner = getattr(value, "key", None)
    if inner is not None and hasattr(value, "rest"):  # a key and the path under it
        parts = [str(getattr(inner, "name", inner))]
        parts += [str(p) for p in value.rest if not isinstance(p, int)]
        return [".".join(parts), parts[-1], *_texts(inner)]
    key = getattr(value, "name", None)
    if isinstance(key, str):
        spellings = getattr(value, "spellings", None)
        return [key, *(sorted(spellings()) if callable(spellings) else [])]
    return [str(value)]


def _norm(text: str) -> str:
    return normalize(text)


def field_of_error(form: SheetForm, error: ConteurError) -> FormField | None:
    """The field of ``form`` that ``error`` is about, or None (then shown above the form)."""
    candidates: list[str] = []
    for name in ("field", "name"):
        candidates.extend(_texts(error.params.get(name)))
    reason = error.params.get("reason")
    inner = getattr(reason, "params", None)
    if isinstance(inner, Mapping):
        for name in ("field", "name"):
            candidates.extend(_texts(inner.get(name)))
    wanted = [_norm(c) for c in candidates if c]
    for text in wanted:
        for f in form.fields():
            names = {_norm(f.key), _norm(f.key.split(".")[-1]), *(_norm(a) for a in f.aliases)}
            if text in names:
                return f
    return None


@dataclass
class FormErrors:
    """A refused form: the message beside its field, or above the form."""

    by_field: dict[str, str] = field(default_factory=dict)
    general: str = ""

    @classmethod
    def of(cls, form: SheetForm, error: ConteurError, lang: Lang) -> FormErrors:
        found = field_of_error(form, error)
        text = error.message(lang)
        if found is None:
            return cls(general=text)
        return cls(by_field={found.key: text})


__all__ = [
    "Choice",
    "FieldKind",
    "FormErrors",
    "FormField",
    "FormSection",
    "FormWords",
    "SheetForm",
    "Values",
    "build_sheet",
    "field_of_error",
    "field_value",
    "sheet_values",
]
