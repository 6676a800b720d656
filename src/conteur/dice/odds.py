"""Exact odds of one roll, read from the same ``outcomes()`` the rules engine uses.

``vtm_odds`` and ``hunter_odds`` give a ``RollOdds``: the probability of the
special failure (botch, dramatic failure) and of each number of successes
otherwise. ``western_odds`` gives the success and critical chances of a d100
roll (W-CRIT-1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from conteur.i18n import ConteurError, Msg

from .distribution import Dist
from .rolls import MAX_POOL, HunterPool, Percentile, VtmPool

BOTCH = "botch"
DRAMATIC_FAILURE = "dramatic_failure"

CHART_POOL = 30
"""The largest pool of the charts unless asked otherwise."""

Game = Literal["vtm", "hunter", "western"]


@dataclass(frozen=True, slots=True)
class RollOdds:
    """Exact odds of a pool roll.

    ``special`` names the special failure (``"botch"`` or ``"dramatic_failure"``)
    and ``p_special`` is its probability; ``successes[k]`` is the probability
    of exactly ``k`` successes *without* the special failure (``successes[0]``
    holds every plain failure).
    """

    special: str
    p_special: float
    successes: tuple[float, ...]

    def outcomes(self) -> dict[str, float]:
        """``{special: p, "0": p, "1": p, ...}``: every key from 0 to the largest count."""
        out = {self.special: self.p_special}
        out.update({str(k): p for k, p in enumerate(self.successes)})
        return out

    def total(self) -> float:
        """The total mass (1 within rounding; a new-WoD tail below 1e-15 is cut)."""
        return self.p_special + sum(self.successes)

    def at_least(self, k: int) -> float:
        """P(at least ``k`` successes); for ``k <= 0`` this includes the special failure."""
        if k <= 0:
            return self.total()
        return sum(self.successes[k:])

    @property
    def p_success(self) -> float:
        """P(at least one success)."""
        return self.at_least(1)

    def dist(self) -> Dist:
        """The number of successes as a ``Dist`` (the special failure counts as 0)."""
        mass = list(self.successes)
        mass[0] += self.p_special
        return Dist.from_array(mass)


@dataclass(frozen=True, slots=True)
class WesternOdds:
    """Chances of a 1D100 roll under a percentage: success and critical (W-CRIT-1)."""

    skill: int
    p_success: float
    p_critical: float

    def to_dict(self) -> dict[str, float]:
        return {"p_success": self.p_success, "p_critical": self.p_critical}


def _check_pool(value: int, allow_negative: bool) -> None:
    reason: Msg | None = None
    if value < 0 and not allow_negative:
        reason = Msg("dice.reason.negative")
    elif value > MAX_POOL:
        reason = Msg("dice.reason.too_large", limit=MAX_POOL)
    if reason is not None:
        raise ConteurError("dice.bad_pool", field="pool", value=value, reason=reason)


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
    _check_pool(pool, allow_negative=False)
    request = VtmPool(pool, difficulty, ones_cancel, can_botch, auto, min_one)
    p_botch = 0.0
    counts: dict[int, float] = {}
    for result, p in request.outcomes():
        if result.botch:
            p_botch += p
        else:
            counts[result.successes] = counts.get(result.successes, 0.0) + p
    return RollOdds(BOTCH, p_botch, _dense(counts))


def hunter_odds(pool: int, again: int = 10, *, rote: bool = False) -> RollOdds:
    """Exact odds of a ``HunterPool``; a pool of 0 or less is the chance die (H-CHANCE-1).

    The dramatic failure follows H-FAIL-1. The infinite again-tail is cut
    where the mass left is below 1e-15. Raises ``ConteurError('dice.bad_pool')``
    for an ``again`` other than 10, 9, 8 or an oversized pool.
    """
    _check_pool(pool, allow_negative=True)
    request = HunterPool(pool, again, rote)
    p_dramatic = 0.0
    counts: dict[int, float] = {}
    for result, p in request.outcomes():
        if result.dramatic_failure:
            p_dramatic += p
        else:
            counts[result.successes] = counts.get(result.successes, 0.0) + p
    return RollOdds(DRAMATIC_FAILURE, p_dramatic, _dense(counts))


def western_odds(skill: int) -> WesternOdds:
    """Success (1D100 <= skill) and critical (roll x 10 < skill, W-CRIT-1) chances."""
    faces = Percentile(skill).outcomes()
    successes = sum(1 for result, _ in faces if result.success)
    criticals = sum(1 for result, _ in faces if result.critical)
    return WesternOdds(skill, successes / len(faces), criticals / len(faces))


def check_again(again: int) -> None:
    """Raise ``ConteurError('dice.bad_pool')`` unless ``again`` is 10, 9 or 8."""
    if again not in (8, 9, 10):
        raise ConteurError(
            "dice.bad_pool", field="again", value=again, reason=Msg("dice.reason.again")
        )


def check_max_pool(value: int, minimum: int) -> None:
    """Raise ``ConteurError('dice.bad_pool')`` unless ``minimum <= value <= MAX_POOL``."""
    reason: Msg | None = None
    if value < 0:
        reason = Msg("dice.reason.negative")
    elif value < minimum:
        reason = Msg("dice.reason.too_small", minimum=minimum)
    elif value > MAX_POOL:
        reason = Msg("dice.reason.too_large", limit=MAX_POOL)
    if reason is not None:
        raise ConteurError("dice.bad_pool", field="max-pool", value=value, reason=reason)


def odds_answer(
    game: Game,
    *,
    pool: int | None = None,
    difficulty: int = 6,
    no_cancel: bool = False,
    willpower: bool = False,
    again: int = 10,
    rote: bool = False,
    skill: int = 0,
    table: bool = False,
    max_pool: int = CHART_POOL,
) -> dict[str, Any]:
    """The JSON answer of ``conteur odds <game> ... --json`` (shared by every entry point).

    * ``vtm``/``hunter`` with a ``pool``: ``{"outcomes": {special: p, "0": p, "1": p, ...}}``;
    * ``vtm``/``hunter`` with ``table``: the chart's ``to_dict()``;
    * ``western``: ``{"p_success": p, "p_critical": p}``.

    Raises ``ConteurError`` for a bad pool, ``again`` or ``max_pool``, or when
    neither ``pool`` nor ``table`` is given (``odds.need_pool``).
    """
    if game == "western":
        return western_odds(skill).to_dict()
    if game == "hunter":
        check_again(again)
    if table:
        from .charts import hunter_chart, vtm_chart

        if game == "vtm":
            check_max_pool(max_pool, minimum=1)
            return vtm_chart(max_pool).to_dict()
        check_max_pool(max_pool, minimum=0)
        return hunter_chart(max_pool, rote=rote).to_dict()
    if pool is None:
        raise ConteurError("odds.need_pool")
    if game == "vtm":
        odds = vtm_odds(
            pool,
            difficulty,
            ones_cancel=not no_cancel,
            can_botch=not no_cancel,
            auto=1 if willpower else 0,
        )
    else:
        odds = hunter_odds(pool, again, rote=rote)
    return {"outcomes": odds.outcomes()}


def _dense(counts: dict[int, float]) -> tuple[float, ...]:
    """``counts`` as a tuple indexed 0..max (missing counts are 0)."""
    top = max(counts, default=0)
    return tuple(counts.get(k, 0.0) for k in range(top + 1))
