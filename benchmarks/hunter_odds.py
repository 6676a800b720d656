"""Benchmark: CPU per hunter attack-odds query, this code against another checkout's, in turns.

    .venv/bin/python benchmarks/hunter_odds.py [OLD/src] [--queries 300] [--seed 5]
                                               [--extra-targets 0]

``OLD/src`` is another checkout's ``src`` (``git archive main src | tar -x -C /tmp/old``);
without it only this code is timed. N distinct queries (``hunter_queries.py``: fights
with wounds, holds, human shields, cover, dodges; attacks, throws, bursts, grabs, an
ally into close combat; bursts at up to ``--extra-targets`` more targets than the one
priced). Two long-lived worker processes, one per code, price the same query in turns
(the order alternating), each timed with the worker's ``time.thread_time``; the
answers (``to_dict()``) must agree within 1e-12. Prints the load average, p50/p95 CPU
per query on each side, the median of the per-query ratios, and exits 1 on a
difference.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
TOL = 1e-12

WORKER = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from hunter_queries import distinct_queries
from conteur.i18n import ConteurError
from conteur.rulesets.hunter.odds import attack_odds
try:  # the query record (since issue 13's one odds result), or the arguments before it
    from conteur.engine.odds import AttackQuery
    def price(state, q):
        query = AttackQuery(attacker="a", target="t", maneuver=q.kind, params=q.params)
        return attack_odds(state, query).to_dict()
except ImportError:
    def price(state, q):
        return attack_odds(state, "a", "t", q.kind, q.params).to_dict()
queries = distinct_queries(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
states = [q.state() for q in queries]
for line in sys.stdin:
    i = int(line)
    q, state = queries[i], states[i]
    began = time.thread_time()
    try:
        answer = price(state, q)
    except ConteurError as e:
        answer = {"refused": e.key}
    except IndexError:  # the old code at a target it never rolls at (full cover, H-COV-1)
        answer = {"failed": "IndexError"}
    spent = time.thread_time() - began
    print(json.dumps({"cpu": spent, "answer": answer}), flush=True)
"""


def worker(src: str | None, n: int, seed: int, extra: int) -> subprocess.Popen[str]:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = src
    cmd = [sys.executable, "-c", WORKER, str(HERE), str(n), str(seed), str(extra)]
    return subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)


def ask(proc: subprocess.Popen[str], i: int) -> dict[str, Any]:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(f"{i}\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())  # type: ignore[no-any-return]


def difference(a: Any, b: Any) -> float:
    """The largest difference between two answers (inf when their shapes differ)."""
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            keys = set(a) ^ set(b)
            # a key with no mass on one side only is the same answer
            if any(abs(float(a.get(k, b.get(k)) or 0.0)) > TOL for k in keys if k.isdigit()):
                return math.inf
            if any(not k.isdigit() for k in keys):
                return math.inf
        return max((difference(a.get(k, 0.0), b.get(k, 0.0)) for k in set(a) | set(b)), default=0)
    if isinstance(a, float | int) and isinstance(b, float | int):
        return abs(float(a) - float(b))
    return 0.0 if a == b else math.inf


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", nargs="?", help="the other code's src")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--extra-targets", type=int, default=0)
    args = parser.parse_args()
    print("load average at the start:", " ".join(f"{x:.2f}" for x in os.getloadavg()))
    sides = {"new": worker(None, args.queries, args.seed, args.extra_targets)}
    if args.old:
        sides["old"] = worker(args.old, args.queries, args.seed, args.extra_targets)
    cpu: dict[str, list[float]] = {name: [] for name in sides}
    worst = 0.0
    failed = 0
    for i in range(args.queries):
        order = list(sides.items()) if i % 2 == 0 else list(reversed(sides.items()))
        answers = {}
        for name, proc in order:
            got = ask(proc, i)
            cpu[name].append(got["cpu"])
            answers[name] = got["answer"]
        if "old" in answers and "failed" in answers["old"]:
            failed += 1
        elif "old" in answers:
            worst = max(worst, difference(answers["new"], answers["old"]))
    for proc in sides.values():
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    print("load average at the end:  ", " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(f"{args.queries} distinct queries (seed {args.seed}, extra targets {args.extra_targets})")
    for name, values in cpu.items():
        ms = [v * 1000 for v in values]
        print(
            f"{name:4} CPU p50 {pct(ms, 0.5):8.3f} ms   p95 {pct(ms, 0.95):8.3f} ms"
            f"   max {max(ms):9.3f} ms"
        )
    if "old" in cpu:
        ratios = [o / n for o, n in zip(cpu["old"], cpu["new"], strict=True) if n > 0]
        print(f"old / new per query: median ×{statistics.median(ratios):.1f}")
        print(f"largest difference between the answers: {worst:.2e}")
        print(f"queries the old code failed on (no roll at the target): {failed}")
        if worst > TOL:
            print("the answers differ")
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
