"""General maneuvers: passing, movement (V-MAN-6), ambush (V-MAN-7)."""

from __future__ import annotations

from conteur.engine import Command, Resolution
from conteur.i18n import ConteurError, Msg

from . import equipment
from .actions import action_from_args, check_now, due_action, fighter, resolve_goal
from .asks import test_ask
from .attack import attack
from .conditions import InCombat
from .defence import check_defence
from .dice import VtmPool
from .events import (
    ActionTaken,
    AmbushResolved,
    ConditionSet,
    DefenceAnnounced,
    ModifiersUsed,
    RollMade,
)
from .hooks import reads_effect, validator
from .readiness import gm_modifiers
from .state import DEFENSIVE, Action, Fighter, VtmState
from .turn import advance


def pass_action(ctx: Resolution, command: Command) -> None:
    """The fighter due now gives up its action."""
    state: VtmState = ctx.state
    f = fighter(state, command.actor)
    index, _ = due_action(state, f)
    ctx.emit(ActionTaken(fighter=f.id, index=index, kind="pass", rules=("V-INI-4",)))
    advance(ctx)


@validator("move", "run")
def _move_goal(state: VtmState, f: Fighter, a: Action) -> None:
    """V-MAN-6: a move says where to (``to``: x,y in metres, or a fighter to close in on)."""
    goal = a.param("to") or a.target
    if goal is None:
        raise ConteurError("vtm.move.where", rule="V-MAN-6", fighter=f.name)
    resolve_goal(state, goal, f)


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
    if state.turn > 0 or state.phase != "setup" or target.conditions.of(InCombat):
        raise ConteurError("vtm.ambush.in_combat", rule="V-MAN-7", target=target.name)
    if attacker.out_of_fight:
        raise ConteurError("vtm.out_of_fight", rule="V-DMG-5", fighter=attacker.name)
    strike = action_from_args({k: v for k, v in command.args.items() if k != "defence"})
    check_now(state, attacker, strike)  # its rules and its reach, as the template offers it
    defence = command.get("defence")
    if defence is not None:
        if defence not in DEFENSIVE:
            raise ConteurError("vtm.declare.bad_defence", rule="V-MAN-7", kind=str(defence))
        check_defence(state, target, Action(str(defence)), in_hand=True)
    mine, theirs = ambush_rolls(ctx, attacker, target)
    extra = mine - theirs
    if extra < 0:
        ctx.emit(
            AmbushResolved(
                attacker=attacker.id,
                target=target.id,
                outcome="spotted",
                extra=0,
                rules=("V-MAN-7",),
            )
        )
        _in_combat(ctx, attacker.id, target.id)
        return
    outcome = "surprise" if extra > 0 else "first_strike"
    ctx.emit(
        AmbushResolved(
            attacker=attacker.id, target=target.id, outcome=outcome, extra=extra, rules=("V-MAN-7",)
        )
    )
    if outcome == "first_strike" and defence:
        ctx.emit(_defence_ready(target.id, str(defence)))
    attack(ctx, attacker, strike)
    ctx.emit(
        AmbushResolved(
            attacker=attacker.id, target=target.id, outcome="over", extra=0, rules=("V-MAN-7",)
        )
    )
    _in_combat(ctx, attacker.id, target.id)


@reads_effect("resisted", needs=("difficulty",), of="ambush")
def ambush_rolls(ctx: Resolution, attacker: Fighter, target: Fighter) -> tuple[int, int]:
    """V-MAN-7: the ``ambush`` maneuver's traits (Dex + Stealth) against its ``resisted``
    effect's (Per + Alertness), both at the effect's difficulty (6, a reading); the
    successes of each side."""
    m = equipment.maneuver(ctx.state, "ambush")
    resisted = m.effect("resisted")
    assert resisted is not None and resisted.difficulty is not None  # (check_effects_read)
    difficulty = resisted.difficulty
    mine = _resisted_roll(ctx, attacker, equipment.maneuver_traits(m)[0], difficulty, "ambush")
    return mine, _resisted_roll(ctx, target, list(resisted.traits), difficulty, "alertness")


def _resisted_roll(
    ctx: Resolution, f: Fighter, traits: list[str], difficulty: int, purpose: str
) -> int:
    """One side of the ambush's resisted roll."""
    gm_dice, gm_difficulty, _ = gm_modifiers(ctx.state, f.id)
    pool = max(0, sum(f.trait(t) for t in traits) + f.penalty + gm_dice)
    record = ctx.dice.roll(
        VtmPool(pool, difficulty + gm_difficulty),
        test_ask(
            f.id,
            f.name,
            Msg("ask.test.ambush"),
            pool,
            difficulty + gm_difficulty,
            [
                *((t, f.trait(t)) for t in traits),
                ("wounds", f.penalty),
                ("gm", gm_dice),
            ],
        ),
    )
    ctx.emit(
        RollMade(
            fighter=f.id,
            purpose=purpose,
            pool=record.request.dice,
            difficulty=record.request.effective_difficulty,
            successes=record.result.successes,
            rules=("V-MAN-7",),
            rolls=(record,),
        )
    )
    if ctx.state.pending_modifiers.get(f.id):
        ctx.emit(ModifiersUsed(fighter=f.id))
    return record.result.successes


def _in_combat(ctx: Resolution, *fids: str) -> None:
    """After an ambush both sides are in the fight: no second ambush on them (V-MAN-7)."""
    for fid in fids:
        ctx.emit(ConditionSet(target=fid, condition=InCombat.key, value=True, rules=("V-MAN-7",)))


def _defence_ready(fid: str, kind: str) -> DefenceAnnounced:
    return DefenceAnnounced(fighter=fid, kind=kind, via="ambush_tie", rules=("V-MAN-7", "V-DEF-1"))
