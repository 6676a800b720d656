"""Helpers of the odds tests: brute-force enumeration of faces and a chi-square test.

Kept free of the code under test's arithmetic: the enumerations run the
requests' own ``read``/``roll`` code on every face sequence, and the
chi-square p-value uses its own incomplete-gamma function.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from conteur.dice import SeededDice
from sim.stats import chi2_sf  # one chi-square tail for every statistical test


def product_faces(n: int, sides: int = 10) -> list[tuple[int, ...]]:
    """Every ordered tuple of ``n`` faces (each equally likely)."""
    return list(itertools.product(range(1, sides + 1), repeat=n))


class _NeedFace(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


def face_tree(
    request: Any, max_draws: int, key: Callable[[Any], Hashable]
) -> tuple[dict[Hashable, float], float]:
    """Enumerate every face sequence ``request.roll`` can read, up to ``max_draws`` faces.

    Runs the request's real ``roll`` on each prefix; a roll that asks for a
    face beyond the prefix is branched on every face of that die. Returns
    ``({key(result): probability}, cut)`` where ``cut`` is the total
    probability of the sequences that needed more than ``max_draws`` faces
    (not enumerated).
    """
    out: dict[Hashable, float] = {}
    cut = 0.0
    stack: list[tuple[tuple[int, ...], float]] = [((), 1.0)]
    while stack:
        prefix, p = stack.pop()
        position = 0

        def draw(sides: int, prefix: tuple[int, ...] = prefix) -> int:
            nonlocal position
            if position >= len(prefix):
                raise _NeedFace(sides)
            face = prefix[position]
            position += 1
            return face

        try:
            record = request.roll(draw)
        except _NeedFace as need:
            if len(prefix) >= max_draws:
                cut += p
                continue
            q = p / need.sides
            stack.extend(((*prefix, face), q) for face in range(1, need.sides + 1))
            continue
        k = key(record.result)
        out[k] = out.get(k, 0.0) + p
    return out, cut


def sample(request: Any, n: int, seed: int, key: Callable[[Any], Hashable]) -> Counter[Hashable]:
    """``n`` rolls of ``request`` with the real sampling code (``SeededDice``)."""
    dice = SeededDice(seed)
    return Counter(key(dice.roll(request).result) for _ in range(n))


# ---------------------------------------------------------------- chi-square


def chi_square_p_value(
    observed: Counter[Hashable], expected: Sequence[tuple[Hashable, float]], n: int
) -> float:
    """P-value of Pearson's chi-square test of ``observed`` counts against ``expected``.

    ``expected`` lists every outcome with its probability, in a meaningful
    order; neighbouring outcomes are pooled until each bin expects at least
    5 counts. An observed outcome missing from ``expected`` gives p = 0.
    """
    known = {k for k, _ in expected}
    if any(k not in known for k in observed):
        return 0.0
    bins: list[tuple[float, int]] = []
    acc_p, acc_o = 0.0, 0
    for k, p in expected:
        acc_p += p
        acc_o += observed.get(k, 0)
        if acc_p * n >= 5.0:
            bins.append((acc_p, acc_o))
            acc_p, acc_o = 0.0, 0
    if acc_p > 0.0 or acc_o:
        if bins:
            last_p, last_o = bins.pop()
            bins.append((last_p + acc_p, last_o + acc_o))
        else:
            bins.append((acc_p, acc_o))
    if len(bins) < 2:
        return 1.0
    stat = sum((o - n * p) ** 2 / (n * p) for p, o in bins)
    return chi2_sf(stat, len(bins) - 1)
