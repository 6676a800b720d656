"""Close combat: the maneuvers of "Le Combat" (V-CC-0..12), their complications (V-DMG-7),
flank and rear attacks (V-MAN-4), targeting (V-MAN-8), block and parry against close attacks
(V-DEF-3, V-DEF-5). Typed dice, in roll order: attack, defence, damage, soak, then follow-ups."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from conteur.engine import Encounter
from conteur.i18n import ConteurError
from conteur.rulesets.vtm.close import (
    BreakFreeRolled,
    DisarmBotched,
    Disarmed,
    FeedingStarted,
    GrappleSqueezed,
    Locked,
    LockEnded,
    WoundClosed,
)
from conteur.rulesets.vtm.events import (
    ActionLost,
    AttackMissed,
    AttackRolled,
    Botched,
    ComplicationChosen,
    ConditionSet,
    DamageRolled,
    DamageTaken,
    DefenceRolled,
    InitiativeRolled,
    RollMade,
    SoakRolled,
    WeaponChanged,
)

from .fight import Fight, attack


def duel(a: str, t: str, head: str = "", distance: float = 1) -> Fight:
    """Fighter ``a`` (fast, wits 5) and ``t`` (slow, wits 1), ``distance`` metres apart."""
    return Fight(f"""
{head}
combatants:
  - {{id: a, side: x, position: [0, 0], wits: 5, {a}}}
  - {{id: t, side: y, position: [{distance}, 0], wits: 1, {t}}}
""")


def turn(f: Fight, a_action: dict[str, Any], t_action: dict[str, Any] | None = None) -> Any:
    """A new turn: initiative (a first), t declares (slowest first), then a."""
    f.initiative(10, 1)
    f.declare("t", t_action or {"kind": "other"})
    return f.declare("a", a_action)


def strike(f: Fight, action: dict[str, Any], dice: list[int]) -> Any:
    """A turn in which t does something harmless and a takes ``action`` with ``dice``."""
    turn(f, action)
    return f.act("a", dice)


def refused(rule: str, call: Any, *args: Any, **kwargs: Any) -> ConteurError:
    """Run a command that must be refused under ``rule``, in French and English."""
    with pytest.raises(ConteurError) as err:
        call(*args, **kwargs)
    assert err.value.rule == rule, err.value.message("en")
    assert err.value.message("fr") and err.value.message("en")
    return err.value


# ================================================================== the plain blows


def test_V_CC_5_punch_dex_brawl_strength_bashing() -> None:
    """V-CC-5: Dex + Brawl at difficulty 6, Strength in bashing damage."""
    f = duel("dexterity: 3, brawl: 2, strength: 2", "stamina: 2")
    events = strike(f, attack("punch", "t"), [8, 6, 2, 2, 2] + [6, 7, 2] + [6, 2])
    rolled = events.one(AttackRolled)
    assert (rolled.pool, rolled.difficulty, rolled.successes) == (5, 6, 2)
    damage = events.one(DamageRolled)
    assert (damage.pool, damage.damage_type, damage.successes) == (3, "bashing", 2)  # Str 2 + 1
    assert f["t"].health.count("bashing") == 1  # one level soaked by Stamina 2


def test_V_CC_4_kick_strength_brawl_plus_one_strength_plus_one() -> None:
    """V-CC-4: Str + Brawl as the text's traits line, difficulty +1, damage Strength + 1."""
    f = duel("strength: 3, dexterity: 1, brawl: 2", "stamina: 1")
    events = strike(f, attack("kick", "t"), [7, 2, 2, 2, 2] + [6, 2, 2, 2] + [2])
    rolled = events.one(AttackRolled)
    assert (rolled.pool, rolled.difficulty) == (5, 7)
    assert events.one(DamageRolled).pool == 4 and f["t"].health.count("bashing") == 1


def test_V_CC_4_option_kick_traits_dexterity_brawl() -> None:
    """V-CC-4 table option ``kick_traits``: Dex + Brawl (core rules) instead of Str + Brawl."""
    f = duel(
        "strength: 3, dexterity: 1, brawl: 2",
        "stamina: 1",
        head="options: {kick_traits: dexterity+brawl}",
    )
    rolled = strike(f, attack("kick", "t"), [2, 2, 2]).one(AttackRolled)
    assert (rolled.pool, rolled.difficulty) == (3, 7)


def test_V_CC_2_weapon_strike_dex_melee_weapon_damage() -> None:
    """V-CC-2: Dex + Melee, the weapon's damage (sword: Strength + 2, lethal)."""
    f = duel("dexterity: 2, melee: 3, strength: 2, weapons: [sword]", "stamina: 3")
    events = strike(f, attack("weapon_strike", "t"), [6, 2, 2, 2, 2] + [6, 6, 2, 2])
    assert events.one(AttackRolled).pool == 5
    damage = events.one(DamageRolled)
    assert (damage.pool, damage.damage_type) == (4, "lethal")
    assert not events.of(SoakRolled)  # a mortal does not soak lethal (V-SOAK-1)
    assert f["t"].health.count("lethal") == 2


def test_V_CC_2_weapon_strike_needs_a_melee_weapon() -> None:
    """V-CC-2: no melee weapon in hand, no weapon strike (refused when declared)."""
    f = duel("dexterity: 2, melee: 3", "stamina: 3")
    f.initiative(10, 1)
    f.declare("t", {"kind": "other"})
    refused("V-CC-2", f.declare, "a", attack("weapon_strike", "t"))
    assert f["a"].progress.declaration is None


@pytest.mark.parametrize(
    ("power", "damage_type"), [("feral_claws", "aggravated"), ("bone_claws", "lethal")]
)
def test_V_CC_3_claws_feral_aggravated_bone_lethal(power: str, damage_type: str) -> None:
    """V-CC-3: Dex + Brawl, Strength + 1; Feral Claws aggravated, Vicissitude's bone claws lethal."""
    f = duel(f"kind: vampire, dexterity: 3, brawl: 2, strength: 2, powers: [{power}]", "stamina: 3")
    events = strike(f, attack("claws", "t"), [6, 2, 2, 2, 2] + [6, 6, 2])
    damage = events.one(DamageRolled)
    assert (damage.pool, damage.damage_type) == (3, damage_type)
    assert not events.of(SoakRolled)  # a mortal soaks neither lethal nor aggravated
    assert f["t"].health.boxes[:2] == [damage_type, damage_type]


