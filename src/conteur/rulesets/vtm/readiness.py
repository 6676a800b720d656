"""Which defence a fighter holds ready, and what using one costs (V-DEF-1, V-DEF-7, V-DEF-8).

Pure functions of the state, shared by the rules (``defence.py``) and by the
events that fold a defence into the state (``events.DefenceRolled``), so the
live fight and a replayed log spend a defence the same way.

Where a ready defence comes from (its *source*):

* ``full_defense`` — the fighter declared a turn of defence only, with
  ``full_defense`` or with nothing but defensive actions (V-DEF-7, V-MAN-1):
  any number of defences, the first with the full pool, each following one
  die fewer;
* ``declared`` — a block, dodge or parry declared as one action of a multiple
  action (V-DEF-8): one defence per declared defensive action, with the
  multiple-action penalty (V-MAN-1);
* ``delayed`` — announced during the turn with a delayed action (V-INI-6);
* ``abort_point`` / ``abort_roll`` — the declared action dropped for a defence
  (V-MAN-3);
* ``ambush_tie`` — the target of an ambush that ended in a tie (V-MAN-7).
"""

from __future__ import annotations

from . import equipment
from .hooks import reads_effect
from .state import DEFENSIVE, Declaration, Fighter, VtmState

PER_TURN = ("full_defense", "declared")
"""Sources that come from the declaration itself (a ``defend`` command only picks the kind)."""


def full_defense_turn(decl: Declaration | None) -> bool:
    """A turn of defence only: ``full_defense``, or only defensive actions declared (V-DEF-7)."""
    if decl is None or decl.delayed:
        return False
    if decl.full_defense:
        return True
    return bool(decl.actions) and all(a.kind in DEFENSIVE for a in decl.actions)


def available_defence(f: Fighter) -> tuple[str | None, str | None]:
    """The defence ``f`` holds ready and its source (``(None, None)`` when it has none)."""
    p = f.progress
    if p.ready_defence and p.ready_via not in PER_TURN:
        return p.ready_defence, p.ready_via
    decl = p.declaration
    if decl is None:
        return None, None
    if full_defense_turn(decl):
        kind = p.ready_defence or decl.full_defense or decl.actions[0].kind
        return kind, "full_defense"
    for index, timing in p.pending:
        if timing == "defence":
            return p.ready_defence or decl.actions[index].kind, "declared"
    return None, None


def spend_defence(f: Fighter) -> None:
    """A defence was rolled (or met an attack with no success): it is used up.

    A declared defence of a multiple action is one of its actions (V-DEF-8);
    a defence in place of a delayed or aborted action is that action. A full
    defence stays, one die fewer for the next (V-DEF-7).
    """
    _, source = available_defence(f)
    p = f.progress
    p.defences += 1
    p.ready_defence = None
    p.ready_via = None
    if source == "full_defense" or source is None:
        return
    if source == "declared":
        for index, timing in p.pending:
            if timing == "defence":
                p.pending = [q for q in p.pending if q[0] != index]
                break
    if source != "ambush_tie":
        p.acted += 1


@reads_effect("multiple_action")
def multiple_actions_count(state: VtmState) -> bool:
    """V-MAN-1: whether several actions in a turn make a multiple action, with its dice off:
    the tables' ``multiple_actions`` maneuver says so with its ``multiple_action`` effect
    (a table may take it out)."""
    return equipment.maneuver(state, "multiple_actions").effect("multiple_action") is not None


def multiple_penalty_of_defence(f: Fighter, source: str | None) -> int:
    """V-MAN-1 / V-DEF-8: dice a defence loses as one action of a multiple action."""
    decl = f.progress.declaration
    if decl is None or source in ("full_defense", "ambush_tie", "delayed", None):
        return 0
    if decl.multiple < 2:
        return 0
    return decl.multiple + f.progress.acted


def gm_modifiers(state: VtmState, fid: str) -> tuple[int, int, tuple[str, ...]]:
    """The game master's pending modifiers for ``fid``'s next roll: dice, difficulty, reasons."""
    mods = state.pending_modifiers.get(fid, [])
    dice = sum(int(m.get("dice", 0)) for m in mods)
    difficulty = sum(int(m.get("difficulty", 0)) for m in mods)
    return dice, difficulty, tuple(str(m.get("reason", "")) for m in mods)
