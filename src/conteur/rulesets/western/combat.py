"""Commands of the round: attack (shoot or strike), pass, reload, surprise."""

from __future__ import annotations

import math

from conteur.engine import Command, Resolution
from conteur.engine.geometry import distance
from conteur.i18n import ConteurError, Msg

from .events import (
    DamageDealt,
    LocationRolled,
    LocationShifted,
    Passed,
    Ran,
    Reloaded,
    ShotRolled,
    Surprised,
)
from .order import end_round
from .shooting import draft_shot, roll_shot, weapon_in
from .state import Fighter, WesternState

AFTER_HIT = frozenset({"W-LOC-1", "W-LOC-2", "W-CRIT-2", "W-CRIT-3"})
"""Rules a missed shot never reaches."""


def due_fighter(state: WesternState, command: Command) -> Fighter:
    """The actor, who must be the one whose shot comes now (W-SPD-2)."""
    if command.actor is None:
        raise ConteurError("western.no_actor", command=command.type)
    f = state.fighter(command.actor)
    if state.phase != "round":
        raise ConteurError("western.no_round")
    due = state.due()
    if due is None or due[0] != f.id:
        if not any(fid == f.id for fid, _ in state.slots[state.done :]):
            raise ConteurError("western.no_more_shots", fighter=f.name, rule="W-SPD-2")
        raise ConteurError("western.not_due", fighter=f.name, rule="W-SPD-2")
    return f


def one_action(state: WesternState, f: Fighter, action: str) -> None:
    """The round's one simple action (W-RND-1): the whole volley is it, so a fighter who
    fired this round cannot reload or run in it, nor fire after reloading or running."""
    done = f.action_in(state.turn)
    if done is not None and done != action:
        raise ConteurError(
            "western.one_action",
            fighter=f.name,
            done=Msg(f"western.action.{done}"),
            wanted=Msg(f"western.action.{action}"),
            rule="W-RND-1",
        )


def may_take(state: WesternState, f: Fighter, action: str) -> bool:
    """Whether ``action`` is still open to ``f`` this round (W-RND-1)."""
    return f.action_in(state.turn) in (None, action)


def _end_of_round(ctx: Resolution) -> None:
    state: WesternState = ctx.state
    if state.phase == "round" and state.done >= len(state.slots):
        end_round(ctx)


def attack(ctx: Resolution, command: Command) -> None:
    """``attack``: one shot or blow at a target, the whole sequence from "target" (W-SEQ-1)."""
    state: WesternState = ctx.state
    f = due_fighter(state, command)
    one_action(state, f, "shoot")
    hand = state.due()[1]  # type: ignore[index]
    target = state.fighter(str(command.get("target") or "")).id
    zone = command.get("zone") or None
    modifier = int(command.get("modifier") or 0)
    shot = draft_shot(state, f.id, target, hand, zone, modifier)
    out = roll_shot(shot, state.tables, ctx.dice, {k: v.name for k, v in state.fighters.items()})
    r = out.hit.result
    ctx.emit(
        ShotRolled(
            attacker=f.id,
            target=target,
            weapon=shot.weapon,
            hand=hand,
            skill=shot.skill,
            percent=shot.percent,
            roll=r.roll,
            hit=r.success,
            critical=r.critical,
            margin=r.margin,
            modifiers=shot.modifiers,
            rolls=(out.hit,),
            rules=shot.rules if r.success else tuple(x for x in shot.rules if x not in AFTER_HIT),
        )
    )
    if not out.success:
        _end_of_round(ctx)
        return
    if out.rolled_zone is not None:
        loc_rolls = (out.location,) if out.location is not None else ()
        face = out.location.result.total if out.location is not None else 0
        rules = ("W-LOC-2",) if out.location is not None else ("W-CRIT-3",)
        ctx.emit(
            LocationRolled(
                target=target, face=face, zone=out.rolled_zone, rules=rules, rolls=loc_rolls
            )
        )
        if out.zone != out.rolled_zone:
            ctx.emit(
                LocationShifted(
                    target=target,
                    rolled=out.rolled_zone,
                    zone=str(out.zone),
                    margin=r.margin,
                    rules=("W-CRIT-1", "W-CRIT-2"),
                )
            )
    assert out.damage is not None
    ctx.emit(
        DamageDealt(
            target=target,
            zone=out.zone or "body",
            dice=out.damage.result.total,
            multiplier=out.multiplier,
            pv_lost=out.pv_lost,
            rules=("W-LOC-1",),
            rolls=(out.damage,),
        )
    )
    _end_of_round(ctx)


