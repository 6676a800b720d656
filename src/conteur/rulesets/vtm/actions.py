"""Taking declared actions in the resolution stage, and the general actions.

``act`` carries out the action due now (V-INI-4..7); attacks go through
``attack.attack``; the actions that are not attacks (move, stand up, draw,
other) are here; shooting, aiming and reloading are in ``ranged.py``.
"""

from __future__ import annotations

from typing import Any

from conteur.engine import Command, Resolution
from conteur.engine.geometry import distance, move_toward, parse_position
from conteur.i18n import ConteurError

from . import equipment
from .attack import attack, multiple_penalty
from .dice import VtmPool
from .events import (
    ActionTaken,
    ConditionSet,
    CoverTaken,
    ModifiersUsed,
    Moved,
    RollMade,
    WeaponChanged,
)
from .hooks import (
    ACTION_CHECKS,
    ACTIONS,
    BEFORE_ACTION,
    SUBSTITUTES,
    VALIDATORS,
    action,
    roll_modifiers,
)
from .readiness import gm_modifiers
from .state import DEFENSIVE, Action, Fighter, VtmState
from .turn import advance, due_at_end, due_at_rank, next_timing, waiting


def due_action(state: VtmState, f: Fighter) -> tuple[int, str]:
    """The action ``f`` may take now (index, timing); refused when not its turn (V-INI-4)."""
    due = next_timing(state, f.id)
    if due is None:
        raise ConteurError("vtm.act.not_due", rule="V-INI-4", fighter=f.name, due=who_is_due(state))
    return due


def act(ctx: Resolution, command: Command) -> None:
    """Carry out the action ``command.actor`` may take now."""
    state: VtmState = ctx.state
    f = fighter(state, command.actor)
    index, timing = due_action(state, f)
    decl = f.progress.declaration
    assert decl is not None
    if timing == "delayed":
        chosen = action_from_args(command.args)
        validate(state, f, chosen)
    else:
        chosen = decl.actions[index]
        for substitute in SUBSTITUTES:
            replaced = substitute(state, f, chosen, command.args)
            if replaced is not None:
                chosen = replaced
                break
        if command.args.get("kind") and command.args["kind"] != chosen.kind:
            raise ConteurError(
                "vtm.act.not_declared",
                rule="V-INI-3",
                fighter=f.name,
                declared=chosen.kind,
                asked=command.args["kind"],
            )
        validate(state, f, chosen)
    penalty = multiple_penalty(f, chosen)
    willpower = decl.willpower and not f.progress.willpower_used
    ctx.emit(
        ActionTaken(
            f.id,
            index,
            chosen.kind,
            counts=not chosen.celerity,
            willpower=willpower,
            rules=rules_of_timing(timing, chosen),
        )
    )
    perform(ctx, f, chosen, penalty, willpower)
    advance(ctx)


def perform(ctx: Resolution, f: Fighter, chosen: Action, penalty: int, willpower: bool) -> None:
    """Resolve one action with its handler (an attack when it is a maneuver with a target)."""
    state: VtmState = ctx.state
    if not all(hook(ctx, f, chosen) for hook in BEFORE_ACTION):
        return
    move_first(ctx, f, chosen)
    handler = ACTIONS.get(chosen.kind)
    if handler is not None:
        handler(ctx, f, chosen, penalty, willpower)
        return
    m = equipment.maneuver(state, chosen.kind)
    if equipment.is_attack(m):
        handler = ACTIONS.get(m.id)
        if handler is not None:
            handler(ctx, f, chosen, penalty, willpower)
        else:
            attack(ctx, f, chosen, penalty, willpower)
        return
    raise ConteurError("vtm.act.unknown", rule="V-CC-0", kind=chosen.kind)


def rules_of_timing(timing: str, a: Action) -> tuple[str, ...]:
    if timing == "delayed":
        return ("V-INI-5",)
    if a.celerity:
        return ("V-INI-7", "V-MAN-2")
    if timing == "end":
        return ("V-INI-7", "V-MAN-1")
    return ("V-INI-4",)


def who_is_due(state: VtmState) -> str:
    names = [state.fighters[fid].name for fid in due_at_rank(state)]
    end = due_at_end(state)
    if end:
        names.append(state.fighters[end].name)
    names += [state.fighters[fid].name + "*" for fid in waiting(state)]
    return ", ".join(names) or "—"


