"""One western combatant: sheet numbers and where the fight left it.

Below the sheet (which builds a ``Fighter`` from a scenario entry) and the state (which
holds them, and admits newcomers through the sheet); ``.state`` re-exports it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .tables import Tables

FATES = ("alive", "unconscious", "out", "dead")
"""``out``: 0 PV or less, out of the fight; ``dead``: at the table's ``dead_at`` or less."""


class TablesRef:
    """The encounter's tables, shared (not copied) by every copy of the state."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    def __deepcopy__(self, memo: dict[int, Any]) -> TablesRef:
        return self


@dataclass
class Fighter:
    """One combatant: sheet numbers and where the fight left it."""

    id: str
    name: str
    side: str
    position: tuple[float, float]
    characteristics: dict[str, int]
    skills: dict[str, int]
    weapons: list[str]
    """Carried weapons; the first is in the main hand."""
    off_hand: str | None
    """A second revolver in the other hand (W-SPD-3), or None."""
    ammo: dict[str, int]
    """Cartridges left, by hand (``main``, ``off``), for weapons that hold some."""
    pv: int
    pv_max: int
    ready: bool = True
    ambidextrous: bool = False
    human: bool = True
    speed_bonus: int = 0
    fate: str = "alive"
    unconscious: int = 0
    """Rounds left unconscious (W-KO-4)."""
    helpless: bool = False
    surprised: str | None = None
    """``attacked`` (no action, W-RND-2) or ``sudden`` (instinctive fire, W-SKL-2)."""
    surprised_round: int = 0
    instinctive_round: int = -1
    """The round in which this fighter started shooting instinctively (W-SKL-2)."""
    behind: str | None = None
    """The fighter it has approached unseen from behind (W-KO-1)."""
    action: str | None = None
    """Its simple action in round ``action_round``: ``shoot``, ``reload``, ``run`` (W-RND-1)."""
    action_round: int = 0
    withdrawn: bool = False
    """Taken out of the fight by the game master (``.joining``)."""

    def action_in(self, turn: int) -> str | None:
        """The simple action already taken in round ``turn`` (None: none yet)."""
        return self.action if self.action_round == turn else None

    def stat(self, key: str) -> int:
        return int(self.characteristics.get(key, 0))

    @property
    def speed(self) -> int:
        """Combat speed: RAPIDITÉ with its adjustments (W-SPD-1)."""
        return self.stat("rapidite") + self.speed_bonus

    @property
    def reputation(self) -> int:
        return self.stat("reputation")

    @property
    def standing(self) -> bool:
        return self.fate == "alive" and not self.withdrawn
