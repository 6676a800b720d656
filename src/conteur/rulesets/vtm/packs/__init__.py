"""Option packs of the vtm ruleset, found by name: each is a sub-package exposing ``OPTION_PACK``.

A pack is switched on per encounter (the scenario's ``packs: [...]``, which the
tracker fills from the campaign). Its rule hooks are registered once, at
import, and act only in encounters whose state lists the pack; its
``adjust_tables`` adds its maneuvers to the encounter's tables and takes out
those it replaces.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass

from ..tables import Tables


@dataclass(frozen=True)
class OptionPack:
    """One option pack: its name, the rule ids it replaces, and how it changes the tables."""

    name: str
    replaces: tuple[str, ...]
    adjust_tables: Callable[[Tables], Tables]


def discover() -> dict[str, OptionPack]:
    """Every option pack shipped in this package, by name."""
    found: dict[str, OptionPack] = {}
    for info in pkgutil.iter_modules(__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        pack = getattr(module, "OPTION_PACK", None)
        if isinstance(pack, OptionPack):
            found[pack.name] = pack
    return found


__all__ = ["OptionPack", "discover"]
