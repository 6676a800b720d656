"""The state of a Hunter fight: fighters, the initiative order, the turn."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from conteur.engine.battlemap import CoverZone

from .cover import COVER_PENALTY
from .fighter import Fighter
from .sheet import fighter_from_scenario
from .tables import Tables, Weapon, load_tables


@dataclass
class HunterState:
    """An encounter of the ``hunter`` ruleset."""

    fighters: dict[str, Fighter]
    options: dict[str, Any]
    turn: int = 0
    phase: str = "setup"
    ranking: list[str] = field(default_factory=list)
    """Every fighter with an initiative, best first (H-INI-1/2)."""
    meta: dict[str, Any] = field(default_factory=dict)
    zones: dict[str, CoverZone] = field(default_factory=dict)
    """The cover zones the game master drew on the map, by id (H-COV-1, ``gm_zone``)."""

    @property
    def tables(self) -> Tables:
        return load_tables()

    @property
    def order(self) -> list[list[str]]:
        """The initiative order as ranks (one fighter each), for the tracker."""
        return [[fid] for fid in self.ranking]

    def admit(self, entry: Mapping[str, Any]) -> None:
        """A combatant joins the fight under way (``.joining``): no initiative yet."""
        f = fighter_from_scenario(entry, len(self.fighters), self.tables)
        self.fighters[f.id] = f

    def withdraw(self, fighter: str) -> None:
        """A combatant is taken out of the fight and of the order (``.joining``)."""
        self.fighters[fighter].withdrawn = True
        if fighter in self.ranking:
            self.ranking.remove(fighter)

    def weapon_of(self, f: Fighter) -> Weapon | None:
        return self.tables.weapon(f.weapon) if f.weapon else None


__all__ = ["COVER_PENALTY", "Fighter", "HunterState"]
