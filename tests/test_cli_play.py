"""``conteur play``: a scenario and a script, played with the program's or the table's dice."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conteur.cli import app

runner = CliRunner()

SCENARIO = """
ruleset: vtm
combatants:
  - {id: ann, side: a, position: [0, 0], sheet: {nom: Ann, Dextérité: 3, Astuce: 3, Bagarre: 2, Vigueur: 2}}
  - {id: bob, side: b, position: [1, 0], sheet: {name: Bob, dexterity: 2, wits: 1, brawl: 1, stamina: 2}}
"""

# Ann 3+6 = 9 and Bob 2+3 = 5: Bob declares first, Ann acts first.
SCRIPT = """\
# un petit combat
initiative
bob: déclare coup de poing sur ann
ann: déclare coup de poing sur bob
ann: agit
bob: agit
"""

DICE = """\
# initiative
3, 2
# Ann frappe : 2 succès
8 7 3 2 4
# dégâts (Force 1 + 1) ; Bob absorbe (Vigueur 2)
6 6
2 3
# Bob, blessé (-1), frappe : raté
3 3
"""


def files(
    tmp_path: Path, script: str = SCRIPT, dice: str | None = DICE, scenario: str = SCENARIO
) -> list[str]:
    (tmp_path / "fight.yaml").write_text(scenario, encoding="utf-8")
    (tmp_path / "fight.txt").write_text(script, encoding="utf-8")
    args = [str(tmp_path / "fight.yaml"), "--script", str(tmp_path / "fight.txt")]
    if dice is not None:
        (tmp_path / "fight.dice").write_text(dice, encoding="utf-8")
        args += ["--dice", str(tmp_path / "fight.dice")]
    return args


def play(*args: str) -> Any:
    return runner.invoke(app, ["play", *args])


def test_prose_in_french_by_default(tmp_path: Path) -> None:
    result = play(*files(tmp_path))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Tour 1 : initiative (V-GEN-3)" in out
    assert "» bob: déclare coup de poing sur ann" in out
    assert "Ann : initiative 3 + 6 = 9 (V-INI-1)" in out
    assert "Bob déclare : Coup de poing → Ann (V-INI-3)" in out
    # The pool said part by part (the breakdown the table was asked), then the difficulty.
    assert (
        "Ann attaque Bob (Coup de poing) : Dextérité 3 + Bagarre 2 = 5 dés à difficulté 6"
        " → 2 succès" in out
    )
    assert "Bob absorbe : Vigueur 2 = 2 dés → 0 succès" in out
    assert "Bagarre 1 − blessures 1 = 2 dés à difficulté 6 → 0 succès (" in out  # said once
    assert "Bob perd 2 niveaux de santé (contondants)" in out
    assert "État final" in out and "Bob : santé [/][/][ ]" in out
    assert "Volonté 5/5" in out


def test_prose_in_english(tmp_path: Path) -> None:
    result = play(*files(tmp_path), "--lang", "en")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Turn 1: initiative (V-GEN-3)" in out
    assert "Bob declares: Punch → Ann (V-INI-3)" in out
    assert "Final state" in out and "Bob: health [/][/][ ]" in out and "Willpower 5/5" in out


def test_quiet_events_are_left_out_of_the_prose(tmp_path: Path) -> None:
    result = play(*files(tmp_path))
    assert "Déclarations : rang suivant" not in result.stdout  # DeclarationCursor is quiet
    assert "Rang 0 terminé" not in result.stdout


def test_json_log_and_state(tmp_path: Path) -> None:
    result = play(*files(tmp_path), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["ruleset"] == "vtm" and data["seed"] is None and data["dice_left"] == 0
    lines = [entry["line"] for entry in data["log"]]
    assert lines == [2, 3, 4, 5, 6]
    first = data["log"][0]
    assert first["text"] == "initiative" and first["command"]["type"] == "initiative"
    assert [e["type"] for e in first["events"]][:2] == ["TurnStarted", "InitiativeRolled"]
    bob = next(f for f in data["state"] if f["id"] == "bob")
    assert bob["health"] == "[/][/][ ][ ][ ][ ][ ]" and bob["willpower"] == "5/5"


def test_seed_7_plays_a_whole_example_twice_alike() -> None:
    """A full example with the program's dice: the same seed, the same story (or the same stop)."""
    root = Path(__file__).resolve().parents[1] / "examples"
    args = [str(root / "saloon.yaml"), "--script", str(root / "saloon.txt"), "--seed", "7"]
    first, second = play(*args), play(*args)
    assert first.exit_code == second.exit_code
    assert first.stdout == second.stdout and first.stderr == second.stderr


def test_dice_running_short_stop_at_the_line(tmp_path: Path) -> None:
    """A command whose dice run short is refused whole; the error names its line; exit 2."""
    short = DICE.replace("6 6\n2 3\n", "6\n")
    result = play(*files(tmp_path, dice=short))
    assert result.exit_code == 2
    assert "ligne 5" in result.stderr and "pas assez de dés" in result.stderr
    assert "» ann: déclare coup de poing sur bob" in result.stdout  # what came before is shown
    data = json.loads(play(*files(tmp_path, dice=short), "--json").stdout)
    assert data["error"]["line"] == 5 and data["error"]["error"] == "dice.too_few"
    assert [e["line"] for e in data["log"]] == [2, 3, 4]  # nothing of line 5 applied
    bob = next(f for f in data["state"] if f["id"] == "bob")
    assert bob["health"] == "[ ][ ][ ][ ][ ][ ][ ]"


