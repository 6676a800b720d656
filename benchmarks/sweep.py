"""Benchmark: sweeps (`conteur simulate SCENARIO --sweep SPEC`, issue 17, item 3).

    .venv/bin/python benchmarks/sweep.py [--runs 100] [--rounds 3] [--seed 1]

For one sweep of each ruleset's shipped example — vtm ``abberline*=1..4`` (copies of a
combatant), hunter ``no_defense_vs_firearms=non,oui`` (an option), western
``ike.bagarre=20,40,60`` (a trait) — in this process:

1. **Fights per CPU-second** of ``conteur.sim.sweep.sweep`` with 1 worker, ``--runs``
   fights per value, best of ``--rounds`` (CPU time of the process: the machine may be
   shared), beside the same number of fights of the plain scenario
   (``conteur.sim.encounters.simulate``): what varying the scenario and tallying each value
   cost on top of the fights (for copies of a combatant the varied fights are larger).
2. **Workers**: the same sweep with 2 workers gives the same result (seed for seed).
3. **Whole command**: ``conteur simulate SCENARIO --sweep SPEC --runs N --seed S --json``
   with and without ``--no-plot`` (the PNG and SVG charts), the CPU time of the process,
   best of ``--rounds``, in turns.

The load average is printed at the start and the end. Exits with status 1 when 1 and 2
workers disagree.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONTEUR = str(Path(sys.executable).parent / "conteur")
SWEEPS = {
    "vtm 4v4": (ROOT / "examples" / "simulation" / "4v4_1899.yaml", "abberline*=1..4"),
    "hunter cellule": (
        ROOT / "examples" / "hunter" / "cellule.yaml", "no_defense_vs_firearms=non,oui"
    ),
    "western saloon": (ROOT / "examples" / "western" / "saloon.yaml", "ike.bagarre=20,40,60"),
}  # fmt: skip
"""Name: (scenario, sweep spec)."""


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def process_cpu(argv: list[str]) -> float:
    """CPU seconds (user + system, the process and its children) of one run of ``argv``."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{err}")
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=100, help="fights per value")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from conteur.sim.encounters import simulate
    from conteur.sim.sweep import sweep

    print(f"load average at the start: {load()}")
    ok = True
    for name, (path, spec) in SWEEPS.items():
        sweep(path, spec, 2, seed=args.seed)  # warm-up: imports, tables, caches
        best_sweep = best_plain = 0.0
        fights = 0
        result = None
        for _ in range(args.rounds):
            began = time.process_time()
            result = sweep(path, spec, args.runs, seed=args.seed)
            spent = time.process_time() - began
            fights = args.runs * len(result.points)
            best_sweep = max(best_sweep, fights / spent)
            began = time.process_time()
            simulate(path, fights, seed=args.seed)
            best_plain = max(best_plain, fights / (time.process_time() - began))
        assert result is not None
        two = sweep(path, spec, args.runs, seed=args.seed, workers=2)
        same = two.outcome_dict() == result.outcome_dict()
        ok = ok and same
        closest = result.outcome_dict()["closest"]
        print(
            f"{name:15s} --sweep {spec!r}: {len(result.points)} values x {args.runs} fights; "
            f"{best_sweep:7.1f} fights per CPU-second (the plain scenario: {best_plain:7.1f}; "
            f"x{best_sweep / best_plain:.2f}); closest to even at {json.dumps(closest['value'])} "
            f"(spread {closest['spread']:.2f}); "
            f"same with 2 workers: {'yes' if same else 'NO'}"
        )
    print(f"whole command, best of {args.rounds} (CPU of the process and its children):")
    with tempfile.TemporaryDirectory() as tmp:
        for name, (path, spec) in SWEEPS.items():
            base = [CONTEUR, "simulate", str(path), "--sweep", spec, "--runs", str(args.runs)]
            base += ["--seed", str(args.seed), "--json"]
            plot = [*base, "--plot", str(Path(tmp) / "sweep.png")]
            no_plot = [*base, "--no-plot"]
            with_plot = without = float("inf")
            for _ in range(args.rounds):
                without = min(without, process_cpu(no_plot))
                with_plot = min(with_plot, process_cpu(plot))
            print(
                f"  {name:15s} --no-plot {without:6.2f} s;  with the PNG and SVG charts "
                f"{with_plot:6.2f} s (the charts: {with_plot - without:+.2f} s)"
            )
    print(f"load average at the end: {load()}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
