"""Locks (V-CC-7, V-CC-8): two fighters held together by a grapple or a hold, and what
each may do while locked (the table is in ``.close``'s docstring).

Below the close-combat rules (``.close``), the defences (``.defence``, which a lock
forbids) and the legal commands, which all ask who is locked with whom.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from conteur.i18n import ConteurError

from . import equipment, hooks
from .conditions import HeldBy, Holding
from .rulebook import rules_of
from .state import DEFENSIVE, Action, Fighter, VtmState
from .tables import Maneuver

LOCK_RULES = {"grapple": "V-CC-7", "hold": "V-CC-8"}
"""The two maneuver effects that lock two fighters together, and their rules."""

LOCK_ACTIONS = ("grapple_damage", "break_free", "release")
"""Actions that only make sense inside a lock."""


@dataclass(frozen=True, kw_only=True)
class Lock:
    """Two fighters locked together by a grapple or a hold."""

    kind: str
    holder: str
    target: str
    turn: int

    def other(self, fid: str) -> str:
        return self.target if fid == self.holder else self.holder

    @property
    def rule(self) -> str:
        return LOCK_RULES.get(self.kind, "V-CC-7")


def lock_of(state: VtmState, f: Fighter) -> Lock | None:
    """The grapple or hold ``f`` is in, as holder or held, while both can still fight."""
    conditions = f.conditions
    if Holding.key not in conditions and HeldBy.key not in conditions:
        return None
    if (holding := conditions.of(Holding)) is not None:
        lock = Lock(kind=holding.kind, holder=f.id, target=holding.target, turn=holding.turn)
    elif (held_by := conditions.of(HeldBy)) is not None:
        lock = Lock(kind=held_by.kind, holder=held_by.holder, target=f.id, turn=held_by.turn)
    else:
        return None
    other = state.fighters.get(lock.other(f.id))
    if other is None or other.out_of_fight or f.out_of_fight:
        return None
    return lock


def all_maneuvers(state: VtmState) -> list[Maneuver]:
    """The tables' maneuvers and those defined during play (V-CC-0)."""
    own = [equipment.maneuver(state, mid) for mid in state.custom_maneuvers]
    return [*equipment.tables(state).maneuvers.values(), *own]


def sets_up(state: VtmState, mid: str) -> bool:
    """Whether some maneuver (of the tables, or defined during play) needs ``mid`` first."""
    if mid in equipment.tables(state).prerequisites:
        return True
    return any(mid in equipment.maneuver(state, x).requires.after for x in state.custom_maneuvers)


def follow_ups(state: VtmState, kind: str) -> list[str]:
    """Maneuvers that need this lock first: bite and Kiss after a grapple or hold (V-CC-10)."""
    return list(dict.fromkeys(m.id for m in all_maneuvers(state) if kind in m.requires.after))


def allowed_in_lock(state: VtmState, lock: Lock, fid: str) -> list[str]:
    """The only actions ``fid`` may take while locked (V-CC-7, V-CC-8; table in the module doc)."""
    holder = fid == lock.holder
    if lock.kind == "hold":
        return ["release", *follow_ups(state, "hold")] if holder else ["break_free"]
    both = ["grapple_damage", "break_free"]
    return [*both, "release", *follow_ups(state, "grapple")] if holder else both


def kind_id(state: VtmState, kind: str) -> str:
    """The canonical id of an action kind (a maneuver may be named by one of its words)."""
    if kind in rules_of(state).at(hooks.action) or kind in DEFENSIVE:
        return kind
    return equipment.maneuver(state, kind).id


def allowed_kinds(state: VtmState, f: Fighter, kinds: Iterable[str]) -> tuple[str, ...]:
    """Of ``kinds``, those ``f`` may declare now (only the lock's own while locked)."""
    lock = lock_of(state, f)
    if lock is None:
        return tuple(k for k in kinds if k not in LOCK_ACTIONS)
    return tuple(allowed_in_lock(state, lock, f.id))


def lock_refusal(state: VtmState, f: Fighter, a: Action) -> ConteurError | None:
    """Why a lock forbids ``a``, if it does (V-CC-7, V-CC-8): locked, only the lock's own
    actions, on the other fighter of the lock; not locked, none of them. Declarations,
    actions and defences are checked with it, and the templates offer what it allows."""
    kind = kind_id(state, a.kind)
    lock = lock_of(state, f)
    if lock is None:
        if kind in LOCK_ACTIONS:
            return ConteurError("vtm.close.not_locked", rule="V-CC-7", fighter=f.name)
        return None
    allowed = allowed_in_lock(state, lock, f.id)
    other = state.fighters[lock.other(f.id)]
    if kind not in allowed:
        return ConteurError(
            "vtm.close.locked",
            rule=lock.rule,
            fighter=f.name,
            other=other.name,
            allowed=", ".join(allowed),
        )
    if a.target is not None and a.target != other.id:
        return ConteurError(
            "vtm.close.locked_target", rule=lock.rule, fighter=f.name, other=other.name
        )
    return None


__all__ = [
    "LOCK_ACTIONS",
    "LOCK_RULES",
    "Lock",
    "all_maneuvers",
    "allowed_in_lock",
    "allowed_kinds",
    "follow_ups",
    "kind_id",
    "lock_of",
    "lock_refusal",
    "sets_up",
]