def test_V_CC_3_claws_refused_without_the_power() -> None:
    """V-CC-3: only with Feral Claws, bone claws or natural claws."""
    f = duel("kind: vampire, dexterity: 3, brawl: 2", "stamina: 3")
    f.initiative(10, 1)
    f.declare("t", {"kind": "other"})
    err = refused("V-CC-3", f.declare, "a", attack("claws", "t"))
    assert err.key == "vtm.attack.needs_power"


# ================================================================== sweep and tackle


def test_V_CC_1_sweep_failed_footing_knocks_down_and_dazes() -> None:
    """V-CC-1: Dex + Brawl at +1, Strength damage; the target rolls Dex + Athletics at
    difficulty 8 or is knocked down and dazed (V-DMG-7): it loses its next action."""
    f = duel("dexterity: 3, brawl: 2, strength: 2", "dexterity: 2, athletics: 1, stamina: 1")
    f.initiative(10, 1)
    f.declare("t", attack("punch", "a"))
    f.declare("a", attack("sweep", "t"))
    events = f.act("a", [7, 2, 2, 2, 2] + [2, 2] + [7, 7, 2])
    rolled = events.one(AttackRolled)
    assert (rolled.pool, rolled.difficulty) == (5, 7)
    check = events.one(RollMade)
    assert (check.fighter, check.purpose, check.pool, check.difficulty) == (
        "t",
        "keep_footing",
        3,
        8,
    )
    assert check.successes == 0 and "V-CC-1" in check.rules and "V-DMG-7" in check.rules
    assert f["t"].conditions.get("knocked_down")
    lost = events.one(ActionLost)  # dazed: t's punch is lost, and the daze spent
    assert (lost.fighter, lost.reason) == ("t", "dazed")
    assert "dazed" not in f["t"].conditions and f.state.phase == "setup"


def test_V_CC_1_sweep_kept_footing_and_missed_sweep() -> None:
    """V-CC-1: a success at difficulty 8 keeps the target up; a missed sweep asks no roll."""
    f = duel("dexterity: 3, brawl: 2, strength: 2", "dexterity: 2, athletics: 1, stamina: 1")
    events = strike(f, attack("sweep", "t"), [7, 2, 2, 2, 2] + [2, 2] + [8, 2, 2])
    assert events.one(RollMade).successes == 1
    assert "knocked_down" not in f["t"].conditions and "dazed" not in f["t"].conditions
    g = duel("dexterity: 3, brawl: 2, strength: 2", "dexterity: 2, athletics: 1, stamina: 1")
    events = strike(g, attack("sweep", "t"), [6, 2, 2, 2, 2])
    assert events.of(AttackMissed) and not events.of(RollMade)


def test_V_CC_1_footing_is_reflexive_no_wound_penalty_but_armour_hinders() -> None:
    """V-CC-1 / V-DMG-7: the footing roll takes no action: wounds do not reduce it (as soak,
    V-DMG-5), but a breastplate's Dexterity penalty does (V-ARM-2)."""
    f = duel(
        "dexterity: 3, brawl: 2, strength: 1",
        "dexterity: 3, athletics: 1, stamina: 1, armour: breastplate,"
        " health: [bashing, bashing, bashing, bashing]",
    )
    events = strike(f, attack("sweep", "t"), [7, 2, 2, 2, 2] + [2] + [8, 2])
    assert events.one(RollMade).pool == 3 + 1 - 2


def test_V_CC_1_sweep_with_a_staff_uses_melee_and_the_weapon() -> None:
    """V-CC-1: Dex + Melee with a staff or chain; the target takes the weapon's damage."""
    f = duel(
        "dexterity: 2, melee: 2, brawl: 4, strength: 2, weapons: [staff]",
        "dexterity: 2, athletics: 1, stamina: 1",
    )
    events = strike(f, attack("sweep", "t"), [7, 2, 2, 2] + [2, 2, 2] + [7, 7, 2])
    assert events.one(AttackRolled).pool == 4  # Dex 2 + Melee 2, not Brawl
    damage = events.one(DamageRolled)
    assert (damage.pool, damage.damage_type) == (3, "bashing")  # Str 2 + staff 1, blunt
    assert f["t"].conditions.get("knocked_down")


def test_V_CC_12_tackle_both_roll_and_target_off_balance_next_turn() -> None:
    """V-CC-12: Str + Brawl at +1, Strength + 1; both roll Dex + Athletics at 7 (target
    first) or are knocked down and dazed; even standing, the target is off balance: +1
    difficulty on its actions next turn."""
    f = duel(
        "strength: 3, brawl: 2, dexterity: 2, athletics: 1, stamina: 2",
        "dexterity: 2, athletics: 2, brawl: 1, stamina: 1",
    )
    events = strike(
        f,
        attack("tackle", "t"),
        [7, 8, 2, 2, 2]  # Str 3 + Brawl 2 at 7: 2 successes
        + [6, 2, 2, 2, 2]  # damage Str 3 + 1 + 1 extra = 5 dice: 1
        + [2]  # soak Stamina 1
        + [7, 2, 2, 2]  # target's footing, 4 dice at 7: kept
        + [2, 2, 2],  # attacker's footing, 3 dice at 7: falls
    )
    rolled = events.one(AttackRolled)
    assert (rolled.pool, rolled.difficulty) == (5, 7)
    assert events.one(DamageRolled).pool == 5
    checks = events.of(RollMade)
    assert [(c.fighter, c.pool, c.difficulty, c.successes) for c in checks] == [
        ("t", 4, 7, 1),
        ("a", 3, 7, 0),
    ]
    assert "knocked_down" not in f["t"].conditions
    assert f["a"].conditions.get("knocked_down") and f["a"].conditions.get("dazed")
    assert f["t"].conditions["off_balance_turn"] == 2
    f.act("t")
    # Turn 2: a is dazed and loses its action; t's punch at the fallen a is at
    # difficulty 7 (off balance) with +1 die against a target on the ground.
    f.initiative(10, 1)
    f.declare("t", attack("punch", "a"))
    events = f.declare("a", {"kind": "other"})
    assert events.one(ActionLost).fighter == "a"
    rolled = f.act("t", [2, 2, 2, 2]).one(AttackRolled)
    assert (rolled.pool, rolled.difficulty) == (4, 7)  # Dex 2 + Brawl 1 + 1
    assert {"V-CC-12", "V-DMG-7"} <= set(rolled.rules)
    # Turn 3: the off balance is over.
    f.initiative(10, 1)
    f.declare("t", attack("punch", "a"))
    f.declare("a", {"kind": "stand_up"})
    f.act("a")
    assert "knocked_down" not in f["a"].conditions
    assert f.act("t", [2, 2, 2]).one(AttackRolled).difficulty == 6


