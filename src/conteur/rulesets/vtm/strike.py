"""The dice of one attack, from the attack roll to the health levels lost.

``Strike`` fixes every number the dice need before the first roll (pool,
difficulty, damage, soak, defence). ``roll_strike`` then reads like the text:
attack roll (V-ATK-5) → defence (V-DEF-2) → damage pool (V-DMG-1, V-DMG-2,
V-DMG-4) → armour destruction (V-ARM-3) → soak (V-SOAK-1..3, V-ARM-1) →
health levels (V-DMG-6). It is written once, over any dice source: with
``SeededDice`` or ``TypedDice`` it plays the attack, and run through
``conteur.dice.enumerate_outcomes`` it gives the attack's exact odds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from conteur.dice import DiceSource
from conteur.dice.asks import RollAsk, auto_successes, difficulty
from conteur.engine import Event
from conteur.engine.visibility import owned_by
from conteur.i18n import Msg
from conteur.records import lean

from .asks import StrikeAsks, parts, soak_ask
from .dice import VtmPool
from .events import (
    ArmourDestroyed,
    AttackMissed,
    AttackRolled,
    Botched,
    DamageRolled,
    DamageTaken,
    DefenceRolled,
    SoakRolled,
)

DAMAGE_DIFFICULTY = 6
SOAK_DIFFICULTY = 6


@dataclass(frozen=True, kw_only=True)
class Defence:
    """A block, dodge or parry opposing the attack roll (V-DEF-2)."""

    defender: str
    kind: str
    pool: int
    difficulty: int
    riposte: Riposte | None = None
    rules: tuple[str, ...] = ()
    parts: tuple[tuple[str, int], ...] = field(default=(), compare=False)
    """The pool's parts (trait, ability, penalties), for the roll's ask."""


@dataclass(frozen=True)
class Riposte:
    """A parry with a lethal weapon against an unarmed attack hurts the attacker (V-DEF-5)."""

    damage_dice: int
    damage_type: str
    soak: int


@lean
@dataclass(frozen=True, kw_only=True)
class Strike:
    """Everything the dice of one attack need, fixed before the first roll."""

    attacker: str
    target: str
    maneuver: str
    pool: int
    difficulty: int
    damage_dice: int
    damage_type: str
    soak: int
    """Soak dice against this damage type, armour included (V-SOAK-1, V-SOAK-2, V-ARM-1)."""
    armour_rating: int = 0
    """Rating of intact armour worn by the target, for V-ARM-3 (0: none)."""
    armour_id: str | None = None
    auto_successes: int = 0
    """Willpower's automatic success on the attack roll."""
    damage_auto: int = 0
    """Potence's automatic successes on a Strength-based damage roll."""
    extra_damage_dice: int = 0
    """Targeting's damage bonus (V-MAN-8)."""
    defence: Defence | None = None
    halve_bashing: bool = False
    """A vampire halves bashing damage after soak (V-DMG-6)."""
    damage_ones_cancel: bool = False
    every_success_adds: bool = False
    """Option: each success of the difference (or of full auto) adds a damage die."""
    no_damage: bool = False
    """Hold, Kiss: a hit does no damage."""
    disarm_above: int | None = None
    """Disarm (V-CC-6): damage successes above this (the target's Strength) disarm, no damage."""
    min_one_die: bool = True
    """V-DMG-4: a hit rolls at least one damage die (an option pack may say otherwise)."""
    rules: tuple[str, ...] = ()
    modifiers: tuple[tuple[str, int], ...] = ()
    """What changed the pool or difficulty, and by how much (for the log)."""
    asks: StrikeAsks | Callable[[], StrikeAsks] | None = field(default=None, compare=False)
    """What each roll is for, said to the table (None: a strike built without them), or
    the function building it: only dice that read asks (the table's) call it, through
    ``asks_of``, so a simulated fight's seeded dice do not build them."""
    pool_parts: tuple[tuple[str, int], ...] = field(default=(), compare=False)
    """The attack pool's parts (trait, ability, modifiers), for the log's breakdown."""
    soak_parts: tuple[tuple[str, int], ...] = field(default=(), compare=False)
    """The soak pool's parts (Stamina, Fortitude, armour), for the log's breakdown."""
    damage_parts: tuple[tuple[str, int], ...] = field(default=(), compare=False)
    """The damage dice before the attack's extra successes, part by part (Strength, the
    weapon, the maneuver, a called shot's bonus), for the damage roll's ask and log line."""


