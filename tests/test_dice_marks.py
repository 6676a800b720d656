"""Dice die by die: ``marked_faces`` says what each face did, for any game, in plain words."""

from __future__ import annotations

from collections.abc import Iterator

from conteur.dice import Expr
from conteur.dice.marks import marked_faces
from conteur.dice.rolls import Draw
from conteur.rulesets.hunter.dice import HunterPool
from conteur.rulesets.vtm.dice import VtmPool
from conteur.rulesets.western.dice import Percentile


def faces(*values: int) -> Draw:
    it: Iterator[int] = iter(values)
    return lambda sides: next(it)


def test_vtm_a_one_cancels_the_lowest_success_and_says_which() -> None:
    # The core text's example: difficulty 6, 2 5 6 8 1 — the 1 cancels the 6: one success.
    record = VtmPool(5, 6).roll(faces(2, 5, 6, 8, 1))
    assert record.result.successes == 1
    assert marked_faces(record) == [
        (2, "failure"),
        (5, "failure"),
        (6, "cancelled cancelled-by-4"),
        (8, "success"),
        (1, "cancels cancels-2"),
    ]


def test_vtm_a_one_that_cancels_nothing_is_a_botch_one() -> None:
    record = VtmPool(3, 6).roll(faces(1, 3, 4))
    assert record.result.botch
    assert marked_faces(record) == [(1, "one"), (3, "failure"), (4, "failure")]


def test_hunter_a_ten_rolled_again_and_its_wave() -> None:
    record = HunterPool(3).roll(faces(10, 3, 8, 9))
    assert record.result.successes == 3
    assert marked_faces(record) == [
        (10, "success again"),
        (3, "failure"),
        (8, "success"),
        (9, "success wave-1"),
    ]


def test_hunter_rote_replaces_the_failed_dice() -> None:
    record = HunterPool(2, rote=True).roll(faces(3, 8, 9))
    assert marked_faces(record) == [(3, "replaced"), (8, "success"), (9, "success rote")]


def test_hunter_the_chance_die_its_ten_and_its_one() -> None:
    ten = HunterPool(0).roll(faces(10, 4))
    assert marked_faces(ten) == [(10, "success again chance"), (4, "failure wave-1")]
    one = HunterPool(0).roll(faces(1))
    assert one.result.dramatic_failure
    assert marked_faces(one) == [(1, "one chance dramatic")]
    eight = HunterPool(0).roll(faces(8))
    assert marked_faces(eight) == [(8, "failure chance")]


def test_western_a_critical_d100_and_plain_totals() -> None:
    # W-CRIT-1: a roll times ten under the skill is critical (05 at 56 %).
    assert marked_faces(Percentile(56).roll(faces(5))) == [(5, "success critical")]
    assert marked_faces(Percentile(56).roll(faces(30))) == [(30, "success")]
    assert marked_faces(Percentile(56).roll(faces(90))) == [(90, "failure")]
    assert marked_faces(Expr(2, 6).roll(faces(3, 4))) == [(3, "counted"), (4, "counted")]
