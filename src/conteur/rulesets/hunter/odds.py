"""Exact odds of one Hunter attack, before anyone rolls.

Not a second copy of the rules: the action's own code (``actions.perform``)
runs on a copy of the state over every outcome of its dice
(``conteur.dice.explore``), consciousness rolls included.
"""

from __future__ import annotations

import copy
from typing import Any

from conteur.dice import DiceSource, Dist, explore
from conteur.engine import Resolution
from conteur.engine.odds import AttackOdds, AttackQuery
from conteur.i18n import ConteurError

from .actions import perform
from .attack import maneuver_for, plan_attack
from .events import HunterAttackRolled, HunterDamaged
from .grapple import plan_grab
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
        plan = plan_grab(state, a, t)
    else:
        name = {"attack": maneuver_for(state, a), "throw": "throw", "burst": "burst"}[kind]
        plan = plan_attack(
            state, attacker, target, name, args, targets=len(args.get("targets") or [1])
        )

    def run(dice: DiceSource) -> tuple[int, bool, bool, int, str]:
        work = copy.deepcopy(state)
        ctx = Resolution(work, dice)
        perform(ctx, attacker, kind, args)
        rolled = [e for e in ctx.events if isinstance(e, HunterAttackRolled) and e.target == target]
        marked = sum(
            e.amount for e in ctx.events if isinstance(e, HunterDamaged) and e.target == target
        )
        roll = rolled[-1]
        return roll.successes, roll.dramatic, roll.exceptional, marked, work.fighters[target].fate

    successes: dict[int, float] = {}
    levels: dict[int, float] = {}
    hit = botch = exceptional = incap = killed = 0.0
    for _, (s, dramatic, exc, marked, fate), p in explore(run):
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
