"""A fighter's action of the turn (``act``) and what may be done outside it."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from conteur.engine import Command, Resolution
from conteur.engine.battlemap import new_zone_id, parse_points
from conteur.engine.geometry import distance, parse_position
from conteur.i18n import ConteurError, Msg

from . import attack, grapple
from .cover import COVER_PENALTY, zone_levels
from .events import (
    HunterActionDone,
    HunterAiming,
    HunterAimLost,
    HunterCoverChanged,
    HunterDodging,
    HunterDrawn,
    HunterPassed,
    HunterPlaced,
    HunterReloaded,
    HunterXpReset,
    HunterZoneDrawn,
    HunterZoneErased,
)
from .health_events import mark_damage
from .legal import TARGETED, dodge_refusal, kind_refusal
from .state import Fighter, HunterState
from .turn import check_due


def act(ctx: Resolution, command: Command) -> None:
    """The due fighter's action (H-INI-1 order), ``kind`` chosen among ``legal.KINDS``."""
    state: HunterState = ctx.state
    check_due(state, command.actor)
    assert command.actor is not None
    f = state.fighters[command.actor]
    kind = str(command.get("kind") or "attack")
    refusal = kind_refusal(state, f, kind)
    if refusal is not None:
        raise refusal
    if kind in TARGETED and not command.get("target") and not command.get("targets"):
        raise ConteurError("hunter.act.needs_target", kind=Msg(f"hunter.word.{kind}"))
    if f.aim and kind not in ("aim", "attack", "throw", "burst"):
        ctx.emit(HunterAimLost(actor=f.id, rules=("H-AIM-1",)))
    perform(ctx, f.id, kind, command.args)
    if kind != "dodge":
        ctx.emit(HunterActionDone(actor=f.id, action=kind))


def perform(ctx: Resolution, actor: str, kind: str, params: Mapping[str, Any]) -> None:
    """Carry out an action of ``kind`` (no turn check: the odds and tests call it too)."""
    handler = _HANDLERS[kind]
    handler(ctx, actor, params)


def _attack(ctx: Resolution, actor: str, params: Mapping[str, Any]) -> None:
    f = ctx.state.fighters[actor]
    attack.attack(ctx, actor, attack.maneuver_for(ctx.state, f), params)


def _throw(ctx: Resolution, actor: str, params: Mapping[str, Any]) -> None:
    attack.attack(ctx, actor, "throw", params)


def _burst(ctx: Resolution, actor: str, params: Mapping[str, Any]) -> None:
    attack.attack(ctx, actor, "burst", params)


def _dodge(ctx: Resolution, actor: str, params: Mapping[str, Any]) -> None:
    f: Fighter = ctx.state.fighters[actor]
    ctx.emit(HunterDodging(actor=actor, value=2 * f.base_defense, rules=("H-DODGE-1",)))


def dodge(ctx: Resolution, command: Command) -> None:
    """H-DODGE-1: when attacked, a fighter that has not acted yet gives up its action to dodge."""
    state: HunterState = ctx.state
    if state.phase != "resolution":
        raise ConteurError("hunter.act.no_initiative")
    f = state.fighters.get(str(command.actor))
    if f is None:
        raise ConteurError(
            "hunter.unknown_fighter", name=str(command.actor), known=", ".join(state.fighters)
        )
    refusal = dodge_refusal(state, f)
    if refusal is not None:
        raise refusal
    if f.aim:
        ctx.emit(HunterAimLost(actor=f.id, rules=("H-AIM-1",)))
    _dodge(ctx, f.id, command.args)


def _aim(ctx: Resolution, actor: str, params: Mapping[str, Any]) -> None:
    """H-AIM-1: +1 die per turn spent aiming at the same target, at most +3."""
    state: HunterState = ctx.state
    f = state.fighters[actor]
    target = attack._fighter(state, params.get("target")).id
    aim = min(3, f.aim + 1) if f.aim_target == target else 1
    ctx.emit(HunterAiming(actor=actor, target=target, aim=aim, rules=("H-AIM-1",)))


def stop_aiming(ctx: Resolution, command: Command) -> None:
    """H-AIM-1: using its Defense, the fighter loses its aim bonus."""
    f = ctx.state.fighters.get(str(command.actor))
    if f is None or not f.aim:
        raise ConteurError("hunter.aim.not_aiming", rule="H-AIM-1")
    ctx.emit(HunterAimLost(actor=f.id, rules=("H-AIM-1",)))


def _reload(ctx: Resolution, actor: str, params: Mapping[str, Any]) -> None:
    """H-RLD-1: a turn (the crossbow's turns); bullet by bullet costs the Defense."""
    state: HunterState = ctx.state
    f = state.fighters[actor]
    w = state.weapon_of(f)
    if w is None or w.category != "firearm":
        raise ConteurError("hunter.attack.no_firearm", rule="H-RLD-1")
    left = (f.reloading or w.reload_turns) - 1
    ctx.emit(
        HunterReloaded(
            actor=actor,
            weapon=w.id,
            rounds=w.clip,
            turns_left=left,
            exposed=w.reload == "single",
            rules=("H-RLD-1",),
        )
    )


def _draw(ctx: Resolution, actor: str, params: Mapping[str, Any]) -> None:
    """H-DRAW-1: drawing a weapon takes the turn."""
    f = ctx.state.fighters[actor]
    weapon = str(params.get("weapon") or "")
    if weapon not in f.weapons:
        raise ConteurError("hunter.draw.not_carried", weapon=weapon, rule="H-DRAW-1")
    ctx.emit(HunterDrawn(actor=actor, weapon=weapon, quick=False, rules=("H-DRAW-1",)))


