"""A small harness for hunter rule tests: a fight from a dict, commands fed typed dice."""

from __future__ import annotations

from typing import Any

import conteur.rulesets.hunter  # noqa: F401  (registers the ruleset)
from conteur.engine import EventList
from conteur.rulesets.hunter.events import HunterAttackRolled
from conteur.rulesets.hunter.state import Fighter, HunterState
from table_fight import TableFight

HUMAN = {
    "strength": 3,
    "dexterity": 3,
    "stamina": 2,
    "wits": 2,
    "composure": 2,
    "brawl": 2,
    "weaponry": 2,
    "firearms": 2,
    "athletics": 2,
}


def sheet(fid: str, **traits: Any) -> dict[str, Any]:
    """A plain human sheet with ``traits`` over the defaults."""
    return {"id": fid, "side": traits.pop("side", fid), **HUMAN, **traits}


class Fight(TableFight[HunterState]):
    """An encounter driven by commands and the faces a table would roll."""

    state_type = HunterState

    def __init__(self, *combatants: dict[str, Any], options: dict[str, Any] | None = None) -> None:
        data: dict[str, Any] = {"ruleset": "hunter", "combatants": list(combatants)}
        if options:
            data["options"] = options
        super().__init__(data)

    def __getitem__(self, fid: str) -> Fighter:
        return self.state.fighters[fid]

    def start(self, *faces: int) -> EventList:
        """Roll initiative with one face per fighter (in scenario order)."""
        return self.do("initiative", dice=faces)

    def act(self, actor: str, kind: str = "attack", dice: Any = (), **args: Any) -> EventList:
        return self.do("act", actor, dice, kind=kind, **args)


def roll(events: EventList) -> HunterAttackRolled:
    """The one attack roll of a command."""
    return events.one(HunterAttackRolled)
