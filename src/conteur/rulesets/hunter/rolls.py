"""The roll rules a result applied: chance die, dramatic failure, exceptional success."""

from __future__ import annotations

from .dice import HunterResult


def roll_rules(result: HunterResult) -> tuple[str, ...]:
    """H-CHANCE-1 when the pool was down to one die, H-FAIL-1 / H-EXC-1 when they happened."""
    rules = []
    if result.chance:
        rules.append("H-CHANCE-1")
    if result.dramatic_failure:
        rules.append("H-FAIL-1")
    if result.exceptional:
        rules.append("H-EXC-1")
    return tuple(rules)
