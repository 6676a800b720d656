"""``conteur odds``: the JSON contract, user errors, and the tables in French and English."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conteur.cli import app
from conteur.rulesets.hunter.charts import hunter_chart
from conteur.rulesets.hunter.dice import HunterPool, hunter_odds
from conteur.rulesets.vtm.charts import vtm_chart
from conteur.rulesets.vtm.dice import VtmPool
from odds_helpers import face_tree, product_faces

TOL = 1e-12
runner = CliRunner()


def run(*args: str, env: dict[str, str] | None = None) -> Any:
    return runner.invoke(app, ["odds", *args], env=env or {"CONTEUR_LANG": ""})


def run_json(*args: str) -> Any:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# ----------------------------------------------------------------- vtm JSON


def test_vtm_json_contract_against_brute_force() -> None:
    """``{"outcomes": {"botch": p, "0": p, "1": p, ...}}``; "0" is every non-botch failure."""
    data = run_json("vtm", "--pool", "3", "--difficulty", "7")
    assert list(data) == ["outcomes"]
    out = data["outcomes"]
    assert list(out) == ["botch", "0", "1", "2", "3"]
    pool = VtmPool(3, 7)
    want = {"botch": 0.0, "0": 0.0, "1": 0.0, "2": 0.0, "3": 0.0}
    for faces in product_faces(3):
        r = pool.read(faces)
        want["botch" if r.botch else str(r.successes)] += 1e-3
    for key, p in want.items():
        assert abs(out[key] - p) <= TOL
    assert abs(sum(out.values()) - 1.0) <= TOL


def test_vtm_json_no_cancel_and_willpower() -> None:
    """V-DMG-4: with --no-cancel the 1s do not cancel and nothing botches."""
    out = run_json("vtm", "--pool", "2", "--no-cancel")["outcomes"]
    assert out == pytest.approx({"botch": 0.0, "0": 0.25, "1": 0.5, "2": 0.25}, abs=TOL)
    out = run_json("vtm", "--pool", "1", "--willpower")["outcomes"]
    # one automatic success: a 1 no longer botches, a 6+ adds a second one
    assert out == pytest.approx({"botch": 0.0, "0": 0.0, "1": 0.5, "2": 0.5}, abs=TOL)


@pytest.mark.parametrize("pool", [1, 10, 30, 200])
def test_vtm_json_sums_to_one(pool: int) -> None:
    out = run_json("vtm", "--pool", str(pool), "--difficulty", "8")["outcomes"]
    assert abs(sum(out.values()) - 1.0) <= TOL


def test_vtm_table_json_is_the_chart() -> None:
    data = run_json("vtm", "--table", "--max-pool", "12")
    assert data == vtm_chart(12).to_dict()
    assert len(run_json("vtm", "--table")["pools"]) == 30


# -------------------------------------------------------------- hunter JSON


@pytest.mark.parametrize(
    ("args", "dice", "again", "rote"),
    [
        (["--pool", "4"], 4, 10, False),
        (["--pool", "6", "--again", "9"], 6, 9, False),
        (["--pool", "5", "--again", "8", "--rote"], 5, 8, True),
        (["--pool", "0"], 0, 10, False),
        (["--pool", "-3", "--rote"], -3, 10, True),
        (["--pool", "30", "--again", "8"], 30, 8, False),
    ],
)
def test_hunter_json_contract(args: list[str], dice: int, again: int, rote: bool) -> None:
    """``{"outcomes": {"dramatic_failure": p, "0": p, ...}}``; a pool <= 0 is the chance die
    (H-CHANCE-1); sums to 1 within 1e-12."""
    out = run_json("hunter", *args)["outcomes"]
    keys = list(out)
    assert keys[0] == "dramatic_failure" and keys[1:] == [str(k) for k in range(len(keys) - 1)]
    assert abs(sum(out.values()) - 1.0) <= TOL
    assert out == hunter_odds(dice, again, rote=rote).outcomes()


def test_hunter_json_chance_die_against_faces() -> None:
    """H-CHANCE-1: the chance die's JSON against ``HunterPool.roll`` on every face sequence."""
    out = run_json("hunter", "--pool", "-1")["outcomes"]
    brute, cut = face_tree(HunterPool(-1), 8, key=lambda r: r)
    assert cut <= 1e-7
    dramatic = sum(p for r, p in brute.items() if r.dramatic_failure)
    plain = sum(p for r, p in brute.items() if not r.dramatic_failure and r.successes == 0)
    one = sum(p for r, p in brute.items() if r.successes == 1)
    assert abs(out["dramatic_failure"] - dramatic) <= TOL
    assert abs(out["0"] - plain) <= TOL
    assert abs(out["1"] - one) <= TOL


def test_hunter_table_json_is_the_chart() -> None:
    assert run_json("hunter", "--table") == hunter_chart(30).to_dict()
    assert (
        run_json("hunter", "--table", "--rote", "--max-pool", "5")
        == hunter_chart(5, rote=True).to_dict()
    )


# ------------------------------------------------------------- western JSON


def test_western_json() -> None:
    """W-CRIT-1: 56 % succeeds on 1..56, critical on 1..5; 150 %: always, critical on 1..14."""
    assert run_json("western", "--skill", "56") == {"p_success": 0.56, "p_critical": 0.05}
    assert run_json("western", "--skill", "150") == {"p_success": 1.0, "p_critical": 0.14}


