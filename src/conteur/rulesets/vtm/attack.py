"""Attacks: from a declared action to a ``Strike``, its dice, and their effects.

``draft_attack`` gathers the pool (V-ATK-1, V-ATK-2) and difficulty (V-ATK-4)
and runs every registered modifier rule (``modifiers.py``); ``defence_for``
finds the target's block, dodge or parry (V-DEF-*); ``strike_for`` fixes
damage and soak (V-DMG-*, V-SOAK-*, V-ARM-*). ``attack`` plays it and emits
the events. ``odds`` reuse the same functions over exact dice.
"""

from __future__ import annotations

from typing import Any

from conteur.dice.asks import RollAsk, difficulty
from conteur.engine import Resolution
from conteur.i18n import ConteurError, Msg

from . import equipment, hooks
from .asks import StrikeAsks, attack_ask, parts, word
from .conditions import Dazed, KnockedDown
from .defence import defence_rolled as defence_used
from .defence import ready_defence
from .events import ConditionSet, ModifiersUsed
from .hooks import AfterHit, AttackDraft
from .readiness import multiple_actions_count
from .rulebook import Rulebook, rules_of
from .soak import soak_parts, soak_pool
from .state import Action, Fighter, VtmState
from .strike import Defence, Riposte, Strike, StrikeOutcome, roll_strike

ATTRIBUTES = {"strength", "dexterity", "stamina", "perception", "wits", "manipulation"}


def base_traits(m: Any, weapon: Any | None) -> list[str]:
    """The traits of the maneuver that fit the weapon in hand (V-ATK-1)."""
    options: list[list[str]] = [list(o) for o in equipment.maneuver_traits(m)]
    if len(options) == 1:
        return options[0]
    category = equipment.weapon_category(weapon)
    wanted = {"melee": "melee", "brawl": "brawl", "ranged": "firearms", "thrown": "athletics"}[
        category
    ]
    for option in options:
        if wanted in option:
            return option
    return options[0]


def draft_attack(
    state: VtmState, attacker: Fighter, target: Fighter, action: Action, multiple_penalty: int = 0
) -> AttackDraft:
    """Pool and difficulty of an attack with every situational rule applied."""
    m = equipment.maneuver(state, action.kind)
    weapon = equipment.weapon_for(state, attacker, action, m)
    ranged = equipment.is_ranged(m, weapon)
    d = AttackDraft(
        state=state,
        attacker=attacker,
        target=target,
        action=action,
        maneuver=m,
        weapon=weapon,
        ranged=ranged,
        close=not ranged,
        multiple_penalty=multiple_penalty,
    )
    traits = base_traits(m, weapon)
    traits = equipment.configured_traits(state, m, traits)
    d.flags["traits"] = tuple(traits)
    attribute = next((t for t in traits if t in ATTRIBUTES), traits[0])
    abilities = [t for t in traits if t != attribute]
    d.pool = attacker.trait(attribute)
    d.rules.append("V-ATK-1")
    d.notes.append(("V-ATK-1", attribute, d.pool))
    d.pool_parts.append((attribute, d.pool))
    for ability in abilities:
        dots = attacker.trait(ability)
        if dots:
            d.pool += dots
            d.notes.append(("V-ATK-1", ability, dots))
            d.pool_parts.append((ability, dots))
        else:
            d.flags["untrained"] = True
            d.rules.append("V-ATK-2")
    d.difficulty = 6
    d.rules.append("V-ATK-4")
    book = rules_of(state)
    for rule in book.of(hooks.pool_rule):
        rule(d)
    for rule in book.of(hooks.difficulty_rule):
        rule(d)
    return d


def attack(
    ctx: Resolution,
    attacker: Fighter,
    action: Action,
    multiple_penalty: int = 0,
    willpower: bool = False,
) -> StrikeOutcome:
    """Play one attack of ``attacker`` on ``action.target`` and emit its events."""
    state: VtmState = ctx.state
    if action.target is None or action.target not in state.fighters:
        raise ConteurError("vtm.attack.no_target", rule="V-GEN-1", fighter=attacker.name)
    target = state.fighters[action.target]
    equipment.check_reach(state, attacker, target, action)
    d = draft_attack(state, attacker, target, action, multiple_penalty)
    defence = defence_for(ctx, d)
    strike = strike_for(d, defence, willpower)
    outcome = roll_strike(strike, ctx.dice)
    conclude_attack(ctx, d, defence, outcome)
    return outcome


