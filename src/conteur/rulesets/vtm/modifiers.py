"""Each situational modifier of an attack, one small function per rule.

Every function reads the draft of an attack and adds its dice or difficulty
with the rule id it applies. They run in the order registered here. The
rules of ranged combat (aim, range bands, cover, off hand) are in ``ranged.py``.
"""

from __future__ import annotations

from conteur.engine.geometry import distance

from . import equipment
from .conditions import Blinded, HeldBy, Holding, Immobilised, KnockedDown, OffBalance
from .equipment import armour_of, outreached
from .hooks import AttackDraft, difficulty_rule, implements, pool_rule, reads_effect
from .state import Fighter, VtmState

LOCATION_SIZE = {
    "limb": "medium",
    "arm": "medium",
    "leg": "medium",
    "briefcase": "medium",
    "torso": None,
    "hand": "small",
    "head": "small",
    "hat": "small",
    "eye": "precise",
    "heart": "precise",
    "lock": "precise",
}


# ----------------------------------------------------------------- pool


@pool_rule
def wound_penalty(d: AttackDraft) -> None:
    """V-DMG-5: the wound penalty comes off every action's pool."""
    d.add_dice("V-DMG-5", "wounds", d.attacker.penalty)


@pool_rule
def multiple_actions(d: AttackDraft) -> None:
    """V-MAN-1: a multiple action loses dice, one more for each following action."""
    d.add_dice("V-MAN-1", "multiple_actions", -d.multiple_penalty)


@pool_rule
def armour_penalty(d: AttackDraft) -> None:
    """V-ARM-2: heavy armour's penalty comes off Dexterity pools."""
    if "dexterity" in d.flags.get("traits", ()):
        armour = armour_of(d.state, d.attacker)
        if armour is not None:
            d.add_dice("V-ARM-2", "armour", -armour.penalty)


@pool_rule
def flank_and_back(d: AttackDraft) -> None:
    """V-MAN-4: the ``flank_attack`` (+1 die) or ``rear_attack`` (+2) maneuver's accuracy."""
    angle = d.action.param("angle")
    side = {"flank": "flank_attack", "behind": "rear_attack"}.get(str(angle))
    if side is not None:
        d.add_dice("V-MAN-4", str(angle), equipment.maneuver(d.state, side).accuracy)


@pool_rule
def accuracy(d: AttackDraft) -> None:
    """The maneuver's accuracy dice (V-CC-10 bite +1, V-RNG-2/8 +10, V-RNG-6 +2)."""
    acc = int(getattr(d.maneuver, "accuracy", 0) or 0)
    d.add_dice(str(getattr(d.maneuver, "rule", "") or "V-CC-0"), "accuracy", acc)


@pool_rule
def prone_fighters(d: AttackDraft) -> None:
    """V-DMG-7 (core): +1 die against a fighter on the ground; −2 to a prone fighter's blows."""
    if d.target.conditions.of(KnockedDown):
        d.add_dice("V-DMG-7", "target_down", 1)
    if d.close and d.attacker.conditions.of(KnockedDown):
        d.add_dice("V-DMG-7", "attacker_down", -2)


@pool_rule
def immobilised_target(d: AttackDraft) -> None:
    """V-CC-8 (FACTS.md): others attacking an immobilised target gain 2 dice.

    ``immobilised`` holds the id of the one holding it (a hold, V-CC-8), who
    does not gain them, or True when the Conteur set it by hand.
    """
    held = d.target.conditions.of(Immobilised)
    if held and held.given != d.attacker.id:
        d.add_dice("V-CC-8", "immobilised", 2)


@pool_rule
def weapon_length(d: AttackDraft) -> None:
    """V-CC-9: fists or a knife against a staff or sword: close in under 1 m, and lose a die.

    Two fighters already locked in a grapple or hold are past the long weapon's reach.
    """
    if d.close and outreached(d.state, d.weapon, d.target) and not locked(d.attacker, d.target):
        d.add_dice("V-CC-9", "weapon_length", equipment.maneuver(d.state, "weapon_length").accuracy)


def locked(a: Fighter, b: Fighter) -> bool:
    """Whether ``a`` holds ``b`` or is held by it (grapple V-CC-7, hold V-CC-8)."""
    holding = a.conditions.of(Holding)
    held_by = a.conditions.of(HeldBy)
    return (holding is not None and holding.target == b.id) or (
        held_by is not None and held_by.holder == b.id
    )


@pool_rule
def ambush_extra(d: AttackDraft) -> None:
    """V-MAN-7: the ambusher's extra successes join the free attack's pool."""
    amb = d.state.ambush
    if amb and amb.get("attacker") == d.attacker.id and amb.get("target") == d.target.id:
        d.add_dice("V-MAN-7", "ambush", int(amb.get("extra", 0)))


@pool_rule
def game_master_dice(d: AttackDraft) -> None:
    """The Conteur's dice modifiers for this roll, each with its reason."""
    for mod in d.state.pending_modifiers.get(d.attacker.id, []):
        # The reason is the GM's alone (ModifierAdded); the attack's line says « gm ».
        d.add_dice("GM", str(mod.get("reason", "")), int(mod.get("dice", 0)), part="gm")


