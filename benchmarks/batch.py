"""Batches of attacks with numpy: attacks per second per core, and the physical limit.

Times ``conteur.rulesets.vtm.batch.roll_strikes`` on a typical strike (7 attack dice at 6
against a 4-dice dodge at 6, 6 lethal damage dice, 4 soak dice), single
threaded, and in the same run — the runs interleaved, so that both see the
same load — what numpy's PCG64 can deliver for the dice such a batch needs:

* ``rng.integers(1, 11, dtype=np.uint8)`` faces, as many per attack as the
  chain of ``roll_strike`` rolls on average (the numpy way of rolling d10s);
* raw PCG64 output (``bit_generator.random_raw``), one byte per die and
  256/250 bytes per die for the rejected bytes — the floor for the way the
  batch rolls its dice.

Each timing is the best of ``--runs`` runs (the median is shown too), both in
CPU time of the thread (``time.thread_time``: the machine is shared, and this
is the time the core actually spent) and in wall-clock time. Goal: >= 5 million
attacks per second per core. Also checks the batch's P(hit) and mean levels
against the exact odds (exit status 1 beyond 6 standard errors).

    python benchmarks/batch.py [--attacks N] [--runs R] [--profile]
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import cProfile  # noqa: E402
import math  # noqa: E402
import platform  # noqa: E402
import pstats  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from conteur.dice import distribution_of  # noqa: E402
from conteur.rulesets.vtm.batch import CHUNK, REJECT, StrikeBatch, roll_strikes  # noqa: E402  # noqa: E402
from conteur.rulesets.vtm.strike import Defence, Strike, roll_strike  # noqa: E402

GOAL = 5_000_000
"""Attacks per second per core."""

TYPICAL = Strike(
    attacker="a",
    target="t",
    maneuver="weapon_strike",
    pool=7,
    difficulty=6,
    damage_dice=6,
    damage_type="lethal",
    soak=4,
    defence=Defence(defender="t", kind="dodge", pool=4, difficulty=6),
)


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
    }


def chain_dice(b: StrikeBatch) -> float:
    """Mean dice per attack that ``roll_strike`` itself rolls (what the chain needs)."""
    s = b.strike
    n = len(b)
    dice = float(max(s.pool, 0))
    if s.defence is not None:
        dice += max(s.defence.pool, 0) * np.count_nonzero(b.attack_successes > 0) / n
    if not s.no_damage:
        base = s.damage_dice + s.extra_damage_dice - (0 if s.every_success_adds else 1)
        counts = np.maximum(b.net[b.hit].astype(np.int64) + base, 1)
        dice += counts.sum() / n
        dice += max(s.soak, 0) * np.count_nonzero(b.damage > 0) / n
    return dice


def timed(fn: Callable[[], object]) -> tuple[float, float]:
    """(CPU seconds of this thread, wall seconds) of one call."""
    c0, w0 = time.thread_time(), time.perf_counter()
    fn()
    return time.thread_time() - c0, time.perf_counter() - w0


def integers_faces(rng: np.random.Generator, dice: int) -> None:
    """``dice`` d10 faces with ``Generator.integers``, in blocks as large as a batch chunk's."""
    step = CHUNK * 16
    for start in range(0, dice, step):
        rng.integers(1, 11, size=min(step, dice - start), dtype=np.uint8)


