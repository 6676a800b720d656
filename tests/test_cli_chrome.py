"""The command line's own chrome in the reader's language (issue 18, item 1): the usage
line, the help option, the panel titles and option types of every help, and the usage
errors (unknown option or command, a value of the wrong type, a missing option or
argument, an argument too many) — French by default, English with ``CONTEUR_LANG=en`` or
the command's ``--lang en``. Run through the console script, as a user runs it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

CONTEUR = str(Path(sys.executable).parent / "conteur")
NNBSP = "\u202f"


def run(args: list[str], lang: str | None = None) -> subprocess.CompletedProcess[str]:
    """``conteur args`` in a fresh process, ``CONTEUR_LANG=lang`` (unset for None)."""
    env = {k: v for k, v in os.environ.items() if k != "CONTEUR_LANG"}
    env.update({"COLUMNS": "100", "TERMINAL_WIDTH": "100", "NO_COLOR": "1"})
    if lang is not None:
        env["CONTEUR_LANG"] = lang
    return subprocess.run(
        [CONTEUR, *args], capture_output=True, text=True, env=env, timeout=120, check=False
    )


def error_parts(stderr: str) -> tuple[str, str, str, str]:
    """(usage line, help hint, panel title, message) of a usage error as printed."""
    lines = stderr.strip("\n").splitlines()
    top = lines[2]
    assert top.startswith("╭─ ") and top.endswith("╮"), stderr
    title = top[3:].split(" ─", 1)[0]
    body = [line.strip("│").strip() for line in lines[3:] if line.startswith("│")]
    assert lines[-1].startswith("╰"), stderr
    return lines[0].rstrip(), lines[1].rstrip(), title, " ".join(body)


FR = {
    "usage": f"Usage{NNBSP}: ",
    "hint": "Essayez «{n}{cmd} --help{n}» pour l'aide.",
    "title": "Erreur",
}
EN = {"usage": "Usage: ", "hint": "Try '{cmd} --help' for help.", "title": "Error"}

CASES: list[tuple[list[str], str, str, str]] = [
    # args, usage after the prefix, French message, English message
    (
        ["odds", "vtm", "--pool", "x"],
        "conteur odds vtm [OPTIONS]",
        f"--pool{NNBSP}: «{NNBSP}x{NNBSP}» n'est pas un nombre entier",
        "--pool: 'x' is not a whole number",
    ),
    (
        ["odds", "vtm", "--nope"],
        "conteur odds vtm [OPTIONS]",
        f"option inconnue{NNBSP}: --nope",
        "no such option: --nope",
    ),
    (
        ["odds", "vtm", "--poo", "3"],
        "conteur odds vtm [OPTIONS]",
        f"option inconnue{NNBSP}: --poo (vouliez-vous dire --max-pool, --pool{NNBSP}?)",
        "no such option: --poo (did you mean --max-pool, --pool?)",
    ),
    (
        ["odds", "vtm", "--pool"],
        "conteur odds vtm [OPTIONS]",
        f"--pool{NNBSP}: une valeur est attendue après l'option",
        "--pool: a value is expected after the option",
    ),
    (
        ["odds", "vtm", "--json=1"],
        "conteur odds vtm [OPTIONS]",
        "--json ne prend pas de valeur",
        "--json takes no value",
    ),
    (
        ["odds", "vtm", "--pool", "3", "extra"],
        "conteur odds vtm [OPTIONS]",
        f"1 argument inattendu{NNBSP}: extra",
        "1 unexpected argument: extra",
    ),
    (
        ["odds", "vtm", "--pool", "3", "a", "b"],
        "conteur odds vtm [OPTIONS]",
        f"2 arguments inattendus{NNBSP}: a b",
        "2 unexpected arguments: a b",
    ),
    (
        ["play"],
        "conteur play [OPTIONS] {scenario}",
        f"argument manquant{NNBSP}: SCÉNARIO",
        "missing argument: SCENARIO",
    ),
    (
        ["play", "x.yaml"],
        "conteur play [OPTIONS] {scenario}",
        f"option obligatoire manquante{NNBSP}: --script",
        "missing option: --script",
    ),
    (
        ["nope"],
        "conteur [OPTIONS] {sub}",
        f"commande inconnue{NNBSP}: «{NNBSP}nope{NNBSP}»",
        "no such command: 'nope'",
    ),
    (
        ["odds", "vtmm"],
        "conteur odds [OPTIONS] {sub}",
        f"commande inconnue{NNBSP}: «{NNBSP}vtmm{NNBSP}» (vouliez-vous dire vtm{NNBSP}?)",
        "no such command: 'vtmm' (did you mean vtm?)",
    ),
]
SUB = {"fr": "COMMANDE [ARGUMENTS]...", "en": "COMMAND [ARGS]..."}
SCENARIO = {"fr": "{SCÉNARIO}", "en": "{SCENARIO}"}


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize(("args", "usage", "fr", "en"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_usage_errors_in_the_readers_language(
    args: list[str], usage: str, fr: str, en: str, lang: str
) -> None:
    done = run(args, lang=None if lang == "fr" else "en")
    chrome, message = (FR, fr) if lang == "fr" else (EN, en)
    cmd = usage.split(" [OPTIONS]")[0]
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert error_parts(done.stderr) == (
        chrome["usage"] + usage.format(sub=SUB[lang], scenario=SCENARIO[lang]),
        chrome["hint"].format(cmd=cmd, n=NNBSP),
        chrome["title"],
        message,
    )


@pytest.mark.parametrize(
    "args",
    [
        ["odds", "vtm", "--pool", "x", "--lang", "en"],
        ["odds", "vtm", "--lang", "en", "--pool", "x"],
        ["odds", "vtm", "--lang=en", "--pool", "x"],
    ],
)
def test_the_commands_lang_option_chooses_the_errors_language(args: list[str]) -> None:
    done = run(args)
    assert done.returncode == 2
    assert error_parts(done.stderr) == (
        "Usage: conteur odds vtm [OPTIONS]",
        "Try 'conteur odds vtm --help' for help.",
        "Error",
        "--pool: 'x' is not a whole number",
    )


def test_a_lang_option_naming_no_known_language_leaves_the_default() -> None:
    done = run(["odds", "vtm", "--lang", "de", "--pool", "x"], lang="en")
    assert error_parts(done.stderr)[3] == "--pool: 'x' is not a whole number"
    done = run(["odds", "vtm", "--lang", "de", "--pool", "x"])
    assert (
        error_parts(done.stderr)[3]
        == f"--pool{NNBSP}: «{NNBSP}x{NNBSP}» n'est pas un nombre entier"
    )


# ------------------------------------------------------------------------- the help

WALK = """
import json, sys
from typer.main import get_command
from typer.testing import CliRunner
from conteur.cli import app

