"""Knocking someone out without a fight (W-KO-1..5)."""

from __future__ import annotations

import re
from typing import Any

from conteur.dice import Expr
from conteur.dice.asks import RollAsk
from conteur.dice.rolls import RollRecord
from conteur.engine import Command, Resolution
from conteur.engine.geometry import distance
from conteur.i18n import ConteurError, Msg

from .dice import Percentile, expr_ask
from .events import (
    Approached,
    Bound,
    KnockedOut,
    KnockOutHurt,
    KnockOutRolled,
    StealthNeeded,
    StealthRolled,
)
from .state import Fighter, WesternState
from .tables import StealthModifier


def stealth_rolls(values: list[int]) -> int:
    """Stealth rolls needed: the sum of the modifiers, and at least one (W-KO-1, reading)."""
    return max(1, sum(values))


def stealth_entry(state: WesternState, item: str) -> StealthModifier:
    """A stealth modifier by id or name, or ``15 m`` read as its distance band."""
    text = item.strip()
    m = re.fullmatch(r"(\d+(?:[.,]\d+)?)\s*m", text)
    if m:
        return state.tables.distance_modifier(float(m.group(1).replace(",", ".")))
    return state.tables.stealth_modifier(text)


def actor_and_victim(state: WesternState, command: Command) -> tuple[Fighter, Fighter]:
    """The one acting (standing) and the victim named by ``target``."""
    if command.actor is None:
        raise ConteurError("western.no_actor", command=command.type)
    f = state.fighter(command.actor)
    t = state.fighter(str(command.get("target") or ""))
    if not f.standing:
        raise ConteurError("western.cannot_act", fighter=f.name)
    return f, t


def approach(ctx: Resolution, command: Command) -> None:
    """``approach``: creep up behind a victim; every stealth roll must succeed (W-KO-1)."""
    state: WesternState = ctx.state
    f, t = actor_and_victim(state, command)
    tables = state.tables
    raw = command.get("modifiers") or []
    if isinstance(raw, str):
        raw = [m for m in raw.replace(";", ",").split(",") if m.strip()]
    mods = [stealth_entry(state, str(m)) for m in raw]
    if not any(m.up_to is not None for m in mods):
        mods.append(tables.distance_modifier(distance(f.position, t.position)))
    items = tuple((m.id, m.value) for m in mods)
    needed = stealth_rolls([v for _, v in items])
    ctx.emit(
        StealthNeeded(fighter=f.id, target=t.id, needed=needed, modifiers=items, rules=("W-KO-1",))
    )
    percent = f.skills.get("stealth", 0)
    success = True
    for _ in range(needed):
        rec = ctx.dice.roll(
            Percentile(percent),
            RollAsk(
                who=f.id,
                what=Msg("ask.what.test", test=Msg("western.ask.stealth"), name=f.name),
                detail=Msg("ask.detail.percent", percent=percent),
                dice=1,
            ),
        )
        ok = bool(rec.result.success)
        ctx.emit(
            StealthRolled(
                fighter=f.id,
                roll=rec.result.roll,
                percent=percent,
                success=ok,
                rules=("W-KO-1",),
                rolls=(rec,),
            )
        )
        if not ok:
            success = False
            break
    ctx.emit(Approached(fighter=f.id, target=t.id, success=success, rules=("W-KO-1",)))


def helpless(t: Fighter) -> bool:
    """A victim that cannot defend itself: tied up, helpless or unconscious (W-KO-5)."""
    return t.helpless or t.fate == "unconscious"


def knockout_refusal(
    state: WesternState, f: Fighter, t: Fighter, weapon: str
) -> ConteurError | None:
    """Why ``f`` cannot knock ``t`` out with ``weapon`` now (None: it can try): a heavy
    object (W-KO-2), on a victim approached unseen from behind (W-KO-1) or helpless (W-KO-5)."""
    w = state.tables.weapon(weapon)
    if not w.heavy:
        return ConteurError("western.not_heavy", weapon=w.id, rule="W-KO-2")
    if not helpless(t) and f.behind != t.id:
        return ConteurError("western.not_behind", fighter=f.name, target=t.name, rule="W-KO-1")
    return None


def knock_out(ctx: Resolution, command: Command) -> None:
    """``knockout``: a heavy object on the head of a victim approached unseen or helpless."""
    state: WesternState = ctx.state
    f, t = actor_and_victim(state, command)
    obj = str(command.get("weapon") or (f.weapons[0] if f.weapons else "fists"))
    refusal = knockout_refusal(state, f, t, obj)
    if refusal is not None:
        raise refusal
    automatic = helpless(t)
    threshold = f.stat("force") + 10 - t.stat("resistance")
    if automatic:
        ctx.emit(
            KnockOutRolled(
                attacker=f.id,
                target=t.id,
                face=0,
                threshold=threshold,
                success=True,
                automatic=True,
                rules=("W-KO-2", "W-KO-5"),
            )
        )
        success = True
    else:
        rec = ctx.dice.roll(
            Expr(1, 20),
            RollAsk(
                who=f.id,
                what=Msg("ask.what.test", test=Msg("ask.test.knockout"), name=f.name),
                detail=Msg("western.ask.knockout", threshold=threshold),
                dice=1,
            ),
        )
        face = rec.result.total
        strict = bool(state.options.get("ko_strictly_under"))
        success = face < threshold if strict else face <= threshold
        ctx.emit(
            KnockOutRolled(
                attacker=f.id,
                target=t.id,
                face=face,
                threshold=threshold,
                success=success,
                rules=("W-KO-2", "W-KO-3"),
                rolls=(rec,),
            )
        )
    hurt = _gm_roll(ctx, f, Msg("ask.test.knockout_hurt"), Expr(1, 6))
    ctx.emit(KnockOutHurt(target=t.id, pv_lost=hurt.result.total, rules=("W-KO-4",), rolls=(hurt,)))
    if success:
        rounds = _gm_roll(ctx, f, Msg("ask.test.knockout_rounds"), Expr(3, 10))
        ctx.emit(
            KnockedOut(target=t.id, rounds=rounds.result.total, rules=("W-KO-4",), rolls=(rounds,))
        )


def _gm_roll(ctx: Resolution, f: Fighter, test: Msg, expr: Expr) -> RollRecord[Any]:
    """The roll of ``expr`` the game master makes for ``test`` after ``f``'s attempt."""
    return ctx.dice.roll(expr, expr_ask(expr, f.id, Msg("ask.what.gm", test=test)))


def bind(ctx: Resolution, command: Command) -> None:
    """``bind`` (game master): a victim tied up, unable to defend itself (W-KO-5)."""
    t = ctx.state.fighter(str(command.get("target") or ""))
    ctx.emit(Bound(fighter=t.id, rules=("W-KO-5",)))
