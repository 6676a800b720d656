"""Defensive maneuvers: block, dodge, parry (V-DEF-1..9, V-INI-6, V-MAN-3).

A defence is *ready* when the fighter declared it (full defence, or one of
the actions of a multiple action), or announced it during the turn with an
action left: a delayed action, or by aborting the declared one with a
Willpower point or roll. The next attack on the fighter uses it.
"""

from __future__ import annotations

from conteur.dice import VtmPool
from conteur.engine import Command, Resolution
from conteur.i18n import ConteurError

from . import equipment
from .events import AbortFailed, DefenceAnnounced, RollMade, WillpowerSpent
from .hooks import AttackDraft
from .modifiers import close_opponents
from .state import DEFENSIVE, Fighter, VtmState
from .strike import Defence, Riposte

TRAITS = {
    "block": ("dexterity", "brawl"),
    "dodge": ("dexterity", "dodge"),
    "parry": ("dexterity", "melee"),
}
RULE = {"block": "V-DEF-3", "dodge": "V-DEF-4", "parry": "V-DEF-5"}


def available_defence(f: Fighter) -> tuple[str | None, str | None]:
    """The defence ``f`` holds ready, and where it comes from (None when it has none)."""
    if f.progress.ready_defence:
        return f.progress.ready_defence, "announced"
    decl = f.progress.declaration
    if decl is None:
        return None, None
    if decl.full_defense:
        return decl.full_defense, "full_defense"
    for index, timing in f.progress.pending:
        if timing == "defence":
            return decl.actions[index].kind, "declared"
    return None, None


def why_not(state: VtmState, d: AttackDraft, kind: str) -> str | None:
    """The rule that forbids this defence against this attack, if one does (V-DEF-3..6)."""
    target = d.target
    if kind == "dodge" and target.conditions.get("no_room"):
        return "V-DEF-6"
    if kind == "parry":
        if d.action.param("angle") == "behind" or d.action.param("unseen"):
            return "V-DEF-6"
        if (
            d.ranged
            or equipment.weapon_category(equipment.weapon_in_hand(state, target)) != "melee"
        ):
            return "V-DEF-5"
    if kind == "block":
        if d.ranged:
            return "V-DEF-3"
        _, _, dtype, _ = equipment.damage_of(state, d)
        if dtype != "bashing" and not (
            target.trait("fortitude") or equipment.armour_of(state, target) is not None
        ):
            return "V-DEF-3"
    return None


def ready_defence(ctx: Resolution, d: AttackDraft) -> Defence | None:
    """The target's block, dodge or parry against this attack, with its pool and difficulty."""
    state: VtmState = ctx.state
    target = d.target
    if target.out_of_fight or target.conditions.get("held_by") or target.conditions.get("holding"):
        return None
    kind, source = available_defence(target)
    if kind is None or why_not(state, d, kind) is not None:
        return None
    attribute, ability = TRAITS[kind]
    pool = target.trait(attribute) + target.trait(ability) + target.penalty
    rules = [RULE[kind], "V-DEF-1"]
    decl = target.progress.declaration
    if source == "full_defense":
        pool -= target.progress.defences  # V-DEF-7: one die fewer for each following defence
        rules.append("V-DEF-7")
    elif decl is not None and decl.multiple > 1 and source == "declared":
        pool -= decl.multiple + target.progress.acted  # V-MAN-1 / V-DEF-8
        rules.extend(["V-MAN-1", "V-DEF-8"])
    armour = equipment.armour_of(state, target)
    if armour is not None:
        pool -= armour.penalty  # V-ARM-2
    difficulty = 6
    if d.close:
        extra = min(4, max(0, close_opponents(state, target.id) - 1))
        if extra:
            difficulty += extra  # V-DEF-9 / V-CC-11
            rules.append("V-DEF-9")
    if kind == "dodge" and equipment.maneuver_id(d.maneuver) == "spray":
        difficulty += 1  # V-RNG-2
        rules.append("V-RNG-2")
    if target.conditions.get("off_balance_turn") == state.turn:
        difficulty += 1  # V-CC-12
        rules.append("V-CC-12")
    riposte = None
    if kind == "parry" and d.weapon is None:
        weapon = equipment.weapon_in_hand(state, target)
        dice, dtype = equipment.melee_damage(state, target, weapon)
        if dtype == "lethal":
            from .attack import soak_pool

            riposte = Riposte(dice, dtype, soak_pool(d.attacker, dtype, "weapon", state))
    return Defence(target.id, kind, max(pool, 0), difficulty, riposte, tuple(rules))


