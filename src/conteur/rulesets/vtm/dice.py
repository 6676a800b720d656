"""The vtm pool: d10s against a difficulty, 1s cancelling successes; its exact odds.

``VtmPool`` is the request (core dice rules, V-DMG-4), ``VtmResult`` what the rules
read; a stored record names the kind ``"vtm"``. ``vtm_odds`` gives the exact odds of
one pool and ``odds_answer`` the JSON answer of ``conteur odds vtm ... --json`` (the
Typer command and the console script both print it, ``conteur.cli.odds_line``).

This module is light (no pydantic, no Typer): the console script imports it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from conteur.dice.kinds import RollKind, register_roll_kind
from conteur.dice.odds import CHART_POOL, RollOdds, check_pool, pool_odds_answer
from conteur.dice.plain import array_sum, binomial, times_step
from conteur.dice.rolls import DieNote, DieRole, Draw, RollRecord, check_count, successes_text
from conteur.i18n import ConteurError, Lang, Msg, t
from conteur.records import lean

if TYPE_CHECKING:
    from .charts import VtmChart

BOTCH = "botch"
"""The special failure of a vtm pool (``RollOdds.special``)."""


@lean
@dataclass(frozen=True)
class VtmResult:
    """Net successes (automatic ones included) and whether the roll botched."""

    successes: int
    botch: bool

    @property
    def success(self) -> bool:
        return self.successes > 0

    @property
    def score(self) -> float:
        """How good the roll is for its roller (``engine.report``): its net successes, a
        botch below none."""
        return -1.0 if self.botch else float(self.successes)

    def describe(self, lang: Lang | None = None) -> str:
        if self.botch:
            return t("result.botch", lang)
        return successes_text(self.successes, lang)


@lean
@dataclass(frozen=True)
class VtmPool:
    """A d10 pool against a difficulty (``vtm``; core dice rules, V-DMG-4).

    Each die >= difficulty succeeds; with ``ones_cancel`` each 1 cancels one
    success; a *botch* (when ``can_botch``) is no die >= difficulty and at
    least one 1. ``auto`` successes (Willpower, Potence) are added after the
    1s and cannot be cancelled. ``min_one`` rolls one die when the pool is
    smaller (damage pools, V-DMG-4). The difficulty asked is clamped to 2..10.
    """

    kind: ClassVar[str] = "vtm"

    dice: int
    difficulty: int = 6
    ones_cancel: bool = True
    can_botch: bool = True
    auto: int = 0
    min_one: bool = False

    def __post_init__(self) -> None:
        check_count("dice", self.dice)
        if self.auto < 0:
            raise ConteurError(
                "dice.bad_pool", field="auto", value=self.auto, reason=Msg("dice.reason.negative")
            )

    @property
    def effective_difficulty(self) -> int:
        """The difficulty actually rolled against (2..10)."""
        return min(10, max(2, self.difficulty))

    @property
    def clamped(self) -> bool:
        """True when the difficulty asked was outside 2..10."""
        return self.effective_difficulty != self.difficulty

    @property
    def rolled_dice(self) -> int:
        """How many dice are thrown (never negative; at least one with ``min_one``)."""
        return max(1 if self.min_one else 0, self.dice)

    def read(self, faces: Sequence[int]) -> VtmResult:
        """The result of these faces (one per rolled die)."""
        diff = self.effective_difficulty
        hits = len([f for f in faces if f >= diff])
        ones = faces.count(1)
        net = max(0, hits - ones) if self.ones_cancel else hits
        botch = self.can_botch and hits == 0 and ones > 0 and self.auto == 0
        return VtmResult(successes=net + self.auto, botch=botch)

    def roll(self, draw: Draw) -> RollRecord[VtmResult]:
        return self.record(tuple([draw(10) for _ in range(self.rolled_dice)]))

    def dice_needed(self) -> tuple[int, int]:
        """(sides, count): the dice this roll takes, known before it is rolled (see
        ``SeededDice.roll``)."""
        return 10, self.rolled_dice

    def record(self, faces: tuple[int, ...]) -> RollRecord[VtmResult]:
        """The record of this roll with these faces (as many as ``dice_needed`` says)."""
        return RollRecord(self, faces, self.read(faces))

    def notes(self, faces: Sequence[int]) -> tuple[DieNote, ...]:
        """What each face did: successes, the 1s that cancel, the successes they cancel.

        A 1 cancels the lowest success left (the choice does not change the
        result; showing "the 1 cancels the 6" reads naturally at the table).
        """
        diff = self.effective_difficulty
        roles: list[DieRole] = [
            "success" if f >= diff else "one" if f == 1 else "failure" for f in faces
        ]
        if self.ones_cancel:
            hits = sorted((i for i, f in enumerate(faces) if f >= diff), key=faces.__getitem__)
            ones = [i for i, f in enumerate(faces) if f == 1]
            for one, hit in zip(ones, hits, strict=False):
                roles[one] = "cancels"
                roles[hit] = "cancelled"
        return tuple(DieNote(f, role) for f, role in zip(faces, roles, strict=True))

    def outcomes(self) -> Sequence[tuple[VtmResult, float]]:
        # ``rolled_dice`` and ``effective_difficulty`` inline: the exact odds ask for the
        # outcomes of many pools per answer.
        n, diff = self.dice, self.difficulty
        if n < 1:
            n = 1 if self.min_one else 0
        diff = 10 if diff > 10 else 2 if diff < 2 else diff
        return _vtm_outcomes(n, diff, self.ones_cancel, self.can_botch, self.auto)

    @cached_property
    def success_rows(self) -> tuple[tuple[int, float], ...]:
        """``outcomes()`` as (successes, probability) rows, in their order (botch or not
        alike): what a stage reading the pool against many inputs iterates (the exact odds);
        read once per pool object."""
        return tuple([(r.successes, q) for r, q in self.outcomes()])

    def describe(self, lang: Lang | None = None) -> str:
        return t("roll.vtm", lang, dice=self.rolled_dice, difficulty=self.effective_difficulty)


register_roll_kind(VtmPool, VtmResult)


@lru_cache(maxsize=4096)
def _vtm_outcomes(
    n: int, difficulty: int, ones_cancel: bool, can_botch: bool, auto: int
) -> tuple[tuple[VtmResult, float], ...]:
    net, botch = vtm_net(n, difficulty, ones_cancel, can_botch and auto == 0)
    out: list[tuple[VtmResult, float]] = []
    if botch > 0:
        out.append((VtmResult(auto, True), botch))
    for k, p in enumerate(net):
        if p > 0:
            out.append((VtmResult(k + auto, False), float(p)))
    return tuple(out)


# ------------------------------------------------------------------ exact arrays


def vtm_net(
    n: int, difficulty: int, ones_cancel: bool, can_botch: bool
) -> tuple[tuple[float, ...], float]:
    """Distribution of net successes of ``n`` d10 (index k = k net successes) and P(botch).

    ``net[0]`` holds every failure that is not a botch. Plain floats (``conteur.dice.plain``):
    the odds of a roll load no numpy.
    """
    if n <= 0:
        return (1.0,), 0.0
    ps = (11 - difficulty) / 10.0
    p1 = 0.1
    po = 1.0 - ps - p1
    botch = ((1.0 - ps) ** n - po**n) if can_botch else 0.0
    # With 1s cancelling, the polynomial in z (p1 z^-1 + po + ps z)^n, index i is S = i - n.
    hits = _vtm_step_power(n, difficulty)[n + 1 :] if ones_cancel else binomial(n, ps)[1:]
    return (max(0.0, 1.0 - botch - array_sum(hits)), *hits), float(botch)


@lru_cache(maxsize=4096)
def _vtm_step_power(n: int, difficulty: int) -> tuple[float, ...]:
    """(p1 z^-1 + po + ps z)^n, built on the cached power n - 1."""
    if n == 0:
        return (1.0,)
    ps = (11 - difficulty) / 10.0
    return times_step(_vtm_step_power(n - 1, difficulty), (0.1, 1.0 - ps - 0.1, ps))


# ------------------------------------------------------------------ odds


def vtm_odds(
    pool: int,
    difficulty: int = 6,
    *,
    ones_cancel: bool = True,
    can_botch: bool = True,
    auto: int = 0,
    min_one: bool = False,
) -> RollOdds:
    """Exact odds of a ``VtmPool`` (difficulty clamped to 2..10 as the roll does).

    ``ones_cancel=False, can_botch=False`` is a damage or soak roll (V-DMG-4,
    V-SOAK-3); ``auto`` adds uncancellable successes (Willpower) and rules out
    the botch; ``min_one`` rolls one die when the pool is smaller (V-DMG-4).
    Raises ``ConteurError('dice.bad_pool')`` for a negative or oversized pool.
    """
    check_pool(pool, allow_negative=False)
    request = VtmPool(pool, difficulty, ones_cancel, can_botch, auto, min_one)
    return RollOdds.of(BOTCH, ((r.botch, r.successes, p) for r, p in request.outcomes()))


def odds_answer(
    *,
    pool: int | None = None,
    difficulty: int = 6,
    no_cancel: bool = False,
    willpower: bool = False,
    table: bool = False,
    max_pool: int = CHART_POOL,
) -> dict[str, Any]:
    """The JSON answer of ``conteur odds vtm ... --json``.

    With a ``pool``: ``{"outcomes": {"botch": p, "0": p, "1": p, ...}}``; with ``table``:
    the chart's ``to_dict()``. Raises ``ConteurError`` for a bad pool or ``max_pool``,
    or when neither ``pool`` nor ``table`` is given (``odds.need_pool``).
    """
    return pool_odds_answer(
        pool,
        lambda n: asked_odds(n, difficulty, no_cancel, willpower),
        _chart if table else None,
        max_pool,
        smallest=1,
    )


def _chart(max_pool: int) -> VtmChart:
    """The chart of ``conteur odds vtm --table`` (its numpy steps imported when asked for)."""
    from .charts import vtm_chart

    return vtm_chart(max_pool)


def asked_odds(pool: int, difficulty: int, no_cancel: bool, willpower: bool) -> RollOdds:
    """The odds ``conteur odds vtm`` asks for: ``no_cancel`` turns off the 1s' cancelling
    and the botch, ``willpower`` adds its success."""
    return vtm_odds(
        pool,
        difficulty,
        ones_cancel=not no_cancel,
        can_botch=not no_cancel,
        auto=1 if willpower else 0,
    )


ROLL_KINDS = (RollKind(VtmPool, VtmResult),)
"""The rolls of this ruleset (``Ruleset.roll_kinds``), read back from the stored log."""


__all__ = [
    "BOTCH",
    "ROLL_KINDS",
    "VtmPool",
    "VtmResult",
    "odds_answer",
    "vtm_net",
    "vtm_odds",
]