root = get_command(app)
runner = CliRunner()
out = {}

def walk(command, path):
    result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "100"})
    out[" ".join(path)] = [result.exit_code, result.output]
    ctx = command.make_context("conteur", [*path[-1:]], resilient_parsing=True)
    for name in getattr(command, "list_commands", lambda ctx: [])(ctx):
        walk(command.get_command(ctx, name), [*path, name])

walk(root, [])
sys.stdout.write(json.dumps(out))
"""


def helps(lang: str | None) -> dict[str, tuple[int, str]]:
    """The help of every command and group, by command path, ``CONTEUR_LANG=lang``."""
    env = {k: v for k, v in os.environ.items() if k != "CONTEUR_LANG"}
    env.update({"COLUMNS": "100", "TERMINAL_WIDTH": "100", "NO_COLOR": "1"})
    if lang is not None:
        env["CONTEUR_LANG"] = lang
    done = subprocess.run(
        [sys.executable, "-c", WALK], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return {k: (v[0], v[1]) for k, v in json.loads(done.stdout).items()}


ENGLISH_CHROME = (
    "Usage:",
    "Show this message",
    "Commands",
    "COMMAND [",
    "[ARGS]",
    "<bool>",
    "<int>",
    "<str>",
    "<path>",
    "<float>",
    "[default:",
    "[required]",
    "env var",
    "(deprecated)",
)


@pytest.fixture(scope="module")
def french_helps() -> dict[str, tuple[int, str]]:
    return helps(None)


def test_every_help_is_walked(french_helps: dict[str, tuple[int, str]]) -> None:
    for path in ("", "odds", "odds vtm", "odds attack", "roll", "roll expr", "db", "db init"):
        assert path in french_helps
    assert "xp" in french_helps and len(french_helps) > 20


def test_no_english_chrome_in_any_french_help(french_helps: dict[str, tuple[int, str]]) -> None:
    for path, (code, text) in french_helps.items():
        assert code == 0, (path, text)
        left = [word for word in ENGLISH_CHROME if word in text]
        assert left == [], (path, left)
        lines = [line.strip(" │") for line in text.splitlines()]
        usage = next(line for line in lines if line.startswith("Usage"))
        assert usage.startswith(f"Usage{NNBSP}: conteur{' ' + path if path else ''} "), path
        helps_line = [line for line in lines if line.startswith("--help")]
        assert [re.sub(" +", " ", line) for line in helps_line] == [
            "--help Affiche cette aide et quitte."
        ], path


def rows_of(text: str) -> list[str]:
    """The lines of a help, out of their panel, runs of spaces made one (U+202F kept)."""
    return [re.sub(" +", " ", line.strip(" │")) for line in text.splitlines()]


def test_french_help_of_a_command_exactly() -> None:
    text = run(["odds", "vtm", "--help"]).stdout
    rows = rows_of(text)
    assert "Usage\u202f: conteur odds vtm [OPTIONS]" in rows
    assert any(row.startswith("╭─ Options ─") for row in rows)
    assert "--pool <entier> Nombre de dés de la réserve." in rows
    assert f"--difficulty <entier> Difficulté, de 2 à 10. [défaut{NNBSP}: 6]" in rows
    assert "--willpower Ajoute un succès automatique (Volonté)." in rows


def test_english_help_of_the_root_and_a_command() -> None:
    text = run(["--help"], lang="en").stdout
    rows = rows_of(text)
    assert "Usage: conteur [OPTIONS] COMMAND [ARGS]..." in rows
    assert "--help Show this message and exit." in rows
    assert any(row.startswith("╭─ Commands ─") for row in rows)
    text = run(["odds", "vtm", "--help"], lang="en").stdout
    rows = rows_of(text)
    assert "--pool <integer> Number of dice in the pool." in rows
    assert not any("<int>" in row or "<bool>" in row for row in rows)


# ------------------------------------------------------------- the arguments' names

USAGES = [
    # command, its usage line in French, in English (required {ARG}, optional [ARG])
    (["play"], "conteur play [OPTIONS] {SCÉNARIO}", "conteur play [OPTIONS] {SCENARIO}"),
    (["npc"], "conteur npc [OPTIONS] {JEU} [ARCHÉTYPE]", "conteur npc [OPTIONS] {RULESET} [ARCHETYPE]"),
    (["import"], "conteur import [OPTIONS] {FORMAT} {FICHIER}", "conteur import [OPTIONS] {FORMAT} {FILE}"),
    (["db", "import"], "conteur db import [OPTIONS] {FICHIER}", "conteur db import [OPTIONS] {FILE}"),
    (["xp", "hunter"], "conteur xp hunter [OPTIONS] {SÉANCE}", "conteur xp hunter [OPTIONS] {SESSION}"),
    (["simulate"], "conteur simulate [OPTIONS] {SCÉNARIO}", "conteur simulate [OPTIONS] {SCENARIO}"),
]  # fmt: skip


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize(("args", "fr", "en"), USAGES, ids=[" ".join(u[0]) for u in USAGES])
def test_the_arguments_are_named_in_the_readers_language(
    args: list[str], fr: str, en: str, lang: str
) -> None:
    """The usage line and the Arguments panel name each argument in the reader's words
    (« JEU », « FICHIER »...), not Python's or English ones (issue 18)."""
    rows = rows_of(run([*args, "--help"], lang=None if lang == "fr" else "en").stdout)
    usage = (f"Usage{NNBSP}: " + fr) if lang == "fr" else ("Usage: " + en)
    assert usage in rows
    names = re.findall(r"[{\[]([^}\]]+)[}\]]", (fr if lang == "fr" else en).split("[OPTIONS]")[1])
    panel = [row.split()[1 if row.startswith("*") else 0] for row in _arguments_panel(rows)]
    assert panel == names


