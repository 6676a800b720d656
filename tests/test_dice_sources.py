"""Dice sources: typed-in faces (validation, nothing consumed on error), seeds, records."""

from __future__ import annotations

import itertools
import json
import random
from typing import Any

import pytest

from conteur.dice import (
    DiceSource,
    Expr,
    RollRecord,
    SeededDice,
    TypedDice,
    distribution_of,
    enumerate_outcomes,
    parse_faces,
    record_from_dict,
)
from conteur.i18n import ConteurError
from conteur.rulesets.hunter.dice import HunterPool
from conteur.rulesets.vtm.dice import VtmPool
from conteur.rulesets.western.dice import Percentile

REQUESTS: list[Any] = [
    VtmPool(7, 6),
    VtmPool(3, 12, auto=1),
    VtmPool(0, 6, ones_cancel=False, can_botch=False, min_one=True),
    HunterPool(6),
    HunterPool(0),
    HunterPool(4, again=8, rote=True),
    Percentile(56),
    Expr.parse("4D6-3"),
    Expr.parse("1D20"),
]


# ------------------------------------------------------------------ typed dice


def test_typed_faces_are_consumed_in_roll_order() -> None:
    dice = TypedDice("10,1,6 5;4")
    first = dice.roll(VtmPool(3, 6))
    second = dice.roll(VtmPool(2, 6))
    assert first.faces == (10, 1, 6) and second.faces == (5, 4)
    assert dice.remaining == ()
    dice.check_all_used()


def test_too_few_faces_names_the_missing_count_and_consumes_nothing() -> None:
    dice = TypedDice("10 8 4 2")
    dice.roll(VtmPool(1, 6))
    with pytest.raises(ConteurError) as info:
        dice.roll(VtmPool(5, 6))
    error = info.value
    assert error.key == "dice.too_few"
    assert (error.params["needed"], error.params["left"], error.params["missing"]) == (5, 3, 2)
    assert "il en manque au moins 2" in error.message("fr")
    assert "5 dés à difficulté 6" in error.message("fr")
    assert "at least 2 missing" in error.message("en")
    assert dice.position == 1 and dice.remaining == (8, 4, 2)


def test_too_few_faces_counts_the_rerolls_already_forced() -> None:
    # The 10 must be rolled again: two originals plus one again-die at least.
    with pytest.raises(ConteurError) as info:
        TypedDice("10 8").roll(HunterPool(2))
    assert info.value.params["needed"] == 3 and info.value.params["missing"] == 1
    # Rote with 8-again: each missing die needs a reroll or an again-die.
    with pytest.raises(ConteurError) as info:
        TypedDice("3").roll(HunterPool(2, again=8, rote=True))
    assert info.value.params["needed"] == 4


def test_a_face_outside_the_die_is_refused_and_nothing_is_consumed() -> None:
    dice = TypedDice("7 11 3")
    with pytest.raises(ConteurError) as info:
        dice.roll(VtmPool(3, 6))
    error = info.value
    assert error.key == "dice.bad_face"
    assert error.message("fr") == "le dé n° 2 vaut 11, impossible sur un d10 (faces 1 à 10)"
    assert error.message("en") == "die #2 reads 11, impossible on a d10 (faces 1 to 10)"
    assert dice.position == 0


@pytest.mark.parametrize("face", ["-1", "101"])
def test_a_face_outside_the_d100_is_refused(face: str) -> None:
    dice = TypedDice(face)
    with pytest.raises(ConteurError) as info:
        dice.roll(Percentile(50))
    assert info.value.key == "dice.bad_face" and "d100" in info.value.message("en")
    assert dice.position == 0


@pytest.mark.parametrize(
    ("text", "token", "position"),
    [("10 x 3", "x", 2), ("4.5", "4.5", 1), ("6,²", "²", 2), ("1 2 dix", "dix", 3)],
)
def test_text_that_is_not_a_number_is_refused(text: str, token: str, position: int) -> None:
    with pytest.raises(ConteurError) as info:
        TypedDice(text)
    error = info.value
    assert error.key == "dice.not_a_number"
    assert error.message("fr") == f"« {token} » n'est pas un nombre (dé n° {position} de la saisie)"
    assert error.message("en") == f'"{token}" is not a number (die #{position} of the input)'


def test_parse_faces_accepts_ints_and_strings() -> None:
    assert parse_faces("10, 1;6  0") == [10, 1, 6, 0]
    assert parse_faces([10, "1", " 6 "]) == [10, 1, 6]
    with pytest.raises(ConteurError):
        parse_faces([True])


def test_zero_reads_ten_on_a_d10() -> None:
    record = TypedDice("0 0 1").roll(VtmPool(3, 6))
    assert record.faces == (10, 10, 1)
    assert record.result.successes == 1


def test_zero_on_a_chance_die_is_a_ten_and_rolls_again() -> None:
    with pytest.raises(ConteurError) as info:
        TypedDice("0").roll(HunterPool(0))
    assert info.value.key == "dice.too_few"
    assert TypedDice("0 3").roll(HunterPool(0)).result.successes == 1


def test_left_over_faces_are_reported() -> None:
    dice = TypedDice("8 9 1 4")
    dice.roll(VtmPool(2, 6))
    with pytest.raises(ConteurError) as info:
        dice.check_all_used()
    assert info.value.key == "dice.left_over"
    assert info.value.message("fr") == "2 dés saisis en trop, que le jet n'utilise pas : 1 4"
    assert info.value.message("en") == "2 typed-in dice left over, not used by the roll: 1 4"


