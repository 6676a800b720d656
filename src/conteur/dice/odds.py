"""Exact odds of one roll, read from the same ``outcomes()`` the rules engine uses.

``RollOdds`` is the answer for a pool with a special failure (each ruleset names its
own: a botch, a dramatic failure...) and a number of successes otherwise; the
rulesets build it from their requests (``conteur.rulesets.*.dice``). The checks
here are shared by their ``conteur odds <ruleset>`` answers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from conteur.i18n import ConteurError, Msg

from .distribution import Dist
from .rolls import MAX_POOL

CHART_POOL = 30
"""The largest pool of the charts unless asked otherwise."""


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

    @classmethod
    def of(cls, special: str, outcomes: Iterable[tuple[bool, int, float]]) -> RollOdds:
        """Summed from ``(special failure?, successes, p)`` triples (one per outcome)."""
        p_special = 0.0
        counts: dict[int, float] = {}
        for is_special, successes, p in outcomes:
            if is_special:
                p_special += p
            else:
                counts[successes] = counts.get(successes, 0.0) + p
        return cls(special, p_special, _dense(counts))

    def outcomes(self) -> dict[str, float]:
        """``{special: p, "0": p, "1": p, ...}``: every key from 0 to the largest count."""
        out = {self.special: self.p_special}
        out.update({str(k): p for k, p in enumerate(self.successes)})
        return out

    def total(self) -> float:
        """The total mass (1 within rounding; an infinite tail may be cut far below 1e-15)."""
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


def check_pool(value: int, allow_negative: bool) -> None:
    """Raise ``ConteurError('dice.bad_pool')`` for an oversized (or, unless allowed,
    negative) pool."""
    reason: Msg | None = None
    if value < 0 and not allow_negative:
        reason = Msg("dice.reason.negative")
    elif value > MAX_POOL:
        reason = Msg("dice.reason.too_large", limit=MAX_POOL)
    if reason is not None:
        raise ConteurError("dice.bad_pool", field="pool", value=value, reason=reason)


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


class Chart(Protocol):
    """A ruleset's chart of odds for every pool up to some size (``conteur odds ... --table``)."""

    def to_dict(self) -> dict[str, Any]: ...


def pool_odds_answer(
    pool: int | None,
    odds: Callable[[int], RollOdds],
    chart: Callable[[int], Chart] | None,
    max_pool: int,
    smallest: int,
) -> dict[str, Any]:
    """The JSON answer of ``conteur odds <ruleset> ... --json`` for a pool of dice: with a
    ``chart``, its ``to_dict()`` for pools up to ``max_pool`` (``smallest`` at the least);
    else ``{"outcomes": ...}`` of ``odds(pool)``. ``ConteurError`` for a bad ``max_pool``,
    or when there is neither chart nor pool (``odds.need_pool``)."""
    if chart is not None:
        check_max_pool(max_pool, minimum=smallest)
        return chart(max_pool).to_dict()
    if pool is None:
        raise ConteurError("odds.need_pool")
    return {"outcomes": odds(pool).outcomes()}


def _dense(counts: dict[int, float]) -> tuple[float, ...]:
    """``counts`` as a tuple indexed 0..max (missing counts are 0)."""
    top = max(counts, default=0)
    return tuple(counts.get(k, 0.0) for k in range(top + 1))


__all__ = [
    "CHART_POOL",
    "Chart",
    "RollOdds",
    "check_max_pool",
    "check_pool",
    "pool_odds_answer",
]
