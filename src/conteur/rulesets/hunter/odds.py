"""Exact odds of one Hunter attack, before anyone rolls.

Not a second copy of the rules: the attack's own stage functions run over the
exact outcomes of its dice. The attack is planned as the fight plans it
(``attack.ready_attack``, ``grapple.grab_plan``, with their refusals); the roll's
outcomes come from the pool's exact arrays (``HunterPool.outcomes``); where
each lands is ``attack.landing`` (the ally's attack after a dramatic failure
into close combat, a human shield); what the damage does to the target is
``health_events.damage_marked``, then the Stamina roll to stay conscious
(``consciousness_pool``, ``stays_conscious``) — once per distinct damage
value, on the target's track only: no state is copied.

A burst at several targets whose strikes can reach one another (a target, or
the ally, grappling another target or the attacker) is carried strike after
strike: the fight's own ``strike_at`` over every branch of its dice
(``conteur.dice.explore``) on a copy of the fighters of each distinct state
the strikes before it left.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterable, Mapping
from typing import Any

from conteur.dice import DiceSource, Dist, ForcedDice, explore
from conteur.engine import Resolution
from conteur.engine.odds import AttackOdds, AttackQuery
from conteur.i18n import ConteurError

from .attack import (
    AttackPlan,
    ally_plan,
    attack_rolled,
    landing,
    maneuver_for,
    open_attack,
    plan_pool,
    ready_attack,
    shot_hits_cover,
    strike_at,
)
from .dice import HunterResult
from .events import HunterAttackRolled, HunterDamaged
from .grapple import grab_plan
from .health import HealthTrack
from .health_events import consciousness_pool, marked_with, stays_conscious
from .state import HunterState

KINDS = ("attack", "throw", "burst", "grapple")


def attack_kinds(state: HunterState, attacker: str) -> list[str]:
    """The attacks ``attack_odds`` can price for ``attacker`` with what it holds."""
    f = state.fighters[attacker]
    w = state.weapon_of(f)
    kinds = ["attack", "grapple"]
    if w is not None and w.autofire:
        kinds.append("burst")
    if w is not None and w.category != "firearm" and w.size < f.trait("strength"):
        kinds.append("throw")
    return kinds


Ends = dict[tuple[int, bool, bool, int, str], float]
"""The target's ends of one attack: (successes of the last roll at it, dramatic failure,
exceptional success, damage points marked on it, its fate) with their probability."""


def attack_odds(state: HunterState, query: AttackQuery) -> AttackOdds:
    """The exact odds of the query's attacker attacking its target now with its maneuver."""
    attacker, target, params = query.attacker, query.target, query.params
    kind = query.maneuver or "attack"
    if kind not in KINDS:
        raise ConteurError("hunter.act.bad_kind", value=kind, known=", ".join(KINDS))
    args: dict[str, Any] = {"target": target, **dict(params or {})}
    if kind == "burst":
        args.setdefault("targets", [target])
    a = state.fighters[attacker]
    t = state.fighters[target]
    if kind == "grapple":
        plans: tuple[AttackPlan, ...] = (grab_plan(state, attacker, args),)
    else:
        name = {"attack": maneuver_for(state, a), "throw": "throw", "burst": "burst"}[kind]
        plans = ready_attack(state, attacker, name, args)
    mine = [p for p in plans if p.target == target]
    if kind == "grapple":
        plan = plans[0]
        ends = _roll_ends(state, plan)
    elif mine and _apart(state, attacker, plans):
        plan = mine[0]
        ends = _strike_ends(state, plan)
    else:
        plan = mine[0] if mine else plans[0]
        ends = _carried_ends(state, attacker, target, name, args, plans)

    successes: dict[int, float] = {}
    levels: dict[int, float] = {}
    hit = botch = exceptional = incap = killed = 0.0
    for (s, dramatic, exc, marked, fate), p in ends.items():
        successes[s] = successes.get(s, 0.0) + p
        levels[marked] = levels.get(marked, 0.0) + p
        hit += p if s > 0 else 0.0
        botch += p if dramatic else 0.0
        exceptional += p if exc else 0.0
        incap += p if fate != "alive" and t.fate == "alive" else 0.0
        killed += p if fate == "dead" and t.fate != "dead" else 0.0
    return AttackOdds(
        attacker=attacker,
        target=target,
        maneuver=plan.maneuver,
        pool=plan.pool,
        difficulty=8,
        modifiers=(
            *plan.base,
            *plan.modifiers,
            ("defense", -plan.defense),
            ("armour", -plan.armour),
        ),
        defence="dodge" if t.dodging else None,
        p_hit=hit,
        successes=Dist.from_mapping(successes),
        damage=Dist.from_mapping(levels),
        levels=Dist.from_mapping(levels),
        p_incapacitated=incap,
        p_killed=killed,
        chances={"p_botch": botch, "p_exceptional": exceptional},
    )


