"""Close combat: what the maneuver records (``data/maneuvers.yaml``) cannot say.

The close-combat maneuvers are data (V-CC-0): traits, difficulty, accuracy,
damage, requirements and effects, which a game master may change or extend
(``gm_maneuver``, or a table file under the scenario's ``tables:`` key). The
attack pipeline (``attack.py``) rolls them; the hooks here are named after the
effect types the records use, so a custom maneuver with the same effect gets
the same rule:

* ``knockdown_check`` (sweep V-CC-1, tackle V-CC-12): who fails its Dex +
  Athletics roll is knocked down and dazed (V-DMG-7);
* ``condition`` (tackle V-CC-12): off balance, +1 difficulty next turn;
* ``disarm`` (V-CC-6): damage successes above the target's Strength disarm
  it and do no damage; a botch offers the Conteur two complications;
* ``grapple`` (V-CC-7) and ``hold`` (V-CC-8): the two fighters are *locked*;
* ``feed`` (V-CC-10): the Kiss starts feeding.

Locks (V-CC-7, V-CC-8)
----------------------
A grapple or hold that hits locks holder and target together: the holder
gets the condition ``holding`` = ``{target, kind, turn}``, the target
``held_by`` = ``{holder, kind, turn}`` (and, for a hold, ``immobilised`` =
the holder's id: others attacking it gain 2 dice). Conditions are set by
events, so the lock survives turns, undo and replay. While locked, a fighter
may take only these actions (declared as usual; when the lock came after its
declaration, it names one in ``act`` in place of the declared action):

==================  ======================  ==========================================
action ``kind``     who                     what
==================  ======================  ==========================================
``grapple_damage``  both (grapple)          Strength damage automatically: no attack
                                            roll, Strength rolled as a damage pool
                                            (reading of V-CC-7), then soak as usual
``break_free``      both (grapple);         resisted Str + Brawl, actor first: more
                    the held one (hold)     successes than the other ends the lock
``release``         the holder              lets go, no roll
``bite``, ``kiss``  the holder              V-CC-10, from the turn after the lock
                                            (any maneuver whose ``requires.after``
                                            names the lock's kind)
==================  ======================  ==========================================

The target of these is always the other fighter of the lock (``target`` may
be left out). A held target of a hold has only ``break_free``: when its next
action comes and ``act`` names none, the escape roll is made in place of the
declared action (V-CC-8: "at that moment, both roll"). Every other action,
defences included, is refused with the lock's rule. A lock ends when one
breaks free, when the holder lets go, or when either is out of the fight.

Commands of this module
-----------------------
* ``get_up`` (actor): V-DMG-7, between turns a knocked-down fighter rolls
  Dex + Athletics to stand without spending an action; −2 initiative next turn.
* ``close_wound`` (actor): V-CC-10, after the Kiss the vampire closes the wound.
* ``gm_disarm_botch`` (``fighter``, ``outcome``: ``disarmed`` | ``struck``):
  V-CC-6, the Conteur's choice after a botched disarm.

Action parameters read here: ``bypass_armour: true`` with a small or precise
target (``targeting`` or ``location``): the called shot slips past the
armour (V-MAN-8).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from conteur.engine import Command, CommandTemplate, Event, Param, Resolution
from conteur.i18n import ConteurError

from . import equipment, hooks
from .actions import fighter
from .asks import test_ask, word
from .attack import dazed_by_damage, draft_attack, strike_for
from .conditions import (
    DisarmBotch,
    FedUpon,
    Feeding,
    GetUpTried,
    HeldBy,
    Holding,
    Immobilised,
    InitiativeMalus,
    KnockedDown,
    OffBalance,
    Prone,
    SetUp,
)
from .dice import VtmPool
from .events import (
    ComplicationChosen,
    ConditionSet,
    ModifiersUsed,
    RollMade,
    WeaponChanged,
)
from .hooks import (
    AttackDraft,
    action,
    action_check,
    after_attack,
    after_hit,
    difficulty_rule,
    outside_odds,
    pool_rule,
    reads_effect,
    substitute,
)
from .locks import (
    LOCK_RULES,
    Lock,
    all_maneuvers,
    allowed_in_lock,
    kind_id,
    lock_of,
    lock_refusal,
    sets_up,
)
from .modifiers import LOCATION_SIZE
from .readiness import gm_modifiers
from .rulebook import rules_of
from .state import DEFENSIVE, Action, Fighter, VtmState
from .strike import StrikeOutcome, roll_damage
from .tables import Effect, Maneuver

RESIST_DIFFICULTY = 6
GET_UP_DIFFICULTY = 6

DISARM_BOTCH = {"disarmed": "disarm_loses_weapon", "struck": "disarm_struck"}
"""V-CC-6: what a botched disarm "usually" does, as complications of the table."""

CALLED_SHOT_PAST_ARMOUR = ("small", "precise")
"""V-MAN-8: target sizes whose called shot may slip past armour."""


# ================================================================== events


class Locked(Event):
    """A grapple (V-CC-7) or hold (V-CC-8) hits: ``holder`` and ``target`` are locked together."""

    holder: str
    target: str
    kind: str
    turn: int

    def apply(self, state: VtmState) -> None:
        holder, target = state.fighters[self.holder], state.fighters[self.target]
        holder.conditions.put(Holding(target=self.target, kind=self.kind, turn=self.turn))
        target.conditions.put(HeldBy(holder=self.holder, kind=self.kind, turn=self.turn))
        if self.kind == "hold":
            target.conditions.put(Immobilised(given=self.holder))


class LockEnded(Event):
    """A grapple or hold ends: broken free, released, or one of the two out of the fight."""

    holder: str
    target: str
    kind: str
    reason: str

    @classmethod
    def of(cls, lock: Lock, reason: str) -> LockEnded:
        """The end of ``lock``, for ``reason``, under the lock's own rule."""
        return cls(
            holder=lock.holder,
            target=lock.target,
            kind=lock.kind,
            reason=reason,
            rules=(lock.rule,),
        )

    def apply(self, state: VtmState) -> None:
        holder, target = state.fighters[self.holder], state.fighters[self.target]
        holder.conditions.drop(Holding)
        target.conditions.drop(HeldBy)
        held = target.conditions.of(Immobilised)
        if held is not None and held.given == self.holder:
            target.conditions.drop(Immobilised)


