"""The western roll: 1D100 at or under a percentage, critical under a tenth of it (W-CRIT-1).

``Percentile`` is the request, ``PercentileResult`` what the rules read; a stored
record names the kind ``"percentile"``. ``western_odds`` gives its chances and
``odds_answer`` the JSON answer of ``conteur odds western ... --json`` (the Typer
command and the console script both print it, ``conteur.cli.odds_line``).

This module is light (no pydantic, no Typer): the console script imports it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from conteur.dice.asks import RollAsk
from conteur.dice.kinds import RollKind, register_roll_kind
from conteur.dice.rolls import DieNote, Draw, Expr, RollRecord
from conteur.i18n import Lang, Msg, t
from conteur.records import lean


@lean
@dataclass(frozen=True)
class PercentileResult:
    """A d100 roll against a percentage: success, critical and margin (skill − roll)."""

    roll: int
    success: bool
    critical: bool
    margin: int

    @property
    def score(self) -> float:
        """How good the roll is for its roller (``engine.report``): its margin under the
        skill (the lower the d100, the better)."""
        return float(self.margin)

    def describe(self, lang: Lang | None = None, skill: int | None = None) -> str:
        s = self.roll + self.margin if skill is None else skill
        if self.critical:
            key = "result.percentile.critical"
        elif self.success:
            key = "result.percentile.success"
        else:
            return t("result.percentile.failure", lang, roll=self.roll, skill=s)
        return t(key, lang, roll=self.roll, skill=s, margin=self.margin)


@lean
@dataclass(frozen=True)
class Percentile:
    """1D100 at or under the adjusted skill succeeds; critical when roll × 10 < skill (W-CRIT-1)."""

    kind: ClassVar[str] = "percentile"

    skill: int

    def read(self, face: int) -> PercentileResult:
        success = face <= self.skill
        critical = face * 10 < self.skill
        return PercentileResult(face, success, critical, self.skill - face)

    def roll(self, draw: Draw) -> RollRecord[PercentileResult]:
        return self.record((draw(100),))

    def dice_needed(self) -> tuple[int, int]:
        """(sides, count): one d100, known before it is rolled (see ``SeededDice.roll``)."""
        return 100, 1

    def record(self, faces: tuple[int, ...]) -> RollRecord[PercentileResult]:
        """The record of this roll with this face."""
        return RollRecord(self, faces, self.read(faces[0]))

    def notes(self, faces: Sequence[int]) -> tuple[DieNote, ...]:
        """The one d100 face, a success when at or under the skill."""
        return tuple(DieNote(f, "success" if f <= self.skill else "failure") for f in faces)

    def outcomes(self) -> Sequence[tuple[PercentileResult, float]]:
        return _percentile_outcomes(self.skill)

    def describe(self, lang: Lang | None = None) -> str:
        return t("roll.percentile", lang, skill=self.skill)


register_roll_kind(Percentile, PercentileResult)


@lru_cache(maxsize=512)
def _percentile_outcomes(skill: int) -> tuple[tuple[PercentileResult, float], ...]:
    req = Percentile(skill)
    return tuple((req.read(face), 0.01) for face in range(1, 101))


# ------------------------------------------------------------------ odds


@lean
@dataclass(frozen=True)
class WesternOdds:
    """Chances of a 1D100 roll under a percentage: success and critical (W-CRIT-1)."""

    skill: int
    p_success: float
    p_critical: float

    def to_dict(self) -> dict[str, float]:
        return {"p_success": self.p_success, "p_critical": self.p_critical}


def western_odds(skill: int) -> WesternOdds:
    """Success (1D100 <= skill) and critical (roll x 10 < skill, W-CRIT-1) chances."""
    faces = Percentile(skill).outcomes()
    successes = sum(1 for result, _ in faces if result.success)
    criticals = sum(1 for result, _ in faces if result.critical)
    return WesternOdds(skill, successes / len(faces), criticals / len(faces))


def expr_ask(expr: Expr, who: str, what: Msg) -> RollAsk:
    """The ask of an ``NdX`` roll (a hit location, damage, a knock-out's hurt): whose, what
    for, the expression and its dice."""
    return RollAsk(
        who=who, what=what, detail=Msg("ask.detail.expr", expr=expr.text), dice=expr.count
    )


def odds_answer(*, skill: int) -> dict[str, Any]:
    """The JSON answer of ``conteur odds western --skill S --json``:
    ``{"p_success": p, "p_critical": p}``."""
    return western_odds(skill).to_dict()


ROLL_KINDS = (RollKind(Percentile, PercentileResult),)
"""The rolls of this ruleset (``Ruleset.roll_kinds``), read back from the stored log."""


__all__ = [
    "ROLL_KINDS",
    "Percentile",
    "PercentileResult",
    "WesternOdds",
    "expr_ask",
    "odds_answer",
    "western_odds",
]
