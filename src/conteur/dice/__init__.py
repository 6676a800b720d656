"""Dice: roll requests, dice sources (seeded, typed-in, exact) and exact odds.

The generic parts only: a ruleset's own rolls (its pools, their odds and charts) live
in its package and register their kinds here (``conteur.dice.kinds``).
"""

from typing import TYPE_CHECKING, Any

from .kinds import RollKind, register_roll_kind, roll_kind
from .rolls import DieNote, Expr, ExprResult, Roll, RollRecord, record_from_dict

if TYPE_CHECKING:
    from .distribution import Dist
    from .odds import RollOdds
    from .sources import (
        DiceSource,
        ForcedDice,
        SeededDice,
        TypedDice,
        distribution_of,
        enumerate_outcomes,
        explore,
        parse_faces,
    )

_HOMES = {"Dist": "distribution", "RollOdds": "odds"}
"""The module of each name read lazily that is not one of the dice sources' (``.sources``)."""


def __getattr__(name: str) -> Any:
    """The names that need numpy (``Dist``, ``RollOdds``) or the dice sources, imported when
    first read: a roll or an odds answer that needs neither (a d100's) loads no numpy, and
    an odds table neither the sources nor their asks."""
    if name not in __all__:
        raise AttributeError(f"module 'conteur.dice' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f"{__name__}.{_HOMES.get(name, 'sources')}"), name)
    globals()[name] = value
    return value


__all__ = [
    "DiceSource",
    "DieNote",
    "Dist",
    "Expr",
    "ExprResult",
    "ForcedDice",
    "Roll",
    "RollKind",
    "RollOdds",
    "RollRecord",
    "SeededDice",
    "TypedDice",
    "distribution_of",
    "enumerate_outcomes",
    "explore",
    "parse_faces",
    "record_from_dict",
    "register_roll_kind",
    "roll_kind",
]
