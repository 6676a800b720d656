"""Dice: roll requests, dice sources (seeded, typed-in, exact) and exact odds.

The generic parts only: a ruleset's own rolls (its pools, their odds and charts) live
in its package and register their kinds here (``conteur.dice.kinds``).
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_HOMES = {
    "Dist": "distribution",
    **dict.fromkeys(("RollKind", "register_roll_kind", "roll_kind"), "kinds"),
    "RollOdds": "odds",
    **dict.fromkeys(
        ("DieNote", "Expr", "ExprResult", "Roll", "RollRecord", "record_from_dict"), "rolls"
    ),
    **dict.fromkeys(
        (
            "DiceSource",
            "ForcedDice",
            "SeededDice",
            "TypedDice",
            "distribution_of",
            "enumerate_outcomes",
            "explore",
            "parse_faces",
        ),
        "sources",
    ),
}
"""The module each name of the package comes from: imported when the name is first read,
so that importing one module (``conteur.dice.odds`` for an odds table) loads only what it
needs — not the dice sources and their asks."""


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'conteur.dice' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f"{__name__}.{home}"), name)
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