def test_V_DMG_7_knocked_down_stands_with_an_action() -> None:
    """V-DMG-7: a knocked-down fighter stands up by spending its action (``stand_up``)."""
    f = duel("dexterity: 3, brawl: 2", "stamina: 1, conditions: {knocked_down: true}")
    f.initiative(10, 1)
    f.declare("t", {"kind": "stand_up"})
    f.declare("a", attack("punch", "t"))
    rolled = f.act("a", [2, 2, 2, 2, 2, 2]).one(AttackRolled)
    assert rolled.pool == 6  # +1 die against a fighter on the ground
    f.act("t")
    assert "knocked_down" not in f["t"].conditions


def test_V_DMG_7_get_up_roll_between_turns_costs_two_initiative() -> None:
    """V-DMG-7 (core): between turns, Dex + Athletics (difficulty 6) stands the fighter up
    without an action, at −2 initiative; a failed roll leaves it down; one try."""
    f = duel(
        "dexterity: 3, brawl: 2",
        "dexterity: 3, athletics: 1, stamina: 1, conditions: {knocked_down: true}",
    )
    events = f.do("get_up", "t", [6, 2, 2, 2])
    roll = events.one(RollMade)
    assert (roll.purpose, roll.pool, roll.difficulty, roll.successes) == ("get_up", 4, 6, 1)
    assert "knocked_down" not in f["t"].conditions
    refused("V-DMG-7", f.do, "get_up", "t", [6, 6, 6, 6])
    rolled = {e.fighter: e for e in f.initiative(10, 1).of(InitiativeRolled)}
    assert rolled["t"].rating == 3 + 1 - 2  # Dex 3 + Wits 1, less 2
    assert "initiative_malus" not in f["t"].conditions  # spent on this turn
    refused("V-DMG-7", f.do, "get_up", "t", [6])  # not knocked down any more
    g = duel("dexterity: 3", "dexterity: 2, athletics: 1, conditions: {knocked_down: true}")
    assert g.do("get_up", "t", [5, 4, 1]).one(RollMade).successes == 0
    assert g["t"].conditions.get("knocked_down")
    refused("V-DMG-7", g.do, "get_up", "t", [6, 6, 6])  # one try between turns
    g.initiative(10, 1)
    refused("V-DMG-7", g.do, "get_up", "t", [6, 6, 6])  # only between turns


# ================================================================== disarm


def test_V_CC_6_disarm_successes_above_strength_disarm_without_damage() -> None:
    """V-CC-6: Dex + Melee at +1; damage successes above the target's Strength: no damage,
    disarmed (its weapon falls). Reading: counted before soak (no soak roll)."""
    f = duel(
        "dexterity: 3, melee: 2, strength: 2, weapons: [sword]",
        "kind: vampire, strength: 2, stamina: 4, weapons: [club]",
    )
    events = strike(f, attack("disarm", "t"), [7, 8, 2, 2, 2] + [6, 6, 6, 2, 2])
    rolled = events.one(AttackRolled)
    assert (rolled.pool, rolled.difficulty) == (5, 7)
    assert events.one(DamageRolled).pool == 5  # sword Str 2 + 2, +1 extra success
    done = events.one(Disarmed)
    assert (done.successes, done.strength, done.weapon) == (3, 2, "club")
    changed = events.one(WeaponChanged)
    assert changed.fighter == "t" and changed.weapon is None and "V-CC-6" in changed.rules
    assert not events.of(SoakRolled) and not events.of(DamageTaken)
    assert f["t"].weapon is None and f["t"].health.filled == 0


def test_V_CC_6_disarm_not_above_strength_the_damage_applies() -> None:
    """V-CC-6: successes not above the opponent's Strength: the damage applies as usual."""
    f = duel(
        "dexterity: 3, melee: 2, strength: 2, weapons: [sword]",
        "strength: 2, stamina: 1, weapons: [club]",
    )
    events = strike(f, attack("disarm", "t"), [7, 2, 2, 2, 2] + [6, 6, 2, 2])
    assert not events.of(Disarmed) and f["t"].weapon == "club"
    assert f["t"].health.count("lethal") == 2


def test_V_CC_6_disarm_needs_an_armed_target() -> None:
    """V-CC-6: nothing to disarm on an empty-handed opponent."""
    f = duel("dexterity: 3, melee: 2, weapons: [sword]", "strength: 2")
    f.initiative(10, 1)
    f.declare("t", {"kind": "other"})
    refused("V-CC-6", f.declare, "a", attack("disarm", "t"))


def botched_disarm() -> Fight:
    f = duel(
        "dexterity: 3, melee: 2, strength: 2, stamina: 1, weapons: [sword]",
        "strength: 2, weapons: [club]",
    )
    events = strike(f, attack("disarm", "t"), [1, 2, 2, 2, 2])
    assert events.one(Botched).context == "disarm"
    assert events.one(DisarmBotched).target == "t"
    assert f.state.botches == [{"fighter": "a", "context": "disarm", "complication": None}]
    offered = [c for c in f.encounter.legal_commands() if c.type == "gm_disarm_botch"]
    assert offered and offered[0].param("outcome").choices == ("disarmed", "struck")
    return f


def test_V_CC_6_botch_the_conteur_chooses_the_attacker_drops_his_weapon() -> None:
    """V-CC-6: a botch is recorded; the Conteur chooses: the attacker loses his weapon..."""
    f = botched_disarm()
    events = f.do("gm_disarm_botch", fighter="a", outcome="disarmed")
    assert "perd lui-même son arme" in events.one(ComplicationChosen).text
    assert f["a"].weapon is None
    assert f.state.botches[0]["complication"] is not None
    refused("V-CC-6", f.do, "gm_disarm_botch", fighter="a", outcome="struck")


def test_V_CC_6_botch_the_conteur_chooses_the_attacker_is_struck() -> None:
    """V-CC-6: ...or gets him struck by the opponent's weapon (club: Str 2 + 2, bashing)."""
    f = botched_disarm()
    refused("V-CC-6", f.do, "gm_disarm_botch", fighter="a", outcome="explodes")
    events = f.do("gm_disarm_botch", None, [6, 6, 2, 2] + [2], fighter="a", outcome="struck")
    damage = events.one(DamageRolled)
    assert (damage.target, damage.pool, damage.damage_type) == ("a", 4, "bashing")
    assert f["a"].health.count("bashing") == 2 and f["a"].weapon == "sword"