def conclude_attack(
    ctx: Resolution, d: AttackDraft, defence: Defence | None, outcome: StrikeOutcome
) -> None:
    """What follows an attack's dice: its events, then the after-attack hooks and V-DMG-7.

    ``odds.py`` runs its parts too, once per group of outcomes equal in what each reads.
    """
    fold_dice(ctx, d, defence, outcome.events)
    run_after_hooks(ctx, d, outcome)
    dazed_by_damage(ctx, d.target, outcome)


def fold_dice(
    ctx: Resolution, d: AttackDraft, defence: Defence | None, events: tuple[Any, ...]
) -> None:
    """The events of the dice into the state; the GM modifiers they used are spent."""
    if ctx.state.pending_modifiers.get(d.attacker.id):
        ctx.emit(ModifiersUsed(fighter=d.attacker.id))
    for event in events:
        ctx.emit(event)
    defence_rolled(ctx, defence, events)


def run_after_hooks(ctx: Resolution, d: AttackDraft, outcome: StrikeOutcome) -> None:
    """The maneuver's after-hit hooks and every after-attack hook, in order."""
    for after in after_hooks(rules_of(d.state), d.maneuver):
        after(ctx, d, outcome)


def after_hooks(book: Rulebook, m: Any) -> list[AfterHit]:
    """What runs after an attack's dice: the hook of the maneuver, those of its effect
    types (so custom maneuvers get them too, V-CC-0), then those of every attack; each once."""
    found = [
        book.at(hooks.after_hit).get(equipment.maneuver_id(m)),
        *(book.at(hooks.after_hit).get(str(e.type)) for e in getattr(m, "effects", ())),
        *book.of(hooks.after_attack),
    ]
    out: list[AfterHit] = []
    for hook in found:
        if hook is not None and hook not in out:
            out.append(hook)
    return out


def dazed_by_damage(ctx: Resolution, target: Fighter, outcome: StrikeOutcome) -> None:
    """V-DMG-7: one attack's unsoaked damage above Stamina (+2 supernatural) dazes the victim."""
    if dazes(ctx.state, target, outcome.levels):
        ctx.emit(
            ConditionSet(target=target.id, condition=Dazed.key, value=True, rules=("V-DMG-7",))
        )


def daze_threshold(state: VtmState, target: Fighter) -> int:
    """V-DMG-7: the most levels one attack may cost ``target`` without dazing it: its
    Stamina, +2 for a supernatural being (an option may say another bonus)."""
    threshold = target.trait("stamina")
    if target.supernatural:
        threshold += int(state.options.get("dazed_threshold_bonus_supernatural", 2))
    return threshold


def dazes(state: VtmState, target: Fighter, levels: int, threshold: int | None = None) -> bool:
    """V-DMG-7: whether ``levels`` lost in one attack daze ``target`` (its damage taken).

    ``threshold``: the target's ``daze_threshold``, when the caller already read it (the
    odds ask once per levels value)."""
    if threshold is None:
        threshold = daze_threshold(state, target)
    return levels > threshold and not target.out_of_fight


# ----------------------------------------------------------------- defence


def defence_for(ctx: Resolution, d: AttackDraft) -> Defence | None:
    """The defence the target has ready against this attack, if any (V-DEF-1..9)."""
    return ready_defence(ctx, d)


def defence_rolled(ctx: Resolution, defence: Defence | None, events: tuple[Any, ...]) -> None:
    """The defender's game-master modifiers are used when its dice were rolled."""
    defence_used(ctx, defence, events)


# ----------------------------------------------------------------- damage and soak


