"""Golden fights: each example played with its typed dice gives exactly the stored log.

``tests/golden/NAME.json`` is the ``--json`` output of::

    conteur play examples/NAME.yaml --script examples/NAME.txt --dice examples/NAME.dice --json

When a change to the rules or the engine changes a fight on purpose, regenerate
the files with ``python scripts/update_golden.py`` and read the diff.

The rule tests below read the fights as the engine plays them now (the module's
``played`` fixture runs each example once), not the stored files: they check
what the rules do, and ``test_golden_fight`` checks that it is still the golden.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conteur.cli import app

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
GOLDEN = Path(__file__).resolve().parent / "golden"
NAMES = ("saloon", "fusillade", "vampires")
REGENERATE = "python scripts/update_golden.py"

runner = CliRunner()

Played = dict[str, dict[str, Any]]
"""Each example as played now, by name (the ``played`` fixture)."""


@contextmanager
def at_root() -> Iterator[None]:
    """The golden files store paths as typed from the repository's root."""
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        yield
    finally:
        os.chdir(here)


@pytest.fixture(autouse=True)
def _at_root() -> Iterator[None]:
    with at_root():
        yield


@pytest.fixture(scope="module")
def played() -> Played:
    """Each example played now by the engine with its typed dice (``--json``), by name."""
    out: Played = {}
    with at_root():
        for name in NAMES:
            result = play(name, "--json")
            assert result.exit_code == 0, result.output
            out[name] = json.loads(result.stdout)
    return out


def play(name: str, *extra: str) -> Any:
    args = ["play", f"examples/{name}.yaml", "--script", f"examples/{name}.txt"]
    args += ["--dice", f"examples/{name}.dice", *extra]
    return runner.invoke(app, args)


