"""What a sweep may vary in a vtm scenario (``conteur simulate --sweep``): a trait of a sheet
(any spelling ``traits.py`` reads, French or English) and the table options."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from conteur.i18n import Msg

from . import equipment
from .entries import STATE_KEYS
from .sheet import _FIELD_SPELLINGS
from .state import VtmState
from .traits import canonical_trait, normalize_key, trait_label, trait_spellings

_SECTIONS = frozenset({"attributes", "abilities", "disciplines"})


def sweep_traits(state: VtmState) -> dict[str, str]:
    """Every spelling of a trait and its key (``dexterite`` → ``dexterity``)."""
    return trait_spellings()


def sweep_options(state: VtmState) -> dict[str, str]:
    """The table options of the scenario's tables, by id."""
    return {key: key for key in equipment.tables(state).options}


def trait_name(state: VtmState, trait: str) -> Msg:
    """The trait's name in the catalogue (« Célérité » / "Celerity")."""
    return Msg(f"vtm.trait.{trait}")


def with_trait(
    state: VtmState, entry: Mapping[str, Any], trait: str, value: int, base_dir: Path | None
) -> dict[str, Any]:
    """``entry`` with its sheet's ``trait`` at ``value`` (a sheet from a file comes inline)."""
    out = dict(entry)
    sheet = out.get("sheet")
    if isinstance(sheet, str):
        sheet = yaml.safe_load(((base_dir or Path(".")) / sheet).read_text(encoding="utf-8"))
    if isinstance(sheet, Mapping):
        out["sheet"] = _with_trait(sheet, trait, value)
    else:  # a flat entry: what is not the encounter's is the sheet
        own = {k: v for k, v in out.items() if str(k) in STATE_KEYS}
        rest = {k: v for k, v in out.items() if str(k) not in STATE_KEYS}
        out = {**own, **_with_trait(rest, trait, value)}
    if trait == "willpower" and "willpower" in out:
        out["willpower"] = value  # the Willpower the fight starts with follows the rating
    return out


def _with_trait(sheet: Mapping[str, Any], trait: str, value: int) -> dict[str, Any]:
    """``sheet`` without any spelling of ``trait``, then with ``trait: value``."""
    out: dict[str, Any] = {}
    for key, rating in sheet.items():
        field = _FIELD_SPELLINGS.get(normalize_key(str(key)))
        if field in _SECTIONS and isinstance(rating, Mapping):
            out[key] = {n: r for n, r in rating.items() if canonical_trait(str(n)) != trait}
        elif canonical_trait(str(key)) != trait:
            out[key] = rating
    out[trait_label(trait, "fr")] = value  # « Volonté » is the sheet's, « willpower » the fight's
    return out


__all__ = ["sweep_options", "sweep_traits", "trait_name", "with_trait"]
