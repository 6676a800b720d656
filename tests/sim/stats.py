"""A chi-square goodness-of-fit test of a batch of outcomes against exact odds (no scipy)."""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any

MIN_EXPECTED = 5.0
"""Outcomes expected fewer times than this are pooled into one bin."""


def chi2_sf(x: float, df: int) -> float:
    """P(chi-square with ``df`` degrees of freedom >= x): the regularized upper gamma Q(df/2, x/2)."""
    if x <= 0.0:
        return 1.0
    a, x = df / 2.0, x / 2.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1.0:
        # Series for the lower function P(a, x).
        term = total = 1.0 / a
        ap = a
        for _ in range(100_000):
            ap += 1.0
            term *= x / ap
            total += term
            if term < total * 1e-16:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    # Continued fraction for Q(a, x) (modified Lentz).
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return math.exp(log_front) * h


@dataclass(frozen=True)
class Fit:
    """The outcome of a goodness-of-fit test."""

    statistic: float
    df: int
    p_value: float
    impossible: dict[Hashable, int]
    """Outcomes seen in the batch that the exact odds give probability 0 (each one a failure)."""

    def rejected(self, alpha: float) -> bool:
        return bool(self.impossible) or self.p_value < alpha


def goodness_of_fit(exact: Mapping[Any, float], seen: Mapping[Any, int]) -> Fit:
    """Pearson's chi-square of observed counts against exact probabilities.

    Outcomes expected fewer than ``MIN_EXPECTED`` times are pooled into one
    bin; an outcome seen but impossible is reported apart (p-value 0).
    """
    n = sum(seen.values())
    impossible = {k: c for k, c in seen.items() if exact.get(k, 0.0) <= 0.0}
    bins: list[tuple[float, int]] = []
    rare_p, rare_c = 0.0, 0
    for k, p in exact.items():
        if p <= 0.0:
            continue
        if n * p < MIN_EXPECTED:
            rare_p += p
            rare_c += seen.get(k, 0)
        else:
            bins.append((p, seen.get(k, 0)))
    if rare_p > 0.0:
        bins.append((rare_p, rare_c))
    if len(bins) < 2:
        return Fit(0.0, 0, 0.0 if impossible else 1.0, impossible)
    total_p = sum(p for p, _ in bins)
    stat = sum((c - n * p / total_p) ** 2 / (n * p / total_p) for p, c in bins)
    df = len(bins) - 1
    return Fit(stat, df, 0.0 if impossible else chi2_sf(stat, df), impossible)
