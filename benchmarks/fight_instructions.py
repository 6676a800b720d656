"""Instructions a seeded fight costs, counted by valgrind's callgrind (load-independent).

    .venv/bin/python benchmarks/fight_instructions.py [--fights N] [--config NAME]...
                                                      [--compare REV] [--repeat K]

Each configuration of ``tests/sim/fight_records.py`` is fought under callgrind twice in
a fresh interpreter: once with only the imports and a warm-up fight, once with ``N``
fights more; the difference over ``N`` is what one fight costs, without the start-up.
With ``--compare REV`` the same fights are counted on the commit ``REV`` (its ``src``,
``tests/sim`` and ``examples``, taken by ``git archive``) in the same run, and the ratio
is shown; the working tree is then copied beside the archive (``a`` and ``b`` in one
temporary folder), so that both sides run from paths of the same length. ``--repeat K``
counts each side ``K`` times, the sides in turns, and shows the median and the range:
one count of the same code moves by up to 8 % from run to run (western, 10 fights, starts
warm; the cause is not found: not the start, whose count agrees within 0.1 %), more than
many changes gain — read a ratio only with several counts a side. Instruction counts do not
move with the machine's load, unlike CPU seconds; a fight under callgrind runs about 50
times slower, so keep ``N`` small (10 vtm 4v4 fights: about two minutes). Needs
``valgrind``; prints why and exits 0 without it.
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import valgrind_counts
from valgrind_counts import ROOT

DEFAULT_CONFIGS = ("vtm 4v4", "hunter cellule", "western saloon")
WARM_UP = 99  # a fight index no measured run uses


def child(root: Path, name: str, fights: int) -> None:
    """Fight the warm-up, then ``fights`` runs of configuration ``name`` from ``root``."""
    sys.path[:0] = [str(root / "src"), str(root)]
    from tests.sim.fight_records import CONFIGS, fought, job_of

    _, path, tactics, _ = next(c for c in CONFIGS if c[0] == name)
    job = job_of(path, tactics)
    fought(job, WARM_UP)
    gc.collect()
    gc.freeze()  # what the start left alive: out of the counted fights' collections
    for index in range(fights):
        fought(job, index)


def child_env(work: Path) -> dict[str, str]:
    """The children's environment: string hashes fixed, ``.pyc`` files written and a start
    cache of the run's own (``conteur.runcache``), so that a start compiles nothing once
    warmed: compiling at every start made one count of the same code move by ±1 %
    (24 M instructions over a 1.8 G start), against ±0.1 % warm."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return env | {"PYTHONHASHSEED": "0", "CONTEUR_CACHE_DIR": str(work / "start-cache")}


def warm(root: Path, name: str, work: Path) -> None:
    """One untimed start of configuration ``name`` from ``root`` (``.pyc``, start cache)."""
    subprocess.run(
        [sys.executable, __file__, "--child", str(root), name, "0"],
        check=True, env=child_env(work), cwd=root, stdout=subprocess.DEVNULL,
    )  # fmt: skip


def instructions(root: Path, name: str, fights: int, work: Path) -> int:
    """Total instructions callgrind counts for the child run of ``fights`` fights."""
    return valgrind_counts.instructions(
        "callgrind",
        [sys.executable, __file__, "--child", str(root), name, str(fights)],
        out=work / f"callgrind.{abs(hash((str(root), name, fights)))}.out",
        env=child_env(work),
        cwd=root,
    )


def per_fight(root: Path, name: str, fights: int, work: Path) -> float:
    """Instructions one fight of ``name`` costs from ``root``, start-up left out."""
    base = instructions(root, name, 0, work)
    return (instructions(root, name, fights, work) - base) / fights


PARTS = ("src", "tests", "examples")
"""What a fight needs from a checkout."""


def archive(rev: str, into: Path) -> Path:
    """The commit ``rev``'s ``src``, ``tests`` and ``examples``, unpacked in ``into/b``."""
    return valgrind_counts.archive(rev, PARTS, into / "b")


def working_copy(into: Path) -> Path:
    """The working tree's ``src``, ``tests`` and ``examples`` copied to ``into/a``: the
    files git tracks or would track, as they are now (no ``.egg-info``, no caches), at a
    path as long as the archive's, so that the two sides differ in their code only."""
    target = into / "a"
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", *PARTS],
        check=True, cwd=ROOT, capture_output=True,
    ).stdout.decode()  # fmt: skip
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():  # a tracked file deleted in the working tree is left out
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def counts(roots: list[Path], name: str, fights: int, repeat: int, work: Path) -> list[list[float]]:
    """``repeat`` per-fight counts of ``name`` from each root, the roots in turns."""
    out: list[list[float]] = [[] for _ in roots]
    for root in roots:
        warm(root, name, work)
    for _ in range(repeat):
        for side, root in enumerate(roots):
            out[side].append(per_fight(root, name, fights, work))
    return out


def shown(values: list[float]) -> str:
    """The median in millions, with the range when there are several counts."""
    text = f"{statistics.median(values) / 1e6:8.2f} M"
    if len(values) > 1:
        text += f" ({min(values) / 1e6:.2f}–{max(values) / 1e6:.2f})"
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fights", type=int, default=10, help="fights per count (10)")
    parser.add_argument("--config", action="append", help="a configuration's name")
    parser.add_argument("--compare", metavar="REV", help="count the same on this commit")
    parser.add_argument("--repeat", type=int, default=1, help="counts per side, median (1)")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        root, name, fights = args.child
        child(Path(root), name, int(fights))
        return 0
    if not valgrind_counts.have_valgrind():
        return 0
    names = args.config or list(DEFAULT_CONFIGS)
    print(f"load average at the start: {valgrind_counts.load()}")
    print(f"{args.fights} fights per configuration, PYTHONHASHSEED=0, {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        roots = [ROOT] if not args.compare else [working_copy(work), archive(args.compare, work)]
        for name in names:
            here, *there = counts(roots, name, args.fights, args.repeat, work)
            line = f"{name:<28} {shown(here)} instructions a fight"
            if there:
                ratio = statistics.median(there[0]) / statistics.median(here)
                line += f"   {args.compare}: {shown(there[0])}   x{ratio:.3f}"
            print(line, flush=True)
    print(f"load average at the end: {valgrind_counts.load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
