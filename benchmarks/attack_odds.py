"""Benchmark: exact odds of a whole vtm attack: conteur, the chain in icepool, a direct convolution.

    .venv/bin/python benchmarks/attack_odds.py [--queries 500] [--seed 8] [--profile 50]
                                               [--fixed-order]

N distinct queries (``attack_queries.py``: pools, difficulties, damage, soak,
defences, health tracks all varied; no query repeats, so no whole answer can
be reused). For each, the same work on three sides (which goes first turns
with each query: ``--fixed-order`` keeps conteur first), drafting
included on each: conteur's ``odds_for_scenario`` (drafting the attack from
the state, the strike's stages over the exact distributions, then what follows
the dice — what the CLI and the tracker call); ``icepool_attack.attack_odds``
and ``reference_attack.attack_odds`` (a direct convolution of dictionaries),
each on the strike drafted by conteur's own drafting code, run and timed for
that side. The chains of the two references alone (without the drafting) are
timed too. Every side keeps its pool distributions cached across queries.
Prints p50/p95 per query (wall clock and CPU), the ratios, whether the goals
are met (on CPU time: the machine is shared), and the largest difference
between the answers; exits 1 if they differ by more than 1e-12.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import icepool

import icepool_attack
import reference_attack
from attack_queries import distinct_queries
from conteur.dice import ForcedDice
from conteur.engine import Resolution
from conteur.engine.odds import AttackQuery
from conteur.rulesets.vtm import hooks
from conteur.rulesets.vtm.attack import draft_attack, strike_for
from conteur.rulesets.vtm.defence import ready_defence
from conteur.rulesets.vtm.odds import odds_for_scenario
from conteur.rulesets.vtm.rulebook import rules_of
from conteur.rulesets.vtm.state import Action, VtmState

PARTS = (
    ("the attack's reach (check_reach)", "equipment.py:check_reach"),
    ("drafting: pool, difficulty, defence, damage and soak", "<drafting>"),
    ("  ...pool and difficulty (draft_attack)", "attack.py:draft_attack"),
    ("    ...its pool rules and difficulty rules", "rulebook.py:<draft rules>"),
    ("  ...the target's ready defence", "defence.py:ready_defence"),
    ("  ...damage and soak (strike_for)", "attack.py:strike_for"),
    ("    ...the soak's parts", "soak.py:soak_parts"),
    ("    ...the damage's parts", "equipment.py:damage_parts_of"),
    ("  ...a sheet's ratings on first read (in the lines above)", "sheet.py:ratings"),
    ("which hooks follow the dice (after_hooks)", "attack.py:after_hooks"),
    ("the dice: the strike's stages over distributions", "strike.py:strike_odds"),
    ("  ...the soak's rule (levels_lost)", "strike.py:levels_lost"),
    ("  ...the pools' outcomes", "dice.py:outcomes"),
    ("after the dice, read from the ends (every hook outside the odds)", "odds.py:_ends_read"),
    ("  ...the levels marked on the track in turn", "odds.py:_tracks_in_turn"),
    ("    ...HealthTrack.take", "health.py:take"),
    ("  ...V-DMG-7 (dazes)", "attack.py:dazes"),
    ("after the dice, run on copies (a hook not declared)", "odds.py:_ends_run"),
    ("the answer's three distributions", "distribution.py:from_mapping"),
    ("  ...read back (to_dict)", "distribution.py:to_dict"),
    ("replaying one path per group (its events)", "odds.py:replay"),
    ("studying the state for its copies (scratch_copier)", "scratch.py:scratch_copier"),
    ("after the dice, the hits: one run per group, then per levels", "odds.py:finish_levels"),
    ("  ...the after-attack hooks", "attack.py:run_after_hooks"),
    ("after the dice, the other ends: one run per group", "odds.py:finish"),
    ("the state copies (all runs)", "scratch.py:dataclass_copy"),
)
"""What the profile names, nested: a line starting with "..." is part of the one above it.
``<drafting>`` sums ``draft_attack``, ``ready_defence`` and ``strike_for``;
``rulebook.py:<draft rules>`` every pool and difficulty rule the draft runs."""
GOAL_MS = 0.2
GOAL_RATIO = 4.0
"""At least this many times faster than the icepool chain (drafting on both sides)."""
GOAL_REFERENCE = 2.0
"""At most this many times slower than the direct convolution (drafting on both sides)."""
TOLERANCE = 1e-12
COMPARED = (
    "p_hit",
    "p_botch",
    "successes",
    "damage",
    "levels",
    "p_armour_destroyed",
    "p_incapacitated",
    "p_killed",
    "p_dazed",
)


def icepool_inputs(state: VtmState, maneuver: str) -> tuple[Any, ...]:
    """The strike conteur drafts for this attack, and the target's track (not timed)."""
    a, t = state.fighters["a"], state.fighters["t"]
    d = draft_attack(state, a, t, Action(maneuver, "t"), 0)
    strike = strike_for(d, ready_defence(Resolution(state, ForcedDice(())), d), False)
    dazed_above = t.trait("stamina")
    if t.supernatural:
        dazed_above += int(state.options.get("dazed_threshold_bonus_supernatural", 2))
    return strike, t.health, t.kind, dazed_above


