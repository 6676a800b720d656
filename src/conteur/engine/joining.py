"""Combatants who join a fight under way, and combatants taken out of it.

Two commands of the game master's, the same in every ruleset that allows them:

- ``Command(JOIN, None, {"combatant": entry})`` — a scenario combatant entry (a
  campaign character's, a quick NPC's, an archetype's), accepted while the ruleset's
  ``join_rule(state)`` names the rule by which a newcomer enters (where it enters the
  order is the ruleset's to say: at the next initiative, at the end of the order...).
- ``Command(WITHDRAW, None, {"fighter": id})`` — offered by the ruleset's
  ``legal_commands`` (one template, its fighters as choices): the fighter leaves the
  order at once and acts no more; it stays on the roster, out of the fight.

Both fold by the state's own methods (``Admits``): an event carries the entry, so a
replay rebuilds the newcomer from the log alone, and undo retracts it like any other
command.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, cast

from conteur.i18n import ConteurError

from .events import Event

JOIN = "join"
WITHDRAW = "withdraw"
WITHDRAWN = "withdrawn"
"""The fate (``word.withdrawn``) of a combatant taken out of the fight."""


class Admits(Protocol):
    """A ruleset state that combatants may join and leave."""

    def admit(self, entry: Mapping[str, Any]) -> None:
        """Add the combatant ``entry`` describes (ConteurError naming a bad field)."""

    def withdraw(self, fighter: str) -> None:
        """Take ``fighter`` out of the order: it acts no more."""


class CombatantJoined(Event):
    """A combatant enters the fight under way; ``entry`` is its scenario entry."""

    fighter: str
    entry: dict[str, Any]

    def apply(self, state: Any) -> None:
        cast(Admits, state).admit(self.entry)


class CombatantWithdrawn(Event):
    """The game master takes a combatant out of the fight."""

    fighter: str

    def apply(self, state: Any) -> None:
        cast(Admits, state).withdraw(self.fighter)


def newcomer(command_args: Mapping[str, Any], known: Mapping[str, Any]) -> dict[str, Any]:
    """The entry of a ``join`` command, checked for an id not already in the fight
    (ConteurError ``engine.join.*``)."""
    entry = command_args.get("combatant")
    if not isinstance(entry, Mapping):
        raise ConteurError("engine.join.no_entry")
    fid = str(entry.get("id") or "").strip()
    if not fid:
        raise ConteurError("engine.join.no_id")
    if fid in known:
        raise ConteurError("engine.join.taken", id=fid)
    return {**dict(entry), "id": fid}


def leaving(command_args: Mapping[str, Any], standing: Mapping[str, Any]) -> str:
    """The fighter a ``withdraw`` command names, if still in the fight
    (ConteurError ``engine.withdraw.unknown``)."""
    fid = str(command_args.get("fighter") or "")
    if fid not in standing:
        raise ConteurError("engine.withdraw.unknown", fighter=fid, known=", ".join(standing) or "—")
    return fid


__all__ = [
    "JOIN",
    "WITHDRAW",
    "WITHDRAWN",
    "Admits",
    "CombatantJoined",
    "CombatantWithdrawn",
    "leaving",
    "newcomer",
]
