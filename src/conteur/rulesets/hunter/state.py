"""The state of a Hunter fight: fighters, the initiative order, the turn."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .health import HealthTrack
from .tables import Tables, Weapon, load_tables

COVER_PENALTY = {"none": 0, "barely": 1, "partial": 2, "substantial": 3, "full": 0}
"""H-COV-1: dice a shooter loses against a target behind this concealment."""


@dataclass
class Fighter:
    """One combatant: its sheet and what the fight has done to it."""

    id: str
    name: str
    side: str
    kind: str  # "hunter" | "monster" | "bystander"
    traits: dict[str, int]
    size: int
    health: HealthTrack
    weapon: str | None = None
    weapons: tuple[str, ...] = ()
    armour: str | None = None
    merits: tuple[str, ...] = ()
    unarmed_type: str = "bashing"
    vulnerable: tuple[str, ...] = ()
    ammo: dict[str, int] = field(default_factory=dict)
    initiative: int | None = None
    rolloff: tuple[int, ...] = ()
    surprised: bool = False
    acted: bool = False
    delay_after: str | None = None
    dodging: bool = False
    all_out: bool = False
    no_defense: bool = False
    aim: int = 0
    aim_target: str | None = None
    attacks_received: int = 0
    cover: str = "none"
    holding: str | None = None
    held_by: str | None = None
    immobilised: bool = False
    prone: bool = False
    shield: str | None = None
    reloading: int = 0
    fate: str = "alive"
    position: tuple[float, float] = (0.0, 0.0)
    """Hunter fights have no map: every fighter stands at the origin (read by the simulator)."""

    def trait(self, name: str) -> int:
        return self.traits.get(name, 0)

    @property
    def able(self) -> bool:
        """Still in the fight (conscious and not dying)."""
        return self.fate == "alive"

    @property
    def base_defense(self) -> int:
        """The lower of Dexterity and Wits (FACTS, core rules)."""
        return min(self.trait("dexterity"), self.trait("wits"))

    @property
    def initiative_base(self) -> int:
        """Dexterity + Composure (H-INI-1, H-INI-2)."""
        return self.trait("dexterity") + self.trait("composure")

    def rank_key(self) -> tuple[int, int, tuple[int, ...]]:
        """Higher first: initiative, then Dex + Composure, then the roll-offs (H-INI-2)."""
        return (self.initiative or 0, self.initiative_base, self.rolloff)


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

    @property
    def tables(self) -> Tables:
        return load_tables()

    @property
    def order(self) -> list[list[str]]:
        """The initiative order as ranks (one fighter each), for the tracker."""
        return [[fid] for fid in self.ranking]

    def weapon_of(self, f: Fighter) -> Weapon | None:
        return self.tables.weapon(f.weapon) if f.weapon else None