# ----------------------------------------------------------------- difficulty


@difficulty_rule
def maneuver_difficulty(d: AttackDraft) -> None:
    """The maneuver's difficulty modifier (sweep +1, kick +1, disarm +1, tackle +1...)."""
    delta = int(getattr(d.maneuver, "difficulty", 0) or 0)
    d.add_difficulty(str(getattr(d.maneuver, "rule", "") or "V-ATK-4"), "maneuver", delta)


@difficulty_rule
@implements("V-MAN-8", shots=True)
def targeting_shot(d: AttackDraft) -> None:
    """V-MAN-8 for a shot (an option pack's called shot may take its place)."""
    if d.ranged:
        targeting(d)


@difficulty_rule
@implements("V-MAN-8")
def targeting_blow(d: AttackDraft) -> None:
    """V-MAN-8 for a close blow."""
    if not d.ranged:
        targeting(d)


def targeting(d: AttackDraft) -> None:
    """V-MAN-8: the tables' ``targets`` row — medium +1, small +2 (+1 damage), precise +3
    (+2 damage)."""
    size = d.action.param("targeting")
    location = d.action.param("location")
    if size is None and location is not None:
        size = LOCATION_SIZE.get(str(location))
    row = equipment.tables(d.state).targets.get(str(size)) if size is not None else None
    if row is not None:
        dmg = row.damage
        d.add_difficulty("V-MAN-8", f"target_{size}", row.difficulty)
        d.extra_damage_dice += dmg
        if dmg:
            d.notes.append(("V-MAN-8", "damage", dmg))
            d.damage_parts.append((f"target_{size}", dmg))


@difficulty_rule
def multiple_opponents(d: AttackDraft) -> None:
    """V-CC-11: more difficulty per close-combat opponent beyond the first
    (``opponents_penalty``)."""
    if d.close:
        d.add_difficulty("V-CC-11", "opponents", opponents_penalty(d.state, d.attacker.id))


@reads_effect("per_opponent", needs=("difficulty",), of="multiple_opponents")
def opponents_penalty(state: VtmState, fid: str) -> int:
    """V-CC-11 / V-DEF-9: the ``multiple_opponents`` maneuver's ``per_opponent`` effect — its
    ``difficulty`` per close-combat opponent beyond the first, at most its ``max`` (+1, +4)."""
    effect = equipment.maneuver(state, "multiple_opponents").effect("per_opponent")
    if effect is None:
        return 0
    extra = max(0, close_opponents(state, fid) - 1) * int(effect.difficulty or 0)
    return extra if effect.max is None else min(effect.max, extra)


@difficulty_rule
def blind(d: AttackDraft) -> None:
    """V-MAN-5: blinded or in total darkness, the ``blind_fighting`` maneuver's difficulty
    (+2; cancelled by keen senses)."""
    if is_blind(d.state, d.attacker):
        d.add_difficulty(
            "V-MAN-5", "blind", equipment.maneuver(d.state, "blind_fighting").difficulty
        )


@difficulty_rule
def off_balance(d: AttackDraft) -> None:
    """V-CC-12: a tackled target is off balance, +1 on its actions next turn."""
    if (off := d.attacker.conditions.of(OffBalance)) and off.turn == d.state.turn:
        d.add_difficulty("V-CC-12", "off_balance", 1)


@difficulty_rule
def untrained(d: AttackDraft) -> None:
    """V-ATK-2 option: +1 difficulty when rolling the attribute alone."""
    if d.flags.get("untrained") and d.state.options.get("untrained_plus_one"):
        d.add_difficulty("V-ATK-2", "untrained", 1)


@difficulty_rule
def game_master_difficulty(d: AttackDraft) -> None:
    """The Conteur's difficulty modifiers for this roll."""
    for mod in d.state.pending_modifiers.get(d.attacker.id, []):
        d.add_difficulty(
            "GM", str(mod.get("reason", "")), int(mod.get("difficulty", 0)), part="gm_difficulty"
        )


# ----------------------------------------------------------------- helpers


def close_opponents(state: object, fid: str) -> int:
    """Enemies standing within 2 m who can still fight (V-CC-11)."""
    assert isinstance(state, VtmState)
    f = state.fighters[fid]
    side, here = f.side, f.position
    count = 0
    for e in state.fighters.values():  # ``state.enemies``, without the list (every attack)
        if e.side != side and not e.out_of_fight and distance(here, e.position) <= 2.0:
            count += 1
    return count


KEEN_SENSES = ("heightened_senses", "eyes_of_the_beast")


def is_blind(state: object, f: object) -> bool:
    """Blinded, or in total darkness without Heightened Senses or Eyes of the Beast (V-MAN-5)."""
    assert isinstance(state, VtmState) and isinstance(f, Fighter)
    if not (f.conditions.of(Blinded) or state.darkness):
        return False
    return not any(p in f.sheet.powers for p in KEEN_SENSES)
