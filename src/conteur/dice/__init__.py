"""Dice: roll requests, dice sources (seeded, typed-in, exact) and exact odds.

The generic parts only: a ruleset's own rolls (its pools, their odds and charts) live
in its package and register their kinds here (``conteur.dice.kinds``).
"""

from .distribution import Dist
from .kinds import RollKind, register_roll_kind, roll_kind
from .odds import RollOdds
from .rolls import DieNote, Expr, ExprResult, Roll, RollRecord, record_from_dict
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
