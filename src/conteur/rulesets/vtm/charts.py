"""The classic vtm chart (``conteur odds vtm --table``), computed for every column at once.

P(at least one net success) and P(botch) for pools 1..max_pool and difficulties
2..10 (1s cancel successes). The chart works on numpy arrays holding every
difficulty and steps from one pool to the next by a recurrence, so it costs a few
hundred numpy operations. Tests check it against ``vtm_net`` (``.dice``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from conteur.dice.exact import ChartForm, FloatArray

DIFFICULTIES: tuple[int, ...] = tuple(range(2, 11))


@dataclass(frozen=True, eq=False)
class VtmChart(ChartForm):
    """Rows are pools, columns are difficulties; 1s cancel successes."""

    pools: tuple[int, ...]
    difficulties: tuple[int, ...]
    p_success: FloatArray
    """P(at least one net success), shape (pools, difficulties)."""
    p_botch: FloatArray
    """P(botch: no success and at least one 1), same shape."""


def vtm_chart(max_pool: int = 30) -> VtmChart:
    """The classic chart for pools 1..``max_pool`` and difficulties 2..10.

    One array row per difficulty holds the distribution of (successes − 1s);
    each extra die moves its mass one step up (success), down (a 1) or keeps
    it. P(botch) has the closed form P(no success) − P(no success and no 1).
    """
    if max_pool < 1:
        raise ValueError("max_pool must be at least 1")
    diff = np.array(DIFFICULTIES, dtype=np.float64)
    ps = ((11.0 - diff) / 10.0)[:, None]  # success: die >= difficulty
    p1 = 0.1  # a 1 cancels one success
    po = 1.0 - ps - p1  # neither
    width = 2 * max_pool + 1
    centre = max_pool  # index of net 0
    # states[n, d, centre + k] = P(net = k) with n dice at difficulty d
    states = np.zeros((max_pool + 1, len(DIFFICULTIES), width))
    states[0, :, centre] = 1.0
    for n in range(1, max_pool + 1):
        prev, cur = states[n - 1], states[n]
        np.multiply(prev, po, out=cur)
        cur[:, 1:] += prev[:, :-1] * ps
        cur[:, :-1] += prev[:, 1:] * p1
    p_success = states[1:, :, centre + 1 :].sum(axis=2)
    n_col = np.arange(1, max_pool + 1, dtype=np.float64)[:, None]
    ps_row = ps[:, 0][None, :]
    po_row = po[:, 0][None, :]
    p_botch = (1.0 - ps_row) ** n_col - po_row**n_col
    return VtmChart(tuple(range(1, max_pool + 1)), DIFFICULTIES, p_success, p_botch)
