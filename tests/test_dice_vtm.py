"""vtm d10 pools against a difficulty: successes, 1s, botches, options (core dice rules)."""

from __future__ import annotations

import itertools

import pytest

from conteur.dice import TypedDice, record_from_dict
from conteur.i18n import ConteurError
from conteur.rulesets.vtm.dice import VtmPool, VtmResult


def roll(request: VtmPool, faces: str) -> VtmResult:
    """Roll ``request`` with typed-in faces, checking every face was used."""
    dice = TypedDice(faces)
    record = dice.roll(request)
    dice.check_all_used()
    assert list(record.faces) == [10 if f == 0 else f for f in dice.faces]
    return record.result


def test_each_die_at_or_above_the_difficulty_succeeds() -> None:
    assert roll(VtmPool(5, 6), "6 7 10 5 2") == VtmResult(successes=3, botch=False)
    assert roll(VtmPool(5, 8), "6 7 10 5 8") == VtmResult(successes=2, botch=False)


def test_each_one_cancels_one_success() -> None:
    assert roll(VtmPool(4, 6), "10 8 1 3") == VtmResult(successes=1, botch=False)
    assert roll(VtmPool(4, 6), "10 8 1 1") == VtmResult(successes=0, botch=False)


def test_more_ones_than_successes_is_a_failure_not_a_botch() -> None:
    result = roll(VtmPool(3, 6), "10 1 1")
    assert result == VtmResult(successes=0, botch=False)
    assert not result.success


def test_botch_is_no_success_and_at_least_one_one() -> None:
    result = roll(VtmPool(3, 6), "1 3 5")
    assert result.botch and result.successes == 0
    assert result.describe("fr") == "échec critique"
    assert result.describe("en") == "botch"


def test_no_success_and_no_one_is_a_plain_failure() -> None:
    result = roll(VtmPool(3, 6), "2 3 5")
    assert result == VtmResult(successes=0, botch=False)
    assert result.describe("fr") == "échec"
    assert result.describe("en") == "failure"


def test_willpower_success_cannot_be_cancelled_and_prevents_the_botch() -> None:
    # Without Willpower these faces botch.
    assert roll(VtmPool(3, 6), "1 1 2").botch
    assert roll(VtmPool(3, 6, auto=1), "1 1 2") == VtmResult(successes=1, botch=False)
    # One rolled success, two 1s: the rolled success is cancelled, the automatic one stays.
    assert roll(VtmPool(3, 6, auto=1), "8 1 1") == VtmResult(successes=1, botch=False)
    assert roll(VtmPool(3, 6, auto=2), "8 9 1") == VtmResult(successes=3, botch=False)


def test_automatic_successes_cannot_be_negative() -> None:
    with pytest.raises(ConteurError) as info:
        VtmPool(3, 6, auto=-1)
    assert info.value.key == "dice.bad_pool"
    assert "ne peut pas être négatif" in info.value.message("fr")
    assert "cannot be negative" in info.value.message("en")


def test_min_one_rolls_one_die_when_the_pool_is_empty() -> None:
    assert VtmPool(0, 6, min_one=True).rolled_dice == 1
    assert VtmPool(-3, 6, min_one=True).rolled_dice == 1
    assert roll(VtmPool(0, 6, min_one=True), "7") == VtmResult(successes=1, botch=False)
    # Without the option an empty pool rolls nothing and simply fails.
    dice = TypedDice("")
    record = dice.roll(VtmPool(0, 6))
    assert record.faces == () and record.result == VtmResult(0, False)


def test_difficulty_is_clamped_to_2_and_the_clamp_is_recorded() -> None:
    low = VtmPool(3, 1)
    assert low.effective_difficulty == 2 and low.clamped
    # A 2 succeeds at difficulty 2; a 1 never does, and cancels one.
    assert roll(low, "2 2 1") == VtmResult(successes=1, botch=False)
    record = TypedDice("2 2 1").roll(low)
    assert record.to_dict()["request"]["difficulty"] == 1
    assert record_from_dict(record.to_dict()).request.clamped


