"""A combatant joining the fight under way, or taken out of it (``conteur.engine.joining``).

H-INI-1 rolls initiative once, at the start of the combat, and keeps it; the text
says nothing of a newcomer. Reading: like a surprised fighter (H-AMB-1), a combatant
who joins has no initiative yet and rolls it at the start of the next turn, taking
its place in the order by H-INI-2 (ties by Dex + Composure, then a roll-off). A
combatant taken out leaves the order at once and acts no more.
"""

from __future__ import annotations

from conteur.engine import Command, Resolution
from conteur.engine.joining import CombatantJoined, CombatantWithdrawn, leaving, newcomer

from .sheet import fighter_from_scenario
from .state import HunterState


def join(ctx: Resolution, command: Command) -> None:
    """``join``: a newcomer, who rolls initiative at the next turn (H-INI-1, H-AMB-1)."""
    state: HunterState = ctx.state
    entry = newcomer(command.args, state.fighters)
    fighter_from_scenario(entry, len(state.fighters), state.tables)  # refused before anything
    ctx.emit(CombatantJoined(fighter=entry["id"], entry=entry, rules=("H-INI-1",)))


def take_out(ctx: Resolution, command: Command) -> None:
    """``withdraw``: out of the order at once (H-INI-1)."""
    state: HunterState = ctx.state
    standing = {f.id: f for f in state.fighters.values() if f.able}
    fid = leaving(command.args, standing)
    ctx.emit(CombatantWithdrawn(fighter=fid, rules=("H-INI-1",)))
    from .health_events import release_if_down

    release_if_down(ctx, fid)  # out of the fight: its hold ends (H-GRP-2)
