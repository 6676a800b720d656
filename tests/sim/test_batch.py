"""The numpy batch of attacks (``conteur.rulesets.vtm.batch``) against the exact odds of ``roll_strike``.

Each configuration rolls ``RUNS`` attacks with every die drawn, and compares
the counts of every outcome — ``StrikeOutcome.summary()`` plus the damage
successes — with their exact probabilities (``distribution_of`` run over
``roll_strike`` itself) by Pearson's chi-square, outcomes expected fewer than
5 times pooled. A configuration fails when its p-value is below ``ALPHA`` or
when the batch shows an outcome the rules make impossible.

False alarm rate: the seeds are fixed, so the suite is deterministic; with
fresh seeds, each configuration would fail by chance with probability
``ALPHA`` = 1e-5, the whole set (about 40 checks) with probability below 5e-4.
The same statistic at the same threshold must reject deliberately wrong
chains (a tie that hits, an off-by-one difficulty, 1s that do not cancel),
so the check can fail.
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

import conteur.rulesets.vtm.batch as batch
from conteur.dice import DiceSource, RollRecord, TypedDice, distribution_of
from conteur.i18n import ConteurError
from conteur.rulesets.vtm.batch import StrikeBatch, roll_strikes
from conteur.rulesets.vtm.dice import VtmResult
from conteur.rulesets.vtm.strike import Defence, Riposte, Strike, roll_strike

from .stats import chi2_sf, goodness_of_fit

RUNS = 200_000
ALPHA = 1e-5


def strike(**kw: Any) -> Strike:
    """A strike with plain defaults: 5 dice at 6, 3 lethal damage dice, 2 soak dice."""
    base: dict[str, Any] = {
        "attacker": "a",
        "target": "t",
        "maneuver": "strike",
        "pool": 5,
        "difficulty": 6,
        "damage_dice": 3,
        "damage_type": "lethal",
        "soak": 2,
    }
    return Strike(**(base | kw))


def dodge(pool: int, difficulty: int = 6) -> Defence:
    return Defence(defender="t", kind="dodge", pool=pool, difficulty=difficulty)


def parry(pool: int, riposte: Riposte | None, difficulty: int = 6) -> Defence:
    return Defence(defender="t", kind="parry", pool=pool, difficulty=difficulty, riposte=riposte)


MORTAL = {"halve_bashing": False}
VAMPIRE = {"halve_bashing": True}

CONFIGS = [
    # Mortals and vampires, damage types, V-DMG-6.
    pytest.param(strike(pool=7, damage_dice=6, soak=4, **MORTAL), id="mortal-lethal-7d"),
    pytest.param(
        strike(pool=6, damage_dice=3, damage_type="bashing", soak=3, **VAMPIRE),
        id="vampire-bashing-halved",
    ),
    pytest.param(
        strike(pool=6, damage_dice=3, damage_type="bashing", soak=1, **MORTAL),
        id="mortal-bashing-not-halved",
    ),
    pytest.param(
        strike(pool=6, damage_dice=4, damage_type="aggravated", soak=1, **VAMPIRE),
        id="vampire-aggravated-not-halved",
    ),
    pytest.param(strike(pool=4, damage_dice=5, soak=0), id="no-soak"),
    # Pools 0..12 and difficulties, clamped to 2..10.
    pytest.param(strike(pool=0), id="pool-0"),
    pytest.param(strike(pool=-2, auto_successes=1), id="pool-negative-willpower"),
    pytest.param(strike(pool=0, auto_successes=1, damage_dice=2), id="pool-0-willpower"),
    pytest.param(strike(pool=1, difficulty=10), id="pool-1-diff-10"),
    pytest.param(strike(pool=2, difficulty=9, damage_dice=1, soak=1), id="pool-2-diff-9"),
    pytest.param(strike(pool=3, difficulty=1), id="diff-1-clamped-to-2"),
    pytest.param(strike(pool=4, difficulty=14), id="diff-14-clamped-to-10"),
    pytest.param(strike(pool=9, difficulty=8, damage_dice=4, soak=3), id="pool-9-diff-8"),
    pytest.param(
        strike(pool=12, difficulty=4, damage_dice=8, soak=6, **VAMPIRE), id="pool-12-diff-4"
    ),
    # Willpower's automatic success: never a botch.
    pytest.param(strike(pool=3, difficulty=8, auto_successes=1), id="willpower"),
    # V-DEF-2: defence, ties miss, only the difference counts.
    pytest.param(strike(pool=7, damage_dice=6, soak=4, defence=dodge(4)), id="typical-dodge"),
    pytest.param(strike(pool=3, defence=dodge(8, 5)), id="defence-stronger"),
    pytest.param(strike(pool=5, defence=dodge(0)), id="defence-pool-0"),
    pytest.param(strike(pool=12, difficulty=5, defence=dodge(12, 7)), id="defence-12"),
    pytest.param(
        strike(pool=4, auto_successes=1, defence=dodge(3, 4)), id="defence-against-willpower"
    ),
    # V-DEF-5: a parry that beats the attack hurts the attacker.
    pytest.param(
        strike(
            pool=4, damage_dice=2, damage_type="bashing", defence=parry(6, Riposte(2, "lethal", 2))
        ),
        id="parry-riposte",
    ),
    pytest.param(
        strike(pool=3, defence=parry(7, Riposte(0, "lethal", 0), difficulty=5)),
        id="parry-riposte-no-dice-no-soak",
    ),
    pytest.param(
        strike(
            pool=5,
            damage_ones_cancel=True,
            defence=parry(6, Riposte(3, "lethal", 3)),
        ),
        id="parry-riposte-ones-cancel",
    ),
    pytest.param(strike(pool=5, defence=parry(6, None)), id="parry-no-riposte"),
    # Options: every success of the difference adds a die; 1s cancel on damage and soak.
    pytest.param(
        strike(pool=8, damage_dice=3, every_success_adds=True, defence=dodge(3)),
        id="every-success-adds-defence",
    ),
    pytest.param(
        strike(pool=6, damage_dice=4, soak=3, every_success_adds=True), id="every-success-adds"
    ),
    pytest.param(
        strike(pool=7, damage_dice=5, soak=4, damage_ones_cancel=True), id="damage-ones-cancel"
    ),
    pytest.param(strike(pool=6, no_damage=True, defence=dodge(2)), id="no-damage-hold"),
    # V-DMG-1, V-DMG-4: targeting's dice, Potence, never below one die.
    pytest.param(
        strike(pool=5, damage_dice=2, extra_damage_dice=2, damage_auto=2), id="targeting-potence"
    ),
    pytest.param(strike(pool=5, damage_dice=0, soak=1), id="damage-0-min-one-die"),
    pytest.param(strike(pool=5, damage_dice=-3, soak=1), id="damage-negative-min-one-die"),
    pytest.param(
        strike(pool=5, damage_dice=1, damage_auto=1, damage_ones_cancel=True, soak=3),
        id="potence-ones-cancel",
    ),
    # V-ARM-3: armour destroyed by twice its rating.
    pytest.param(strike(pool=7, damage_dice=4, soak=5, armour_rating=1), id="armour-1"),
    pytest.param(
        strike(pool=8, damage_dice=6, soak=6, armour_rating=3, defence=dodge(3)),
        id="armour-3-dodge",
    ),
    pytest.param(
        strike(pool=6, damage_dice=2, damage_auto=2, soak=4, armour_rating=2), id="armour-potence"
    ),
    # Large pools.
    pytest.param(
        strike(pool=12, damage_dice=12, soak=10, every_success_adds=True, **VAMPIRE),
        id="large-pools",
    ),
]


def outcome_key(s: Strike) -> Any:
    """The run whose exact distribution is compared: the summary and the damage successes."""

    def run(dice: DiceSource) -> tuple[Hashable, ...]:
        o = roll_strike(s, dice)
        return (*o.summary(), o.damage)

    return run


def fit_of(s: Strike, b: StrikeBatch, run: Any = None) -> Any:
    exact = distribution_of(run or outcome_key(s))
    return goodness_of_fit(exact, b.summary_counts(with_damage=True))


@pytest.mark.parametrize("s", CONFIGS)
def test_V_ATK_5_V_DEF_2_V_DMG_1_V_SOAK_3_batch_matches_the_exact_odds(s: Strike) -> None:
    """V-ATK-5, V-DEF-2, V-DEF-5, V-DMG-1, V-DMG-4, V-DMG-6, V-ARM-3, V-SOAK-3: the batch's
    outcomes fit the exact odds of ``roll_strike`` (chi-square, p >= 1e-5)."""
    b = roll_strikes(s, RUNS, np.random.default_rng(20261129))
    fit = fit_of(s, b)
    assert not fit.impossible, fit.impossible
    assert fit.p_value >= ALPHA, fit


def test_batch_fields_agree_with_each_other() -> None:
    """Every array obeys the chain: misses have no net, no damage; levels <= damage; ..."""
    s = strike(
        pool=7,
        damage_dice=4,
        soak=3,
        armour_rating=2,
        defence=parry(5, Riposte(2, "lethal", 1)),
    )
    b = roll_strikes(s, 100_000, np.random.default_rng(5))
    assert len(b) == b.n == 100_000
    assert not (b.botch & b.hit).any()
    assert (b.attack_successes[b.botch] == 0).all()
    assert (b.net[~b.hit] == 0).all() and (b.net[b.hit] > 0).all()
    assert (b.net == np.where(b.hit, b.attack_successes - b.defence_successes, 0)).all()
    assert (b.defence_successes[b.attack_successes == 0] == 0).all()
    assert (b.damage[~b.hit] == 0).all() and (b.soak[b.damage == 0] == 0).all()
    assert (b.levels == np.maximum(b.damage - b.soak, 0)).all()
    assert (b.armour_destroyed == (b.damage >= 4)).all()
    riposted = b.riposte_levels > 0
    assert (b.defence_successes[riposted] > b.attack_successes[riposted]).all()
    assert b.riposte_levels.any() and b.armour_destroyed.any()


def test_summary_helpers() -> None:
    b = roll_strikes(strike(pool=6, defence=dodge(2)), 50_000, np.random.default_rng(1))
    assert math.isclose(sum(b.levels_histogram().values()), 1.0)
    assert b.histogram("levels") == b.levels_histogram()
    assert b.counts("net").sum() == len(b)
    assert b.share("hit") == np.count_nonzero(b.hit) / len(b)
    assert b.share("botch") == np.count_nonzero(b.botch) / len(b)
    assert math.isclose(b.mean_levels, sum(k * p for k, p in b.levels_histogram().items()))
    assert sum(b.summary_counts().values()) == len(b)
    assert b.bytes_drawn >= 50_000 * (6 + 2)
    empty = roll_strikes(strike(), 0, np.random.default_rng(1))
    assert len(empty) == 0 and empty.share("hit") == 0.0 and empty.summary_counts() == {}


def test_same_seed_same_batch() -> None:
    """Reproducible: the same seed gives the same arrays (over several chunks, one partial)."""
    s = strike(pool=7, damage_dice=6, soak=4, defence=parry(4, Riposte(2, "lethal", 1)))
    n = 2 * batch.CHUNK + 1234
    first = roll_strikes(s, n, np.random.default_rng(42))
    again = roll_strikes(s, n, np.random.default_rng(42))
    other = roll_strikes(s, n, np.random.default_rng(43))
    for name in ("attack_successes", "defence_successes", "net", "damage", "soak", "levels"):
        assert np.array_equal(getattr(first, name), getattr(again, name)), name
    assert np.array_equal(first.riposte_levels, again.riposte_levels)
    assert first.bytes_drawn == again.bytes_drawn
    assert not np.array_equal(first.levels, other.levels)


def test_every_byte_is_one_die_or_none() -> None:
    """Bytes 0..249 are the faces 1..10, 25 bytes each (chi-square); 250..255 are no die."""
    dice = batch.ByteDice(np.random.default_rng(3))
    block = dice.block(1, 1_000_000)[0]
    kept = block[block < batch.REJECT]
    faces = np.bincount(kept // batch.DIE_SPAN + 1, minlength=11)[1:]
    fit = goodness_of_fit(
        {f: 0.1 for f in range(1, 11)}, {f: int(faces[f - 1]) for f in range(1, 11)}
    )
    assert fit.p_value >= ALPHA, fit
    assert abs(1 - kept.size / block.size - 6 / 256) < 0.001
    assert batch.threshold(6) == 125 and batch.threshold(1) == 25 and batch.threshold(12) == 225


def test_a_rejected_byte_is_replaced_by_another_die() -> None:
    """At difficulty 2 every die is a success or a 1: each pool counts exactly its dice."""
    dice = batch.ByteDice(np.random.default_rng(4))
    for rows in (1, 7, 30):
        hits, ones = batch.roll_pool(dice, rows, 50_000, batch.threshold(2))
        assert (hits.astype(int) + ones == rows).all()
        assert abs(ones.mean() / rows - 0.1) < 0.01
    # Pools of varying size, at difficulty 6: means 0.5 and 0.1 per die.
    counts = np.repeat(np.arange(1, 11, dtype=np.int16), 20_000)
    hits, ones = batch.roll_pool(dice, 10, counts.size, batch.threshold(6), counts, 1)
    assert abs(hits.sum() / counts.sum() - 0.5) < 0.005
    assert abs(ones.sum() / counts.sum() - 0.1) < 0.003
    assert (hits.astype(int) + ones <= counts).all()


def test_pools_roll_strike_refuses_are_refused() -> None:
    """Same errors as ``roll_strike``: a pool over 200 dice, negative automatic successes."""
    with pytest.raises(ConteurError):
        roll_strike(strike(pool=201), TypedDice([]))
    with pytest.raises(ConteurError):
        roll_strikes(strike(pool=201), 10, np.random.default_rng(0))
    with pytest.raises(ConteurError):
        roll_strikes(strike(damage_auto=-1), 10, np.random.default_rng(0))
    with pytest.raises(ConteurError):
        roll_strikes(
            strike(defence=parry(3, Riposte(2, "lethal", 201))), 10, np.random.default_rng(0)
        )
    with pytest.raises(ValueError):
        roll_strikes(strike(), -1, np.random.default_rng(0))
    with pytest.raises(ValueError):
        roll_strikes(strike(auto_successes=batch.MAX_AUTO + 1), 10, np.random.default_rng(0))


# ----------------------------------------------------------------- the check can fail


class TiesHit:
    """A wrong chain: wraps a dice source so that a defence equal to the attack leaves one
    net success (a tie hits), everything else played by ``roll_strike`` itself."""

    def __init__(self, inner: DiceSource) -> None:
        self.inner = inner
        self.calls = 0
        self.attack = 0

    def roll(self, request: Any, ask: Any = None) -> RollRecord[Any]:
        record = self.inner.roll(request)
        self.calls += 1
        if self.calls == 1:
            self.attack = record.result.successes
        elif self.calls == 2 and 0 < self.attack == record.result.successes:
            return RollRecord(request, record.faces, VtmResult(self.attack - 1, False))
        return record

    def mark(self) -> object:
        return self.inner.mark()

    def reset(self, mark: object) -> None:
        self.inner.reset(mark)


DETECT = strike(pool=6, damage_dice=4, soak=3, defence=dodge(4))


def test_a_chain_where_ties_hit_is_rejected() -> None:
    """V-DEF-2: the same statistic, against the odds of a chain where a tie hits, fails."""
    b = roll_strikes(DETECT, RUNS, np.random.default_rng(20261129))
    assert not fit_of(DETECT, b).rejected(ALPHA)

    def wrong(dice: DiceSource) -> tuple[Hashable, ...]:
        o = roll_strike(DETECT, TiesHit(dice))
        return (*o.summary(), o.damage)

    assert fit_of(DETECT, b, wrong).rejected(ALPHA)


def test_an_off_by_one_difficulty_is_rejected(monkeypatch: pytest.MonkeyPatch) -> None:
    """V-ATK-5: a batch counting faces > difficulty (not >=) fails the same check."""
    monkeypatch.setattr(batch, "threshold", lambda d: batch.DIE_SPAN * min(10, max(2, d)))
    b = roll_strikes(DETECT, RUNS, np.random.default_rng(20261129))
    assert fit_of(DETECT, b).rejected(ALPHA)


def test_ones_that_do_not_cancel_are_rejected(monkeypatch: pytest.MonkeyPatch) -> None:
    """V-ATK-5: a batch where 1s cancel nothing fails the same check."""
    monkeypatch.setattr(batch, "_net", lambda hits, ones: hits.copy())
    b = roll_strikes(DETECT, RUNS, np.random.default_rng(20261129))
    assert fit_of(DETECT, b).rejected(ALPHA)


def test_no_halving_for_a_vampire_is_rejected() -> None:
    """V-DMG-6: a batch of the unhalved strike fails against a vampire's exact odds."""
    vampire = strike(pool=6, damage_dice=3, damage_type="bashing", soak=1, **VAMPIRE)
    b = roll_strikes(replace(vampire, halve_bashing=False), RUNS, np.random.default_rng(1))
    b = replace(b, strike=vampire)
    assert fit_of(vampire, b).rejected(ALPHA)


def test_chi2_sf_known_values() -> None:
    assert math.isclose(chi2_sf(3.841458820694124, 1), 0.05, rel_tol=1e-9)
    assert math.isclose(chi2_sf(18.307038053275146, 10), 0.05, rel_tol=1e-9)
    for x in (0.5, 3.0, 40.0):
        assert math.isclose(chi2_sf(x, 2), math.exp(-x / 2), rel_tol=1e-12)
    assert chi2_sf(0.0, 4) == 1.0
