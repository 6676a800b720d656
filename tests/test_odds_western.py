"""Western d100 odds (W-CRIT-1) and plain ``NdX±M`` expressions: brute force and sampling.

Monte Carlo: Pearson chi-square, false-alarm rate 1e-4 per test, fixed seeds.
"""

from __future__ import annotations

import itertools

import pytest

from conteur.dice import Dist, Expr
from conteur.rulesets.western.dice import Percentile, western_odds
from odds_helpers import chi_square_p_value, sample

TOL = 1e-12
ALPHA = 1e-4


@pytest.mark.parametrize("skill", [-5, 0, 1, 9, 10, 11, 50, 56, 99, 100, 101, 150, 1001])
def test_western_odds_match_every_face(skill: int) -> None:
    """W-CRIT-1: success is 1D100 <= skill; critical is roll x 10 < skill (unrounded)."""
    reads = [Percentile(skill).read(face) for face in range(1, 101)]
    odds = western_odds(skill)
    assert abs(odds.p_success - sum(r.success for r in reads) / 100) <= TOL
    assert abs(odds.p_critical - sum(r.critical for r in reads) / 100) <= TOL
    assert odds.to_dict() == {"p_success": odds.p_success, "p_critical": odds.p_critical}


def test_w_crit_1_text_example() -> None:
    """W-CRIT-1 (Bill: 56 %, rolls 4, margin 52): a 4 is critical; criticals are rolls 1..5."""
    read = Percentile(56).read(4)
    assert read.critical and read.margin == 52
    assert western_odds(56).p_critical == 0.05
    assert western_odds(56).p_success == 0.56
    assert western_odds(50).p_critical == 0.04  # 5 x 10 = 50 is not below 50


def test_western_sampling_matches_exact() -> None:
    n = 20_000
    kind = lambda r: "critical" if r.critical else ("success" if r.success else "failure")  # noqa: E731
    observed = sample(Percentile(56), n, 21, key=kind)
    odds = western_odds(56)
    expected = [
        ("critical", odds.p_critical),
        ("success", odds.p_success - odds.p_critical),
        ("failure", 1 - odds.p_success),
    ]
    assert chi_square_p_value(observed, expected, n) > ALPHA
    wrong = [("critical", 0.06), ("success", 0.50), ("failure", 0.44)]
    assert chi_square_p_value(observed, wrong, n) < ALPHA


@pytest.mark.parametrize("text", ["1D20", "3D6+2", "2d10-3", "4D6-3", "D8", "3D4"])
def test_expr_outcomes_match_brute_force(text: str) -> None:
    expr = Expr.parse(text)
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, expr.sides + 1), repeat=expr.count):
        total = sum(faces) + expr.modifier
        counts[total] = counts.get(total, 0) + 1
    n = expr.sides**expr.count
    exact = {r.total: p for r, p in expr.outcomes()}
    assert set(exact) == set(counts)
    for total, c in counts.items():
        assert abs(exact[total] - c / n) <= TOL
    ref = Dist.die(expr.sides).sum_of(expr.count) + expr.modifier
    assert ref.isclose(Dist.from_mapping(exact))


def test_expr_sampling_matches_exact() -> None:
    n = 20_000
    expr = Expr.parse("3D6+2")
    observed = sample(expr, n, 22, key=lambda r: r.total)
    expected = sorted(((r.total, p) for r, p in expr.outcomes()), key=lambda kv: kv[0])
    assert chi_square_p_value(observed, expected, n) > ALPHA