def asks_of(s: Strike) -> StrikeAsks | None:
    """The strike's asks (built now when the strike holds the function building them)."""
    asks = s.asks
    return asks() if callable(asks) else asks


@lean
@dataclass(frozen=True, kw_only=True)
class StrikeOutcome:
    """The result of a strike's dice: what the rules and the odds read."""

    attack_successes: int
    botch: bool
    net: int
    hit: bool
    damage: int = 0
    levels: int = 0
    damage_type: str = "bashing"
    armour_destroyed: bool = False
    parried_onto_attacker: int = 0
    disarmed: bool = False
    """Disarm (V-CC-6): the damage successes exceeded the target's Strength."""
    events: tuple[Event, ...] = field(default=(), compare=False, hash=False)

    def summary(self) -> tuple[Any, ...]:
        """The outcome without its events (hashable, for exact odds)."""
        return (
            self.hit,
            self.net,
            self.levels,
            self.damage_type,
            self.armour_destroyed,
            self.botch,
            self.parried_onto_attacker,
        )


@lean
@dataclass(frozen=True)
class Rolled:
    """The attack roll succeeded, before the defence."""

    successes: int
    events: tuple[Event, ...] = field(default=(), compare=False, hash=False)


@lean
@dataclass(frozen=True)
class Through:
    """A hit with ``net`` successes left after the defence, before the damage roll."""

    successes: int = field(compare=False)
    """Carried into the outcome; no later stage reads it (so equal states merge in the odds)."""
    net: int
    events: tuple[Event, ...] = field(default=(), compare=False, hash=False)


@lean
@dataclass(frozen=True, kw_only=True)
class Dealt:
    """The damage rolled (``damage`` successes) and the armour's fate, before soak."""

    successes: int = field(compare=False)
    net: int = field(compare=False)
    """Both carried into the outcome; the soak does not read them."""
    damage: int
    broken: bool
    events: tuple[Event, ...] = field(default=(), compare=False, hash=False)


StrikeState = Rolled | Through | Dealt | StrikeOutcome
"""Where a strike's dice stand: after the attack roll (``Rolled``), through the
defence (``Through``), damage rolled (``Dealt``), or over (``StrikeOutcome``)."""


def roll_strike(s: Strike, dice: DiceSource) -> StrikeOutcome:
    """Roll one attack through to the health levels it costs the target."""
    return finish_strike(s, roll_attack(s, dice), dice)


def finish_strike(s: Strike, state: StrikeState, dice: DiceSource) -> StrikeOutcome:
    """Play the strike's stages from ``state`` to its outcome."""
    while not isinstance(state, StrikeOutcome):
        state = strike_step(s, state, dice)
    return state


def strike_step(s: Strike, state: StrikeState | None, dice: DiceSource) -> StrikeState:
    """One stage of the strike from ``state`` (None: before the attack roll).

    The stages are attack roll → defence → damage → soak; an outcome is the
    end and comes back unchanged. Each state holds what the next stages read,
    so ``conteur.dice.propagate`` can run the stages over exact dice, merging
    equal states between them (``odds.py``).
    """
    if state is None:
        return roll_attack(s, dice)
    if isinstance(state, Rolled):
        return roll_defence(s, state, dice)
    if isinstance(state, Through):
        return roll_damage_dice(s, state, dice)
    if isinstance(state, Dealt):
        return roll_soak(s, state, dice)
    return state


