"""One vtm combatant and what it does in a turn: its actions, its declaration, its progress.

Below the combatant entries (``.entries``, which build a ``Fighter``) and the state (which
holds the fighters and admits newcomers through the entries); ``.state`` re-exports it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import Any, Literal

from conteur.engine.geometry import Position
from conteur.records import lean

from .conditions import Apparition, NoWoundPenalties, Unconscious, VtmConditions, Withdrawn
from .health import HealthTrack, fate
from .sheet import VtmSheet

Phase = Literal["setup", "declaration", "resolution", "end_of_turn", "over"]
Timing = Literal["rank", "end", "defence", "delayed"]

DEFENSIVE = ("dodge", "block", "parry")

_UNCONSCIOUS, _WITHDRAWN = Unconscious.key, Withdrawn.key
_NO_WOUND_PENALTIES, _APPARITION = NoWoundPenalties.key, Apparition.key


@lean
@dataclass(frozen=True)
class Action:
    """One declared action: a maneuver (or dodge, move, reload, aim...) and its details."""

    kind: str
    target: str | None = None
    weapon: str | None = None
    params: tuple[tuple[str, Any], ...] = ()
    celerity: bool = False

    def __deepcopy__(self, memo: dict[int, Any]) -> Action:
        return self  # immutable

    def param(self, key: str, default: Any = None) -> Any:
        for k, v in self.params:
            if k == key:
                return v
        return default

    @property
    def defensive(self) -> bool:
        return self.kind in DEFENSIVE


@lean
@dataclass(frozen=True)
class Declaration:
    """What a fighter declared for this turn (V-INI-3)."""

    actions: tuple[Action, ...] = ()
    celerity: int = 0
    willpower: bool = False
    full_defense: str | None = None
    delayed: bool = False

    def __deepcopy__(self, memo: dict[int, Any]) -> Declaration:
        return self  # immutable

    @cached_property
    def multiple(self) -> int:
        """Number of actions under the multiple-action rule (Celerity's excluded); counted
        once (asked for each action when the declaration is folded, and at every attack)."""
        count = 0
        for a in self.actions:
            if not a.celerity:
                count += 1
        return count


@dataclass(kw_only=True)
class Progress:
    """Where a fighter stands in the current turn."""

    declaration: Declaration | None = None
    pending: list[tuple[int, Timing]] = field(default_factory=list)
    """Indices of declared actions not taken yet, with when they happen."""
    acted: int = 0
    """Non-Celerity actions taken (indexes the multiple-action penalty, V-MAN-1)."""
    defences: int = 0
    """Defensive actions taken this turn (V-DEF-7 penalty)."""
    ready_defence: str | None = None
    """A defence announced and paid for, waiting for the next attack (V-DEF-1)."""
    ready_via: str | None = None
    """Where the ready defence comes from (``delayed``, ``abort_point``, ``full_defense``...)."""
    waiting: bool = False
    """Delayed and past its rank: may act at any moment (V-INI-5)."""
    rank_passed: bool = False
    willpower_used: bool = False
    abort_failed: bool = False
    """The Willpower roll to abort failed: the declared action must be carried out (V-MAN-3)."""
    frozen_penalty: int | None = None
    """Wound penalty at the start of a simultaneous rank, used until the rank ends (V-INI-2)."""


@dataclass
class Fighter:
    """One combatant: its sheet and everything the fight changes."""

    id: str
    sheet: VtmSheet
    side: str
    position: Position
    health: HealthTrack
    willpower: int
    blood: int
    ammo: dict[str, int]
    weapon: str | None
    armour: str | None
    armour_destroyed: bool = False
    cover: int = 0
    conditions: VtmConditions = field(default_factory=VtmConditions)
    initiative: tuple[int, int] | None = None
    """(total, rating) of this turn's initiative."""
    progress: Progress = field(default_factory=Progress)

    def __copy__(self) -> Fighter:
        """A shallow copy (``copy.copy``): the same fields, without ``copy``'s generic path."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Fighter:
        """A copy for a command's scratch state; the sheet is immutable and shared."""
        new = object.__new__(Fighter)
        memo[id(self)] = new
        for f in fields(self):
            value = getattr(self, f.name)
            object.__setattr__(
                new, f.name, value if f.name == "sheet" else copy.deepcopy(value, memo)
            )
        return new

    @property
    def name(self) -> str:
        return self.sheet.name

    @property
    def kind(self) -> str:
        return str(self.sheet.kind)

    def trait(self, key: str) -> int:
        """A trait of the sheet (0 when absent)."""
        rating = self.sheet.ratings.get(key)  # a canonical key: ``VtmSheet.trait``'s fast path
        return rating if rating is not None else self.sheet.trait(key)

    @property
    def wound_penalties(self) -> bool:
        """Whether its wounds penalise it: not for what the game master marks
        ``no_wound_penalties`` (or ``apparition``: the house rules' apparitions, R-CALL-6)."""
        conditions = self.conditions
        records = conditions.records
        if _NO_WOUND_PENALTIES not in records and _APPARITION not in records:
            return True  # ``of`` would answer None for both
        return not (conditions.of(NoWoundPenalties) or conditions.of(Apparition))

    @property
    def wound_penalty(self) -> int:
        """The track's wound penalty now (V-DMG-5); 0 without wound penalties."""
        return self.health.penalty if self.wound_penalties else 0

    @property
    def penalty(self) -> int:
        """Wound penalty (0, −1, −2, −5), applied to pools and initiative (V-DMG-5).

        While a simultaneous rank resolves, the penalty its members had when
        the rank started (V-INI-2 reading).
        """
        if self.progress.frozen_penalty is not None:
            return self.progress.frozen_penalty
        return self.wound_penalty

    @property
    def fate(self) -> str:
        return fate(self.health, self.kind)

    @property
    def withdrawn(self) -> bool:
        """Taken out of the fight by the game master (the condition ``withdrawn``)."""
        return bool(self.conditions.of(Withdrawn))

    @property
    def out_of_fight(self) -> bool:
        """Incapacitated, dead, in torpor, unconscious, or taken out of the fight: no action."""
        # ``self.fate != "alive"`` read directly (the referee asks it of every fighter
        # after every action): damage past the track, or no empty box left.
        health = self.health
        if health.past_track is not None or None not in health.boxes:  # ``health.spent``
            return True
        conditions = self.conditions
        records = conditions.records
        if _UNCONSCIOUS not in records and _WITHDRAWN not in records:
            return False  # ``of`` would answer None for both
        return bool(conditions.of(Unconscious)) or bool(conditions.of(Withdrawn))

    @property
    def supernatural(self) -> bool:
        return self.kind != "mortal"


__all__ = ["DEFENSIVE", "Action", "Declaration", "Fighter", "Phase", "Progress", "Timing"]