def quick_draw(ctx: Resolution, command: Command) -> None:
    """H-DRAW-1: with Quick Draw, drawing takes no action (the fighter acts as well)."""
    state: HunterState = ctx.state
    f = state.fighters.get(str(command.actor))
    if f is None:
        raise ConteurError(
            "hunter.unknown_fighter", name=str(command.actor), known=", ".join(state.fighters)
        )
    if "quick_draw" not in f.merits:
        raise ConteurError("hunter.draw.needs_turn", fighter=f.name, rule="H-DRAW-1")
    weapon = str(command.get("weapon") or "")
    if weapon not in f.weapons:
        raise ConteurError("hunter.draw.not_carried", weapon=weapon, rule="H-DRAW-1")
    ctx.emit(HunterDrawn(actor=f.id, weapon=weapon, quick=True, rules=("H-DRAW-1",)))


def pass_action(ctx: Resolution, command: Command) -> None:
    check_due(ctx.state, command.actor)
    assert command.actor is not None
    ctx.emit(HunterPassed(actor=command.actor))


def set_cover(ctx: Resolution, command: Command) -> None:
    """The game master sets a fighter's concealment (H-COV-1)."""
    state: HunterState = ctx.state
    f = attack._fighter(state, command.get("fighter"))
    level = str(command.get("cover") or "none")
    if level not in COVER_PENALTY:
        raise ConteurError(
            "hunter.cover.bad_level", value=level, known=", ".join(COVER_PENALTY), rule="H-COV-1"
        )
    ctx.emit(HunterCoverChanged(actor=f.id, cover=level, rules=("H-COV-1",)))


def _shown(value: Any) -> str:
    return "—" if value is None or value == "" else str(value)


def place(ctx: Resolution, command: Command) -> None:
    """The game master places a fighter on the map (``to``: ``"x,y"`` in yards); the range
    bands of the shots at it and its own come from there (H-RNG-1)."""
    state: HunterState = ctx.state
    f = attack._fighter(state, command.get("fighter"))
    raw = command.get("to")
    try:
        x, y = parse_position(raw)
    except (ValueError, TypeError, IndexError):
        raise ConteurError("hunter.gm.position", field="to", value=_shown(raw)) from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise ConteurError("hunter.gm.position", field="to", value=_shown(raw))
    x, y = round(x, 2), round(y, 2)
    moved = round(distance(f.position, (x, y)), 2)
    ctx.emit(HunterPlaced(actor=f.id, x=x, y=y, yards=moved))


def zone(ctx: Resolution, command: Command) -> None:
    """Draw a cover zone on the map (``points``: ``"x,y x,y x,y"`` in yards) with a level of
    the cover table (``level``, ``data/cover.yaml``): whoever stands in it has that cover."""
    state: HunterState = ctx.state
    raw = command.get("points")
    try:
        points = parse_points(raw)
    except (ValueError, TypeError):
        raise ConteurError("hunter.gm.zone_points", field="points", value=_shown(raw)) from None
    level = str(command.get("level") or "")
    if level not in zone_levels():
        raise ConteurError(
            "hunter.gm.zone_level",
            field="level",
            value=_shown(level),
            known=", ".join(zone_levels()),
            rule="H-COV-1",
        )
    zid = new_zone_id(state.zones)
    ctx.emit(HunterZoneDrawn(zone=zid, points=points, level=level, rules=("H-COV-1",)))


def unzone(ctx: Resolution, command: Command) -> None:
    """Erase a cover zone of the map."""
    state: HunterState = ctx.state
    zid = command.get("zone")
    found = state.zones.get(str(zid))
    if found is None:
        raise ConteurError("hunter.gm.zone_unknown", field="zone", value=_shown(zid))
    ctx.emit(HunterZoneErased(zone=found.id, level=found.level, rules=("H-COV-1",)))


def gm_xp_reset(ctx: Resolution, command: Command) -> None:
    """H-XP-2: the game master resets a hunter's experience counters (the session's award is
    given); written back to the character when the encounter closes. Any phase, "over" too."""
    state: HunterState = ctx.state
    f = attack._fighter(state, command.get("fighter"))
    if f.kind != "hunter":
        raise ConteurError("hunter.gm.not_a_hunter", fighter=f.name, rule="H-XP-2")
    ctx.emit(
        HunterXpReset(
            actor=f.id,
            exceptional_vs_monster=f.xp_exceptional_vs_monster,
            dramatic_failures=f.xp_dramatic_failures,
            rules=("H-XP-2",),
        )
    )


def gm_damage(ctx: Resolution, command: Command) -> None:
    """The game master marks damage by hand."""
    state: HunterState = ctx.state
    f = attack._fighter(state, command.get("fighter"))
    amount = command.get("amount")
    kind = str(command.get("damage_type") or "lethal")
    if not isinstance(amount, int) or isinstance(amount, bool) or not 1 <= amount <= 30:
        raise ConteurError("hunter.gm.bad_amount", value=str(amount))
    if kind not in ("bashing", "lethal", "aggravated"):
        raise ConteurError("hunter.gm.bad_damage_type", value=kind)
    mark_damage(ctx, f.id, amount, kind)


_HANDLERS: dict[str, Callable[[Resolution, str, Mapping[str, Any]], None]] = {
    "attack": _attack,
    "throw": _throw,
    "burst": _burst,
    "grapple": grapple.grab,
    "escape": grapple.escape,
    "overpower": grapple.overpower,
    "dodge": _dodge,
    "aim": _aim,
    "reload": _reload,
    "draw": _draw,
}