def test_a_line_not_understood_names_the_line_and_the_word(tmp_path: Path) -> None:
    script = SCRIPT.replace("ann: agit", "ann: agitt")
    result = play(*files(tmp_path, script=script))
    assert result.exit_code == 2
    assert (
        "ligne 5" in result.stderr and "« agitt »" in result.stderr and "« agit »" in result.stderr
    )
    english = play(*files(tmp_path, script=script), "--lang", "en")
    assert "line 5" in english.stderr and '"agitt"' in english.stderr


def test_a_command_the_rules_refuse_names_the_line(tmp_path: Path) -> None:
    script = SCRIPT.replace(
        "bob: déclare coup de poing sur ann\nann", "ann: déclare coup de poing sur bob\nbob"
    )
    result = play(*files(tmp_path, script=script))
    # Ann's early declaration only waits its turn (V-INI-3); Bob attacking himself is refused.
    assert result.exit_code == 2
    assert "ligne 4" in result.stderr and "[V-GEN-1]" in result.stderr


def test_undo_takes_back_the_last_command(tmp_path: Path) -> None:
    script = SCRIPT.replace("bob: agit\n", "bob: agit\nannuler\n")
    result = play(*files(tmp_path, script=script))
    assert result.exit_code == 0, result.output
    assert "↶ annulé : ligne 6 (« bob: agit »)" in result.stdout
    data = json.loads(play(*files(tmp_path, script=script), "--json").stdout)
    assert data["log"][-1]["kind"] == "undo" and data["log"][-1]["line"] == 7
    # The two faces of Bob's punch were rolled, then taken back with the command.
    assert data["dice_left"] == 0


def test_missing_files_and_bad_scenarios(tmp_path: Path) -> None:
    args = files(tmp_path)
    result = play(str(tmp_path / "absent.yaml"), *args[1:])
    assert result.exit_code == 2 and "absent.yaml" in result.stderr
    bad = files(tmp_path, scenario="ruleset: [vtm\n")
    assert play(*bad).exit_code == 2
    unknown = files(tmp_path, scenario="ruleset: chess\ncombatants: []\n")
    result = play(*unknown)
    assert result.exit_code == 2 and "chess" in result.stderr


@pytest.mark.parametrize("flag", [[], ["--json"]])
def test_sheets_in_files_beside_the_scenario(tmp_path: Path, flag: list[str]) -> None:
    (tmp_path / "ann.yaml").write_text(
        "nom: Ann\nDextérité: 3\nAstuce: 3\nBagarre: 2\nVigueur: 2\n", encoding="utf-8"
    )
    scenario = SCENARIO.replace(
        "sheet: {nom: Ann, Dextérité: 3, Astuce: 3, Bagarre: 2, Vigueur: 2}", "sheet: ann.yaml"
    )
    result = play(*files(tmp_path, scenario=scenario), *flag)
    assert result.exit_code == 0, result.output


def test_scenario_state_in_french_words(tmp_path: Path) -> None:
    """Health marks and cover may be written in words, French or English."""
    scenario = SCENARIO.replace(
        "position: [1, 0], sheet",
        "position: [1, 0], cover: bon, health: [létal, contondant], sheet",
    )
    result = play(*files(tmp_path, scenario=scenario, script="mj: note début\n", dice=""), "--json")
    assert result.exit_code == 0, result.output
    bob = next(f for f in json.loads(result.stdout)["state"] if f["id"] == "bob")
    assert bob["cover"] == 2 and bob["health"] == "[/][/][ ][ ][ ][ ][ ]"


ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_SEEDS = {"saloon": 35, "fusillade": 8, "vampires": 1}
"""The seed written at the top of each example script: the program's dice play it to the end."""


@pytest.mark.parametrize("name", sorted(EXAMPLE_SEEDS))
def test_each_example_plays_to_the_end_identically_twice_with_its_seed(name: str) -> None:
    """Same seed, same fight: each shipped example plays whole, twice, with the same output."""
    script = ROOT / "examples" / f"{name}.txt"
    assert f"--seed {EXAMPLE_SEEDS[name]}" in script.read_text(encoding="utf-8")
    args = [
        "play",
        str(ROOT / "examples" / f"{name}.yaml"),
        "--script",
        str(script),
        "--seed",
        str(EXAMPLE_SEEDS[name]),
        "--json",
    ]
    first = CliRunner().invoke(app, args)
    second = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    assert first.stdout == second.stdout


def test_a_line_written_before_its_turn_waits_for_it(tmp_path: Path) -> None:
    """V-INI-3, V-INI-4: a declaration or action written out of initiative order waits its turn."""
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        "ruleset: vtm\ncombatants:\n"
        "  - {id: ann, side: a, position: [0, 0], dexterity: 3, wits: 3, brawl: 1}\n"
        "  - {id: bob, side: b, position: [1, 0], dexterity: 1, wits: 1, brawl: 1}\n",
        encoding="utf-8",
    )
    script = tmp_path / "s.txt"
    # Ann is faster (10 + 6 against 1 + 2): the script lists her first anyway.
    script.write_text(
        "initiative\nann: déclare coup de poing sur bob\nbob: déclare coup de poing sur ann\n"
        "bob: agit\nann: agit\n",
        encoding="utf-8",
    )
    dice = tmp_path / "s.dice"
    dice.write_text("10 1\n2 2 2 2\n2 2\n", encoding="utf-8")
    result = CliRunner().invoke(
        app, ["play", str(scenario), "--script", str(script), "--dice", str(dice), "--json"]
    )
    assert result.exit_code == 0, result.output
