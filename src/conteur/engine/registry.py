"""Rulesets, option packs and table options, found by name.

A ruleset module registers itself on import; ``get_ruleset`` imports the
known modules lazily, so adding a ruleset means adding its package and one
line to ``_KNOWN``, never editing the engine.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
from typing import TYPE_CHECKING

from conteur.i18n import ConteurError

if TYPE_CHECKING:
    from .ruleset import Ruleset

_KNOWN = {
    "vtm": "conteur.rulesets.vtm",
    "hunter": "conteur.rulesets.hunter",
    "western": "conteur.rulesets.western",
}
_RULESETS: dict[str, Ruleset] = {}


def register_ruleset(ruleset: Ruleset) -> None:
    """Make ``ruleset`` available by its name."""
    _RULESETS[ruleset.name] = ruleset


def get_ruleset(name: str) -> Ruleset:
    """The ruleset called ``name`` (ConteurError ``engine.unknown_ruleset`` otherwise)."""
    if name not in _RULESETS and name in _KNOWN:
        with contextlib.suppress(ModuleNotFoundError):
            importlib.import_module(_KNOWN[name])
    try:
        return _RULESETS[name]
    except KeyError:
        raise ConteurError(
            "engine.unknown_ruleset", name=name, known=", ".join(available_rulesets())
        ) from None


def available_rulesets() -> list[str]:
    """Names of the rulesets that can be loaded."""
    names = set(_RULESETS)
    for name, module in _KNOWN.items():
        with contextlib.suppress(ModuleNotFoundError):
            if importlib.util.find_spec(module) is not None:
                names.add(name)
    return sorted(names)
