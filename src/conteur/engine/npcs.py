"""Quick NPCs: a combatant from a few numbers, or from a ruleset's bundled archetypes.

A ruleset offers both through its contract: ``Ruleset.archetypes(era)`` (our default
opponents, as data in the ruleset's ``data/archetypes.yaml``) and
``Ruleset.quick_npc(params, era)`` (the numbers of ``Ruleset.quick_npc_params(era)``,
typed ``Param`` records with their ranges, so that a form is built from them). Both
give a scenario combatant entry that ``Encounter.start`` accepts.

An archetype file::

    archetypes:
      - id: thug
        names: {fr: Voyou, en: Thug}
        notes: {fr: "...", en: "..."}      # optional
        eras: ["1899", "modern"]           # optional: every era when left out
        entry: {sheet: {...}}              # the scenario combatant entry
        by_era:                            # optional: what changes in one era
          modern: {sheet: {weapons: [light_pistol]}}

Every entry is checked when the file is read: its shape here, then the ruleset starts
a one-combatant encounter with it in each of its eras. A refusal is a ConteurError
``engine.archetypes.invalid`` naming the file, the entry and the field, in French and
English.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml

from conteur.i18n import Bilingual, ConteurError, Lang, Msg

from .commands import Param

Entry = dict[str, Any]
"""A scenario combatant entry (JSON-ready)."""


@dataclass(frozen=True)
class Archetype:
    """A bundled opponent: its id, bilingual label, and the scenario entry it makes.

    Its numbers are conteur's defaults (``default``), not a book's: a game master
    edits the entry, or the ruleset's ``archetypes.yaml``.
    """

    id: str
    label: Bilingual
    entry: Mapping[str, Any]
    era: str | None = None
    """The era this entry is for (None: a ruleset without eras)."""
    eras: tuple[str, ...] = ()
    """Every era the archetype exists in (empty: a ruleset without eras)."""
    notes: Bilingual | None = None
    default: bool = True
    name_path: tuple[str, ...] = ("name",)
    """Where the entry holds the combatant's display name (``("sheet", "name")``): an entry
    that gives none is named after the archetype's label, in the language asked for."""

    def scenario_entry(self, combatant_id: str | None = None, lang: Lang | None = None) -> Entry:
        """A fresh copy of the entry, named in ``lang`` when the data gives it no name (its
        ``id`` replaced by ``combatant_id`` when given)."""
        entry = _copy(dict(self.entry))
        ident = entry.pop("id", self.id)
        entry = {"id": combatant_id or ident, **entry}
        return with_name(entry, self.name_path, self.label.describe(lang))

    def to_dict(self, lang: Lang | None = None) -> dict[str, Any]:
        return {
            "id": self.id,
            "label": self.label.describe(lang),
            "era": self.era,
            "eras": list(self.eras),
            "notes": self.notes.describe(lang) if self.notes is not None else None,
            "default": self.default,
            "entry": self.scenario_entry(lang=lang),
        }


def with_name(entry: Entry, path: tuple[str, ...], name: str) -> Entry:
    """``entry`` with ``name`` at ``path`` unless something is there already."""
    if len(path) > 1:
        child = entry.get(path[0])
        inner = dict(child) if isinstance(child, Mapping) else {}
        entry[path[0]] = with_name(inner, path[1:], name)
        return entry
    if path[0] in entry:
        return entry
    first = {k: v for k, v in entry.items() if k == "id"}
    return {**first, path[0]: name, **{k: v for k, v in entry.items() if k != "id"}}


