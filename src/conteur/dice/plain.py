"""Exact pool polynomials in plain Python floats, without numpy.

The products of a polynomial by a short step (``times_step``) and the sum of an array
(``array_sum``) give, float for float, what ``numpy.convolve`` and ``ndarray.sum``
give on the x86-64 wheels conteur is built and tested with: the answer of an attack's
odds does not load numpy (~0.1 s of start-up) and is the same as before.
``tests/test_plain.py`` compares both over every pool and difficulty a roll accepts.

The rounding follows numpy's own order: ``convolve`` sums the full overlaps term by term
from the lowest index of the longer operand (its unrolled small-kernel loop), and the
partial overlaps at both ends as a BLAS dot product, each term added with one rounding
(a fused multiply-add); ``sum`` adds by pairs (eight partial sums, blocks of 128).
The values no longer depend on the machine: numpy's dot product is the BLAS kernel's
(OpenBLAS picks one for the processor), these are Python's. Where the test fails, it is
numpy there that rounds otherwise, and the shipped answers are these.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache

_BLOCK = 128
"""numpy's block of its pairwise sum."""
_SMALL_KERNEL = 3
"""The longest step ``times_step`` reproduces."""


def _fused(terms: Sequence[tuple[float, float]]) -> float:
    """``sum(x * y)``, each product added to the running sum with a single rounding."""
    total = 0.0
    for x, y in terms:
        total = float(Fraction(x) * Fraction(y) + Fraction(total))
    return total


def times_step(poly: Sequence[float], step: Sequence[float]) -> tuple[float, ...]:
    """The coefficients of ``poly * step``, ``numpy.convolve(poly, step)``'s (a step of
    at most three terms: numpy's small-kernel loop)."""
    if len(step) > len(poly):
        poly, step = step, poly
    n, m = len(poly), len(step)
    if m > _SMALL_KERNEL:
        raise ValueError(f"a step of {m} terms (at most {_SMALL_KERNEL})")
    out: list[float] = []
    for k in range(n + m - 1):
        lo, hi = max(0, k - m + 1), min(k, n - 1)
        if k < m - 1 or k > n - 1:  # a partial overlap: a dot product
            out.append(_fused([(poly[i], step[k - i]) for i in range(lo, hi + 1)]))
        else:
            total = 0.0
            for i in range(lo, hi + 1):
                total += poly[i] * step[k - i]
            out.append(total)
    return tuple(out)


def array_sum(values: Sequence[float]) -> float:
    """``numpy.sum`` of these float64 values (pairwise, as numpy adds them)."""
    n = len(values)
    if n < 8:
        total = 0.0
        for x in values:
            total += x
        return total
    if n <= _BLOCK:
        r = list(values[:8])
        i = 8
        while i < n - n % 8:
            for j in range(8):
                r[j] += values[i + j]
            i += 8
        total = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        for x in values[i:]:
            total += x
        return total
    half = n // 2
    half -= half % 8
    return array_sum(values[:half]) + array_sum(values[half:])


@lru_cache(maxsize=4096)
def binomial(n: int, p: float) -> tuple[float, ...]:
    """Binomial(n, p) probabilities, built on the cached n - 1."""
    if n == 0:
        return (1.0,)
    return times_step(binomial(n - 1, p), (1.0 - p, p))


__all__ = ["array_sum", "binomial", "times_step"]