class BreakFreeRolled(Event):
    """The resisted Str + Brawl roll to break a grapple or hold (V-CC-7, V-CC-8)."""

    fighter: str
    other: str
    pool: int
    other_pool: int
    successes: int
    other_successes: int
    free: bool

    def veil_key(self) -> str:
        """« Lucrèce se dégage de Varney » or « … ne parvient pas à se dégager … »: the
        outcome of a roll that shows both fighters' dice (V-CC-7, V-CC-8)."""
        outcome = "free" if self.free else "held"
        return f"ev.BreakFreeRolled.veiled.{outcome}"


class GrappleSqueezed(Event):
    """A grappler inflicts Strength damage automatically: no attack roll (V-CC-7)."""

    attacker: str
    target: str
    pool: int

    veil = "ev.GrappleSqueezed.veiled"
    """« Varney serre Lucrèce »: not the Strength dice (V-CC-7)."""


class Disarmed(Event):
    """Damage successes above the target's Strength: no damage, its weapon falls (V-CC-6)."""

    attacker: str
    target: str
    weapon: str
    successes: int
    strength: int

    veil = "ev.Disarmed.veiled"
    """« Sam désarme Jack »: not the successes nor the target's Strength (V-CC-6)."""


class DisarmBotched(Event):
    """A botched disarm: he drops his weapon or is struck, the Conteur's choice (V-CC-6)."""

    attacker: str
    target: str

    def apply(self, state: VtmState) -> None:
        state.fighters[self.attacker].conditions.put(DisarmBotch(opponent=self.target))


