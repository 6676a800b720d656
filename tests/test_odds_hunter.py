"""Exact hunter (new World of Darkness) odds: enumeration of faces, an independent
reference built with ``Dist``, and seeded sampling.

Enumeration runs ``HunterPool.roll`` on every face sequence up to a bounded
number of faces (again-dice make the sequences unbounded). A sequence that is
cut has at least one success per again-die it asked for, so outcomes below
that count are enumerated completely and must match to 1e-12; higher ones
may miss at most the cut mass.

Monte Carlo: Pearson chi-square, false-alarm rate 1e-4 per test, fixed seeds.
"""

from __future__ import annotations

import pytest

from conteur.dice import Dist
from conteur.i18n import ConteurError
from conteur.rulesets.hunter.dice import HunterPool, HunterResult, hunter_odds
from odds_helpers import chi_square_p_value, face_tree, sample

TOL = 1e-12
ALPHA = 1e-4


def exact_outcomes(pool: HunterPool) -> dict[HunterResult, float]:
    out: dict[HunterResult, float] = {}
    for r, p in pool.outcomes():
        out[r] = out.get(r, 0.0) + p
    return out


CASES = [
    # (dice, again, rote, extra faces beyond the original and rote dice)
    (0, 10, False, 6),
    (-3, 8, False, 6),
    (0, 9, True, 5),
    (1, 10, False, 6),
    (1, 9, False, 6),
    (1, 8, False, 7),
    (1, 8, True, 5),
    (2, 10, False, 4),
    (2, 8, False, 4),
    (2, 9, True, 2),
    (3, 10, False, 2),
]


@pytest.mark.parametrize(("dice", "again", "rote", "extra"), CASES)
def test_exact_matches_enumerated_faces(dice: int, again: int, rote: bool, extra: int) -> None:
    """H-CHANCE-1, H-FAIL-1: 10/9/8-again, rote and the chance die against every face sequence."""
    pool = HunterPool(dice, again, rote)
    base = max(dice, 1) * (2 if rote else 1)
    brute, cut = face_tree(pool, base + extra, key=lambda r: r)
    exact = exact_outcomes(pool)
    complete_below = extra + 1  # a cut sequence has at least this many successes
    assert cut < 0.05
    for result in set(brute) | set(exact):
        e, b = exact.get(result, 0.0), brute.get(result, 0.0)
        if result.dramatic_failure or result.successes < complete_below:
            assert abs(e - b) <= TOL, result
        else:
            assert -TOL <= e - b <= cut + TOL, result
    assert abs(sum(exact.values()) + 0.0 - 1.0) <= TOL


def _one_die(again: int) -> Dist:
    """Successes of one die with ``again``-again, from first principles (depth 80)."""
    r = (11 - again) / 10  # shows again or more: success, and rolls again
    s = (again - 8) / 10  # succeeds, no reroll
    x = Dist.point(0)
    for _ in range(80):
        x = Dist.mix([(0.7, Dist.point(0)), (s, Dist.point(1)), (r, x + 1)])  # s may be 0
    return x


def reference(dice: int, again: int, rote: bool) -> Dist:
    """Number of successes (dramatic failures counted as 0) built with ``Dist`` alone."""
    x = _one_die(again)
    r = (11 - again) / 10
    s = (again - 8) / 10
    if dice <= 0:
        ten = 0.1 + (0.09 if rote else 0.0)
        return Dist.mix([(1 - ten, Dist.point(0)), (ten, x + 1)])
    hit = [(s, Dist.point(1)), (r, x + 1)]
    slot = Dist.mix([(0.7, x), *hit]) if rote else Dist.mix([(0.7, Dist.point(0)), *hit])
    return slot.sum_of(dice)


@pytest.mark.parametrize("again", [10, 9, 8])
@pytest.mark.parametrize("rote", [False, True])
@pytest.mark.parametrize("dice", [-1, 0, 1, 4, 12, 30])
def test_odds_match_independent_reference(dice: int, again: int, rote: bool) -> None:
    """Every count within 1e-12, and the tail cut off is below 1e-15 (H-CHANCE-1 for dice <= 0)."""
    odds = hunter_odds(dice, again, rote=rote)
    ref = reference(dice, again, rote)
    mine = odds.dist()
    assert mine.isclose(ref.trim(0.0), atol=TOL)
    assert ref.at_least(len(odds.successes)) < 1e-15
    assert abs(odds.total() - 1.0) <= TOL


def test_dramatic_failure_closed_form() -> None:
    """H-FAIL-1: no success and a 1 among the original dice: 0.7^n - 0.6^n."""
    for n in range(1, 8):
        assert abs(hunter_odds(n).p_special - (0.7**n - 0.6**n)) <= TOL
        rote = hunter_odds(n, rote=True).p_special
        assert abs(rote - (0.49**n - 0.42**n)) <= TOL


def test_chance_die_h_chance_1() -> None:
    """H-CHANCE-1: only a 10 succeeds, a 1 is a dramatic failure."""
    odds = hunter_odds(-2)
    assert odds.p_special == pytest.approx(0.1, abs=TOL)
    assert odds.successes[0] == pytest.approx(0.8, abs=TOL)
    assert odds.at_least(1) == pytest.approx(0.1, abs=TOL)


def test_outcomes_keys() -> None:
    out = hunter_odds(5, 8).outcomes()
    keys = list(out)
    assert keys[0] == "dramatic_failure"
    assert keys[1:] == [str(k) for k in range(len(keys) - 1)]
    assert abs(sum(out.values()) - 1.0) <= TOL


@pytest.mark.parametrize(("dice", "again"), [(3, 7), (3, 11), (201, 10)])
def test_bad_requests_are_user_errors(dice: int, again: int) -> None:
    with pytest.raises(ConteurError) as info:
        hunter_odds(dice, again)
    assert info.value.key == "dice.bad_pool"


# -------------------------------------------------------------- Monte Carlo


def _expected(pool: HunterPool) -> list[tuple[object, float]]:
    items = exact_outcomes(pool).items()
    return sorted(items, key=lambda kv: (not kv[0].dramatic_failure, kv[0].successes))


@pytest.mark.parametrize(
    ("pool", "seed"),
    [
        (HunterPool(6), 11),
        (HunterPool(5, 8, rote=True), 12),
        (HunterPool(3, 9), 13),
        (HunterPool(0, 8, rote=True), 14),
    ],
    ids=["6d", "5d-8again-rote", "3d-9again", "chance-rote"],
)
def test_seeded_sampling_matches_exact(pool: HunterPool, seed: int) -> None:
    n = 20_000
    observed = sample(pool, n, seed, key=lambda r: r)
    assert chi_square_p_value(observed, _expected(pool), n) > ALPHA


def test_chi_square_detects_a_wrong_again() -> None:
    """The sampling test has power: 8-again samples are rejected as 10-again odds."""
    n = 20_000
    observed = sample(HunterPool(6, 8), n, 11, key=lambda r: r)
    assert chi_square_p_value(observed, _expected(HunterPool(6, 10)), n) < ALPHA