def _reach(state: HunterState, plan: AttackPlan) -> set[str]:
    """Whom one strike of ``plan`` may change: its target, the ally its dramatic failure
    may hit (H-MEL-1), and whoever these two grapple (the human shield a shot may hit,
    the hold a fall ends)."""
    ids = {plan.target} | ({plan.ally} if plan.ally is not None else set())
    for fid in tuple(ids):
        f = state.fighters[fid]
        ids |= {x for x in (f.holding, f.held_by) if x is not None}
    return ids


def _apart(state: HunterState, attacker: str, plans: tuple[AttackPlan, ...]) -> bool:
    """Whether the target's ends follow from its own strike alone: one strike whose ally
    is not the attacker (the attacker's own events come first), or a burst's strikes
    that cannot reach one another nor the attacker (then nothing a strike does changes
    another's plan, roll or damage)."""
    if len(plans) == 1:
        return plans[0].ally != attacker
    seen = {attacker}
    for plan in plans:
        reach = _reach(state, plan)
        if reach & seen:
            return False
        seen |= reach
    return True


def _roll_ends(state: HunterState, plan: AttackPlan) -> Ends:
    """A roll that marks no damage (a grab, H-GRP-1): its outcomes only."""
    fate = state.fighters[plan.target].fate
    ends: Ends = {}
    for r, p in plan_pool(plan).outcomes():
        key = (r.successes, r.dramatic_failure, r.exceptional, 0, fate)
        ends[key] = ends.get(key, 0.0) + p
    return ends


def _after_roll(state: HunterState, plan: AttackPlan) -> HunterState:
    """The state as the ally's attack reads it: when the ally is the target itself, the
    target has received the first roll (``HunterAttackRolled``'s fold, H-DODGE-1), on a
    copy of that fighter only."""
    if plan.ally != plan.target:
        return state
    seen = copy.copy(state)
    seen.fighters = {**state.fighters, plan.target: copy.copy(state.fighters[plan.target])}
    attack_rolled(plan, HunterResult(0, True, plan.pool <= 0)).fold(seen)
    return seen


def _strike_ends(state: HunterState, plan: AttackPlan) -> Ends:
    """The target's ends of one strike (``attack.strike``'s stages over exact outcomes):
    the roll, where it lands (the ally's roll after a dramatic failure into close combat,
    a human shield), then the damage on the target's track and the roll to stay
    conscious, once per distinct damage value."""
    target = state.fighters[plan.target]
    ends: Ends = {}
    if shot_hits_cover(state, plan):  # H-COV-1: no roll, the cover takes the shot
        ends[(0, False, False, 0, target.fate)] = 1.0
        return ends
    after: dict[tuple[int, str], tuple[tuple[str, float], ...]] = {}
    tracks: dict[str, dict[int, HealthTrack]] = {}

    def track_after(amount: int, damage_type: str) -> HealthTrack:
        """The target's track after ``amount`` points, from the nearest fewer points
        already marked (``with_damage`` marks point after point)."""
        known = tracks.setdefault(damage_type, {0: target.health})
        done = next(reversed(known))  # the most points marked yet (they come in order)
        if done > amount:
            done = max(k for k in known if k <= amount)
        known[amount] = known[done].with_damage(amount - done, damage_type)
        return known[amount]

    def marked(amount: int, damage_type: str) -> tuple[tuple[str, float], ...]:
        """The target's fates after ``amount`` points on its track, each with its odds."""
        key = (amount, damage_type)
        if key not in after:
            m = marked_with(target, track_after(amount, damage_type))
            if not m.consciousness:
                after[key] = ((m.fate, 1.0),)
            else:
                rolls = consciousness_pool(target).outcomes()
                up = math.fsum(q for r, q in rolls if stays_conscious(r))
                down = math.fsum(q for r, q in rolls if not stays_conscious(r))
                after[key] = ((m.fate, up), ("unconscious", down))
        return after[key]

    def add(last: HunterResult, amount: int, damage_type: str, p: float) -> None:
        head = (last.successes, last.dramatic_failure, last.exceptional)
        fates = marked(amount, damage_type) if amount > 0 else ((target.fate, 1.0),)
        for fate, q in fates:
            key = (*head, amount, fate)
            ends[key] = ends.get(key, 0.0) + p * q

    for r, p in plan_pool(plan).outcomes():
        land = landing(state, plan, r)
        if not land.ally:
            add(r, land.amount if land.victim == plan.target else 0, plan.damage_type, p)
            continue
        second = ally_plan(_after_roll(state, plan), plan)  # H-MEL-1
        for r2, q in plan_pool(second).outcomes():
            hit = landing(state, second, r2)
            last = r2 if second.target == plan.target else r
            amount = hit.amount if hit.victim == plan.target else 0
            add(last, amount, second.damage_type, p * q)
    return ends