class FeedingStarted(Event):
    """A successful Kiss: the vampire drinks; the victim usually cannot resist (V-CC-10)."""

    fighter: str
    target: str

    def apply(self, state: VtmState) -> None:
        state.fighters[self.fighter].conditions.put(Feeding(victim=self.target))
        state.fighters[self.target].conditions.put(FedUpon(by=self.fighter))


class WoundClosed(Event):
    """After the Kiss, the vampire closes the wound, leaving no trace (V-CC-10)."""

    fighter: str
    target: str

    def apply(self, state: VtmState) -> None:
        state.fighters[self.fighter].conditions.drop(Feeding)
        state.fighters[self.target].conditions.drop(FedUpon)


@action_check
def locked_fighters(state: VtmState, f: Fighter, a: Action) -> None:
    """V-CC-7 / V-CC-8: no other action until one of the two is free; lock actions need a lock."""
    refused = lock_refusal(state, f, a)
    if refused is not None:
        raise refused


@substitute
def lock_takes_over(
    state: VtmState, f: Fighter, declared: Action, args: dict[str, Any]
) -> Action | None:
    """A fighter locked after it declared takes a lock action in place of the declared one.

    ``act`` names it (``kind``: ``break_free``, ``grapple_damage``...). The held
    target of a hold needs not: its next action is the escape roll (V-CC-8).
    """
    lock = lock_of(state, f)
    if lock is None or declared.defensive:
        return None
    allowed = allowed_in_lock(state, lock, f.id)
    if kind_id(state, declared.kind) in allowed:
        return None
    other = lock.other(f.id)
    asked = args.get("kind")
    if asked in allowed:
        params = {k: v for k, v in args.items() if k not in ("kind", "target", "weapon")}
        return Action(str(asked), other, None, tuple(sorted(params.items())), declared.celerity)
    if not asked and lock.kind == "hold" and f.id == lock.target:
        return Action("break_free", other, celerity=declared.celerity)
    return None


def ending_fallen_locks(
    handler: Callable[[Resolution, Command], None],
) -> Callable[[Resolution, Command], None]:
    """A command after which locks of fighters out of the fight end (damage by the Conteur's
    hand, a new turn): attacks and grapple damage end them themselves."""

    def run(ctx: Resolution, command: Command) -> None:
        handler(ctx, command)
        end_fallen_locks(ctx)

    return run


def end_fallen_locks(ctx: Resolution) -> None:
    """A lock ends when either fighter is out of the fight (incapacitated, dead, torpor)."""
    state: VtmState = ctx.state
    key = Holding.key
    for f in list(state.fighters.values()):
        if key not in f.conditions.records:  # ``of`` would answer None (after every action)
            continue
        holding = f.conditions.of(Holding)
        if holding is None:
            continue
        target = state.fighters[holding.target]
        if f.out_of_fight or target.out_of_fight:
            kind = holding.kind
            ctx.emit(
                LockEnded(
                    holder=f.id,
                    target=target.id,
                    kind=kind,
                    reason="out_of_fight",
                    rules=(LOCK_RULES[kind], "V-DMG-5"),
                )
            )


# ------------------------------------------------------------------ lock actions


@action("grapple_damage")
def grapple_damage(ctx: Resolution, f: Fighter, a: Action, penalty: int, willpower: bool) -> None:
    """V-CC-7: on later turns, a grappler inflicts Strength damage automatically.

    Reading: no attack roll, but Strength (the grapple record's damage, with
    Potence's automatic successes) is still rolled as a damage pool, then
    soaked as usual; the damage dazes as any attack's (V-DMG-7).
    """
    state: VtmState = ctx.state
    lock = lock_of(state, f)
    assert lock is not None  # locked_fighters checked it
    other = state.fighters[lock.other(f.id)]
    d = draft_attack(state, f, other, Action("grapple", other.id))
    s = strike_for(d, None, False)
    ctx.emit(GrappleSqueezed(attacker=f.id, target=other.id, pool=s.damage_dice, rules=("V-CC-7",)))
    outcome = roll_damage(s, 1, 1, ctx.dice, [])
    for event in outcome.events:
        ctx.emit(event)
    dazed_by_damage(ctx, other, outcome)
    end_fallen_locks(ctx)


