"""The western examples: golden fights, prose in both languages, seeds, odds, script words."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conteur.cli import app
from conteur.engine import Command, Encounter
from conteur.i18n import ConteurError

from .fight import gunman

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "western"
NAMES = ("duel", "saloon", "guard")
SEEDS = {"duel": 32, "saloon": 13, "guard": 3}
runner = CliRunner()


@pytest.fixture(autouse=True)
def _at_root() -> Iterator[None]:
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        yield
    finally:
        os.chdir(here)


def play(name: str, *extra: str) -> Any:
    args = ["play", f"examples/western/{name}.yaml", "--script", f"examples/western/{name}.txt"]
    return runner.invoke(app, [*args, *extra], env={"CONTEUR_LANG": None})


def golden(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def played() -> dict[str, dict[str, Any]]:
    """Each example played now by the engine with its typed dice (``--json``), by name."""
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        results = {n: play(n, "--dice", f"examples/western/{n}.dice", "--json") for n in NAMES}
    finally:
        os.chdir(here)
    for result in results.values():
        assert result.exit_code == 0, result.output
    return {name: json.loads(result.stdout) for name, result in results.items()}


def events_of(fight: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for entry in fight["log"] for e in entry.get("events", [])]


@pytest.mark.parametrize("name", NAMES)
def test_golden_fight(name: str, played: dict[str, dict[str, Any]]) -> None:
    """The example with its typed dice gives exactly the stored log (scripts/update_golden.py)."""
    assert played[name] == golden(name)
    assert played[name]["dice_left"] == 0


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_examples_play_in_prose_and_with_a_seed(name: str, lang: str) -> None:
    result = play(name, "--seed", str(SEEDS[name]), "--lang", lang)
    assert result.exit_code == 0, result.output
    assert {"fr": "État final", "en": "Final state"}[lang] in result.stdout


def test_W_CRIT_2_duel_shows_bills_critical(played: dict[str, dict[str, Any]]) -> None:
    """W-CRIT-2: in the duel, Bill's 4 at 56 % moves the hand to the forearm."""
    shifted = [e for e in events_of(played["duel"]) if e["type"] == "LocationShifted"]
    assert [(e["rolled"], e["zone"], e["margin"]) for e in shifted] == [
        ("right_hand", "right_forearm", 52)
    ]


def test_W_REP_1_duel_ends_with_reputation(played: dict[str, dict[str, Any]]) -> None:
    """W-REP-1: Jack's reputation 12 (> 10) is worth +2 to Bill, with witnesses."""
    gained = [e for e in events_of(played["duel"]) if e["type"] == "ReputationGained"]
    assert [(e["fighter"], e["amount"], e["total"]) for e in gained] == [("bill", 2, 8)]


def test_odds_attack_cli(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        [
            "odds",
            "attack",
            "examples/western/duel.yaml",
            "--attacker",
            "bill",
            "--target",
            "jack",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["p_hit"] == pytest.approx(0.56) and data["skill"] == "aimed_pistol"
    text = runner.invoke(
        app,
        ["odds", "attack", "examples/western/duel.yaml", "--attacker", "bill", "--target", "jack"],
    )
    assert text.exit_code == 0, text.output


# ------------------------------------------------------------------ script words


def enc() -> Encounter:
    return Encounter.start(
        {"ruleset": "western", "combatants": [gunman("bill"), gunman("joe", side="cowboys", x=10)]}
    )


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("round", Command("round")),
        ("nouveau round", Command("round")),
        ("annuler", Command("undo")),
        ("bill: tire sur joe", Command("attack", "bill", {"target": "joe"})),
        ("bill: shoots joe", Command("attack", "bill", {"target": "joe"})),
        (
            "bill: tire sur joe vise tête mod -10",
            Command("attack", "bill", {"target": "joe", "zone": "head", "modifier": -10}),
        ),
        (
            "bill: shoots joe aims at left hand",
            Command("attack", "bill", {"target": "joe", "zone": "left_hand"}),
        ),
        ("bill: frappe joe", Command("attack", "bill", {"target": "joe"})),
        ("bill: passe", Command("pass", "bill")),
        ("bill: reloads", Command("reload", "bill")),
        (
            "mj: surprise joe attaqué",
            Command("surprise", None, {"target": "joe", "surprise": "attacked"}),
        ),
        (
            "gm: surprise joe sudden",
            Command("surprise", None, {"target": "joe", "surprise": "sudden"}),
        ),
        (
            "bill: assomme joe avec colt_saa",
            Command("knockout", "bill", {"target": "joe", "weapon": "colt_saa"}),
        ),
        ("bill: knocks out joe", Command("knockout", "bill", {"target": "joe"})),
        ("mj: ligote joe", Command("bind", None, {"target": "joe"})),
        (
            "mj: duel gagné par cowboys sans témoin",
            Command("duel_won", None, {"side": "cowboys", "witness": False}),
        ),
        (
            "gm: duel won by bill witnessed",
            Command("duel_won", None, {"side": "bill", "witness": True}),
        ),
        (
            "bill: approaches joe: night, silence",
            Command("approach", "bill", {"target": "joe", "modifiers": ["night", "silence"]}),
        ),
    ],
)
def test_script_words_fr_en(line: str, command: Command) -> None:
    e = enc()
    assert e.ruleset.parse_command(line, e.state) == command


@pytest.mark.parametrize(
    "line", ["bill: danse", "bill: tire sur personne", "bill: tire sur joe vise queue"]
)
def test_script_errors(line: str) -> None:
    e = enc()
    with pytest.raises(ConteurError) as err:
        e.ruleset.parse_command(line, e.state)
    assert err.value.message("fr") and err.value.message("en")


def test_a_verb_not_understood_is_named_with_the_closest_verbs() -> None:
    e = enc()
    with pytest.raises(ConteurError) as err:
        e.ruleset.parse_command("bill: recharj", e.state)
    assert err.value.key == "western.script.unknown_suggest"
    assert err.value.message("en") == (
        'Line not understood: "bill: recharj": "recharj" is not a command; did you mean "recharge"?'
    )
    with pytest.raises(ConteurError) as err:
        e.ruleset.parse_command("bill: xyzzy", e.state)
    assert err.value.key == "western.script.unknown"


@pytest.mark.parametrize(
    ("line", "command"),
    [
        # Accents and case are folded, a phrase may be written with dashes.
        ("BILL: Tire-Sur joe", Command("attack", "bill", {"target": "joe"})),
        ("mj: duel gagne par cowboys", Command("duel_won", None, {"side": "cowboys"})),
        (
            "mj: surprise joe ATTAQUE",
            Command("surprise", None, {"target": "joe", "surprise": "attacked"}),
        ),
    ],
)
def test_script_words_fold_accents_and_case(line: str, command: Command) -> None:
    e = enc()
    assert e.ruleset.parse_command(line, e.state) == command
