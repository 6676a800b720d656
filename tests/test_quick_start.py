"""The Quick start's two commands: ``make run`` installs only what the tracker needs, quietly,
and prints the game master's link last; ``make test`` adds the developer tools. And the
project builds without setuptools' deprecation warning (an SPDX ``license`` string)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def dry_run(target: str, *variables: str) -> str:
    """The commands ``make <target> [VAR=value...]`` would run from scratch (``-n -B``:
    nothing runs)."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "-B", target, *variables],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return done.stdout


def test_make_run_installs_the_runtime_only_and_quietly() -> None:
    commands = dry_run("run")
    installs = [line for line in commands.splitlines() if "pip install" in line]
    assert installs and all("--quiet" in line for line in installs)
    assert any(re.search(r"-e \.(\s|;|$)", line) for line in installs)
    assert "[dev]" not in commands  # no pytest, mypy, ruff, Playwright, icepool...
    assert "pip.log" in commands  # pip's output is kept out of sight (shown if it fails)
    last = commands.strip().splitlines()[-1]
    assert last.endswith("conteur serve --demo")  # nothing after the tracker (its link last)


def test_make_run_host_listens_on_the_local_network() -> None:
    last = dry_run("run", "HOST=0.0.0.0").strip().splitlines()[-1]
    assert last.endswith("conteur serve --demo --host 0.0.0.0")
    assert dry_run("run", "HOST=").strip().splitlines()[-1].endswith("conteur serve --demo")


def test_make_test_installs_the_dev_extras() -> None:
    commands = dry_run("test")
    assert "-e '.[dev]'" in commands
    assert commands.index("-e .") < commands.index("-e '.[dev]'")  # on top of the runtime
    assert "pytest" in commands and "mypy" in commands


def test_the_license_is_an_spdx_string() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "MIT"  # a TOML table is deprecated (setuptools 77)
    requires = project["build-system"]["requires"]
    version = next(r for r in requires if r.startswith("setuptools"))
    assert tuple(int(n) for n in re.findall(r"\d+", version)[:1]) >= (77,)


def test_the_quick_start_is_make_run_and_make_test() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    assert block.strip().splitlines() == ["make run", "make test"]
