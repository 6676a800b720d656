"""Taking declared actions in the resolution stage, and the general actions.

``act`` carries out the action due now (V-INI-4..7); attacks go through
``attack.attack``; the actions that are not attacks (move, stand up, draw,
other) are here; shooting, aiming and reloading are in ``ranged.py``.
"""

from __future__ import annotations

from typing import Any

from conteur.engine import Command, Resolution
from conteur.engine.answers import answers
from conteur.engine.geometry import distance, move_toward, parse_position
from conteur.i18n import ConteurError

from . import equipment, hooks
from .asks import test_ask, word
from .attack import attack, multiple_penalty
from .conditions import KnockedDown, Prone, Running
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
from .hooks import action, reads_effect
from .readiness import gm_modifiers
from .rulebook import rules_of
from .state import DEFENSIVE, Action, Declaration, Fighter, VtmState
from .tables import Maneuver
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
    chosen = action_now(state, f, index, timing, command.args)
    check_now(state, f, chosen)
    penalty = multiple_penalty(state, f, chosen)
    willpower = decl.willpower and not f.progress.willpower_used
    ctx.emit(
        ActionTaken(
            fighter=f.id,
            index=index,
            kind=chosen.kind,
            counts=not chosen.celerity,
            willpower=willpower,
            rules=rules_of_timing(timing, chosen),
        )
    )
    perform(ctx, f, chosen, penalty, willpower)
    advance(ctx)


def action_now(
    state: VtmState, f: Fighter, index: int, timing: str, args: dict[str, Any]
) -> Action:
    """The action ``act`` with ``args`` carries out: the delayed one it names (V-INI-5), or
    the declared one — or what a rule puts in its place (a lock's own action, V-CC-7)."""
    if timing == "delayed":
        return action_from_args(args)
    decl = f.progress.declaration
    assert decl is not None
    chosen = decl.actions[index]
    for substitute in rules_of(state).of(hooks.substitute):
        replaced = substitute(state, f, chosen, args)
        if replaced is not None:
            chosen = replaced
            break
    if args.get("kind") and args["kind"] != chosen.kind:
        raise ConteurError(
            "vtm.act.not_declared",
            rule="V-INI-3",
            fighter=f.name,
            declared=chosen.kind,
            asked=args["kind"],
        )
    return chosen


def check_now(state: VtmState, f: Fighter, a: Action) -> None:
    """Whether ``a`` can be carried out now: its rules (``validate``), and the reach of the
    fighters it strikes from where it strikes (``check_reach_now``). ``act`` asks it, and
    so do the templates that offer ``act`` (``legal.py``) and the simulator's tactics
    before they choose ``act`` (``sim.feasible``).

    The verdict on the state's own fighter is kept among the state's answers
    (``engine/answers.py``) until the next event is folded: the tactic's check and the
    command's are then one."""
    if state.fighters.get(f.id) is not f:
        _check_now(state, f, a)
        return
    kept = answers(state)
    key = ("check_now", f.id, id(a))
    found = kept.get(key)
    if found is None or found[0] is not a:
        try:
            _check_now(state, f, a)
        except ConteurError as refusal:
            found = kept[key] = (a, refusal)
        else:
            found = kept[key] = (a, None)
    if found[1] is not None:
        raise found[1].with_traceback(None)


def _check_now(state: VtmState, f: Fighter, a: Action) -> None:
    validate(state, f, a)
    check_reach_now(state, f, a)


REACHLESS = ("aim", "reload")
"""Ranged maneuvers that strike no one: aiming (V-RNG-1) and reloading (V-RNG-7)."""


def maneuver_or_none(state: VtmState, kind: str) -> Maneuver | None:
    """The maneuver an action kind names, or None for actions that are not maneuvers."""
    return equipment.maneuver_or_none(state, kind)


def struck(a: Action) -> list[str]:
    """The fighters an attack strikes: its ``target``, then the ``targets`` it names (a spray,
    a burst: a list or "b, c")."""
    more = a.param("targets") or []
    if isinstance(more, str):
        more = [t.strip() for t in more.split(",") if t.strip()]
    ids = ([a.target] if a.target else []) + [str(t) for t in more]
    return list(dict.fromkeys(ids))


