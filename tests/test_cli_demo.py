"""``conteur demo``: the vtm odds chart and the sample rolls (what ``make run`` showed before the tracker)."""

from __future__ import annotations

import itertools

import pytest
from typer.testing import CliRunner

from conteur.cli import app
from conteur.rulesets.vtm.terminal import samples, vtm_chart

runner = CliRunner()


def brute_force(pool: int, difficulty: int) -> tuple[float, float]:
    """P(at least one net success) and P(botch), by listing every face combination."""
    hit = botch = 0.0
    for faces in itertools.product(range(1, 11), repeat=pool):
        successes = sum(1 for f in faces if f >= difficulty)
        ones = faces.count(1)
        if successes - ones > 0:
            hit += 0.1**pool
        elif successes == 0 and ones > 0:
            botch += 0.1**pool
    return hit, botch


@pytest.mark.parametrize(("pool", "difficulty"), [(1, 6), (2, 4), (3, 6), (3, 9), (4, 7)])
def test_chart_matches_brute_force(pool: int, difficulty: int) -> None:
    hit, botch = vtm_chart([pool], [difficulty])[pool, difficulty]
    expected_hit, expected_botch = brute_force(pool, difficulty)
    assert hit == pytest.approx(expected_hit, abs=1e-12)
    assert botch == pytest.approx(expected_botch, abs=1e-12)


def test_chart_covers_pools_1_to_10_and_difficulties_4_to_9() -> None:
    chart = vtm_chart()
    assert set(chart) == {(p, d) for p in range(1, 11) for d in range(4, 10)}
    # More dice: more likely to succeed; higher difficulty: less likely.
    for d in range(4, 10):
        assert all(chart[p, d][0] < chart[p + 1, d][0] for p in range(1, 10))
    for p in range(1, 11):
        assert all(chart[p, d][0] > chart[p, d + 1][0] for d in range(4, 9))


def test_demo_in_french() -> None:
    result = runner.invoke(app, ["demo"], env={"CONTEUR_LANG": None, "COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "conteur — démonstration" in out
    assert "chance d'au moins un succès" in out and "risque d'échec critique" in out
    # Pool 1, difficulty 6: one chance in two to succeed, one in ten to botch.
    assert "50,0 %" in out and "10,0 %" in out
    for title in ("Vampire : la Mascarade", "Hunter — ", "Western — ", "Jet de 3D10"):
        assert title in out
    assert "Résultat" in out and "graine" in out


def test_demo_in_english() -> None:
    result = runner.invoke(app, ["demo", "--lang", "en"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "conteur — demo" in out and "chance of a botch" in out
    assert "50.0%" in out and "Vampire: the Masquerade" in out and "Roll of 4D6-3" in out
    assert "Résultat" not in out


def test_demo_samples_are_reproducible_with_roll() -> None:
    """Each sample says its seed; ``conteur roll`` with that seed gives the same faces."""
    request, offset = samples()[0]
    demo = runner.invoke(app, ["demo"], env={"COLUMNS": "120"}).stdout
    roll = runner.invoke(
        app, ["roll", "vtm", "--pool", str(request.dice), "--seed", str(1899 + offset)]
    ).stdout
    faces_line = next(line for line in roll.splitlines() if line.startswith("Faces"))
    assert faces_line.strip() in demo
