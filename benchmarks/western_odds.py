"""Western attack odds: the shot's stages over distributions against the code they replace.

Issue 17, item 1 ("Hunter and western odds follow the same design"). Each of N distinct
queries (seeded: shooter's weapon and skill, the target's PV, zones or none, aim, modifier,
distance) is priced in turns, in one process, by

- **stages**: ``conteur.rulesets.western.odds.attack_odds`` (``shot_odds`` over the exact
  outcomes of each roll, the fate once per PV lost on a copy of the target);
- **before**: the computation it replaced, kept here as a yardstick: ``roll_shot``
  explored over every branch of its rolls (the hit faces it cannot tell apart grouped),
  the fate from ``lose_pv`` on a ``deepcopy`` of the whole state per PV lost.

CPU time is the thread's (``time.thread_time``); the machine is shared, so ``uptime`` is
printed before and after. Both answers must agree within 1e-12.

    .venv/bin/python benchmarks/western_odds.py [--queries 300] [--seed 17]
"""

from __future__ import annotations

import argparse
import copy
import math
import os
import random
import statistics
import time
from typing import Any

from conteur.dice import DiceSource, explore
from conteur.engine import Encounter
from conteur.engine.odds import AttackQuery
from conteur.i18n import ConteurError
from conteur.rulesets.western.dice import Percentile
from conteur.rulesets.western.events import lose_pv
from conteur.rulesets.western.odds import attack_odds
from conteur.rulesets.western.shooting import ShotOutcome, draft_shot, roll_shot
from conteur.rulesets.western.state import WesternState

WEAPONS = ("colt_saa", "schofield", "derringer", "winchester_1873", "sharps_1874", "coach_gun")
ZONES = (None, None, None, "head", "chest", "right_hand", "left_shin")
TOLERANCE = 1e-12


def before(state: WesternState, target: str, params: dict[str, Any]) -> dict[str, Any]:
    """The odds as ``western/odds.py`` computed them before the stages."""
    t = state.fighters[target]
    shot = draft_shot(state, "bill", target, "main", params.get("zone"), params["modifier"])

    def run(dice: DiceSource) -> ShotOutcome:
        return roll_shot(shot, state.tables, dice)

    groups: dict[str, tuple[int, float]] = {}
    starts: list[tuple[int, float]] = []
    for i, (r, p) in enumerate(Percentile(shot.percent).outcomes()):
        if r.success and r.critical:
            starts.append((i, p))
            continue
        first, total = groups.get("hit" if r.success else "miss", (i, 0.0))
        groups["hit" if r.success else "miss"] = (first, total + p)
    out: dict[str, Any] = {"p_hit": 0.0, "p_critical": 0.0, "p_incapacitated": 0.0}
    out.update(p_killed=0.0, levels={}, locations={})
    fates: dict[int, str] = {}
    for index, weight in [*starts, *groups.values()]:
        for _, o, p in explore(run, (index,), weight):
            out["levels"][o.pv_lost] = out["levels"].get(o.pv_lost, 0.0) + p
            if not o.success:
                continue
            out["p_hit"] += p
            out["p_critical"] += p if o.critical else 0.0
            zone = o.zone or "body"
            out["locations"][zone] = out["locations"].get(zone, 0.0) + p
            if o.pv_lost not in fates:
                work = copy.deepcopy(state)
                lose_pv(work, target, o.pv_lost)
                fates[o.pv_lost] = work.fighters[target].fate
            fate = fates[o.pv_lost]
            out["p_incapacitated"] += p if fate in ("out", "dead") and t.fate == "alive" else 0.0
            out["p_killed"] += p if fate == "dead" and t.fate != "dead" else 0.0
    return out


def stages(state: WesternState, target: str, params: dict[str, Any]) -> dict[str, Any]:
    odds = attack_odds(state, AttackQuery(attacker="bill", target=target, params=params))
    return {
        "p_hit": odds.p_hit,
        "p_critical": odds.chances["p_critical"],
        "p_incapacitated": odds.p_incapacitated,
        "p_killed": odds.p_killed,
        "levels": odds.levels.to_dict(),
        "locations": dict(odds.shares["locations"]),
    }


def gunman(fid: str, x: float, **extra: Any) -> dict[str, Any]:
    return {
        "id": fid,
        "name": fid.capitalize(),
        "side": fid,
        "position": [x, 0],
        "characteristics": {"FORCE": 12, "RÉSISTANCE": 10, "CONSTITUTION": 12, "RAPIDITÉ": 10},
        **extra,
    }


def queries(n: int, seed: int) -> list[tuple[WesternState, dict[str, Any]]]:
    """``n`` distinct priceable queries (a state and the shot's params), drawn from ``seed``."""
    rng = random.Random(seed)
    seen: set[tuple[Any, ...]] = set()
    out: list[tuple[WesternState, dict[str, Any]]] = []
    while len(out) < n:
        weapon, skill = rng.choice(WEAPONS), rng.randint(10, 100)
        pv, human, x = rng.randint(1, 20), rng.random() < 0.8, rng.choice((2.0, 8.0, 15.0))
        params: dict[str, Any] = {"modifier": rng.randint(-30, 30)}
        zone = rng.choice(ZONES)
        if zone is not None:
            params["zone"] = zone
        key = (weapon, skill, pv, human, x, zone, params["modifier"])
        if key in seen:
            continue
        seen.add(key)
        skills = {"tir visé au pistolet": skill, "tir instinctif au pistolet": skill}
        skills["tir au fusil"] = skill
        bill = gunman("bill", 0.0, skills=skills, weapons=[weapon])
        joe = gunman("joe", x, skills={}, weapons=["colt_saa"], pv=pv, human=human)
        state = Encounter.start({"ruleset": "western", "combatants": [bill, joe]}).state
        assert isinstance(state, WesternState)
        try:
            before(state, "joe", params)
        except ConteurError:  # out of range, no zones to aim at: not a shot to price
            continue
        out.append((state, params))
    return out


def worst(a: dict[str, Any], b: dict[str, Any]) -> float:
    gap = 0.0
    for key, value in a.items():
        if isinstance(value, dict):
            for k in set(value) | set(b[key]):
                gap = max(gap, abs(value.get(k, 0.0) - b[key].get(k, 0.0)))
        else:
            gap = max(gap, abs(value - b[key]))
    return gap


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--seed", type=int, default=17)
    args = parser.parse_args()
    print("uptime before:", os.popen("uptime").read().strip())
    work = queries(args.queries, args.seed)
    cpu: dict[str, list[float]] = {"stages": [], "before": []}
    gap = 0.0
    for state, params in work:
        c0 = time.thread_time()
        new = stages(state, "joe", params)
        c1 = time.thread_time()
        old = before(state, "joe", params)
        c2 = time.thread_time()
        cpu["stages"].append(c1 - c0)
        cpu["before"].append(c2 - c1)
        gap = max(gap, worst(new, old))
    print("uptime after: ", os.popen("uptime").read().strip())
    print(f"{len(work)} distinct western queries, CPU per query (ms):")
    for name, values in cpu.items():
        p50, p95 = statistics.median(values) * 1e3, pct(values, 0.95) * 1e3
        print(f"  {name:7s} p50 {p50:8.3f}  p95 {p95:8.3f}")
    ratios = [b / s for s, b in zip(cpu["stages"], cpu["before"], strict=True) if s > 0]
    print(f"  before / stages: p50 ×{statistics.median(ratios):.1f} (median per query)")
    print(f"  largest difference: {gap:.2e} ({'ok' if gap <= TOLERANCE else 'FAILED'})")
    if not math.isfinite(gap) or gap > TOLERANCE:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
