"""A small harness for vtm rule tests: a fight from YAML, commands fed typed dice."""

from __future__ import annotations

from typing import Any

import yaml

from conteur.engine import EventList
from conteur.rulesets.vtm.state import Fighter, VtmState
from table_fight import TableFight


class Fight(TableFight[VtmState]):
    """An encounter driven by commands and the faces a table would roll."""

    state_type = VtmState

    def __init__(self, scenario: str | dict[str, Any]) -> None:
        data = yaml.safe_load(scenario) if isinstance(scenario, str) else scenario
        data.setdefault("ruleset", "vtm")
        super().__init__(data)

    def __getitem__(self, fid: str) -> Fighter:
        return self.state.fighters[fid]

    def initiative(self, *faces: int) -> EventList:
        return self.do("initiative", dice=list(faces))

    def declare(self, actor: str, *actions: dict[str, Any], **args: Any) -> EventList:
        return self.do("declare", actor, actions=list(actions), **args)

    def act(self, actor: str, dice: list[int] | tuple[int, ...] = (), **args: Any) -> EventList:
        return self.do("act", actor, dice, **args)

    def order(self) -> list[list[str]]:
        return self.state.order


def attack(kind: str, target: str, **params: Any) -> dict[str, Any]:
    """A declared action."""
    return {"kind": kind, "target": target, **params}