def test_mark_and_reset_undo_a_command_half_way() -> None:
    dice = TypedDice("8 9 1 4")
    mark = dice.mark()
    dice.roll(VtmPool(3, 6))
    dice.reset(mark)
    assert dice.roll(VtmPool(4, 6)).faces == (8, 9, 1, 4)


# ----------------------------------------------------------------------- seeds


def faces_of(dice: DiceSource) -> list[tuple[int, ...]]:
    return [dice.roll(request).faces for request in REQUESTS]


def test_seeded_rolls_are_reproducible() -> None:
    assert faces_of(SeededDice(42)) == faces_of(SeededDice(42))
    assert faces_of(SeededDice(42)) != faces_of(SeededDice(43))


def test_seeded_mark_and_reset_replay_the_same_faces() -> None:
    dice = SeededDice(7)
    mark = dice.mark()
    first = dice.roll(VtmPool(10, 6))
    dice.reset(mark)
    assert dice.roll(VtmPool(10, 6)) == first


@pytest.mark.parametrize("seed", range(8))
def test_seeded_faces_are_python_randoms_whatever_the_marks_and_resets(seed: int) -> None:
    """The faces are ``int(random() * sides) + 1`` of ``random.Random(seed)``, one after
    the other, however marks and resets move about the stream (across its blocks too),
    and whether a roll's dice are drawn at once or one by one."""
    stream = random.Random(seed)
    expected = [stream.random() for _ in range(3 * SeededDice.BLOCK)]
    dice = SeededDice(seed)
    moves = random.Random(seed + 100)
    marks = [(0, dice.mark())]
    used = 0
    for _ in range(600):
        move = moves.random()
        if move < 0.08:
            used, mark = moves.choice(marks)
            dice.reset(mark)
            assert dice.mark() == mark
        elif move < 0.2:
            marks.append((used, dice.mark()))
        else:
            sides = moves.choice((6, 10, 100))
            for _ in range(min(moves.randint(1, 30), (len(expected) - used) // 12)):
                count = moves.randint(1, 12)  # several dice at once, across blocks too
                want = tuple(int(x * sides) + 1 for x in expected[used : used + count])
                assert dice.roll(Expr(count, sides)).faces == want
                used += count


def test_seeded_faces_stay_on_the_die() -> None:
    dice = SeededDice(1)
    for _ in range(200):
        assert all(1 <= f <= 10 for f in dice.roll(VtmPool(10, 6)).faces)
        assert 1 <= dice.roll(Percentile(50)).faces[0] <= 100


# --------------------------------------------------------------------- records


@pytest.mark.parametrize("request_", REQUESTS, ids=repr)
def test_record_round_trip_through_json(request_: Any) -> None:
    record = SeededDice(5).roll(request_)
    data = json.loads(json.dumps(record.to_dict()))
    assert data["kind"] == request_.kind
    assert set(data) == {"kind", "request", "faces", "result"}
    again = record_from_dict(data)
    assert again == record
    assert again.request.notes(again.faces) == request_.notes(record.faces)


# -------------------------------------------------------------- distributions


def attack(dice: DiceSource) -> int:
    """A toy rule: a vtm attack, then damage equal to 1 + the extra successes."""
    hit = dice.roll(VtmPool(2, 6)).result
    if hit.successes == 0:
        return 0
    return dice.roll(VtmPool(hit.successes, 6, ones_cancel=False, can_botch=False)).result.successes


def test_enumerate_outcomes_runs_rule_code_over_every_outcome() -> None:
    outcomes = enumerate_outcomes(attack)
    assert sum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)
    dist = distribution_of(attack)
    # Brute force over the faces of both rolls.
    expected: dict[int, float] = {}
    for a in range(1, 11):
        for b in range(1, 11):
            hits = VtmPool(2, 6).read((a, b)).successes
            if hits == 0:
                expected[0] = expected.get(0, 0.0) + 0.01
                continue
            for faces in _product(hits):
                dmg = sum(1 for f in faces if f >= 6)
                expected[dmg] = expected.get(dmg, 0.0) + 0.01 * 0.1**hits
    assert dist.keys() == expected.keys()
    for k, p in expected.items():
        assert dist[k] == pytest.approx(p, abs=1e-12)


def _product(n: int) -> list[tuple[int, ...]]:
    return list(itertools.product(range(1, 11), repeat=n))


def test_forced_records_have_no_faces() -> None:
    records: list[RollRecord[Any]] = []

    def run(dice: DiceSource) -> None:
        records.append(dice.roll(Percentile(50)))

    enumerate_outcomes(run)
    assert all(r.faces == () for r in records)


def test_a_lazy_ask_is_built_only_by_dice_that_read_it() -> None:
    from conteur.dice.asks import RollAsk
    from conteur.dice.table import TableDice
    from conteur.i18n import Msg

    built: list[RollAsk] = []

    def ask() -> RollAsk:
        made = RollAsk(who="a", what=Msg("ask.what.attack", name="Ana"), dice=1)
        built.append(made)
        return made

    seeded = SeededDice(3).roll(Expr(1, 10), ask)
    typed = TypedDice("4").roll(Expr(1, 10), ask)
    assert built == [] and typed.faces == (4,) and len(seeded.faces) == 1
    table = TableDice([[7]])
    record = table.roll(Expr(1, 10), ask)
    assert record.faces == (7,)
    assert len(built) == 1 and table.asked == [(record, built[0])]
