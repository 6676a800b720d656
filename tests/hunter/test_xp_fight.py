"""Practical experience counted from a real hunter fight (H-XP-2, H-EXC-1).

Runs once the hunter combat ruleset is present (skipped before it is merged).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from conteur.dice import TypedDice
from conteur.engine import Command, Encounter
from conteur.rulesets.hunter.xp import report_for
from conteur.rulesets.hunter.xp_session import parse_session

pytest.importorskip("conteur.rulesets.hunter.ruleset")

HUMAN = {
    "strength": 3,
    "dexterity": 3,
    "stamina": 2,
    "wits": 2,
    "composure": 2,
    "brawl": 2,
    "weaponry": 2,
    "firearms": 2,
    "athletics": 2,
}
SCENARIO: dict[str, Any] = {
    "ruleset": "hunter",
    "combatants": [
        {"id": "margot", "side": "cellule", **HUMAN},
        {"id": "lucien", "side": "cellule", **HUMAN},
        {
            "id": "boucher",
            "side": "boucher",
            "type": "monstre",
            **HUMAN,
            "dexterity": 0,
            "wits": 0,
            "stamina": 8,
        },
        {"id": "gamin", "side": "gamin", "type": "passant", **HUMAN},
    ],
}


def fight() -> Encounter:
    """Margot (5 dice against Defense 0) rolls five 8s; Lucien's dramatic failure is undone,
    then he rolls five successes and a 10-again; the butcher, wounded (-1), rolls his own dramatic failure."""
    enc = Encounter.start(SCENARIO)

    def do(type_: str, actor: str | None, faces: list[int], **args: Any) -> None:
        source = TypedDice(faces)
        enc.execute(Command(type_, actor, args), source)
        assert not source.remaining

    do("initiative", None, [9, 8, 1, 2])
    do("act", "margot", [8, 8, 8, 8, 8], kind="attack", target="boucher")
    do("act", "lucien", [1, 2, 3, 4, 5], kind="attack", target="boucher")
    enc.undo()
    do("act", "lucien", [8, 8, 8, 8, 10, 8], kind="attack", target="boucher")
    do("pass", "gamin", [])
    do("act", "boucher", [1, 2], kind="attack", target="margot")
    return enc


def test_H_XP_2_a_real_hunter_fight_is_counted(tmp_path: Path) -> None:
    (tmp_path / "combat.yaml").write_text(yaml.safe_dump(SCENARIO), encoding="utf-8")
    (tmp_path / "combat.json").write_text(json.dumps(fight().log_dicts()), encoding="utf-8")
    session = parse_session(
        {
            "joueurs": [
                {"nom": "Alice", "chasseurs": ["margot"]},
                {"nom": "Bruno", "chasseurs": ["lucien"]},
            ],
            "rencontres": [{"journal": "combat.json", "scénario": "combat.yaml"}],
        }
    )
    report = report_for(session, tmp_path)
    (counted,) = report.logs
    assert (counted.exceptional_successes, counted.dramatic_failures) == (2, 0)
    assert report.award.total == 2 + 2


def test_H_XP_2_the_example_session_2_replays_its_fight() -> None:
    """examples/hunter/session-2.yaml replays session-2-combat.* (the same fight as above):
    base 2 (H-XP-1), 2 exceptional successes, a life saved, the butcher captured: 7."""
    from typer.testing import CliRunner

    from conteur.cli import app

    session = Path(__file__).resolve().parents[2] / "examples" / "hunter" / "session-2.yaml"
    result = CliRunner().invoke(app, ["xp", "hunter", str(session), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["encounters"] == [
        {"log": "session-2-combat.txt", "exceptional_successes": 2, "dramatic_failures": 0}
    ]
    assert data["total"] == 2 + 2 + 1 + 2
    assert data["errors"] == []
