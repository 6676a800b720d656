"""The shipped hunter examples: the seed written at the top of a script plays it whole."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conteur.cli import app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "hunter"


@pytest.mark.parametrize("name", ["cellule"])
def test_each_hunter_example_plays_to_the_end_with_the_seed_at_the_top_of_its_script(
    name: str,
) -> None:
    script = EXAMPLES / f"{name}.txt"
    header = "".join(line for line in script.read_text("utf-8").splitlines()[:6])
    found = re.search(r"--seed (\d+)", header)
    assert found, f"{script} names no seed at its top"
    args = ["play", str(EXAMPLES / f"{name}.yaml"), "--script", str(script)]
    args += ["--seed", found.group(1), "--json"]
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    assert CliRunner().invoke(app, args).stdout == first.stdout