# ------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("args", "fr", "en"),
    [
        (["hunter", "--pool", "3", "--again", "7"], "relance sur 10, 9 ou 8", "on 10, 9 or 8"),
        (["vtm", "--pool", "-1"], "ne peut pas être négatif", "cannot be negative"),
        (["vtm", "--pool", "500"], "au plus 200", "at most 200"),
        (["hunter", "--pool", "201"], "au plus 200", "at most 200"),
        (["vtm"], "indiquez la réserve", "give the pool"),
        (["hunter", "--table", "--max-pool", "-1"], "pas être négatif", "cannot be negative"),
        (["vtm", "--table", "--max-pool", "0"], "au moins 1", "at least 1"),
    ],
)
def test_user_errors_exit_2_in_both_languages(args: list[str], fr: str, en: str) -> None:
    result = run(*args, "--json")
    assert result.exit_code == 2
    assert fr in json.loads(result.stdout)["message"]
    result = run(*args, "--json", "--lang", "en")
    assert result.exit_code == 2
    assert en in json.loads(result.stdout)["message"]
    result = run(*args, env={"CONTEUR_LANG": "en"})
    assert result.exit_code == 2
    assert result.stderr.startswith("error:") and en in result.stderr
    result = run(*args)
    assert result.exit_code == 2
    assert result.stderr.startswith("erreur :") and fr in result.stderr


# ------------------------------------------------------------------- tables


def test_vtm_chart_headings_in_both_languages() -> None:
    fr = run("vtm", "--table", "--max-pool", "5")
    assert fr.exit_code == 0
    assert "Dés" in fr.stdout and "diff. 6" in fr.stdout
    assert "Au moins un succès net" in fr.stdout and "Échec critique" in fr.stdout
    assert "50,0" in fr.stdout  # 1 die at difficulty 6, French decimal comma
    for en in (
        run("vtm", "--table", "--max-pool", "5", "--lang", "en"),
        run("vtm", "--table", "--max-pool", "5", env={"CONTEUR_LANG": "en"}),
    ):
        assert en.exit_code == 0
        assert "Dice" in en.stdout and "At least one net success" in en.stdout
        assert "Botch" in en.stdout and "50.0%" in en.stdout and "Dés" not in en.stdout


def test_hunter_chart_headings_in_both_languages() -> None:
    fr = run("hunter", "--table", "--max-pool", "3")
    assert fr.exit_code == 0
    for heading in ("Dés", "Au moins un succès", "Échec dramatique", "relance 8+", "chance"):
        assert heading in fr.stdout
    en = run("hunter", "--table", "--max-pool", "3", "--rote", "--lang", "en")
    assert en.exit_code == 0
    for heading in ("Dice", "At least one success", "Dramatic failure", "8-again", "rote"):
        assert heading in en.stdout


def test_single_roll_tables_in_both_languages() -> None:
    fr = run("vtm", "--pool", "5")
    assert fr.exit_code == 0
    assert "Résultat" in fr.stdout and "échec critique" in fr.stdout
    assert "84,40" in fr.stdout  # P(at least one net success), 5 dice at 6
    en = run("vtm", "--pool", "5", "--lang", "en")
    assert "Outcome" in en.stdout and "botch" in en.stdout and "84.40%" in en.stdout
    clamped = run("vtm", "--pool", "2", "--difficulty", "12")
    assert "difficulté 12 ramenée à 10" in clamped.stdout
    hunter = run("hunter", "--pool", "0", "--lang", "en")
    assert "chance die" in hunter.stdout and "dramatic failure" in hunter.stdout
    western = run("western", "--skill", "56")
    assert "Réussite critique" in western.stdout and "5,00" in western.stdout


# --------------------------------------------------------------- real process


def test_console_script_process() -> None:
    """The installed ``conteur`` process answers the chart in JSON."""
    script = Path(sys.executable).with_name("conteur")
    cmd = (
        [str(script)]
        if script.exists()
        else [sys.executable, "-c", "from conteur.cli import main; main()"]
    )
    proc = subprocess.run(
        [*cmd, "odds", "vtm", "--table", "--json"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == vtm_chart(30).to_dict()


@pytest.mark.parametrize(
    ("lang", "texts"),
    [
        ("fr", ("Nombre de dés de la réserve.", "Relance sur 10 (défaut), 9 ou 8.")),
        ("en", ("Number of dice in the pool.", "10-again (default), 9-again or 8-again.")),
    ],
)
def test_help_follows_conteur_lang(lang: str, texts: tuple[str, ...]) -> None:
    """Help is built from the catalog in the language of CONTEUR_LANG."""
    env = {"CONTEUR_LANG": lang, "COLUMNS": "200", "PATH": ""}
    proc = subprocess.run(
        [sys.executable, "-c", "from conteur.cli import main; main()", "odds", "hunter", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    for text in texts:
        assert text in proc.stdout


def test_odds_messages_have_matching_fields() -> None:
    """Each odds message names the same fields in French and English."""
    from conteur.i18n import catalog, placeholders

    keys = [k for k in catalog() if k.startswith("odds.")]
    assert len(keys) > 20
    for key in keys:
        forms = catalog()[key]
        assert placeholders(forms["fr"]) == placeholders(forms["en"]), key