# ================================================================== grapple


GRAPPLERS = (
    "strength: 3, brawl: 2, stamina: 2, dexterity: 2",
    "strength: 2, brawl: 1, stamina: 2, dexterity: 2",
)


def test_V_CC_7_grapple_holds_and_the_slower_one_may_only_struggle() -> None:
    """V-CC-7: Str + Brawl; a hit holds the target and rolls Strength damage the first turn.
    No other action until one is free: t's declared punch is refused, it may break free
    (resisted Str + Brawl, more successes: free) or squeeze instead."""
    f = duel(*GRAPPLERS)
    f.initiative(10, 1)
    f.declare("t", attack("punch", "a"))
    f.declare("a", attack("grapple", "t"))
    events = f.act("a", [6, 6, 2, 2, 2] + [6, 2, 2, 2] + [2, 2])
    rolled = events.one(AttackRolled)
    assert (rolled.pool, rolled.difficulty) == (5, 6)
    assert events.one(DamageRolled).pool == 4  # Strength 3, +1 extra success
    locked = events.one(Locked)
    assert (locked.holder, locked.target, locked.kind) == ("a", "t", "grapple")
    assert f["a"].conditions["holding"] == {"target": "t", "kind": "grapple", "turn": 1}
    assert f["t"].conditions["held_by"] == {"holder": "a", "kind": "grapple", "turn": 1}
    err = refused("V-CC-7", f.act, "t", [2, 2, 2])
    assert "break_free" in err.message("en")
    events = f.act("t", [6, 2, 2] + [6, 6, 2, 2, 2], kind="break_free")
    struggle = events.one(BreakFreeRolled)
    assert (struggle.pool, struggle.successes) == (3, 1)  # t: Str 2 + Brawl 1
    assert (struggle.other_pool, struggle.other_successes) == (5, 2)  # a: Str 3 + Brawl 2
    assert not struggle.free and not events.of(LockEnded)
    assert f["t"].conditions.get("held_by")


def grappled() -> Fight:
    """a has grappled t on turn 1 (1 bashing on t); the turn is over."""
    f = duel(*GRAPPLERS)
    f.initiative(10, 1)
    f.declare("t", {"kind": "other"})
    f.declare("a", attack("grapple", "t"))
    f.act("a", [6, 2, 2, 2, 2] + [6, 2, 2] + [2, 2])
    f.do("pass", "t")
    assert f.state.phase == "setup" and f["t"].health.count("bashing") == 1
    return f


def test_V_CC_7_later_turns_strength_damage_automatically_without_attack_roll() -> None:
    """V-CC-7 reading: later turns, in initiative order, each may inflict Strength damage
    "automatically": no attack roll, Strength still rolled as a damage pool, then soaked."""
    f = grappled()
    f.initiative(10, 1)
    refused("V-CC-7", f.declare, "t", attack("punch", "a"))
    kinds = next(c for c in f.encounter.legal_commands("t") if c.type == "declare")
    assert kinds.param("kind").choices == ("grapple_damage", "break_free")
    f.declare("t", {"kind": "grapple_damage"})
    f.declare("a", {"kind": "grapple_damage"})
    events = f.act("a", [6, 6, 2] + [6, 2])
    assert events.one(GrappleSqueezed).pool == 3 and not events.of(AttackRolled)
    damage = events.one(DamageRolled)
    assert (damage.target, damage.pool, damage.successes) == ("t", 3, 2)
    assert events.one(SoakRolled).pool == 2
    assert f["t"].health.count("bashing") == 2
    events = f.act("t", [6, 2] + [2, 2])
    assert events.one(DamageRolled).target == "a" and f["a"].health.count("bashing") == 1


def test_V_CC_7_break_free_with_more_successes_ends_the_grapple() -> None:
    """V-CC-7: the one breaking free needs more successes than the other; then both are free."""
    f = grappled()
    f.initiative(10, 1)
    f.declare("t", {"kind": "break_free"})
    f.declare("a", {"kind": "grapple_damage"})
    f.act("a", [2, 2, 2])  # no damage success: no soak roll
    events = f.act("t", [8, 9, 2] + [6, 2, 2, 2, 2])
    assert events.one(BreakFreeRolled).free
    ended = events.one(LockEnded)
    assert (ended.holder, ended.target, ended.reason) == ("a", "t", "broke_free")
    assert "holding" not in f["a"].conditions and "held_by" not in f["t"].conditions
    f.initiative(10, 1)
    f.declare("t", attack("punch", "a"))  # free again
    refused("V-CC-7", f.declare, "a", {"kind": "grapple_damage"})


def test_V_CC_7_no_defence_while_locked() -> None:
    """V-CC-7: no other action, defences included, until one of the two is free."""
    f = grappled()
    f.initiative(10, 1)
    refused("V-CC-7", f.declare, "t", {"kind": "dodge"})
    f.declare("t", {"kind": "grapple_damage"})
    refused("V-CC-7", f.declare, "a", {"kind": "grapple_damage"}, {"kind": "block"})
    f.declare("a", {"kind": "release"})
    refused("V-CC-7", f.do, "defend", "t", kind="block", abort="point")
    assert f["t"].willpower == f["t"].sheet.willpower
    events = f.act("a")
    assert events.one(LockEnded).reason == "released"


def test_V_CC_7_grapple_survives_turns_undo_and_replay() -> None:
    """V-CC-7: the grapple is state folded from events: it lasts over turns, an undo takes
    back exactly the last command, and a replay of the log rebuilds it."""
    f = grappled()
    f.initiative(10, 1)
    f.declare("t", {"kind": "break_free"})
    f.declare("a", {"kind": "grapple_damage"})
    before = {fid: dict(x.conditions) for fid, x in f.state.fighters.items()}
    f.act("a", [6, 2, 2] + [2, 2])
    f.act("t", [8, 9] + [6, 2, 2, 2, 2])  # Hurt (−1): 2 dice
    assert "held_by" not in f["t"].conditions
    f.encounter.undo()
    assert f["t"].conditions["held_by"] == {"holder": "a", "kind": "grapple", "turn": 1}
    log: list[Mapping[str, Any]] = list(f.encounter.log_dicts())
    replayed = Encounter.replay(f.encounter.scenario, log)
    for fid, fighter in f.state.fighters.items():
        again = replayed.state.fighters[fid]
        assert again.conditions == fighter.conditions and again.health.boxes == fighter.health.boxes
    assert {fid: dict(x.conditions) for fid, x in replayed.state.fighters.items()} == before
    assert replayed.state.fighters["t"].health.count("bashing") == 2