def test_difficulty_is_clamped_to_10_and_the_clamp_is_recorded() -> None:
    high = VtmPool(3, 12)
    assert high.effective_difficulty == 10 and high.clamped
    assert roll(high, "10 9 2") == VtmResult(successes=1, botch=False)
    assert "difficulté 10" in high.describe("fr")
    record = TypedDice("10 9 2").roll(high)
    assert record_from_dict(record.to_dict()).request.effective_difficulty == 10


def test_difficulty_inside_the_range_is_not_clamped() -> None:
    assert not VtmPool(3, 2).clamped and not VtmPool(3, 10).clamped
    assert VtmPool(3, 7).effective_difficulty == 7


def test_V_DMG_4_damage_roll_ones_do_not_cancel_and_never_botch() -> None:
    """V-DMG-4: a damage pool is at least one die, and damage rolls never botch."""
    damage = VtmPool(3, 6, ones_cancel=False, can_botch=False, min_one=True)
    assert roll(damage, "6 1 1") == VtmResult(successes=1, botch=False)
    assert roll(damage, "1 2 3") == VtmResult(successes=0, botch=False)
    assert VtmPool(-1, 6, ones_cancel=False, can_botch=False, min_one=True).rolled_dice == 1


def test_V_DMG_4_table_option_ones_cancel_on_damage() -> None:
    """V-DMG-4: whether 1s cancel on damage is a table option; with it, still no botch."""
    damage = VtmPool(3, 6, ones_cancel=True, can_botch=False, min_one=True)
    assert roll(damage, "6 1 1") == VtmResult(successes=0, botch=False)


def test_V_SOAK_3_soak_rolls_never_botch() -> None:
    """V-SOAK-3: each soak success removes one damage success; soak rolls never botch."""
    soak = VtmPool(2, 6, ones_cancel=False, can_botch=False)
    assert roll(soak, "1 1") == VtmResult(successes=0, botch=False)
    assert roll(soak, "7 1") == VtmResult(successes=1, botch=False)


def test_notes_show_which_one_cancels_which_success() -> None:
    notes = VtmPool(5, 6).notes([10, 1, 6, 5, 8])
    assert [n.role for n in notes] == ["success", "cancels", "cancelled", "failure", "success"]
    ones = VtmPool(3, 6).notes([1, 1, 7])
    assert [n.role for n in ones] == ["cancels", "one", "cancelled"]
    plain = VtmPool(2, 6, ones_cancel=False).notes([1, 7])
    assert [n.role for n in plain] == ["one", "success"]


def brute_force(pool: VtmPool) -> dict[VtmResult, float]:
    """Every face combination of the pool, read by ``VtmPool.read``."""
    n = pool.rolled_dice
    out: dict[VtmResult, float] = {}
    for faces in itertools.product(range(1, 11), repeat=n):
        result = pool.read(faces)
        out[result] = out.get(result, 0.0) + 0.1**n
    return out


@pytest.mark.parametrize(
    "pool",
    [
        VtmPool(1, 6),
        VtmPool(3, 6),
        VtmPool(3, 9),
        VtmPool(3, 2),
        VtmPool(4, 7),
        VtmPool(3, 6, ones_cancel=False),
        VtmPool(3, 6, can_botch=False),
        VtmPool(3, 6, auto=1),
        VtmPool(0, 6, min_one=True, ones_cancel=False, can_botch=False),
        VtmPool(0, 6),
    ],
    ids=repr,
)
def test_exact_outcomes_match_brute_force(pool: VtmPool) -> None:
    exact = dict(pool.outcomes())
    expected = brute_force(pool)
    assert sum(exact.values()) == pytest.approx(1.0, abs=1e-12)
    assert set(exact) == {r for r, p in expected.items() if p > 0}
    for result, p in expected.items():
        assert exact[result] == pytest.approx(p, abs=1e-12), result
