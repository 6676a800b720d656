"""What a sweep may vary in a western scenario (``conteur simulate --sweep``): a
characteristic or a skill of the scenario's tables (id, French or English name) and the
two table options."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from conteur.i18n import Bilingual

from .state import WesternState
from .tables import fold

OPTIONS = ("ko_strictly_under", "instinctive_beyond")
"""The table options a scenario may set (``ruleset.new_state`` checks them)."""

SECTIONS = {
    "characteristics": ("caractéristiques", "characteristics"),
    "skills": ("compétences", "skills"),
}
"""Where an entry writes each kind of trait: the French key first, then the English one."""


def sweep_traits(state: WesternState) -> dict[str, str]:
    """Every spelling (id, French and English names) of a characteristic or a skill."""
    tables = state.tables
    out: dict[str, str] = {}
    for entry in (*tables.characteristics, *tables.skills):
        for spelling in (entry.id, entry.fr, entry.en):
            out.setdefault(spelling, entry.id)
    return out


def sweep_options(state: WesternState) -> dict[str, str]:
    """The two table options (``OPTIONS``)."""
    return {key: key for key in OPTIONS}


def trait_name(state: WesternState, trait: str) -> Bilingual:
    """The characteristic's or skill's name (``trait`` its id), French and English."""
    tables = state.tables
    entry = next(e for e in (*tables.characteristics, *tables.skills) if e.id == trait)
    return Bilingual(entry.fr, entry.en)


def with_trait(
    state: WesternState,
    entry: Mapping[str, Any],
    trait: str,
    value: int,
    base_dir: Path | None,
) -> dict[str, Any]:
    """``entry`` with its characteristic or skill ``trait`` at ``value``; an entry's ``sheet``
    (inline or a file) is merged into it as ``sheet.fighter_from_scenario`` reads it."""
    out = dict(entry)
    if "sheet" in out:
        sheet = out.pop("sheet")
        if isinstance(sheet, str):
            text = ((base_dir or Path(".")) / sheet).read_text(encoding="utf-8")
            sheet = yaml.safe_load(text)
        if isinstance(sheet, Mapping):
            out = {**sheet, **out}
    tables = state.tables
    kind = "characteristics" if trait in {c.id for c in tables.characteristics} else "skills"
    named = {fold(n.id): n for n in (*tables.characteristics, *tables.skills)}
    spellings = {fold(x) for n in named.values() if n.id == trait for x in (n.id, n.fr, n.en)}
    keys = [k for k in SECTIONS[kind] if isinstance(out.get(k), Mapping)] or [SECTIONS[kind][0]]
    for key in keys:
        out[key] = {k: v for k, v in (out.get(key) or {}).items() if fold(str(k)) not in spellings}
    out[keys[0]][trait] = value
    return out


__all__ = ["OPTIONS", "SECTIONS", "sweep_options", "sweep_traits", "trait_name", "with_trait"]
