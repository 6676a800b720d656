#!/usr/bin/env python3
"""Rewrite the golden fights: ``tests/golden/NAME.json`` for each ``examples/NAME.yaml``.

A golden file is exactly what ``conteur play`` prints with ``--json`` for the
example's scenario, script (``NAME.txt``) and typed dice (``NAME.dice``)::

    conteur play examples/NAME.yaml --script examples/NAME.txt --dice examples/NAME.dice --json

``tests/test_golden.py`` plays each example again and compares. When a change
of the rules or of the engine changes a fight on purpose, regenerate the files
and read the diff before committing it:

    python scripts/update_golden.py            # every example
    python scripts/update_golden.py saloon     # one example
    python scripts/update_golden.py --check    # exit 1 when a golden file is out of date
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
GOLDEN = ROOT / "tests" / "golden"


def examples() -> list[str]:
    """The names of the examples that have a scenario, a script and a dice file.

    An example in a ruleset's folder is named with it (``hunter/cellule``).
    """
    found = [*EXAMPLES.glob("*.yaml"), *EXAMPLES.glob("*/*.yaml")]
    return sorted(
        p.relative_to(EXAMPLES).with_suffix("").as_posix()
        for p in found
        if p.with_suffix(".txt").exists() and p.with_suffix(".dice").exists()
    )


def play_json(name: str) -> dict[str, Any]:
    """The ``--json`` output of ``conteur play`` on one example (paths from the repository)."""
    from typer.testing import CliRunner

    from conteur.cli import app

    args = [
        "play",
        f"examples/{name}.yaml",
        "--script",
        f"examples/{name}.txt",
        "--dice",
        f"examples/{name}.dice",
        "--json",
    ]
    result = CliRunner().invoke(app, args, env={"CONTEUR_LANG": None})
    if result.exit_code != 0:
        raise SystemExit(f"{name}: conteur play failed ({result.exit_code}):\n{result.output}")
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def dump(data: dict[str, Any]) -> str:
    """The text of a golden file: indented JSON, accents kept, a final newline."""
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="examples to regenerate (default: all)")
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 when stale")
    args = parser.parse_args(argv)
    import os

    os.chdir(ROOT)
    names = args.names or examples()
    stale = []
    for name in names:
        path = GOLDEN / f"{name}.json"
        text = dump(play_json(name))
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    if stale:
        print("out of date: " + ", ".join(stale) + " (run python scripts/update_golden.py)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
