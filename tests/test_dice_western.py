"""western d100 rolls: success at or under the skill, critical under a tenth (W-CRIT-1)."""

from __future__ import annotations

import pytest

from conteur.dice import TypedDice
from conteur.rulesets.western.dice import Percentile, PercentileResult


def roll(skill: int, face: str) -> PercentileResult:
    dice = TypedDice(face)
    record = dice.roll(Percentile(skill))
    dice.check_all_used()
    return record.result


def test_W_CRIT_1_skill_56_roll_4_is_critical_with_margin_52() -> None:
    """W-CRIT-1: Bill, 56 %, rolls 4: critical (4 × 10 < 56), margin 52 (the text's example)."""
    result = roll(56, "4")
    assert result == PercentileResult(roll=4, success=True, critical=True, margin=52)
    assert result.describe("fr", 56) == "réussite critique (jet 4 sous 56 %, marge 52)"
    assert result.describe("en", 56) == "critical success (rolled 4 under 56%, margin 52)"


@pytest.mark.parametrize(
    ("skill", "face", "critical"),
    [(56, 5, True), (56, 6, False), (50, 4, True), (50, 5, False), (60, 6, False), (9, 1, False)],
)
def test_W_CRIT_1_critical_is_strictly_under_a_tenth(skill: int, face: int, critical: bool) -> None:
    """W-CRIT-1: roll × 10 < skill, strictly and unrounded (a tenth of 50 is not under 5)."""
    result = roll(skill, str(face))
    assert result.critical is critical
    assert result.success


def test_success_at_or_under_the_skill() -> None:
    assert roll(56, "56").success
    assert roll(56, "56").margin == 0
    failed = roll(56, "57")
    assert not failed.success and not failed.critical
    assert failed.describe("fr", 56) == "échec (jet 57 pour 56 %)"
    assert failed.describe("en", 56) == "failure (rolled 57 for 56%)"


def test_typed_zero_reads_one_hundred() -> None:
    result = roll(56, "0")
    assert result.roll == 100 and not result.success


def test_exact_outcomes() -> None:
    outcomes = Percentile(56).outcomes()
    assert len(outcomes) == 100
    assert sum(p for r, p in outcomes if r.success) == pytest.approx(0.56)
    assert sum(p for r, p in outcomes if r.critical) == pytest.approx(0.05)
