"""Benchmark: the start-up of `conteur` commands against `python -c "import numpy"` (issue 17).

    .venv/bin/python benchmarks/startup.py [--runs 20]

Goal: ``conteur --help`` and every ``conteur odds ...`` command, with or without
``--json``, take at most twice the time of ``python -c "import numpy"``. Each command
is a fresh process of the installed console script (imports included); the commands
run in turns, ``--runs`` times each after one untimed round, so that all see the same
load. For each: the CPU time of the child (user + system, from ``wait4``) and its
wall-clock time, median and best; the ratio to the numpy process is taken on the
medians of CPU time (the machine may be shared: CPU time is the steadier figure), the
wall-clock medians are shown beside it. Exits with status 1 when a command fails.

The children have a start cache of their own (``conteur.runcache``, in a temporary
folder), filled by the untimed round as an installation's is by its first command; one
more line, beside the goal, shows ``odds attack`` with the cache off (``UNCACHED``).

``--compare BIN`` (another checkout's ``.venv/bin``, say ``/work/main/.venv/bin``) runs
every ``conteur`` command of that installation too, in the same turns, marked with the
checkout's name (``[main]``):
two versions measured under the same load. ``PYTHONDONTWRITEBYTECODE`` is dropped from
the children's environment, so that the untimed round writes the ``.pyc`` files an
installation has (with it, every run compiles conteur's sources: ~0.1 s more for
``odds attack``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
CONTEUR = str(BIN / "conteur")
SCENARIO = str(ROOT / "examples" / "simulation" / "4v4_1899.yaml")
GOAL = 2.0

COMMANDS: dict[str, list[str]] = {
    'python -c "import numpy"': [sys.executable, "-c", "import numpy"],
    "conteur --help": [CONTEUR, "--help"],
    "conteur odds vtm --pool 6 --difficulty 6": [
        CONTEUR, "odds", "vtm", "--pool", "6", "--difficulty", "6",
    ],
    "conteur odds vtm --pool 6 --difficulty 6 --json": [
        CONTEUR, "odds", "vtm", "--pool", "6", "--difficulty", "6", "--json",
    ],
    "conteur odds hunter --pool 5": [CONTEUR, "odds", "hunter", "--pool", "5"],
    "conteur odds western --skill 45": [CONTEUR, "odds", "western", "--skill", "45"],
    "conteur odds attack (vtm 4v4) --json": [
        CONTEUR, "odds", "attack", SCENARIO,
        "--attacker", "abberline", "--target", "marius", "--json",
    ],
}  # fmt: skip
"""Name: argument list. The first is the reference."""

UNCACHED = {
    "conteur odds attack (vtm 4v4) --json, no start cache": [
        "/usr/bin/env", "CONTEUR_CACHE_DIR=off", *COMMANDS["conteur odds attack (vtm 4v4) --json"],
    ],
}  # fmt: skip
"""Shown beside the goal, not held to it: the start when ``conteur.runcache`` is off (or a
first run), every method of conteur's dataclasses compiled and every shipped table parsed."""


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV["CONTEUR_CACHE_DIR"] = tempfile.mkdtemp(prefix="conteur-startup-")
"""The start cache of the run's own, filled by the untimed round as by a first use."""
ENV |= {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
"""One BLAS thread: numpy's import starts its BLAS threads, which spin on an idle core and
add their CPU time to the reference (296 ms of CPU for 166 ms of wall clock, session 15)."""


def compared(commands: dict[str, list[str]], other: Path) -> dict[str, list[str]]:
    """``commands``, then each ``conteur`` command run by the console script in ``other``."""
    out = dict(commands)
    label = next((p for p in reversed(other.parts) if p not in ("bin", ".venv")), str(other))
    for name, argv in commands.items():
        if CONTEUR in argv:
            where = argv.index(CONTEUR)
            out[f"{name} [{label}]"] = [*argv[:where], str(other / "conteur"), *argv[where + 1 :]]
    return out


def run_once(argv: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of ``argv`` (output discarded)."""
    began = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - began
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}):\n{err}")
    return usage.ru_utime + usage.ru_stime, wall


def measure(
    commands: dict[str, list[str]], runs: int
) -> dict[str, tuple[list[float], list[float]]]:
    """Each command's CPU and wall times over ``runs`` rounds, in turns."""
    for argv in commands.values():
        run_once(argv)  # untimed: file caches, .pyc files
    out: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():
            cpu, wall = run_once(argv)
            out[name][0].append(cpu)
            out[name][1].append(wall)
    return out


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--compare", type=Path, help="another installation's bin folder")
    args = parser.parse_args()
    commands = {**COMMANDS, **UNCACHED}
    if args.compare is not None:
        commands = compared(commands, args.compare)
    print(f"load average at the start: {load()}")
    times = measure(commands, args.runs)
    ref_name = next(iter(commands))
    ref_cpu = statistics.median(times[ref_name][0])
    ref_wall = statistics.median(times[ref_name][1])
    print(f"start-up, {args.runs} runs each in turns (CPU = user + system of the process):")
    missed = []
    for name, (cpu, wall) in times.items():
        ratio = statistics.median(cpu) / ref_cpu
        line = (
            f"  {name:55s} CPU median {1000 * statistics.median(cpu):6.1f} ms "
            f"(best {1000 * min(cpu):6.1f})  wall median {1000 * statistics.median(wall):6.1f} ms"
            f"  x{ratio:.2f} CPU, x{statistics.median(wall) / ref_wall:.2f} wall"
        )
        print(line)
        if name != ref_name and ratio > GOAL and name in COMMANDS:
            missed.append(name)
    print(
        f"goal <= {GOAL:.0f}x numpy's import (CPU medians): "
        + ("met" if not missed else "missed by " + ", ".join(missed))
    )
    print(f"load average at the end: {load()}")
    shutil.rmtree(ENV["CONTEUR_CACHE_DIR"], ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
