"""Defensive maneuvers: block, dodge, parry (V-DEF-1..9, V-INI-6, V-MAN-3).

A defence is *ready* when the fighter declared it at initiative (a turn of
defence only, V-DEF-7, or one action of a multiple action, V-DEF-8), or
announced it during the turn, before the attack roll, with an action left
(V-DEF-1, V-INI-6): its delayed action, or the declared action dropped by a
Willpower point or roll (V-MAN-3). The next attack on the fighter meets it:
a resisted roll against the attack roll (V-DEF-2, ``strike.roll_strike``).

Reading of V-DEF-1 / V-INI-6: every action is declared at initiative, so
"an action left" that becomes a defence without more ado is a delayed one;
turning a declared action into a defence is aborting it (V-MAN-3), which
needs a Willpower point or roll and is open only to a fighter who has not
acted yet.

Which defence is ready and what using it costs: ``readiness.py``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from conteur.engine import Command, Event, Resolution
from conteur.i18n import ConteurError, Msg

from . import equipment
from .asks import willpower_roll
from .conditions import HeldBy, Holding, NoRoom, OffBalance
from .defence_events import DefenceBarred
from .events import (
    AbortFailed,
    DefenceAnnounced,
    DefenceRolled,
    ModifiersUsed,
    RollMade,
    WillpowerSpent,
)
from .hooks import AttackDraft, reads_effect, validator
from .locks import lock_refusal
from .modifiers import opponents_penalty
from .readiness import (
    PER_TURN,
    available_defence,
    gm_modifiers,
    multiple_actions_count,
    multiple_penalty_of_defence,
)
from .soak import soak_pool
from .state import DEFENSIVE, Action, Fighter, VtmState
from .strike import Defence, Riposte
from .turn import advance

RULE = {"block": "V-DEF-3", "dodge": "V-DEF-4", "parry": "V-DEF-5"}
DIFFICULTY = 6

__all__ = [
    "DefenceOffer",
    "announce",
    "available_defence",
    "defence_kind_refusal",
    "defence_offer",
    "defences_allowed",
    "ready_defence",
    "why_not",
]


@reads_effect("needs_room", "block_limit")
def why_not(state: VtmState, d: AttackDraft, kind: str) -> str | None:
    """The rule that forbids this defence against this attack, if one does (V-DEF-3..6).

    * V-DEF-6 / V-DEF-4: no dodge without room to move in close combat (the
      ``no_room`` condition); against gunfire the dodger drops prone instead;
    * V-DEF-6: no parry of an attack not seen coming (from behind, or
      ``unseen``);
    * V-DEF-5: parry needs a melee weapon in hand and a close attack;
    * V-DEF-3: block only close attacks; lethal and aggravated only with
      Fortitude or armour.

    The defence maneuver's effects say which apply: ``needs_room`` (the dodge's),
    ``block_limit`` (the block's).
    """
    target = d.target
    m = equipment.maneuver(state, kind)
    if m.effect("needs_room") is not None and d.close and target.conditions.of(NoRoom):
        return "V-DEF-6"
    if kind == "parry":
        if d.action.param("angle") == "behind" or d.action.param("unseen"):
            return "V-DEF-6"
        if (
            d.ranged
            or equipment.weapon_category(equipment.weapon_in_hand(state, target)) != "melee"
        ):
            return "V-DEF-5"
    if m.effect("block_limit") is not None:
        if d.ranged:
            return "V-DEF-3"
        _, _, dtype, _ = equipment.damage_of(state, d)
        if dtype != "bashing" and not (
            target.trait("fortitude") or equipment.armour_of(state, target) is not None
        ):
            return "V-DEF-3"
    return None


def surprised(state: VtmState, d: AttackDraft) -> bool:
    """V-MAN-7: the target of an ambush the attacker won outright has no defence."""
    amb = state.ambush
    return bool(
        amb
        and amb.get("attacker") == d.attacker.id
        and amb.get("target") == d.target.id
        and int(amb.get("extra", 0)) > 0
    )


@reads_effect("dodge_difficulty", "parry_riposte")
@reads_effect("full_defense", needs=("value",), of="full_defense")
def ready_defence(ctx: Resolution, d: AttackDraft) -> Defence | None:
    """The target's block, dodge or parry against this attack, with its pool and difficulty."""
    state: VtmState = ctx.state
    target = d.target
    if target.out_of_fight or HeldBy.key in target.conditions or Holding.key in target.conditions:
        return None
    if surprised(state, d):
        return None
    kind, source = available_defence(target)
    if kind is None:
        return None
    barred = why_not(state, d, kind)
    if barred is not None:
        ctx.emit(
            DefenceBarred(defender=target.id, kind=kind, attacker=d.attacker.id, rules=(barred,))
        )
        return None
    m = equipment.maneuver(state, kind)
    wounds = target.penalty
    parts = [(t, target.trait(t)) for t in equipment.maneuver_traits(m)[0]]  # Dex + Dodge...
    pool = wounds + sum(rating for _, rating in parts)
    parts.append(("wounds", wounds))
    rules = [RULE[kind], "V-DEF-1"]
    if source == "full_defense":
        full = equipment.maneuver(state, "full_defense").effect("full_defense")
        if full is not None:
            fewer = target.progress.defences * int(full.value or 0)
            pool -= fewer  # V-DEF-7: ``value`` die fewer for each following defence
            parts.append(("following_defence", -fewer))
            rules.append("V-DEF-7")
    penalty = multiple_penalty_of_defence(target, source)
    if penalty and multiple_actions_count(state):
        pool -= penalty  # V-MAN-1 / V-DEF-8: one of the actions of a multiple action
        parts.append(("multiple_actions", -penalty))
        rules.extend(["V-MAN-1", "V-DEF-8"])
    if source in ("abort_point", "abort_roll"):
        rules.append("V-MAN-3")
    elif source == "delayed":
        rules.append("V-INI-6")
    armour = equipment.armour_of(state, target)
    if armour is not None:
        pool -= armour.penalty  # V-ARM-2
        parts.append(("armour", -armour.penalty))
    difficulty = DIFFICULTY
    if d.close:
        extra = opponents_penalty(state, target.id)
        if extra:
            difficulty += extra  # V-DEF-9 / V-CC-11
            rules.append("V-DEF-9")
    harder = d.maneuver.effect("dodge_difficulty") if kind == "dodge" else None
    if harder is not None and harder.difficulty:
        difficulty += harder.difficulty  # V-RNG-2: dodging a spray
        rules.append("V-RNG-2")
    if (off := target.conditions.of(OffBalance)) and off.turn == state.turn:
        difficulty += 1  # V-CC-12
        rules.append("V-CC-12")
    gm_dice, gm_difficulty, _ = gm_modifiers(state, target.id)
    pool += gm_dice
    parts.append(("gm", gm_dice))
    difficulty += gm_difficulty
    riposte = None
    if m.effect("parry_riposte") is not None and d.weapon is None:
        weapon = equipment.weapon_in_hand(state, target)
        dice, dtype = equipment.melee_damage(state, target, weapon)
        if dtype == "lethal":
            riposte = Riposte(dice, dtype, soak_pool(d.attacker, dtype, "weapon", state))
    return Defence(
        defender=target.id,
        kind=kind,
        pool=max(pool, 0),
        difficulty=difficulty,
        riposte=riposte,
        rules=tuple(rules),
        parts=tuple(parts),
    )


def defence_rolled(ctx: Resolution, defence: Defence | None, events: Iterable[Event]) -> None:
    """After the strike: the defender's pending GM modifiers are used if its dice were rolled."""
    if defence is None or not ctx.state.pending_modifiers.get(defence.defender):
        return
    if any(isinstance(e, DefenceRolled) and e.rolls for e in events):
        ctx.emit(ModifiersUsed(fighter=defence.defender))


# ------------------------------------------------------------------ announcing


@dataclass(frozen=True)
class DefenceOffer:
    """How a fighter may announce a defence now (V-DEF-1): where it comes from (``via``:
    ``full_defense``, ``declared``, ``delayed``, or ``abort`` — its declared action dropped
    for it), the rule that allows it, and the ways it may pay to abort (V-MAN-3)."""

    via: str
    rule: str
    ways: tuple[str, ...] = ()


def defence_offer(state: VtmState, f: Fighter) -> DefenceOffer | ConteurError:
    """Whether ``f`` may announce a defence now, and how, or why not: in the resolution,
    still in the fight, its defence not announced yet (V-DEF-1); a turn of defence or a
    declared defence only picks its kind (V-DEF-7, V-DEF-8); a delayed action becomes it
    (V-INI-6); a declared action is dropped for it only by a fighter who has not acted and
    has not failed to abort already (V-MAN-3). ``announce`` and the ``defend`` template
    both ask it."""
    if state.phase not in ("resolution", "end_of_turn"):
        return ConteurError("vtm.defend.not_now", rule="V-DEF-1", phase=state.phase)
    if f.out_of_fight:
        return ConteurError("vtm.out_of_fight", rule="V-DMG-5", fighter=f.name)
    ready, source = available_defence(f)
    if ready is not None and source not in PER_TURN:
        return ConteurError("vtm.defend.already", rule="V-DEF-1", fighter=f.name, kind=ready)
    if source == "full_defense":
        return DefenceOffer("full_defense", "V-DEF-7")
    if source == "declared":
        return DefenceOffer("declared", "V-DEF-8")
    timings = [t for _, t in f.progress.pending]
    if "delayed" in timings:
        return DefenceOffer("delayed", "V-INI-6")
    if not any(t in ("rank", "end") for t in timings):
        return ConteurError("vtm.defend.no_action", rule="V-INI-6", fighter=f.name)
    if f.progress.acted:
        return ConteurError("vtm.abort.already_acted", rule="V-MAN-3", fighter=f.name)
    if f.progress.abort_failed:
        return ConteurError("vtm.abort.failed_before", rule="V-MAN-3", fighter=f.name)
    return DefenceOffer("abort", "V-MAN-3", abort_ways(f))


def abort_ways(f: Fighter) -> tuple[str, ...]:
    """V-MAN-3: a Willpower point (while one is left) or a Willpower roll."""
    return ("point", "roll") if f.willpower >= 1 else ("roll",)


def defence_kind_refusal(state: VtmState, f: Fighter, kind: str) -> ConteurError | None:
    """Why ``f`` may not defend with ``kind`` now, if it may not: a block, dodge or parry
    (V-DEF-1); nothing but the lock's own actions while locked (V-CC-7, V-CC-8)."""
    if kind not in DEFENSIVE:
        return ConteurError("vtm.declare.bad_defence", rule="V-DEF-1", kind=kind)
    return lock_refusal(state, f, Action(kind))


def defence_in_hand_refusal(state: VtmState, f: Fighter, kind: str) -> ConteurError | None:
    """V-DEF-5: a parry announced during the turn needs a melee weapon in hand."""
    return parry_refusal(state, f, kind, in_hand=True)


def defences_allowed(state: VtmState, f: Fighter) -> tuple[str, ...]:
    """The defences ``f`` could announce now, if it may announce one (``defence_offer``)."""
    return tuple(
        k
        for k in DEFENSIVE
        if defence_kind_refusal(state, f, k) is None
        and defence_in_hand_refusal(state, f, k) is None
    )


def parry_refusal(
    state: VtmState, f: Fighter, kind: str, in_hand: bool = False
) -> ConteurError | None:
    """A defence that can never work: parry without a melee weapon (V-DEF-5).

    Declared at initiative, a carried melee weapon is enough (it may be
    drawn); announced during the turn, it must be in hand. Room to dodge and
    seeing the blow come depend on the attack (``why_not``).
    """
    if kind != "parry":
        return None
    if in_hand:
        weapons = [equipment.weapon_in_hand(state, f)]
    else:
        weapons = [equipment.weapon(state, w) for w in equipment.owned_weapons(f)]
        weapons.append(equipment.weapon_in_hand(state, f))
    if not any(equipment.weapon_category(w) == "melee" for w in weapons if w is not None):
        return ConteurError("vtm.weapon.none_melee", rule="V-DEF-5", fighter=f.name)
    return None


def check_defence(state: VtmState, f: Fighter, a: Action, in_hand: bool = False) -> None:
    """Refuse a defence that can never work (``parry_refusal``)."""
    refused = parry_refusal(state, f, a.kind, in_hand)
    if refused is not None:
        raise refused


@validator(*DEFENSIVE)
def _declared_defence(state: VtmState, f: Fighter, a: Action) -> None:
    """V-DEF-1: a defence declared at initiative (V-DEF-7, V-DEF-8)."""
    check_defence(state, f, a)


ANNOUNCED = {
    "full_defense": ("V-DEF-1", "V-DEF-7"),
    "declared": ("V-DEF-1", "V-DEF-8"),
    "delayed": ("V-DEF-1", "V-INI-6", "V-INI-5"),
}
"""The rules a defence announced from each source applies (an abort's: ``abort``)."""


def announce(ctx: Resolution, command: Command) -> None:
    """A fighter announces a block, dodge or parry before the next attack on it (V-DEF-1).

    With a turn of defence or a declared defence it only picks which one
    (V-DEF-7, V-DEF-8); with a delayed action it spends it (V-INI-6);
    otherwise it aborts the declared action (V-MAN-3, ``abort``: ``point``
    or ``roll``), which only a fighter who has not acted yet may do. What is
    allowed is ``defence_offer``'s and ``defence_kind_refusal``'s, which the
    ``defend`` template offers.
    """
    state: VtmState = ctx.state
    f = state.fighters.get(command.actor or "")
    if f is None:
        raise ConteurError("vtm.unknown_fighter", name=command.actor or "")
    kind = str(command.get("kind", "dodge"))
    refused = defence_kind_refusal(state, f, kind)
    if refused is not None:
        raise refused
    offer = defence_offer(state, f)
    if isinstance(offer, ConteurError):
        raise offer
    refused = defence_in_hand_refusal(state, f, kind)
    if refused is not None:
        raise refused
    if offer.via in ANNOUNCED:
        ctx.emit(
            DefenceAnnounced(fighter=f.id, kind=kind, via=offer.via, rules=ANNOUNCED[offer.via])
        )
        if offer.via == "delayed":
            advance(ctx)
        return
    abort(ctx, f, kind, command.get("abort"))
    advance(ctx)  # the dropped action may have been the one due now


@reads_effect("abort", needs=("difficulty",), of="abort")
def abort(ctx: Resolution, f: Fighter, kind: str, how: object) -> None:
    """V-MAN-3: drop the declared action for a defence, by a Willpower point or roll.

    The point is spent at that moment (no need to declare it, V-INI-3); the
    roll is reflexive: Willpower at the ``abort`` effect's difficulty (6), no action, no
    wound penalty. A failed roll leaves the declared action, which must be carried
    out (no second try this turn).
    """
    if how in ("point", "willpower_point", "spend"):
        if f.willpower < 1:
            raise ConteurError("vtm.no_willpower", rule="V-MAN-3", fighter=f.name)
        ctx.emit(WillpowerSpent(fighter=f.id, amount=1, reason="abort", rules=("V-MAN-3",)))
        ctx.emit(
            DefenceAnnounced(
                fighter=f.id, kind=kind, via="abort_point", rules=("V-MAN-3", "V-DEF-1")
            )
        )
        return
    if how in ("roll", "willpower_roll"):
        effect = equipment.maneuver(ctx.state, "abort").effect("abort")
        assert effect is not None and effect.difficulty is not None  # (check_effects_read)
        difficulty = effect.difficulty
        record = willpower_roll(ctx, f, Msg("ask.test.abort"), difficulty)
        ctx.emit(
            RollMade(
                fighter=f.id,
                purpose="abort",
                pool=record.request.dice,
                difficulty=difficulty,
                successes=record.result.successes,
                rules=("V-MAN-3",),
                rolls=(record,),
            )
        )
        if record.result.successes > 0:
            ctx.emit(
                DefenceAnnounced(
                    fighter=f.id, kind=kind, via="abort_roll", rules=("V-MAN-3", "V-DEF-1")
                )
            )
        else:
            ctx.emit(AbortFailed(fighter=f.id, rules=("V-MAN-3",)))
        return
    raise ConteurError("vtm.abort.how", rule="V-MAN-3", fighter=f.name)
