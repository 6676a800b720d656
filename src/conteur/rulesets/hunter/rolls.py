"""The roll rules a result applied: chance die, dramatic failure, exceptional success."""

from __future__ import annotations

from conteur.engine.rules import rules_applied

from .dice import HunterResult


def roll_rules(result: HunterResult) -> tuple[str, ...]:
    """H-CHANCE-1 when the pool was down to one die, H-FAIL-1 / H-EXC-1 when they happened."""
    return rules_applied(
        ("H-CHANCE-1", result.chance),
        ("H-FAIL-1", result.dramatic_failure),
        ("H-EXC-1", result.exceptional),
    )
