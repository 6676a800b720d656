"""What a sweep may vary in a hunter scenario (``conteur simulate --sweep``): a trait the
rules read (French or English, ``sheet.TRAITS``) and the table options."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .sheet import TRAIT_OF, normalize
from .tables import load_tables


def sweep_traits() -> dict[str, str]:
    """Every spelling of a trait the rules read and its key (``dexterite`` → ``dexterity``)."""
    return dict(TRAIT_OF)


def sweep_options() -> dict[str, str]:
    """The table options (``data/options.yaml``), by key."""
    return {key: key for key in load_tables().options}


def with_trait(entry: Mapping[str, Any], trait: str, value: int) -> dict[str, Any]:
    """``entry`` (and its inline ``sheet``) without any spelling of ``trait``, then with
    ``trait: value``."""
    out = {k: v for k, v in entry.items() if TRAIT_OF.get(normalize(str(k))) != trait}
    sheet = out.get("sheet")
    if isinstance(sheet, Mapping):
        out["sheet"] = {k: v for k, v in sheet.items() if TRAIT_OF.get(normalize(str(k))) != trait}
    out[trait] = value
    return out


__all__ = ["sweep_options", "sweep_traits", "with_trait"]