def _arguments_panel(rows: list[str]) -> list[str]:
    """The rows of a help's Arguments panel that start an argument."""
    start = next(i for i, row in enumerate(rows) if row.startswith(("╭─ Arguments", "╭─ Argum")))
    end = next(i for i in range(start + 1, len(rows)) if rows[i].startswith("╰"))
    return [row for row in rows[start + 1 : end] if re.match(r"(\* )?[A-ZÉ]{3,}\b", row)]


def test_an_error_names_the_argument_in_the_language_of_the_commands_option() -> None:
    """``--lang en`` on a French machine: the usage line and the message in English."""
    done = run(["play", "--lang", "en"])
    assert error_parts(done.stderr) == (
        "Usage: conteur play [OPTIONS] {SCENARIO}",
        "Try 'conteur play --help' for help.",
        "Error",
        "missing argument: SCENARIO",
    )
    done = run(["play"], lang="en")
    assert error_parts(done.stderr)[0] == "Usage: conteur play [OPTIONS] {SCENARIO}"
    done = run(["play"])
    assert error_parts(done.stderr)[0] == f"Usage{NNBSP}: conteur play [OPTIONS] {{SCÉNARIO}}"


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_an_options_value_is_named_in_the_readers_language(lang: str) -> None:
    rows = rows_of(run(["play", "--help"], lang=None if lang == "fr" else "en").stdout)
    name = {"fr": "JOUEUR", "en": "PLAYER"}[lang]
    assert [row.split()[:2] for row in rows if row.startswith("--as ")] == [["--as", name]]
