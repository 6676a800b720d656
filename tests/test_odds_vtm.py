"""Exact vtm odds against brute-force enumeration of faces and against seeded sampling.

Brute force: every tuple of faces (itertools.product) read by ``VtmPool.read``.
Monte Carlo: ``SeededDice`` rolling the real request; Pearson chi-square at a
false-alarm rate of 1e-4 per test (seeds are fixed, so a pass is reproducible;
the rate is what a changed seed would risk).
"""

from __future__ import annotations

import itertools

import pytest

from conteur.i18n import ConteurError
from conteur.rulesets.vtm.dice import VtmPool, VtmResult, vtm_odds
from odds_helpers import chi_square_p_value, product_faces, sample

TOL = 1e-12
ALPHA = 1e-4

_FACES = {n: product_faces(n) for n in range(0, 5)}


def brute(pool: VtmPool) -> dict[VtmResult, float]:
    """{result: probability} over every face tuple of the dice actually rolled."""
    faces = _FACES[pool.rolled_dice]
    out: dict[VtmResult, float] = {}
    for f in faces:
        r = pool.read(f)
        out[r] = out.get(r, 0.0) + 1.0 / len(faces)
    return out


def exact_outcomes(pool: VtmPool) -> dict[VtmResult, float]:
    out: dict[VtmResult, float] = {}
    for r, p in pool.outcomes():
        out[r] = out.get(r, 0.0) + p
    return out


def assert_same(a: dict[VtmResult, float], b: dict[VtmResult, float]) -> None:
    for key in set(a) | set(b):
        assert abs(a.get(key, 0.0) - b.get(key, 0.0)) <= TOL, key


OPTIONS = list(itertools.product([True, False], [True, False], [0, 2], [False, True]))


@pytest.mark.parametrize(("ones_cancel", "can_botch", "auto", "min_one"), OPTIONS)
def test_exact_matches_brute_force_every_option(
    ones_cancel: bool, can_botch: bool, auto: int, min_one: bool
) -> None:
    """Core dice words and V-DMG-4: pools 0..3 at every difficulty, each option combination."""
    for n in range(0, 4):
        for d in range(2, 11):
            pool = VtmPool(n, d, ones_cancel, can_botch, auto, min_one)
            assert_same(exact_outcomes(pool), brute(pool))


@pytest.mark.parametrize("difficulty", [2, 4, 6, 8, 10])
def test_exact_matches_brute_force_four_dice(difficulty: int) -> None:
    for ones_cancel, can_botch in [(True, True), (False, False)]:
        pool = VtmPool(4, difficulty, ones_cancel, can_botch)
        assert_same(exact_outcomes(pool), brute(pool))


@pytest.mark.parametrize(("asked", "rolled"), [(-3, 2), (1, 2), (11, 10), (15, 10)])
def test_difficulty_is_clamped(asked: int, rolled: int) -> None:
    """Core dice words: difficulty stays within 2..10; odds are those of the clamped value."""
    pool = VtmPool(3, asked)
    assert pool.clamped and pool.effective_difficulty == rolled
    assert_same(exact_outcomes(pool), brute(VtmPool(3, rolled)))
    assert vtm_odds(3, asked) == vtm_odds(3, rolled)


def test_odds_api_shape() -> None:
    """``vtm_odds``: botch first, then every count from 0; sums to 1."""
    odds = vtm_odds(5, 6)
    out = odds.outcomes()
    assert list(out)[:2] == ["botch", "0"]
    assert list(out)[1:] == [str(k) for k in range(6)]
    assert abs(sum(out.values()) - 1.0) <= TOL
    b = brute(VtmPool(4, 6))
    assert abs(vtm_odds(4, 6).p_special - sum(p for r, p in b.items() if r.botch)) <= TOL
    assert (
        abs(
            vtm_odds(4, 6).at_least(2)
            - sum(p for r, p in b.items() if not r.botch and r.successes >= 2)
        )
        <= TOL
    )
    assert abs(odds.dist().total() - 1.0) <= TOL


def test_willpower_rules_out_botch() -> None:
    """An automatic success cannot be cancelled and there is no botch."""
    odds = vtm_odds(3, 8, auto=1)
    assert odds.p_special == 0.0 and odds.successes[0] == 0.0
    assert abs(odds.at_least(1) - 1.0) <= TOL


def test_damage_roll_v_dmg_4() -> None:
    """V-DMG-4: damage never below one die, never botches, 1s do not cancel."""
    odds = vtm_odds(0, 6, ones_cancel=False, can_botch=False, min_one=True)
    assert odds.p_special == 0.0
    assert odds.successes == pytest.approx((0.5, 0.5), abs=TOL)
    plain = vtm_odds(0, 6)
    assert plain.outcomes() == {"botch": 0.0, "0": 1.0}


@pytest.mark.parametrize("pool", [-1, 201])
def test_bad_pool_is_a_user_error(pool: int) -> None:
    with pytest.raises(ConteurError) as info:
        vtm_odds(pool)
    assert info.value.key == "dice.bad_pool"
    assert "pool" in info.value.message("en") and "réserve" in info.value.message("fr")


def test_large_pool_sums_to_one() -> None:
    for n in (30, 100, 200):
        for d in (2, 6, 10):
            assert abs(vtm_odds(n, d).total() - 1.0) <= TOL


# -------------------------------------------------------------- Monte Carlo


def _expected(pool: VtmPool) -> list[tuple[object, float]]:
    return sorted(exact_outcomes(pool).items(), key=lambda kv: (not kv[0].botch, kv[0].successes))


@pytest.mark.parametrize(
    ("pool", "seed"),
    [
        (VtmPool(7, 6), 1),
        (VtmPool(5, 8), 2),
        (VtmPool(4, 6, ones_cancel=False, can_botch=False), 3),
        (VtmPool(6, 4, auto=1), 4),
    ],
    ids=["7d@6", "5d@8", "damage", "willpower"],
)
def test_seeded_sampling_matches_exact(pool: VtmPool, seed: int) -> None:
    n = 20_000
    observed = sample(pool, n, seed, key=lambda r: r)
    assert chi_square_p_value(observed, _expected(pool), n) > ALPHA


def test_chi_square_detects_a_wrong_difficulty() -> None:
    """The sampling test has power: difficulty 6 samples are rejected as difficulty 7."""
    n = 20_000
    observed = sample(VtmPool(7, 6), n, 1, key=lambda r: r)
    assert chi_square_p_value(observed, _expected(VtmPool(7, 7)), n) < ALPHA
