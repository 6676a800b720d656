"""The referee of a simulated fight: who is asked for a command, and when the fight is over.

Each ruleset that can be simulated provides a ``Referee`` (``Ruleset.referee()``,
usually from its own ``sim`` module): it drives one encounter from its first
turn to the end with the sides' tactics, and returns a ``FightRecord``. The
referee only chooses whose turn it is to give a command, following the
ruleset's own turn structure; every command goes through ``Encounter.execute``
and the real rules.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from conteur.dice import DiceSource
from conteur.engine import Encounter
from conteur.engine.geometry import distance
from conteur.i18n import ConteurError

from .tactics import Tactic

FATES = ("alive", "fled", "incapacitated", "torpor", "dead", "final_death")
"""What a fighter is at the end of a fight. ``fled``: still able, but farther than the
escape distance from every enemy still standing."""

DOWN = frozenset({"incapacitated", "torpor", "dead", "final_death"})
"""Fates that put a fighter out of the fight by wounds (reported as *incapacitated*)."""

KILLED = frozenset({"dead", "final_death"})
"""Fates reported as *killed* (a mortal's death, a vampire's Final Death)."""


@dataclass(frozen=True)
class FightRecord:
    """How one simulated fight ended."""

    winner: str | None
    """The side still in the fight, or None: a draw (no side left, or the turn limit)."""
    rounds: int
    """Turns fought (the turn in which the fight ended)."""
    fates: tuple[str, ...]
    """Each fighter's fate, in the scenario's order (see ``FATES``)."""
    timeout: bool = False
    """The turn limit was reached with two sides or more still fighting."""
    error: str | None = None
    """A command the rules refused (a tactic's bug): the fight was stopped there."""

    @classmethod
    def ended(
        cls,
        standing: Mapping[str, Any],
        rounds: int,
        fates: Iterable[str],
        error: str | None,
    ) -> FightRecord:
        """The record of a fight that stopped with ``standing`` (the sides still in it):
        one side left wins, more than one is a timeout, an error makes no winner."""
        timeout = error is None and len(standing) > 1
        winner = next(iter(standing)) if len(standing) == 1 and error is None else None
        return cls(winner, rounds, tuple(fates), timeout, error)


class Referee(Protocol):
    """Runs one encounter to its end with the sides' tactics."""

    def fight(
        self,
        encounter: Encounter,
        dice: DiceSource,
        tactics: Mapping[str, Tactic],
        max_turns: int,
        escape: float,
    ) -> FightRecord: ...

    def sides(self, state: Any) -> list[str]:
        """The sides of the encounter, in the order their first fighter appears."""
        ...

    def fighters(self, state: Any) -> list[tuple[str, str, str]]:
        """(id, side, name) of each fighter, in the scenario's order."""
        ...

    def farthest_enemies(self, state: Any) -> float:
        """The largest distance between two fighters of different sides at the start, in
        the ruleset's unit (0 when it has no positions): the default escape is past it."""
        ...


class FightersReferee:
    """``sides`` and ``fighters`` read from a state whose ``fighters`` have ``side`` and
    ``name`` — what every ruleset's state has so far; a referee inherits them."""

    def sides(self, state: Any) -> list[str]:
        """The sides of the encounter, in the order their first fighter appears."""
        return list(dict.fromkeys(f.side for f in state.fighters.values()))

    def fighters(self, state: Any) -> list[tuple[str, str, str]]:
        """(id, side, name) of each fighter, in the scenario's order."""
        return [(f.id, f.side, f.name) for f in state.fighters.values()]

    def farthest_enemies(self, state: Any) -> float:
        """The largest start distance between fighters of different sides (their ``position``)."""
        fighters = list(state.fighters.values())
        return max(
            (
                math.dist(a.position, b.position)
                for a in fighters
                for b in fighters
                if a.side != b.side
            ),
            default=0.0,
        )


@dataclass(frozen=True)
class Bout:
    """One fight as a referee runs it: the encounter, its dice, each side's tactic, the turn
    limit, and the escape distance past which a fleeing fighter has left."""

    encounter: Encounter
    dice: DiceSource
    tactics: Mapping[str, Tactic]
    max_turns: int
    escape: float
    gone: set[str] = field(default_factory=set)
    """Fighters the referee saw leave the fight, where fleeing is an act of the rules (a
    pass) rather than a distance."""


class EscapeReferee(FightersReferee, ABC):
    """A referee whose fight runs its commands (``run``) until fewer than two sides stand or
    the turn limit, then reads who stands (``standing``) and each fighter's fate (``fate``),
    a fighter beyond ``escape`` metres of every enemy counting as fled (``fled``). A refused
    command (a tactic's bug) ends the fight with its message."""

    def fight(
        self,
        encounter: Encounter,
        dice: DiceSource,
        tactics: Mapping[str, Tactic],
        max_turns: int,
        escape: float,
    ) -> FightRecord:
        bout = Bout(encounter, dice, tactics, max_turns, escape)
        error: str | None = None
        try:
            self.run(bout)
        except ConteurError as exc:
            error = exc.message("en")
        state = encounter.state
        standing = self.standing(state, bout)
        fates = (self.fate(state, f, bout) for f in state.fighters.values())
        return FightRecord.ended(standing, state.turn, fates, error)

    @abstractmethod
    def run(self, bout: Bout) -> None:
        """Play the encounter's commands to its end (ConteurError: a command refused)."""

    @abstractmethod
    def standing(self, state: Any, bout: Bout) -> dict[str, list[str]]:
        """The fighters still in the fight, by side."""

    @abstractmethod
    def fate(self, state: Any, f: Any, bout: Bout) -> str:
        """The fighter's fate at the end (``FATES``)."""

    def able(self, state: Any) -> list[Any]:
        """The fighters still able to fight, fled or not, in the state's order (read by
        ``able_standing`` and ``decided``; a referee that reads neither needs not say)."""
        raise NotImplementedError

    def able_standing(self, state: Any, bout: Bout) -> dict[str, list[str]]:
        """``standing`` read from ``able``: the fighters able to fight but those that have
        fled (``not_fled``), by side."""
        by_side: dict[str, list[Any]] = {}
        for f in self.able(state):
            by_side.setdefault(f.side, []).append(f)
        return self.not_fled(state, by_side, bout)

    def decided(self, state: Any, bout: Bout) -> bool:
        """Whether fewer than two sides stand (``able_standing``), asked after every
        command: the sides of the fighters still able, unless one of them is fleeing (then
        ``able_standing`` itself, which reads who has fled)."""
        sides = set()
        tactics = bout.tactics
        for f in self.able(state):
            if tactics[f.side].fleeing(state, f):
                return len(self.able_standing(state, bout)) < 2
            sides.add(f.side)
        return len(sides) < 2

    def not_fled(
        self, state: Any, able: Mapping[str, Sequence[Any]], bout: Bout
    ) -> dict[str, list[str]]:
        """The ids of ``able`` (the fighters still able to fight, by side) but those that
        have fled (``fled``), by side; a side with no one left is gone."""
        if len(able) < 2:
            return {side: [f.id for f in fs] for side, fs in able.items()}
        out: dict[str, list[str]] = {}
        for side, fs in able.items():
            kept = [f.id for f in fs]
            if any(bout.tactics[side].fleeing(state, f) for f in fs):
                enemies = [o for s, os in able.items() if s != side for o in os]
                kept = [f.id for f in fs if not self.fled(state, f, enemies, bout)]
            if kept:
                out[side] = kept
        return out

    def fled(self, state: Any, f: Any, enemies: Sequence[Any], bout: Bout) -> bool:
        """Fleeing (its side's tactic says so) and farther than the escape distance from
        every one of ``enemies`` (the enemies still able to fight; none: not fled)."""
        return (
            bool(enemies)
            and bout.tactics[f.side].fleeing(state, f)
            and all(distance(f.position, o.position) > bout.escape for o in enemies)
        )


def get_referee(ruleset: str) -> Referee:
    """The referee of ``ruleset`` (ConteurError ``sim.no_tactics`` when it has none)."""
    from conteur.engine.registry import get_ruleset

    referee = get_ruleset(ruleset).referee()
    if referee is None:
        raise ConteurError("sim.no_tactics", ruleset=ruleset)
    found: Referee = referee
    return found


__all__ = [
    "DOWN",
    "FATES",
    "KILLED",
    "Bout",
    "EscapeReferee",
    "FightRecord",
    "FightersReferee",
    "Referee",
    "get_referee",
]
