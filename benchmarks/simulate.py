"""Benchmark: whole four-against-four vtm fights per second, fought to the end with the real rules.

    .venv/bin/python benchmarks/simulate.py [--runs 400] [--seed 1899] [--profile 100]

On the shipped ``examples/simulation/4v4_1899.yaml`` (both sides ``nearest``), it
times ``conteur.sim.encounters.simulate`` with 1 worker and with 2 (one per
core of the reference machine), checks that both give the same result, and
prints the goal (issue 8: >= 2,000 fights per second on this 2-core machine)
with by how much it is missed. Then a cProfile of ``--profile`` fights in one
process: where the time goes, grouped by module and by function.

Wall-clock and CPU time are both printed: the machine may be shared, and the
load average is shown before and after.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import platform
import pstats
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "simulation" / "4v4_1899.yaml"
GOAL = 2000.0


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo (the platform's name elsewhere)."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def timed(runs: int, seed: int, workers: int) -> tuple[float, float, dict[str, object]]:
    """(wall seconds, CPU seconds of this process and its children, outcome) of one simulation."""
    from conteur.sim.encounters import simulate

    cpu0 = os.times()
    wall0 = time.perf_counter()
    result = simulate(EXAMPLE, runs, seed=seed, workers=workers)
    wall = time.perf_counter() - wall0
    cpu1 = os.times()
    cpu = (cpu1.user - cpu0.user) + (cpu1.children_user - cpu0.children_user)
    cpu += (cpu1.system - cpu0.system) + (cpu1.children_system - cpu0.children_system)
    return wall, cpu, result.outcome_dict()


def profile(fights: int, seed: int) -> None:
    """cProfile of ``fights`` fights in this process: top modules and functions by own time."""
    import yaml

    from conteur.sim.encounters import Job, prepare, run_chunk
    from conteur.sim.tactics import side_tactics

    data = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    sides = side_tactics(data, ["chasseurs", "vampires"])
    job = Job(data, str(EXAMPLE.parent), sides, 20, 50.0, seed)
    prepare(job)
    prof = cProfile.Profile()
    prof.enable()
    tally = run_chunk(job, 0, fights)
    prof.disable()
    stats = pstats.Stats(prof)
    total = sum(v[2] for v in stats.stats.values())  # type: ignore[attr-defined]
    by_module: dict[str, float] = defaultdict(float)
    for (file, _, _), (_, _, own, _, _) in stats.stats.items():  # type: ignore[attr-defined]
        name = file.replace(str(ROOT / "src") + "/", "")
        if "site-packages" in name or name.startswith("/"):
            name = "python / libraries: " + Path(file).name
        if name.startswith("~") or name.startswith("<"):
            name = "builtins (C functions)"
        by_module[name] += own
    print(f"\nprofile of {tally.runs} fights in one process (cProfile adds overhead):")
    print(f"  total own time {total:.2f} s; by module (own time):")
    for name, own in sorted(by_module.items(), key=lambda kv: -kv[1])[:14]:
        print(f"    {100 * own / total:5.1f} %  {name}")
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(28)
    print("\n  by function, cumulative time:")
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    start = next(i for i, line in enumerate(lines) if "ncalls" in line)
    for line in lines[start : start + 29]:
        print("   ", line.replace(str(ROOT / "src") + "/", "")[:150])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1899)
    parser.add_argument("--profile", type=int, default=100, help="fights to profile (0: none)")
    args = parser.parse_args()

    import numpy

    print(
        f"machine: nproc {os.cpu_count()}, cpu {cpu_model()}, "
        f"python {platform.python_version()}, numpy {numpy.__version__}"
    )
    print(f"scenario: {EXAMPLE.relative_to(ROOT)}, {args.runs} fights, seed {args.seed}")
    print(f"load average at the start: {load()}")
    timed(8, args.seed, 1)  # warm-up: imports, tables, caches
    results = {}
    outcomes = []
    for workers in (1, 2):
        wall, cpu, outcome = timed(args.runs, args.seed, workers)
        outcomes.append(outcome)
        rate = args.runs / wall
        results[workers] = rate
        print(
            f"workers {workers}: {wall:7.2f} s wall, {cpu:7.2f} s CPU  ->  {rate:8.1f} fights/s "
            f"({args.runs / cpu:7.1f} per CPU-second)"
        )
    same = outcomes[0] == outcomes[1]
    sides = outcomes[0]["sides"]
    assert isinstance(sides, dict)
    print(
        "outcome: "
        + ", ".join(f"{side} {100 * s['win_rate']:.1f} %" for side, s in sides.items())
        + f"; mean turns {outcomes[0]['rounds']['mean']:.2f}"  # type: ignore[index]
    )
    print(f"same result with 1 and 2 workers: {'yes' if same else 'NO'}")
    best = max(results.values())
    print(
        f"goal >= {GOAL:,.0f} fights/s: {'met' if best >= GOAL else 'missed'} "
        f"(best {best:.1f} fights/s, {GOAL / best:.0f}x short)"
    )
    print(f"load average at the end: {load()}")
    if args.profile:
        profile(args.profile, args.seed)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