def roll_attack(s: Strike, dice: DiceSource) -> Rolled | StrikeOutcome:
    """The attack roll (V-ATK-5: no success misses, a botch also goes wrong)."""
    attack = dice.roll(VtmPool(s.pool, s.difficulty, auto=s.auto_successes), lambda: _attack_ask(s))
    successes = attack.result.successes
    events: list[Event] = [
        AttackRolled(
            attacker=s.attacker,
            target=s.target,
            maneuver=s.maneuver,
            pool=s.pool,
            difficulty=attack.request.effective_difficulty,
            successes=successes,
            botch=attack.result.botch,
            modifiers=s.modifiers,
            pool_parts=s.pool_parts,
            rules=(*s.rules, "V-ATK-5"),
            rolls=(attack,),
        )
    ]
    if attack.result.botch:
        events.append(Botched(fighter=s.attacker, context=s.maneuver, rules=("V-ATK-5",)))
        events.append(AttackMissed(attacker=s.attacker, target=s.target, rules=("V-ATK-5",)))
        return StrikeOutcome(
            attack_successes=successes, botch=True, net=0, hit=False, events=tuple(events)
        )
    return Rolled(successes, tuple(events))


def resolve_successes(
    s: Strike, successes: int, dice: DiceSource, events: list[Event]
) -> StrikeOutcome:
    """From the attack's successes to the health levels lost: defence, damage, soak.

    ``roll_strike`` goes through it after the attack roll; a spray calls it for
    each target's share of the one roll made for the whole zone (V-RNG-2).
    """
    outcome = finish_strike(s, Rolled(successes, tuple(events)), dice)
    events[:] = outcome.events  # the caller's list gets the new events, as it always did
    return outcome


def roll_defence(s: Strike, state: Rolled, dice: DiceSource) -> Through | StrikeOutcome:
    """The defence: a resisted roll; only the difference counts (V-DEF-2; a tie misses)."""
    successes = state.successes
    events = list(state.events)
    net = successes
    parried = 0
    if s.defence is not None and successes > 0:
        d = s.defence
        roll = dice.roll(VtmPool(d.pool, d.difficulty), lambda: _defence_ask(s))
        net = successes - roll.result.successes
        events.append(
            DefenceRolled(
                defender=d.defender,
                kind=d.kind,
                pool=d.pool,
                difficulty=roll.request.effective_difficulty,
                successes=roll.result.successes,
                attack_successes=successes,
                net=max(net, 0),
                pool_parts=d.parts,
                rules=(*d.rules, "V-DEF-2"),
                rolls=(roll,),
            )
        )
        if net < 0 and d.riposte is not None:
            parried = _riposte(s, d.riposte, -net, dice, events)
    elif s.defence is not None:
        # No success to oppose: the defence is still spent.
        d = s.defence
        events.append(
            DefenceRolled(
                defender=d.defender,
                kind=d.kind,
                pool=d.pool,
                difficulty=d.difficulty,
                successes=0,
                attack_successes=0,
                net=0,
                pool_parts=d.parts,
                rules=("V-DEF-2",),
            )
        )
    if net <= 0:
        events.append(
            AttackMissed(attacker=s.attacker, target=s.target, rules=("V-ATK-5", "V-DEF-2"))
        )
        return StrikeOutcome(
            attack_successes=successes,
            botch=False,
            net=0,
            hit=False,
            parried_onto_attacker=parried,
            events=tuple(events),
        )
    if s.no_damage:
        return StrikeOutcome(
            attack_successes=successes, botch=False, net=net, hit=True, events=tuple(events)
        )
    return Through(successes, net, tuple(events))


def roll_damage(
    s: Strike, successes: int, net: int, dice: DiceSource, events: list[Event]
) -> StrikeOutcome:
    """Stage 3 of a hit with ``net`` successes: damage, armour, soak, health levels.

    Also the whole of a hit without an attack roll: a grapple's automatic
    Strength damage on later turns is rolled as one success (V-CC-7 reading).
    """
    outcome = finish_strike(s, Through(successes, net, tuple(events)), dice)
    events[:] = outcome.events
    return outcome


