"""Marking damage and the checks that follow it (H-ATK-3, H-HLT-1)."""

from __future__ import annotations

from dataclasses import dataclass

from conteur.engine import Resolution
from conteur.i18n import Msg

from .asks import trait_ask
from .dice import HunterPool, HunterResult
from .events import HunterConsciousnessRolled, HunterDamaged, HunterGrappleEnded
from .health import HealthTrack
from .rolls import roll_rules
from .state import Fighter, HunterState


@dataclass(frozen=True)
class Marked:
    """A fighter's track and fate after damage, and whether a Stamina roll follows."""

    track: HealthTrack
    fate: str
    consciousness: bool
    """Bashing reached the last box of a fighter still up: it rolls to stay conscious."""


def damage_marked(f: Fighter, amount: int, damage_type: str) -> Marked:
    """``f``'s track after ``amount`` points of ``damage_type`` (H-ATK-3, H-HLT-1), its fate
    (an unconscious fighter stays so, a dying or dead one stays as it is), and whether it
    rolls to stay conscious (bashing in its last box, newly)."""
    return marked_with(f, f.health.with_damage(amount, damage_type))


def marked_with(f: Fighter, track: HealthTrack) -> Marked:
    """``damage_marked`` for the track ``f`` has after the damage (``with_damage``)."""
    fate = track.fate() if f.fate in ("alive", "unconscious") else f.fate
    if fate == "alive" and f.fate == "unconscious":
        fate = "unconscious"
    check = fate == "alive" and track.last == 1 and f.health.last == 0
    return Marked(track, fate, check)


def consciousness_pool(f: Fighter) -> HunterPool:
    """The roll to stay conscious: Stamina (H-HLT-1, FACTS)."""
    return HunterPool(f.trait("stamina"))


def stays_conscious(result: HunterResult) -> bool:
    """A success keeps the fighter conscious (H-HLT-1)."""
    return result.successes > 0


def mark_damage(ctx: Resolution, target: str, amount: int, damage_type: str) -> None:
    """Mark ``amount`` points on ``target``'s track, then what follows (fall, consciousness)."""
    state: HunterState = ctx.state
    f = state.fighters[target]
    if amount <= 0:
        return
    marked = damage_marked(f, amount, damage_type)
    ctx.emit(
        HunterDamaged(
            target=target,
            amount=amount,
            damage_type=damage_type,
            track=marked.track.marks(),
            boxes=tuple(marked.track.boxes),
            fate=marked.fate,
            rules=("H-ATK-3", "H-HLT-1"),
        )
    )
    if marked.consciousness:
        consciousness_roll(ctx, target)
    release_if_down(ctx, target)


def consciousness_roll(ctx: Resolution, fid: str) -> None:
    """Bashing in the last box: Stamina to stay conscious (H-HLT-1, FACTS)."""
    f = ctx.state.fighters[fid]
    record = ctx.dice.roll(
        consciousness_pool(f),
        trait_ask(fid, f.name, Msg("ask.test.stamina"), [("stamina", f.trait("stamina"))]),
    )
    result = record.result
    ctx.emit(
        HunterConsciousnessRolled(
            actor=fid,
            successes=result.successes,
            conscious=stays_conscious(result),
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
