"""Dice: roll requests, dice sources (seeded, typed-in, exact) and exact odds.

The generic parts only: a ruleset's own rolls (its pools, their odds and charts) live
in its package and register their kinds here (``conteur.dice.kinds``).
"""

from typing import TYPE_CHECKING, Any

from .distribution import Dist
from .kinds import RollKind, register_roll_kind, roll_kind
from .odds import RollOdds
from .rolls import DieNote, Expr, ExprResult, Roll, RollRecord, record_from_dict

if TYPE_CHECKING:
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


def __getattr__(name: str) -> Any:
    """The dice sources' names (``.sources``), imported when first read: an odds table
    loads neither the sources nor their asks."""
    if name not in __all__:
        raise AttributeError(f"module 'conteur.dice' has no attribute {name!r}")
    from . import sources

    value = getattr(sources, name)
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