def _fighters_copy(state: HunterState) -> HunterState:
    """The state with its fighters copied, and their dicts (the rounds left): what an
    attack's events change (a health track is replaced, never changed in place); the
    rest shared."""
    work = copy.copy(state)
    work.fighters = {}
    for fid, f in state.fighters.items():
        mine = work.fighters[fid] = copy.copy(f)
        for name, value in vars(f).items():
            if isinstance(value, dict):
                setattr(mine, name, dict(value))
    return work


UNREAD = frozenset({"xp_exceptional_vs_monster", "xp_dramatic_failures"})
"""Fighter fields an attack's rolls only count into (H-XP-2), never read."""


def _world_key(state: HunterState, read: Iterable[str]) -> tuple[Any, ...]:
    """What tells two states apart for what is left of the attack: every field (but
    ``UNREAD``) of the fighters it reads."""
    return tuple(
        tuple(
            tuple(v.boxes)
            if isinstance(v, HealthTrack)
            else tuple(sorted(v.items()))
            if isinstance(v, dict)
            else v
            for name, v in vars(state.fighters[fid]).items()
            if name not in UNREAD
        )
        for fid in sorted(read)
    )


Seen = tuple[tuple[int, bool, bool], int, str]
"""What the target's ends keep of the strikes so far: the last roll at it (successes,
dramatic, exceptional), the points marked on it, its fate."""


def _seen_after(seen: Seen, events: Iterable[Any], target: str, fate: str | None) -> Seen:
    """``seen`` after a strike's events; ``fate``: the target's after it, if it reached it."""
    roll, points, before = seen
    for e in events:
        if isinstance(e, HunterAttackRolled) and e.target == target:
            roll = (e.successes, e.dramatic, e.exceptional)
        elif isinstance(e, HunterDamaged) and e.target == target:
            points += e.amount
    return roll, points, before if fate is None else fate


def _carried_ends(
    state: HunterState,
    attacker: str,
    target: str,
    maneuver: str,
    params: Mapping[str, Any],
    plans: tuple[AttackPlan, ...],
) -> Ends:
    """The target's ends of strikes that reach one another: the attacker's part once
    (``open_attack``, no dice), then strike after strike (``strike_at``, the fight's
    own code) over every branch of its dice, once per distinct state the strikes before
    left (on a copy of its fighters), the states equal in what the rest of the attack
    reads merged (the fighters the later strikes reach and the attacker), each with the
    odds of what the target's ends keep of them (``Seen``)."""
    first = _fighters_copy(state)
    open_attack(Resolution(first, ForcedDice(())), first.fighters[attacker], maneuver, params)
    carried: dict[tuple[Any, ...], tuple[HunterState, dict[Seen, float]]] = {
        (): (first, {((0, False, False), 0, state.fighters[target].fate): 1.0})
    }
    reaches = [_reach(state, plan) for plan in plans]
    for i, plan in enumerate(plans):
        read = {attacker}.union(*reaches[i + 1 :])  # what the rest reads
        nxt: dict[tuple[Any, ...], tuple[HunterState, dict[Seen, float]]] = {}
        for world, seen in carried.values():

            def run(
                dice: DiceSource, world: HunterState = world, plan: AttackPlan = plan
            ) -> tuple[HunterState, Any]:
                work = _fighters_copy(world)
                ctx = Resolution(work, dice)
                strike_at(ctx, plan, params, len(plans))
                return work, ctx.events

            for _, (work, events), q in explore(run):
                _, after = nxt.setdefault(_world_key(work, read), (work, {}))
                # The target's fields are this state's only while a strike may reach it.
                fate = work.fighters[target].fate if target in reaches[i] else None
                for before, p in seen.items():
                    now = _seen_after(before, events, target, fate)
                    after[now] = after.get(now, 0.0) + p * q
        carried = nxt
    ends: Ends = {}
    for _, seen in carried.values():
        for ((s, dramatic, exc), marked, fate), p in seen.items():
            end = (s, dramatic, exc, marked, fate)
            ends[end] = ends.get(end, 0.0) + p
    return ends
