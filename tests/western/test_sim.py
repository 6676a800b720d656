"""Simulated western fights: the referee, the tactics, the command line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conteur.cli import app
from conteur.sim.encounters import simulate
from conteur.sim.tactics import tactic_names

from .fight import gunman

ROOT = Path(__file__).resolve().parents[2]


def test_tactics_registered() -> None:
    assert {"nearest", "weakest", "flee"} <= set(tactic_names("western"))


def test_duel_simulation_ends_with_a_winner_or_a_draw() -> None:
    result = simulate(ROOT / "examples" / "western" / "duel.yaml", runs=40, seed=1)
    assert result.runs == 40
    assert result.win_rate("bill") + result.win_rate("jack") + result.draw_rate() == pytest.approx(
        1.0
    )
    assert result.win_rate("bill") > 0 and result.win_rate("jack") > 0
    assert result.tally.errors == 0


def test_same_seed_same_result() -> None:
    a = simulate(ROOT / "examples" / "western" / "saloon.yaml", runs=20, seed=5)
    b = simulate(ROOT / "examples" / "western" / "saloon.yaml", runs=20, seed=5)
    assert a.outcome_dict() == b.outcome_dict()


def test_flee_tactic_leaves_the_fight() -> None:
    """A hurt fighter with the ``flee`` tactic runs until out of reach of every enemy."""
    scenario = {
        "ruleset": "western",
        "sides": {"bill": {"tactic": "flee"}, "joe": {"tactic": "nearest"}},
        "simulation": {"escape": 30},
        "combatants": [
            gunman("bill", pv=5, characteristics={"CONSTITUTION": 12}),
            gunman(
                "joe",
                x=12,
                weapons=["derringer"],
                skills={"tir visé au pistolet": 5},
                characteristics={"RAPIDITÉ": 3},
            ),
        ],
    }
    result = simulate(scenario, runs=20, seed=2)
    assert result.fighter_rate(0, ["fled"]) > 0.5


def test_simulate_cli(tmp_path: Path) -> None:
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        result = CliRunner().invoke(
            app,
            [
                "simulate",
                str(ROOT / "examples/western/duel.yaml"),
                "--runs",
                "200",
                "--seed",
                "1",
                "--json",
            ],
        )
    finally:
        os.chdir(here)
    assert result.exit_code == 0, result.output
    assert '"ruleset": "western"' in result.stdout
