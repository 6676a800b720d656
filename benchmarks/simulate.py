"""Benchmark: whole simulated fights per CPU-second, fought to the end with the real rules.

    .venv/bin/python benchmarks/simulate.py [--runs 200] [--seed 1899] [--rounds 3]
        [--against OLD/src] [--profile 100]

1. **Rates** — fights per CPU-second of this process (``conteur.sim.encounters.simulate``,
   1 worker, best of ``--rounds``) on three shipped scenarios: the four-against-four
   vtm fight ``examples/simulation/4v4_1899.yaml`` (goal, issue 17: >= 250 per
   CPU-second), the hunter ``examples/hunter/cellule.yaml`` and the western
   ``examples/western/saloon.yaml`` (goal: 4x the engine that copied the state before
   every command). With ``--against OLD/src`` (a checkout's ``src``, e.g. ``git
   archive d090bb0 src | tar -x -C /tmp/old``) the same rates are measured on that
   code in a child process, round after round in turns with this code, so that both
   see the same load, and the ratios are printed.
2. **Workers** — the vtm scenario with 1 and 2 workers (one per core of the reference
   machine): wall-clock and CPU time, and whether both give the same result.
3. **Undo** — a fight of twelve against twelve (the vtm scenario three times over,
   over 300 commands): the CPU time of each of the last 40 undos (goal: < 50 ms).
4. **Profile** — cProfile of ``--profile`` vtm fights: own time by module, then the
   functions by cumulative time.

The machine may be shared: the load average is printed at the start and the end,
and CPU time (not wall-clock time) is what the rates count. Identical results,
seed for seed, to the engine before are checked by ``benchmarks/fight_records.py``
(and ``tests/sim/test_fight_records.py``).
"""

from __future__ import annotations

import argparse
import copy
import cProfile
import io
import json
import os
import platform
import pstats
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
VTM = ROOT / "examples" / "simulation" / "4v4_1899.yaml"
SCENARIOS = {
    "vtm 4v4": (VTM, 1),
    "hunter cellule": (ROOT / "examples" / "hunter" / "cellule.yaml", 3),
    "western saloon": (ROOT / "examples" / "western" / "saloon.yaml", 3),
}
"""Name: (scenario, fights per round as a multiple of ``--runs``)."""
GOAL_VTM = 250.0
GOAL_RATIO = 4.0
UNDO_GOAL = 0.050


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


def cpu_seconds() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def rates(runs: int, seed: int) -> dict[str, float]:
    """Fights per CPU-second of each scenario, one round (after a warm-up)."""
    from conteur.sim.encounters import simulate

    out: dict[str, float] = {}
    for name, (path, times) in SCENARIOS.items():
        simulate(path, 4, seed=seed, workers=1)  # warm-up: imports, tables, caches
        n = runs * times
        began = cpu_seconds()
        simulate(path, n, seed=seed, workers=1)
        out[name] = n / (cpu_seconds() - began)
    return out


def rates_of(src: str, runs: int, seed: int) -> dict[str, float]:
    """``rates`` measured on the code in ``src``, in a child process."""
    env = {**os.environ, "PYTHONPATH": src}
    cmd = [sys.executable, __file__, "--rates-only", "--runs", str(runs), "--seed", str(seed)]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    answer: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def timed(runs: int, seed: int, workers: int) -> tuple[float, float, dict[str, object]]:
    """(wall seconds, CPU seconds of this process and its children, outcome) of one simulation."""
    from conteur.sim.encounters import simulate

    cpu0 = cpu_seconds()
    wall0 = time.perf_counter()
    result = simulate(VTM, runs, seed=seed, workers=workers)
    return time.perf_counter() - wall0, cpu_seconds() - cpu0, result.outcome_dict()


def shifted(position: list[float], k: int) -> list[float]:
    return [position[0], position[1] + 4 * k]


def long_fight() -> Any:
    """Twelve against twelve on the vtm scenario (three times its fighters), to the end."""
    from conteur.dice import SeededDice
    from conteur.engine import Encounter
    from conteur.engine.scenario import load_scenario
    from conteur.sim.referee import get_referee
    from conteur.sim.tactics import make_tactic

    data, base = load_scenario(VTM)
    data["combatants"] = [
        {**copy.deepcopy(c), "id": f"{c['id']}{k}", "position": shifted(c["position"], k)}
        for k in range(3)
        for c in data["combatants"]
    ]
    enc = Encounter.start(data, base)
    tactics = {s: make_tactic("vtm", "nearest") for s in ("chasseurs", "vampires")}
    get_referee("vtm").fight(enc, SeededDice(0), tactics, 20, 50.0)
    return enc


