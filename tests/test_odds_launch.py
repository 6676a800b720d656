"""The console script answers ``conteur odds <ruleset>`` itself, exactly as the Typer app.

One code path: the console script reads the argument list from the ruleset's declaration
(``conteur.cli.odds_line.read_odds_args``) and answers with ``answer_odds``, which the
Typer app's command runs too. Every argument list below goes through the console script
and through the Typer app; stdout and the exit code must be identical. The lists the
console script leaves to Click (help, usage errors) go to the Typer app unchanged.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conteur.cli import app
from conteur.cli.attack_line import read_attack_args
from conteur.cli.odds import CHART_POOL
from conteur.cli.odds_line import read_odds_args
from conteur.cli_parts import parts_of
from conteur.dice import odds as dice_odds
from conteur.launch import main

runner = CliRunner()

JSON = [
    ["odds", "vtm", "--pool", "5", "--json"],
    ["odds", "vtm", "--json", "--pool", "7", "--difficulty", "8", "--willpower"],
    ["odds", "vtm", "--pool", "4", "--no-cancel", "--json", "--difficulty", "12"],
    ["odds", "vtm", "--table", "--json"],
    ["odds", "vtm", "--table", "--max-pool", "7", "--json"],
    ["odds", "vtm", "--pool", "3", "--pool", "4", "--json"],
    ["odds", "vtm", "--pool=5", "--json", "--lang=en"],
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

HUMAN = [
    ["odds", "vtm", "--pool", "6", "--difficulty", "6"],
    ["odds", "vtm", "--pool", "5", "--difficulty", "4", "--no-cancel", "--willpower"],
    ["odds", "vtm", "--pool", "4", "--difficulty", "9", "--lang", "en"],
    ["odds", "vtm", "--table", "--max-pool", "4"],
    ["odds", "hunter", "--pool", "5"],
    ["odds", "hunter", "--pool", "0", "--lang", "en"],
    ["odds", "hunter", "--table", "--max-pool", "3", "--rote"],
    ["odds", "western", "--skill", "45"],
    ["odds", "western", "--skill", "45", "--lang", "en"],
]

REFUSED = [
    # user errors of the human answer: a message on stderr, exit 2, nothing on stdout
    ["odds", "vtm"],
    ["odds", "vtm", "--pool", "999", "--lang", "en"],
    ["odds", "vtm", "--pool", "4", "--difficulty", "12"],
    ["odds", "hunter", "--pool", "3", "--again", "7"],
    ["odds", "vtm", "--pool", "3", "--lang", "xx"],
    ["odds", "vtm", "--pool", "3", "--json", "--lang", "xx"],
]

TO_CLICK = [
    ["odds", "vtm", "--pool", "x", "--json"],
    ["odds", "vtm", "--pool", "--json"],
    ["odds", "vtm", "--pool"],
    ["odds", "vtm", "--again", "8", "--json"],  # not an option of vtm
    ["odds", "vtm", "--willpower=1"],
    ["odds", "vtm", "--pool", "3", "extra"],
    ["odds", "vtm", "--lang", "--json"],
    ["odds", "hunter", "--willpower", "--json"],
    ["odds", "western", "--json"],  # --skill is required
    ["odds", "western"],
    ["odds", "vtm", "--help"],
    ["odds", "vtm", "--pool", "5", "--help"],
]

OTHER = [["odds", "--json"], ["odds"], ["odds", "attack", "--help"], ["roll", "vtm", "--json"], []]

SCENARIO = str(Path(__file__).parents[1] / "examples" / "simulation" / "4v4_1899.yaml")
WHO = ["--attacker", "abberline", "--target", "marius"]
ATTACK = [
    ["odds", "attack", SCENARIO, *WHO, "--json"],
    ["odds", "attack", SCENARIO, *WHO],
    ["odds", "attack", "--json", *WHO, SCENARIO, "--lang", "en"],
    ["odds", "attack", SCENARIO, "--attacker=abberline", "--target=marius", "--lang=en"],
    ["odds", "attack", SCENARIO, *WHO, "--target", "abberline", "--json"],  # the last wins
    # user errors: a JSON error or a message, exit 2
    ["odds", "attack", SCENARIO, "--attacker", "nobody", "--target", "marius", "--json"],
    ["odds", "attack", SCENARIO, "--attacker", "nobody", "--target", "marius"],
    ["odds", "attack", SCENARIO, *WHO, "--param", "novalue", "--json"],
    ["odds", "attack", SCENARIO, *WHO, "--maneuver", "nope", "--json", "--lang", "en"],
    ["odds", "attack", "missing.yaml", *WHO, "--json"],
    ["odds", "attack", SCENARIO, *WHO, "--lang", "xx"],
]
ATTACK_TO_CLICK = [
    ["odds", "attack", SCENARIO, *WHO, "--help"],
    ["odds", "attack", SCENARIO, "--attacker", "abberline", "--json"],  # --target missing
    ["odds", "attack", *WHO, "--json"],  # no scenario
    ["odds", "attack", SCENARIO, SCENARIO, *WHO],
    ["odds", "attack", SCENARIO, *WHO, "--bogus"],
    ["odds", "attack", SCENARIO, *WHO, "--maneuver"],
    ["odds", "attack", SCENARIO, "--attacker", "--target", "marius"],
    ["odds", "attack", SCENARIO, *WHO, "--json=1"],
]


def console_script(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of the console script's ``main(argv)``."""
    with pytest.raises(SystemExit) as info:
        main(argv)
    out = capsys.readouterr()
    code = info.value.code
    return (code if isinstance(code, int) else 0 if code is None else 1), out.out, out.err


