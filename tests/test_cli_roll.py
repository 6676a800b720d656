"""``conteur roll``: each command in French and English, JSON output, errors (exit 2)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from conteur.cli import app
from conteur.dice import record_from_dict

runner = CliRunner()


def run(*args: str, lang_env: str | None = None) -> Result:
    return runner.invoke(app, list(args), env={"CONTEUR_LANG": lang_env, "COLUMNS": "120"})


def ok(*args: str, lang_env: str | None = None) -> str:
    result = run(*args, lang_env=lang_env)
    assert result.exit_code == 0, result.output
    return result.stdout


def as_json(*args: str) -> dict[str, Any]:
    data = json.loads(ok(*args, "--json"))
    assert isinstance(data, dict)
    return data


# ------------------------------------------------------------------------ vtm


def test_vtm_french_shows_faces_successes_and_cancelling_ones() -> None:
    out = ok("roll", "vtm", "--pool", "7", "--difficulty", "6", "--dice", "10,1,6,5,4,3,2")
    assert "Vampire : la Mascarade — 7 dés à difficulté 6" in out
    assert "10  1  6  5  4  3  2" in out
    assert "10, 6 (2)" in out
    assert "un 1 annule le 6" in out
    assert "Résultat" in out and "1 succès" in out
    assert "saisis à la table" in out


def test_vtm_english_with_the_option_and_with_the_environment() -> None:
    args = ("roll", "vtm", "--pool", "7", "--difficulty", "6", "--dice", "10,1,6,5,4,3,2")
    for out in (ok(*args, "--lang", "en"), ok(*args, lang_env="en")):
        assert "Vampire: the Masquerade — 7 dice at difficulty 6" in out
        assert "a 1 cancels the 6" in out
        assert "1 success" in out
        assert "succès" not in out


def test_vtm_botch_and_plain_failure() -> None:
    botch = ok("roll", "vtm", "-p", "3", "--dice", "1 3 5")
    assert "échec critique (aucun succès et au moins un 1)" in botch
    assert "botch (no success and at least one 1)" in ok(
        "roll", "vtm", "-p", "3", "--dice", "1 3 5", "--lang", "en"
    )
    plain = ok("roll", "vtm", "-p", "3", "--dice", "2 3 5")
    assert "échec" in plain and "critique" not in plain


def test_vtm_clamped_difficulty_is_shown() -> None:
    out = ok("roll", "vtm", "-p", "3", "-d", "12", "--dice", "10 9 2")
    assert "difficulté 12 ramenée à 10" in out
    assert "difficulty 1 clamped to 2" in ok(
        "roll", "vtm", "-p", "3", "-d", "1", "--dice", "2 2 1", "--lang", "en"
    )
    data = as_json("roll", "vtm", "-p", "3", "-d", "12", "--dice", "10 9 2")
    assert data["clamped"] is True and data["effective_difficulty"] == 10
    assert data["request"]["difficulty"] == 12
    assert data["result"] == {"successes": 1, "botch": False}


def test_vtm_willpower_and_automatic_successes() -> None:
    out = ok("roll", "vtm", "-p", "3", "--willpower", "--dice", "1 1 2")
    assert "+1 succès automatique, que les 1 n'annulent pas" in out
    assert "1 succès" in out and "critique" not in out
    data = as_json("roll", "vtm", "-p", "3", "--willpower", "--auto", "2", "--dice", "8 1 1")
    assert data["request"]["auto"] == 3 and data["result"]["successes"] == 3


def test_V_DMG_4_damage_roll_from_the_command_line() -> None:
    """V-DMG-4: --damage rolls at least one die, 1s do not cancel, no botch."""
    data = as_json("roll", "vtm", "-p", "0", "--damage", "--dice", "1")
    assert data["request"]["min_one"] and not data["request"]["ones_cancel"]
    assert data["result"] == {"successes": 0, "botch": False}
    assert data["rules"] == ["V-DMG-4"]
    out = ok("roll", "vtm", "-p", "3", "--damage", "--dice", "6 1 1")
    assert "1 succès" in out and "n'annulent pas" in out and "V-DMG-4" in out
    # The table option: 1s cancel on damage too.
    cancel = as_json("roll", "vtm", "-p", "3", "--damage", "--cancel", "--dice", "6 1 1")
    assert cancel["result"] == {"successes": 0, "botch": False}


def test_V_SOAK_3_soak_roll_from_the_command_line() -> None:
    """V-SOAK-3: --soak never botches."""
    data = as_json("roll", "vtm", "-p", "2", "--soak", "--dice", "1 1")
    assert data["result"] == {"successes": 0, "botch": False}
    assert data["rules"] == ["V-SOAK-3"]


def test_vtm_no_cancel_and_no_botch_and_min_one_options() -> None:
    data = as_json("roll", "vtm", "-p", "2", "--no-cancel", "--no-botch", "--dice", "8 1")
    assert data["result"] == {"successes": 1, "botch": False}
    data = as_json("roll", "vtm", "-p", "0", "--min-one", "--dice", "1")
    assert data["rolled_dice"] == 1 and data["result"]["botch"] is True


def test_vtm_json_keys() -> None:
    data = as_json("roll", "vtm", "-p", "4", "--seed", "12")
    assert {"kind", "request", "faces", "result", "text", "dice", "rules", "seed"} <= set(data)
    assert data["kind"] == "vtm" and data["seed"] == 12 and data["source"] == "seed"
    assert len(data["faces"]) == 4 and len(data["dice"]) == 4
    assert {d["role"] for d in data["dice"]} <= {
        "success",
        "cancelled",
        "cancels",
        "one",
        "failure",
    }
    assert data["text"].startswith("4 dés à difficulté 6 : ")
    english = json.loads(ok("roll", "vtm", "-p", "4", "--seed", "12", "--json", "--lang", "en"))
    assert english["text"].startswith("4 dice at difficulty 6: ")
    assert english["faces"] == data["faces"]


# --------------------------------------------------------------------- hunter


def test_hunter_french_shows_rerolls_and_waves() -> None:
    out = ok(
        "roll", "hunter", "--pool", "3", "--again", "9", "--rote", "--dice", "9 1 3 10 8 9 4 1"
    )
    assert "Hunter — 3 dés, succès sur 8+, relance des 9, action routinière" in out
    assert "1 → 10, 3 → 8" in out
    assert "Relances des 9" in out and "vague 1 : 9, 4" in out and "vague 2 : 1" in out
    assert "4 succès" in out


def test_hunter_english() -> None:
    out = ok("roll", "hunter", "-p", "2", "--dice", "10 3 8", "--lang", "en")
    assert "Hunter — 2 dice, success on 8+, 10-again" in out
    assert "wave 1: 8" in out and "2 successes" in out


def test_H_CHANCE_1_chance_die_from_the_command_line() -> None:
    """H-CHANCE-1: a pool of 0 rolls a chance die; a 1 is a dramatic failure."""
    out = ok("roll", "hunter", "--pool", "0", "--dice", "1")
    assert "dé de chance" in out and "échec dramatique (le dé de chance a fait 1)" in out
    assert "H-CHANCE-1" in out
    data = as_json("roll", "hunter", "--pool=-2", "--dice", "10 8")
    assert data["result"] == {"successes": 2, "dramatic_failure": False, "chance": True}


def test_H_FAIL_1_and_H_EXC_1_from_the_command_line() -> None:
    """H-FAIL-1 dramatic failure and H-EXC-1 exceptional success are named."""
    data = as_json("roll", "hunter", "-p", "3", "--dice", "1 3 5")
    assert data["result"]["dramatic_failure"] and data["rules"] == ["H-FAIL-1"]
    out = ok("roll", "hunter", "-p", "5", "--dice", "8 8 8 9 9", "--lang", "en")
    assert "5 successes (exceptional success)" in out and "H-EXC-1" in out
    assert as_json("roll", "hunter", "-p", "5", "--dice", "8 8 8 9 9")["exceptional"] is True


def test_hunter_json_notes_follow_the_face_order() -> None:
    data = as_json("roll", "hunter", "-p", "2", "--dice", "10 10 10 2 3")
    assert [d["stage"] for d in data["dice"]] == ["roll", "roll", "again", "again", "again"]
    assert [d["wave"] for d in data["dice"]] == [0, 0, 1, 1, 2]


# -------------------------------------------------------------------- western


def test_W_CRIT_1_western_critical_from_the_command_line() -> None:
    """W-CRIT-1: skill 56, roll 4: critical, margin 52."""
    out = ok("roll", "western", "--skill", "56", "--dice", "4")
    assert "4 × 10 = 40 < 56 : réussite critique, marge 52" in out
    assert "réussite critique (jet 4 sous 56 %, marge 52)" in out
    english = ok("roll", "western", "--skill", "56", "--dice", "4", "--lang", "en")
    assert "critical success (rolled 4 under 56%, margin 52)" in english
    data = as_json("roll", "western", "--skill", "56", "--dice", "4")
    assert data["kind"] == "percentile"
    assert data["result"] == {"roll": 4, "success": True, "critical": True, "margin": 52}
    assert data["rules"] == ["W-CRIT-1"]


def test_western_failure() -> None:
    out = ok("roll", "western", "-s", "56", "--dice", "80", "--lang", "en")
    assert "failure (rolled 80 for 56%)" in out


# ----------------------------------------------------------------------- expr


@pytest.mark.parametrize(
    ("expr", "dice", "total"),
    [("3D10", "0 4 5", 19), ("4D6-3", "1 2 3 4", 7), ("2d6+1", "6 6", 13), ("1D20", "17", 17)],
)
def test_expr(expr: str, dice: str, total: int) -> None:
    assert f"total {total}" in ok("roll", "expr", expr, "--dice", dice)
    data = as_json("roll", "expr", expr, "--dice", dice, "--lang", "en")
    assert data["result"] == {"total": total}
    assert data["text"].endswith(f"total {total}")


def test_expr_french_and_english_reports() -> None:
    assert "Jet de 4D6-3" in ok("roll", "expr", "4d6-3", "--dice", "1 2 3 4")
    out = ok("roll", "expr", "4d6-3", "--dice", "1 2 3 4", "--lang", "en")
    assert "Roll of 4D6-3" in out and "1 + 2 + 3 + 4" in out and "−3" in out


# ---------------------------------------------------------------------- seeds


def test_seeded_rolls_are_reproducible_and_read_back() -> None:
    first = as_json("roll", "hunter", "-p", "8", "--seed", "99")
    assert as_json("roll", "hunter", "-p", "8", "--seed", "99")["faces"] == first["faces"]
    record = record_from_dict(first)
    assert list(record.faces) == first["faces"]


def test_without_a_seed_the_seed_used_is_reported_and_replays() -> None:
    data = as_json("roll", "vtm", "-p", "10")
    again = as_json("roll", "vtm", "-p", "10", "--seed", str(data["seed"]))
    assert again["faces"] == data["faces"]
    out = ok("roll", "vtm", "-p", "2")
    assert "graine" in out and "--seed" in out


# --------------------------------------------------------------------- errors


ERRORS = [
    (["roll", "vtm", "-p", "5", "--dice", "10 8"], "il en manque au moins 3", "at least 3 missing"),
    (
        ["roll", "vtm", "-p", "2", "--dice", "10 x"],
        "« x » n'est pas un nombre",
        '"x" is not a number',
    ),
    (
        ["roll", "vtm", "-p", "2", "--dice", "10 11"],
        "le dé n° 2 vaut 11, impossible sur un d10",
        "die #2 reads 11, impossible on a d10",
    ),
    (["roll", "vtm", "-p", "2", "--dice", "10 8 3"], "saisi en trop", "left over"),
    (
        ["roll", "hunter", "-p", "2", "--dice", "10 8"],
        "il en manque au moins 1",
        "at least 1 missing",
    ),
    (
        ["roll", "hunter", "-p", "2", "--again", "7"],
        "relance sur 10, 9 ou 8",
        "again on 10, 9 or 8",
    ),
    (
        ["roll", "western", "-s", "50", "--dice", "101"],
        "impossible sur un d100",
        "impossible on a d100",
    ),
    (["roll", "expr", "3x6"], "n'est pas une expression de dés", "is not a dice expression"),
    (
        ["roll", "vtm", "-p", "2", "--seed", "1", "--dice", "1 2"],
        "s'excluent",
        "cannot be used together",
    ),
    (["roll", "vtm", "-p", "2", "--damage", "--soak"], "s'excluent", "cannot be used together"),
    (["roll", "vtm", "-p", "201"], "au plus 200", "at most 200"),
]


@pytest.mark.parametrize(
    ("args", "fr", "en"), ERRORS, ids=lambda v: " ".join(v) if isinstance(v, list) else ""
)
def test_errors_exit_2_with_a_message_in_each_language(args: list[str], fr: str, en: str) -> None:
    french = run(*args)
    assert french.exit_code == 2, french.output
    assert french.stderr.startswith("erreur : ") and fr in french.stderr
    assert french.stdout == ""
    english = run(*args, "--lang", "en")
    assert english.exit_code == 2
    assert english.stderr.startswith("error: ") and en in english.stderr
    from_env = run(*args, lang_env="en")
    assert from_env.exit_code == 2 and en in from_env.stderr


def test_errors_in_json_mode_are_json_on_stdout() -> None:
    result = run("roll", "vtm", "-p", "5", "--dice", "10 8", "--json", "--lang", "en")
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert data["error"] == "dice.too_few" and "at least 3 missing" in data["message"]