def roll_damage_dice(s: Strike, state: Through, dice: DiceSource) -> Dealt | StrikeOutcome:
    """The damage roll of a hit, a disarm, and the armour it breaks."""
    successes, net = state.successes, state.net
    events = list(state.events)
    # Stage 3: each success beyond the first adds a damage die (V-DMG-1).
    extra = net if s.every_success_adds else net - 1
    pool = s.damage_dice + extra + s.extra_damage_dice
    items = damage_items(s, extra, pool)
    if pool <= 0 and not s.min_one_die:
        events.append(
            DamageRolled(
                target=s.target,
                pool=0,
                damage_type=s.damage_type,
                successes=0,
                pool_parts=items,
                rules=("V-DMG-1", "V-DMG-2"),
                seen=owned_by(s.attacker),
            )
        )
        return StrikeOutcome(
            attack_successes=successes,
            botch=False,
            net=net,
            hit=True,
            damage_type=s.damage_type,
            events=(*events,),
        )
    damage = dice.roll(
        VtmPool(
            pool,
            DAMAGE_DIFFICULTY,
            ones_cancel=s.damage_ones_cancel,
            can_botch=False,
            min_one=True,
            auto=s.damage_auto,
        ),
        lambda: damage_ask(s, items, pool),
    )
    dealt = damage.result.successes
    events.append(
        DamageRolled(
            target=s.target,
            pool=max(pool, 1),
            damage_type=s.damage_type,
            successes=dealt,
            pool_parts=items,
            rules=("V-DMG-1", "V-DMG-2", "V-DMG-4"),
            rolls=(damage,),
            seen=owned_by(s.attacker),  # the attacker rolls the damage (visibility.py)
        )
    )

    # Disarm: successes above the target's Strength disarm it and do no damage
    # (V-CC-6; reading: counted before soak).
    if s.disarm_above is not None and dealt > s.disarm_above:
        return StrikeOutcome(
            attack_successes=successes,
            botch=False,
            net=net,
            hit=True,
            damage=dealt,
            damage_type=s.damage_type,
            disarmed=True,
            events=(*events,),
        )

    # Armour breaks when one attack's damage reaches twice its rating (V-ARM-3).
    broken = s.armour_rating > 0 and dealt >= 2 * s.armour_rating
    if broken:
        events.append(
            ArmourDestroyed(target=s.target, armour=s.armour_id or "", rules=("V-ARM-3",))
        )
    return Dealt(successes=successes, net=net, damage=dealt, broken=broken, events=tuple(events))


def roll_soak(s: Strike, state: Dealt, dice: DiceSource) -> StrikeOutcome:
    """Soak (reflexive, difficulty 6, never botches: V-SOAK-3) and the health levels lost."""
    dealt = state.damage
    events = list(state.events)
    soaked = 0
    if dealt > 0 and s.soak > 0:
        soak = dice.roll(
            VtmPool(s.soak, SOAK_DIFFICULTY, ones_cancel=s.damage_ones_cancel, can_botch=False),
            lambda: _soak_ask(s),
        )
        soaked = soak.result.successes
        events.append(
            SoakRolled(
                target=s.target,
                pool=s.soak,
                successes=soaked,
                pool_parts=s.soak_parts,
                rules=("V-SOAK-1", "V-SOAK-2", "V-SOAK-3", "V-ARM-1"),
                rolls=(soak,),
            )
        )
    levels = max(0, dealt - soaked)
    rules: tuple[str, ...] = ("V-DMG-3", "V-DMG-5")
    halved = s.halve_bashing and s.damage_type == "bashing" and levels > 0
    if halved:
        levels //= 2
        rules = (*rules, "V-DMG-6")
    if levels or halved:
        # Halved to nothing is still said, so the log explains the untouched track.
        events.append(
            DamageTaken(target=s.target, levels=levels, damage_type=s.damage_type, rules=rules)
        )
    return StrikeOutcome(
        attack_successes=state.successes,
        botch=False,
        net=state.net,
        hit=True,
        damage=dealt,
        levels=levels,
        damage_type=s.damage_type,
        armour_destroyed=state.broken,
        events=tuple(events),
    )


