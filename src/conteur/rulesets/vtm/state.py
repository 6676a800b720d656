"""The state of a vtm encounter: fighters, the turn's stages, declarations.

Changed only by folding events (``events.py``); rule code reads it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from conteur.engine.battlemap import CoverZone
from conteur.engine.geometry import distance

from .conditions import Withdrawn
from .entries import fighter_from_scenario, health_levels
from .fighter import DEFENSIVE, Action, Declaration, Fighter, Phase, Progress, Timing
from .rulebook import rules_of
from .tables import TablesRef


@dataclass
class VtmState:
    """A vtm encounter between turns or inside one."""

    fighters: dict[str, Fighter]
    options: dict[str, Any]
    era: str = "1899"
    packs: tuple[str, ...] = ()
    turn: int = 0
    phase: Phase = "setup"
    order: list[list[str]] = field(default_factory=list)
    """Initiative ranks, fastest first; a rank with several ids acts simultaneously."""
    cursor: int = 0
    """Index of the rank due to act (resolution) or to declare (declaration)."""
    end_cursor: int = 0
    darkness: bool = False
    custom_maneuvers: dict[str, dict[str, Any]] = field(default_factory=dict)
    pending_modifiers: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """Game-master modifiers waiting for a fighter's next roll (dice ±, difficulty ±, reason)."""
    botches: list[dict[str, Any]] = field(default_factory=list)
    """Botches waiting for the game master's complication (V-ATK-5)."""
    ambush: dict[str, Any] | None = None
    zones: dict[str, CoverZone] = field(default_factory=dict)
    """The cover zones the game master drew on the map, by id (V-RNG-3, ``gm.zone``)."""
    meta: dict[str, Any] = field(default_factory=dict)

    def fighter(self, fid: str) -> Fighter:
        return self.fighters[fid]

    def distance(self, a: str, b: str) -> float:
        """Metres between two fighters."""
        return distance(self.fighters[a].position, self.fighters[b].position)

    def enemies(self, fid: str) -> list[Fighter]:
        side = self.fighters[fid].side
        return [f for f in self.fighters.values() if f.side != side]

    def admit(self, entry: Mapping[str, Any]) -> None:
        """A combatant joins the fight under way (``.joining``), read with the encounter's
        tables (ConteurError naming the bad field); its own weapons join the tables, as at
        the start."""
        f = self.newcomer(entry)
        self.fighters[f.id] = f
        tables = self.tables_ref.tables.with_weapons(f.sheet.custom_weapons)
        self.meta["tables"] = TablesRef(tables)

    def newcomer(self, entry: Mapping[str, Any]) -> Fighter:
        """The fighter of a newcomer's entry, read with the encounter's tables (ConteurError
        naming the bad field), not yet in the fight."""
        tables = self.tables_ref.tables
        kinds = rules_of(self).conditions
        return fighter_from_scenario(
            entry, len(self.fighters), tables, health_levels(tables), None, kinds
        )

    def withdraw(self, fighter: str) -> None:
        """Out of the fight (the condition ``withdrawn``, ``Fighter.out_of_fight``), and out
        of the order (``.joining``): the cursors keep pointing at who is due."""
        self.fighters[fighter].conditions.put(Withdrawn())
        ranked = self.ranked()
        if fighter in ranked and ranked.index(fighter) < self.end_cursor:
            self.end_cursor -= 1
        for i, rank in enumerate(self.order):
            if fighter not in rank:
                continue
            rank.remove(fighter)
            if not rank:
                del self.order[i]
                if i < self.cursor or (i == self.cursor and self.phase == "declaration"):
                    self.cursor -= 1
            break

    @property
    def tables_ref(self) -> TablesRef:
        """The holder of the encounter's tables (``equipment.tables`` reads them)."""
        ref: TablesRef = self.meta["tables"]  # set once by ``new_state``
        return ref

    def ranked(self) -> list[str]:
        """Every fighter in initiative order (fastest first)."""
        return [fid for rank in self.order for fid in rank]

    def rank_of(self, fid: str) -> int:
        for i, rank in enumerate(self.order):
            if fid in rank:
                return i
        return len(self.order)

    def sides(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for f in self.fighters.values():
            out.setdefault(f.side, []).append(f.id)
        return out


__all__ = [
    "DEFENSIVE",
    "Action",
    "Declaration",
    "Fighter",
    "Phase",
    "Progress",
    "Timing",
    "VtmState",
]
