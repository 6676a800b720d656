"""Exact probability arrays, the building blocks of the rulesets' pools (numpy, float64).

These are generic: the sum of plain dice, and trimming a long tail; ``ChartForm`` is the
JSON form of a chart of such arrays (a binomial, without numpy: ``conteur.dice.plain``).
Each ruleset builds its own pools' distributions from them (``conteur.rulesets.*.dice``);
results are cached by the callers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from functools import lru_cache
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


class ChartForm:
    """Mixin for a dataclass chart of odds (``conteur odds <ruleset> --table``): its JSON
    form is its fields in their order, the axes as lists and each array as nested rows of
    probabilities, a field named again where ``json_names`` says so."""

    json_names: ClassVar[Mapping[str, str]] = {}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: the axes, then one row of probabilities per pool."""
        names = type(self).json_names
        out: dict[str, Any] = {}
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if isinstance(value, np.ndarray):
                value = value.tolist()
            elif isinstance(value, tuple):
                value = list(value)
            out[names.get(f.name, f.name)] = value
        return out


def trim(p: FloatArray, tail: float) -> FloatArray:
    """Drop the highest outcomes while their total mass stays below ``tail``."""
    rev = np.cumsum(p[::-1])
    keep = len(p) - int(np.searchsorted(rev, tail, side="left"))
    return p[: max(keep, 1)]


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
