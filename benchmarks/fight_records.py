"""Check every recorded seeded fight against ``tests/sim/fight_records.json`` (or write it).

    .venv/bin/python benchmarks/fight_records.py [--fights N] [--write]

Each configuration's fights are run as ``conteur simulate`` runs them, and compared
record by record (how the fight ended, the digests of its log and end state) with the
fixture written from the engine before its fights without copies; the CPU time per
fight of each configuration is shown (log digests included), with the load average.
Exit status 1 when a fight differs.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.sim.fight_records import CONFIGS, FIXTURE, load, records  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="write the fixture")
    parser.add_argument("--fights", type=int, default=0, help="per configuration (0: all)")
    args = parser.parse_args()
    out: dict[str, list[dict[str, Any]]] = {}
    stored = {} if args.write else load()
    bad = 0
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for name, _, _, count in CONFIGS:
        n = min(count, args.fights) if args.fights else count
        began = time.process_time()
        got = records(name, n)
        cpu = time.process_time() - began
        out[name] = got
        if not args.write:
            want = stored[name][:n]
            diff = [i for i, (a, b) in enumerate(zip(got, want, strict=True)) if a != b]
            bad += len(diff)
            status = "same" if not diff else f"DIFFERENT in runs {diff[:10]}"
        else:
            status = "written"
        rate = n / cpu if cpu > 0 else math.inf
        print(f"{name:28s} {n:4d} fights  {rate:7.1f} per CPU-second  {status}")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.write:
        FIXTURE.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
