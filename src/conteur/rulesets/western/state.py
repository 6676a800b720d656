"""The state of a western encounter: fighters, the round, the order of combat."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .fighter import FATES, Fighter, TablesRef
from .sheet import fighter_from_scenario
from .tables import Tables


@dataclass
class WesternState:
    """Fighters by id, the round number and what is left of the round's order of combat."""

    fighters: dict[str, Fighter]
    turn: int = 0
    phase: str = "setup"
    slots: list[tuple[str, str]] = field(default_factory=list)
    """The round's order of combat: one (fighter, hand) per shot or blow (W-SPD-2)."""
    done: int = 0
    dead_at: int = -10
    witnesses: bool = False
    duel: bool = False
    """Judge the duel by itself when one side alone stands (scenario key ``duel``)."""
    duel_judged: bool = False
    tie_settled: list[int] | None = None
    """[round, shot] of the last tie the game master settled (W-SPD-2, ``.joining``)."""
    options: dict[str, Any] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def tables(self) -> Tables:
        ref: TablesRef = self.meta["tables"]
        return ref.tables

    @property
    def order(self) -> list[list[str]]:
        """What is left of the order of combat, one rank per shot (for the tracker)."""
        return [[fid] for fid, _ in self.slots[self.done :]]

    def due(self) -> tuple[str, str] | None:
        """The (fighter, hand) whose shot or blow comes now."""
        if self.phase != "round" or self.done >= len(self.slots):
            return None
        return self.slots[self.done]

    def admit(self, entry: Mapping[str, Any]) -> None:
        """A combatant joins the fight under way (``.joining``): in the order from the next
        round."""
        f = fighter_from_scenario(entry, len(self.fighters), self.tables)
        self.fighters[f.id] = f

    def withdraw(self, fighter: str) -> None:
        """A combatant is taken out of the fight and of the order (``.joining``): it loses
        the shots or blows it had left this round."""
        self.fighters[fighter].withdrawn = True
        self.drop_slots(fighter)

    def drop_slots(self, fighter: str) -> None:
        """The shots or blows ``fighter`` has left this round are lost (W-SPD-2)."""
        left = [x for x in self.slots[self.done :] if x[0] != fighter]
        self.slots = self.slots[: self.done] + left

    def fighter(self, ref: str) -> Fighter:
        from conteur.i18n import ConteurError

        from .tables import fold

        if ref in self.fighters:
            return self.fighters[ref]
        key = fold(ref)
        for f in self.fighters.values():
            if key in (fold(f.id), fold(f.name)):
                return f
        raise ConteurError("western.unknown_fighter", name=ref, known=", ".join(self.fighters))


__all__ = ["FATES", "Fighter", "TablesRef", "WesternState"]
