"""The plain-float pool polynomials (``conteur.dice.plain``) against numpy, float for float.

They stand in for ``numpy.convolve`` and ``ndarray.sum`` in the exact odds of a roll, so
that an attack's odds load no numpy: every value must be the one numpy gives, over every
pool a roll accepts (``MAX_POOL``) and every difficulty.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from conteur.dice.plain import array_sum, binomial, times_step
from conteur.dice.rolls import MAX_POOL
from conteur.rulesets.vtm.dice import vtm_net

DIFFICULTIES = range(2, 11)


def numpy_vtm_net(n: int, difficulty: int, ones_cancel: bool, can_botch: bool) -> list[float]:
    """``vtm_net`` as it was computed with numpy arrays (the net successes, botch last)."""
    if n <= 0:
        return [1.0, 0.0]
    ps = (11 - difficulty) / 10.0
    po = 1.0 - ps - 0.1
    botch = ((1.0 - ps) ** n - po**n) if can_botch else 0.0
    poly = np.ones(1)
    for _ in range(n):
        step = [0.1, po, ps] if ones_cancel else [1.0 - ps, ps]
        poly = np.convolve(poly, np.array(step))
    net = np.zeros(n + 1)
    net[1:] = poly[n + 1 :] if ones_cancel else poly[1:]
    net[0] = max(0.0, 1.0 - botch - float(net[1:].sum()))
    return [*net.tolist(), float(botch)]


@pytest.mark.parametrize("ones_cancel", [True, False])
def test_vtm_net_is_numpy_s_for_every_pool_and_difficulty(ones_cancel: bool) -> None:
    for d in DIFFICULTIES:
        for n in range(MAX_POOL + 1):
            net, botch = vtm_net(n, d, ones_cancel, True)
            assert [*net, botch] == numpy_vtm_net(n, d, ones_cancel, True), (n, d)


def test_every_power_of_a_step_is_numpy_s() -> None:
    for d in DIFFICULTIES:
        ps = (11 - d) / 10.0
        for step in ((0.1, 1.0 - ps - 0.1, ps), (1.0 - ps, ps)):
            ours: tuple[float, ...] = (1.0,)
            theirs = np.ones(1)
            for _ in range(MAX_POOL):
                ours, theirs = times_step(ours, step), np.convolve(theirs, np.array(step))
                assert list(ours) == theirs.tolist()


def test_binomial_is_numpy_s() -> None:
    for p in (0.1, 0.25, 0.5, 0.9, 1 / 3):
        theirs = np.ones(1)
        for n in range(1, MAX_POOL + 1):
            theirs = np.convolve(theirs, np.array([1.0 - p, p]))
            assert list(binomial(n, p)) == theirs.tolist()


def test_random_products_and_sums_are_numpy_s() -> None:
    rng = random.Random(17)
    for _ in range(2000):
        poly = [rng.random() * 10.0 ** rng.randint(-30, 0) for _ in range(rng.randint(1, 60))]
        step = [rng.random() for _ in range(rng.randint(1, 3))]
        assert list(times_step(poly, step)) == np.convolve(poly, step).tolist()
        assert list(times_step(step, poly)) == np.convolve(step, poly).tolist()
        values = [rng.random() * 10.0 ** rng.randint(-20, 0) for _ in range(rng.randint(0, 400))]
        assert array_sum(values) == float(np.array(values, dtype=np.float64).sum())


def test_a_longer_step_is_refused() -> None:
    with pytest.raises(ValueError):
        times_step([0.5] * 8, [0.25] * 4)
