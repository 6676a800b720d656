"""``conteur xp hunter``: the shipped example session, French, English, JSON, refusals, errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import yaml
from typer.testing import CliRunner, Result

from conteur.cli import app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "hunter"
SESSION = EXAMPLES / "session-1.yaml"
runner = CliRunner()


def run(*args: str, lang_env: str | None = None) -> Result:
    return runner.invoke(
        app, ["xp", "hunter", *args], env={"CONTEUR_LANG": lang_env, "COLUMNS": "160"}
    )


def as_json(*args: str) -> dict[str, Any]:
    result = run(*args, "--json")
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    data["exit_code"] = result.exit_code
    return data


def edited(tmp_path: Path, change: dict[str, Any]) -> Path:
    """A copy of the example session (and its log) with some fields replaced."""
    shutil.copy(EXAMPLES / "session-1-journal.json", tmp_path)
    raw = yaml.safe_load(SESSION.read_text(encoding="utf-8"))
    raw.update(change)
    path = tmp_path / "session.yaml"
    path.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return path


# ------------------------------------------------------------------ the example


def test_H_XP_1_to_5_the_example_session_in_json() -> None:
    """examples/hunter/session-1.yaml: base 3 (H-XP-1); from the log 2 exceptional successes
    against the monster (the monster's own, one against the bystander and an undone one left
    out) and 2 dramatic failures, +1 stated (H-XP-2); +1+1+1+1+3-1-2 stated (H-XP-2); two
    things learned (H-XP-3): 14, split 6/5/3 and spent within the rules (H-XP-4, H-XP-5)."""
    data = as_json(str(SESSION))
    assert data["exit_code"] == 0
    assert set(data) >= {"base", "lines", "total", "split", "spending", "errors"}
    assert data["base"] == {"rule": "H-XP-1", "players": 2, "gm_hunters": 1, "points": 3}
    points = {x["key"]: (x["count"], x["points"]) for x in data["lines"] if x["rule"] == "H-XP-2"}
    assert points["exceptional_successes"] == (2, 2)
    assert points["dramatic_failures"] == (3, 3)
    assert points["creature_killed"] == (1, 3)
    assert points["bystander_hurt"] == (1, -1)
    assert points["derangements"] == (1, -2)
    assert points["creature_captured"] == (0, 0)
    learned = [x for x in data["lines"] if x["rule"] == "H-XP-3"]
    assert [x["points"] for x in learned] == [1, 1]
    assert data["encounters"] == [
        {"log": "session-1-journal.json", "exceptional_successes": 2, "dramatic_failures": 2}
    ]
    assert data["total"] == 14
    assert data["split"] == [
        {"player": "Alice", "points": 6},
        {"player": "Bruno", "points": 5},
        {"player": "abbe", "points": 3},
    ]
    alice, bruno, abbe = data["spending"]
    assert [p["cost"] for p in alice["purchases"]] == [3, 1]
    assert (alice["spent"], alice["banked"], alice["bank_after"]) == (4, 2, 2)
    assert (bruno["spent"], bruno["spent_from_bank"], bruno["bank_after"]) == (4, 4, 1)
    assert abbe["purchases"][0]["cost"] == 3
    assert data["errors"] == []


def test_the_example_breakdown_in_french() -> None:
    result = run(str(SESSION))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Expérience pratique — Le boucher de Saint-Ouen" in out
    assert "Base : 2 joueurs et 1 chasseur du MJ" in out
    assert "Succès exceptionnel contre un monstre (combat)" in out
    assert "Créature tuée, détruite ou rendue inoffensive pour de bon" in out
    assert "Appris : Le sel répandu sur le seuil l'arrête un tour." in out
    assert "H-XP-3" in out and "H-XP-2" in out and "H-XP-1" in out
    rows = [[c.strip() for c in line.split("│")[1:-1]] for line in out.splitlines()]
    award = [r for r in rows if len(r) == 4 and r[0].startswith("H-XP-")]
    assert ["", "Total", "", "14"] in rows  # base 3, adjustments +12 −3, learned +2
    # Signed with a true minus (U+2212), never ASCII « -1 ».
    assert [r[3] for r in award if r[3].startswith("\u2212")] == ["\u22121", "\u22122"]
    points = [int(r[3].replace("\u2212", "-")) for r in award]
    assert points == [3, 2, 3, 1, 1, 1, 1, 3, -1, -2, 1, 1]
    assert "Compétence Occultisme 0→1 (3)" in out
    assert "valide" in out and "refusé" not in out


def test_the_example_breakdown_in_english_by_option_and_by_environment() -> None:
    for result in (run(str(SESSION), "--lang", "en"), run(str(SESSION), lang_env="en")):
        assert result.exit_code == 0, result.output
        out = result.stdout
        assert "Practical experience — Le boucher de Saint-Ouen" in out
        assert "Base: 2 players and 1 GM-run hunter" in out
        assert "Creature killed, destroyed or made harmless for good" in out
        assert "Skill Occultisme 0→1 (3)" in out
        assert "valid" in out


def test_json_labels_follow_the_language() -> None:
    fr, en = as_json(str(SESSION)), as_json(str(SESSION), "--lang", "en")
    assert [x["key"] for x in fr["lines"]] == [x["key"] for x in en["lines"]]
    assert fr["lines"][1]["label"] == "Échec critique"
    assert en["lines"][1]["label"] == "Dramatic failure"


# ------------------------------------------------------------------ refusals (exit 1)


def test_H_XP_4_a_bad_split_is_shown_refused_with_exit_1(tmp_path: Path) -> None:
    path = edited(tmp_path, {"partage": {"Alice": {"part": 10, "en_banque": 10}}})
    result = run(str(path))
    assert result.exit_code == 1
    assert "Refus :" in result.stdout
    assert "[H-XP-4] le partage donne 10 points, la séance en rapporte 14" in result.stdout
    data = as_json(str(path), "--lang", "en")
    assert data["exit_code"] == 1
    assert data["errors"] == [
        {
            "rule": "H-XP-4",
            "key": "xp.refused.split_sum",
            "player": None,
            "message": "[H-XP-4] the split hands out 10 points, the session earned 14",
        }
    ]


def test_H_XP_4_and_H_XP_5_refusals_name_the_player(tmp_path: Path) -> None:
    split = {
        "Alice": {
            "part": 10,
            "banque_avant": 5,
            "en_banque": 10,
            "achats": [
                {"achat": "volonté", "points": 2, "banque": True},
                {"achat": "attribut", "trait": "Force", "coût": 0},
            ],
        },
        "Bruno": {"part": 4, "en_banque": 4},
    }
    path = edited(tmp_path, {"partage": split})
    result = run(str(path), "--lang", "en")
    assert result.exit_code == 1
    out = result.stdout
    assert "Alice: [H-XP-4] banked points only pay for tactics or training" in out
    assert "Alice: [H-XP-5] attributes are never bought with practical experience (Force)" in out
    assert "refused" in out
    data = as_json(str(path))
    assert [(e["rule"], e["player"]) for e in data["errors"]] == [
        ("H-XP-4", "Alice"),
        ("H-XP-5", "Alice"),
    ]
    assert data["spending"][0]["ok"] is False and data["spending"][1]["ok"] is True


def test_no_split_given_only_shows_the_award(tmp_path: Path) -> None:
    path = edited(tmp_path, {"partage": {}})
    result = run(str(path))
    assert result.exit_code == 0
    assert "Pas de partage indiqué : les joueurs se partagent 14 points." in result.stdout


# ------------------------------------------------------------------ input errors (exit 2)


def test_a_misspelt_field_is_named_in_both_languages(tmp_path: Path) -> None:
    path = edited(tmp_path, {"joueur": []})
    fr = run(str(path))
    assert fr.exit_code == 2
    assert "Résumé de séance, champ « joueur » : champ inconnu « joueur »" in fr.stderr
    en = run(str(path), "--lang", "en")
    assert "Session summary, field 'joueur': unknown field 'joueur'" in en.stderr


def test_a_bad_kind_of_fighter_is_named(tmp_path: Path) -> None:
    encounters = [{"journal": "session-1-journal.json", "combattants": {"boucher": "vampire"}}]
    data = as_json(str(edited(tmp_path, {"rencontres": encounters})), "--lang", "en")
    assert data["exit_code"] == 2
    assert data["error"] == "xp.bad_summary"
    assert "rencontres[1].combattants.boucher" in data["message"]
    assert "'vampire' is not a kind of fighter" in data["message"]


def test_a_fighter_left_without_a_kind_is_refused(tmp_path: Path) -> None:
    encounters = [{"journal": "session-1-journal.json", "combattants": {"boucher": "monstre"}}]
    result = run(str(edited(tmp_path, {"rencontres": encounters})))
    assert result.exit_code == 2
    assert "on ne sait pas si « gamin » est un chasseur, un monstre ou un passant" in result.stderr


def test_a_missing_log_is_an_error_naming_the_file(tmp_path: Path) -> None:
    path = edited(tmp_path, {"rencontres": [{"journal": "absent.json"}]})
    result = run(str(path), "--lang", "en")
    assert result.exit_code == 2
    assert "Cannot read" in result.stderr and "absent.json" in result.stderr


def test_a_missing_summary_is_an_error(tmp_path: Path) -> None:
    result = run(str(tmp_path / "nope.yaml"))
    assert result.exit_code == 2
    assert "Impossible de lire" in result.stderr


def test_names_and_traits_are_printed_as_written(tmp_path: Path) -> None:
    """Square brackets in a trait or a title are text, not Rich markup."""
    split = {
        "Alice": {"part": 14, "achats": [{"achat": "spécialité", "trait": "Occultisme [red]"}]},
    }
    path = edited(tmp_path, {"titre": "[bold]Cave", "partage": split})
    result = run(str(path))
    assert "Occultisme [red] (3)" in result.stdout
    assert "[bold]Cave" in result.stdout
