"""Benchmark: vtm fights per CPU-second with the hot modules compiled by mypyc, against pure Python.

    .venv/bin/python benchmarks/compiled.py [--rounds 10] [--fights 20] [--records 0]
        [--keep DIR] [--modules conteur/engine/ruleset.py ...]

An experiment, not the way conteur is installed or run (``make run`` and ``make test``
use the pure-Python package). The steps:

1. **Build**: ``src/conteur`` is copied into a temporary directory and ``MODULES``
   (the modules where cProfile finds most of a vtm fight's own time) are compiled
   there with mypyc (``python -m mypyc``, under ``nice -n 10``), in place: each
   gets its extension module beside its ``.py``, which Python imports first. The
   build's wall-clock and CPU time are printed.
2. **Same fights**: ``benchmarks/fight_records.py`` runs in a child process with the
   compiled copy first on ``sys.path`` (after checking that each compiled module
   was imported from its extension), against ``tests/sim/fight_records.json``:
   every configuration must print "same" (``--records N``: the first N fights of
   each; 0, every recorded fight).
3. **Rates**: paired rounds (``benchmarks/paired.py``) of ``--fights`` seeded vtm
   fights on ``examples/simulation/4v4_1899.yaml``, one long-lived worker on the
   pure code and one on the compiled copy, in turns; each side's median and best
   fights per CPU-second and the median of the paired ratios.

The load average is printed at the start and the end. Needs a C compiler and
Python's headers (mypyc comes with mypy, in the ``[dev]`` extras).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from paired import paired_times

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
VTM = [
    "turn", "equipment", "actions", "attack", "modifiers", "visibility", "sim", "strike",
    "rulebook", "locks", "ruleset",
]  # fmt: skip
MODULES = [
    *(f"conteur/rulesets/vtm/{name}.py" for name in VTM),
    *(f"conteur/engine/{name}.py" for name in ("geometry", "answers", "encounter")),
    "conteur/dice/sources.py",
]
"""The compiled modules (paths inside ``src``): among the vtm fight's hottest by cProfile's
own time, those mypyc compiles into code that gives the same fights (docs/performance.md,
"Compiled hot modules, session 11", says why the others are left out)."""

CHECK = """
import importlib, runpy, sys
script, records, *modules = sys.argv[1:]
for path in modules:
    name = path.removesuffix(".py").replace("/", ".")
    where = importlib.import_module(name).__file__ or ""
    if where.endswith(".py"):
        sys.exit(f"{name} was not compiled: {where}")
sys.argv = [script, "--fights", records]
runpy.run_path(script, run_name="__main__")
"""
"""Checks that the compiled modules are the ones imported, then runs ``fight_records.py``."""


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def build(into: Path, modules: list[str]) -> tuple[float, float]:
    """Copy the package into ``into`` and compile ``modules`` there: (wall, CPU) seconds."""
    shutil.copytree(
        SRC / "conteur", into / "conteur", ignore=shutil.ignore_patterns("__pycache__", "*.so")
    )
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    cmd = ["nice", "-n", "10", sys.executable, "-m", "mypyc", *modules]
    done = subprocess.run(cmd, cwd=into, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    (into / "build.log").write_text(done.stdout + done.stderr, encoding="utf-8")
    if done.returncode != 0:
        print(done.stdout[-4000:], done.stderr[-4000:], sep="\n")
        raise SystemExit(f"mypyc failed (exit {done.returncode}); log: {into / 'build.log'}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def same_fights(into: Path, modules: list[str], records: int) -> bool:
    """Whether ``fight_records.py`` finds every recorded fight the same with the compiled copy."""
    env = dict(os.environ, PYTHONPATH=str(into))
    script = str(ROOT / "benchmarks" / "fight_records.py")
    cmd = [sys.executable, "-c", CHECK, script, str(records), *modules]
    done = subprocess.run(cmd, env=env, text=True, check=False, capture_output=True)
    print(done.stdout, done.stderr, sep="", end="")
    return done.returncode == 0


def rates(into: Path, rounds: int, fights: int) -> None:
    """Print the paired rounds' rates of the pure code and of the compiled copy in ``into``."""
    times = paired_times({"pure": None, "compiled": str(into)}, rounds, fights)
    for name in ("pure", "compiled"):
        got = [fights / t for t in times[name]]
        print(
            f"{name:8s}: median {statistics.median(got):6.1f}, best {max(got):6.1f} "
            "vtm fights per CPU-second"
        )
    ratios = [p / c for p, c in zip(times["pure"], times["compiled"], strict=True)]
    print(f"compiled / pure, median of the paired rounds: x{statistics.median(ratios):.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--fights", type=int, default=20)
    parser.add_argument("--records", type=int, default=0, help="fights per configuration")
    parser.add_argument("--keep", help="build into this (new) directory and keep it")
    parser.add_argument("--reuse", help="measure the build kept in this directory")
    parser.add_argument("--modules", nargs="+", default=MODULES, help="paths inside src")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    print(f"load average at the start: {load()}")
    into = Path(args.keep or args.reuse or tempfile.mkdtemp(prefix="conteur-mypyc-"))
    try:
        if not args.reuse:
            wall, cpu = build(into, args.modules)
            print(f"mypyc: {len(args.modules)} modules built in {wall:.0f} s ({cpu:.0f} s of CPU)")
            print(f"load average after the build: {load()}")
        same = same_fights(into, args.modules, args.records)
        print("same fights:", "yes" if same else "NO")
        if same:
            rates(into, args.rounds, args.fights)
    finally:
        if not (args.keep or args.reuse):
            shutil.rmtree(into, ignore_errors=True)
    print(f"load average at the end: {load()}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