@reads_effect("move")
def check_reach_now(state: VtmState, f: Fighter, a: Action) -> None:
    """V-GEN-1 / V-GEN-2: every fighter an attack strikes is within its reach from where it
    strikes — here, or where its opening move ends (V-MAN-6: ``move_to``, half the running
    distance, as ``move_first`` will move it). A maneuver that closes the distance itself
    (an effect ``move``) is held to no reach here; its own rules check it."""
    if a.kind in DEFENSIVE:
        return
    m = maneuver_or_none(state, a.kind)
    if m is None or not equipment.is_attack(m) or m.id in REACHLESS or m.effect("move"):
        return
    here = state if a.param("move_to") is None else moved_to(state, f, end_of_move(state, f, a))
    who = here.fighters[f.id]
    for fid in struck(a):
        if fid in here.fighters and fid != f.id:
            equipment.check_reach(here, who, here.fighters[fid], a)


def perform(ctx: Resolution, f: Fighter, chosen: Action, penalty: int, willpower: bool) -> None:
    """Resolve one action with its handler (an attack when it is a maneuver with a target)."""
    state: VtmState = ctx.state
    book = rules_of(state)
    if not all(hook(ctx, f, chosen) for hook in book.of(hooks.before_action)):
        return
    move_first(ctx, f, chosen)
    handler = book.at(hooks.action).get(chosen.kind)
    if handler is not None:
        handler(ctx, f, chosen, penalty, willpower)
        return
    m = equipment.maneuver(state, chosen.kind)
    if equipment.is_attack(m):
        handler = book.at(hooks.action).get(m.id)
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
    book = rules_of(state)
    for general in book.of(hooks.action_check):
        general(state, f, a)
    if a.param("move_to") is not None:
        resolve_goal(state, a.param("move_to"), f)
    if a.kind in DEFENSIVE:
        check = book.at(hooks.validator).get(a.kind)
        if check is not None:
            check(state, f, a)
        return
    check = book.at(hooks.validator).get(a.kind)
    if a.kind not in book.at(hooks.action):
        m = equipment.maneuver(state, a.kind)
        check = check or book.at(hooks.validator).get(m.id)
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
    ctx.emit(
        Moved(
            fighter=f.id,
            x=end[0],
            y=end[1],
            metres=round(distance(start, end), 2),
            rules=("V-MAN-6",),
        )
    )
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
        ctx.emit(
            ConditionSet(
                target=f.id, condition=Running.key, value=ctx.state.turn, rules=("V-RNG-1",)
            )
        )
    level = a.param("cover")
    if level is not None:
        if int(level) not in (0, 1, 2, 3):
            raise ConteurError("vtm.gm.cover", rule="V-RNG-3", value=level)
        ctx.emit(CoverTaken(fighter=f.id, level=int(level), rules=("V-RNG-3",)))
    elif metres > 0 and f.cover:
        ctx.emit(CoverTaken(fighter=f.id, level=0, rules=("V-RNG-3",)))


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
    ctx.emit(Moved(fighter=f.id, x=end[0], y=end[1], metres=round(metres, 2), rules=("V-MAN-6",)))
    after_move(ctx, f, a, metres)


@action("stand_up")
def stand_up(ctx: Resolution, f: Fighter, a: Action, penalty: int, willpower: bool) -> None:
    """V-DMG-7 (core): a knocked-down fighter spends an action to stand."""
    ctx.emit(ConditionSet(target=f.id, condition=KnockedDown.key, value=None, rules=("V-DMG-7",)))
    ctx.emit(ConditionSet(target=f.id, condition=Prone.key, value=None, rules=("V-DMG-7",)))


@action("draw")
def draw(ctx: Resolution, f: Fighter, a: Action, penalty: int, willpower: bool) -> None:
    """Take a carried weapon in hand (or put it away with no weapon named)."""
    w = equipment.weapon(ctx.state, a.weapon).id if a.weapon else None
    if w is not None and w not in equipment.owned_weapons(f):
        raise ConteurError("vtm.weapon.not_carried", rule="V-ATK-1", fighter=f.name, weapon=w)
    ctx.emit(WeaponChanged(fighter=f.id, weapon=w))