def _riposte(s: Strike, r: Riposte, extra: int, dice: DiceSource, events: list[Event]) -> int:
    """The parrying weapon's damage plus the parry's extra successes, on the attacker (V-DEF-5)."""
    pool = r.damage_dice + extra
    items = (("damage", r.damage_dice), ("extra_successes", extra), *_at_least_one(pool))
    items = tuple(item for item in items if item[1])
    damage = dice.roll(
        VtmPool(
            pool, DAMAGE_DIFFICULTY, ones_cancel=s.damage_ones_cancel, can_botch=False, min_one=True
        ),
        lambda: RollAsk(
            who=s.target,
            what=Msg("ask.what.damage", name=_attacker_name(s)),
            breakdown=parts(items, max(pool, 1)),
            detail=difficulty(DAMAGE_DIFFICULTY),
            dice=max(pool, 1),
        ),
    )
    events.append(
        DamageRolled(
            target=s.attacker,
            pool=pool,
            damage_type=r.damage_type,
            successes=damage.result.successes,
            pool_parts=items,
            rules=("V-DEF-5", "V-DMG-2", "V-DMG-4"),
            rolls=(damage,),
            seen=owned_by(s.target),  # the parrying defender's weapon strikes back
        )
    )
    soaked = 0
    if damage.result.successes and r.soak:
        soak = dice.roll(
            VtmPool(r.soak, SOAK_DIFFICULTY, ones_cancel=s.damage_ones_cancel, can_botch=False),
            lambda: soak_ask(s.attacker, _attacker_name(s), r.soak),
        )
        soaked = soak.result.successes
        events.append(
            SoakRolled(
                target=s.attacker, pool=r.soak, successes=soaked, rules=("V-SOAK-3",), rolls=(soak,)
            )
        )
    levels = max(0, damage.result.successes - soaked)
    if levels:
        events.append(
            DamageTaken(
                target=s.attacker,
                levels=levels,
                damage_type=r.damage_type,
                rules=("V-DEF-5", "V-DMG-5"),
            )
        )
    return levels


def damage_items(s: Strike, extra: int, pool: int) -> tuple[tuple[str, int], ...]:
    """The damage pool part by part: the strike's damage parts, the attack's successes that
    add to them (V-DMG-1), the die a pool never falls below (V-DMG-4)."""
    items = (*s.damage_parts, *((("extra_successes", extra),) if extra else ()))
    return items + (_at_least_one(pool) if s.min_one_die else ())


def _at_least_one(pool: int) -> tuple[tuple[str, int], ...]:
    """The dice a pool of ``pool`` gains to reach one die (V-DMG-4)."""
    return (("at_least_one_die", 1 - pool),) if pool < 1 else ()


def damage_ask(s: Strike, items: tuple[tuple[str, int], ...], pool: int) -> RollAsk:
    """The damage roll of a hit, asked of the attacker: its dice part by part
    (``damage_items``), Potence's automatic successes."""
    asks = asks_of(s)
    target = asks.target if asks is not None else s.target
    breakdown = parts(items, max(pool, 1))
    if s.damage_auto:
        breakdown += (auto_successes(s.damage_auto, Msg("vtm.trait.potence")),)
    return RollAsk(
        who=s.attacker,
        what=Msg("ask.what.damage", name=target),
        breakdown=breakdown,
        detail=difficulty(DAMAGE_DIFFICULTY),
        dice=max(pool, 1),
    )


def _attack_ask(s: Strike) -> RollAsk | None:
    asks = asks_of(s)
    return asks.attack if asks is not None else None


def _defence_ask(s: Strike) -> RollAsk | None:
    asks = asks_of(s)
    return asks.defence if asks is not None else None


def _soak_ask(s: Strike) -> RollAsk:
    asks = asks_of(s)
    if asks is None:
        return soak_ask(s.target, s.target, s.soak)
    return soak_ask(s.target, asks.target, s.soak, asks.soak)


def _attacker_name(s: Strike) -> str:
    asks = asks_of(s)
    return asks.attacker if asks is not None else s.attacker