@action("break_free")
def break_free(ctx: Resolution, f: Fighter, a: Action, penalty: int, willpower: bool) -> None:
    """V-CC-7 / V-CC-8: a resisted Str + Brawl roll; more successes than the other: free.

    The actor rolls first (its wound and multiple-action penalties, Willpower,
    off balance +1, V-CC-12), then the other (its wound penalty). Potence adds
    its automatic successes to these Strength rolls (FACTS.md).
    """
    state: VtmState = ctx.state
    lock = lock_of(state, f)
    assert lock is not None
    other = state.fighters[lock.other(f.id)]
    traits = resist_traits(state, lock)
    gm_dice, gm_difficulty, _ = gm_modifiers(state, f.id)  # the Conteur's, for this action roll
    mine = sum(f.trait(t) for t in traits) + f.penalty - penalty + gm_dice
    difficulty = RESIST_DIFFICULTY + (
        1 if (off := f.conditions.of(OffBalance)) and off.turn == state.turn else 0
    )
    auto = f.trait("potence") + (1 if willpower else 0)
    my_roll = ctx.dice.roll(
        VtmPool(max(0, mine), difficulty + gm_difficulty, auto=auto),
        test_ask(f.id, f.name, word("break_free"), mine, difficulty + gm_difficulty, auto=auto),
    )
    if state.pending_modifiers.get(f.id):
        ctx.emit(ModifiersUsed(fighter=f.id))
    theirs = sum(other.trait(t) for t in traits) + other.penalty
    their_roll = ctx.dice.roll(
        VtmPool(max(0, theirs), RESIST_DIFFICULTY, auto=other.trait("potence")),
        test_ask(
            other.id,
            other.name,
            word("break_free"),
            theirs,
            RESIST_DIFFICULTY,
            auto=other.trait("potence"),
        ),
    )
    free = my_roll.result.successes > their_roll.result.successes
    rules = (lock.rule, "V-CC-12") if difficulty > RESIST_DIFFICULTY else (lock.rule,)
    ctx.emit(
        BreakFreeRolled(
            fighter=f.id,
            other=other.id,
            pool=max(0, mine),
            other_pool=max(0, theirs),
            successes=my_roll.result.successes,
            other_successes=their_roll.result.successes,
            free=free,
            rules=rules,
            rolls=(my_roll, their_roll),
        )
    )
    if free:
        ctx.emit(LockEnded.of(lock, "broke_free"))


def resist_traits(state: VtmState, lock: Lock) -> list[str]:
    """The traits of the resisted roll, from the lock's effect in the tables (Str + Brawl)."""
    for m in all_maneuvers(state):
        effect = m.effect(lock.kind)
        if effect is not None and effect.traits:
            return list(effect.traits)
    return ["strength", "brawl"]


@action("release")
def release(ctx: Resolution, f: Fighter, a: Action, penalty: int, willpower: bool) -> None:
    """The holder lets go of a grapple or hold (reading: the holder frees both, no roll)."""
    lock = lock_of(ctx.state, f)
    assert lock is not None
    ctx.emit(LockEnded.of(lock, "released"))


# ================================================================== requirements