@action("other")
def other(ctx: Resolution, f: Fighter, a: Action, penalty: int, willpower: bool) -> None:
    """Any other action (give the alarm, open a door): optionally a roll of two traits."""
    traits = a.param("traits")
    if not traits:
        return
    names = [t.strip() for t in str(traits).split("+")]
    pool = sum(f.trait(t) for t in names) + f.penalty - penalty
    purpose = str(a.param("purpose", "other"))
    extra, extra_rules = rules_of(ctx.state).roll_modifiers(
        ctx.state, f, purpose
    )  # a pack's (a leg hit...)
    difficulty = int(a.param("difficulty", 6)) + extra
    gm_dice, gm_difficulty, _ = gm_modifiers(ctx.state, f.id)  # the Conteur's, for this roll
    pool, difficulty = max(0, pool + gm_dice), difficulty + gm_difficulty
    record = ctx.dice.roll(
        VtmPool(pool, difficulty, auto=1 if willpower else 0),
        test_ask(
            f.id,
            f.name,
            word(purpose),
            pool,
            difficulty,
            [
                *((t, f.trait(t)) for t in names),
                ("wounds", f.penalty),
                ("multiple_actions", -penalty),
                ("gm", gm_dice),
            ],
            auto=1 if willpower else 0,
        ),
    )
    if gm_dice or gm_difficulty or ctx.state.pending_modifiers.get(f.id):
        ctx.emit(ModifiersUsed(fighter=f.id))
    ctx.emit(
        RollMade(
            fighter=f.id,
            purpose=purpose,
            pool=pool,
            difficulty=difficulty,
            successes=record.result.successes,
            rules=("V-INI-4", *extra_rules),
            rolls=(record,),
        )
    )


def validate_declared(state: VtmState, f: Fighter, a: Action) -> None:
    """Checks run on each action of a declaration (V-INI-3): its rules (``validate``)."""
    if a.kind in ("delay",):
        return
    validate(state, f, a)


def validate_declaration(state: VtmState, f: Fighter, decl: Declaration) -> None:
    """Checks of a declaration's actions (V-INI-3): each one's rules, a full defence's
    (parry needs a weapon, V-DEF-7), then the reach of each attack from where it will strike
    (``declared_reach``)."""
    for a in decl.actions:
        validate_declared(state, f, a)
    if decl.full_defense:
        validate(state, f, Action(decl.full_defense))
    declared_reach(state, f, decl)


def declared_reach(state: VtmState, f: Fighter, decl: Declaration) -> None:
    """V-GEN-1 / V-GEN-2: an attack on a fighter out of reach is refused when declared,
    unless the moves declared before it close the distance — its own opening move
    (``move_to``, V-MAN-6) or an earlier action's (a move, another opening move): each
    action strikes from where the one before left the fighter."""
    here = state
    for a in decl.actions:
        if a.kind in ("delay",):
            continue
        who = here.fighters[f.id]
        check_reach_now(here, who, a)
        end = end_of_move(here, who, a)
        if end != who.position:
            here = moved_to(here, who, end)


def end_of_move(state: VtmState, f: Fighter, a: Action) -> tuple[float, float]:
    """Where an action leaves its fighter: a move runs toward its goal (V-MAN-6), an opening
    move (``move_to``) goes half as far; any other action stays put."""
    if a.kind in ("move", "run"):
        goal = a.param("to") or a.target
        if goal is None:
            return f.position
        return move_toward(f.position, resolve_goal(state, goal, f), running_distance(state, f))
    goal = a.param("move_to")
    if goal is None:
        return f.position
    return move_toward(f.position, resolve_goal(state, goal, f), running_distance(state, f) / 2)


def moved_to(state: VtmState, f: Fighter, end: tuple[float, float]) -> VtmState:
    """A shallow copy of ``state`` in which ``f`` stands at ``end`` (to read distances from):
    what ``copy.copy`` gives, its fields copied straight (asked at every declared attack)."""
    new = object.__new__
    who = new(type(f))
    who.__dict__.update(f.__dict__)
    who.position = end
    here = new(type(state))
    fields = here.__dict__
    fields.update(state.__dict__)
    fields["fighters"] = {**state.fighters, f.id: who}
    return here
