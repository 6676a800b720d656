"""The vtm conditions, one typed record per kind (``conteur.engine.conditions``).

Each record's ``key`` is the name events, scenario entries and the game master's
commands use, and its JSON form the value they carry (``holding`` is
``{"target": ..., "kind": ..., "turn": ...}``), so the stored logs and the JSON
summaries read as they always did. ``VtmConditions`` is a fighter's container; an
option pack's own kinds join an encounter's through its rulebook (``Rulebook.conditions``):
the folds of that encounter read them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from conteur.engine.conditions import Condition, Conditions, Fields, Flag, Single, flag

# ------------------------------------------------------------------ on or off

KnockedDown = flag("knocked_down", "On the ground after a sweep or a tackle (V-DMG-7).")
Dazed = flag("dazed", "Loses its next action (V-DMG-7).")
Prone = flag("prone", "Lying down, by choice or after dodging gunfire (V-DEF-4, V-RNG-3).")
Blinded = flag("blinded", "Cannot see (V-MAN-5).")
NoRoom = flag("no_room", "No room to move: no dodge needing it in close combat.")
Unconscious = flag("unconscious", "Out of the fight until the game master says otherwise.")
InCombat = flag("in_combat", "In the fight already: no longer open to an ambush (V-MAN-7).")
Disarmed = flag("disarmed", "Set by the game master: the fighter lost its weapon.")
NoWoundPenalties = flag(
    "no_wound_penalties",
    "Its wounds do not penalise it (marked by the game master).",
)
Apparition = flag(
    "apparition",
    "The house rules' apparitions: no wound penalties either (R-CALL-6).",
)
Withdrawn = flag("withdrawn", "Taken out of the fight by the game master (``.joining``).")
Immobilised = flag(
    "immobilised",
    "Held fast (V-CC-8): ``given`` is the holder's id after a hold, or the game master's"
    " value when set by hand.",
)


class Running(Flag, key="running"):
    """Moved faster than a walk (V-RNG-1): ``given`` is the turn it ran in, or the game
    master's value (running until cleared)."""

    def since(self, turn: int) -> bool:
        """Whether it ran in ``turn`` or later (set by hand: always, while set)."""
        value = self.given
        if isinstance(value, int) and not isinstance(value, bool):
            return value >= turn
        return bool(value)


# ------------------------------------------------------------------ one number, one name


class InitiativeMalus(Single, key="initiative_malus"):
    """Initiative lost on the next roll, after getting up (V-DMG-7: the tables' −2)."""

    amount: int


class GetUpTried(Single, key="get_up_tried"):
    """The turn of its roll to get up: one a turn (V-DMG-7)."""

    turn: int


class OffBalance(Single, key="off_balance_turn"):
    """Off balance after a tackle, in ``turn`` (V-CC-12): the tables' condition lasting
    some turns, kept as ``off_balance_turn`` (``close.timed_conditions``)."""

    turn: int


class DisarmBotch(Single, key="disarm_botched"):
    """A botched disarm against ``opponent``, waiting for the Conteur's choice (V-CC-6)."""

    opponent: str


class Feeding(Single, key="feeding"):
    """Drinking from ``victim`` (V-CC-10)."""

    victim: str


class FedUpon(Single, key="fed_upon"):
    """A vampire (``by``) drinks from it (V-CC-10)."""

    by: str


# ------------------------------------------------------------------ records of several fields


class Holding(Fields, key="holding"):
    """Holds ``target`` in a grapple or hold (``kind``) since ``turn`` (V-CC-7, V-CC-8)."""

    target: str
    kind: str
    turn: int


class HeldBy(Fields, key="held_by"):
    """Held by ``holder`` in a grapple or hold (``kind``) since ``turn``."""

    holder: str
    kind: str
    turn: int


@dataclass(frozen=True, kw_only=True)
class Aim:
    """An aim at one target with one weapon (V-RNG-1): the fields of the condition
    ``Aiming`` and of the event that puts it (``ranged.Aimed``)."""

    target: str
    weapon: str
    turns: int
    since: int
    """The turn aiming began."""
    last: int
    """The turn of the last aim."""
    scope: bool


class Aiming(Aim, Fields, key="aim"):
    """Turns spent aiming at one target with one weapon (V-RNG-1)."""


@dataclass(frozen=True, kw_only=True)
class Reload:
    """Turns spent reloading a slow weapon (V-RNG-7): the fields of the condition
    ``Reloading`` and of the event that puts it (``ranged.ReloadProgress``)."""

    weapon: str
    turns: int


class Reloading(Reload, Fields, key="reloading"):
    """Turns spent reloading a slow weapon (V-RNG-7)."""


class SetUp(Fields, key="set_up"):
    """A maneuver that hit ``target`` in ``turn``, which another needs the turn after
    (V-CC-10: a bite after a grapple)."""

    maneuver: str
    target: str
    turn: int


class VtmConditions(Conditions):
    """A vtm fighter's conditions."""

    kinds: ClassVar[Mapping[str, type[Condition]]] = {
        k.key: k
        for k in (
            KnockedDown,
            Dazed,
            Prone,
            Blinded,
            NoRoom,
            Unconscious,
            InCombat,
            Disarmed,
            NoWoundPenalties,
            Apparition,
            Withdrawn,
            Immobilised,
            Running,
            InitiativeMalus,
            GetUpTried,
            OffBalance,
            DisarmBotch,
            Feeding,
            FedUpon,
            Holding,
            HeldBy,
            Aiming,
            Reloading,
            SetUp,
        )
    }


__all__ = [
    "Aim",
    "Aiming",
    "Apparition",
    "Blinded",
    "Dazed",
    "DisarmBotch",
    "Disarmed",
    "FedUpon",
    "Feeding",
    "GetUpTried",
    "HeldBy",
    "Holding",
    "Immobilised",
    "InCombat",
    "InitiativeMalus",
    "KnockedDown",
    "NoRoom",
    "NoWoundPenalties",
    "OffBalance",
    "Prone",
    "Reload",
    "Reloading",
    "Running",
    "SetUp",
    "Unconscious",
    "VtmConditions",
    "Withdrawn",
]