@action_check
def close_requirements(state: VtmState, f: Fighter, a: Action) -> None:
    """What a close maneuver needs before it can be declared or taken.

    * V-CC-10: a maneuver whose record ``requires.after`` (bite, Kiss) needs
      a successful grapple, hold or tackle on the same target first, and
      comes the turn after: the attacker still holds the target since an
      earlier turn, or tackled it last turn.
    * V-CC-7 / V-CC-8: a grapple or hold needs a target not already held.
    * V-CC-6: disarming needs a target with a weapon in hand.
    * V-MAN-8: ``bypass_armour`` needs a small or precise target.
    """
    if a.kind in rules_of(state).at(hooks.action) or a.kind in DEFENSIVE:
        return
    m = equipment.maneuver(state, a.kind)
    target = state.fighters.get(a.target or "")
    if m.requires.after and not set_up_for(state, f, a.target, m.requires.after):
        raise ConteurError(
            "vtm.close.needs_set_up",
            rule=m.rule,
            fighter=f.name,
            maneuver=m.label(),
            after=", ".join(equipment.maneuver(state, x).label() for x in m.requires.after),
        )
    locks = any(m.effect(kind) for kind in LOCK_RULES)
    if target is not None and locks and lock_of(state, target) is not None:
        raise ConteurError(
            "vtm.close.already_locked", rule=m.rule, fighter=f.name, target=target.name
        )
    if target is not None and m.effect("disarm") is not None and not target.weapon:
        raise ConteurError("vtm.close.target_unarmed", rule=m.rule, target=target.name)
    if a.param("bypass_armour") and target_size(a) not in CALLED_SHOT_PAST_ARMOUR:
        raise ConteurError("vtm.close.bypass_needs_target", rule="V-MAN-8", fighter=f.name)


def set_up_for(state: VtmState, f: Fighter, target: str | None, after: Iterable[str]) -> bool:
    """Whether ``f`` set up ``target`` with one of ``after`` (V-CC-10: "the turn after")."""
    wanted = set(after)
    lock = lock_of(state, f)
    if (
        lock is not None
        and lock.holder == f.id
        and lock.target == target
        and lock.kind in wanted
        and lock.turn < state.turn
    ):
        return True
    record = f.conditions.of(SetUp)
    return (
        record is not None
        and record.maneuver in wanted
        and record.target == target
        and record.turn == state.turn - 1
    )


def target_size(a: Action) -> str | None:
    """The V-MAN-8 size an action aims at: ``targeting``, or the size of its ``location``."""
    size = a.param("targeting")
    if size is None and a.param("location") is not None:
        size = LOCATION_SIZE.get(str(a.param("location")))
    return None if size is None else str(size)


# ================================================================== attack modifiers


@pool_rule
def no_damage(d: AttackDraft) -> None:
    """V-CC-8 hold, V-CC-10 Kiss: a maneuver whose damage is "none" does no damage on a hit."""
    if d.maneuver.damage.base == "none":
        d.flags["no_damage"] = True


@pool_rule
@reads_effect("disarm")
def disarm_threshold(d: AttackDraft) -> None:
    """V-CC-6: damage successes above the target's Strength disarm it (read by ``roll_damage``)."""
    if d.maneuver.effect("disarm") is not None:
        d.flags["disarm_above"] = d.target.trait("strength")
        d.rules.append("V-CC-6")


@difficulty_rule
def called_shot_past_armour(d: AttackDraft) -> None:
    """V-MAN-8: "aiming at a precise point ... lets one avoid armour".

    Our decision: the attacker declares ``bypass_armour: true`` with a small
    or precise target (head, hand, eye, heart: the +2/+3 difficulty is the
    price); the armour then adds nothing to soak and cannot break on that
    blow (V-ARM-1, V-ARM-3). A medium target (a limb) cannot: the armour is
    taken to cover it. Without the parameter, armour counts as usual.
    """
    if d.action.param("bypass_armour") and target_size(d.action) in CALLED_SHOT_PAST_ARMOUR:
        d.flags["bypass_armour"] = True
        d.rules.append("V-MAN-8")


# ================================================================== after the dice


def whom(d: AttackDraft, who: str) -> list[Fighter]:
    """The fighters an effect's ``who`` names: target, attacker, or both (target first)."""
    return {"target": [d.target], "attacker": [d.attacker], "both": [d.target, d.attacker]}[who]


def effects_of(d: AttackDraft, kind: str) -> list[Effect]:
    return [e for e in d.maneuver.effects if e.type == kind]