def test_V_CC_7_lock_actions_need_a_lock_and_a_held_target_cannot_be_grappled_twice() -> None:
    """V-CC-7: squeezing or breaking free needs a grapple; a held fighter is not seized again."""
    f = Fight("""
combatants:
  - {id: a, side: x, position: [0, 0], wits: 5, strength: 3, brawl: 2}
  - {id: c, side: x, position: [1, 1], wits: 3, strength: 3, brawl: 2}
  - {id: t, side: y, position: [1, 0], wits: 1, strength: 2, stamina: 2}
""")
    f.initiative(10, 10, 1)
    f.declare("t", {"kind": "other"})
    refused("V-CC-7", f.declare, "c", {"kind": "grapple_damage", "target": "t"})
    f.declare("c", attack("grapple", "t"))
    f.declare("a", attack("grapple", "t"))
    f.act("a", [6, 2, 2, 2, 2] + [2, 2, 2])
    refused("V-CC-7", f.act, "c", [6, 6, 6, 6, 6])


def test_V_CC_7_grapple_ends_when_one_is_out_of_the_fight() -> None:
    """V-CC-7: a grappler put out of the fight (here by the squeezed one's own Strength
    damage, or by the Conteur's hand) holds nothing any more: the lock ends."""
    f = grappled()
    f.do("gm_damage", fighter="a", levels=6, damage_type="lethal")  # Crippled
    f.initiative(10, 1)
    f.declare("t", {"kind": "grapple_damage"})
    f.declare("a", {"kind": "grapple_damage"})
    f.act("a", [2, 2, 2])
    events = f.act("t", [6, 2] + [2, 2])
    assert f["a"].out_of_fight
    ended = events.one(LockEnded)
    assert (ended.reason, ended.rules) == ("out_of_fight", ("V-CC-7", "V-DMG-5"))
    assert "held_by" not in f["t"].conditions and "holding" not in f["a"].conditions
    g = grappled()
    events = g.do("gm_damage", fighter="a", levels=7, damage_type="lethal")
    assert events.one(LockEnded).reason == "out_of_fight"
    g.initiative(1)  # only t is still able to fight
    g.declare("t", {"kind": "dodge"})  # free to defend again


# ================================================================== hold


HOLD = """
combatants:
  - {id: a, side: x, position: [0, 0], wits: 5, strength: 3, brawl: 2, dexterity: 2}
  - {id: t, side: y, position: [1, 0], wits: 3, strength: 2, brawl: 1, dexterity: 2, stamina: 2}
  - {id: c, side: x, position: [1, 1], wits: 1, dexterity: 2, brawl: 1, strength: 1}
"""


def test_V_CC_8_hold_no_damage_immobilised_until_its_next_action() -> None:
    """V-CC-8: Str + Brawl, no damage; the target is immobilised until its next action, when
    both roll resisted Str + Brawl; it stays held until it scores more. Others attacking an
    immobilised target gain 2 dice (FACTS.md); the holder does not."""
    f = Fight(HOLD)
    f.initiative(10, 5, 1)  # a, t, c
    f.declare("c", attack("punch", "t"))
    f.declare("t", attack("punch", "a"))
    f.declare("a", attack("hold", "t"))
    events = f.act("a", [6, 2, 2, 2, 2])
    assert not events.of(DamageRolled)
    assert events.one(Locked).kind == "hold" and f["t"].conditions["immobilised"] == "a"
    # t's next action: no kind named, the escape roll is made in place of its punch.
    events = f.act("t", [6, 2, 2] + [6, 6, 2, 2, 2])
    assert events.one(BreakFreeRolled).free is False
    assert events.of(AttackRolled) == []
    # c strikes the immobilised t: Dex 2 + Brawl 1 + 2 dice; no defence possible.
    rolled = f.act("c", [6, 2, 2, 2, 2] + [2]).one(AttackRolled)
    assert rolled.pool == 5 and "V-CC-8" in rolled.rules
    # Turn 2: t may only try to break free; the holder may not strike.
    f.initiative(10, 5, 1)
    f.declare("c", {"kind": "other"})
    refused("V-CC-8", f.declare, "t", attack("punch", "a"))
    refused("V-CC-8", f.declare, "t", {"kind": "grapple_damage"})
    f.declare("t", {"kind": "break_free"})
    refused("V-CC-8", f.declare, "a", attack("punch", "t"))
    refused("V-CC-8", f.declare, "a", {"kind": "break_free"})
    f.declare("a", {"kind": "release"})
    assert f.act("a").one(LockEnded).reason == "released"
    assert "immobilised" not in f["t"].conditions
    refused("V-CC-7", f.act, "t", [6, 6, 6])  # nothing left to break free from
    f.do("pass", "t")


def test_V_CC_8_hold_broken_by_more_successes() -> None:
    """V-CC-8: more successes than the holder: free, and no longer immobilised."""
    f = Fight(HOLD)
    f.initiative(10, 5, 1)
    f.declare("c", attack("punch", "t"))
    f.declare("t", {"kind": "other"})
    f.declare("a", attack("hold", "t"))
    f.act("a", [6, 2, 2, 2, 2])
    events = f.act("t", [6, 6, 6] + [6, 2, 2, 2, 2])
    assert events.one(BreakFreeRolled).free and events.one(LockEnded).reason == "broke_free"
    assert "immobilised" not in f["t"].conditions and "holding" not in f["a"].conditions
    assert f.act("c", [2, 2, 2]).one(AttackRolled).pool == 3  # no +2 any more


# ================================================================== bite and Kiss


VAMPIRE = "kind: vampire, strength: 2, brawl: 2, dexterity: 3, stamina: 2"
VICTIM = "strength: 1, brawl: 0, dexterity: 2, athletics: 0, stamina: 2"


