"""The console script's fast path for ``conteur odds ... --json`` answers exactly as the Typer app.

Every argument list below goes through both paths; stdout and the exit code
must be identical. Lists the fast path must not take go to the Typer app.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from conteur.cli import app
from conteur.cli.odds import CHART_POOL
from conteur.dice import odds as dice_odds
from conteur.launch import main, parse_fast_odds, run_fast_odds

runner = CliRunner()

FAST = [
    ["odds", "vtm", "--pool", "5", "--json"],
    ["odds", "vtm", "--json", "--pool", "7", "--difficulty", "8", "--willpower"],
    ["odds", "vtm", "--pool", "4", "--no-cancel", "--json", "--difficulty", "12"],
    ["odds", "vtm", "--table", "--json"],
    ["odds", "vtm", "--table", "--max-pool", "7", "--json"],
    ["odds", "vtm", "--pool", "3", "--pool", "4", "--json"],
    ["odds", "hunter", "--pool", "-2", "--json"],
    ["odds", "hunter", "--pool", "6", "--again", "8", "--rote", "--json"],
    ["odds", "hunter", "--table", "--rote", "--max-pool", "4", "--json"],
    ["odds", "western", "--skill", "56", "--json"],
    ["odds", "western", "--skill", "-5", "--json", "--lang", "en"],
    # user errors: same JSON error, exit 2, in the chosen language
    ["odds", "vtm", "--json"],
    ["odds", "vtm", "--json", "--lang", "en"],
    ["odds", "vtm", "--pool", "-1", "--json"],
    ["odds", "vtm", "--pool", "999", "--json", "--lang", "en"],
    ["odds", "hunter", "--pool", "3", "--again", "7", "--json"],
    ["odds", "hunter", "--table", "--again", "6", "--json"],
    ["odds", "hunter", "--table", "--max-pool", "-1", "--json"],
    ["odds", "vtm", "--table", "--max-pool", "0", "--json", "--lang", "en"],
]

SLOW = [
    ["odds", "vtm", "--pool", "5"],  # no --json: Rich table
    ["odds", "vtm", "--pool=5", "--json"],
    ["odds", "vtm", "--pool", "x", "--json"],
    ["odds", "vtm", "--pool", "--json"],
    ["odds", "vtm", "--again", "8", "--json"],  # not an option of vtm
    ["odds", "hunter", "--willpower", "--json"],
    ["odds", "western", "--json"],  # --skill is required
    ["odds", "vtm", "--help"],
    ["odds", "--json"],
    ["roll", "vtm", "--json"],
    [],
]


@pytest.mark.parametrize("argv", FAST, ids=[" ".join(a[1:]) for a in FAST])
def test_fast_path_answers_as_typer(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    parsed = parse_fast_odds(argv)
    assert parsed is not None
    code = run_fast_odds(*parsed)
    fast_out = capsys.readouterr().out
    typer = runner.invoke(app, argv, env={"CONTEUR_LANG": ""})
    assert (code, fast_out) == (typer.exit_code, typer.stdout)
    json.loads(fast_out)


@pytest.mark.parametrize("argv", SLOW, ids=[" ".join(a) or "(none)" for a in SLOW])
def test_other_calls_go_to_typer(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert parse_fast_odds(argv) is None
    with pytest.raises(SystemExit) as info:
        main(argv)
    out = capsys.readouterr().out
    typer = runner.invoke(app, argv, env={"CONTEUR_LANG": ""})
    assert (info.value.code or 0) == typer.exit_code
    assert out == typer.stdout


def test_env_language_on_the_fast_path(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CONTEUR_LANG", "en")
    with pytest.raises(SystemExit) as info:
        main(["odds", "hunter", "--pool", "2", "--again", "5", "--json"])
    assert info.value.code == 2
    assert "again on 10, 9 or 8" in json.loads(capsys.readouterr().out)["message"]


def test_fast_path_loads_neither_typer_nor_rich() -> None:
    code = (
        "import sys, io, contextlib\n"
        "from conteur.launch import main\n"
        "buf = io.StringIO()\n"
        "try:\n"
        "    with contextlib.redirect_stdout(buf):\n"
        "        main(['odds', 'vtm', '--table', '--json'])\n"
        "except SystemExit as e:\n"
        "    assert e.code == 0\n"
        "print(sorted(m for m in ('typer', 'pydantic', 'rich', 'babel') if m in sys.modules))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_chart_pool_defaults_agree() -> None:
    assert CHART_POOL == dice_odds.CHART_POOL