@after_hit("knockdown_check")
def knockdown_checks(ctx: Resolution, d: AttackDraft, outcome: StrikeOutcome) -> None:
    """V-CC-1 sweep (target, difficulty 8), V-CC-12 tackle (both, difficulty 7), V-DMG-7.

    On a hit, each fighter the effect names rolls its traits (Dex + Athletics)
    at the effect's difficulty, the target first; no success: it gets the
    effect's conditions (knocked down and dazed). The roll is reflexive (no
    action): no wound penalty, but heavy armour's Dexterity penalty (V-ARM-2).
    """
    if not outcome.hit:
        return
    for effect in effects_of(d, "knockdown_check"):
        for who in whom(d, effect.who):
            if not who.out_of_fight:
                keep_footing(ctx, who, effect, d.maneuver)


def keep_footing(ctx: Resolution, who: Fighter, effect: Effect, m: Maneuver) -> None:
    traits = effect.traits or ["dexterity", "athletics"]
    pool = sum(who.trait(t) for t in traits)
    armour = equipment.armour_of(ctx.state, who)
    if "dexterity" in traits and armour is not None:
        pool -= armour.penalty
    difficulty = effect.difficulty if effect.difficulty is not None else 6
    rules = tuple(dict.fromkeys((m.rule, effect.rule or "V-DMG-7")))
    record = ctx.dice.roll(
        VtmPool(max(0, pool), difficulty),
        test_ask(
            who.id,
            who.name,
            word("keep_footing"),
            pool,
            difficulty,
            [(t, who.trait(t)) for t in traits],
        ),
    )
    ctx.emit(
        RollMade(
            fighter=who.id,
            purpose="keep_footing",
            pool=max(0, pool),
            difficulty=difficulty,
            successes=record.result.successes,
            rules=rules,
            rolls=(record,),
        )
    )
    if record.result.successes == 0:
        for condition in effect.conditions:
            ctx.emit(ConditionSet(target=who.id, condition=condition, value=True, rules=rules))


@after_hit("condition")
def timed_conditions(ctx: Resolution, d: AttackDraft, outcome: StrikeOutcome) -> None:
    """V-CC-12: on a hit the tackled target is off balance (+1 difficulty) next turn, even
    when it kept its footing. A condition lasting ``turns`` is stored as ``<name>_turn``,
    the turn it applies in (``off_balance_turn``, read by ``modifiers.off_balance``)."""
    if not outcome.hit:
        return
    state: VtmState = ctx.state
    for effect in effects_of(d, "condition"):
        rules = (effect.rule or d.maneuver.rule,)
        for who in whom(d, effect.who):
            for condition in effect.conditions:
                if effect.turns:
                    name, value = f"{condition}_turn", state.turn + effect.turns
                    ctx.emit(ConditionSet(target=who.id, condition=name, value=value, rules=rules))
                else:
                    ctx.emit(
                        ConditionSet(target=who.id, condition=condition, value=True, rules=rules)
                    )


@after_hit("grapple", "hold")
@outside_odds
def lock_on_hit(ctx: Resolution, d: AttackDraft, outcome: StrikeOutcome) -> None:
    """V-CC-7: a grapple that hits holds the target (its first-turn Strength damage was the
    strike's own). V-CC-8: a hold that hits immobilises the target until it breaks free."""
    if not outcome.hit or d.target.out_of_fight or d.attacker.out_of_fight:
        return
    kind = "grapple" if d.maneuver.effect("grapple") is not None else "hold"
    ctx.emit(
        Locked(
            holder=d.attacker.id,
            target=d.target.id,
            kind=kind,
            turn=ctx.state.turn,
            rules=(LOCK_RULES[kind],),
        )
    )


@after_hit("disarm")
@outside_odds
def disarm(ctx: Resolution, d: AttackDraft, outcome: StrikeOutcome) -> None:
    """V-CC-6: disarmed (no damage, the weapon falls), or a botch the Conteur completes.

    The botch is recorded (V-ATK-5) and the text's two usual outcomes are
    offered: the attacker loses his own weapon, or is struck by his
    opponent's (``gm_disarm_botch``); ``gm_complication`` may type another.
    """
    if outcome.disarmed and d.target.weapon:
        weapon = d.target.weapon
        strength = d.target.trait("strength")
        ctx.emit(
            Disarmed(
                attacker=d.attacker.id,
                target=d.target.id,
                weapon=weapon,
                successes=outcome.damage,
                strength=strength,
                rules=("V-CC-6",),
            )
        )
        ctx.emit(WeaponChanged(fighter=d.target.id, weapon=None, rules=("V-CC-6",)))
    elif outcome.botch:
        ctx.emit(
            DisarmBotched(attacker=d.attacker.id, target=d.target.id, rules=("V-CC-6", "V-ATK-5"))
        )


