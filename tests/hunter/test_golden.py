"""The hunter golden fight: ``examples/hunter/cellule`` played with its typed dice.

Regenerate with ``python scripts/update_golden.py hunter/cellule`` and read the diff.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conteur.cli import app

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("hunter/cellule",)


@pytest.fixture(autouse=True)
def _at_root() -> Iterator[None]:
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        yield
    finally:
        os.chdir(here)


@pytest.mark.parametrize("name", NAMES)
def test_the_hunter_example_plays_exactly_its_golden_log(name: str) -> None:
    args = ["play", f"examples/{name}.yaml", "--script", f"examples/{name}.txt"]
    result = CliRunner().invoke(
        app, [*args, "--dice", f"examples/{name}.dice", "--json"], env={"CONTEUR_LANG": None}
    )
    assert result.exit_code == 0, result.output
    golden = json.loads((ROOT / "tests" / "golden" / f"{name}.json").read_text("utf-8"))
    assert json.loads(result.stdout) == golden


def test_H_AUTO_2_and_H_GRP_3_the_example_has_a_burst_and_an_overpowered_grapple() -> None:
    golden = json.loads((ROOT / "tests" / "golden" / "hunter" / "cellule.json").read_text("utf-8"))
    events = [e for entry in golden["log"] for e in entry.get("events", [])]
    types = {e["type"] for e in events}
    assert {"HunterGrappleSet", "HunterOverpowered", "HunterAmmoSpent"} <= types
    assert any(e.get("maneuver") == "burst" for e in events)
    assert golden["dice_left"] == 0


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_hunter_example_also_plays_with_the_programs_dice(lang: str) -> None:
    args = ["play", "examples/hunter/cellule.yaml", "--script", "examples/hunter/cellule.txt"]
    result = CliRunner().invoke(app, [*args, "--seed", "42", "--lang", lang])
    assert result.exit_code == 0, result.output


def test_the_xp_contract_every_roll_names_its_actor_and_attacks_their_target() -> None:
    """For ``xp.py``: rolls against someone carry ``actor`` and ``target``; the others ``actor``;
    each such event carries its roll; fighters keep their ``kind``."""
    golden = json.loads((ROOT / "tests" / "golden" / "hunter" / "cellule.json").read_text("utf-8"))
    events = [e for entry in golden["log"] for e in entry.get("events", [])]
    rolled = [e for e in events if e.get("rolls")]
    assert rolled and all("actor" in e for e in rolled)
    attacks = [e for e in rolled if e["type"] == "HunterAttackRolled"]
    assert attacks and all(e["target"] and e["rolls"][0]["kind"] == "hunter" for e in attacks)
    assert any(e["exceptional"] or e["dramatic"] for e in attacks)
    assert {s["id"]: s["kind"] for s in golden["state"]}["bete"] == "monster"