def undo_times(undos: int = 40) -> tuple[int, list[float]]:
    """Commands of the long fight, and the CPU seconds of each of its last ``undos`` undos."""
    enc = long_fight()
    commands = len(enc.log)
    times = []
    for _ in range(undos):
        began = time.process_time()
        enc.undo()
        times.append(time.process_time() - began)
    return commands, times


def profile(fights: int, seed: int) -> None:
    """cProfile of ``fights`` vtm fights in this process: top modules and functions by own time."""
    import yaml

    from conteur.sim.encounters import Job, prepare, run_chunk
    from conteur.sim.tactics import side_tactics

    data = yaml.safe_load(VTM.read_text(encoding="utf-8"))
    sides = side_tactics(data, ["chasseurs", "vampires"])
    job = Job(data, str(VTM.parent), sides, 20, 50.0, seed)
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
            name = "builtins (C functions) and generated methods"
        by_module[name] += own
    print(f"\nprofile of {tally.runs} vtm fights in one process (cProfile adds overhead):")
    print(f"  total own time {total:.2f} s; by module (own time):")
    for name, own in sorted(by_module.items(), key=lambda kv: -kv[1])[:16]:
        print(f"    {100 * own / total:5.1f} %  {name}")
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(30)
    print("\n  by function, cumulative time:")
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    start = next(i for i, line in enumerate(lines) if "ncalls" in line)
    for line in lines[start : start + 31]:
        print("   ", line.replace(str(ROOT / "src") + "/", "")[:150])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=200, help="vtm fights per round")
    parser.add_argument("--seed", type=int, default=1899)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of rates (best kept)")
    parser.add_argument("--against", help="another checkout's src to measure in turns")
    parser.add_argument("--profile", type=int, default=100, help="fights to profile (0: none)")
    parser.add_argument("--rates-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rates_only:
        print(json.dumps(rates(args.runs, args.seed)))
        return 0

    import numpy

    print(
        f"machine: nproc {os.cpu_count()}, cpu {cpu_model()}, "
        f"python {platform.python_version()}, numpy {numpy.__version__}"
    )
    print(f"load average at the start: {load()}")
    times = {name: f"{args.runs * k} fights" for name, (_, k) in SCENARIOS.items()}
    print(f"rates, 1 worker, best of {args.rounds} rounds ({', '.join(times.values())}):")
    best: dict[str, float] = {}
    old: dict[str, float] = {}
    for _ in range(args.rounds):
        for name, rate in rates(args.runs, args.seed).items():
            best[name] = max(best.get(name, 0.0), rate)
        if args.against:
            for name, rate in rates_of(args.against, args.runs, args.seed).items():
                old[name] = max(old.get(name, 0.0), rate)
    ok = True
    for name in SCENARIOS:
        line = f"  {name:15s} {best[name]:8.1f} fights per CPU-second"
        if name in old:
            line += f"   ({args.against}: {old[name]:7.1f}; x{best[name] / old[name]:.2f})"
        print(line)
    met = best["vtm 4v4"] >= GOAL_VTM
    ok = ok and met
    print(
        f"goal vtm >= {GOAL_VTM:.0f} per CPU-second: {'met' if met else 'missed'} "
        f"({best['vtm 4v4'] / GOAL_VTM:.2f} of it)"
    )
    if old:
        for name in ("hunter cellule", "western saloon"):
            ratio = best[name] / old[name]
            print(
                f"goal {name} >= {GOAL_RATIO:.0f}x the old code: "
                f"{'met' if ratio >= GOAL_RATIO else 'missed'} (x{ratio:.2f})"
            )
    print(f"load average after the rates: {load()}")

    timed(8, args.seed, 1)  # warm-up
    outcomes = []
    for workers in (1, 2):
        wall, cpu, outcome = timed(args.runs, args.seed, workers)
        outcomes.append(outcome)
        print(
            f"vtm, workers {workers}: {wall:7.2f} s wall, {cpu:7.2f} s CPU  ->  "
            f"{args.runs / wall:8.1f} fights/s ({args.runs / cpu:7.1f} per CPU-second)"
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

    commands, undos = undo_times()
    slowest = max(undos)
    print(
        f"undo in a fight of {commands} commands (12 against 12), last {len(undos)} undos: "
        f"mean {1000 * sum(undos) / len(undos):.2f} ms, slowest {1000 * slowest:.2f} ms of CPU; "
        f"goal < {1000 * UNDO_GOAL:.0f} ms: {'met' if slowest < UNDO_GOAL else 'missed'}"
    )
    print(f"load average at the end: {load()}")
    if args.profile:
        profile(args.profile, args.seed)
    return 0 if same and slowest < UNDO_GOAL else 1


if __name__ == "__main__":
    sys.exit(main())
