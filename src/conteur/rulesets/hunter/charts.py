"""The new-WoD chart (``conteur odds hunter --table``), computed for every column at once.

P(at least one success), P(dramatic failure) and P(exceptional success, H-EXC-1)
for pools 0..max_pool (0 is the chance die, H-CHANCE-1) and each again option
10/9/8, optionally with rote. The chart works on numpy arrays holding every again
option and steps from one pool to the next by a 6×6 matrix, so it costs a few
hundred numpy operations. Tests check it against ``hunter_successes`` (``.dice``);
both step by one die's successes (``.chain``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from conteur.dice.exact import ChartForm, FloatArray

from .chain import hunter_chain

AGAINS: tuple[int, ...] = (10, 9, 8)

_EXCEPTIONAL = 5  # H-EXC-1: five successes or more


@dataclass(frozen=True, eq=False)
class HunterChart(ChartForm):
    """Rows are pools (0 is the chance die), columns are the again options."""

    pools: tuple[int, ...]
    agains: tuple[int, ...]
    rote: bool
    p_success: FloatArray
    """P(at least one success), shape (pools, agains)."""
    p_dramatic: FloatArray
    """P(dramatic failure, H-FAIL-1), same shape."""
    p_exceptional: FloatArray
    """P(five successes or more, H-EXC-1), same shape."""

    json_names: ClassVar[Mapping[str, str]] = {"p_dramatic": "p_dramatic_failure"}


def hunter_chart(max_pool: int = 30, rote: bool = False) -> HunterChart:
    """The new-WoD chart for pools 0..``max_pool`` and again 10/9/8.

    Only "0, 1, 2, 3, 4, 5 or more successes" matter for the three columns,
    so each pool's state is six numbers per again option; one die maps it to
    the next pool's state by a 6×6 matrix (the last state absorbs). P(success)
    and P(dramatic failure) have closed forms; the chance die (pool 0) is
    read from the one-die success chain.
    """
    if max_pool < 0:
        raise ValueError("max_pool cannot be negative")
    states = _EXCEPTIONAL + 1
    n_again = len(AGAINS)
    trans = np.zeros((n_again, states, states))
    chance_success = np.empty(n_again)
    chance_exceptional = np.empty(n_again)
    for a, again in enumerate(AGAINS):
        chain = hunter_chain(again)  # successes of one die, index = count
        slot = chain.copy()
        if rote:  # a failed original die is rolled once more
            slot[0] = 0.0
            slot = slot + 0.7 * chain
        head = np.zeros(states)
        m = min(states, len(slot))
        head[:m] = slot[:m]
        tail_from = np.array([slot[k:].sum() for k in range(states)])  # P(slot >= k)
        for j in range(_EXCEPTIONAL):
            trans[a, j:_EXCEPTIONAL, j] = head[: _EXCEPTIONAL - j]
            trans[a, _EXCEPTIONAL, j] = tail_from[_EXCEPTIONAL - j]
        trans[a, _EXCEPTIONAL, _EXCEPTIONAL] = 1.0
        # Chance die: a 10 (rote: or a 10 on the reroll) is one success and rolls again.
        p10 = 0.1 + (0.9 * 0.1 if rote else 0.0)
        chance_success[a] = p10
        chance_exceptional[a] = p10 * chain[_EXCEPTIONAL - 1 :].sum()
    cur = np.zeros((n_again, states, 1))
    cur[:, 0, 0] = 1.0
    p_exceptional = np.empty((max_pool + 1, n_again))
    p_exceptional[0] = chance_exceptional
    for n in range(1, max_pool + 1):
        cur = trans @ cur
        p_exceptional[n] = cur[:, _EXCEPTIONAL, 0]
    n_col = np.arange(1, max_pool + 1, dtype=np.float64)[:, None]
    fail = 0.7 * 0.7 if rote else 0.7  # an original die ends below 8
    plain = 0.7 * 0.6 if rote else 0.6  # ... and is not a 1
    p_success = np.empty((max_pool + 1, n_again))
    p_dramatic = np.empty((max_pool + 1, n_again))
    p_success[0] = chance_success
    p_dramatic[0] = 0.9 * 0.1 if rote else 0.1
    p_success[1:] = np.broadcast_to(1.0 - fail**n_col, (max_pool, n_again))
    p_dramatic[1:] = np.broadcast_to(fail**n_col - plain**n_col, (max_pool, n_again))
    return HunterChart(
        tuple(range(max_pool + 1)), AGAINS, rote, p_success, p_dramatic, p_exceptional
    )
