"""What the instruction-counting benchmarks share: valgrind's run and total, address
randomisation off, another commit's files unpacked, the machine's load.

Used by ``fight_instructions.py`` (callgrind over seeded fights) and
``attack_odds_instructions.py`` (cachegrind over odds queries).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tarfile
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NO_ASLR = ["setarch", "-R"] if shutil.which("setarch") else []
"""Addresses kept from run to run: objects hashed by address (sets of them) are then
walked in the same order, and two counts of the same code agree."""


def have_valgrind() -> bool:
    """Whether valgrind is installed; says why not when it is not."""
    if shutil.which("valgrind") is None:
        print("valgrind not found: no instruction counts (apt-get install valgrind)")
        return False
    return True


def instructions(
    tool: str,
    argv: Sequence[str],
    *,
    out: Path,
    env: Mapping[str, str],
    cwd: Path,
    options: Sequence[str] = (),
) -> int:
    """The instructions valgrind's ``tool`` (``callgrind``, ``cachegrind``) counts for the
    process ``argv``, its output file written to ``out``."""
    subprocess.run(
        [*NO_ASLR, "valgrind", f"--tool={tool}", *options, f"--{tool}-out-file={out}", *argv],
        check=True, env=dict(env), cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    match = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
    if match is None:
        raise SystemExit(f"no instruction total in {out}")
    return int(match.group(1))


def archive(rev: str, parts: Sequence[str], target: Path) -> Path:
    """The commit ``rev``'s ``parts`` (folders), unpacked in ``target``."""
    tar = target.with_suffix(".tar")
    subprocess.run(
        ["git", "archive", "--format=tar", f"--output={tar}", rev, *parts], check=True, cwd=ROOT
    )
    with tarfile.open(tar) as bundle:
        bundle.extractall(target, filter="data")
    return target


def load() -> str:
    """The load average, as the benchmarks print it."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())
