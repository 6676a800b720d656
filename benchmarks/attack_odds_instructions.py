"""Instructions a vtm attack-odds query costs, counted by valgrind's cachegrind (load-independent).

    .venv/bin/python benchmarks/attack_odds_instructions.py [--queries N] [--compare REV]

``N`` distinct queries of ``attack_queries.py`` (seed 8) are answered under cachegrind in
a fresh interpreter (``PYTHONHASHSEED=0``, no address randomisation) twice: once on their
fresh states after a first pass over other fresh states of the same queries (the pools'
caches warm, as across the benchmark's queries), once with that first pass alone; the
difference over ``N`` is what one cold query costs (``odds_for_scenario``: drafting, the
stages, what follows the dice, the answer), without the start-up or the states' building.
Everything alive before the queries is moved out of the collector's reach (``gc.freeze``):
otherwise the queries' full collections walk whatever the start left (a start with or
without ``conteur.runcache``'s copy differs by ~10 %), not the queries' own objects.
With ``--compare REV`` the same is counted on the commit ``REV`` (its ``src``, taken by
``git archive``) in the same run, and the ratio is shown. 100 queries: about a minute a
count. Needs ``valgrind``; prints why and exits 0 without it.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
from pathlib import Path

import valgrind_counts
from valgrind_counts import ROOT

HERE = Path(__file__).resolve().parent
SEED = 8


def child(root: Path, queries: int, measured: bool) -> None:
    """Answer ``queries`` queries once (warming the caches), then again on fresh states."""
    sys.path[:0] = [str(root / "src"), str(HERE)]
    from attack_queries import distinct_queries
    from conteur.engine.odds import AttackQuery
    from conteur.rulesets.vtm.odds import odds_for_scenario

    chosen = distinct_queries(queries, SEED)
    warm = [q.state() for q in chosen]
    cold = [q.state() for q in chosen]
    gc.collect()
    gc.freeze()  # what the start and the states left alive is not walked by the queries' GC
    for q, state in zip(chosen, warm, strict=True):
        odds_for_scenario(state, AttackQuery(attacker="a", target="t", maneuver=q.maneuver))
    if measured:
        for q, state in zip(chosen, cold, strict=True):
            odds_for_scenario(state, AttackQuery(attacker="a", target="t", maneuver=q.maneuver))


def instructions(root: Path, queries: int, measured: bool, work: Path) -> int:
    """Total instructions cachegrind counts for one child run."""
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1")
    env.pop("PYTHONPATH", None)
    return valgrind_counts.instructions(
        "cachegrind",
        [sys.executable, __file__, "--child", str(root), str(queries), "1" if measured else "0"],
        out=work / f"cachegrind.{abs(hash((str(root), queries, measured)))}.out",
        env=env,
        cwd=work,
        options=["--cache-sim=no"],
    )


def per_query(root: Path, queries: int, work: Path) -> float:
    """Instructions one cold query costs from ``root``."""
    base = instructions(root, queries, False, work)
    return (instructions(root, queries, True, work) - base) / queries


def archive(rev: str, into: Path) -> Path:
    """The commit ``rev``'s ``src``, unpacked under ``into``."""
    return valgrind_counts.archive(rev, ["src"], into / "rev")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--queries", type=int, default=100, help="queries per count (100)")
    parser.add_argument("--compare", metavar="REV", help="count the same on this commit")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        root, queries, measured = args.child
        child(Path(root), int(queries), measured == "1")
        return 0
    if not valgrind_counts.have_valgrind():
        return 0
    print(f"load average at the start: {valgrind_counts.load()}")
    print(f"{args.queries} cold queries (seed {SEED}), PYTHONHASHSEED=0, {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        here = per_query(ROOT, args.queries, work)
        line = f"this tree: {here / 1e6:.4f} M instructions a query"
        if args.compare:
            there = per_query(archive(args.compare, work), args.queries, work)
            line += f"   {args.compare}: {there / 1e6:.4f} M   x{there / here:.3f}"
        print(line, flush=True)
    print(f"load average at the end: {valgrind_counts.load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
