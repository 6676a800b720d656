"""The common part of the rule-test harnesses: an encounter fed the faces a table rolled.

Each ruleset's ``tests/<ruleset>/fight.py`` builds its scenario and names its state
class; commands and typed dice go through the public engine the same way for all.
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar

from conteur.dice import TypedDice
from conteur.engine import Command, Encounter, EventList

S = TypeVar("S")


class TableFight(Generic[S]):
    """An encounter driven by commands and the faces a table would roll."""

    state_type: ClassVar[type]

    def __init__(self, scenario: dict[str, Any]) -> None:
        self.encounter = Encounter.start(scenario)

    @property
    def state(self) -> S:
        state = self.encounter.state
        assert isinstance(state, self.state_type)
        return state  # type: ignore[no-any-return]

    def __getitem__(self, fid: str) -> Any:
        return self.state.fighters[fid]  # type: ignore[attr-defined]

    def do(
        self,
        type_: str,
        actor: str | None = None,
        dice: Any = (),
        **args: Any,
    ) -> EventList:
        """Run one command with these faces; every face must be used."""
        source = TypedDice(list(dice))
        events = self.encounter.execute(Command(type_, actor, args), source)
        source.check_all_used()
        return events
