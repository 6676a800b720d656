"""Plain dice expressions NdX±M, with the French D or d."""

from __future__ import annotations

import pytest

from conteur.dice import Expr, ExprResult, TypedDice
from conteur.i18n import ConteurError


@pytest.mark.parametrize(
    ("text", "count", "sides", "modifier"),
    [
        ("3D10", 3, 10, 0),
        ("3d10", 3, 10, 0),
        ("4D6-3", 4, 6, -3),
        ("2d6+1", 2, 6, 1),
        ("1D20", 1, 20, 0),
        ("D6", 1, 6, 0),
        ("d100", 1, 100, 0),
        (" 2 d 6 + 1 ", 2, 6, 1),
    ],
)
def test_parse(text: str, count: int, sides: int, modifier: int) -> None:
    assert Expr.parse(text) == Expr(count, sides, modifier)


def test_canonical_text() -> None:
    assert Expr.parse("4d6-3").text == "4D6-3"
    assert Expr.parse("2d6+1").text == "2D6+1"
    assert Expr.parse("d20").text == "1D20"


@pytest.mark.parametrize(
    "text",
    ["", "D", "3D", "3x6", "3D6+", "0D6", "3D0", "3D6+1+1", "-3D6", "3D1001", "abc", "3D6²"],
)
def test_bad_expressions_are_refused_in_both_languages(text: str) -> None:
    with pytest.raises(ConteurError) as info:
        Expr.parse(text)
    assert info.value.key == "dice.bad_expression"
    assert f"« {text} » n'est pas une expression de dés" in info.value.message("fr")
    assert f'"{text}" is not a dice expression' in info.value.message("en")


def test_too_many_dice_is_refused() -> None:
    with pytest.raises(ConteurError) as info:
        Expr.parse("201D6")
    assert info.value.key == "dice.bad_pool"
    assert "au plus 200" in info.value.message("fr")
    assert "at most 200" in info.value.message("en")


def test_roll_sums_the_faces_and_the_modifier() -> None:
    assert TypedDice("1 2 3 4").roll(Expr.parse("4D6-3")).result == ExprResult(7)
    assert TypedDice("6 6").roll(Expr.parse("2d6+1")).result == ExprResult(13)


def test_typed_zero_reads_ten_on_a_d10_but_not_on_a_d6() -> None:
    assert TypedDice("0 5 5").roll(Expr.parse("3D10")).result == ExprResult(20)
    with pytest.raises(ConteurError) as info:
        TypedDice("0 5").roll(Expr.parse("2D6"))
    assert info.value.key == "dice.bad_face"


def test_exact_outcomes() -> None:
    outcomes = dict(Expr.parse("2D6+1").outcomes())
    assert min(r.total for r in outcomes) == 3 and max(r.total for r in outcomes) == 13
    assert outcomes[ExprResult(8)] == pytest.approx(6 / 36)
    assert sum(outcomes.values()) == pytest.approx(1.0)
