"""Benchmark: vtm fights per CPU-second of two codes, in paired rounds (for a shared machine).

    .venv/bin/python benchmarks/paired.py OLD/src [--rounds 12] [--fights 20]

``OLD/src`` is another checkout's ``src`` (``git archive main src | tar -x -C /tmp/old``).
Two long-lived worker processes, one per code, fight rounds of ``--fights`` seeded vtm
fights (``examples/simulation/4v4_1899.yaml``) in turns, the order alternating; each
round is timed with the worker's ``time.thread_time``. Prints each side's median and best
rate and the median of the paired ratios (new / old): under a load that moves the rates
by a quarter from round to round, pairs of neighbouring rounds still compare the codes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VTM = ROOT / "examples" / "simulation" / "4v4_1899.yaml"

WORKER = """
import sys, time, yaml
from pathlib import Path
from conteur.sim.encounters import Job, prepare, run_chunk
from conteur.sim.tactics import side_tactics
path = Path(sys.argv[1])
data = yaml.safe_load(path.read_text(encoding="utf-8"))
job = Job(data, str(path.parent), side_tactics(data, ["chasseurs", "vampires"]), 20, 50.0, 1899)
prepare(job)
run_chunk(job, 0, 3)
for line in sys.stdin:
    began = time.thread_time()
    run_chunk(job, 0, int(line))
    print(time.thread_time() - began, flush=True)
"""


def worker(src: str | None) -> subprocess.Popen[str]:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = src
    cmd = [sys.executable, "-c", WORKER, str(VTM)]
    return subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)


def paired_times(srcs: dict[str, str | None], rounds: int, fights: int) -> dict[str, list[float]]:
    """The CPU seconds of each round of ``fights`` by each code (name: its ``src``, None for
    this checkout's), one long-lived worker per code, the order alternating each round."""
    procs = {name: worker(src) for name, src in srcs.items()}
    times: dict[str, list[float]] = {name: [] for name in srcs}
    order = list(procs.items())
    for r in range(rounds):
        for name, proc in order if r % 2 == 0 else order[::-1]:
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(f"{fights}\n")
            proc.stdin.flush()
            times[name].append(float(proc.stdout.readline()))
    for proc in procs.values():
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", help="the other code's src")
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--fights", type=int, default=20)
    args = parser.parse_args()
    print("load average at the start:", " ".join(f"{x:.2f}" for x in os.getloadavg()))
    times = paired_times({"old": args.old, "new": None}, args.rounds, args.fights)
    for name in ("old", "new"):
        rates = [args.fights / t for t in times[name]]
        print(
            f"{name}: median {statistics.median(rates):6.1f}, best {max(rates):6.1f} "
            "vtm fights per CPU-second"
        )
    ratios = [o / n for o, n in zip(times["old"], times["new"], strict=True)]
    print(f"new / old, median of the paired rounds: x{statistics.median(ratios):.3f}")
    print("load average at the end:", " ".join(f"{x:.2f}" for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
