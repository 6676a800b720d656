"""Rulesets found by name, through the entry-point group ``conteur.rulesets``.

A package declares its ruleset in its metadata::

    [project.entry-points."conteur.rulesets"]
    mygame = "mygame.rules:MyGameRuleset"

The entry point names a ``Ruleset`` subclass (instantiated once) or an instance.
Nothing here knows which rulesets exist: a ruleset installed separately is found
like the ones shipped with conteur. ``register_ruleset`` adds one by hand (tests).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from functools import cache
from types import MappingProxyType
from typing import Any

from conteur.dice.kinds import add_kind_loader, register_roll_kind
from conteur.entry_points import declared_entry_points, resolve
from conteur.i18n import ConteurError, Msg, register_package_catalog

from .ruleset import Ruleset

GROUP = "conteur.rulesets"
"""The entry-point group rulesets are declared in."""

_RULESETS: dict[str, Ruleset[Any]] = {}


def _declared() -> Mapping[str, str]:
    """The declared rulesets by name, ``"module:attribute"`` (read once per search path, and
    without ``importlib.metadata``: ``conteur.entry_points``)."""
    return _declared_on(tuple(sys.path))


@cache
def _declared_on(path: tuple[str, ...]) -> Mapping[str, str]:
    return MappingProxyType(declared_entry_points(GROUP))


def register_ruleset(ruleset: Ruleset[Any]) -> None:
    """Make ``ruleset`` available by its name; register its message catalogs and roll kinds."""
    for package, resource in ruleset.message_catalogs():
        register_package_catalog(package, resource)
    for kind in ruleset.roll_kinds():
        register_roll_kind(kind.request, kind.result)
    _RULESETS[ruleset.name] = ruleset


def get_ruleset(name: str) -> Ruleset[Any]:
    """The ruleset called ``name`` (ConteurError ``engine.unknown_ruleset`` otherwise)."""
    found = _RULESETS.get(name)
    if found is not None:
        return found
    target = _declared().get(name)
    if target is None:
        raise ConteurError(
            "engine.unknown_ruleset", name=name, known=", ".join(available_rulesets())
        )
    loaded = resolve(target)
    ruleset = loaded() if isinstance(loaded, type) else loaded
    if not isinstance(ruleset, Ruleset):
        raise ConteurError("engine.bad_ruleset", name=name, reason=f"{target} is no Ruleset")
    if ruleset.name != name:
        raise ConteurError(
            "engine.bad_ruleset", name=name, reason=f"{target} is named {ruleset.name!r}"
        )
    register_ruleset(ruleset)
    return ruleset


def ruleset_title(name: str) -> Msg | str:
    """What a reader calls the ruleset named ``name`` (``Ruleset.title``), else its name (a
    ruleset not installed)."""
    try:
        return get_ruleset(name).title()
    except ConteurError:
        return name


def available_rulesets() -> list[str]:
    """Names of the rulesets that can be loaded (declared, or registered by hand)."""
    return sorted(set(_RULESETS) | set(_declared()))


def _load_roll_kind(kind: str) -> None:
    """A stored roll names a kind nobody registered yet: load the declared rulesets (each
    registers its kinds) until one has it."""
    from conteur.dice.kinds import roll_kinds

    for name in available_rulesets():
        if kind in roll_kinds():
            return
        if name not in _RULESETS:
            get_ruleset(name)


add_kind_loader(_load_roll_kind)


def ruleset_of(scenario: Any) -> Ruleset[Any]:
    """The ruleset a scenario names in its ``ruleset`` key (ConteurError when it names none)."""
    from .scenario import ruleset_name

    name = ruleset_name(scenario) if isinstance(scenario, Mapping) else None
    if not name:
        raise ConteurError("engine.no_ruleset", known=", ".join(available_rulesets()))
    return get_ruleset(str(name))


__all__ = ["GROUP", "available_rulesets", "get_ruleset", "register_ruleset", "ruleset_of"]
