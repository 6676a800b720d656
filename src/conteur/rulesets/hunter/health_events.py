"""Marking damage and the checks that follow it (H-ATK-3, H-HLT-1)."""

from __future__ import annotations

from conteur.engine import Resolution
from conteur.i18n import Msg

from .asks import trait_ask
from .dice import HunterPool
from .events import HunterConsciousnessRolled, HunterDamaged, HunterGrappleEnded
from .rolls import roll_rules
from .state import HunterState


def mark_damage(ctx: Resolution, target: str, amount: int, damage_type: str) -> None:
    """Mark ``amount`` points on ``target``'s track, then what follows (fall, consciousness)."""
    state: HunterState = ctx.state
    f = state.fighters[target]
    if amount <= 0:
        return
    was_last = f.health.last
    track = f.health.with_damage(amount, damage_type)
    fate = track.fate() if f.fate in ("alive", "unconscious") else f.fate
    if fate == "alive" and f.fate == "unconscious":
        fate = "unconscious"
    ctx.emit(
        HunterDamaged(
            target=target,
            amount=amount,
            damage_type=damage_type,
            track=track.marks(),
            boxes=tuple(track.boxes),
            fate=fate,
            rules=("H-ATK-3", "H-HLT-1"),
        )
    )
    if f.fate == "alive" and track.last == 1 and was_last == 0:
        consciousness_roll(ctx, target)
    release_if_down(ctx, target)


def consciousness_roll(ctx: Resolution, fid: str) -> None:
    """Bashing in the last box: Stamina to stay conscious (H-HLT-1, FACTS)."""
    f = ctx.state.fighters[fid]
    record = ctx.dice.roll(
        HunterPool(f.trait("stamina")),
        trait_ask(fid, f.name, Msg("ask.test.stamina"), [("stamina", f.trait("stamina"))]),
    )
    result = record.result
    ctx.emit(
        HunterConsciousnessRolled(
            actor=fid,
            successes=result.successes,
            conscious=result.successes > 0,
            rolls=(record,),
            rules=("H-HLT-1", *roll_rules(record.result)),
        )
    )
    release_if_down(ctx, fid)


def release_if_down(ctx: Resolution, fid: str) -> None:
    """A fighter out of the fight lets go, and is let go."""
    f = ctx.state.fighters[fid]
    if f.able:
        return
    if f.holding:
        ctx.emit(HunterGrappleEnded(actor=fid, target=f.holding, rules=("H-GRP-2",)))
    elif f.held_by:
        ctx.emit(HunterGrappleEnded(actor=f.held_by, target=fid, rules=("H-GRP-2",)))
