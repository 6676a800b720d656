"""Dice: roll requests, dice sources (seeded, typed-in, exact) and exact odds."""

from .rolls import (
    Expr,
    ExprResult,
    HunterPool,
    HunterResult,
    Percentile,
    PercentileResult,
    Roll,
    RollRecord,
    VtmPool,
    VtmResult,
    record_from_dict,
)
from .sources import (
    DiceSource,
    ForcedDice,
    SeededDice,
    TypedDice,
    distribution_of,
    enumerate_outcomes,
    parse_faces,
)

__all__ = [
    "DiceSource",
    "Expr",
    "ExprResult",
    "ForcedDice",
    "HunterPool",
    "HunterResult",
    "Percentile",
    "PercentileResult",
    "Roll",
    "RollRecord",
    "SeededDice",
    "TypedDice",
    "VtmPool",
    "VtmResult",
    "distribution_of",
    "enumerate_outcomes",
    "parse_faces",
    "record_from_dict",
]
