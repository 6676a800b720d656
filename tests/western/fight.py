"""A small harness for western rule tests: a fight from a dict, commands fed typed dice."""

from __future__ import annotations

import copy
from typing import Any

from conteur.engine import EventList
from conteur.rulesets.western.state import Fighter, WesternState
from table_fight import TableFight


def gunman(fid: str, side: str | None = None, x: float = 0.0, **extra: Any) -> dict[str, Any]:
    """A combatant with a Colt, aimed 56 %, instinctive 40 %, speed 10 (two revolver shots)."""
    base: dict[str, Any] = {
        "id": fid,
        "name": fid.capitalize(),
        "side": side or fid,
        "position": [x, 0],
        "characteristics": {"FORCE": 12, "RÉSISTANCE": 10, "CONSTITUTION": 12, "RAPIDITÉ": 10},
        "skills": {
            "tir visé au pistolet": 56,
            "tir instinctif au pistolet": 40,
            "discrétion": 60,
            "bagarre": 50,
            "tir au fusil": 45,
        },
        "weapons": ["colt_saa"],
    }
    for key, value in extra.items():
        if key == "characteristics":
            base["characteristics"] = {**base["characteristics"], **value}
        else:
            base[key] = value
    return base


class Fight(TableFight[WesternState]):
    """An encounter driven by commands and the faces a table would roll."""

    state_type = WesternState

    def __init__(self, *combatants: dict[str, Any], **scenario: Any) -> None:
        super().__init__({"ruleset": "western", "combatants": list(combatants), **scenario})

    def __getitem__(self, fid: str) -> Fighter:
        return self.state.fighters[fid]

    def round(self) -> EventList:
        return self.do("round")

    def shoot(self, actor: str, target: str, *dice: int, **args: Any) -> EventList:
        return self.do("attack", actor, list(dice), target=target, **args)

    def snapshot(self) -> WesternState:
        return copy.deepcopy(self.state)
