"""Grappling (H-GRP-1..3): grab, escape, fight back, overpower and its options."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from conteur.engine import Resolution
from conteur.i18n import ConteurError

from .attack import AttackPlan, _fighter, defense_of, roll_plan
from .events import HunterDrawn, HunterGrappleEnded, HunterGrappleSet, HunterOverpowered
from .health_events import mark_damage
from .state import Fighter, HunterState

OPTIONS = ("knock_down", "damage", "immobilise", "draw", "attack_with", "disarm", "shield")
"""H-GRP-3: what the holder may do once it overpowers its victim."""

RULES: tuple[str, ...] = ()


def _brawl(f: Fighter) -> tuple[tuple[str, int], ...]:
    return (("strength", f.trait("strength")), ("brawl", f.trait("brawl")))


def _wounds(f: Fighter) -> tuple[tuple[str, int], ...]:
    return (("wounds", f.health.penalty),) if f.health.penalty else ()


def plan_grab(state: HunterState, a: Fighter, t: Fighter) -> AttackPlan:
    """H-GRP-1: Strength + Brawl − the target's Defense."""
    if a.holding or a.held_by:
        raise ConteurError("hunter.grapple.already", rule="H-GRP-1")
    if t.holding or t.held_by:
        raise ConteurError("hunter.grapple.target_busy", target=t.name, rule="H-GRP-1")
    defense, drules = defense_of(state, t, "grapple", a, False)
    return AttackPlan(
        attacker=a.id,
        target=t.id,
        maneuver="grapple",
        base=_brawl(a),
        modifiers=_wounds(a),
        defense=defense,
        armour=0,
        again=10,
        damage_type="bashing",
        rules=("H-GRP-1", *drules, *RULES),
    )


def grab_plan(state: HunterState, attacker: str, params: Mapping[str, Any]) -> AttackPlan:
    """The grab ``attacker`` would roll at ``params``' target (or the refusal)."""
    a = _fighter(state, attacker)
    t = _fighter(state, params.get("target"))
    if t.id == a.id:
        raise ConteurError("hunter.attack.self")
    return plan_grab(state, a, t)


def grab(ctx: Resolution, attacker: str, params: Mapping[str, Any]) -> None:
    plan = grab_plan(ctx.state, attacker, params)
    result = roll_plan(plan, ctx)
    if result.successes > 0:
        ctx.emit(HunterGrappleSet(actor=plan.attacker, target=plan.target, rules=("H-GRP-1",)))


def plan_escape(state: HunterState, a: Fighter, maneuver: str) -> AttackPlan:
    """H-GRP-2: Strength + Brawl − the holder's Strength (to escape or to fight back)."""
    if not a.held_by:
        raise ConteurError("hunter.grapple.not_held", rule="H-GRP-2")
    holder = state.fighters[a.held_by]
    return AttackPlan(
        attacker=a.id,
        target=holder.id,
        maneuver=maneuver,
        base=_brawl(a),
        modifiers=_wounds(a),
        defense=holder.trait("strength"),
        armour=0,
        again=10,
        damage_type="bashing",
        rules=("H-GRP-2", *RULES),
        opposed="strength",
    )


def escape(ctx: Resolution, actor: str, params: Mapping[str, Any]) -> None:
    state: HunterState = ctx.state
    a = _fighter(state, actor)
    plan = plan_escape(state, a, "escape")
    if roll_plan(plan, ctx).successes > 0:
        ctx.emit(HunterGrappleEnded(actor=plan.target, target=a.id, rules=("H-GRP-2",)))


def plan_overpower(state: HunterState, a: Fighter, option: str, weapon: int) -> AttackPlan:
    """H-GRP-3: Strength + Brawl − the victim's Strength (a drawn weapon adds its rating)."""
    if not a.holding:
        raise ConteurError("hunter.grapple.not_holding", rule="H-GRP-3")
    t = state.fighters[a.holding]
    mods = ((("weapon", weapon),) if weapon else ()) + _wounds(a)
    w = state.weapon_of(a)
    damage_type = w.damage_type if option == "attack_with" and w else "bashing"
    return AttackPlan(
        attacker=a.id,
        target=t.id,
        maneuver="overpower",
        base=_brawl(a),
        modifiers=mods,
        defense=t.trait("strength"),
        armour=0,
        again=10,
        damage_type=damage_type,
        rules=("H-GRP-3", *RULES),
        opposed="strength",
    )


def overpower_refusal(
    state: HunterState, a: Fighter, option: str, weapon: str | None
) -> ConteurError | None:
    """H-GRP-3: why the holder ``a`` may not overpower with ``option`` (None: it may).

    ``weapon``: the weapon to draw (``draw``); None when not said yet."""
    if option not in OPTIONS:
        return ConteurError(
            "hunter.grapple.bad_option", value=option, known=", ".join(OPTIONS), rule="H-GRP-3"
        )
    if option == "draw" and (not a.weapons or (weapon is not None and weapon not in a.weapons)):
        return ConteurError("hunter.draw.not_carried", weapon=weapon or "", rule="H-GRP-3")
    w = state.weapon_of(a)
    if option == "attack_with" and (w is None or w.category != "melee"):
        return ConteurError("hunter.attack.no_melee_weapon", rule="H-GRP-3")
    return None


def overpower(ctx: Resolution, actor: str, params: Mapping[str, Any]) -> None:
    """The holder overpowers; a held fighter fights back (reading: takes control on success)."""
    state: HunterState = ctx.state
    a = _fighter(state, actor)
    if a.held_by:
        plan = plan_escape(state, a, "fight_back")
        if roll_plan(plan, ctx).successes > 0:
            ctx.emit(HunterGrappleSet(actor=a.id, target=plan.target, rules=("H-GRP-2",)))
        return
    option = str(params.get("option") or "damage")
    weapon = str(params.get("weapon") or "") if option == "draw" else None
    refusal = overpower_refusal(state, a, option, weapon)
    if refusal is not None:
        raise refusal
    w = state.weapon_of(a)
    rating = w.damage if option == "attack_with" and w else 0
    plan = plan_overpower(state, a, option, rating)
    result = roll_plan(plan, ctx)
    if result.successes <= 0:
        return
    if option == "draw" and weapon:
        ctx.emit(HunterDrawn(actor=a.id, weapon=weapon, quick=True, rules=("H-GRP-3", "H-DRAW-1")))
    ctx.emit(HunterOverpowered(actor=a.id, target=plan.target, option=option, rules=("H-GRP-3",)))
    if option in ("damage", "attack_with"):
        mark_damage(ctx, plan.target, result.successes, plan.damage_type)
