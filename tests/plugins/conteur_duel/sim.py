"""The toy duel simulated: a referee that begins the duel and asks whoever is due, and one
tactic (attack the first standing adversary)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from conteur.dice import DiceSource
from conteur.engine import Command, Encounter
from conteur.i18n import ConteurError
from conteur.sim.referee import FightersReferee, FightRecord
from conteur.sim.tactics import Tactic


class Nearest:
    """Attack the first standing adversary."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.options = dict(options)

    def declare(self, state: Any, fighter: Any) -> Command:
        return self.act(state, fighter)

    def act(self, state: Any, fighter: Any) -> Command:
        foes = [o for o in state.fighters.values() if o.side != fighter.side and o.standing]
        if not foes:
            return Command("pass", fighter.id)
        return Command("attack", fighter.id, {"target": foes[0].id})

    def react(self, state: Any, fighter: Any) -> Command | None:
        return None

    def fleeing(self, state: Any, fighter: Any) -> bool:
        return False


class DuelReferee(FightersReferee):
    """D-TURN-1: begin, then whoever is due acts, until D-END-1 or the turn limit."""

    def farthest_enemies(self, state: Any) -> float:
        return 0.0  # a duel has no positions: no one escapes

    def fight(
        self,
        encounter: Encounter,
        dice: DiceSource,
        tactics: Mapping[str, Tactic],
        max_turns: int,
        escape: float,
    ) -> FightRecord:
        error: str | None = None
        try:
            encounter.execute(Command("begin"), dice)
            while not encounter.state.over and encounter.state.turn <= max_turns:
                f = encounter.state.fighters[encounter.state.due()]
                encounter.execute(tactics[f.side].act(encounter.state, f), dice)
        except ConteurError as exc:
            error = exc.message("en")
        state = encounter.state
        standing = {f.side: True for f in state.fighters.values() if f.standing}
        fates = ("alive" if f.standing else "incapacitated" for f in state.fighters.values())
        return FightRecord.ended(standing, state.turn, fates, error)


REFEREE = DuelReferee()
TACTICS = {"nearest": Nearest}
