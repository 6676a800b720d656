"""Odds charts: conteur against icepool, side by side (``make bench``).

(a) the whole vtm chart (pools 1..30 x difficulties 2..10: P(at least one net
    success), P(botch)) in process;
(b) the whole hunter chart (pools 0..30 x 10/9/8-again: P(at least one
    success), P(dramatic failure), P(exceptional));
(c) the whole process ``conteur odds vtm --table --json`` against a bare icepool
    script printing the same chart (``benchmarks/icepool_vtm_chart.py``).

Each pair is checked equal within 1e-12. Timings are the best of several runs
(the median is shown too). Goals: (a) <= 1.5 ms and >= 50x faster than icepool;
(c) <= 2x the icepool script.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import icepool
import numpy as np

from conteur.rulesets.hunter.charts import hunter_chart
from conteur.rulesets.vtm.charts import vtm_chart

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from icepool_vtm_chart import chart as icepool_vtm_chart  # noqa: E402

TOL = 1e-12
MAX_POOL = 30
AGAINS = (10, 9, 8)
EXCEPTIONAL = 5


def icepool_hunter_chart(max_pool: int = MAX_POOL) -> dict[str, np.ndarray]:
    """The hunter chart with icepool, as fast as we could write it.

    One die's successes: faces >= again are marked 100 and exploded; the sum
    is read back as (explosions + final success). Only "0..4 or 5+" matters
    for the chart, so the successes are clipped at 5, per die and after each
    added die. An explosion depth of 5 is exact for the three columns: a die
    that reaches the depth already has 5 successes or more.
    """
    rows = max_pool + 1
    success = np.zeros((rows, len(AGAINS)))
    dramatic = np.zeros((rows, len(AGAINS)))
    exceptional = np.zeros((rows, len(AGAINS)))
    # Dramatic failure: highest of (2 success, 1 a one, 0 else) is 1.
    flag_die = icepool.d10.map(lambda x: 2 if x >= 8 else (1 if x == 1 else 0))
    for j, again in enumerate(AGAINS):
        marked = icepool.d10.map(lambda x, a=again: 100 if x >= a else (1 if x >= 8 else 0))
        chain = marked.explode([100], depth=EXCEPTIONAL).map(
            lambda s: min(s // 100 + s % 100, EXCEPTIONAL)
        )
        after_ten = (chain + 1).clip(0, EXCEPTIONAL)
        chance = icepool.d10.map({face: after_ten if face == 10 else 0 for face in range(1, 11)})
        success[0, j] = float(chance.probability(">=", 1))
        dramatic[0, j] = float(icepool.d10.probability(1))
        exceptional[0, j] = float(chance.probability(">=", EXCEPTIONAL))
        pool, flag = chain, flag_die
        for n in range(1, rows):
            if n > 1:
                pool = (pool + chain).clip(0, EXCEPTIONAL)
                flag = flag.binary_operator(flag_die, max)
            success[n, j] = float(pool.probability(">=", 1))
            dramatic[n, j] = float(flag.probability(1))
            exceptional[n, j] = float(pool.probability(">=", EXCEPTIONAL))
    return {"p_success": success, "p_dramatic": dramatic, "p_exceptional": exceptional}


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, float, float, Any]:
    """(first, best, median) wall time in ms over ``repeat`` calls, and the last result."""
    times = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - start) * 1e3)
    return times[0], min(times), statistics.median(times), result


def process_times(cmds: dict[str, list[str]], repeat: int) -> dict[str, tuple[float, float, str]]:
    """Per command: (best, median) wall time in ms and its stdout.

    The commands run in turns (A, B, C, A, B, C, ...) so that a change of load
    on the machine affects them alike. One untimed run of each comes first
    (file cache, bytecode).
    """
    times: dict[str, list[float]] = {name: [] for name in cmds}
    outs: dict[str, str] = {}
    for cmd in cmds.values():
        subprocess.run(cmd, capture_output=True, text=True, check=True)
    for _ in range(repeat):
        for name, cmd in cmds.items():
            start = time.perf_counter()
            proc = subprocess.run(cmd, capture_output=True, text=True, check=True)
            times[name].append((time.perf_counter() - start) * 1e3)
            outs[name] = proc.stdout
    return {name: (min(t), statistics.median(t), outs[name]) for name, t in times.items()}


def max_diff(a: Any, b: Any) -> float:
    return float(np.max(np.abs(np.asarray(a, dtype=float) - np.asarray(b, dtype=float))))


def machine() -> dict[str, str]:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "nproc": str(os.cpu_count()),
        "cpu": model,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "icepool": icepool.__version__,
    }


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200, help="runs of conteur in process")
    parser.add_argument("--icepool-repeat", type=int, default=5, help="runs of icepool in process")
    parser.add_argument("--process-repeat", type=int, default=15, help="runs of each process")
    args = parser.parse_args()

    info = machine()
    print("machine: " + ", ".join(f"{k} {v}" for k, v in info.items()))
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    equal = True

    # (a) vtm chart in process
    vtm_chart(MAX_POOL)  # warm caches and imports
    _, c_best, c_med, ours = timed(lambda: vtm_chart(MAX_POOL), args.repeat)
    i_first, i_best, i_med, theirs = timed(icepool_vtm_chart, args.icepool_repeat)
    diff = max(
        max_diff(ours.p_success, theirs["p_success"]), max_diff(ours.p_botch, theirs["p_botch"])
    )
    equal &= diff <= TOL
    ratio = i_best / c_best
    print("\n(a) vtm chart, pools 1..30 x difficulties 2..10, in process")
    print(f"    conteur  best {c_best:8.3f} ms   median {c_med:8.3f} ms   ({args.repeat} runs)")
    print(
        f"    icepool  best {i_best:8.1f} ms   median {i_med:8.1f} ms   first {i_first:.1f} ms"
        f"   ({args.icepool_repeat} runs)"
    )
    print(f"    icepool/conteur {ratio:.0f}x   max |diff| {diff:.2e}")
    print(
        f"    goal <= 1.5 ms: {verdict(c_best <= 1.5)};  goal >= 50x: {verdict(ratio >= 50)};"
        f"  equal within 1e-12: {verdict(diff <= TOL)}"
    )

    # (b) hunter chart in process
    hunter_chart(MAX_POOL)
    _, h_best, h_med, hours = timed(lambda: hunter_chart(MAX_POOL), args.repeat)
    j_first, j_best, j_med, htheirs = timed(icepool_hunter_chart, args.icepool_repeat)
    hdiff = max(
        max_diff(hours.p_success, htheirs["p_success"]),
        max_diff(hours.p_dramatic, htheirs["p_dramatic"]),
        max_diff(hours.p_exceptional, htheirs["p_exceptional"]),
    )
    equal &= hdiff <= TOL
    print("\n(b) hunter chart, pools 0..30 x again 10/9/8, in process")
    print(f"    conteur  best {h_best:8.3f} ms   median {h_med:8.3f} ms   ({args.repeat} runs)")
    print(
        f"    icepool  best {j_best:8.1f} ms   median {j_med:8.1f} ms   first {j_first:.1f} ms"
        f"   ({args.icepool_repeat} runs)"
    )
    print(
        f"    icepool/conteur {j_best / h_best:.0f}x   max |diff| {hdiff:.2e}"
        f"   equal within 1e-12: {verdict(hdiff <= TOL)}"
    )

    # (c) whole processes
    script = Path(sys.executable).with_name("conteur")
    chart_args = ["odds", "vtm", "--table", "--json"]
    cmds = {
        "conteur": [str(script), *chart_args],
        "typer app": [sys.executable, "-c", "from conteur.cli import main; main()", *chart_args],
        "icepool": [sys.executable, str(HERE / "icepool_vtm_chart.py")],
    }
    if not script.exists():
        del cmds["conteur"]
    runs = process_times(cmds, args.process_repeat)
    ice_best, _, ice_out = runs["icepool"]
    reference = json.loads(ice_out)
    print("\n(c) whole process: `conteur odds vtm --table --json` vs a bare icepool script")
    print(
        f"    ({args.process_repeat} runs each, in turns; 'typer app' is the same command"
        " through the Typer app, without the console script's fast path)"
    )
    pratio = math.nan
    for name, (best, med, out) in runs.items():
        data = json.loads(out)
        pdiff = max(
            max_diff(data["p_success"], reference["p_success"]),
            max_diff(data["p_botch"], reference["p_botch"]),
        )
        equal &= pdiff <= TOL and data["pools"] == reference["pools"]
        ratio = best / ice_best
        if name == "conteur":
            pratio = ratio
        print(
            f"    {name:9s} best {best:7.1f} ms   median {med:7.1f} ms   "
            f"x{ratio:.2f} of icepool   max |diff| {pdiff:.2e}"
        )
    print(f"    goal conteur <= 2x icepool: {verdict(pratio <= 2.0)}")
    print(f"\nload average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    if not equal or any(math.isnan(x) for x in (diff, hdiff)):
        print("\nFAILED: conteur and icepool disagree by more than 1e-12")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
