"""A combatant joining the fight under way or taken out of it (``conteur.engine.joining``),
and a tie in the order of combat settled by the game master.

The order of combat is drawn up at the start of each round from every fighter able to
act (W-RND-1, W-SPD-2): a combatant who joins stands on the roster at once and takes
its place in the order from the next round. A combatant taken out loses the shots or
blows it had left this round.

**Ties (W-SPD-2).** The text's section on the order of combat (4.2.2.4) is missing, so
the rank of two shots at the same combat speed is not the rules' to say: the program
gives it to the one listed first (``order.order_of_combat``), and while such a tie is
next the game master may say who goes first (``settle_tie``).
"""

from __future__ import annotations

from typing import Any

from conteur.engine import Command, Event, Resolution
from conteur.engine.joining import CombatantJoined, CombatantWithdrawn, leaving, newcomer
from conteur.i18n import ConteurError

from .order import end_round
from .sheet import fighter_from_scenario
from .state import WesternState


def join(ctx: Resolution, command: Command) -> None:
    """``join``: a newcomer, in the order of combat from the next round (W-RND-1, W-SPD-2)."""
    state: WesternState = ctx.state
    entry = newcomer(command.args, state.fighters)
    fighter_from_scenario(entry, len(state.fighters), state.tables)  # refused before anything
    ctx.emit(CombatantJoined(fighter=entry["id"], entry=entry, rules=("W-RND-1", "W-SPD-2")))


def take_out(ctx: Resolution, command: Command) -> None:
    """``withdraw``: its shots left this round are lost (W-SPD-2)."""
    state: WesternState = ctx.state
    standing = {f.id: f for f in state.fighters.values() if f.standing}
    fid = leaving(command.args, standing)
    ctx.emit(CombatantWithdrawn(fighter=fid, rules=("W-SPD-2",)))
    if state.phase == "round" and state.done >= len(state.slots):
        end_round(ctx)


# ------------------------------------------------------------------ ties


def _rank(state: WesternState, index: int) -> tuple[int, int]:
    """The rank of the round's shot ``index``: (speed less the delay of the fighter's earlier
    shots, speed), as ``order.order_of_combat`` sorts them."""
    fid = state.slots[index][0]
    f = state.fighters[fid]
    earlier = sum(1 for other, _ in state.slots[:index] if other == fid)
    return (f.speed - earlier * state.tables.order.delay, f.speed)


def tied_now(state: WesternState) -> tuple[str, ...]:
    """The fighters whose next shots tie with the one due now (W-SPD-2), when the game master
    has not settled that tie yet; () otherwise."""
    if state.phase != "round" or state.done >= len(state.slots):
        return ()
    if state.tie_settled == [state.turn, state.done]:
        return ()
    head = _rank(state, state.done)
    group: list[str] = []
    for j in range(state.done, len(state.slots)):
        fid = state.slots[j][0]
        if _rank(state, j) != head or fid in group:
            break
        group.append(fid)
    return tuple(group) if len(group) > 1 else ()


class TieSettled(Event):
    """The game master says who of the tied shooters goes first (W-SPD-2)."""

    fighter: str
    turn: int
    at: int

    def apply(self, state: Any) -> None:
        s: WesternState = state
        for j in range(self.at, len(s.slots)):
            if s.slots[j][0] == self.fighter:
                s.slots.insert(self.at, s.slots.pop(j))
                break
        s.tie_settled = [self.turn, self.at]


def settle_tie(ctx: Resolution, command: Command) -> None:
    """``settle_tie``: who of the tied shooters fires first (W-SPD-2, the game master's call)."""
    state: WesternState = ctx.state
    tied = tied_now(state)
    if not tied:
        raise ConteurError("western.tie.none", rule="W-SPD-2")
    first = str(command.get("first") or "")
    if first not in tied:
        names = ", ".join(state.fighters[f].name for f in tied)
        raise ConteurError("western.tie.not_tied", fighter=first, tied=names, rule="W-SPD-2")
    ctx.emit(TieSettled(fighter=first, turn=state.turn, at=state.done, rules=("W-SPD-2",)))
