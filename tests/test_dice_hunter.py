"""hunter (new WoD) pools: 8+, again-dice, rote, chance die, dramatic and exceptional results."""

from __future__ import annotations

import pytest

from conteur.dice import RollRecord, SeededDice, TypedDice
from conteur.i18n import ConteurError
from conteur.rulesets.hunter.dice import HunterPool, HunterResult


def roll(request: HunterPool, faces: str) -> RollRecord[HunterResult]:
    """Roll ``request`` with typed-in faces, checking every face was used."""
    dice = TypedDice(faces)
    record = dice.roll(request)
    dice.check_all_used()
    return record


def test_eight_or_more_succeeds() -> None:
    record = roll(HunterPool(4), "8 9 7 2")
    assert record.result == HunterResult(successes=2, dramatic_failure=False, chance=False)


def test_ten_again_rolls_each_ten_once_more() -> None:
    assert roll(HunterPool(2), "10 3 8").result.successes == 2
    # A reroll that shows 10 is rolled again too.
    record = roll(HunterPool(2), "10 3 10 2")
    assert record.result.successes == 2
    assert record.faces == (10, 3, 10, 2)


def test_nine_does_not_explode_with_ten_again() -> None:
    assert roll(HunterPool(2), "9 3").result.successes == 1


def test_nine_again() -> None:
    record = roll(HunterPool(2, again=9), "9 3 5")
    assert record.result.successes == 1
    assert roll(HunterPool(2, again=9), "9 10 9 8 4").result.successes == 4


def test_eight_again() -> None:
    assert roll(HunterPool(1, again=8), "8 8 1").result.successes == 2


def test_again_must_be_10_9_or_8() -> None:
    with pytest.raises(ConteurError) as info:
        HunterPool(3, again=7)
    assert "10, 9 ou 8" in info.value.message("fr")
    assert "10, 9 or 8" in info.value.message("en")


def test_rote_rerolls_each_failed_die_once() -> None:
    # Originals 8, 2, 1: the 2 and the 1 are rolled again (9 and 5) and replaced.
    record = roll(HunterPool(3, rote=True), "8 2 1 9 5")
    assert record.result == HunterResult(successes=2, dramatic_failure=False, chance=False)


def test_rote_reroll_that_fails_stays_failed() -> None:
    record = roll(HunterPool(2, rote=True), "3 4 5 1")
    assert record.result.successes == 0
    # The 1 of the rote reroll replaced an original die: dramatic failure.
    assert record.result.dramatic_failure


def test_typed_faces_follow_the_documented_order() -> None:
    """Originals, then rote rerolls in die order, then again-waves one after another."""
    request = HunterPool(3, rote=True)
    record = roll(request, "10 2 3 10 4 8 9")
    assert record.result.successes == 4
    notes = request.notes(record.faces)
    assert [n.stage for n in notes] == ["roll", "roll", "roll", "rote", "rote", "again", "again"]
    assert [n.role for n in notes] == [
        "success",
        "replaced",
        "replaced",
        "success",
        "failure",
        "success",
        "success",
    ]
    assert [n.explodes for n in notes] == [True, False, False, True, False, False, False]
    waves = roll(HunterPool(2), "10 10 10 2 3")
    assert waves.result.successes == 3
    assert [n.wave for n in HunterPool(2).notes(waves.faces)] == [0, 0, 1, 1, 2]


def test_H_CHANCE_1_pool_of_zero_rolls_one_chance_die() -> None:
    """H-CHANCE-1: a pool of 0 or less rolls one die; only a 10 succeeds (and rolls again)."""
    assert HunterPool(0).chance and HunterPool(-3).chance and not HunterPool(1).chance
    assert roll(HunterPool(0), "9").result == HunterResult(0, False, True)
    assert roll(HunterPool(-2), "8").result == HunterResult(0, False, True)
    record = roll(HunterPool(0), "10 8")
    assert record.result == HunterResult(successes=2, dramatic_failure=False, chance=True)
    assert roll(HunterPool(0), "10 3").result.successes == 1


def test_H_CHANCE_1_a_one_on_the_chance_die_is_a_dramatic_failure() -> None:
    """H-CHANCE-1: a 1 on the chance die is a dramatic failure."""
    assert roll(HunterPool(0), "1").result == HunterResult(0, True, True)
    assert roll(HunterPool(0), "1").result.describe("fr") == "échec dramatique"
    assert roll(HunterPool(0), "1").result.describe("en") == "dramatic failure"


def test_H_FAIL_1_no_success_and_a_one_is_a_dramatic_failure() -> None:
    """H-FAIL-1: no success and at least one 1 among the original dice."""
    assert roll(HunterPool(3), "1 3 5").result.dramatic_failure
    assert not roll(HunterPool(3), "2 3 5").result.dramatic_failure
    # A success saves the roll even with a 1.
    assert not roll(HunterPool(3), "1 8 5").result.dramatic_failure


def test_H_FAIL_1_a_one_in_an_again_reroll_is_not_dramatic() -> None:
    """H-FAIL-1 reading: the 1s of 10-again rerolls do not count."""
    request = HunterPool(2)
    record = roll(request, "10 3 1")
    assert record.result == HunterResult(successes=1, dramatic_failure=False, chance=False)
    assert request.notes(record.faces)[2].role == "failure"


def test_H_EXC_1_five_successes_is_exceptional() -> None:
    """H-EXC-1: five successes or more is an exceptional success."""
    five = roll(HunterPool(5), "8 8 8 9 9").result
    assert five.exceptional and five.successes == 5
    assert "exceptionnelle" in five.describe("fr")
    assert "exceptional" in five.describe("en")
    assert not roll(HunterPool(5), "8 8 8 9 2").result.exceptional
    # Successes from 10-again count.
    assert roll(HunterPool(3), "10 10 8 9 8").result.exceptional


def test_outcomes_of_small_pools() -> None:
    """Exact odds against hand-computed values."""
    chance = dict(HunterPool(0).outcomes())
    assert chance[HunterResult(0, True, True)] == pytest.approx(0.1)
    assert sum(p for r, p in chance.items() if r.successes > 0) == pytest.approx(0.1)
    two = dict(HunterPool(2).outcomes())
    # Dramatic: both dice fail (0.7²) minus both fail without a 1 (0.6²).
    assert two[HunterResult(0, True, False)] == pytest.approx(0.7**2 - 0.6**2)
    assert sum(two.values()) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(
    "request_",
    [HunterPool(3), HunterPool(2, again=8), HunterPool(3, rote=True), HunterPool(0)],
    ids=repr,
)
def test_seeded_rolls_agree_with_exact_outcomes(request_: HunterPool) -> None:
    """``roll()`` and ``outcomes()`` describe the same dice (8 000 seeded rolls)."""
    dice = SeededDice(2024)
    n = 8_000
    counts: dict[tuple[int, bool], int] = {}
    for _ in range(n):
        r = dice.roll(request_).result
        key = (min(r.successes, 4), r.dramatic_failure)
        counts[key] = counts.get(key, 0) + 1
    exact: dict[tuple[int, bool], float] = {}
    for r, p in request_.outcomes():
        key = (min(r.successes, 4), r.dramatic_failure)
        exact[key] = exact.get(key, 0.0) + p
    for key, p in exact.items():
        # Five standard deviations: a real disagreement is far larger.
        sigma = (p * (1 - p) / n) ** 0.5
        assert abs(counts.get(key, 0) / n - p) <= 5 * sigma + 1e-9, key