def test_V_CC_10_bite_after_grapple_next_turn_aggravated() -> None:
    """V-CC-10: a bite needs a successful grapple first and comes the turn after:
    Dex + Brawl, accuracy +1, Strength + 1 aggravated."""
    f = duel(VAMPIRE + ", celerity: 1, blood: 5", VICTIM)
    f.initiative(10, 1)
    f.declare("t", {"kind": "other"})
    refused("V-CC-10", f.declare, "a", attack("grapple", "t"), attack("bite", "t"))
    f.declare("a", attack("grapple", "t"), {"kind": "other"}, celerity=1)
    f.act("a", [6, 2, 2, 2] + [2, 2])
    f.do("pass", "t")
    # End of the turn: a's Celerity action cannot be the bite yet ("the turn after").
    refused("V-CC-10", f.act, "a", [6] * 6, kind="bite")
    f.do("pass", "a")
    f.initiative(10, 1)
    f.declare("t", {"kind": "break_free"})
    f.declare("a", attack("bite", "t"))
    events = f.act("a", [6, 6, 2, 2, 2, 2] + [6, 6, 6, 2])
    rolled = events.one(AttackRolled)
    assert (rolled.pool, rolled.difficulty) == (6, 6)  # Dex 3 + Brawl 2 + 1
    damage = events.one(DamageRolled)
    assert (damage.pool, damage.damage_type) == (4, "aggravated")  # Str 2 + 1, +1 extra
    assert not events.of(SoakRolled) and f["t"].health.count("aggravated") == 3


def test_V_CC_10_bite_after_tackle_only_the_next_turn() -> None:
    """V-CC-10: after a tackle that hit, the bite is allowed the next turn only."""
    f = duel(VAMPIRE + ", athletics: 2", VICTIM)
    events = strike(f, attack("tackle", "t"), [7, 2, 2, 2] + [2, 2, 2] + [7, 2] + [7, 2, 2, 2, 2])
    assert f["a"].conditions["set_up"] == {"maneuver": "tackle", "target": "t", "turn": 1}
    assert len(events.of(RollMade)) == 2
    f.act("t")
    f.initiative(10, 1)
    f.declare("t", {"kind": "other"})
    f.declare("a", attack("bite", "t"))
    f.act("a", [2] * 6)
    f.act("t")
    f.initiative(10, 1)
    f.declare("t", {"kind": "other"})
    refused("V-CC-10", f.declare, "a", attack("bite", "t"))


def test_V_CC_10_bite_needs_fangs() -> None:
    """V-CC-10: only vampires and fanged creatures bite."""
    f = duel("strength: 3, brawl: 2", VICTIM)
    f.initiative(10, 1)
    f.declare("t", {"kind": "other"})
    f.declare("a", attack("grapple", "t"))
    f.act("a", [6, 2, 2, 2, 2] + [2, 2, 2])
    f.do("pass", "t")
    f.initiative(10, 1)
    f.declare("t", {"kind": "break_free"})
    err = refused("V-CC-10", f.declare, "a", attack("bite", "t"))
    assert err.key == "vtm.attack.needs_power"


def test_V_CC_10_kiss_no_damage_starts_feeding_and_the_wound_closes() -> None:
    """V-CC-10: the Kiss rolls like the bite, does no damage and starts feeding; afterwards
    the vampire may close the wound."""
    f = Fight(HOLD.replace("id: a, side: x,", "id: a, side: x, kind: vampire,"))
    f.initiative(10, 5, 1)
    f.declare("c", {"kind": "other"})
    f.declare("t", {"kind": "other"})
    f.declare("a", attack("hold", "t"))
    f.act("a", [6, 2, 2, 2, 2])
    f.act("t", [2, 2, 2] + [2, 2, 2, 2, 2])  # still held
    f.act("c")
    f.initiative(10, 5, 1)
    f.declare("c", {"kind": "other"})
    f.declare("t", {"kind": "break_free"})
    f.declare("a", attack("kiss", "t"))
    events = f.act("a", [6, 2, 2, 2, 2])
    rolled = events.one(AttackRolled)
    assert rolled.pool == 5  # Dex 2 + Brawl 2 + 1; the holder gains no immobilised dice
    assert not events.of(DamageRolled)
    assert events.one(FeedingStarted).target == "t"
    assert f["a"].conditions["feeding"] == "t" and f["t"].conditions["fed_upon"] == "a"
    refused("V-CC-10", f.do, "close_wound", "t")
    assert f.do("close_wound", "a").one(WoundClosed).target == "t"
    assert "feeding" not in f["a"].conditions and "fed_upon" not in f["t"].conditions


# ================================================================== weapon length, opponents


def test_V_CC_9_knife_against_sword_closes_in_and_loses_a_die() -> None:
    """V-CC-9: with a knife against a sword, close to under 1 m first and lose one die."""
    f = duel("dexterity: 3, melee: 2, weapons: [knife]", "weapons: [sword]", distance=1.5)
    f.initiative(10, 1)
    f.declare("t", {"kind": "other"})
    refused("V-CC-9", f.declare, "a", attack("weapon_strike", "t"))
    g = duel("dexterity: 3, melee: 2, weapons: [knife]", "weapons: [sword]", distance=1.5)
    rolled = strike(g, attack("weapon_strike", "t", move_to="t"), [2, 2, 2, 2]).one(AttackRolled)
    assert rolled.pool == 4 and "V-CC-9" in rolled.rules


def test_V_CC_9_fists_against_a_staff_lose_a_die_not_against_a_knife() -> None:
    """V-CC-9: fists against a staff lose a die; against a knife (short) they do not."""
    f = duel("dexterity: 3, brawl: 2", "weapons: [staff]")
    assert strike(f, attack("punch", "t"), [2] * 4).one(AttackRolled).pool == 4
    g = duel("dexterity: 3, brawl: 2", "weapons: [knife]")
    assert strike(g, attack("punch", "t"), [2] * 5).one(AttackRolled).pool == 5
    h = duel("dexterity: 3, melee: 2, weapons: [sword]", "weapons: [staff]")
    assert strike(h, attack("weapon_strike", "t"), [2] * 5).one(AttackRolled).pool == 5


def surrounded(enemies: int, far: int = 0) -> Fight:
    near = [f"  - {{id: e{i}, side: y, position: [1, {i * 0.2}], wits: 1}}" for i in range(enemies)]
    away = [f"  - {{id: f{i}, side: y, position: [5, {i}], wits: 1}}" for i in range(far)]
    return Fight(
        "combatants:\n  - {id: a, side: x, position: [0, 0], wits: 5, dexterity: 3, brawl: 2}\n"
        + "\n".join(near + away)
    )


