"""Rolls of H-XP-2 counted from encounter logs in the stored format (H-EXC-1, H-XP-2)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from typer.testing import CliRunner

from conteur.cli import app
from conteur.i18n import ConteurError
from conteur.rulesets.hunter.xp_log import (
    count_encounter,
    count_log,
    read_log,
    replay,
    scenario_kinds,
)
from conteur.rulesets.hunter.xp_session import EncounterRef, FighterKind

from .xp_logs import attack, undo

KINDS: dict[str, FighterKind] = {
    "margot": "hunter",
    "lucien": "hunter",
    "boucher": "monster",
    "gamin": "bystander",
}

FIVE = "8,9,10,8,2,3,4,8"  # seven dice: 8, 9, 10 (again: 8), 8 -> five successes
FOUR = "8,9,10,2,2,3,4,8"  # seven dice: 8, 9, 10 (again: 8) -> four successes
DRAMATIC = "1,4,6"  # three dice, no success, a 1


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def played_vampires() -> dict[str, Any]:
    """The report of the vtm example fight played by ``conteur play --json``."""
    result = CliRunner().invoke(
        app,
        [
            "play",
            str(EXAMPLES / "vampires.yaml"),
            "--script",
            str(EXAMPLES / "vampires.txt"),
            "--dice",
            str(EXAMPLES / "vampires.dice"),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert isinstance(report, dict)
    return report


def counted(*entries: dict[str, Any]) -> tuple[int, int]:
    result = count_log(entries, KINDS, "fight.json")
    return result.exceptional_successes, result.dramatic_failures


def test_H_EXC_1_five_successes_by_a_hunter_against_a_monster_count() -> None:
    assert counted(attack(0, "margot", "boucher", 7, FIVE)) == (1, 0)


def test_H_EXC_1_four_successes_are_not_exceptional() -> None:
    assert counted(attack(0, "margot", "boucher", 7, FOUR)) == (0, 0)


def test_H_EXC_1_ten_again_successes_count_toward_the_five() -> None:
    """Six dice: 10, 10, 8 and the again-dice 8, 9: five successes."""
    assert counted(attack(0, "lucien", "boucher", 6, "10,10,8,2,3,4,8,9")) == (1, 0)


def test_H_XP_2_each_exceptional_success_counts() -> None:
    log = [attack(0, "margot", "boucher", 7, FIVE), attack(1, "lucien", "boucher", 7, FIVE)]
    assert counted(*log) == (2, 0)


def test_H_XP_2_an_exceptional_success_against_a_bystander_does_not_count() -> None:
    """H-XP-2: only rolls directly against a monster."""
    assert counted(attack(0, "margot", "gamin", 7, FIVE)) == (0, 0)


def test_H_XP_2_an_exceptional_success_against_another_hunter_does_not_count() -> None:
    assert counted(attack(0, "margot", "lucien", 7, FIVE)) == (0, 0)


def test_H_XP_2_the_monsters_own_exceptional_success_does_not_count() -> None:
    assert counted(attack(0, "boucher", "margot", 7, FIVE)) == (0, 0)


def test_H_XP_2_a_hunters_dramatic_failure_counts_whatever_the_target() -> None:
    log = [attack(0, "lucien", "boucher", 3, DRAMATIC), attack(1, "margot", "gamin", 3, DRAMATIC)]
    assert counted(*log) == (0, 2)


def test_H_XP_2_a_dramatic_failure_on_a_chance_die_counts() -> None:
    assert counted(attack(0, "margot", "boucher", 0, "1")) == (0, 1)


def test_H_XP_2_the_monsters_dramatic_failure_does_not_count() -> None:
    assert counted(attack(0, "boucher", "lucien", 3, DRAMATIC)) == (0, 0)


def test_H_XP_2_an_undone_command_does_not_count() -> None:
    log = [
        attack(0, "margot", "boucher", 7, FIVE),
        attack(1, "lucien", "boucher", 3, DRAMATIC),
        undo(2, 1),
        undo(3, 0),
        attack(4, "margot", "boucher", 7, FOUR),
    ]
    assert counted(*log) == (0, 0)


def test_H_XP_2_rolls_of_other_systems_are_ignored() -> None:
    """An initiative d10 (``expr``) is no hunter pool: no kind needed, nothing counted."""
    entry = {
        "kind": "command",
        "seq": 0,
        "command": {"type": "initiative", "actor": None, "args": {}},
        "events": [
            {
                "type": "InitiativeRolled",
                "rules": [],
                "rolls": [
                    {
                        "kind": "expr",
                        "request": {"count": 1, "sides": 10, "modifier": 0},
                        "faces": [1],
                        "result": {"total": 1},
                    }
                ],
                "fighter": "stranger",
            }
        ],
    }
    assert counted(entry) == (0, 0)


def test_H_XP_2_a_roller_of_unknown_kind_is_refused_in_both_languages() -> None:
    with pytest.raises(ConteurError) as caught:
        counted(attack(0, "inconnu", "boucher", 3, DRAMATIC))
    assert caught.value.rule == "H-XP-2"
    assert "« inconnu »" in caught.value.message("fr") and "combattants" in caught.value.message(
        "fr"
    )
    assert "'inconnu'" in caught.value.message("en") and "fighters" in caught.value.message("en")


# ------------------------------------------------------------------ stored formats


def test_a_log_is_read_as_a_json_array_or_json_lines(tmp_path: Path) -> None:
    log = [attack(0, "margot", "boucher", 7, FIVE), undo(1, 0)]
    array, lines = tmp_path / "a.json", tmp_path / "b.jsonl"
    array.write_text(json.dumps(log), encoding="utf-8")
    lines.write_text("\n".join(json.dumps(e) for e in log) + "\n", encoding="utf-8")
    assert read_log(array) == read_log(lines) == log


def test_a_conteur_play_json_report_is_read(tmp_path: Path) -> None:
    """The report of a real fight played with ``conteur play --json`` (vtm rolls: none counted)."""
    report = played_vampires()
    path = tmp_path / "vampires.json"
    path.write_text(json.dumps(report), encoding="utf-8")
    entries = read_log(path)
    assert len(entries) == len(report["log"]) > 0
    assert count_log(entries, {}, "vampires.json").dramatic_failures == 0


def test_a_file_that_is_no_log_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"a": 1}', encoding="utf-8")
    with pytest.raises(ConteurError) as caught:
        read_log(path)
    assert caught.value.key == "xp.log.not_a_log"
    assert "not an encounter log" in caught.value.message("en")
    path.write_text('[{"kind": "command"}, {"seq": 3}]', encoding="utf-8")
    with pytest.raises(ConteurError) as caught:
        read_log(path)
    assert "entrée 2" in caught.value.message("fr")


def test_kinds_come_from_the_scenario_sheets_and_the_summary(tmp_path: Path) -> None:
    (tmp_path / "s.yaml").write_text(
        "ruleset: hunter\ncombatants:\n"
        "  - {id: boucher, sheet: {nom: Le boucher, type: monstre}}\n"
        "  - {id: gamin, kind: passant}\n"
        "  - {id: margot, sheet: {type: chasseur}}\n",
        encoding="utf-8",
    )
    assert scenario_kinds(tmp_path / "s.yaml") == {
        "boucher": "monster",
        "gamin": "bystander",
        "margot": "hunter",
    }
    (tmp_path / "f.json").write_text(
        json.dumps(
            [attack(0, "lucien", "boucher", 7, FIVE), attack(1, "lucien", "gamin", 7, FIVE)]
        ),
        encoding="utf-8",
    )
    ref = EncounterRef.model_validate({"journal": "f.json", "scénario": "s.yaml"})
    with pytest.raises(ConteurError):  # lucien is in no scenario: his kind is unknown
        count_encounter(ref, [], tmp_path)
    assert count_encounter(ref, ["lucien"], tmp_path).exceptional_successes == 1
    ref = EncounterRef.model_validate(
        {"journal": "f.json", "scénario": "s.yaml", "combattants": {"gamin": "monstre"}}
    )
    assert count_encounter(ref, ["lucien"], tmp_path).exceptional_successes == 2


def test_a_hunter_scenario_names_kinds_on_the_combatant_and_defaults_to_hunter(
    tmp_path: Path,
) -> None:
    """The hunter sheet: ``type``/``nature``/``kind`` on the combatant; none means a hunter."""
    (tmp_path / "h.yaml").write_text(
        "ruleset: hunter\ncombatants:\n"
        "  - {id: boucher, nom: Le boucher, type: Monstre}\n"
        "  - {id: gamin, nature: passant}\n"
        "  - {id: margot, nom: Margot}\n",
        encoding="utf-8",
    )
    assert scenario_kinds(tmp_path / "h.yaml") == {
        "boucher": "monster",
        "gamin": "bystander",
        "margot": "hunter",
    }
    (tmp_path / "v.yaml").write_text(
        "ruleset: vtm\ncombatants:\n  - {id: lucrece, sheet: {type: vampire}}\n",
        encoding="utf-8",
    )
    assert scenario_kinds(tmp_path / "v.yaml") == {}


# ------------------------------------------------------------------ replaying a script


def test_a_script_replayed_gives_the_log_conteur_play_writes() -> None:
    """``scénario`` + ``script`` + ``dés``: the same entries as ``conteur play --json``."""
    stored = [
        {k: v for k, v in e.items() if k not in ("line", "text")} for e in played_vampires()["log"]
    ]
    ref = EncounterRef.model_validate(
        {"scénario": "vampires.yaml", "script": "vampires.txt", "dés": "vampires.dice"}
    )
    assert replay(ref, EXAMPLES) == stored
    assert count_encounter(ref, [], EXAMPLES).log == "vampires.txt"


def test_a_replay_needs_scenario_script_and_dice() -> None:
    for raw in (
        {"scénario": "a.yaml", "script": "a.txt"},
        {},
        {"journal": "a.json", "script": "a"},
    ):
        with pytest.raises(ValidationError):
            EncounterRef.model_validate(raw)


def test_a_script_line_refused_on_replay_names_the_line(tmp_path: Path) -> None:
    shutil.copy(EXAMPLES / "vampires.yaml", tmp_path)
    (tmp_path / "s.txt").write_text("initiative\n\nlucrece: danse\n", encoding="utf-8")
    (tmp_path / "d.dice").write_text("6 4\n", encoding="utf-8")
    ref = EncounterRef.model_validate(
        {"scénario": "vampires.yaml", "script": "s.txt", "dés": "d.dice"}
    )
    with pytest.raises(ConteurError) as caught:
        count_encounter(ref, [], tmp_path)
    assert caught.value.message("fr").startswith("script « s.txt », ligne 3 : ")
    assert caught.value.message("en").startswith("script 's.txt', line 3: ")