def golden(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    return data


def events(fight: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for entry in fight["log"] for e in entry.get("events", [])]


def test_every_example_has_a_script_dice_and_golden_file() -> None:
    scenarios = sorted(p.stem for p in EXAMPLES.glob("*.yaml"))
    assert set(NAMES) <= set(scenarios)
    for name in scenarios:
        for path in (EXAMPLES / f"{name}.txt", EXAMPLES / f"{name}.dice", GOLDEN / f"{name}.json"):
            assert path.exists(), f"{path} is missing ({REGENERATE} writes the golden file)"


@pytest.mark.parametrize("name", NAMES)
def test_golden_fight(name: str, played: Played) -> None:
    """The example gives exactly the stored log and final state."""
    assert played[name] == golden(name), f"{name} changed: if on purpose, run {REGENERATE}"


@pytest.mark.parametrize("name", NAMES)
def test_golden_dice_are_all_used(name: str, played: Played) -> None:
    """Each typed face is used: the dice file and the script match exactly."""
    assert played[name]["dice_left"] == 0


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_examples_play_in_prose(name: str, lang: str) -> None:
    result = play(name, "--lang", lang)
    assert result.exit_code == 0, result.output
    header = {"fr": "Tour 1 : initiative", "en": "Turn 1: initiative"}[lang]
    final = {"fr": "État final", "en": "Final state"}[lang]
    assert header in result.stdout and final in result.stdout


# ------------------------------------------------------------------ what the examples show


def test_V_INI_3_examples_declare_slowest_first(played: Played) -> None:
    """V-INI-3: in every turn of every example, declarations come in reverse initiative order."""
    for name in NAMES:
        log = played[name]["log"]
        order: list[str] = []
        for entry in log:
            for e in entry.get("events", []):
                if e["type"] == "InitiativeOrdered":
                    order = [fid for rank in e["order"] for fid in rank]
                    declared: list[str] = []
                if e["type"] == "ActionDeclared":
                    declared.append(e["fighter"])
                    assert declared == order[::-1][: len(declared)], name


def test_V_INI_5_saloon_delayed_action_interrupts(played: Played) -> None:
    """V-INI-5: Sam delays, then acts after his rank, before the slower Billy."""
    log = played["saloon"]["log"]
    taken = [
        (e["fighter"], e["rules"]) for x in log for e in x["events"] if e["type"] == "ActionTaken"
    ]
    sam = taken.index(("sam", ["V-INI-5"]))
    assert taken[sam + 1][0] == "billy"


def test_V_MAN_3_abort_to_dodge_with_willpower_point_and_roll(played: Played) -> None:
    """V-MAN-3: Billy spends a Willpower point, the Mouflon rolls Willpower, each to dodge."""
    saloon = [e for e in events(played["saloon"]) if e["type"] == "DefenceAnnounced"]
    assert any(e["fighter"] == "billy" and e["via"] == "abort_point" for e in saloon)
    assert any(
        e["type"] == "WillpowerSpent" and e["reason"] == "abort" for e in events(played["saloon"])
    )
    fusillade = [e for e in events(played["fusillade"]) if e["type"] == "DefenceAnnounced"]
    assert any(e["fighter"] == "mouflon" and e["via"] == "abort_roll" for e in fusillade)


def test_V_DEF_3_V_DEF_5_block_and_parry(played: Played) -> None:
    """V-DEF-3 / V-DEF-5: Jack blocks a punch, Sam parries with his club, Varney blocks a sword."""
    rolled = [
        (e["defender"], e["kind"])
        for n in NAMES
        for e in events(played[n])
        if e["type"] == "DefenceRolled"
    ]
    assert ("jack", "block") in rolled and ("sam", "parry") in rolled
    assert ("varney", "block") in rolled  # lethal blade, blocked thanks to Fortitude (V-DEF-3)


def test_V_MAN_1_multiple_actions_lose_dice(played: Played) -> None:
    """V-MAN-1: Morel's two shots lose 2 then 3 dice."""
    shots = [
        e
        for e in events(played["fusillade"])
        if e["type"] == "AttackRolled" and e["attacker"] == "morel"
    ]
    pools = [e["pool"] for e in shots]
    assert pools[:2] == [2, 1]  # Dex 2 + Firearms 2 = 4, less 2, then less 3


def test_V_RNG_1_aim_over_two_turns(played: Played) -> None:
    """V-RNG-1: two turns of aim add two dice to Gaspard's shot."""
    aims = [e["turns"] for e in events(played["fusillade"]) if e["type"] == "Aimed"]
    assert aims == [1, 2]
    shot = next(
        e
        for e in events(played["fusillade"])
        if e["type"] == "AttackRolled" and e["attacker"] == "gaspard"
    )
    assert ["aim", 2] in shot["modifiers"] and "V-RNG-1" in shot["rules"]


def test_V_RNG_7_reloading(played: Played) -> None:
    """V-RNG-7: Nini, one round left, reloads her revolver."""
    nini = [
        e["rounds"]
        for e in events(played["fusillade"])
        if e["type"] == "AmmoChanged" and e["fighter"] == "nini"
    ]
    assert nini == [0, 6]  # her last round fired, then the revolver reloaded
    assert any(
        "V-RNG-7" in e["rules"] for e in events(played["fusillade"]) if e["type"] == "AmmoChanged"
    )
    assert played["fusillade"]["state"][3]["ammo"] == {"heavy_revolver": 6}


def test_V_RNG_3_cover_on_both_sides(played: Played) -> None:
    """V-RNG-3: the Mouflon, in good cover, shoots Morel in light cover: +1 and +1."""
    shot = [
        e
        for e in events(played["fusillade"])
        if e["type"] == "AttackRolled" and e["attacker"] == "mouflon"
    ][1]
    assert ["target_cover_light", 1] in shot["modifiers"]
    assert ["own_cover_good", 1] in shot["modifiers"]
    assert shot["difficulty"] == 10  # 6, long range +2, light cover +1, his own good cover +1
    assert any(
        e["type"] == "CoverTaken" and e["fighter"] == "morel" for e in events(played["fusillade"])
    )


def test_V_ATK_5_botch_and_complication(played: Played) -> None:
    """V-ATK-5: Billy botches; the Conteur picks the complication."""
    kinds = [e["type"] for e in events(played["saloon"])]
    assert kinds.index("Botched") < kinds.index("ComplicationChosen")


def test_V_MAN_2_celerity_and_V_SOAK_2_fortitude(played: Played) -> None:
    """V-MAN-2: Lucrèce spends blood for a Celerity action; V-SOAK-2: Varney soaks with 7 dice."""
    evs = events(played["vampires"])
    assert any(e["type"] == "BloodSpent" and e["reason"] == "celerity" for e in evs)
    soaks = [e["pool"] for e in evs if e["type"] == "SoakRolled" and e["target"] == "varney"]
    assert soaks and all(p == 7 for p in soaks)  # Stamina 4 + Fortitude 3


def test_V_CC_7_V_CC_10_grapple_bite_and_break_free(played: Played) -> None:
    """V-CC-7 / V-CC-10: Varney grapples Lucrèce, bites her the next turn (aggravated),
    and she breaks free with more successes on the resisted Strength + Brawl roll."""
    evs = events(played["vampires"])
    kinds = [e["type"] for e in evs]
    attacks = [(e["attacker"], e["maneuver"]) for e in evs if e["type"] == "AttackRolled"]
    assert attacks.index(("varney", "grapple")) < attacks.index(("varney", "bite"))
    assert kinds.index("Locked") < kinds.index("BreakFreeRolled") < kinds.index("LockEnded")
    bite = [e for e in evs if e["type"] == "DamageRolled"][-1]
    assert bite["damage_type"] == "aggravated"
    escape = next(e for e in evs if e["type"] == "BreakFreeRolled")
    assert escape["fighter"] == "lucrece" and escape["free"]


def test_V_CC_9_a_sword_keeps_bare_hands_at_bay(played: Played) -> None:
    """V-CC-9: Varney, bare-handed against Lucrèce's sword, loses a die on his claws and grapple."""
    varney = [
        e
        for e in events(played["vampires"])
        if e["type"] == "AttackRolled" and e["attacker"] == "varney"
    ]
    assert all("V-CC-9" in e["rules"] for e in varney[:2])
