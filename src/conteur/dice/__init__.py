"""Dice: roll requests, dice sources (seeded, typed-in, exact) and exact odds."""

from .charts import HunterChart, VtmChart, hunter_chart, vtm_chart
from .distribution import Dist
from .odds import RollOdds, WesternOdds, hunter_odds, vtm_odds, western_odds
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
    explore,
    parse_faces,
)
from .stages import propagate

__all__ = [
    "DiceSource",
    "Dist",
    "Expr",
    "ExprResult",
    "ForcedDice",
    "HunterChart",
    "HunterPool",
    "HunterResult",
    "Percentile",
    "PercentileResult",
    "Roll",
    "RollOdds",
    "RollRecord",
    "SeededDice",
    "TypedDice",
    "VtmChart",
    "VtmPool",
    "VtmResult",
    "WesternOdds",
    "distribution_of",
    "enumerate_outcomes",
    "explore",
    "hunter_chart",
    "hunter_odds",
    "parse_faces",
    "propagate",
    "record_from_dict",
    "vtm_chart",
    "vtm_odds",
    "western_odds",
]