@pytest.mark.parametrize(("enemies", "difficulty"), [(1, 6), (3, 8), (5, 10), (6, 10)])
def test_V_CC_11_plus_one_per_close_opponent_beyond_the_first_at_most_four(
    enemies: int, difficulty: int
) -> None:
    """V-CC-11: +1 difficulty per close-combat opponent beyond the first, at most +4; those
    out of reach (beyond 2 m) do not count."""
    f = surrounded(enemies, far=2)
    f.initiative(10, *([1] * (enemies + 2)))
    for fid in f.state.fighters:
        if fid != "a":
            f.declare(fid, {"kind": "other"})
    f.declare("a", attack("punch", "e0"))
    rolled = f.act("a", [2] * 5).one(AttackRolled)
    assert rolled.difficulty == difficulty
    assert ("V-CC-11" in rolled.rules) == (enemies > 1)


# ================================================================== V-MAN-4, V-MAN-8


@pytest.mark.parametrize(("angle", "pool"), [(None, 5), ("flank", 6), ("behind", 7)])
def test_V_MAN_4_flank_one_die_behind_two(angle: str | None, pool: int) -> None:
    """V-MAN-4: a close attack from the flank gains one die, from behind two."""
    f = duel("dexterity: 3, brawl: 2", "stamina: 1")
    params = {"angle": angle} if angle else {}
    rolled = strike(f, attack("punch", "t", **params), [2] * pool).one(AttackRolled)
    assert rolled.pool == pool and ("V-MAN-4" in rolled.rules) == (angle is not None)


@pytest.mark.parametrize(
    ("location", "difficulty", "damage_pool"),
    [("limb", 7, 2), ("head", 8, 3), ("heart", 9, 4), ("eye", 9, 4), ("hand", 8, 3)],
)
def test_V_MAN_8_targeting_in_close_combat(
    location: str, difficulty: int, damage_pool: int
) -> None:
    """V-MAN-8: medium +1 difficulty and no damage change (the stray "+1" is its row);
    small +2 and +1 damage die; precise +3 and +2."""
    f = duel("dexterity: 3, brawl: 2, strength: 2", "stamina: 1")
    events = strike(f, attack("punch", "t", location=location), [10] + [2] * 4 + [2] * damage_pool)
    assert events.one(AttackRolled).difficulty == difficulty
    assert events.one(DamageRolled).pool == damage_pool


def test_V_MAN_8_targeting_by_size_word() -> None:
    """V-MAN-8: the size may be named directly (``targeting: small``)."""
    f = duel("dexterity: 3, brawl: 2, strength: 2", "stamina: 1")
    events = strike(f, attack("punch", "t", targeting="small"), [10] + [2] * 4 + [2] * 3)
    assert events.one(AttackRolled).difficulty == 8 and events.one(DamageRolled).pool == 3


def test_V_MAN_8_called_shot_slips_past_armour() -> None:
    """V-MAN-8 (our reading): ``bypass_armour`` with a small or precise target: the armour
    adds nothing to soak and does not break (V-ARM-1, V-ARM-3). A mortal then soaks lethal
    with nothing at all; without it, its coat soaks and breaks."""
    knife = "dexterity: 3, melee: 2, strength: 2, weapons: [knife]"
    coat = "stamina: 2, armour: leather_coat"
    f = duel(knife, coat)
    events = strike(
        f,
        attack("weapon_strike", "t", location="head", bypass_armour=True),
        [9] + [2] * 4 + [6, 6, 2, 2],
    )
    assert not events.of(SoakRolled) and not f["t"].armour_destroyed
    assert f["t"].health.count("lethal") == 2 and "V-MAN-8" in events.one(AttackRolled).rules
    g = duel(knife, coat)
    events = strike(
        g, attack("weapon_strike", "t", location="head"), [9] + [2] * 4 + [6, 6, 2, 2] + [2]
    )
    assert events.one(SoakRolled).pool == 1 and g["t"].armour_destroyed
    h = duel(knife, coat)
    h.initiative(10, 1)
    h.declare("t", {"kind": "other"})
    refused(
        "V-MAN-8", h.declare, "a", attack("weapon_strike", "t", location="arm", bypass_armour=True)
    )


# ================================================================== block and parry


def test_V_DEF_3_block_reduces_a_bashing_close_attack() -> None:
    """V-DEF-3 with V-DEF-2: a block (Dex + Brawl) opposes the punch; only the difference hits."""
    f = duel("dexterity: 3, brawl: 2, strength: 2", "dexterity: 2, brawl: 2, stamina: 1")
    f.initiative(10, 1)
    f.do("declare", "t", full_defense="block")
    f.declare("a", attack("punch", "t"))
    events = f.act("a", [6, 6, 6, 2, 2] + [6, 6, 2, 2] + [6, 2] + [2])
    block = events.one(DefenceRolled)
    assert (block.kind, block.pool, block.successes, block.net) == ("block", 4, 2, 1)
    assert events.one(DamageRolled).pool == 2  # the difference, 1, adds no die (V-DMG-1)
    assert f["t"].health.count("bashing") == 1


@pytest.mark.parametrize(
    ("defender", "blocks"),
    [
        ("dexterity: 2, brawl: 2", False),
        ("dexterity: 2, brawl: 2, kind: vampire, fortitude: 1", True),
        ("dexterity: 2, brawl: 2, armour: leather_coat", True),
    ],
)
def test_V_DEF_3_lethal_blows_blocked_only_with_fortitude_or_armour(
    defender: str, blocks: bool
) -> None:
    """V-DEF-3: a knife (lethal) cannot be blocked, unless the defender has Fortitude or armour."""
    f = duel("dexterity: 3, melee: 2, strength: 1, weapons: [knife]", defender + ", stamina: 1")
    f.initiative(10, 1)
    f.do("declare", "t", full_defense="block")
    f.declare("a", attack("weapon_strike", "t"))
    dice = [6, 2, 2, 2, 2] + ([2, 2, 2, 2] if blocks else []) + [2, 2]
    events = f.act("a", dice)
    assert bool(events.of(DefenceRolled)) == blocks