def fighter(state: VtmState, fid: str | None) -> Fighter:
    if not fid or fid not in state.fighters:
        raise ConteurError("vtm.unknown_fighter", name=fid or "")
    return state.fighters[fid]


def action_from_args(args: dict[str, Any]) -> Action:
    """An Action from command arguments (``kind``, ``target``, ``weapon`` and parameters)."""
    if not args.get("kind"):
        raise ConteurError("vtm.act.what", rule="V-INI-5")
    params = {k: v for k, v in args.items() if k not in ("kind", "target", "weapon")}
    return Action(
        str(args["kind"]), args.get("target"), args.get("weapon"), tuple(sorted(params.items()))
    )


def validate(state: VtmState, f: Fighter, a: Action) -> None:
    """Check an action against its rules when declared and when taken."""
    for general in ACTION_CHECKS:
        general(state, f, a)
    if a.param("move_to") is not None:
        resolve_goal(state, a.param("move_to"), f)
    if a.kind in DEFENSIVE:
        check = VALIDATORS.get(a.kind)
        if check is not None:
            check(state, f, a)
        return
    check = VALIDATORS.get(a.kind)
    if a.kind not in ACTIONS:
        m = equipment.maneuver(state, a.kind)
        check = check or VALIDATORS.get(m.id)
        if equipment.is_attack(m):
            check_attack(state, f, a, m)
    if check is not None:
        check(state, f, a)


def check_attack(state: VtmState, f: Fighter, a: Action, m: Any) -> None:
    """Requirements of an attack maneuver: a target, powers, weapon, previous grapple..."""
    if a.target is None or a.target not in state.fighters:
        raise ConteurError("vtm.attack.no_target", rule="V-GEN-1", fighter=f.name)
    if a.target == f.id:
        raise ConteurError("vtm.attack.self", rule="V-GEN-1", fighter=f.name)
    req = m.requires
    if req.powers and not any(p in f.sheet.powers for p in req.powers):
        raise ConteurError(
            "vtm.attack.needs_power",
            rule=m.rule,
            fighter=f.name,
            maneuver=m.label(),
            powers=", ".join(req.powers),
        )
    for trait, minimum in req.min_traits.items():
        if f.trait(trait) < minimum:
            raise ConteurError(
                "vtm.attack.needs_trait", rule=m.rule, fighter=f.name, trait=trait, minimum=minimum
            )
    equipment.weapon_for(state, f, a)


def move_first(ctx: Resolution, f: Fighter, a: Action) -> None:
    """V-MAN-6: an action may start with a move of up to half the running distance."""
    goal = a.param("move_to")
    if goal is None or a.kind in ("move", "run"):
        return
    limit = running_distance(ctx.state, f) / 2
    start = f.position
    dest = resolve_goal(ctx.state, goal, f)
    end = move_toward(start, dest, limit)
    ctx.emit(Moved(f.id, end[0], end[1], round(distance(start, end), 2), rules=("V-MAN-6",)))
    after_move(ctx, f, a, distance(start, end))


def resolve_goal(state: VtmState, goal: Any, mover: Fighter) -> tuple[float, float]:
    """A position from ``[x, y]``, or a fighter's id: the point 1 m short of it (arm's length)."""
    if isinstance(goal, str) and goal in state.fighters:
        there = state.fighters[goal].position
        gap = distance(mover.position, there)
        return move_toward(mover.position, there, max(0.0, gap - 1.0))
    try:
        return parse_position(goal)
    except (ValueError, TypeError, IndexError):
        raise ConteurError(
            "vtm.move.bad_goal", rule="V-MAN-6", fighter=mover.name, value=str(goal)
        ) from None


def running_distance(state: VtmState, f: Fighter) -> float:
    """Metres a turn at a full run, limited by wounds (V-DMG-5, V-MAN-6; core values as data)."""
    spec = equipment.tables(state).health.movement.run
    metres = float(spec.base + spec.per_dexterity * f.trait("dexterity"))
    level = f.health.level
    if level is not None:
        if level.move_limit is not None:
            metres = min(metres, level.move_limit)
        elif level.running == "half":
            metres /= 2
        elif level.running == "none":
            walk = equipment.tables(state).health.movement.walk
            metres = min(metres, float(walk.base + walk.per_dexterity * f.trait("dexterity")))
    return metres