def announce(ctx: Resolution, command: Command) -> None:
    """A fighter announces a block, dodge or parry before the next attack on it (V-DEF-1)."""
    state: VtmState = ctx.state
    f = state.fighters.get(command.actor or "")
    if f is None:
        raise ConteurError("vtm.unknown_fighter", name=command.actor or "")
    kind = str(command.get("kind", "dodge"))
    if kind not in DEFENSIVE:
        raise ConteurError("vtm.declare.bad_defence", rule="V-DEF-1", kind=kind)
    if state.phase not in ("resolution", "end_of_turn"):
        raise ConteurError("vtm.defend.not_now", rule="V-DEF-1", phase=state.phase)
    if f.out_of_fight:
        raise ConteurError("vtm.out_of_fight", rule="V-DMG-5", fighter=f.name)
    ready, source = available_defence(f)
    if ready is not None and source == "announced":
        raise ConteurError("vtm.defend.already", rule="V-DEF-1", fighter=f.name, kind=ready)
    if source == "full_defense":
        ctx.emit(DefenceAnnounced(f.id, kind, "full_defense", rules=("V-DEF-7",)))
        return
    if source == "declared":
        ctx.emit(DefenceAnnounced(f.id, kind, "declared", rules=("V-DEF-1", "V-DEF-8")))
        return
    timings = [t for _, t in f.progress.pending]
    if "delayed" in timings:
        ctx.emit(DefenceAnnounced(f.id, kind, "delayed", rules=("V-INI-6", "V-INI-5")))
        return
    if not any(t in ("rank", "end") for t in timings):
        raise ConteurError("vtm.defend.no_action", rule="V-INI-6", fighter=f.name)
    if f.progress.acted:
        raise ConteurError("vtm.abort.already_acted", rule="V-MAN-3", fighter=f.name)
    abort(ctx, f, kind, command.get("abort"))


def abort(ctx: Resolution, f: Fighter, kind: str, how: object) -> None:
    """V-MAN-3: drop the declared action for a defence, by a Willpower point or roll."""
    if how in ("point", "willpower_point", "spend"):
        if f.willpower < 1:
            raise ConteurError("vtm.no_willpower", rule="V-MAN-3", fighter=f.name)
        ctx.emit(WillpowerSpent(f.id, 1, "abort", rules=("V-MAN-3",)))
        ctx.emit(DefenceAnnounced(f.id, kind, "abort_point", rules=("V-MAN-3", "V-DEF-1")))
        return
    if how in ("roll", "willpower_roll"):
        # A reflexive Willpower roll at difficulty 6: no action, no wound penalty.
        record = ctx.dice.roll(VtmPool(f.sheet.willpower, 6))
        ctx.emit(
            RollMade(
                f.id,
                "abort",
                record.request.dice,
                6,
                record.result.successes,
                rules=("V-MAN-3",),
                rolls=(record,),
            )
        )
        if record.result.successes > 0:
            ctx.emit(DefenceAnnounced(f.id, kind, "abort_roll", rules=("V-MAN-3", "V-DEF-1")))
        else:
            ctx.emit(AbortFailed(f.id, rules=("V-MAN-3",)))
        return
    raise ConteurError("vtm.abort.how", rule="V-MAN-3", fighter=f.name)
