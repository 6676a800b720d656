"""Each roll asked in turn: the next roll a command needs from the table's dice.

A command played with dice rolled at the table is tried with the faces given so
far, one list per roll (``conteur.dice.TableDice``). ``next_roll`` says which
roll comes next (whose, what for, how many dice) or None when every roll is in;
the caller then executes the command for real with the same lists. The roll
plan shown before any die is thrown is ``next_roll(encounter, command, [])``.

A roll of an action a hidden combatant carries out, or a hidden combatant's own roll in
someone else's action, is a secret of the game master's (``RollAsk.hidden``): asking it
on a player's phone would tell that table that someone unseen is at work before the
action is in the log (which reveals the actor, or keeps it hidden, as the rules say).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Sequence

from conteur.dice.table import RollNeeded, TableDice
from conteur.i18n import ConteurError

from .commands import Command, CommandTemplate
from .encounter import Encounter
from .ruleset import Resolution


def next_roll(
    encounter: Encounter, command: Command, rolls: Sequence[Sequence[int]]
) -> RollNeeded | None:
    """The next roll ``command`` asks of the table after ``rolls``, or None when all are in.

    The command runs on a copy of the encounter's state, which is never changed.
    A command the rules refuse raises its ``ConteurError`` (as ``execute`` would);
    a face a die does not have, more faces than a roll uses, or more rolls than
    the command asks for are refused the same way.
    """
    dice = TableDice(rolls)
    work = copy.deepcopy(encounter.state)
    ctx = Resolution(work, dice, encounter.ruleset.visibility)
    try:
        encounter.ruleset.resolve(ctx, command)
    except RollNeeded as needed:
        ask = needed.ask
        hidden = encounter.hidden
        if ask is not None and not ask.hidden and (command.actor in hidden or ask.who in hidden):
            needed.ask = dataclasses.replace(ask, hidden=True)
        return needed
    dice.check_all_used()
    return None


def rolls_dice(encounter: Encounter, template: CommandTemplate) -> bool:
    """Whether a form for ``template`` needs a place for the table's dice.

    The template's own word when it gives one (``CommandTemplate.dice``); else, when every
    parameter is fixed (none, or a number with a single value), the command is tried as
    the table would play it (``next_roll`` with no faces): it asks a roll, or it does not.
    A command refused there, or one with values still to choose, may roll: True.
    """
    if template.dice is not None:
        return template.dice
    args = {}
    for p in template.params:
        if p.kind == "int" and p.min is not None and p.min == p.max:
            args[p.name] = p.min
        elif p.required or p.kind != "bool":
            return True
    try:
        return next_roll(encounter, Command(template.type, template.actor, args), []) is not None
    except ConteurError:
        return True


__all__ = ["next_roll", "rolls_dice"]
