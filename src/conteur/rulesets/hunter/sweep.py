"""What a sweep may vary in a hunter scenario (``conteur simulate --sweep``): a trait the
rules read (French or English, ``sheet.TRAITS``) and the table options."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from conteur.i18n import Msg

from .sheet import TRAIT_OF, normalize
from .state import HunterState
from .tables import load_tables


def sweep_traits(state: HunterState) -> dict[str, str]:
    """Every spelling of a trait the rules read and its key (``dexterite`` → ``dexterity``)."""
    return dict(TRAIT_OF)


def sweep_options(state: HunterState) -> dict[str, str]:
    """The table options (``data/options.yaml``), by key."""
    return {key: key for key in load_tables().options}


def trait_name(state: HunterState, trait: str) -> Msg:
    """The trait's name in the catalogue (« Dextérité » / "Dexterity")."""
    return Msg(f"hunter.form.trait.{trait}")


def with_trait(
    state: HunterState, entry: Mapping[str, Any], trait: str, value: int, base_dir: Path | None
) -> dict[str, Any]:
    """``entry`` (and its inline ``sheet``) without any spelling of ``trait``, then with
    ``trait: value`` (a sheet in a file is left as it is)."""
    out = {k: v for k, v in entry.items() if TRAIT_OF.get(normalize(str(k))) != trait}
    sheet = out.get("sheet")
    if isinstance(sheet, Mapping):
        out["sheet"] = {k: v for k, v in sheet.items() if TRAIT_OF.get(normalize(str(k))) != trait}
    out[trait] = value
    return out


__all__ = ["sweep_options", "sweep_traits", "trait_name", "with_trait"]
