"""One Hunter combatant: its sheet and what the fight has done to it.

Below the sheet (which builds a ``Fighter`` from a scenario entry) and the state (which
holds them, and admits newcomers through the sheet); ``.state`` re-exports it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .health import HealthTrack

INITIATIVE_TRAITS = ("dexterity", "composure")
"""The traits added to initiative's die (H-INI-1), and compared on a tie (H-INI-2)."""


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
    withdrawn: bool = False
    """Taken out of the fight by the game master (``.joining``)."""
    xp_exceptional_vs_monster: int = 0
    """H-XP-2: exceptional successes directly against a monster, carried in from the sheet."""
    xp_dramatic_failures: int = 0
    """H-XP-2: dramatic failures rolled, carried in from the sheet."""
    position: tuple[float, float] = (0.0, 0.0)
    """Where the fighter stands, in yards (the battle map, ``gm_place``): the range band of a
    shot comes from it when the command names none (H-RNG-1)."""

    def xp_counters(self) -> dict[str, int]:
        """The H-XP-2 counters as the character carries them (``end_state``, the summary)."""
        return {
            "exceptional_vs_monster": self.xp_exceptional_vs_monster,
            "dramatic_failures": self.xp_dramatic_failures,
        }

    def trait(self, name: str) -> int:
        return self.traits.get(name, 0)

    @property
    def able(self) -> bool:
        """Still in the fight (conscious and not dying, not taken out)."""
        return self.fate == "alive" and not self.withdrawn

    @property
    def base_defense(self) -> int:
        """The lower of Dexterity and Wits (FACTS, core rules)."""
        return min(self.trait("dexterity"), self.trait("wits"))

    @property
    def initiative_parts(self) -> tuple[tuple[str, int], ...]:
        """The traits added to initiative's die, each with its dots (H-INI-1)."""
        return tuple((trait, self.trait(trait)) for trait in INITIATIVE_TRAITS)

    @property
    def initiative_base(self) -> int:
        """Dexterity + Composure (H-INI-1, H-INI-2)."""
        return sum(dots for _, dots in self.initiative_parts)

    def rank_key(self) -> tuple[int, int, tuple[int, ...]]:
        """Higher first: initiative, then Dex + Composure, then the roll-offs (H-INI-2)."""
        return (self.initiative or 0, self.initiative_base, self.rolloff)
