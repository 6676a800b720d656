"""Bare icepool script: the classic vtm chart (pools 1..30, difficulties 2..10) as JSON.

The reference process of ``benchmarks/odds.py``: it prints the same JSON as
``conteur odds vtm --table --json``. One die per difficulty, mapped to
+1 (success) / -1 (a 1) / 0, summed by adding one die to the previous pool;
the botch is the highest of a die mapped to 2 (success) / 1 (a 1) / 0, which
is 1 exactly when no die succeeds and at least one shows a 1.
"""

from __future__ import annotations

import json
import sys

import icepool

MAX_POOL = 30
DIFFICULTIES = range(2, 11)


def chart(max_pool: int = MAX_POOL) -> dict[str, list[list[float]] | list[int]]:
    success = [[0.0] * len(DIFFICULTIES) for _ in range(max_pool)]
    botch = [[0.0] * len(DIFFICULTIES) for _ in range(max_pool)]
    for j, d in enumerate(DIFFICULTIES):
        net_die = icepool.d10.map(lambda x, d=d: 1 if x >= d else (-1 if x == 1 else 0))
        flag_die = icepool.d10.map(lambda x, d=d: 2 if x >= d else (1 if x == 1 else 0))
        net, flag = net_die, flag_die
        for n in range(1, max_pool + 1):
            if n > 1:
                net = net + net_die
                flag = flag.binary_operator(flag_die, max)
            success[n - 1][j] = float(net.probability(">=", 1))
            botch[n - 1][j] = float(flag.probability(1))
    return {
        "pools": list(range(1, max_pool + 1)),
        "difficulties": list(DIFFICULTIES),
        "p_success": success,
        "p_botch": botch,
    }


if __name__ == "__main__":
    sys.stdout.write(json.dumps(chart()) + "\n")