@after_hit("feed")
@outside_odds
def kiss(ctx: Resolution, d: AttackDraft, outcome: StrikeOutcome) -> None:
    """V-CC-10: a Kiss that hits does no damage and starts feeding."""
    if outcome.hit and not d.target.out_of_fight:
        ctx.emit(FeedingStarted(fighter=d.attacker.id, target=d.target.id, rules=("V-CC-10",)))


@after_attack
@outside_odds
def after_every_attack(ctx: Resolution, d: AttackDraft, outcome: StrikeOutcome) -> None:
    """Remember a set-up for a later bite (V-CC-10: a tackle that hit), and end the locks of
    fighters the attack put out of the fight."""
    state: VtmState = ctx.state
    m = d.maneuver
    locks = any(m.effect(kind) for kind in LOCK_RULES)
    if outcome.hit and not locks and sets_up(state, m.id):
        record = {"maneuver": m.id, "target": d.target.id, "turn": state.turn}
        ctx.emit(
            ConditionSet(
                target=d.attacker.id, condition=SetUp.key, value=record, rules=(m.rule, "V-CC-10")
            )
        )
    end_fallen_locks(ctx)


# ================================================================== commands


def get_up(ctx: Resolution, command: Command) -> None:
    """V-DMG-7 (core, FACTS.md): a knocked-down fighter stands by spending an action
    (``stand_up``) or, between turns, with a Dex + Athletics roll (difficulty 6, once).

    The roll takes no action but costs initiative (the knocked-down condition's
    ``initiative`` in the tables, −2) on the next turn's initiative roll.
    """
    state: VtmState = ctx.state
    f = fighter(state, command.actor)
    if not f.conditions.of(KnockedDown):
        raise ConteurError("vtm.close.not_down", rule="V-DMG-7", fighter=f.name)
    if state.phase != "setup":
        raise ConteurError("vtm.close.get_up_between_turns", rule="V-DMG-7", fighter=f.name)
    if f.out_of_fight:
        raise ConteurError("vtm.out_of_fight", rule="V-DMG-5", fighter=f.name)
    if (tried := f.conditions.of(GetUpTried)) and tried.turn == state.turn:
        raise ConteurError("vtm.close.get_up_once", rule="V-DMG-7", fighter=f.name)
    spec = equipment.tables(state).conditions[KnockedDown.key]
    traits = spec.recover_traits or ["dexterity", "athletics"]
    pool = max(0, sum(f.trait(t) for t in traits) + f.penalty)
    extra, extra_rules = rules_of(state).roll_modifiers(
        state, f, "get_up"
    )  # a pack's (a leg hit...)
    difficulty = GET_UP_DIFFICULTY + extra
    record = ctx.dice.roll(
        VtmPool(pool, difficulty),
        test_ask(
            f.id,
            f.name,
            word("get_up"),
            pool,
            difficulty,
            [(t, f.trait(t)) for t in traits] + [("wounds", f.penalty)],
        ),
    )
    rules = ("V-DMG-7",)
    ctx.emit(
        RollMade(
            fighter=f.id,
            purpose="get_up",
            pool=pool,
            difficulty=difficulty,
            successes=record.result.successes,
            rules=(*rules, *extra_rules),
            rolls=(record,),
        )
    )
    ctx.emit(ConditionSet(target=f.id, condition=GetUpTried.key, value=state.turn, rules=rules))
    if record.result.successes > 0:
        ctx.emit(ConditionSet(target=f.id, condition=KnockedDown.key, value=None, rules=rules))
        ctx.emit(ConditionSet(target=f.id, condition=Prone.key, value=None, rules=rules))
        ctx.emit(
            ConditionSet(
                target=f.id, condition=InitiativeMalus.key, value=-spec.initiative, rules=rules
            )
        )


