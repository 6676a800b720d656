"""Simulated hunter fights: the referee, the tactics, reproducibility."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conteur.dice import SeededDice
from conteur.engine import Encounter
from conteur.sim.encounters import simulate
from conteur.sim.referee import get_referee
from conteur.sim.tactics import make_tactic, tactic_names

from .fight import sheet

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "hunter" / "cellule.yaml"


def small() -> dict[str, Any]:
    return {
        "ruleset": "hunter",
        "combatants": [
            sheet("ana", side="cell", weapon="heavy_pistol"),
            sheet("bob", side="cell", strength=4, brawl=3),
            sheet("beast", side="monster", kind="monster", strength=5, brawl=4, unarmed="L"),
        ],
    }


def test_the_hunter_tactics_are_registered() -> None:
    assert {"nearest", "weakest", "dodge", "flee"} <= set(tactic_names("hunter"))


def test_same_seed_same_result_and_workers_do_not_change_it() -> None:
    one = simulate(small(), runs=12, seed=5, workers=1)
    again = simulate(small(), runs=12, seed=5, workers=1)
    two = simulate(small(), runs=12, seed=5, workers=2)
    assert one.tally == again.tally == two.tally
    assert one.runs == 12 and one.ruleset == "hunter"


def test_the_example_simulates() -> None:
    result = simulate(EXAMPLE, runs=6, seed=1)
    assert result.runs == 6
    assert sum(result.win_rate(s) for s in result.sides) + result.draw_rate() == pytest.approx(1.0)


def fight(tactics: dict[str, str], seed: int = 3) -> tuple[Any, Encounter]:
    enc = Encounter.start(small())
    referee = get_referee("hunter")
    chosen = {side: make_tactic("hunter", name) for side, name in tactics.items()}
    return referee.fight(enc, SeededDice(seed), chosen, 20, 50.0), enc


def test_a_fight_ends_with_one_side_standing_and_every_command_is_legal() -> None:
    record, _ = fight({"cell": "nearest", "monster": "weakest"})
    assert record.error is None
    assert record.winner in ("cell", "monster") or record.timeout
    assert len(record.fates) == 3


def test_the_dodge_tactic_dodges_once_hurt() -> None:
    dodged = 0
    for seed in range(6):
        _, enc = fight({"cell": "dodge", "monster": "nearest"}, seed)
        dodged += sum(1 for e in enc.active() if e.command.type == "dodge")
    assert dodged > 0


def test_the_flee_tactic_runs_away_when_badly_hurt() -> None:
    fled = 0
    for seed in range(8):
        record, _ = fight({"cell": "nearest", "monster": "flee"}, seed)
        assert record.error is None
        fled += record.fates[2] == "fled"
    assert fled > 0
