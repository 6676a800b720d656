"""The hunter golden fight: ``examples/hunter/cellule`` played with its typed dice.

Regenerate with ``python scripts/update_golden.py hunter/cellule`` and read the diff.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


def play(*args: str) -> Any:
    base = ["play", "examples/hunter/cellule.yaml", "--script", "examples/hunter/cellule.txt"]
    return CliRunner().invoke(app, [*base, *args], env={"CONTEUR_LANG": None})


@pytest.fixture(scope="module")
def played() -> dict[str, Any]:
    """The example played now by the engine with its typed dice (``--json``)."""
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        result = play("--dice", "examples/hunter/cellule.dice", "--json")
    finally:
        os.chdir(here)
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def events_of(fight: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for entry in fight["log"] for e in entry.get("events", [])]


@pytest.mark.parametrize("name", NAMES)
def test_the_hunter_example_plays_exactly_its_golden_log(name: str, played: dict[str, Any]) -> None:
    golden = json.loads((ROOT / "tests" / "golden" / f"{name}.json").read_text("utf-8"))
    assert played == golden
    assert played["dice_left"] == 0


def test_H_AUTO_2_and_H_GRP_3_the_example_has_a_burst_and_an_overpowered_grapple(
    played: dict[str, Any],
) -> None:
    """H-AUTO-2: Ana's medium burst at two targets, +2 dice and −2 for the targets (H-AUTO-4),
    ten rounds; H-GRP-3: Marc grabs the Bête, then overpowers it twice (immobilise, damage)."""
    events = events_of(played)
    bursts = [e for e in events if e["type"] == "HunterAttackRolled" and e["maneuver"] == "burst"]
    assert [(e["actor"], e["target"], e["defense"], e["pool"]) for e in bursts] == [
        ("ana", "bete", 3, 5),  # Dex 3 + Firearms 3 + weapon 3 − 1 + 2 − 2 targets = 8, − 3
        ("ana", "goule", 2, 6),
    ]
    for e in bursts:
        assert ["burst_medium", 2] in e["modifiers"] and ["targets", -2] in e["modifiers"]
        assert "H-AUTO-2" in e["rules"] and "H-AUTO-4" in e["rules"]
    spent = [e for e in events if e["type"] == "HunterAmmoSpent" and e["actor"] == "ana"]
    assert (spent[0]["rounds"], spent[0]["left"]) == (10, 21)
    grapple = [
        (e["type"], e.get("maneuver") or e.get("option"))
        for e in events
        if e.get("actor") == "marc"
        and e["type"] in ("HunterAttackRolled", "HunterGrappleSet", "HunterOverpowered")
    ]
    assert grapple == [
        ("HunterAttackRolled", "grapple"),
        ("HunterGrappleSet", None),
        ("HunterAttackRolled", "overpower"),
        ("HunterOverpowered", "immobilise"),
        ("HunterAttackRolled", "overpower"),
        ("HunterOverpowered", "damage"),
    ]
    overpowers = [
        e for e in events if e["type"] == "HunterAttackRolled" and e["maneuver"] == "overpower"
    ]
    # Strength 4 + Brawl 3 less the Bête's Strength 5 (H-GRP-3): 2 dice each time
    assert [(e["pool"], e["opposed"], e["successes"]) for e in overpowers] == [
        (2, "strength", 1),
        (2, "strength", 2),
    ]
    hurt = [e for e in events if e["type"] == "HunterDamaged" and e["target"] == "bete"][-1]
    assert (hurt["amount"], hurt["damage_type"]) == (2, "bashing")  # the 2 overpower successes


def rolled_faces(fight: dict[str, Any]) -> str:
    """Every face the fight rolled, in order, as typed-in dice."""
    faces = [f for e in events_of(fight) for r in e.get("rolls", []) for f in r["faces"]]
    return " ".join(str(f) for f in faces)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_hunter_example_also_plays_with_the_programs_dice(lang: str, tmp_path: Path) -> None:
    """With ``--seed 42`` the program rolls; typing the same faces back plays the very same
    fight (log, final state, prose): seeded and typed dice go through the same rules."""
    seeded = play("--seed", "42", "--json")
    assert seeded.exit_code == 0, seeded.output
    fight = json.loads(seeded.stdout)
    assert fight["seed"] == 42
    faces = tmp_path / "seed-42.dice"
    faces.write_text(rolled_faces(fight), encoding="utf-8")
    typed = play("--dice", str(faces), "--json")
    assert typed.exit_code == 0, typed.output
    replayed = json.loads(typed.stdout)
    assert (replayed["log"], replayed["state"], replayed["dice_left"]) == (
        fight["log"],
        fight["state"],
        0,
    )
    prose_seeded = play("--seed", "42", "--lang", lang)
    prose_typed = play("--dice", str(faces), "--lang", lang)
    assert prose_seeded.exit_code == 0 and prose_typed.exit_code == 0
    seed_line = {"fr": "graine : 42", "en": "seed: 42"}[lang]
    body, last = prose_seeded.stdout.rstrip("\n").rsplit("\n", 1)
    assert last.startswith(seed_line)
    assert prose_typed.stdout.rstrip("\n") == body
    final = {"fr": "État final", "en": "Final state"}[lang]
    assert body.count(final) == 1
    assert len(body.split(final)[1].strip().splitlines()) == len(fight["state"])


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
