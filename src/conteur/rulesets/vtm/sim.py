"""Simulated vtm fights: the tactics, and the referee that follows the vtm turn.

The referee (``VtmReferee``) runs the three stages of each turn as
a table would: between turns, each fighter may react (a knocked-down fighter
tries to get up); initiative (one ``initiative`` command);
declarations from the slowest rank (``turn.declaring_now``); then
each action in resolution order (``turn.next_timing``: the rank, the end of
the turn). Before an attack is resolved its target's tactic may
react (announce a defence by aborting). The fight ends when one side
or none is left with a fighter in the fight — not out of the fight
(``Fighter.out_of_fight``: incapacitated, torpor, dead, unconscious) and not
fled (a fighter whose tactic is fleeing, farther than the escape distance from
every enemy still standing) —
or when the turn limit is reached (a draw).

The tactics choose among what the rules allow, from the legal command
templates (``legal_commands``): a fighter locked in a grapple declares one of
the kinds its ``declare`` template offers (the lock's own), Celerity goes as
far as that template's range (dots, and blood to pay for them), a defence by
aborting is announced only when the fighter's ``defend`` template offers it,
getting up only when ``get_up`` is there. Every tactic picks the fighter's
weapon the same way:

* a ranged weapon with rounds in it (or one that counts none, a bow), the
  target within its maximum range: ``shoot``;
* an empty ranged weapon and no enemy within 2 m: ``reload``;
* otherwise close combat: claws when the fighter has the power, its
  melee weapon (``weapon_strike``), else a punch; a target out
  of reach is closed in with the action's ``move_to`` (half the
  running distance first), or by a whole ``move`` when even that is short;
* a vampire with Celerity adds its dots as extra close attacks on the same
  target, while its blood lasts (option ``celerity: false`` turns
  that off).

When its action comes due, a tactic gives it up (``pass``) if the declared
target has fallen or is out of reach: no finishing blows on a fighter already
out of the fight. The tactics (name: what it does; options of the ``sides``
entry):

``nearest``
    attack the nearest enemy still in the fight.
``weakest``
    attack the enemy with the fewest health levels left (then the nearest).
``cover``
    take cover first (``cover``: the level, 1–3, default 2; ``spots``: a list
    of ``[x, y]`` positions to run to, the nearest reachable one is taken;
    none: the fighter takes cover where it stands), then shoot from there
    without leaving it; close combat only against enemies that come within
    reach.
``aim``
    aim at the nearest enemy (``aim_turns``, default 1), then shoot the
    one aimed at; shoots at once when it cannot aim (the target is running,
    an enemy is within 2 m) or should not (the target has no ranged weapon:
    it will charge, and a fighter running this turn cannot be aimed at).
``dodge``
    attack the nearest; once hurt (``hurt``: health levels marked, default
    2, the first level with a wound penalty) declare a full-defence dodge
    while an enemy can reach it, and, attacked before its action,
    abort it for a dodge with a Willpower point.
``flee``
    attack the nearest; once badly hurt (``flee``: health levels marked,
    default 3, Injured) run away from the enemies, until it is
    farther than the escape distance from all of them (fled).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from conteur.engine import Command, CommandTemplate
from conteur.engine.geometry import Position, distance, move_toward
from conteur.i18n import ConteurError
from conteur.sim.referee import Bout, EscapeReferee
from conteur.sim.tactics import TacticFactory

from . import defence, equipment, locks, turn
from .actions import REACHLESS, check_now, resolve_goal, running_distance, validate
from .conditions import Aiming, KnockedDown
from .legal import declare_template, legal_commands
from .ranged import (
    is_shot,
    maneuver_or_none,
    rounds_of,
    rounds_used,
    tracks_ammo,
)
from .state import DEFENSIVE, Action, Fighter, VtmState
from .tables import Weapon

CLOSE_RANGE = 2.0
"""Metres within which an enemy is "in close combat" (the multiple-opponents rule's 2 m)."""

INITIATIVE = Command("initiative")

# ------------------------------------------------------------------ reading the state


def in_fight(f: Fighter) -> bool:
    """Able to act: not incapacitated, in torpor, dead or unconscious."""
    return not f.out_of_fight


def foes(state: VtmState, f: Fighter) -> list[Fighter]:
    """The enemies of ``f`` still in the fight, in the scenario's order."""
    return [o for o in state.fighters.values() if o.side != f.side and not o.out_of_fight]


def nearest(state: VtmState, f: Fighter, among: list[Fighter]) -> Fighter:
    """The closest of ``among`` (the first listed on a tie)."""
    return min(among, key=lambda o: distance(f.position, o.position))


def levels_left(f: Fighter) -> int:
    """Health levels still unmarked."""
    return len(f.health.boxes) - f.health.filled


def template(state: VtmState, f: Fighter, kind: str) -> CommandTemplate | None:
    """The legal command of type ``kind`` for ``f`` now, if there is one."""
    return next((c for c in legal_commands(state, f.id) if c.type == kind), None)


def ranged_weapon(state: VtmState, f: Fighter) -> Weapon | None:
    """The fighter's firearm (or bow, or thrown weapon): the one in hand first, else the
    first the sheet lists (asked at every declaration: one pass, no lists)."""
    first = None
    for wid in f.sheet.weapons:  # ``equipment.owned_weapons(f)``, without the copy
        w = equipment.weapon(state, wid)
        if w.category in ("ranged", "thrown"):
            if w.id == f.weapon:
                return w
            if first is None:
                first = w
    return first


def loaded(f: Fighter, w: Weapon) -> bool:
    """The weapon can fire now (rounds in the clip, or it counts none)."""
    return not tracks_ammo(w) or rounds_of(f, w) > 0


def shot_kind(w: Weapon) -> str:
    return "throw" if w.category == "thrown" else "shoot"


def close_attack(state: VtmState, f: Fighter, target: Fighter) -> tuple[dict[str, Any], float]:
    """The close-combat attack ``f`` would make on ``target``, and its reach in metres."""
    if any(p in f.sheet.powers for p in equipment.maneuver(state, "claws").requires.powers):
        return {"kind": "claws", "target": target.id}, 1.0
    melee = next(
        (
            w
            for w in (equipment.weapon(state, x) for x in equipment.owned_weapons(f))
            if w.category == "melee"
        ),
        None,
    )
    if melee is not None:
        reach = 1.0 if equipment.outreached(state, melee, target) else CLOSE_RANGE
        return {"kind": "weapon_strike", "target": target.id, "weapon": melee.id}, reach
    reach = 1.0
    return {"kind": "punch", "target": target.id}, reach


def hurt_levels(f: Fighter) -> int:
    return f.health.filled


# ------------------------------------------------------------------ the tactics


class VtmTactic:
    """Attack the nearest enemy still in the fight."""

    name: ClassVar[str] = "nearest"
    options: ClassVar[dict[str, Callable[[Any], Any]]] = {"celerity": bool}
    """The options it reads, each with its type; a class attribute of that name is its
    default, which an option given sets on the instance."""
    celerity: bool = True

    def __init__(self, options: Mapping[str, Any]) -> None:
        for key, value in options.items():
            if key not in self.options:
                raise ConteurError(
                    "sim.tactic.option",
                    tactic=self.name,
                    option=key,
                    known=", ".join(sorted(self.options)) or "—",
                )
            try:
                setattr(self, key, self.options[key](value))
            except (TypeError, ValueError):
                raise ConteurError(
                    "sim.tactic.option_value", tactic=self.name, option=key, value=str(value)
                ) from None

    # --- the three moments ---------------------------------------------------

    def declare(self, state: VtmState, fighter: Fighter) -> Command:
        """Build the declaration from ``plan`` and the ``declare`` template's ranges."""
        if fighter.conditions.of(KnockedDown):
            return declaration(fighter, [{"kind": "stand_up"}])
        args = self.plan(state, fighter)
        actions: list[dict[str, Any]] = list(args.get("actions", []))
        if locks.lock_of(state, fighter) is not None:
            # Locked in a grapple or hold: only the lock's own actions.
            tpl = declare_template(state, fighter)
            kinds = tpl.param("kind").choices
        else:
            kinds = tuple(a["kind"] for a in actions)
        # The template's Celerity range (declare_template): dots, as far as blood allows.
        celerity = min(fighter.trait("celerity"), fighter.blood)
        if actions and any(a["kind"] not in kinds for a in actions):
            allowed = [k for k in ("break_free", "release", "other") if k in kinds]
            return declaration(fighter, [{"kind": allowed[0] if allowed else "other"}])
        if (
            self.celerity
            and celerity
            and len(actions) == 1
            and actions[0]["kind"] in ("claws", "punch", "weapon_strike")
        ):
            extra = {k: v for k, v in actions[0].items() if k != "move_to"}
            args = {**args, "actions": actions + [extra] * celerity, "celerity": celerity}
        return Command("declare", fighter.id, args)

    def act(self, state: VtmState, fighter: Fighter) -> Command:
        """Carry out the declared action if it still can be, else give it up."""
        due = turn.next_timing(state, fighter.id)
        decl = fighter.progress.declaration
        if due is None or decl is None:
            return Command("pass", fighter.id)
        action = decl.actions[due[0]]
        return Command("act" if feasible(state, fighter, action) else "pass", fighter.id)

    def react(self, state: VtmState, fighter: Fighter) -> Command | None:
        """Between turns, a knocked-down fighter tries to get up."""
        if (
            state.phase == "setup"
            and fighter.conditions.of(KnockedDown)
            and template(state, fighter, "get_up") is not None
        ):
            return Command("get_up", fighter.id)
        return None

    def fleeing(self, state: VtmState, fighter: Fighter) -> bool:
        """Whether the fighter is running away (only ``flee`` ever does)."""
        return False

    # --- choosing ------------------------------------------------------------

    def target(self, state: VtmState, fighter: Fighter, among: list[Fighter]) -> Fighter:
        """The enemy to attack: the nearest."""
        return nearest(state, fighter, among)

    def plan(self, state: VtmState, fighter: Fighter) -> dict[str, Any]:
        """The declaration's arguments: an attack on ``target``, or nothing to do."""
        among = foes(state, fighter)
        if not among:
            return {"actions": [{"kind": "other"}]}
        return {"actions": [self.attack(state, fighter, self.target(state, fighter, among))]}

    def attack(
        self, state: VtmState, fighter: Fighter, target: Fighter, *, stay: bool = False
    ) -> dict[str, Any]:
        """The action that attacks ``target``: shoot, reload, or close in and strike.

        ``stay``: never move (a fighter keeping its cover) — a close target out
        of reach is shot at or waited for.
        """
        metres = distance(fighter.position, target.position)
        gun = ranged_weapon(state, fighter)
        if gun is not None and loaded(fighter, gun):
            if equipment.tables(state).range_band(metres, gun) is not None:
                return {"kind": shot_kind(gun), "target": target.id, "weapon": gun.id}
        elif gun is not None and gun.clip:
            pressed = any(
                distance(fighter.position, o.position) <= CLOSE_RANGE for o in foes(state, fighter)
            )
            if not pressed:
                return {"kind": "reload", "weapon": gun.id}
        strike, reach = close_attack(state, fighter, target)
        if metres <= reach + 1e-9:
            return strike
        if stay:
            return {"kind": "other"}
        if metres - reach <= running_distance(state, fighter) / 2:
            return {**strike, "move_to": target.id}
        return {"kind": "move", "target": target.id}


def declaration(fighter: Fighter, actions: list[dict[str, Any]]) -> Command:
    return Command("declare", fighter.id, {"actions": actions})


def feasible(state: VtmState, f: Fighter, a: Action) -> bool:
    """Whether the declared action ``a`` can be carried out now, checked with the rules' own
    functions (``check_now``: ``validate`` and the reach; the clip) — the command is then
    never refused, and its own ``check_now`` finds the verdict kept on the same state.

    An attack on a fighter already out of the fight is not carried out (a tactic's choice).
    """
    try:
        check_now(state, f, a)
    except ConteurError:
        return False
    m = maneuver_or_none(state, a.kind)
    if m is None or a.target is None or not equipment.is_attack(m):
        return True
    target = state.fighters[a.target]
    if target.out_of_fight:
        return False
    if is_shot(m):
        w = equipment.weapon_for(state, f, a)
        if w is None:
            return False
        try:
            rounds_used(m, w, f, rounds_of(f, w))
        except ConteurError:
            return False
    if (
        a.target != f.id
        and a.kind not in DEFENSIVE
        and m.id not in REACHLESS
        and not m.effect("move")
    ):
        return True  # the target's reach from where it strikes: checked by ``check_now``
    here = state
    goal = a.param("move_to")
    if goal is not None:
        end = move_toward(f.position, resolve_goal(state, goal, f), running_distance(state, f) / 2)
        moved = dataclasses.replace(f, position=end)
        here = dataclasses.replace(state, fighters={**state.fighters, f.id: moved})
        f = moved
    try:
        equipment.check_reach(here, f, here.fighters[a.target], a)
    except ConteurError:
        return False
    return True


class Nearest(VtmTactic):
    """Attack the nearest enemy still in the fight."""


class Weakest(VtmTactic):
    """Attack the enemy with the fewest health levels left, then the nearest."""

    name = "weakest"

    def target(self, state: VtmState, fighter: Fighter, among: list[Fighter]) -> Fighter:
        return min(among, key=lambda o: (levels_left(o), distance(fighter.position, o.position)))


class Cover(VtmTactic):
    """Take cover (a spot to run to, or where it stands), then shoot from it."""

    name = "cover"
    options: ClassVar[dict[str, Callable[[Any], Any]]] = {
        **VtmTactic.options,
        "cover": int,
        "spots": list,
    }

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.cover = 2
        self.spots: list[Any] = []
        super().__init__(options)
        if self.cover not in (1, 2, 3):
            raise ConteurError(
                "sim.tactic.option_value", tactic=self.name, option="cover", value=str(self.cover)
            )
        try:
            self.positions = [(float(p[0]), float(p[1])) for p in self.spots]
        except (TypeError, ValueError, IndexError):
            raise ConteurError(
                "sim.tactic.option_value", tactic=self.name, option="spots", value=str(self.spots)
            ) from None

    def plan(self, state: VtmState, fighter: Fighter) -> dict[str, Any]:
        among = foes(state, fighter)
        if not among:
            return {"actions": [{"kind": "other"}]}
        target = self.target(state, fighter, among)
        gun = ranged_weapon(state, fighter)
        pressed = distance(fighter.position, target.position) <= CLOSE_RANGE
        if gun is None or pressed:
            return {"actions": [self.attack(state, fighter, target)]}
        if fighter.cover < self.cover:
            return {"actions": [self.take_cover(state, fighter)]}
        return {"actions": [self.attack(state, fighter, target, stay=True)]}

    def take_cover(self, state: VtmState, fighter: Fighter) -> dict[str, Any]:
        """Run to the nearest free spot within a run, or take cover where it stands."""
        run = running_distance(state, fighter)
        taken = {f.position for f in state.fighters.values() if f.id != fighter.id}
        spots = [
            p for p in self.positions if p not in taken and distance(fighter.position, p) <= run
        ]
        here: Position = fighter.position
        spot = min(spots, key=lambda p: distance(here, p)) if spots else here
        return {"kind": "move", "to": [spot[0], spot[1]], "cover": self.cover}


class Aim(VtmTactic):
    """Aim at the nearest enemy, then shoot the one aimed at."""

    name = "aim"
    options: ClassVar[dict[str, Callable[[Any], Any]]] = {**VtmTactic.options, "aim_turns": int}
    aim_turns: int = 1

    def plan(self, state: VtmState, fighter: Fighter) -> dict[str, Any]:
        among = foes(state, fighter)
        if not among:
            return {"actions": [{"kind": "other"}]}
        gun = ranged_weapon(state, fighter)
        pressed = any(distance(fighter.position, o.position) <= CLOSE_RANGE for o in among)
        if gun is None or not loaded(fighter, gun) or pressed:
            return super().plan(state, fighter)
        held = fighter.conditions.of(Aiming)
        aimed = None
        if held is not None and held.last == state.turn - 1:
            aimed = next((o for o in among if o.id == held.target), None)
        target = aimed or self.target(state, fighter, among)
        shot = self.attack(state, fighter, target)
        if aimed is not None and held is not None and held.turns >= self.aim_turns:
            return {"actions": [shot]}
        if shot["kind"] not in ("shoot", "throw") or ranged_weapon(state, target) is None:
            return {"actions": [shot]}  # a charging enemy runs: a running target cannot be aimed at
        aim = Action("aim", target.id, gun.id)
        try:
            validate(state, fighter, aim)
        except ConteurError:
            return {"actions": [shot]}
        return {"actions": [{"kind": "aim", "target": target.id, "weapon": gun.id}]}


class Dodge(VtmTactic):
    """Attack the nearest; once hurt, dodge: full defence, or abort to dodge when attacked."""

    name = "dodge"
    options: ClassVar[dict[str, Callable[[Any], Any]]] = {**VtmTactic.options, "hurt": int}
    hurt: int = 2

    def is_hurt(self, fighter: Fighter) -> bool:
        return hurt_levels(fighter) >= self.hurt

    def plan(self, state: VtmState, fighter: Fighter) -> dict[str, Any]:
        among = foes(state, fighter)
        if among and self.is_hurt(fighter) and threatened(state, fighter, among):
            return {"full_defense": "dodge"}
        return super().plan(state, fighter)

    def react(self, state: VtmState, fighter: Fighter) -> Command | None:
        if state.phase == "setup":
            return super().react(state, fighter)
        if not self.is_hurt(fighter) or fighter.willpower < 1:
            return None
        ready, _ = defence.available_defence(fighter)
        if ready is not None:
            return None
        tpl = template(state, fighter, "defend")
        if tpl is None or "dodge" not in tpl.param("kind").choices:
            return None
        args: dict[str, Any] = {"kind": "dodge"}
        if any(p.name == "abort" for p in tpl.params):
            args["abort"] = "point"
        return Command("defend", fighter.id, args)


def threatened(state: VtmState, fighter: Fighter, among: list[Fighter]) -> bool:
    """Some enemy can hit it this turn: a loaded gun in range, or close enough to strike."""
    for o in among:
        metres = distance(fighter.position, o.position)
        gun = ranged_weapon(state, o)
        if (
            gun is not None
            and loaded(o, gun)
            and equipment.tables(state).range_band(metres, gun) is not None
        ):
            return True
        if metres <= running_distance(state, o) / 2 + CLOSE_RANGE:
            return True
    return False


class Flee(VtmTactic):
    """Attack the nearest; once badly hurt, run away from the enemies."""

    name = "flee"
    options: ClassVar[dict[str, Callable[[Any], Any]]] = {**VtmTactic.options, "flee": int}
    flee: int = 3

    def fleeing(self, state: VtmState, fighter: Fighter) -> bool:
        return hurt_levels(fighter) >= self.flee

    def plan(self, state: VtmState, fighter: Fighter) -> dict[str, Any]:
        among = foes(state, fighter)
        if among and self.fleeing(state, fighter):
            return {"actions": [{"kind": "move", "to": away(state, fighter, among)}]}
        return super().plan(state, fighter)


def away(state: VtmState, fighter: Fighter, among: list[Fighter]) -> list[float]:
    """A point a full run away from the enemies' centre (straight on along x when on it)."""
    cx = sum(o.position[0] for o in among) / len(among)
    cy = sum(o.position[1] for o in among) / len(among)
    dx, dy = fighter.position[0] - cx, fighter.position[1] - cy
    norm = math.hypot(dx, dy)
    if norm < 1e-9:
        dx, dy, norm = -1.0, 0.0, 1.0
    run = running_distance(state, fighter)
    return [fighter.position[0] + dx / norm * run, fighter.position[1] + dy / norm * run]


# ------------------------------------------------------------------ the referee


class VtmReferee(EscapeReferee):
    """Runs a vtm encounter turn by turn with the sides' tactics (see the module's text)."""

    max_steps = 20_000
    """Commands in one fight before it is stopped as an error (a tactic that loops)."""

    def run(self, bout: Bout) -> None:
        encounter, dice, tactics = bout.encounter, bout.dice, bout.tactics
        execute = encounter.execute
        for _ in range(self.max_steps):
            state: VtmState = encounter.state
            phase = state.phase
            if phase == "setup":
                if len(self.standing(state, bout)) < 2 or state.turn >= bout.max_turns:
                    return
                for f in list(state.fighters.values()):
                    if not f.out_of_fight:
                        cmd = tactics[f.side].react(state, f)
                        if cmd is not None:
                            execute(cmd, dice)
                execute(INITIATIVE, dice)
            elif phase == "declaration":
                for fid in turn.declaring_now(state):
                    f = state.fighters[fid]
                    execute(tactics[f.side].declare(state, f), dice)
            elif phase in ("resolution", "end_of_turn"):
                due = due_now(state)
                if due is None:
                    raise ConteurError("sim.stuck", turn=state.turn, phase=phase)
                f = state.fighters[due]
                cmd = tactics[f.side].act(state, f)
                if cmd.type == "act":
                    self.before_attack(bout, state, f)
                execute(cmd, dice)
                if self.decided(encounter.state, bout):
                    return
            else:
                return
        raise ConteurError("sim.stuck", turn=encounter.state.turn, phase=encounter.state.phase)

    def before_attack(self, bout: Bout, state: VtmState, f: Fighter) -> None:
        """The target of the attack about to be made may react (a defence)."""
        due = turn.next_timing(state, f.id)
        decl = f.progress.declaration
        if due is None or decl is None:
            return
        action = decl.actions[due[0]]
        if action.target is None or action.target not in state.fighters:
            return
        target = state.fighters[action.target]
        if target.side == f.side or target.out_of_fight:
            return
        m = maneuver_or_none(state, action.kind)
        if m is None or not equipment.is_attack(m):
            return
        cmd = bout.tactics[target.side].react(state, target)
        if cmd is not None:
            bout.encounter.execute(cmd, bout.dice)

    def able(self, state: VtmState) -> list[Fighter]:
        return [f for f in state.fighters.values() if not f.out_of_fight]

    def standing(self, state: VtmState, bout: Bout) -> dict[str, list[str]]:
        """Fighters still in the fight by side: able, and not fled."""
        return self.able_standing(state, bout)

    def fate(self, state: VtmState, f: Fighter, bout: Bout) -> str:
        """The fighter's fate at the end (``referee.FATES``)."""
        if f.out_of_fight:
            fate = f.fate
            return "incapacitated" if fate == "alive" else fate  # unconscious
        enemies = [o for o in state.fighters.values() if o.side != f.side and not o.out_of_fight]
        return "fled" if self.fled(state, f, enemies, bout) else "alive"


def due_now(state: VtmState) -> str | None:
    """The fighter whose action is due: the current rank first, then the end of the turn,
    then a delayed fighter waiting."""
    rank = turn.due_at_rank(state)
    if rank:
        return rank[0]
    end = turn.due_at_end(state)
    if end is not None:
        return end
    delayed = turn.waiting(state)
    return delayed[0] if delayed else None


REFEREE = VtmReferee()
"""The referee of this ruleset's simulated fights (``Ruleset.referee()``)."""

TACTICS: dict[str, TacticFactory] = {
    "nearest": Nearest,
    "weakest": Weakest,
    "cover": Cover,
    "aim": Aim,
    "dodge": Dodge,
    "flee": Flee,
}
"""This ruleset's tactics by name (``Ruleset.tactics()``)."""

__all__ = [
    "REFEREE",
    "TACTICS",
    "Aim",
    "Cover",
    "Dodge",
    "Flee",
    "Nearest",
    "VtmReferee",
    "VtmTactic",
    "Weakest",
    "feasible",
]
