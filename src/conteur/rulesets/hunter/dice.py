"""The new-WoD pool of the hunter ruleset: 8+ succeeds, again-dice, rote, the chance die.

``HunterPool`` is the request, ``HunterResult`` what the rules read; a stored record
names the kind ``"hunter"``. ``hunter_odds`` gives the exact odds of one pool and
``odds_answer`` the JSON answer of ``conteur odds hunter ... --json`` (the Typer
command and the console script both print it, ``conteur.cli.odds_line``).

This module is light (no pydantic, no Typer): the console script imports it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any, ClassVar

import numpy as np

from conteur.dice.exact import FloatArray, trim
from conteur.dice.kinds import RollKind, register_roll_kind
from conteur.dice.odds import CHART_POOL, RollOdds, check_pool, pool_odds_answer
from conteur.dice.rolls import (
    DieNote,
    DieRole,
    DieStage,
    Draw,
    RollRecord,
    check_count,
    replay,
    successes_text,
)
from conteur.i18n import ConteurError, Lang, Msg, t
from conteur.records import lean

from .chain import CHAIN_TAIL, hunter_chain, hunter_chain_view
from .charts import hunter_chart

DRAMATIC_FAILURE = "dramatic_failure"
"""The special failure of a hunter pool (``RollOdds.special``)."""

TAIL = 1e-15
"""Probability mass below which the infinite new-WoD tail is cut."""

_FINAL_CUT = TAIL / 2
"""Where the returned new-WoD tail is cut. The arrays are already short of the
mass dropped by ``CHAIN_TAIL`` at every step (up to ~1e-16 for the largest
pools), so cutting at half of ``TAIL`` keeps the true mass left out below ``TAIL``."""


@lean
@dataclass(frozen=True)
class HunterResult:
    """Successes of a new-WoD roll, and its dramatic failure."""

    successes: int
    dramatic_failure: bool
    chance: bool

    EXCEPTIONAL: ClassVar[int] = 5

    @property
    def exceptional(self) -> bool:
        """Five successes or more (H-EXC-1)."""
        return self.successes >= self.EXCEPTIONAL

    @property
    def success(self) -> bool:
        return self.successes > 0

    @property
    def score(self) -> float:
        """How good the roll is for its roller (``engine.report``): its successes, a
        dramatic failure below none."""
        return -1.0 if self.dramatic_failure else float(self.successes)

    def describe(self, lang: Lang | None = None) -> str:
        if self.dramatic_failure:
            return t("result.dramatic_failure", lang)
        if self.exceptional:
            return t("result.exceptional", lang, count=self.successes)
        return successes_text(self.successes, lang)


@lean
@dataclass(frozen=True)
class HunterPool:
    """A new-WoD d10 pool: 8+ succeeds, ``again``-again, optional rote (``hunter``).

    A pool of 0 or less rolls one *chance die* (H-CHANCE-1): only a 10
    succeeds (and is rolled again), a 1 is a dramatic failure. A normal roll
    with no success and a 1 among its original dice is a dramatic failure
    (H-FAIL-1, as this table plays it). With ``rote`` each original die that
    fails is rolled once more and the new face replaces it.

    Faces are read in this order: the original dice; then the rote rerolls,
    in the order of the dice they replace; then one wave of again-dice for
    every die that showed ``again`` or more, in order, wave after wave.
    """

    kind: ClassVar[str] = "hunter"
    SUCCESS: ClassVar[int] = 8

    dice: int
    again: int = 10
    rote: bool = False

    def __post_init__(self) -> None:
        check_count("dice", self.dice)
        if self.again not in (8, 9, 10):
            raise ConteurError(
                "dice.bad_pool", field="again", value=self.again, reason=Msg("dice.reason.again")
            )

    @property
    def chance(self) -> bool:
        """True when the pool is down to the chance die."""
        return self.dice <= 0

    def roll(self, draw: Draw) -> RollRecord[HunterResult]:
        faces, _, result = self._play(draw, notes=False)
        return RollRecord(self, faces, result)

    def notes(self, faces: Sequence[int]) -> tuple[DieNote, ...]:
        """What each face did, in roll order: originals, rote rerolls, again-waves."""
        return self._play(replay(faces))[1]

    def _play(
        self, draw: Draw, notes: bool = True
    ) -> tuple[tuple[int, ...], tuple[DieNote, ...], HunterResult]:
        """Roll the pool once: the faces, what each did (unless ``notes`` is False: then
        ``()``), and the result (one copy of the rule)."""
        faces: list[int] = []
        stages: list[tuple[DieStage, int]] = []

        def d10(stage: DieStage, wave: int = 0) -> int:
            faces.append(draw(10))
            stages.append((stage, wave))
            return len(faces) - 1

        n = 1 if self.chance else self.dice
        succeeds = 10 if self.chance else self.SUCCESS
        kept = [d10("roll") for _ in range(n)]
        replaced: set[int] = set()
        if self.rote:
            for slot, pos in enumerate(kept):
                if faces[pos] < succeeds:
                    replaced.add(pos)
                    kept[slot] = d10("rote")
        successes = sum(1 for pos in kept if faces[pos] >= succeeds)
        if self.chance:
            dramatic = faces[kept[0]] == 1
            wave = [pos for pos in kept if faces[pos] == 10]
        else:
            dramatic = successes == 0 and any(faces[pos] == 1 for pos in kept)
            wave = [pos for pos in kept if faces[pos] >= self.again]
        exploding = set(wave)
        number = 0
        while wave:
            number += 1
            new = [d10("again", number) for _ in wave]
            successes += sum(1 for pos in new if faces[pos] >= self.SUCCESS)
            wave = [pos for pos in new if faces[pos] >= self.again]
            exploding.update(wave)
        result = HunterResult(successes, dramatic, self.chance)
        if not notes:
            return tuple(faces), (), result
        counted = set(kept)
        roles: list[DieNote] = []
        for pos, (face, (stage, wave_no)) in enumerate(zip(faces, stages, strict=True)):
            role: DieRole
            if pos in replaced:
                role = "replaced"
            elif face >= (succeeds if pos in counted else self.SUCCESS):
                role = "success"
            elif face == 1 and pos in counted:
                role = "one"
            else:
                role = "failure"
            roles.append(DieNote(face, role, stage, wave_no, pos in exploding))
        return tuple(faces), tuple(roles), result

    def outcomes(self) -> Sequence[tuple[HunterResult, float]]:
        return _hunter_outcomes(self.dice, self.again, self.rote)

    def describe(self, lang: Lang | None = None) -> str:
        rote = t("roll.hunter.rote", lang) if self.rote else ""
        if self.chance:
            return t("roll.hunter.chance", lang, rote=rote)
        return t("roll.hunter", lang, dice=self.dice, again=self.again, rote=rote)


register_roll_kind(HunterPool, HunterResult)


@lru_cache(maxsize=4096)
def _hunter_outcomes(n: int, again: int, rote: bool) -> tuple[tuple[HunterResult, float], ...]:
    succ, dramatic = hunter_successes(n, again, rote)
    chance = n <= 0
    out: list[tuple[HunterResult, float]] = []
    if dramatic > 0:
        out.append((HunterResult(0, True, chance), dramatic))
    for k, p in enumerate(succ):
        if p > 0:
            out.append((HunterResult(k, False, chance), float(p)))
    return tuple(out)


# ------------------------------------------------------------------ exact arrays


def hunter_successes(n: int, again: int, rote: bool) -> tuple[FloatArray, float]:
    """Distribution of successes (index k) and P(dramatic failure) of a new-WoD roll.

    ``succ[0]`` holds the failures that are not dramatic. A pool of 0 or less
    is the chance die (H-CHANCE-1); a dramatic failure is no success and a 1
    among the original dice, after any rote reroll (H-FAIL-1).
    """
    chain = hunter_chain_view(again)
    if n <= 0:
        p10 = 0.1 + (0.9 * 0.1 if rote else 0.0)
        dramatic = 0.9 * 0.1 if rote else 0.1
        succ = np.zeros(len(chain) + 1)
        succ[1:] = p10 * chain
        succ[0] = 1.0 - p10 - dramatic
        return trim(succ, _FINAL_CUT), dramatic
    slot = chain.copy()
    if rote:
        slot[0] = 0.0
        slot = slot + 0.7 * chain
    dist = np.ones(1)
    for _ in range(n):
        dist = trim(np.convolve(dist, slot), CHAIN_TAIL)
    fail = 0.7 * 0.7 if rote else 0.7
    plain = 0.7 * 0.6 if rote else 0.6
    dramatic = fail**n - plain**n
    dist = dist.copy()
    dist[0] -= dramatic
    return trim(dist, _FINAL_CUT), float(dramatic)


# ------------------------------------------------------------------ odds


def hunter_odds(pool: int, again: int = 10, *, rote: bool = False) -> RollOdds:
    """Exact odds of a ``HunterPool``; a pool of 0 or less is the chance die (H-CHANCE-1).

    The dramatic failure follows H-FAIL-1. The infinite again-tail is cut
    where the mass left is below 1e-15. Raises ``ConteurError('dice.bad_pool')``
    for an ``again`` other than 10, 9, 8 or an oversized pool.
    """
    check_pool(pool, allow_negative=True)
    request = HunterPool(pool, again, rote)
    outcomes = ((r.dramatic_failure, r.successes, p) for r, p in request.outcomes())
    return RollOdds.of(DRAMATIC_FAILURE, outcomes)


def check_again(again: int) -> None:
    """Raise ``ConteurError('dice.bad_pool')`` unless ``again`` is 10, 9 or 8."""
    if again not in (8, 9, 10):
        raise ConteurError(
            "dice.bad_pool", field="again", value=again, reason=Msg("dice.reason.again")
        )


def odds_answer(
    *,
    pool: int | None = None,
    again: int = 10,
    rote: bool = False,
    table: bool = False,
    max_pool: int = CHART_POOL,
) -> dict[str, Any]:
    """The JSON answer of ``conteur odds hunter ... --json``.

    With a ``pool``: ``{"outcomes": {"dramatic_failure": p, "0": p, "1": p, ...}}``;
    with ``table``: the chart's ``to_dict()``. Raises ``ConteurError`` for a bad pool,
    ``again`` or ``max_pool``, or when neither ``pool`` nor ``table`` is given.
    """
    check_again(again)
    return pool_odds_answer(
        pool,
        lambda n: hunter_odds(n, again, rote=rote),
        partial(hunter_chart, rote=rote) if table else None,
        max_pool,
        smallest=0,
    )


ROLL_KINDS = (RollKind(HunterPool, HunterResult),)
"""The rolls of this ruleset (``Ruleset.roll_kinds``), read back from the stored log."""


__all__ = [
    "DRAMATIC_FAILURE",
    "ROLL_KINDS",
    "HunterPool",
    "HunterResult",
    "check_again",
    "hunter_chain",
    "hunter_odds",
    "hunter_successes",
    "odds_answer",
]
