"""The dice of one attack, from the attack roll to the health levels lost.

``Strike`` fixes every number the dice need before the first roll (pool,
difficulty, damage, soak, defence). ``roll_strike`` then reads like the text:
attack roll (V-ATK-5) → defence (V-DEF-2) → damage pool (V-DMG-1, V-DMG-2,
V-DMG-4) → armour destruction (V-ARM-3) → soak (V-SOAK-1..3, V-ARM-1) →
health levels (V-DMG-6). Each stage's numbers are stated once, in small
functions (``attack_pool``, ``defence_pool``, ``damage_dice_of``,
``levels_lost``...): the stages call them with one outcome of any dice source
(``SeededDice``, ``TypedDice``: the attack played), and ``strike_odds`` calls
the same functions over the exact distribution of each roll, once per
distinct value and outcome (the attack's exact odds).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from conteur.dice import DiceSource, RollRecord
from conteur.dice.asks import RollAsk, auto_successes, difficulty
from conteur.engine import Event
from conteur.engine.visibility import owned_by
from conteur.i18n import Msg
from conteur.records import lean

from .asks import StrikeAsks, parts, soak_ask
from .dice import VtmPool, VtmResult
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


@lean
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


@lean
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


# ----------------------------------------------------------------- the stages' rules
#
# Each stage's numbers, stated once: the roll it asks for, and what the roll's
# successes make of the stage's input. The stages below (``roll_attack``...)
# call them with the table's dice, one outcome at a time; ``strike_odds`` calls
# the same functions over a whole distribution, once per distinct input value
# and roll outcome.


@lru_cache(maxsize=2048)
def _pool(
    dice: int, difficulty: int, ones_cancel: bool, can_botch: bool, min_one: bool, auto: int
) -> VtmPool:
    """``VtmPool(...)``, one frozen value per distinct request (the exact odds ask for the
    same few pools many times; a request that ``VtmPool`` refuses still raises).

    Every argument is given, by position: the cache's key is then the arguments' tuple
    (a keyword's key costs four times as much to build and hash, ~0.4 µs a call)."""
    return VtmPool(
        dice, difficulty, ones_cancel=ones_cancel, can_botch=can_botch, auto=auto, min_one=min_one
    )


def attack_pool(s: Strike) -> VtmPool:
    """The attack roll (V-ATK-5), Willpower's automatic success included."""
    return _pool(s.pool, s.difficulty, True, True, False, s.auto_successes)


def defence_pool(s: Strike, successes: int) -> VtmPool | None:
    """The defence's roll against ``successes`` (V-DEF-2); None when nothing is rolled."""
    d = s.defence
    if d is None or successes <= 0:
        return None
    return _pool(d.pool, d.difficulty, True, True, False, 0)


def net_after_defence(successes: int, defended: int) -> int:
    """A resisted roll: only the difference counts (V-DEF-2; a tie or less misses)."""
    return successes - defended


def defence_rolled(
    d: Defence, attack_successes: int, roll: RollRecord[VtmResult] | None
) -> DefenceRolled:
    """The event of the defence ``d`` against the attack's successes (V-DEF-2): its ``roll``,
    or none when there was no success to oppose (the defence is spent all the same)."""
    defended = roll.result.successes if roll is not None else 0
    return DefenceRolled(
        defender=d.defender,
        kind=d.kind,
        pool=d.pool,
        difficulty=roll.request.effective_difficulty if roll is not None else d.difficulty,
        successes=defended,
        attack_successes=attack_successes,
        net=max(net_after_defence(attack_successes, defended), 0),
        pool_parts=d.parts,
        rules=(*d.rules, "V-DEF-2") if roll is not None else ("V-DEF-2",),
        rolls=(roll,) if roll is not None else (),
    )


def riposte_pool(s: Strike, r: Riposte, extra: int) -> VtmPool:
    """The parrying weapon's damage plus the parry's extra successes (V-DEF-5)."""
    # dice, difficulty, ones_cancel, can_botch, min_one, auto
    return _pool(r.damage_dice + extra, DAMAGE_DIFFICULTY, s.damage_ones_cancel, False, True, 0)


def riposte_soak_pool(s: Strike, r: Riposte, damage: int) -> VtmPool | None:
    """The attacker's soak against a riposte's ``damage`` successes (None: nothing to soak)."""
    if not damage or not r.soak:
        return None
    return _pool(r.soak, SOAK_DIFFICULTY, s.damage_ones_cancel, False, False, 0)


def riposte_levels(damage: int, soaked: int) -> int:
    """Health levels a riposte costs the attacker (V-DEF-5, V-DMG-5)."""
    return max(0, damage - soaked)


def damage_dice_of(s: Strike, net: int) -> tuple[int, int]:
    """(successes added, damage pool) of a hit with ``net`` successes: each success
    beyond the first adds a damage die (V-DMG-1), or each one (an option)."""
    extra = net if s.every_success_adds else net - 1
    return extra, s.damage_dice + extra + s.extra_damage_dice


def damage_pool(s: Strike, pool: int) -> VtmPool | None:
    """The damage roll of ``pool`` dice: at least one die (V-DMG-4) unless an option
    pack says otherwise (None: no roll, no damage)."""
    if pool <= 0 and not s.min_one_die:
        return None
    # dice, difficulty, ones_cancel, can_botch, min_one, auto
    return _pool(pool, DAMAGE_DIFFICULTY, s.damage_ones_cancel, False, True, s.damage_auto)


def disarms(s: Strike, dealt: int) -> bool:
    """Disarm: successes above the target's Strength disarm it and do no damage
    (V-CC-6; reading: counted before soak)."""
    return s.disarm_above is not None and dealt > s.disarm_above


def breaks_armour(s: Strike, dealt: int) -> bool:
    """Armour breaks when one attack's damage reaches twice its rating (V-ARM-3)."""
    return s.armour_rating > 0 and dealt >= 2 * s.armour_rating


def soak_pool(s: Strike, dealt: int) -> VtmPool | None:
    """The soak roll against ``dealt`` damage successes (reflexive, difficulty 6, never
    botches: V-SOAK-3); None when there is nothing to soak or no die to soak with."""
    if dealt <= 0 or s.soak <= 0:
        return None
    return _pool(s.soak, SOAK_DIFFICULTY, s.damage_ones_cancel, False, False, 0)


def levels_lost(s: Strike, dealt: int, soaked: int) -> tuple[int, bool]:
    """(health levels lost, halved): damage left after soak (V-DMG-5), bashing halved
    for a vampire (V-DMG-6)."""
    levels = dealt - soaked
    if levels <= 0:
        return 0, False
    if s.halve_bashing and s.damage_type == "bashing":
        return levels // 2, True
    return levels, False


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
    end and comes back unchanged. Each state holds what the next stages read
    (the exact odds run the same stage rules over distributions: ``strike_odds``).
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
    attack = dice.roll(attack_pool(s), lambda: _attack_ask(s))
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
        return _missed(successes, events, botch=True)
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
    request = defence_pool(s, successes)
    if request is not None and s.defence is not None:
        d = s.defence
        roll = dice.roll(request, lambda: _defence_ask(s))
        net = net_after_defence(successes, roll.result.successes)
        events.append(defence_rolled(d, successes, roll))
        if net < 0 and d.riposte is not None:
            parried = _riposte(s, d.riposte, -net, dice, events)
    elif s.defence is not None:
        # No success to oppose: the defence is still spent.
        events.append(defence_rolled(s.defence, 0, None))
    if net <= 0:
        events.append(
            AttackMissed(attacker=s.attacker, target=s.target, rules=("V-ATK-5", "V-DEF-2"))
        )
        return _missed(successes, events, parried=parried)
    if s.no_damage:
        return _hit(successes, net, events)
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
    extra, pool = damage_dice_of(s, net)
    items = damage_items(s, extra, pool)
    request = damage_pool(s, pool)
    if request is None:
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
        return _hit(successes, net, events, damage_type=s.damage_type)
    damage = dice.roll(request, lambda: damage_ask(s, items, pool))
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

    if disarms(s, dealt):
        return _hit(successes, net, events, damage_type=s.damage_type, damage=dealt, disarmed=True)

    broken = breaks_armour(s, dealt)
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
    request = soak_pool(s, dealt)
    if request is not None:
        soak = dice.roll(request, lambda: _soak_ask(s))
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
    levels, halved = levels_lost(s, dealt, soaked)
    rules: tuple[str, ...] = ("V-DMG-3", "V-DMG-5")
    if halved:
        rules = (*rules, "V-DMG-6")
    if levels or halved:
        # Halved to nothing is still said, so the log explains the untouched track.
        events.append(
            DamageTaken(target=s.target, levels=levels, damage_type=s.damage_type, rules=rules)
        )
    return _hit(
        state.successes,
        state.net,
        events,
        damage_type=s.damage_type,
        damage=dealt,
        levels=levels,
        broken=state.broken,
    )


def _missed(
    successes: int, events: list[Event], *, botch: bool = False, parried: int = 0
) -> StrikeOutcome:
    """A strike that does not hit: a botched attack roll, or a defence that leaves no
    success (a parry's riposte may cost the attacker ``parried`` levels, V-DEF-5)."""
    return StrikeOutcome(
        attack_successes=successes,
        botch=botch,
        net=0,
        hit=False,
        parried_onto_attacker=parried,
        events=tuple(events),
    )


def _hit(
    successes: int,
    net: int,
    events: list[Event],
    *,
    damage_type: str = "bashing",
    damage: int = 0,
    levels: int = 0,
    broken: bool = False,
    disarmed: bool = False,
) -> StrikeOutcome:
    """A strike that hits with ``net`` successes, and what its damage did: nothing (a hold's
    hit, no damage die to roll), a disarm (V-CC-6), or the levels lost after soak."""
    return StrikeOutcome(
        attack_successes=successes,
        botch=False,
        net=net,
        hit=True,
        damage=damage,
        levels=levels,
        damage_type=damage_type,
        armour_destroyed=broken,
        disarmed=disarmed,
        events=tuple(events),
    )


def _riposte(s: Strike, r: Riposte, extra: int, dice: DiceSource, events: list[Event]) -> int:
    """The parrying weapon's damage plus the parry's extra successes, on the attacker (V-DEF-5)."""
    pool = r.damage_dice + extra
    items = (("damage", r.damage_dice), ("extra_successes", extra), *_at_least_one(pool))
    items = tuple(item for item in items if item[1])
    damage = dice.roll(
        riposte_pool(s, r, extra),
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
    request = riposte_soak_pool(s, r, damage.result.successes)
    if request is not None:
        soak = dice.roll(request, lambda: soak_ask(s.attacker, _attacker_name(s), r.soak))
        soaked = soak.result.successes
        events.append(
            SoakRolled(
                target=s.attacker, pool=r.soak, successes=soaked, rules=("V-SOAK-3",), rolls=(soak,)
            )
        )
    levels = riposte_levels(damage.result.successes, soaked)
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


# ----------------------------------------------------------------- over a distribution


@dataclass(slots=True)
class StrikeEnd:
    """One way a strike's dice end, as what follows the dice reads it, with its mass.

    ``script`` forces ``roll_strike`` down one path that ends so (outcome indices
    of each roll, for ``ForcedDice``): replayed, it gives the outcome and its
    events. ``members`` splits the mass by damage successes (the only field an
    end's paths still differ in beside the net and attack successes), each with
    a script of its own.
    """

    p: float
    script: tuple[int, ...]
    members: dict[int, list[Any]]


@dataclass(frozen=True, kw_only=True)
class StrikeOdds:
    """The exact distribution of a strike's dice, stage by stage (``strike_odds``)."""

    p_botch: float
    net: dict[int, float]
    """Net successes after the defence (0: a miss or a botch)."""
    damage: dict[int, float]
    """Damage successes before soak (0: no damage roll)."""
    levels: dict[int, float]
    """Health levels the target loses."""
    p_armour_destroyed: float
    ends: dict[tuple[Any, ...], StrikeEnd]
    """Each distinct end of the dice: ``("botch",)``, ``("miss", levels parried onto the
    attacker)``, ``("hit",)`` (no damage or no damage roll), ``("disarmed", damage)``,
    ``("hit", levels, armour broken)``."""


def _add(dist: dict[int, list[Any]], key: int, p: float, script: tuple[int, ...]) -> None:
    entry = dist.get(key)
    if entry is None:
        dist[key] = [p, script]
    else:
        entry[0] += p


def _end(
    ends: dict[tuple[Any, ...], StrikeEnd],
    key: tuple[Any, ...],
    p: float,
    script: tuple[int, ...],
    damage: int = 0,
) -> None:
    e = ends.get(key)
    if e is None:
        ends[key] = StrikeEnd(p, script, {damage: [p, script]})
        return
    e.p += p
    m = e.members.get(damage)
    if m is None:
        e.members[damage] = [p, script]
    else:
        m[0] += p


def strike_odds(
    s: Strike, share: Callable[[int], int] | None = None, *, paths: bool = True
) -> StrikeOdds:
    """The strike's stages over the exact distribution of every roll.

    The same rules as ``roll_strike`` (``attack_pool``, ``defence_pool``,
    ``damage_dice_of``... above), each run once per distinct input value of its
    stage and outcome of its roll, with the mass carried between stages and equal
    values merged. ``share`` turns the attack's successes into the target's share
    of a roll made for several (a volley, ``volley_odds``). ``paths=False``: the
    distributions alone, no ``ends`` (what the odds need when nothing after the dice
    is run, ``odds._ends_read``; ``_bare_odds``): no script is kept, and a parried miss
    is not split by what its riposte costs the attacker (only the attacker's track reads
    it).
    """
    if not paths:
        return _bare_odds(s, share)
    ends: dict[tuple[Any, ...], StrikeEnd] = {}
    net_dist: dict[int, float] = {}
    levels_dist: dict[int, float] = {}
    p_botch = 0.0

    # The attack roll (V-ATK-5).
    rolled: dict[int, list[Any]] = {}
    for i, (r, p) in enumerate(attack_pool(s).outcomes()):
        if r.botch:
            p_botch += p
            _end(ends, ("botch",), p, (i,))
        else:
            _add(rolled, share(r.successes) if share is not None else r.successes, p, (i,))
    if p_botch:
        net_dist[0] = p_botch

    # The defence (V-DEF-2, V-DEF-5).
    through: dict[int, list[Any]] = {}
    riposte = s.defence.riposte if s.defence is not None else None
    damaging = not s.no_damage
    for k, (p, script) in rolled.items():
        request = defence_pool(s, k)
        if request is None:
            nets: list[tuple[int, float, tuple[int, ...]]] = [(k, p, script)]
        else:
            nets = [
                (net_after_defence(k, r.successes), p * q, (*script, j))
                for j, (r, q) in enumerate(request.outcomes())
            ]
        for net, pn, sn in nets:
            seen = net if net > 0 else 0
            net_dist[seen] = net_dist.get(seen, 0.0) + pn
            if net > 0 and damaging:
                entry = through.get(net)
                if entry is None:
                    through[net] = [pn, sn]
                else:
                    entry[0] += pn
            elif net < 0 and riposte is not None:
                _riposte_ends(s, riposte, -net, pn, sn, ends)
            elif net <= 0:
                _end(ends, ("miss", 0), pn, sn)
            else:
                _end(ends, ("hit",), pn, sn)

    # The damage roll (V-DMG-1, V-DMG-2, V-DMG-4).
    dealt: dict[int, list[Any]] = {}
    for net, (p, script) in through.items():
        request = damage_pool(s, damage_dice_of(s, net)[1])
        if request is None:
            _end(ends, ("hit",), p, script)
            continue
        for j, (r, q) in enumerate(request.outcomes()):
            entry = dealt.get(r.successes)
            if entry is None:
                dealt[r.successes] = [p * q, (*script, j)]
            else:
                entry[0] += p * q

    # Disarm (V-CC-6), armour (V-ARM-3), soak and the levels lost (V-SOAK-*, V-DMG-5, V-DMG-6).
    # No damage roll so far: a botch, a miss, a hit without damage.
    settled = math.fsum(e.p for e in ends.values())
    damage = {0: settled} if ends or settled else {}
    p_armour = 0.0
    for x, (p, script) in dealt.items():
        damage[x] = damage.get(x, 0.0) + p
        if disarms(s, x):
            _end(ends, ("disarmed", x), p, script, x)
            continue
        broken = breaks_armour(s, x)
        p_armour += p if broken else 0.0
        request = soak_pool(s, x)
        if request is None:
            _end(ends, ("hit", levels_lost(s, x, 0)[0], broken), p, script, x)
            continue
        lost: dict[int, list[Any]] = {}  # levels -> [mass, the first soak outcome giving them]
        for j, (r, q) in enumerate(request.outcomes()):
            levels = levels_lost(s, x, r.successes)[0]
            entry = lost.get(levels)
            if entry is None:
                lost[levels] = [p * q, j]
            else:
                entry[0] += p * q
        for levels, (pl, j) in lost.items():
            _end(ends, ("hit", levels, broken), pl, (*script, j), x)

    for key, e in ends.items():
        n = key[1] if key[0] == "hit" and len(key) == 3 else 0
        levels_dist[n] = levels_dist.get(n, 0.0) + e.p
    return StrikeOdds(
        p_botch=p_botch,
        net=net_dist,
        damage=damage,
        levels=levels_dist,
        p_armour_destroyed=p_armour,
        ends=ends,
    )


def _bare_odds(s: Strike, share: Callable[[int], int] | None) -> StrikeOdds:
    """``strike_odds`` without its ends: the same stage rules, called in the same order on
    the same values, the masses merged by value in one dict per stage.

    Each stage's input is the dict the stage before merged: the hits' masses are the
    net successes' own above 0 (``net``), and what ends before any damage roll (a botch,
    a miss, a hit without damage) is the mass of 0 net successes, plus the hits that roll
    no damage. A stage rule hands back one frozen pool per request (``_pool``), whose
    outcomes are read as rows once (``VtmPool.success_rows``) however many inputs and
    queries ask for it (the defence against each attack value, the soak against each
    damage value).
    """
    net: dict[int, float] = {}
    p_botch = 0.0

    # The attack roll (V-ATK-5).
    rolled: dict[int, float] = {}
    for r, p in attack_pool(s).outcomes():
        if r.botch:
            p_botch += p
        else:
            k = share(r.successes) if share is not None else r.successes
            rolled[k] = rolled.get(k, 0.0) + p
    if p_botch:
        net[0] = p_botch

    # The defence (V-DEF-2): a net of 0 or less is a miss.
    get = net.get
    for k, p in rolled.items():
        request = defence_pool(s, k)
        if request is None:
            seen = k if k > 0 else 0
            net[seen] = get(seen, 0.0) + p
            continue
        for x, q in request.success_rows:
            seen = net_after_defence(k, x)
            if seen < 0:
                seen = 0
            net[seen] = get(seen, 0.0) + p * q

    # The damage roll (V-DMG-1, V-DMG-2, V-DMG-4).
    dealt: dict[int, float] = {}
    if s.no_damage:  # a hit does no damage: every end is settled before a damage roll
        settled = math.fsum(net.values())
    else:
        settled = get(0, 0.0)
        got = dealt.get
        for k, p in net.items():
            if k <= 0:
                continue
            request = damage_pool(s, damage_dice_of(s, k)[1])
            if request is None:
                settled += p
                continue
            for x, q in request.success_rows:
                dealt[x] = got(x, 0.0) + p * q

    # Disarm (V-CC-6), armour (V-ARM-3), soak and the levels lost (V-SOAK-*, V-DMG-5, V-DMG-6).
    damage = {0: settled} if settled else {}
    levels = {0: settled} if settled else {}
    p_armour = 0.0
    at = levels.get
    for x, p in dealt.items():
        damage[x] = damage.get(x, 0.0) + p
        if disarms(s, x):
            levels[0] = at(0, 0.0) + p
            continue
        if breaks_armour(s, x):
            p_armour += p
        request = soak_pool(s, x)
        if request is None:
            n = levels_lost(s, x, 0)[0]
            levels[n] = at(n, 0.0) + p
            continue
        for y, q in request.success_rows:
            n = levels_lost(s, x, y)[0]
            levels[n] = at(n, 0.0) + p * q
    return StrikeOdds(
        p_botch=p_botch,
        net=net,
        damage=damage,
        levels=levels,
        p_armour_destroyed=p_armour,
        ends={},
    )


def _riposte_ends(
    s: Strike,
    r: Riposte,
    extra: int,
    p: float,
    script: tuple[int, ...],
    ends: dict[tuple[Any, ...], StrikeEnd],
) -> None:
    """A parried miss, split by the levels the riposte costs the attacker (V-DEF-5)."""
    for i, (dmg, q) in enumerate(riposte_pool(s, r, extra).outcomes()):
        request = riposte_soak_pool(s, r, dmg.successes)
        if request is None:
            levels = riposte_levels(dmg.successes, 0)
            _end(ends, ("miss", levels), p * q, (*script, i))
            continue
        for j, (soak, q2) in enumerate(request.outcomes()):
            levels = riposte_levels(dmg.successes, soak.successes)
            _end(ends, ("miss", levels), p * q * q2, (*script, i, j))