def _copy(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _copy(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_copy(v) for v in value]
    return value


def merged(base: Mapping[str, Any], over: Mapping[str, Any]) -> Entry:
    """``base`` with ``over`` laid on it: mappings merge key by key, anything else replaces."""
    out: Entry = {str(k): _copy(v) for k, v in base.items()}
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merged(out[key], value)
        else:
            out[key] = _copy(value)
    return out


# ------------------------------------------------------------------ parameters


def param_dict(param: Param, lang: Lang | None = None) -> dict[str, Any]:
    """A ``Param`` as JSON (for a form or ``conteur npc --json``)."""
    return {
        "name": param.name,
        "kind": param.kind,
        "choices": list(param.choices),
        "min": param.min,
        "max": param.max,
        "required": param.required,
        "default": param.default,
    }


def check_params(spec: Sequence[Param], values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` checked against ``spec`` (kinds, ranges, choices), defaults filled in.

    Numbers written as text (``"6"``, from a form or the command line) are read as
    numbers. ConteurError ``engine.npc.param`` naming the parameter otherwise.
    """
    by_name = {p.name: p for p in spec}
    for name in values:
        if name not in by_name:
            raise ConteurError(
                "engine.npc.param_unknown", name=name, known=", ".join(by_name) or "—"
            )
    out: dict[str, Any] = {}
    for p in spec:
        value = values.get(p.name)
        if value is None or value == "":
            if p.required and p.default is None:
                raise ConteurError("engine.npc.param_missing", name=p.name)
            out[p.name] = p.default
            continue
        out[p.name] = _checked(p, value)
    return out


def _checked(p: Param, value: Any) -> Any:
    if p.kind == "int":
        number = _int(value)
        if number is None:
            raise ConteurError("engine.npc.param_number", name=p.name, value=str(value))
        low = p.min if p.min is not None else number
        high = p.max if p.max is not None else number
        if not low <= number <= high:
            raise ConteurError(
                "engine.npc.param_range", name=p.name, value=number, low=low, high=high
            )
        return number
    if p.kind == "bool":
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("true", "yes", "oui", "vrai", "1"):
            return True
        if text in ("false", "no", "non", "faux", "0"):
            return False
        raise ConteurError("engine.npc.param_bool", name=p.name, value=str(value))
    if p.kind == "choice":
        for choice in p.choices:
            if str(choice) == str(value):
                return choice
        raise ConteurError(
            "engine.npc.param_choice",
            name=p.name,
            value=str(value),
            choices=", ".join(str(c) for c in p.choices),
        )
    text = str(value).strip()
    if not text:
        raise ConteurError("engine.npc.param_missing", name=p.name)
    return text


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    return None


# ------------------------------------------------------------------ archetype files


@dataclass
class _Raw:
    id: str
    label: Bilingual
    entry: Entry
    eras: tuple[str, ...]
    by_era: dict[str, Entry] = field(default_factory=dict)
    notes: Bilingual | None = None


def _invalid(source: str, entry: str, field_name: str, reason: Msg) -> ConteurError:
    return ConteurError(
        "engine.archetypes.invalid", file=source, entry=entry, field=field_name, reason=reason
    )


def _bilingual(value: Any, source: str, entry: str, field_name: str) -> Bilingual:
    if isinstance(value, str) and value.strip():
        return Bilingual(value, value)
    if isinstance(value, Mapping):
        fr, en = value.get("fr"), value.get("en")
        if isinstance(fr, str) and fr.strip() and isinstance(en, str) and en.strip():
            return Bilingual(fr, en)
    raise _invalid(source, entry, field_name, Msg("engine.archetypes.reason.bilingual"))


_KEYS = frozenset({"id", "names", "notes", "eras", "entry", "by_era"})


def read_archetypes(text: str, source: str, eras: Sequence[str] = ()) -> list[_Raw]:
    """The entries of an archetype file, their shape checked (ConteurError otherwise)."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 0
        raise ConteurError("engine.archetypes.unreadable", file=source, line=line) from None
    items = data.get("archetypes") if isinstance(data, Mapping) else None
    if not isinstance(items, list):
        raise _invalid(source, "-", "archetypes", Msg("engine.archetypes.reason.list"))
    out: list[_Raw] = []
    seen: set[str] = set()
    for index, item in enumerate(items):
        where = f"archetypes[{index + 1}]"
        if not isinstance(item, Mapping):
            raise _invalid(source, where, "-", Msg("engine.archetypes.reason.mapping"))
        ident = item.get("id")
        if not isinstance(ident, str) or not ident.strip():
            raise _invalid(source, where, "id", Msg("engine.archetypes.reason.missing"))
        if ident in seen:
            raise _invalid(source, ident, "id", Msg("engine.archetypes.reason.duplicate"))
        seen.add(ident)
        for key in item:
            if str(key) not in _KEYS:
                raise _invalid(
                    source,
                    ident,
                    str(key),
                    Msg("engine.archetypes.reason.unknown_key", known=", ".join(sorted(_KEYS))),
                )
        label = _bilingual(item.get("names"), source, ident, "names")
        notes = (
            _bilingual(item["notes"], source, ident, "notes")
            if item.get("notes") is not None
            else None
        )
        entry = item.get("entry")
        if not isinstance(entry, Mapping):
            raise _invalid(source, ident, "entry", Msg("engine.archetypes.reason.mapping"))
        own_eras = _eras(item.get("eras"), eras, source, ident)
        by_era_raw = item.get("by_era") or {}
        if not isinstance(by_era_raw, Mapping):
            raise _invalid(source, ident, "by_era", Msg("engine.archetypes.reason.mapping"))
        by_era: dict[str, Entry] = {}
        for era, over in by_era_raw.items():
            key = str(era)
            if key not in own_eras:
                raise _invalid(
                    source,
                    ident,
                    f"by_era.{key}",
                    Msg("engine.archetypes.reason.era", value=key, known=", ".join(own_eras)),
                )
            if not isinstance(over, Mapping):
                raise _invalid(
                    source, ident, f"by_era.{key}", Msg("engine.archetypes.reason.mapping")
                )
            by_era[key] = dict(over)
        out.append(_Raw(ident, label, dict(entry), own_eras, by_era, notes))
    return out


def _eras(value: Any, known: Sequence[str], source: str, ident: str) -> tuple[str, ...]:
    if value is None:
        return tuple(known)
    if not known:
        raise _invalid(source, ident, "eras", Msg("engine.archetypes.reason.no_eras"))
    if not isinstance(value, list) or not value:
        raise _invalid(source, ident, "eras", Msg("engine.archetypes.reason.list"))
    out: list[str] = []
    for era in value:
        if str(era) not in known:
            raise _invalid(
                source,
                ident,
                "eras",
                Msg("engine.archetypes.reason.era", value=str(era), known=", ".join(known)),
            )
        out.append(str(era))
    return tuple(out)


def build_archetypes(
    text: str,
    source: str,
    era: str | None,
    eras: Sequence[str],
    check: Callable[[Entry, str | None], None],
    name_path: tuple[str, ...] = ("name",),
) -> list[Archetype]:
    """The archetypes of one file that exist in ``era``, each entry checked by ``check``.

    ``eras`` are the ruleset's eras (empty for a ruleset without eras, ``era`` then None).
    ``check(entry, era)`` raises the ruleset's ConteurError for an entry it refuses.
    """
    out: list[Archetype] = []
    for raw in read_archetypes(text, source, eras):
        if era is not None and era not in raw.eras:
            continue
        entry = merged(raw.entry, raw.by_era.get(era, {})) if era is not None else raw.entry
        entry.setdefault("id", raw.id)
        try:
            check(with_name(_copy(entry), name_path, raw.label.fr), era)
        except ConteurError as error:
            where = f"by_era.{era}" if era in raw.by_era else "entry"
            raise _invalid(source, raw.id, where, Msg(error.key, **error.params)) from None
        out.append(
            Archetype(raw.id, raw.label, entry, era, raw.eras, raw.notes, name_path=name_path)
        )
    return out


def find_archetype(archetypes: Sequence[Archetype], ref: str) -> Archetype:
    """The archetype ``ref`` names (its id or either label, any case)."""
    wanted = ref.strip().lower()
    for a in archetypes:
        if wanted in (a.id.lower(), a.label.fr.lower(), a.label.en.lower()):
            return a
    raise ConteurError(
        "engine.npc.unknown_archetype", name=ref, known=", ".join(a.id for a in archetypes) or "—"
    )


__all__ = [
    "Archetype",
    "Entry",
    "build_archetypes",
    "check_params",
    "find_archetype",
    "merged",
    "param_dict",
    "read_archetypes",
    "with_name",
]
