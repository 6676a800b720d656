"""A combatant joining the fight under way, or taken out of it (``conteur.engine.joining``).

The rules roll initiative for everyone at the start of each turn (V-INI-1), and
nothing in them lets a newcomer into a turn already ordered: a combatant who joins
stands on the roster at once (a target, a threat) and rolls its initiative with the
others at the next turn. A combatant taken out leaves the initiative order at once,
with whatever it had declared (V-INI-4: the turn goes on without it).
"""

from __future__ import annotations

from conteur.engine import Command, Resolution
from conteur.engine.joining import CombatantJoined, CombatantWithdrawn, leaving, newcomer

from . import turn
from .close import LockEnded
from .conditions import Holding
from .events import DeclarationCursor, DeclarationsClosed
from .locks import LOCK_RULES
from .state import VtmState


def join(ctx: Resolution, command: Command) -> None:
    """``join``: a newcomer, who rolls initiative at the next turn (V-INI-1)."""
    state: VtmState = ctx.state
    entry = newcomer(command.args, state.fighters)
    state.newcomer(entry)  # refused before anything is emitted
    ctx.emit(CombatantJoined(fighter=entry["id"], entry=entry, rules=("V-INI-1",)))


def take_out(ctx: Resolution, command: Command) -> None:
    """``withdraw``: the fighter leaves the order; the turn goes on (V-INI-4)."""
    state: VtmState = ctx.state
    standing = {f.id: f for f in state.fighters.values() if not f.out_of_fight}
    fid = leaving(command.args, standing)
    ctx.emit(CombatantWithdrawn(fighter=fid, rules=("V-INI-4",)))
    release_holds(ctx, fid)
    if state.phase == "declaration":
        if not state.order or state.cursor < 0:
            ctx.emit(DeclarationsClosed(rules=("V-INI-4",)))
            turn.advance(ctx)
        elif not turn.declaring_now(state):
            if state.cursor - 1 >= 0:
                ctx.emit(DeclarationCursor(cursor=state.cursor - 1))
            else:
                ctx.emit(DeclarationsClosed(rules=("V-INI-4",)))
                turn.advance(ctx)
    elif state.phase in ("resolution", "end_of_turn"):
        turn.advance(ctx)


def release_holds(ctx: Resolution, fid: str) -> None:
    """A fighter taken out lets go of whoever it held, and whoever held it lets go: its
    grapples and holds end (V-CC-7, V-CC-8; the ``withdrawn`` reason)."""
    state: VtmState = ctx.state
    for f in list(state.fighters.values()):
        holding = f.conditions.of(Holding)
        if holding is None:
            continue
        target = holding.target
        if fid in (f.id, target):
            kind = holding.kind
            rule = LOCK_RULES.get(kind, "V-CC-7")
            ctx.emit(
                LockEnded(
                    holder=f.id,
                    target=target,
                    kind=kind,
                    reason="withdrawn",
                    rules=(rule, "V-INI-4"),
                )
            )
