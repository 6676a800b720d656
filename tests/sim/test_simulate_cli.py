"""``conteur simulate``: JSON, text in French and English, the plot files, user errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conteur.cli import app
from ruleset_fights import FIGHTS

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "simulation" / "4v4_1899.yaml"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["simulate", *args])
    return result.exit_code, result.stdout, result.stderr


def test_json_result_and_plot_files(tmp_path: Path) -> None:
    plot = tmp_path / "out" / "fights"
    code, out, _ = run(
        str(EXAMPLE), "--runs", "6", "--seed", "7", "--workers", "1", "--json", "--plot", str(plot)
    )
    assert code == 0, out
    data = json.loads(out)
    assert data["runs"] == 6 and data["seed"] == 7 and data["ruleset"] == "vtm"
    assert set(data["sides"]) == {"chasseurs", "vampires"}
    assert data["errors"]["count"] == 0
    assert data["run"]["workers"] == 1 and data["run"]["backend"] == "local"
    assert data["plot"] == [str(plot) + ".png", str(plot) + ".svg"]
    assert Path(data["plot"][0]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<svg" in Path(data["plot"][1]).read_text(encoding="utf-8")[:2000]


@pytest.mark.parametrize("ruleset", list(FIGHTS))
def test_same_seed_same_json_whatever_the_workers(ruleset: str) -> None:
    """Two worker processes (each loads the ruleset by its entry point) give one's answer."""
    scenario = EXAMPLE if ruleset == "vtm" else FIGHTS[ruleset].scenario
    outs = []
    for workers in ("1", "2"):
        code, out, _ = run(
            str(scenario), "--runs", "6", "--seed", "3", "--workers", workers, "--json", "--no-plot"
        )
        assert code == 0, out
        data = json.loads(out)
        assert data.pop("run")["workers"] == int(workers) and data.pop("plot") == []
        outs.append(data)
    assert outs[0] == outs[1]


def test_text_in_french_by_default_and_in_english(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(str(EXAMPLE), "--runs", "3", "--seed", "2", "--workers", "1")
    assert code == 0, out
    assert "3 combats (graine 2, 20 tours au plus)" in out and "Victoires" in out
    assert "Matchs nuls" in out and "combats par seconde" in out
    assert (tmp_path / "4v4_1899-simulation.png").exists()
    assert (tmp_path / "4v4_1899-simulation.svg").exists()
    code, out, _ = run(
        str(EXAMPLE),
        "--runs",
        "3",
        "--seed",
        "2",
        "--workers",
        "1",
        "--lang",
        "en",
        "--no-plot",
        "--tactic",
        "chasseurs=cover",
        "--max-turns",
        "4",
    )
    assert code == 0, out
    assert "3 fights (seed 2, at most 4 turns)" in out and "Wins" in out and "cover" in out
    assert "Plot:" not in out


@pytest.mark.parametrize(
    ("args", "fr", "en"),
    [
        (
            ["--tactic", "chasseurs=bogus"],
            "tactique inconnue « bogus » pour vtm ; tactiques connues : aim, cover, dodge,"
            " flee, nearest, weakest",
            'unknown tactic "bogus" for vtm; known tactics: aim, cover, dodge, flee, nearest,'
            " weakest",
        ),
        (["--tactic", "pirates=aim"], "aucun camp « pirates »", 'no side "pirates"'),
        (["--tactic", "cover"], "--tactic attend camp=tactique", "--tactic expects side=tactic"),
        (["--runs", "0"], "il faut au moins un combat", "at least one fight is needed"),
    ],
)
def test_user_errors_exit_2_in_the_chosen_language(args: list[str], fr: str, en: str) -> None:
    code, out, err = run(str(EXAMPLE), *args, "--no-plot")
    assert code == 2 and out == ""
    assert err.startswith("erreur : ") and fr in err
    code, out, err = run(str(EXAMPLE), *args, "--no-plot", "--lang", "en")
    assert code == 2 and err.startswith("error: ") and en in err
    code, out, _ = run(str(EXAMPLE), *args, "--no-plot", "--json", "--lang", "en")
    assert code == 2 and en in json.loads(out)["message"]


def test_a_missing_scenario_is_a_user_error(tmp_path: Path) -> None:
    code, _, err = run(str(tmp_path / "nowhere.yaml"), "--no-plot")
    assert code == 2 and "nowhere.yaml" in err
