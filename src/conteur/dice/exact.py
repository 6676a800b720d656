"""Exact probability arrays, the building blocks of the rulesets' pools (numpy, float64).

These are generic: a binomial, the sum of plain dice, and trimming a long tail.
Each ruleset builds its own pools' distributions from them (``conteur.rulesets.*.dice``);
results are cached by the callers.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


def trim(p: FloatArray, tail: float) -> FloatArray:
    """Drop the highest outcomes while their total mass stays below ``tail``."""
    rev = np.cumsum(p[::-1])
    keep = len(p) - int(np.searchsorted(rev, tail, side="left"))
    return p[: max(keep, 1)]


@lru_cache(maxsize=4096)
def binomial(n: int, p: float) -> FloatArray:
    """Binomial(n, p) probabilities, built on the cached n - 1 (read-only array)."""
    poly = np.ones(1) if n == 0 else np.convolve(binomial(n - 1, p), np.array([1.0 - p, p]))
    poly.flags.writeable = False
    return poly


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
