"""One new-WoD die's successes as an exact array, the step of every exact hunter count.

Below both the rolls' odds (``.dice``) and the chart (``.charts``), which both build on it.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from conteur.dice.exact import FloatArray

CHAIN_TAIL = 1e-18
"""Where one die's geometric tail (and each convolution step of ``.dice``) is cut."""


def hunter_chain(again: int) -> FloatArray:
    """Successes of one new-WoD die with ``again``-again (geometric tail, cut far below 1e-15)."""
    return hunter_chain_view(again).copy()


@lru_cache(maxsize=8)
def hunter_chain_view(again: int) -> FloatArray:
    """The same array, cached and read-only (for callers that only read it)."""
    r = (11 - again) / 10.0  # shows again or more: success, and rolls again
    s = (again - 8) / 10.0  # succeeds without rolling again
    f = 0.7
    k = 1
    probs = [f]
    while r ** (k - 1) > CHAIN_TAIL:
        probs.append(r ** (k - 1) * s + r**k * f)
        k += 1
    out = np.array(probs)
    out.flags.writeable = False
    return out


__all__ = ["CHAIN_TAIL", "hunter_chain", "hunter_chain_view"]