def strike_for(d: AttackDraft, defence: Defence | None, willpower: bool) -> Strike:
    """Fix the damage pool and the soak of an attack (V-DMG-2, V-SOAK-1, V-SOAK-2, V-ARM-1)."""
    state = d.state
    damage_parts, damage_auto, damage_type, source = equipment.damage_parts_of(state, d)
    damage_dice = sum(n for _, n in damage_parts)
    bypass = bool(d.flags.get("bypass_armour"))  # V-MAN-8: a called shot past the armour
    soaked_by = soak_parts(d.target, damage_type, source, state, with_armour=not bypass)
    soak = sum(n for _, n in soaked_by)
    armour = equipment.armour_of(state, d.target)
    halve = d.target.kind == "vampire" and bool(state.options.get("vampires_halve_bashing", True))
    every = bool(state.options.get("defence_literal_difference")) and defence is not None
    maneuver_id = equipment.maneuver_id(d.maneuver)
    if maneuver_id in ("full_auto", "spray"):
        every = every or bool(state.options.get("auto_fire_every_success"))
    strike = Strike(
        attacker=d.attacker.id,
        target=d.target.id,
        maneuver=maneuver_id,
        pool=d.pool,
        difficulty=d.difficulty,
        damage_dice=damage_dice + d.damage_dice,
        damage_type=damage_type,
        soak=soak,
        armour_rating=armour.rating if armour is not None and not bypass else 0,
        armour_id=equipment.armour_id(armour),
        auto_successes=1 if willpower else 0,
        damage_auto=damage_auto,
        extra_damage_dice=d.extra_damage_dice,
        defence=defence,
        halve_bashing=halve,
        damage_ones_cancel=bool(state.options.get("damage_ones_cancel", False)),
        every_success_adds=every,
        no_damage=bool(d.flags.get("no_damage")),
        disarm_above=d.flags.get("disarm_above"),
        rules=tuple(dict.fromkeys(d.rules)),
        modifiers=format_notes(d),
        asks=lambda: strike_asks(d, defence, 1 if willpower else 0, tuple(soaked_by)),
        pool_parts=tuple(d.pool_parts),
        soak_parts=tuple(soaked_by),
        damage_parts=(*damage_parts, *d.damage_parts),
    )
    for rule in rules_of(d.state).of(hooks.strike_rule):
        strike = rule(d, strike)
    return strike


def strike_asks(
    d: AttackDraft,
    defence: Defence | None,
    auto: int,
    soak: tuple[tuple[str, int], ...] = (),
) -> StrikeAsks:
    """What the attack's rolls are for: the attack with its pool's parts and difficulty,
    the defence with its own, said to the table roll by roll."""
    attack = attack_ask(d, auto)
    ask = None
    if defence is not None:
        defender = d.state.fighters[defence.defender]
        ask = RollAsk(
            who=defender.id,
            what=Msg("ask.what.defence", kind=Msg(f"word.{defence.kind}"), name=defender.name),
            breakdown=parts(defence.parts, sum(amount for _, amount in defence.parts)),
            detail=difficulty(defence.difficulty),
            dice=defence.pool,
        )
    return StrikeAsks(
        attack=attack,
        defence=ask,
        attacker=d.attacker.name,
        target=d.target.name,
        soak=tuple((word(what), n) for what, n in soak),
    )


def format_notes(d: AttackDraft) -> tuple[tuple[str, int], ...]:
    """The modifiers of an attack for the log and the odds view: ``(("aim", 2), ...)``."""
    return tuple((what, amount) for rule, what, amount in d.notes if rule != "V-ATK-1" and amount)


def multiple_penalty(state: VtmState, f: Fighter, action: Action) -> int:
    """V-MAN-1: first action loses as many dice as actions; each following one more."""
    decl = f.progress.declaration
    if decl is None or action.celerity or decl.multiple < 2 or decl.full_defense:
        return 0
    if not multiple_actions_count(state):
        return 0
    return decl.multiple + f.progress.acted


def knock_down(ctx: Resolution, fighter: Fighter, rule: str) -> None:
    """A fighter falls: knocked down and dazed (V-DMG-7)."""
    ctx.emit(
        ConditionSet(
            target=fighter.id, condition=KnockedDown.key, value=True, rules=(rule, "V-DMG-7")
        )
    )
    ctx.emit(
        ConditionSet(target=fighter.id, condition=Dazed.key, value=True, rules=(rule, "V-DMG-7"))
    )


__all__ = [
    "Riposte",
    "attack",
    "draft_attack",
    "knock_down",
    "multiple_penalty",
    "soak_parts",
    "soak_pool",
]