def typer_app(argv: list[str]) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of the Typer app on ``argv``."""
    done = runner.invoke(app, argv, env={"CONTEUR_LANG": ""})
    return done.exit_code, done.stdout, done.stderr


@pytest.mark.parametrize("argv", JSON, ids=[" ".join(a[1:]) for a in JSON])
def test_json_answers_as_typer(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    spec = parts_of(argv[1])
    assert spec is not None and spec.odds is not None
    assert read_odds_args(spec.odds, argv[2:]) is not None  # answered without Typer
    code, out, _ = console_script(argv, capsys)
    assert (code, out) == typer_app(argv)[:2]
    assert code == (2 if "message" in json.loads(out) else 0)


@pytest.mark.parametrize("argv", HUMAN, ids=[" ".join(a[1:]) for a in HUMAN])
def test_human_answers_as_typer(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    spec = parts_of(argv[1])
    assert spec is not None and spec.odds is not None
    assert read_odds_args(spec.odds, argv[2:]) is not None
    code, out, _ = console_script(argv, capsys)
    assert code == 0
    assert (code, out) == typer_app(argv)[:2]
    assert len(out.splitlines()) >= 3


@pytest.mark.parametrize("argv", REFUSED, ids=[" ".join(a[1:]) for a in REFUSED])
def test_refusals_as_typer(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = console_script(argv, capsys)
    assert code == 2
    assert (code, out, err) == typer_app(argv)
    assert bool(out) != bool(err)  # the JSON error on stdout, or the message on stderr


@pytest.mark.parametrize("argv", TO_CLICK, ids=[" ".join(a[1:]) for a in TO_CLICK])
def test_what_click_renders_goes_to_typer(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    spec = parts_of(argv[1])
    assert spec is not None and spec.odds is not None
    assert read_odds_args(spec.odds, argv[2:]) is None
    code, out, _ = console_script(argv, capsys)
    assert (code, out) == typer_app(argv)[:2]


@pytest.mark.parametrize("argv", OTHER, ids=[" ".join(a) or "(none)" for a in OTHER])
def test_other_commands_go_to_typer(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = console_script(argv, capsys)
    assert (code, out) == typer_app(argv)[:2]


@pytest.mark.parametrize("argv", ATTACK, ids=[" ".join(a[3:]) for a in ATTACK])
def test_attack_answers_as_typer(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert read_attack_args(argv[2:]) is not None  # answered without Typer
    code, out, err = console_script(argv, capsys)
    assert (code, out, err) == typer_app(argv)
    assert code in (0, 2) and (out or err)


@pytest.mark.parametrize("argv", ATTACK_TO_CLICK, ids=[" ".join(a[3:]) for a in ATTACK_TO_CLICK])
def test_attack_click_renders_goes_to_typer(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert read_attack_args(argv[2:]) is None
    code, out, _ = console_script(argv, capsys)
    assert (code, out) == typer_app(argv)[:2]


def test_attack_loads_no_typer() -> None:
    answer, loaded = loaded_after(
        ["odds", "attack", SCENARIO, *WHO, "--json"],
        ("typer", "click", "rich"),
    )
    assert "p_hit" in answer
    assert loaded == []


def test_repeated_option_keeps_the_last() -> None:
    spec = parts_of("vtm")
    assert spec is not None and spec.odds is not None
    read = read_odds_args(spec.odds, ["--pool", "3", "--pool=4", "--lang", "en"])
    assert read is not None
    values, lang, as_json = read
    assert (values["pool"], values["difficulty"], lang, as_json) == (4, 6, "en", False)


def test_env_language_of_the_answer(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CONTEUR_LANG", "en")
    code, out, _ = console_script(
        ["odds", "hunter", "--pool", "2", "--again", "5", "--json"], capsys
    )
    assert code == 2
    assert "again on 10, 9 or 8" in json.loads(out)["message"]


def loaded_after(argv: list[str], modules: tuple[str, ...]) -> tuple[str, list[str]]:
    """In a fresh interpreter, the console script's answer to ``argv`` (it must succeed)
    and which of ``modules`` it loaded to give it."""
    code = (
        "import sys, io, contextlib\n"
        "from conteur.launch import main\n"
        "buf = io.StringIO()\n"
        "try:\n"
        "    with contextlib.redirect_stdout(buf):\n"
        f"        main({argv!r})\n"
        "except SystemExit as e:\n"
        "    assert e.code == 0, e.code\n"
        "print(repr(buf.getvalue()))\n"
        f"print(sorted(m for m in {modules!r} if m in sys.modules))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    answer, loaded = proc.stdout.strip().splitlines()
    return ast.literal_eval(answer), ast.literal_eval(loaded)


@pytest.mark.parametrize("json_flag", [["--json"], []], ids=["json", "human"])
def test_odds_load_neither_typer_nor_pydantic(json_flag: list[str]) -> None:
    heavy = ("typer", "click", "pydantic", "rich", "babel", "importlib.metadata")
    answer, loaded = loaded_after(["odds", "vtm", "--pool", "6", *json_flag], heavy)
    assert answer.strip()
    assert loaded == ([] if json_flag else ["babel", "rich"])


def test_chart_pool_defaults_agree() -> None:
    assert CHART_POOL == dice_odds.CHART_POOL


def test_entry_points_read_as_importlib_metadata_reads_them() -> None:
    from importlib.metadata import entry_points

    from conteur.cli_parts import GROUP, declared

    seen: dict[str, str] = {}
    for ep in entry_points(group=GROUP):
        seen.setdefault(ep.name, ep.value)
    assert declared() == seen
    assert {"vtm", "hunter", "western"} <= set(seen)


def test_rulesets_read_as_importlib_metadata_reads_them() -> None:
    from importlib.metadata import entry_points

    from conteur.engine.registry import GROUP, _declared

    seen: dict[str, str] = {}
    for ep in entry_points(group=GROUP):
        seen.setdefault(ep.name, ep.value)
    assert dict(_declared()) == seen
    assert {"vtm", "hunter", "western"} <= set(seen)


@pytest.mark.parametrize("json_flag", [["--json"], []], ids=["json", "human"])
def test_western_odds_need_no_numpy(json_flag: list[str]) -> None:
    # A d100's odds are a division: numpy is loaded only where an answer needs it.
    answer, loaded = loaded_after(
        ["odds", "western", "--skill", "45", *json_flag], ("numpy", "typer", "pydantic")
    )
    assert "45" in answer
    assert loaded == []


def test_the_numpy_check_sees_numpy() -> None:
    # The same check on vtm's chart, whose answer does need numpy (a pool's odds do not).
    _, loaded = loaded_after(["odds", "vtm", "--table", "--json"], ("numpy",))
    assert loaded == ["numpy"]
    _, loaded = loaded_after(["odds", "vtm", "--pool", "4", "--json"], ("numpy",))
    assert loaded == []
