"""The house_ranged pack in the odds: ``attack_odds`` and ``conteur odds attack`` run the pack's
own rules (R-SHOT-1, R-BURST-1/2, R-SPREAD-1/2, R-CALL-1/2, R-AIM-1)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conteur.cli import app
from conteur.engine import Encounter

SCENARIO = """
ruleset: vtm
era: modern
packs: [house_ranged]
combatants:
  - {id: a, side: x, position: [0, 0], dexterity: 3, firearms: 2,
     weapons: [heavy_pistol, small_smg, double_barrel_shotgun, sawed_off_shotgun, rifle]}
  - {id: t, side: y, position: [12, 0], stamina: 2, armour: kevlar_vest}
  - {id: u, side: y, position: [35, 0], stamina: 2}
  - {id: far, side: y, position: [60, 0], stamina: 2}
"""


def odds(maneuver: str, weapon: str, target: str = "t", **params: Any) -> Any:
    """The odds of ``a`` (``weapon`` in hand) doing ``maneuver`` on ``target`` with ``params``."""
    data: Any = __import__("yaml").safe_load(SCENARIO)
    data["combatants"][0]["weapon"] = weapon
    enc = Encounter.start(data)
    return enc.ruleset.attack_odds(enc.state, "a", target, maneuver, params)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("maneuver", "weapon", "pool", "difficulty"),
    [
        ("shoot", "heavy_pistol", 5, 6),  # R-SHOT-1: 12 m → 6
        ("short_burst", "heavy_pistol", 8, 7),  # R-BURST-1: +3 dice, +1
        ("long_burst", "small_smg", 15, 8),  # R-BURST-2: +10 dice, +2
        ("shotgun_spread", "double_barrel_shotgun", 5, 5),  # R-SPREAD-2: 11–20 m → 5
        ("called_shot", "rifle", 5, 8),  # R-CALL-1: +2
        ("careful_shot", "rifle", 5, 5),  # R-AIM-1: −1 after one round
    ],
)
def test_pack_maneuvers_in_the_odds(maneuver: str, weapon: str, pool: int, difficulty: int) -> None:
    """Each pack maneuver's odds use the pack's pool and difficulty; the odds add up to 1."""
    o = odds(maneuver, weapon)
    assert (o.pool, o.difficulty) == (pool, difficulty)
    assert math.isclose(o.levels.total(), 1.0, abs_tol=1e-9)
    assert 0 < o.p_hit < 1


def test_R_AIM_1_odds_two_rounds_of_careful_aim() -> None:
    """R-AIM-1: the odds of a careful shot after two rounds: difficulty 6 − 2 = 4."""
    assert odds("careful_shot", "rifle", careful_rounds=2).difficulty == 4


def test_R_CALL_2_odds_a_head_shot_can_kill_a_torso_shot_less_often() -> None:
    """R-CALL-2: aimed at the head the odds of killing outright exceed the torso's."""
    head = odds("called_shot", "rifle", location="head")
    torso = odds("called_shot", "rifle", location="torso")
    assert head.p_killed > torso.p_killed


def test_cli_odds_attack_with_a_pack_maneuver(tmp_path: Path) -> None:
    """``conteur odds attack --maneuver short_burst`` answers with the pack's numbers."""
    path = tmp_path / "pack.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    args = ["odds", "attack", str(path), "--attacker", "a", "--target", "t"]
    result = CliRunner().invoke(app, [*args, "--maneuver", "short_burst", "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert (answer["pool"], answer["difficulty"]) == (8, 7)
