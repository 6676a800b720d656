"""Exact probability arrays for the dice of the four texts (numpy, float64).

These are the building blocks: per-pool distributions of the summary the
rules read. Results are cached by the callers (``rolls``) and by the chart
functions here.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

TAIL = 1e-15
"""Probability mass below which the infinite new-WoD tail is cut."""

_CHAIN_TAIL = 1e-18

_FINAL_CUT = TAIL / 2
"""Where the returned new-WoD tail is cut. The arrays are already short of the
mass dropped by ``_CHAIN_TAIL`` at every step (up to ~1e-16 for the largest
pools), so cutting at half of ``TAIL`` keeps the true mass left out below ``TAIL``."""


def _trim(p: FloatArray, tail: float) -> FloatArray:
    """Drop the highest outcomes while their total mass stays below ``tail``."""
    rev = np.cumsum(p[::-1])
    keep = len(p) - int(np.searchsorted(rev, tail, side="left"))
    return p[: max(keep, 1)]


def vtm_net(
    n: int, difficulty: int, ones_cancel: bool, can_botch: bool
) -> tuple[FloatArray, float]:
    """Distribution of net successes of ``n`` d10 (index k = k net successes) and P(botch).

    ``net[0]`` holds every failure that is not a botch.
    """
    if n <= 0:
        return np.ones(1), 0.0
    ps = (11 - difficulty) / 10.0
    p1 = 0.1
    po = 1.0 - ps - p1
    botch = ((1.0 - ps) ** n - po**n) if can_botch else 0.0
    net = np.zeros(n + 1)
    if ones_cancel:
        # Polynomial in z: (p1 z^-1 + po + ps z)^n; index i is S = i - n.
        poly = _vtm_step_power(n, difficulty)
        net[1:] = poly[n + 1 :]
    else:
        net[1:] = _binomial(n, ps)[1:]
    net[0] = max(0.0, 1.0 - botch - float(net[1:].sum()))
    return net, float(botch)


@lru_cache(maxsize=4096)
def _vtm_step_power(n: int, difficulty: int) -> FloatArray:
    """(p1 z^-1 + po + ps z)^n, built on the cached power n - 1."""
    if n == 0:
        poly = np.ones(1)
    else:
        ps = (11 - difficulty) / 10.0
        step = np.array([0.1, 1.0 - ps - 0.1, ps])
        poly = np.convolve(_vtm_step_power(n - 1, difficulty), step)
    poly.flags.writeable = False
    return poly


@lru_cache(maxsize=4096)
def _binomial(n: int, p: float) -> FloatArray:
    """Binomial(n, p) probabilities, built on the cached n - 1."""
    poly = np.ones(1) if n == 0 else np.convolve(_binomial(n - 1, p), np.array([1.0 - p, p]))
    poly.flags.writeable = False
    return poly


def hunter_chain(again: int) -> FloatArray:
    """Successes of one new-WoD die with ``again``-again (geometric tail, cut far below 1e-15)."""
    return _hunter_chain(again).copy()


@lru_cache(maxsize=8)
def _hunter_chain(again: int) -> FloatArray:
    r = (11 - again) / 10.0  # shows again or more: success, and rolls again
    s = (again - 8) / 10.0  # succeeds without rolling again
    f = 0.7
    k = 1
    probs = [f]
    while r ** (k - 1) > _CHAIN_TAIL:
        probs.append(r ** (k - 1) * s + r**k * f)
        k += 1
    out = np.array(probs)
    out.flags.writeable = False
    return out


def hunter_successes(n: int, again: int, rote: bool) -> tuple[FloatArray, float]:
    """Distribution of successes (index k) and P(dramatic failure) of a new-WoD roll.

    ``succ[0]`` holds the failures that are not dramatic. A pool of 0 or less
    is the chance die (H-CHANCE-1); a dramatic failure is no success and a 1
    among the original dice, after any rote reroll (H-FAIL-1).
    """
    chain = _hunter_chain(again)
    if n <= 0:
        p10 = 0.1 + (0.9 * 0.1 if rote else 0.0)
        dramatic = 0.9 * 0.1 if rote else 0.1
        succ = np.zeros(len(chain) + 1)
        succ[1:] = p10 * chain
        succ[0] = 1.0 - p10 - dramatic
        return _trim(succ, _FINAL_CUT), dramatic
    slot = chain.copy()
    if rote:
        slot[0] = 0.0
        slot = slot + 0.7 * chain
    dist = np.ones(1)
    for _ in range(n):
        dist = _trim(np.convolve(dist, slot), _CHAIN_TAIL)
    fail = 0.7 * 0.7 if rote else 0.7
    plain = 0.7 * 0.6 if rote else 0.6
    dramatic = fail**n - plain**n
    dist = dist.copy()
    dist[0] -= dramatic
    return _trim(dist, _FINAL_CUT), float(dramatic)


def sum_of_dice(count: int, sides: int) -> FloatArray:
    """Distribution of the sum of ``count`` dice of ``sides`` faces, offset by ``count``."""
    return _sum_of_dice(count, sides).copy()


@lru_cache(maxsize=256)
def _sum_of_dice(count: int, sides: int) -> FloatArray:
    step = np.full(sides, 1.0 / sides)
    dist = np.ones(1)
    for _ in range(count):
        dist = np.convolve(dist, step)
    dist.flags.writeable = False
    return dist