def test_V_DEF_5_parry_of_an_unarmed_attack_hurts_the_attacker() -> None:
    """V-DEF-5: a knife parries a punch with more successes: the attacker takes the knife's
    damage (Strength + 1, lethal) plus the parry's extra successes."""
    f = duel(
        "dexterity: 3, brawl: 2, strength: 2, stamina: 2",
        "dexterity: 2, melee: 2, strength: 2, weapons: [knife]",
    )
    f.initiative(10, 1)
    f.do("declare", "t", full_defense="parry")
    f.declare("a", attack("punch", "t"))
    events = f.act("a", [6, 2, 2, 2, 2] + [6, 6, 6, 2] + [6, 6, 2, 2, 2])
    parry = events.one(DefenceRolled)
    assert (parry.kind, parry.pool, parry.successes) == ("parry", 4, 3)
    riposte = events.one(DamageRolled)
    assert (riposte.target, riposte.pool, riposte.damage_type) == ("a", 5, "lethal")  # 3 + 2
    assert "V-DEF-5" in riposte.rules and events.of(AttackMissed)
    assert f["a"].health.count("lethal") == 2 and f["t"].health.filled == 0


def test_V_DEF_5_parry_needs_a_melee_weapon_and_armed_attackers_take_nothing() -> None:
    """V-DEF-5: an empty-handed fighter cannot parry (refused when declared; barred when its
    weapon is gone by the time of the blow); a parried armed attacker is not hurt."""
    f = duel("dexterity: 3, brawl: 2, strength: 2", "dexterity: 2, melee: 2, stamina: 1")
    f.initiative(10, 1)
    with pytest.raises(ConteurError) as err:
        f.do("declare", "t", full_defense="parry")
    assert err.value.rule == "V-DEF-5"
    f = duel(
        "dexterity: 3, brawl: 2, strength: 2",
        "dexterity: 2, melee: 2, stamina: 1, weapons: [knife]",
    )
    f.initiative(10, 1)
    f.do("declare", "t", full_defense="parry")
    f.declare("a", attack("punch", "t"))
    f.do("gm_weapon", fighter="t", weapon=None)
    events = f.act("a", [6, 2, 2, 2, 2] + [2, 2])
    assert not events.of(DefenceRolled)
    g = duel(
        "dexterity: 3, melee: 2, strength: 2, weapons: [knife]",
        "dexterity: 2, melee: 2, strength: 2, weapons: [knife]",
    )
    g.initiative(10, 1)
    g.do("declare", "t", full_defense="parry")
    g.declare("a", attack("weapon_strike", "t"))
    events = g.act("a", [6, 2, 2, 2, 2] + [6, 6, 6, 2])
    assert events.one(DefenceRolled).net == 0 and not events.of(DamageRolled)
    assert g["a"].health.filled == 0


# ================================================================== V-CC-0


def test_V_CC_0_custom_maneuver_defined_by_the_gm_and_used() -> None:
    """V-CC-0: the Conteur approves a maneuver of the table's own: a head-butt, Str + Brawl
    at +1, Strength + 2, that can throw the target (a knock-down check, by its effect)."""
    f = duel("strength: 2, brawl: 2, dexterity: 2", "dexterity: 1, athletics: 1, stamina: 1")
    f.do(
        "gm_maneuver",
        id="headbutt",
        spec={
            "traits": "strength+brawl",
            "difficulty": 1,
            "damage": "strength+2",
            "damage_type": "bashing",
            "effects": [
                {
                    "type": "knockdown_check",
                    "traits": ["dexterity", "athletics"],
                    "difficulty": 6,
                    "conditions": ["knocked_down"],
                }
            ],
        },
    )
    events = strike(f, attack("headbutt", "t"), [7, 2, 2, 2] + [6, 2, 2, 2] + [2] + [2, 2])
    rolled = events.one(AttackRolled)
    assert (rolled.maneuver, rolled.pool, rolled.difficulty) == ("headbutt", 4, 7)
    assert events.one(DamageRolled).pool == 4
    assert events.one(RollMade).difficulty == 6 and f["t"].conditions.get("knocked_down")
    assert "dazed" not in f["t"].conditions  # not among this maneuver's conditions


def test_V_CC_0_custom_maneuver_with_a_grapple_effect_locks() -> None:
    """V-CC-0: a custom maneuver with the ``grapple`` effect gets the grapple rule (V-CC-7)."""
    f = duel(*GRAPPLERS)
    f.do(
        "gm_maneuver",
        id="bear_hug",
        spec={
            "traits": "strength+brawl",
            "damage": "strength+1",
            "damage_type": "bashing",
            "effects": [{"type": "grapple", "traits": ["strength", "brawl"]}],
        },
    )
    events = strike(f, attack("bear_hug", "t"), [6, 2, 2, 2, 2] + [2, 2, 2, 2])
    assert events.one(Locked).kind == "grapple"


def test_V_CC_0_gm_table_file_changes_and_adds_maneuvers(tmp_path: Path) -> None:
    """V-CC-0: a table file under the scenario's ``tables:`` key makes the punch harder
    (difficulty +1, a boxing style) and adds an elbow strike, used in the fight."""
    path = tmp_path / "maison.yaml"
    path.write_text(
        """
maneuvers:
  - {id: punch, difficulty: 1}
  - {id: elbow, kind: close, rule: V-CC-0, names: {fr: Coup de coude, en: Elbow strike},
     words: [coude, elbow], traits: [[dexterity, brawl]], damage: strength+1,
     damage_type: bashing}
""",
        encoding="utf-8",
    )
    head = f"tables: ['{path}']"
    f = duel("dexterity: 3, brawl: 2, strength: 2", "stamina: 1", head=head)
    assert strike(f, attack("punch", "t"), [2] * 5).one(AttackRolled).difficulty == 7
    g = duel("dexterity: 3, brawl: 2, strength: 2", "stamina: 1", head=head)
    events = strike(g, attack("coude", "t"), [6, 2, 2, 2, 2] + [6, 6, 2] + [2])
    assert events.one(AttackRolled).maneuver == "elbow"
    assert events.one(DamageRolled).pool == 3 and g["t"].health.count("bashing") == 2


def test_condition_events_cite_their_rules() -> None:
    """The conditions close combat sets cite the rule that set them (log lines)."""
    f = duel("dexterity: 3, brawl: 2, strength: 2", "dexterity: 2, athletics: 1, stamina: 1")
    events = strike(f, attack("sweep", "t"), [7, 2, 2, 2, 2] + [2, 2] + [7, 7, 2])
    for e in events.of(ConditionSet):
        assert "V-CC-1" in e.rules and e.describe("fr") and e.describe("en")