def close_wound(ctx: Resolution, command: Command) -> None:
    """V-CC-10: after the Kiss, the vampire may close the wound (no action, no roll)."""
    state: VtmState = ctx.state
    f = fighter(state, command.actor)
    feeding = f.conditions.of(Feeding)
    if not feeding or not feeding.victim:
        raise ConteurError("vtm.close.not_feeding", rule="V-CC-10", fighter=f.name)
    ctx.emit(WoundClosed(fighter=f.id, target=feeding.victim, rules=("V-CC-10",)))


def gm_disarm_botch(ctx: Resolution, command: Command) -> None:
    """V-CC-6: the Conteur completes a botched disarm: ``outcome`` ``disarmed`` (the attacker
    drops his weapon) or ``struck`` (his opponent's weapon hits him: its damage is rolled,
    then soaked, as a strike with one success)."""
    state: VtmState = ctx.state
    f = fighter(state, command.get("fighter"))
    botch = f.conditions.of(DisarmBotch)
    if not botch or not botch.opponent:
        raise ConteurError("vtm.close.no_disarm_botch", rule="V-CC-6", fighter=f.name)
    choice = str(command.get("outcome", "") or "")
    if choice not in DISARM_BOTCH:
        raise ConteurError(
            "vtm.close.disarm_botch_outcome",
            rule="V-CC-6",
            value=choice,
            known=", ".join(DISARM_BOTCH),
        )
    found = {c.id: c for c in equipment.tables(state).complications}
    text = found[DISARM_BOTCH[choice]].text
    rules = ("V-CC-6", "V-ATK-5")
    if any(b["fighter"] == f.id and b["complication"] is None for b in state.botches):
        ctx.emit(ComplicationChosen(fighter=f.id, text=text.fr, text_en=text.en, rules=rules))
    ctx.emit(ConditionSet(target=f.id, condition=DisarmBotch.key, value=None, rules=rules))
    if choice == "disarmed":
        if f.weapon:
            ctx.emit(WeaponChanged(fighter=f.id, weapon=None, rules=rules))
        return
    other = state.fighters[botch.opponent]
    held = equipment.weapon_in_hand(state, other)
    kind = "weapon_strike" if equipment.weapon_category(held) == "melee" else "punch"
    d = draft_attack(state, other, f, Action(kind, f.id))
    outcome = roll_damage(strike_for(d, None, False), 1, 1, ctx.dice, [])
    for event in outcome.events:
        ctx.emit(event)
    dazed_by_damage(ctx, f, outcome)
    end_fallen_locks(ctx)


def templates(state: VtmState, actor: str | None = None) -> list[CommandTemplate]:
    """The commands of this module that are legal now."""
    out: list[CommandTemplate] = []
    ids = [actor] if actor else list(state.fighters)
    for fid in ids:
        f = state.fighters.get(fid)
        if f is None:
            continue
        if (
            state.phase == "setup"
            and f.conditions.of(KnockedDown)
            and not f.out_of_fight
            and not ((tried := f.conditions.of(GetUpTried)) and tried.turn == state.turn)
        ):
            out.append(CommandTemplate("get_up", fid, rule="V-DMG-7"))
        if (feeding := f.conditions.of(Feeding)) and feeding.victim:
            out.append(CommandTemplate("close_wound", fid, rule="V-CC-10"))
    botched = tuple(
        f.id for f in state.fighters.values() if (b := f.conditions.of(DisarmBotch)) and b.opponent
    )
    if actor is None and botched:
        out.append(
            CommandTemplate(
                "gm_disarm_botch",
                None,
                (
                    Param("fighter", "choice", botched),
                    Param("outcome", "choice", tuple(DISARM_BOTCH)),
                ),
                rule="V-CC-6",
            )
        )
    return out