def difference(ours: dict[str, Any], theirs: dict[str, Any]) -> float:
    """The largest absolute difference over every compared probability."""
    worst = 0.0
    for key in COMPARED:
        a, b = ours[key], theirs[key]
        if isinstance(a, dict):
            for k in set(a) | set(b):
                worst = max(worst, abs(a.get(k, 0.0) - b.get(k, 0.0)))
        else:
            worst = max(worst, abs(a - b))
    return worst


def conteur_answer(state: VtmState, maneuver: str) -> dict[str, Any]:
    odds = odds_for_scenario(state, AttackQuery(attacker="a", target="t", maneuver=maneuver))
    assert odds.successes is not None
    return {
        "p_hit": odds.p_hit,
        "successes": odds.successes.to_dict(),
        "damage": odds.damage.to_dict(),
        "levels": odds.levels.to_dict(),
        "p_incapacitated": odds.p_incapacitated,
        "p_killed": odds.p_killed,
        **{key: p for key, p in odds.chances.items() if key in COMPARED},
    }


def draft_rules_time(stats: pstats.Stats) -> float:
    """The cumulative time of every pool and difficulty rule, as called by ``draft_attack``."""
    book = rules_of(distinct_queries(1)[0].state())
    rules = {
        (r.__code__.co_filename, r.__code__.co_firstlineno, r.__code__.co_name)
        for hook in (hooks.pool_rule, hooks.difficulty_rule)
        for r in book.of(hook)
    }
    total = 0.0
    for key, entry in stats.stats.items():  # type: ignore[attr-defined]
        if key in rules:
            callers = entry[4]
            total += sum(c[3] for k, c in callers.items() if k[2] == "draft_attack")
    return total


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--profile", type=int, default=0, help="profile this many conteur queries")
    parser.add_argument(
        "--fixed-order",
        action="store_true",
        help="run the sides in the same order every round (conteur first) instead of in turns",
    )
    args = parser.parse_args()

    print(
        f"machine: nproc {os.cpu_count()}, python {platform.python_version()}, "
        f"icepool {icepool.__version__}"
    )
    print("load average at the start:", " ".join(f"{x:.2f}" for x in os.getloadavg()))
    queries = distinct_queries(args.queries, args.seed)
    states = [q.state() for q in queries]

    sides = ("conteur", "icepool", "reference", "icepool chain", "reference chain")
    wall: dict[str, list[float]] = {name: [] for name in sides}
    cpu: dict[str, list[float]] = {name: [] for name in sides}
    chains = {"icepool": icepool_attack.attack_odds, "reference": reference_attack.attack_odds}
    worst = {"icepool": 0.0, "reference": 0.0}
    names = ("conteur", *chains)
    for round_, (q, state) in enumerate(zip(queries, states, strict=True)):
        # Each round rotates which side goes first (none always runs with a cold cache,
        # or right after another's work), unless --fixed-order keeps conteur first.
        turn = 0 if args.fixed_order else round_ % len(names)
        answers: dict[str, dict[str, Any]] = {}
        for name in names[turn:] + names[:turn]:
            w0, c0 = time.perf_counter(), time.thread_time()
            if name == "conteur":
                answers[name] = conteur_answer(state, q.maneuver)
                wall[name].append(time.perf_counter() - w0)
                cpu[name].append(time.thread_time() - c0)
                continue
            strike, track, kind, dazed_above = icepool_inputs(state, q.maneuver)
            w1, c1 = time.perf_counter(), time.thread_time()
            answers[name] = chains[name](strike, track, kind, dazed_above)
            w2, c2 = time.perf_counter(), time.thread_time()
            wall[name].append(w2 - w0)
            cpu[name].append(c2 - c0)
            wall[f"{name} chain"].append(w2 - w1)
            cpu[f"{name} chain"].append(c2 - c1)
        for name in chains:
            worst[name] = max(worst[name], difference(answers["conteur"], answers[name]))

    n = len(queries)
    order = "in that order" if args.fixed_order else "which goes first in turns"
    print(f"{n} distinct queries (seed {args.seed}), conteur, icepool, reference on each, {order}")
    for name in sides:
        w, c = wall[name], cpu[name]
        print(
            f"    {name:16} wall p50 {pct(w, 0.5) * 1e3:7.3f} ms  p95 {pct(w, 0.95) * 1e3:7.3f} ms"
            f"  |  CPU p50 {pct(c, 0.5) * 1e3:7.3f} ms  p95 {pct(c, 0.95) * 1e3:7.3f} ms"
            f"  mean {statistics.fmean(c) * 1e3:7.3f} ms"
        )
    p50 = pct(cpu["conteur"], 0.5)
    ratio = pct(cpu["icepool"], 0.5) / p50
    slower = p50 / pct(cpu["reference"], 0.5)
    per_query = [i / c for i, c in zip(cpu["icepool"], cpu["conteur"], strict=True)]
    print(
        f"    icepool/conteur (drafting on both sides): {ratio:.2f}x (CPU p50), median per "
        f"query {statistics.median(per_query):.2f}x; conteur/reference: {slower:.2f}x (CPU p50)"
    )
    print(
        f"    max |diff| against icepool {worst['icepool']:.2e}, "
        f"against the reference {worst['reference']:.2e}"
    )
    met = "met" if p50 <= GOAL_MS / 1e3 else f"missed ({p50 * 1e3 / GOAL_MS:.1f}x over)"
    print(f"    goal CPU p50 <= {GOAL_MS} ms: {met}")
    met = "met" if ratio >= GOAL_RATIO else f"missed ({GOAL_RATIO / ratio:.1f}x short)"
    print(f"    goal >= {GOAL_RATIO:.0f}x icepool: {met}")
    met = "met" if slower <= GOAL_REFERENCE else f"missed ({slower / GOAL_REFERENCE:.1f}x over)"
    print(f"    goal within {GOAL_REFERENCE:.0f}x of the reference: {met}")
    most = max(worst.values())
    print(f"    equal within {TOLERANCE:g}: {'met' if most <= TOLERANCE else 'NOT MET'}")
    print("load average at the end:", " ".join(f"{x:.2f}" for x in os.getloadavg()))

    if args.profile:
        # Fresh states, as the timed queries had: what a cold query reads for the first
        # time (a sheet's ratings) is in the profile too.
        fresh = [(q, q.state()) for q in queries[: args.profile]]
        profile = cProfile.Profile(time.thread_time)  # CPU time: the machine is shared
        profile.enable()
        for q, state in fresh:
            conteur_answer(state, q.maneuver)
        profile.disable()
        stats = pstats.Stats(profile)
        total = stats.total_tt  # type: ignore[attr-defined]
        cumulative = {
            f"{Path(file).name}:{name}": entry[3]
            for (file, _, name), entry in stats.stats.items()  # type: ignore[attr-defined]
        }
        cumulative["rulebook.py:<draft rules>"] = draft_rules_time(stats)
        cumulative["<drafting>"] = sum(
            cumulative.get(key, 0.0)
            for key in (
                "attack.py:draft_attack",
                "defence.py:ready_defence",
                "attack.py:strike_for",
            )
        )
        print(f"\nprofile of {args.profile} conteur queries, share of the time (cumulative):")
        for label, key in PARTS:
            print(f"    {cumulative.get(key, 0.0) / total:6.1%}  {label}")
        print("own time, top functions:")
        stats.sort_stats("tottime").print_stats(15)
    return 0 if max(worst.values()) <= TOLERANCE else 1


if __name__ == "__main__":
    raise SystemExit(main())