def pass_turn(ctx: Resolution, command: Command) -> None:
    """``pass``: the fighter lets this shot or blow go."""
    f = due_fighter(ctx.state, command)
    ctx.emit(Passed(fighter=f.id, rules=("W-SPD-2",)))
    _end_of_round(ctx)


def reload(ctx: Resolution, command: Command) -> None:
    """``reload``: a shot's turn spent loading cartridges (default table: ``reload`` per turn)."""
    state: WesternState = ctx.state
    f = due_fighter(state, command)
    one_action(state, f, "reload")
    hand = str(command.get("hand") or state.due()[1])  # type: ignore[index]
    refusal = reload_refusal(state, f, hand)
    if refusal is not None:
        raise refusal
    w = weapon_in(state, f, hand)
    assert w.capacity is not None
    ctx.emit(
        Reloaded(
            fighter=f.id,
            hand=hand,
            rounds=min(w.capacity, f.ammo[hand] + w.reload),
            rules=("W-RND-1",),
        )
    )
    _end_of_round(ctx)


def reload_refusal(state: WesternState, f: Fighter, hand: str) -> ConteurError | None:
    """Why ``f`` cannot load cartridges in ``hand``'s weapon (None: it can)."""
    w = weapon_in(state, f, hand)
    if w.capacity is None or hand not in f.ammo:
        return ConteurError("western.cannot_reload", fighter=f.name, weapon=w.id)
    if f.ammo[hand] >= w.capacity:
        return ConteurError("western.already_loaded", fighter=f.name, weapon=w.id)
    return None


RUN_METRES = 8.0
"""Metres run in one shot's turn (default)."""


def run(ctx: Resolution, command: Command) -> None:
    """``run``: spend this turn running ``metres`` away from the nearest adversary (or toward)."""
    state: WesternState = ctx.state
    f = due_fighter(state, command)
    one_action(state, f, "run")
    foes = [o for o in state.fighters.values() if o.side != f.side and o.standing]
    metres = float(command.get("metres") or RUN_METRES)
    x, y = f.position
    if foes:
        near = min(foes, key=lambda o: distance(f.position, o.position))
        dx, dy = x - near.position[0], y - near.position[1]
        length = math.hypot(dx, dy) or 1.0
        if command.get("toward"):
            dx, dy = -dx, -dy
        x, y = x + dx / length * metres, y + dy / length * metres
    ctx.emit(Ran(fighter=f.id, x=round(x, 2), y=round(y, 2), rules=("W-RND-1",)))
    _end_of_round(ctx)


def surprise(ctx: Resolution, command: Command) -> None:
    """``surprise`` (game master): a fighter is attacked by surprise, or sees a sudden adversary.

    Attacked by surprise: no action this round (W-RND-2). A sudden adversary:
    the fighter shoots instinctively (W-SKL-2), even after the first round
    (W-SKL-3).
    """
    state: WesternState = ctx.state
    f = state.fighter(str(command.get("target") or ""))
    kind = str(command.get("surprise") or "sudden")
    if kind not in ("attacked", "sudden"):
        raise ConteurError("western.bad_surprise", kind=kind)
    rules = ("W-RND-2",) if kind == "attacked" else ("W-SKL-2", "W-SKL-3")
    ctx.emit(Surprised(fighter=f.id, kind=kind, rules=rules))
    _end_of_round(ctx)
