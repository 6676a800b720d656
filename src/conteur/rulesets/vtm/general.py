"""General maneuvers that are commands of their own: passing, ambush (V-MAN-7)."""

from __future__ import annotations

from conteur.dice import VtmPool
from conteur.engine import Command, Resolution
from conteur.i18n import ConteurError

from .actions import action_from_args, fighter, validate, who_is_due
from .attack import attack
from .events import ActionTaken, AmbushResolved, DefenceAnnounced, RollMade
from .state import VtmState
from .turn import advance, next_timing


def pass_action(ctx: Resolution, command: Command) -> None:
    """The fighter due now gives up its action."""
    state: VtmState = ctx.state
    f = fighter(state, command.actor)
    due = next_timing(state, f.id)
    if due is None:
        raise ConteurError("vtm.act.not_due", rule="V-INI-4", fighter=f.name, due=who_is_due(state))
    ctx.emit(ActionTaken(f.id, due[0], "pass", rules=("V-INI-4",)))
    advance(ctx)


AMBUSH_DIFFICULTY = 6
"""V-MAN-7 reading: the ambush roll is at difficulty 6."""


def ambush(ctx: Resolution, command: Command) -> None:
    """V-MAN-7: Dex + Stealth against Per + Alertness before the fight; the winner strikes first.

    More successes for the attacker: a free attack, its extra successes added
    to the pool, with no defence. A tie: the attacker strikes first, but the
    target may defend (``defence`` argument). More for the target: spotted,
    initiative as usual.
    """
    state: VtmState = ctx.state
    attacker = fighter(state, command.actor)
    target = fighter(state, command.get("target"))
    if state.turn > 0 or target.conditions.get("in_combat"):
        raise ConteurError("vtm.ambush.in_combat", rule="V-MAN-7", target=target.name)
    strike = action_from_args({k: v for k, v in command.args.items() if k != "defence"})
    validate(state, attacker, strike)
    mine = ctx.dice.roll(
        VtmPool(
            attacker.trait("dexterity") + attacker.trait("stealth") + attacker.penalty,
            AMBUSH_DIFFICULTY,
        )
    )
    ctx.emit(
        RollMade(
            attacker.id,
            "ambush",
            mine.request.dice,
            AMBUSH_DIFFICULTY,
            mine.result.successes,
            rules=("V-MAN-7",),
            rolls=(mine,),
        )
    )
    theirs = ctx.dice.roll(
        VtmPool(
            target.trait("perception") + target.trait("alertness") + target.penalty,
            AMBUSH_DIFFICULTY,
        )
    )
    ctx.emit(
        RollMade(
            target.id,
            "alertness",
            theirs.request.dice,
            AMBUSH_DIFFICULTY,
            theirs.result.successes,
            rules=("V-MAN-7",),
            rolls=(theirs,),
        )
    )
    extra = mine.result.successes - theirs.result.successes
    if extra < 0:
        ctx.emit(AmbushResolved(attacker.id, target.id, "spotted", 0, rules=("V-MAN-7",)))
        return
    outcome = "surprise" if extra > 0 else "first_strike"
    ctx.emit(AmbushResolved(attacker.id, target.id, outcome, extra, rules=("V-MAN-7",)))
    if outcome == "first_strike" and command.get("defence"):
        ctx.emit(_defence_ready(target.id, str(command.get("defence"))))
    attack(ctx, attacker, strike)
    ctx.emit(AmbushResolved(attacker.id, target.id, "over", 0, rules=("V-MAN-7",)))


def _defence_ready(fid: str, kind: str) -> DefenceAnnounced:
    return DefenceAnnounced(fid, kind, "ambush_tie", rules=("V-MAN-7", "V-DEF-1"))
