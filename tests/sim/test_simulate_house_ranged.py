"""The vtm tactics keep working on an encounter with the house_ranged pack on: its core
maneuvers gone (aim), its rules in force (R-SHOT-1 difficulties)."""

from __future__ import annotations

from typing import Any

import yaml

from conteur.dice import SeededDice
from conteur.engine import Encounter
from conteur.rulesets.vtm.events import AttackRolled
from conteur.sim.encounters import simulate
from conteur.sim.referee import get_referee
from conteur.sim.tactics import make_tactic

SCENARIO = """
ruleset: vtm
era: modern
packs: [house_ranged]
combatants:
  - {id: van, side: hunters, position: [0, 0], dexterity: 3, firearms: 3, melee: 2, wits: 2,
     perception: 3, dodge: 2, stamina: 2, weapons: [heavy_pistol, knife]}
  - {id: bob, side: outlaws, position: [15, 0], dexterity: 3, firearms: 2, wits: 2,
     stamina: 2, weapons: [small_smg]}
"""


def test_every_vtm_tactic_fights_with_the_pack_on() -> None:
    """Each tactic plays a whole fight with the pack on without an error; every shot is at the
    pack's difficulty by distance (R-SHOT-1), never the core range bands (V-RNG-5)."""
    for name in ("nearest", "weakest", "aim", "cover", "dodge", "flee"):
        data: Any = yaml.safe_load(SCENARIO)
        enc = Encounter.start(data)
        tactics = {
            "hunters": make_tactic("vtm", name, {}),
            "outlaws": make_tactic("vtm", "nearest", {}),
        }
        record = get_referee("vtm").fight(enc, SeededDice(5), tactics, 6, 50.0)
        assert record.error is None, (name, record.error)
        shots = [e for e in enc.events().of(AttackRolled) if e.maneuver == "shoot"]
        assert shots, name
        assert all("R-SHOT-1" in e.rules and "V-RNG-5" not in e.rules for e in shots), name


def test_simulate_a_scenario_with_the_pack() -> None:
    """``simulate`` runs the pack's scenario to the end, run after run."""
    result = simulate(yaml.safe_load(SCENARIO), runs=6, seed=3, workers=1, max_turns=6)
    assert result.runs == 6