def walking_distance(state: VtmState, f: Fighter) -> float:
    """Metres a turn at a walk (core values as data)."""
    spec = equipment.tables(state).health.movement.walk
    return float(spec.base + spec.per_dexterity * f.trait("dexterity"))


def after_move(ctx: Resolution, f: Fighter, a: Action, metres: float) -> None:
    """What a move changes besides the position.

    V-RNG-1: a fighter who moves farther than a walk this turn cannot be aimed
    at (``running`` holds the turn). V-RNG-3: a move names the cover reached
    (``cover``: 0–3); a move that does not leaves the cover the fighter had.
    """
    if metres > walking_distance(ctx.state, f):
        ctx.emit(ConditionSet(f.id, "running", ctx.state.turn, rules=("V-RNG-1",)))
    level = a.param("cover")
    if level is not None:
        if int(level) not in (0, 1, 2, 3):
            raise ConteurError("vtm.gm.cover", rule="V-RNG-3", value=level)
        ctx.emit(CoverTaken(f.id, int(level), rules=("V-RNG-3",)))
    elif metres > 0 and f.cover:
        ctx.emit(CoverTaken(f.id, 0, rules=("V-RNG-3",)))


# ------------------------------------------------------------------ general actions


@action("move", "run")
def move(ctx: Resolution, f: Fighter, a: Action, penalty: int, willpower: bool) -> None:
    """V-MAN-6: a move as the whole action, up to the full running distance."""
    goal = a.param("to") or a.target
    if goal is None:
        raise ConteurError("vtm.move.where", rule="V-MAN-6", fighter=f.name)
    dest = resolve_goal(ctx.state, goal, f)  # a fighter: stop at arm's length
    end = move_toward(f.position, dest, running_distance(ctx.state, f))
    metres = distance(f.position, end)
    ctx.emit(Moved(f.id, end[0], end[1], round(metres, 2), rules=("V-MAN-6",)))
    after_move(ctx, f, a, metres)


@action("stand_up")
def stand_up(ctx: Resolution, f: Fighter, a: Action, penalty: int, willpower: bool) -> None:
    """V-DMG-7 (core): a knocked-down fighter spends an action to stand."""
    ctx.emit(ConditionSet(f.id, "knocked_down", None, rules=("V-DMG-7",)))
    ctx.emit(ConditionSet(f.id, "prone", None, rules=("V-DMG-7",)))


@action("draw")
def draw(ctx: Resolution, f: Fighter, a: Action, penalty: int, willpower: bool) -> None:
    """Take a carried weapon in hand (or put it away with no weapon named)."""
    w = equipment.weapon(ctx.state, a.weapon).id if a.weapon else None
    if w is not None and w not in equipment.owned_weapons(f):
        raise ConteurError("vtm.weapon.not_carried", rule="V-ATK-1", fighter=f.name, weapon=w)
    ctx.emit(WeaponChanged(f.id, w))


@action("other")
def other(ctx: Resolution, f: Fighter, a: Action, penalty: int, willpower: bool) -> None:
    """Any other action (give the alarm, open a door): optionally a roll of two traits."""
    traits = a.param("traits")
    if not traits:
        return
    names = [t.strip() for t in str(traits).split("+")]
    pool = sum(f.trait(t) for t in names) + f.penalty - penalty
    purpose = str(a.param("purpose", "other"))
    extra, extra_rules = roll_modifiers(ctx.state, f, purpose)  # a pack's (a leg hit...)
    difficulty = int(a.param("difficulty", 6)) + extra
    gm_dice, gm_difficulty, _ = gm_modifiers(ctx.state, f.id)  # the Conteur's, for this roll
    pool, difficulty = max(0, pool + gm_dice), difficulty + gm_difficulty
    record = ctx.dice.roll(VtmPool(pool, difficulty, auto=1 if willpower else 0))
    if gm_dice or gm_difficulty or ctx.state.pending_modifiers.get(f.id):
        ctx.emit(ModifiersUsed(f.id))
    ctx.emit(
        RollMade(
            f.id,
            purpose,
            pool,
            difficulty,
            record.result.successes,
            rules=("V-INI-4", *extra_rules),
            rolls=(record,),
        )
    )


def validate_declared(state: VtmState, f: Fighter, a: Action) -> None:
    """Checks run on each action of a declaration (V-INI-3)."""
    if a.kind in ("delay",):
        return
    validate(state, f, a)
