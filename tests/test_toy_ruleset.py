"""The toy ruleset ``duel`` (tests/plugins) plays through the public contract only."""

from __future__ import annotations

import json
from importlib.metadata import entry_points
from pathlib import Path

import yaml
from typer.testing import CliRunner

from conteur.cli import app
from conteur.dice import TypedDice
from conteur.engine import Encounter, available_rulesets, get_ruleset
from conteur.engine.registry import GROUP

EXAMPLES = Path(__file__).parent / "plugins" / "examples"


def duel() -> Encounter:
    return Encounter.start(yaml.safe_load((EXAMPLES / "duel.yaml").read_text("utf-8")))


def test_the_toy_is_found_through_the_entry_point_group() -> None:
    assert "duel" in {ep.name for ep in entry_points(group=GROUP)}
    assert "duel" in available_rulesets()
    assert get_ruleset("duel").name == "duel"


def test_D_ATK_1_and_D_DMG_1_an_attack_above_the_guard_takes_the_margin() -> None:
    """D-ATK-1: 1D6+2 = 8 against 1D6+2 = 3 hits; D-DMG-1: the margin, 5, off Bob's 5."""
    enc = duel()
    rules = enc.ruleset
    enc.execute(rules.parse_command("début", enc.state), TypedDice(""))
    events = enc.execute(rules.parse_command("ana attaque bob", enc.state), TypedDice("6 1"))
    assert [e.describe("en", rules.names(enc.state)) for e in events][:4] == [
        "Ana attacks Bob: total 8 (D-ATK-1)",
        "Bob guards: total 3 (D-ATK-1)",
        "Ana hits (D-ATK-1)",
        "Bob loses 5 HP (0 left) (D-DMG-1)",
    ]
    row = rules.roster(enc.state).row("bob")
    assert (row.health.points, row.status) == (0, "out")
    assert rules.turn_view(enc.state).over


def test_the_toy_plays_its_script_through_conteur_play() -> None:
    result = CliRunner().invoke(
        app,
        [
            "play",
            str(EXAMPLES / "duel.yaml"),
            "--script",
            str(EXAMPLES / "duel.txt"),
            "--dice",
            str(EXAMPLES / "duel.dice"),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["ruleset"] == "duel"
    assert [s["health"] for s in data["state"]] == ["1/5 PV", "0/5 PV"]


def test_the_toy_prices_an_attack_through_conteur_odds_attack() -> None:
    args = ["odds", "attack", str(EXAMPLES / "duel.yaml"), "--attacker", "ana", "--target", "bob"]
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    # 1D6+2 against 1D6+2: 15 of the 36 pairs hit (an attack total strictly above the guard).
    assert abs(answer["p_hit"] - 15 / 36) < 1e-12


def test_the_toy_is_simulated_through_its_referee_and_tactic() -> None:
    args = ["simulate", str(EXAMPLES / "duel.yaml"), "--runs", "100", "--seed", "1"]
    result = CliRunner().invoke(app, [*args, "--workers", "1", "--no-plot", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    wins = {side: s["wins"] for side, s in data["sides"].items()}
    # A duel always ends (D-END-1): every fight has a winner, no error, no draw.
    assert sum(wins.values()) == 100 and data["errors"]["count"] == 0
    assert set(wins) == {"rouges", "bleus"} and min(wins.values()) > 20
