"""Hunter's attack odds over the stage functions against the whole attack over every branch.

``attack_odds`` runs the attack's stages (``landing``, ``ally_plan``, ``damage_marked``,
the roll to stay conscious) over the exact outcomes of its dice, what follows the dice
once per distinct damage value on the target's track only. The oracle here is the way
the odds were computed before (kept in this test only): the whole attack
(``actions.perform``) on a deep copy of the state, over every branch of every roll
(``explore``), consciousness rolls included. Every probability must agree within 1e-12,
and a refusal must be the same refusal.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from conteur.dice import DiceSource, explore
from conteur.engine import Resolution
from conteur.engine.odds import AttackOdds, AttackQuery
from conteur.i18n import ConteurError
from conteur.rulesets.hunter import odds
from conteur.rulesets.hunter.actions import perform
from conteur.rulesets.hunter.events import HunterAttackRolled, HunterDamaged
from conteur.rulesets.hunter.health_events import damage_marked
from conteur.rulesets.hunter.odds import attack_odds as priced
from conteur.rulesets.hunter.state import HunterState

from .fight import Fight, sheet

TOL = 1e-12
BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
try:
    from hunter_queries import Query, distinct_queries
finally:
    sys.path.remove(str(BENCHMARKS))


def attack_odds(
    state: HunterState,
    attacker: str,
    target: str,
    maneuver: str | None = None,
    params: Mapping[str, Any] | None = None,
) -> AttackOdds:
    query = AttackQuery(attacker=attacker, target=target, maneuver=maneuver, params=params or {})
    return priced(state, query)


def old_odds(
    state: HunterState, attacker: str, target: str, kind: str, params: Mapping[str, Any]
) -> dict[str, Any]:
    """The target's ends of the whole attack on a deep copy, over every branch (the odds'
    path before the stages); the same sums as ``attack_odds``."""
    args: dict[str, Any] = {"target": target, **dict(params)}
    if kind == "burst":
        args.setdefault("targets", [target])
    t = state.fighters[target]

    def run(dice: DiceSource) -> tuple[int, bool, bool, int, str]:
        work = copy.deepcopy(state)
        ctx = Resolution(work, dice)
        perform(ctx, attacker, kind, args)
        rolled = [e for e in ctx.events if isinstance(e, HunterAttackRolled) and e.target == target]
        marked = sum(
            e.amount for e in ctx.events if isinstance(e, HunterDamaged) and e.target == target
        )
        if not rolled:
            return 0, False, False, marked, work.fighters[target].fate
        roll = rolled[-1]
        return roll.successes, roll.dramatic, roll.exceptional, marked, work.fighters[target].fate

    out: dict[str, Any] = {"successes": {}, "levels": {}}
    for name in ("p_hit", "p_botch", "p_exceptional", "p_incapacitated", "p_killed"):
        out[name] = 0.0
    for _, (s, dramatic, exc, marked, fate), p in explore(run):
        out["successes"][s] = out["successes"].get(s, 0.0) + p
        out["levels"][marked] = out["levels"].get(marked, 0.0) + p
        out["p_hit"] += p if s > 0 else 0.0
        out["p_botch"] += p if dramatic else 0.0
        out["p_exceptional"] += p if exc else 0.0
        out["p_incapacitated"] += p if fate != "alive" and t.fate == "alive" else 0.0
        out["p_killed"] += p if fate == "dead" and t.fate != "dead" else 0.0
    return out


def assert_agree(got: AttackOdds, want: dict[str, Any]) -> float:
    """Every probability within ``TOL``; the largest difference."""
    worst = 0.0
    mine_p = {"p_hit": got.p_hit, "p_incapacitated": got.p_incapacitated, "p_killed": got.p_killed}
    mine_p |= {name: got.chance(name) for name in ("p_botch", "p_exceptional")}
    for name, value in mine_p.items():
        diff = abs(value - want[name])
        assert diff <= TOL, (name, value, want[name])
        worst = max(worst, diff)
    for name in ("successes", "levels"):
        mine, theirs = dict(getattr(got, name).items()), want[name]
        for k in set(mine) | set(theirs):
            diff = abs(mine.get(k, 0.0) - theirs.get(k, 0.0))
            assert diff <= TOL, (name, k, mine.get(k), theirs.get(k))
            worst = max(worst, diff)
    return worst


def _price(q: Query) -> tuple[AttackOdds | ConteurError, dict[str, Any] | ConteurError]:
    state = q.state()
    try:
        new: AttackOdds | ConteurError = attack_odds(state, "a", "t", q.kind, q.params)
    except ConteurError as e:
        new = e
    try:
        old: dict[str, Any] | ConteurError = old_odds(state, "a", "t", q.kind, q.params)
    except ConteurError as e:
        old = e
    return new, old


def _check(queries: list[Query]) -> dict[str, int]:
    """Each query priced both ways: the same refusal, or every probability within ``TOL``.
    Counts what the queries reached (the carried strikes: ``_carried_ends`` called)."""
    seen = dict.fromkeys(("priced", "refused", "carried", "ally", "shield", "conscious"), 0)
    seen |= dict.fromkeys(("grapple", "burst", "burst_many", "throw", "attack"), 0)
    carried = odds._carried_ends
    calls: list[int] = []

    def counted(*args: Any) -> Any:
        calls.append(1)
        return carried(*args)

    odds._carried_ends = counted  # type: ignore[assignment]
    try:
        for q in queries:
            before = len(calls)
            new, old = _price(q)
            if isinstance(old, ConteurError):
                assert isinstance(new, ConteurError), (q, new)
                assert new.key == old.key, (q, new.key, old.key)
                seen["refused"] += 1
                continue
            assert isinstance(new, AttackOdds), (q, new)
            assert_agree(new, old)
            seen["priced"] += 1
            seen[q.kind] += 1
            seen["burst_many"] += q.kind == "burst" and len(q.params["targets"]) > 1
            seen["carried"] += len(calls) > before
            seen["ally"] += "ally" in q.params and new.chance("p_botch") > 0
            t = q.state().fighters["t"]
            seen["shield"] += bool(t.shield) and q.kind in ("attack", "burst")
            seen["conscious"] += any(
                damage_marked(t, k, "bashing").consciousness for k, _ in new.levels.items() if k > 0
            )
    finally:
        odds._carried_ends = carried  # type: ignore[assignment]
    return seen


def test_H_ATK_3_odds_equal_the_whole_attack_over_every_branch_on_random_queries() -> None:
    """300 random fights and attacks at one target (grabs, bursts, throws, armour, holds
    and human shields, an ally into close combat, tracks near the last box): the same
    probabilities as the whole attack over every branch, or the same refusal."""
    seen = _check(distinct_queries(300, seed=23, extra_targets=0))
    # The random queries reach every path (else this test proves less than it says).
    assert seen["priced"] >= 200 and seen["refused"] >= 10, seen
    for name in ("grapple", "burst", "throw", "attack"):
        assert seen[name] >= 10, seen
    for name in ("ally", "shield", "conscious"):
        assert seen[name] >= 5, seen
    assert seen["carried"] == 0, seen  # one strike: its stages alone


def test_H_AUTO_4_bursts_at_several_targets_equal_the_whole_attack() -> None:
    """Bursts at two or three targets, some holding one another or the ally: the strikes
    that reach one another carried one after the other, the others priced alone."""
    queries = [
        q
        for q in distinct_queries(150, seed=29, extra_targets=2)
        if q.kind == "burst" and len(q.params["targets"]) > 1
    ][:12]
    seen = _check(queries)
    assert seen["burst_many"] >= 8 and 2 <= seen["carried"] < seen["burst_many"], seen


def test_H_HLT_1_a_blow_into_the_last_box_ties_into_the_roll_to_stay_conscious() -> None:
    """Bashing into the last box: Stamina to stay conscious (the odds of passing out)."""
    f = Fight(sheet("a", strength=4, brawl=3), sheet("b", stamina=1, dexterity=1, wits=1))
    b = f["b"]
    b.health.boxes[: b.health.size - 2] = [1] * (b.health.size - 2)
    got = attack_odds(f.state, "a", "b")
    want = old_odds(f.state, "a", "b", "attack", {})
    assert_agree(got, want)
    # Two points fill the track with bashing: alive but for the Stamina roll (1 die).
    assert got.levels.prob(2) > 0
    assert 0 < got.p_incapacitated < got.p_hit
    assert 0 < got.p_killed < got.p_incapacitated  # past the track: bashing turns lethal


def test_H_MEL_1_a_dramatic_failure_into_close_combat_hits_the_ally_holding_the_target() -> None:
    """The ally holds the target as a human shield: the shot sent into the ally (H-MEL-1)
    lands on the shield, the target (H-GRP-3)."""
    f = Fight(
        sheet("a", dexterity=1, firearms=0, weapon="light_revolver"),
        sheet("t", stamina=1),
        sheet("ally", dexterity=1, wits=1),
    )
    f["ally"].holding, f["t"].held_by, f["ally"].shield = "t", "ally", "t"
    params = {"ally": "ally", "avoid": 1, "range": "short"}
    got = attack_odds(f.state, "a", "t", "attack", params)
    assert_agree(got, old_odds(f.state, "a", "t", "attack", params))
    # The target is hit by the ally's shot only after a dramatic failure at it.
    plain = attack_odds(f.state, "a", "t", "attack", {"avoid": 1, "range": "short"})
    assert got.levels.prob(0) < plain.levels.prob(0)
    assert got.chance("p_botch") == pytest.approx(plain.chance("p_botch"))


def test_H_COV_1_a_shot_at_a_fully_covered_target_hits_the_cover() -> None:
    """No roll at the target (the whole attack found no roll at it before: a traceback)."""
    f = Fight(sheet("a", weapon="light_revolver"), sheet("b", cover="full"))
    got = attack_odds(f.state, "a", "b")
    assert got.p_hit == 0.0 and got.levels.items() == [(0, 1.0)]
    assert got.successes is not None and got.successes.items() == [(0, 1.0)]
    assert_agree(got, old_odds(f.state, "a", "b", "attack", {}))


def test_H_GRP_2_a_burst_at_a_holder_then_its_victim_carries_the_first_strike() -> None:
    """The first target holds the second: its fall frees it (its Defense comes back,
    H-GRP-2); the strikes are carried one after the other, and agree with every branch."""
    f = Fight(
        sheet("a", dexterity=4, firearms=3, weapon="small_smg"),
        sheet("t", stamina=1, dexterity=3, wits=3, health="[X][X][X][X][ ][ ]"),
        sheet("o", stamina=1, dexterity=3, wits=3, health="[X][X][X][X][X][ ]"),
    )
    f["o"].holding, f["t"].held_by, f["t"].immobilised = "t", "o", True
    params = {"burst": "medium", "targets": ["o", "t"], "range": "short"}
    got = attack_odds(f.state, "a", "t", "burst", params)
    assert_agree(got, old_odds(f.state, "a", "t", "burst", params))
    assert 0 < got.p_incapacitated < 1
