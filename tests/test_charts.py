"""The classic charts: checked cell by cell against ``exact`` and against enumeration of faces."""

from __future__ import annotations

import numpy as np
import pytest

from conteur.rulesets.hunter.charts import hunter_chart
from conteur.rulesets.hunter.dice import HunterPool, hunter_successes
from conteur.rulesets.vtm.charts import vtm_chart
from conteur.rulesets.vtm.dice import VtmPool, vtm_net
from odds_helpers import face_tree, product_faces

TOL = 1e-12


def test_vtm_chart_shape_and_axes() -> None:
    chart = vtm_chart(30)
    assert chart.pools == tuple(range(1, 31))
    assert chart.difficulties == tuple(range(2, 11))
    assert chart.p_success.shape == chart.p_botch.shape == (30, 9)
    data = chart.to_dict()
    assert data["pools"][0] == 1 and data["difficulties"][-1] == 10
    assert len(data["p_success"]) == 30 and len(data["p_success"][0]) == 9


def test_vtm_chart_matches_exact_every_cell() -> None:
    """Each cell equals ``vtm_net`` (1s cancel, botch possible)."""
    chart = vtm_chart(30)
    for i, n in enumerate(chart.pools):
        for j, d in enumerate(chart.difficulties):
            net, botch = vtm_net(n, d, True, True)
            assert abs(chart.p_success[i, j] - sum(net[1:])) <= TOL
            assert abs(chart.p_botch[i, j] - botch) <= TOL


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_vtm_chart_matches_enumerated_faces(n: int) -> None:
    """Small pools: the chart against ``VtmPool.read`` on all 10^n face tuples."""
    chart = vtm_chart(4)
    faces = product_faces(n)
    for j, d in enumerate(chart.difficulties):
        pool = VtmPool(n, d)
        results = [pool.read(f) for f in faces]
        success = sum(r.successes > 0 for r in results) / len(faces)
        botch = sum(r.botch for r in results) / len(faces)
        assert abs(chart.p_success[n - 1, j] - success) <= TOL
        assert abs(chart.p_botch[n - 1, j] - botch) <= TOL


def test_vtm_chart_known_values() -> None:
    """Hand-computed: 1 die at difficulty 6 succeeds half the time and botches 10%."""
    chart = vtm_chart(2)
    j = chart.difficulties.index(6)
    assert chart.p_success[0, j] == pytest.approx(0.5, abs=TOL)
    assert chart.p_botch[0, j] == pytest.approx(0.1, abs=TOL)
    # 2 dice at 6: net >= 1 unless (no success) or (one success and one 1)
    assert chart.p_success[1, j] == pytest.approx(1 - 0.25 - 2 * 0.5 * 0.1, abs=TOL)
    assert chart.p_botch[1, j] == pytest.approx(0.5**2 - 0.4**2, abs=TOL)


def test_vtm_chart_refuses_empty() -> None:
    with pytest.raises(ValueError):
        vtm_chart(0)


@pytest.mark.parametrize("rote", [False, True])
def test_hunter_chart_matches_exact_every_cell(rote: bool) -> None:
    """H-CHANCE-1, H-FAIL-1, H-EXC-1: every cell equals ``hunter_successes``."""
    chart = hunter_chart(30, rote=rote)
    assert chart.pools == tuple(range(31)) and chart.agains == (10, 9, 8)
    for i, n in enumerate(chart.pools):
        for j, again in enumerate(chart.agains):
            succ, dramatic = hunter_successes(n, again, rote)
            assert abs(chart.p_success[i, j] - succ[1:].sum()) <= TOL
            assert abs(chart.p_dramatic[i, j] - dramatic) <= TOL
            assert abs(chart.p_exceptional[i, j] - succ[5:].sum()) <= TOL


@pytest.mark.parametrize(
    ("n", "again", "rote"),
    [(0, 10, False), (0, 8, True), (1, 8, False), (2, 10, False), (1, 9, True)],
)
def test_hunter_chart_matches_enumerated_faces(n: int, again: int, rote: bool) -> None:
    """H-CHANCE-1, H-FAIL-1: success and dramatic failure by running ``HunterPool.roll`` on
    every face sequence (explosions enumerated to a bounded depth; those two columns
    never involve an explosion, so the depth bound does not affect them)."""
    chart = hunter_chart(2, rote=rote)
    j = chart.agains.index(again)
    dist, cut = face_tree(
        HunterPool(n, again, rote),
        max_draws=max(n, 1) * (2 if rote else 1) + 3,
        key=lambda r: "dramatic" if r.dramatic_failure else min(r.successes, 1),
    )
    assert cut < 0.01
    assert abs(chart.p_dramatic[n, j] - dist.get("dramatic", 0.0)) <= TOL
    no_success = dist.get(0, 0.0) + dist.get("dramatic", 0.0)
    assert abs((1.0 - chart.p_success[n, j]) - no_success) <= TOL
    # the sequences not enumerated all have successes (they exploded)
    assert abs(chart.p_success[n, j] - (dist.get(1, 0.0) + cut)) <= TOL


def test_hunter_chart_known_values() -> None:
    """Chance die (H-CHANCE-1): 10% success and 10% dramatic failure; 1 die: 30% success."""
    chart = hunter_chart(1)
    assert np.allclose(chart.p_success[0], 0.1, atol=TOL)
    assert np.allclose(chart.p_dramatic[0], 0.1, atol=TOL)
    assert np.allclose(chart.p_success[1], 0.3, atol=TOL)
    # One die, 10-again: five successes need four 10s then an 8+.
    assert chart.p_exceptional[1, 0] == pytest.approx(0.1**4 * 0.3, abs=TOL)
    rote = hunter_chart(0, rote=True)
    assert np.allclose(rote.p_success[0], 0.1 + 0.9 * 0.1, atol=TOL)
    assert np.allclose(rote.p_dramatic[0], 0.9 * 0.1, atol=TOL)


def test_hunter_chart_dict() -> None:
    data = hunter_chart(3, rote=True).to_dict()
    assert data["rote"] is True and data["agains"] == [10, 9, 8]
    assert len(data["p_exceptional"]) == 4 and len(data["p_dramatic_failure"][0]) == 3
