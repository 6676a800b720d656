"""The public Python API gives what the CLI prints."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import conteur
from conteur.cli import app
from conteur.i18n import ConteurError
from ruleset_fights import FIGHTS


def cli_json(*args: str) -> dict:
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


MANEUVERS = {"hunter": "burst"}
"""An attack other than the attacker's default, where the fight's attacker has one."""


@pytest.mark.parametrize("ruleset", list(FIGHTS))
def test_attack_odds_equal_conteur_odds_attack_json(ruleset: str) -> None:
    fight = FIGHTS[ruleset]
    path = str(fight.scenario)
    extra = {"maneuver": MANEUVERS[ruleset]} if ruleset in MANEUVERS else {}
    scenario = conteur.Scenario.load(path)
    answer = scenario.attack_odds(fight.attacker, fight.target, **extra)
    args = ["odds", "attack", path, "--attacker", fight.attacker, "--target", fight.target]
    if "maneuver" in extra:
        args += ["--maneuver", extra["maneuver"]]
    assert answer.to_dict() == cli_json(*args)


def test_attack_odds_pass_an_actions_parameters_as_the_cli_writes_them() -> None:
    scenario = conteur.Scenario.load("examples/fusillade.yaml")
    answer = scenario.attack_odds("nini", "gaspard", aim_turns="2")
    expected = cli_json(
        "odds",
        "attack",
        "examples/fusillade.yaml",
        "--attacker",
        "nini",
        "--target",
        "gaspard",
        "--param",
        "aim_turns=2",
    )
    assert answer.to_dict() == expected
    assert answer.to_dict() != scenario.attack_odds("nini", "gaspard").to_dict()


def test_an_unknown_fighter_is_refused_by_name() -> None:
    scenario = conteur.Scenario.load("examples/fusillade.yaml")
    with pytest.raises(ConteurError) as error:
        scenario.attack_odds("nobody", "gaspard")
    assert error.value.params["name"] == "nobody"


@pytest.mark.parametrize("ruleset", list(FIGHTS))
def test_simulate_returns_what_conteur_simulate_json_prints(ruleset: str) -> None:
    path = str(FIGHTS[ruleset].scenario)
    data = conteur.simulate(path, runs=20, seed=3, workers=1)
    printed = cli_json(
        "simulate", path, "--runs", "20", "--seed", "3", "--workers", "1", "--no-plot"
    )
    # Everything but the timing of the run itself.
    assert {k: v for k, v in data.items() if k != "run"} == {
        k: v for k, v in printed.items() if k != "run"
    }
    assert data["run"]["workers"] == printed["run"]["workers"] == 1