def raw_bytes(rng: np.random.Generator, count: int) -> None:
    """``count`` bytes of raw PCG64 output, in blocks as large as a batch chunk's."""
    step = CHUNK * 16
    raw = rng.bit_generator.random_raw
    for start in range(0, count, step):
        raw((min(step, count - start) + 7) // 8)


def check_exact(b: StrikeBatch) -> tuple[bool, str]:
    """P(hit) and mean levels of the batch against the exact odds (6 standard errors)."""
    exact = distribution_of(lambda d: (lambda o: (o.hit, o.levels))(roll_strike(b.strike, d)))
    p_hit = sum(p for (hit, _), p in exact.items() if hit)
    mean = sum(lv * p for (_, lv), p in exact.items())
    var = sum(lv * lv * p for (_, lv), p in exact.items()) - mean * mean
    n = len(b)
    got_hit = b.share("hit")
    z_hit = (got_hit - p_hit) / math.sqrt(p_hit * (1 - p_hit) / n)
    z_lv = (b.mean_levels - mean) / math.sqrt(var / n)
    ok = abs(z_hit) <= 6 and abs(z_lv) <= 6
    return ok, (
        f"P(hit) {got_hit:.5f} (exact {p_hit:.5f}, z {z_hit:+.2f}); "
        f"mean levels {b.mean_levels:.5f} (exact {mean:.5f}, z {z_lv:+.2f})"
    )


def rate(n: float, seconds: float) -> str:
    return f"{n / seconds / 1e6:6.2f} M/s"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attacks", type=int, default=2_000_000, help="attacks per run")
    parser.add_argument("--runs", type=int, default=11, help="timed runs of each")
    parser.add_argument("--profile", action="store_true", help="print a profile of one batch")
    args = parser.parse_args()
    n = args.attacks

    info = machine()
    print("machine: " + ", ".join(f"{k} {v}" for k, v in info.items()))
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(
        f"strike: {TYPICAL.pool} dice at {TYPICAL.difficulty}, dodge 4 at 6, "
        f"{TYPICAL.damage_dice} {TYPICAL.damage_type} damage dice, soak {TYPICAL.soak}; "
        f"{n:,} attacks per run, {args.runs} runs, single thread"
    )

    first = roll_strikes(TYPICAL, n, np.random.default_rng(0))  # warm-up, and the dice counts
    needed = chain_dice(first)
    drawn = first.bytes_drawn / n
    dice_total = round(needed * n)
    bytes_total = round(dice_total * 256 / REJECT)
    print(
        f"dice per attack: {needed:.2f} rolled by the chain (roll_strike); "
        f"{drawn:.2f} bytes drawn by the batch (rejected bytes, whole-chunk pools included)"
    )

    kinds = ("batch", "integers", "raw")
    cpu: dict[str, list[float]] = {k: [] for k in kinds}
    wall: dict[str, list[float]] = {k: [] for k in kinds}
    rng = np.random.default_rng(1000)
    runs: dict[str, Callable[[], object]] = {
        "batch": lambda: roll_strikes(TYPICAL, n, rng),
        "integers": lambda: integers_faces(rng, dice_total),
        "raw": lambda: raw_bytes(rng, bytes_total),
    }
    for _ in range(args.runs):
        for kind, fn in runs.items():  # in turns, so that all three see the same load
            c, w = timed(fn)
            cpu[kind].append(c)
            wall[kind].append(w)

    best = {k: min(v) for k, v in cpu.items()}
    labels = {
        "batch": "roll_strikes (every die)",
        "integers": f"integers(1, 11, uint8), {needed:.2f} faces/attack",
        "raw": f"raw PCG64, {needed * 256 / REJECT:.2f} bytes/attack",
    }
    print("\nattacks per second per core (CPU time of the thread; wall clock after)")
    for k in kinds:
        cpu_med, wall_med = statistics.median(cpu[k]), statistics.median(wall[k])
        print(
            f"  {labels[k]:42s} best {rate(n, best[k])}  median {rate(n, cpu_med)}"
            f"   | wall best {rate(n, min(wall[k]))}  median {rate(n, wall_med)}"
        )
    print(
        f"  ns per attack (best CPU): batch {best['batch'] / n * 1e9:.1f}, "
        f"integers {best['integers'] / n * 1e9:.1f}, raw {best['raw'] / n * 1e9:.1f}"
    )
    print(
        f"  batch / integers limit: {best['integers'] / best['batch']:.2f}x the speed; "
        f"batch / raw PCG64 limit: {best['raw'] / best['batch']:.2f}x "
        f"(the batch spends {best['batch'] / best['raw']:.1f}x the time of its raw bits)"
    )
    per_core = n / best["batch"]
    met = per_core >= GOAL
    if met:
        print(f"  goal >= {GOAL / 1e6:.0f} M attacks/s/core: met ({per_core / GOAL:.2f}x the goal)")
    else:
        print(
            f"  goal >= {GOAL / 1e6:.0f} M attacks/s/core: NOT met "
            f"(misses by {(1 - per_core / GOAL) * 100:.0f}%)"
        )
    wall_core = n / min(wall["batch"])
    print(f"  wall clock: {wall_core / 1e6:.2f} M/s ({'met' if wall_core >= GOAL else 'not met'})")

    ok, text = check_exact(first)
    print(f"\nexact odds check: {text}: {'ok' if ok else 'FAILED'}")

    if args.profile:
        prof = cProfile.Profile(time.thread_time)
        prof.runcall(roll_strikes, TYPICAL, n, np.random.default_rng(7))
        print("\nprofile of one batch (CPU time of the thread):")
        pstats.Stats(prof).sort_stats("tottime").print_stats(12)

    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
