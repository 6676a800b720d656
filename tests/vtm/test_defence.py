"""Defensive maneuvers: when a defence may be taken, what it rolls, what it costs (V-DEF-*, V-INI-6, V-MAN-3)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from conteur.dice import DiceSource, distribution_of
from conteur.i18n import ConteurError
from conteur.rulesets.vtm.defence_events import DefenceBarred
from conteur.rulesets.vtm.dice import VtmPool
from conteur.rulesets.vtm.events import (
    AbortFailed,
    AttackMissed,
    AttackRolled,
    DamageRolled,
    DamageTaken,
    DefenceAnnounced,
    DefenceRolled,
    RollMade,
    WillpowerSpent,
)
from conteur.rulesets.vtm.strike import Defence, Strike, roll_strike

from .fight import Fight, attack

A = "{id: a, side: x, position: [0, 0], wits: 5, dexterity: 3, brawl: 2, strength: 2, %s}"
T = "{id: t, side: y, position: [1, 0], wits: 1, dexterity: 3, dodge: 2, brawl: 1, stamina: 1, %s}"


def duel(a: str = "", t: str = "", head: str = "") -> Fight:
    """``a`` (fast: Dex 3 + Brawl 2, Strength 2) and ``t`` (slow: Dex 3, Dodge 2, Brawl 1)."""
    return Fight(f"{head}\ncombatants:\n  - {A % a}\n  - {T % t}\n")


def turn(f: Fight, t_declares: dict[str, Any], *a_declares: dict[str, Any], **t_args: Any) -> None:
    """Initiative (a first), t declares then a."""
    f.initiative(10, 1)
    if t_declares:
        f.declare("t", t_declares, **t_args)
    else:
        f.declare("t", **t_args)
    f.declare("a", *a_declares)


DODGE = {"kind": "dodge"}


# ------------------------------------------------------------------ V-DEF-2: resisted rolls


def test_V_DEF_2_attacker_with_fewer_successes_misses() -> None:
    """V-DEF-2: 2 attack successes against 3 for the dodge: a miss, no damage roll."""
    f = duel()
    turn(f, DODGE, attack("punch", "t"))
    events = f.act("a", [6, 6, 2, 2, 2] + [6, 6, 6, 2, 2])
    rolled = events.one(DefenceRolled)
    assert (rolled.successes, rolled.attack_successes, rolled.net) == (3, 2, 0)
    assert events.of(AttackMissed) and not events.of(DamageRolled)
    assert "V-DEF-2" in rolled.rules


def test_V_DEF_2_a_tie_is_a_miss() -> None:
    """V-DEF-2 (core rules): as many successes for both sides: the attack misses."""
    f = duel()
    turn(f, DODGE, attack("punch", "t"))
    events = f.act("a", [6, 6, 2, 2, 2] + [6, 6, 2, 2, 2])
    assert events.one(DefenceRolled).net == 0
    assert events.of(AttackMissed) and not events.of(DamageRolled)


def test_V_DEF_2_the_difference_becomes_the_attacks_successes() -> None:
    """V-DEF-2 reading: 4 successes against 1: 3 remain, and V-DMG-1 adds 2 dice (Strength 2 + 2)."""
    f = duel()
    turn(f, DODGE, attack("punch", "t"))
    events = f.act("a", [6, 6, 6, 6, 2] + [6, 2, 2, 2, 2] + [2, 2, 2, 2])
    assert events.one(DefenceRolled).net == 3
    damage = events.one(DamageRolled)
    assert damage.pool == 4 and "V-DMG-1" in damage.rules


def test_V_DEF_2_a_failed_defence_adds_no_damage() -> None:
    """V-DEF-2 reading: a dodge with no success leaves the attack as it was (3 successes: 2 + 2 dice)."""
    f = duel()
    turn(f, DODGE, attack("punch", "t"))
    events = f.act("a", [6, 6, 6, 2, 2] + [2, 2, 2, 2, 2] + [2, 2, 2, 2])
    assert events.one(DamageRolled).pool == 4


def test_V_DEF_2_option_literal_difference_every_success_adds_a_die() -> None:
    """V-DEF-2 table option ``defence_literal_difference``: 4 against 1, the 3 left add 3 dice."""
    f = duel(head="options: {defence_literal_difference: true}")
    turn(f, DODGE, attack("punch", "t"))
    events = f.act("a", [6, 6, 6, 6, 2] + [6, 2, 2, 2, 2] + [2, 2, 2, 2, 2])
    assert events.one(DamageRolled).pool == 5


def test_V_DEF_2_option_literal_difference_a_failed_defence_adds_a_die() -> None:
    """V-DEF-2 option, as written: a dodge with no success still leaves 3 dice of difference (2 + 3)."""
    f = duel(head="options: {defence_literal_difference: true}")
    turn(f, DODGE, attack("punch", "t"))
    events = f.act("a", [6, 6, 6, 2, 2] + [2, 2, 2, 2, 2] + [2, 2, 2, 2, 2])
    assert events.one(DamageRolled).pool == 5


def test_V_DEF_2_option_literal_difference_needs_a_defence() -> None:
    """V-DEF-2 option: without a defence, V-DMG-1 applies as usual (3 successes: 2 + 2 dice)."""
    f = duel(head="options: {defence_literal_difference: true}")
    turn(f, {"kind": "other"}, attack("punch", "t"))
    events = f.act("a", [6, 6, 6, 2, 2] + [2, 2, 2, 2])
    assert events.one(DamageRolled).pool == 4


# ------------------------------------------------------------------ V-DEF-4 and V-DEF-6: dodge


def test_V_DEF_4_dodge_rolls_dexterity_plus_dodge_at_difficulty_six() -> None:
    """V-DEF-4: Dexterity 3 + Dodge 2 = 5 dice at difficulty 6 against a blow."""
    f = duel()
    turn(f, DODGE, attack("punch", "t"))
    rolled = f.act("a", [6, 2, 2, 2, 2] + [6, 6, 2, 2, 2]).one(DefenceRolled)
    assert (rolled.kind, rolled.pool, rolled.difficulty) == ("dodge", 5, 6)
    assert "V-DEF-4" in rolled.rules


def test_V_DEF_4_dodge_works_against_gunfire() -> None:
    """V-DEF-4: a dodge opposes any attack, a shot too (5 dice against the shot's 1 success)."""
    f = duel(a="firearms: 2, weapons: [light_revolver]", t="position: [5, 0]")
    turn(f, DODGE, attack("shoot", "t"))
    events = f.act("a", [6, 2, 2, 2, 2] + [6, 6, 2, 2, 2])
    assert events.one(DefenceRolled).pool == 5
    assert events.of(AttackMissed)


def test_V_DEF_6_no_dodge_without_room_in_close_combat() -> None:
    """V-DEF-6 / V-DEF-4: no room to move, no dodge against a blow: block or parry instead."""
    f = duel(t="conditions: {no_room: true}")
    turn(f, {"kind": "dodge"}, attack("punch", "t"), attack("punch", "t"), full_defense=None)
    # Two punches at the end of the turn (V-INI-7): 5 − 2 = 3 dice, then 5 − 3 = 2.
    events = f.act("a", [6, 2, 2] + [2, 2])
    barred = events.one(DefenceBarred)
    assert (barred.kind, barred.rules) == ("dodge", ("V-DEF-6",))
    assert not events.of(DefenceRolled)
    # Before the next blow, the full defence turns to a block (V-DEF-1, V-DEF-7).
    assert f.do("defend", "t", kind="block").one(DefenceAnnounced).via == "full_defense"
    events = f.act("a", [6, 6] + [6, 6, 2, 2])
    rolled = events.one(DefenceRolled)
    assert (rolled.kind, rolled.pool, rolled.net) == ("block", 4, 0)


def test_V_DEF_6_without_room_a_dodge_still_meets_gunfire() -> None:
    """V-DEF-4 / V-DEF-6: with no room, the dodger drops to the ground: gunfire is still dodged."""
    f = duel(
        a="firearms: 2, weapons: [light_revolver]",
        t="position: [5, 0], conditions: {no_room: true}",
    )
    turn(f, DODGE, attack("shoot", "t"))
    events = f.act("a", [6, 2, 2, 2, 2] + [6, 6, 2, 2, 2])
    assert events.one(DefenceRolled).kind == "dodge"
    assert not events.of(DefenceBarred)


PARRY = "melee: 2, weapons: [knife]"


def test_V_DEF_6_no_parry_of_a_blow_from_behind_or_unseen() -> None:
    """V-DEF-6: an attack not seen coming cannot be parried (from behind, or unseen)."""
    f = duel(t=PARRY)
    turn(
        f,
        {},
        attack("punch", "t", angle="behind"),
        attack("punch", "t", unseen=True),
        full_defense="parry",
    )
    # From behind: 5 − 2 (first of two actions) + 2 (V-MAN-4) = 5 dice.
    events = f.act("a", [6, 2, 2, 2, 2] + [2, 2])
    assert events.one(DefenceBarred).rules == ("V-DEF-6",)
    assert events.one(AttackRolled).pool == 5 and not events.of(DefenceRolled)
    events = f.act("a", [6, 2] + [2, 2])
    assert events.one(DefenceBarred).rules == ("V-DEF-6",) and not events.of(DefenceRolled)


def test_V_DEF_6_a_blow_seen_coming_is_parried() -> None:
    """V-DEF-6 (contrast): the same blow from the front meets the parry (Dex 3 + Melee 2)."""
    f = duel(t=PARRY)
    turn(f, {}, attack("punch", "t"), full_defense="parry")
    events = f.act("a", [6, 6, 6, 2, 2] + [6, 2, 2, 2, 2] + [2, 2, 2])
    rolled = events.one(DefenceRolled)
    assert (rolled.kind, rolled.pool, rolled.net) == ("parry", 5, 2)
    assert events.one(DamageRolled).pool == 3


def test_V_DEF_6_parry_needs_a_melee_weapon() -> None:
    """V-DEF-5 / V-DEF-6: a parry without a melee weapon cannot even be declared."""
    f = duel()
    f.initiative(10, 1)
    with pytest.raises(ConteurError) as err:
        f.declare("t", full_defense="parry")
    assert err.value.rule == "V-DEF-5"
    assert f["t"].progress.declaration is None


# ------------------------------------------------------------------ V-DEF-7: full defence


def three_punches(f: Fight) -> list[DefenceRolled]:
    """``a`` (Dex 5 + Brawl 4) throws three punches, each with one success; ``t`` dodges each."""
    rolled = []
    for pool, dodge in ((6, 5), (5, 4), (4, 3)):
        events = f.act("a", [6] + [2] * (pool - 1) + [6, 6] + [2] * (dodge - 2))
        rolled.append(events.one(DefenceRolled))
    return rolled


def test_V_DEF_7_full_defense_full_pool_then_one_die_fewer_each() -> None:
    """V-DEF-7: the first defence rolls the full pool (5), then 4, then 3; no multiple-action rule."""
    f = duel(a="dexterity: 5, brawl: 4")
    turn(f, {}, *[attack("punch", "t")] * 3, full_defense="dodge")
    rolled = three_punches(f)
    assert [r.pool for r in rolled] == [5, 4, 3]
    assert all("V-DEF-7" in r.rules and "V-MAN-1" not in r.rules for r in rolled)


def test_V_DEF_7_a_turn_of_defensive_actions_only_is_a_full_defence() -> None:
    """V-MAN-1 / V-DEF-7: declaring only defences (dodge, dodge) is a full defence: 5, 4, 3 dice,
    not the multiple-action 3 and 2."""
    g = duel(a="dexterity: 5, brawl: 4")
    g.initiative(10, 1)
    g.declare("t", DODGE, DODGE)
    g.declare("a", *[attack("punch", "t")] * 3)
    assert [r.pool for r in three_punches(g)] == [5, 4, 3]


# ------------------------------------------------------------------ V-DEF-8: in a multiple action


def test_V_DEF_8_strike_and_block_share_the_multiple_action_penalty() -> None:
    """V-DEF-8 / V-MAN-1: punch and block: the block (used first) loses 2 dice, the punch 3."""
    f = duel()
    f.initiative(10, 1)
    f.declare("t", attack("punch", "a"), {"kind": "block"})
    f.declare("a", attack("punch", "t"))
    events = f.act("a", [6, 2, 2, 2, 2] + [2, 2] + [2, 2])
    rolled = events.one(DefenceRolled)
    assert (rolled.kind, rolled.pool) == ("block", 4 - 2)
    assert {"V-DEF-8", "V-MAN-1"} <= set(rolled.rules)
    assert f.state.phase == "end_of_turn"
    assert f.act("t", [2]).one(AttackRolled).pool == 4 - 3


def test_V_DEF_8_shoot_then_dodge() -> None:
    """V-DEF-8: shoot then dodge (first action at the rank, table option): 5 − 2 to shoot, 5 − 3 to dodge."""
    f = Fight("""
options: {multiple_first_at_rank: true}
combatants:
  - {id: a, side: x, position: [1, 0], wits: 1, dexterity: 3, brawl: 2, strength: 2}
  - {id: t, side: y, position: [0, 0], wits: 5, dexterity: 3, dodge: 2, firearms: 2,
     stamina: 1, weapons: [light_revolver]}
""")
    f.initiative(1, 10)
    f.declare("a", attack("punch", "t"))
    f.declare("t", attack("shoot", "a"), DODGE)
    assert f.act("t", [2, 2, 2]).one(AttackRolled).pool == 3
    events = f.act("a", [6, 2, 2, 2, 2] + [2, 2] + [2, 2])
    rolled = events.one(DefenceRolled)
    assert (rolled.kind, rolled.pool) == ("dodge", 2)


def test_V_DEF_8_a_declared_defence_is_one_action_only() -> None:
    """V-DEF-8: a block declared in a multiple action meets one attack, not every attack."""
    f = duel(a="dexterity: 5, brawl: 4")
    f.initiative(10, 1)
    f.declare("t", attack("punch", "a"), {"kind": "block"})
    f.declare("a", attack("punch", "t"), attack("punch", "t"))
    # Every action is a multiple action's: all at the end of the turn, a first (V-INI-7).
    first = f.act("a", [6] + [2] * 6 + [2, 2] + [2, 2])
    assert first.one(DefenceRolled).pool == 4 - 2
    second = f.act("a", [6] + [2] * 5 + [2, 2])
    assert not second.of(DefenceRolled)
    assert f.act("t", [2]).one(AttackRolled).pool == 4 - 3


# ------------------------------------------------------------------ V-DEF-9: several opponents


def crowd(n: int) -> Fight:
    """``t`` at the centre, ``n`` enemies within 2 m; the first, ``e0``, is the fastest."""
    enemies = "\n".join(
        f"  - {{id: e{i}, side: x, position: [{1 if i % 2 == 0 else -1}, {i // 2 * 0.5}], "
        f"wits: {5 if i == 0 else 1}, dexterity: 3, brawl: 2, strength: 2}}"
        for i in range(n)
    )
    return Fight(f"""
combatants:
  - {{id: t, side: y, position: [0, 0], wits: 1, dexterity: 3, dodge: 2, stamina: 1}}
{enemies}
""")


def test_V_DEF_9_each_close_opponent_beyond_the_first_adds_one_to_the_defence() -> None:
    """V-DEF-9 / V-CC-11: three opponents within 2 m: the dodge is at difficulty 6 + 2."""
    f = crowd(3)
    f.initiative(1, 10, 1, 1)
    for fid in ("t", "e1", "e2"):
        f.declare(fid, {"kind": "other"}) if fid != "t" else f.declare(fid, DODGE)
    f.declare("e0", attack("punch", "t"))
    rolled = f.act("e0", [6, 2, 2, 2, 2] + [9, 8, 7, 2, 2]).one(DefenceRolled)
    assert (rolled.difficulty, rolled.successes) == (8, 2) and "V-DEF-9" in rolled.rules


def test_V_DEF_9_the_penalty_stops_at_four() -> None:
    """V-DEF-9 / V-CC-11: six opponents within 2 m: +4 at most (difficulty 10)."""
    f = crowd(6)
    f.initiative(1, 10, 1, 1, 1, 1, 1)
    for fid in ("t", "e1", "e2", "e3", "e4", "e5"):
        f.declare(fid, DODGE if fid == "t" else {"kind": "other"})
    f.declare("e0", attack("punch", "t"))
    rolled = f.act("e0", [6, 2, 2, 2, 2] + [10, 2, 2, 2, 2]).one(DefenceRolled)
    assert rolled.difficulty == 10


# ------------------------------------------------------------------ V-DEF-1, V-INI-6: announcing


def test_V_INI_6_a_delayed_action_becomes_a_defence_at_any_moment() -> None:
    """V-INI-6 / V-DEF-1: with its delayed action left, t dodges a's blow (full pool), then has
    no action left: no second defence."""
    f = duel()
    turn(f, {}, attack("punch", "t"), delay=True)
    assert any(c.type == "defend" for c in f.encounter.legal_commands("t"))
    announced = f.do("defend", "t", kind="dodge").one(DefenceAnnounced)
    assert announced.via == "delayed" and "V-INI-6" in announced.rules
    events = f.act("a", [6, 2, 2, 2, 2] + [6, 6, 2, 2, 2])
    assert events.one(DefenceRolled).pool == 5
    assert f.state.phase == "setup"  # t's delayed action is spent: the turn is over
    f.initiative(10, 1)
    f.declare("t", delay=True)
    f.declare("a", attack("punch", "t"))
    f.do("defend", "t", kind="dodge")
    f.act("a", [6, 2, 2, 2, 2] + [2, 2, 2, 2, 2] + [2, 2])
    assert not any(c.type == "defend" for c in f.encounter.legal_commands("t"))


def test_V_INI_6_no_defence_without_an_action_left() -> None:
    """V-INI-6: a fighter who spent its action cannot defend any more this turn."""
    f = Fight("""
combatants:
  - {id: a, side: x, position: [0, 0], wits: 1, dexterity: 3, brawl: 2, strength: 2}
  - {id: t, side: y, position: [1, 0], wits: 5, dexterity: 3, dodge: 2, brawl: 1, stamina: 1}
""")
    f.initiative(1, 10)
    f.declare("a", attack("punch", "t"))
    f.declare("t", {"kind": "other"})
    f.act("t")
    with pytest.raises(ConteurError) as err:
        f.do("defend", "t", kind="dodge", abort="point")
    assert err.value.rule in ("V-INI-6", "V-MAN-3")
    assert f["t"].willpower == 5
    assert not any(c.type == "defend" for c in f.encounter.legal_commands("t"))


def test_V_DEF_1_a_defence_is_announced_during_the_turn_not_before() -> None:
    """V-DEF-1: ``defend`` answers an attack to come, in the attack stage; at initiative one declares."""
    f = duel()
    f.initiative(10, 1)
    with pytest.raises(ConteurError) as err:
        f.do("defend", "t", kind="dodge")
    assert err.value.rule == "V-DEF-1"


def test_V_DEF_1_announced_defence_waits_for_the_next_attack_only() -> None:
    """V-DEF-1: a defence announced before an attack roll opposes that attack; it cannot be announced twice."""
    f = duel()
    turn(f, {}, attack("punch", "t"), delay=True)
    f.do("defend", "t", kind="block")
    with pytest.raises(ConteurError) as err:
        f.do("defend", "t", kind="dodge")
    assert err.value.rule == "V-DEF-1"
    events = f.act("a", [6, 2, 2, 2, 2] + [6, 2, 2, 2])
    assert events.one(DefenceRolled).kind == "block"


# ------------------------------------------------------------------ V-MAN-3: abort


def test_V_MAN_3_abort_by_spending_a_willpower_point() -> None:
    """V-MAN-3: t drops its declared punch for a dodge by spending a Willpower point at that
    moment (never declared); the dodge rolls the full pool and t's punch is gone."""
    f = duel(t="willpower: 3")
    turn(f, attack("punch", "a"), attack("punch", "t"))
    events = f.do("defend", "t", kind="dodge", abort="point")
    assert events.one(WillpowerSpent).amount == 1 and f["t"].willpower == 2
    assert events.one(DefenceAnnounced).via == "abort_point"
    events = f.act("a", [6, 2, 2, 2, 2] + [6, 6, 2, 2, 2])
    assert events.one(DefenceRolled).pool == 5 and "V-MAN-3" in events.one(DefenceRolled).rules
    assert f.state.phase == "setup"  # t's punch was dropped


def test_V_MAN_3_abort_by_a_reflexive_willpower_roll() -> None:
    """V-MAN-3: a Willpower roll at difficulty 6, reflexive: a Willpower rating of 5 rolls 5 dice
    even when Wounded, and costs no point."""
    f = duel(t="willpower: 3, health: [lethal, lethal, lethal, lethal]")
    turn(f, attack("punch", "a"), attack("punch", "t"))
    events = f.do("defend", "t", [6, 2, 2, 5, 5], kind="dodge", abort="roll")
    roll = events.one(RollMade)
    assert (roll.purpose, roll.pool, roll.difficulty, roll.successes) == ("abort", 5, 6, 1)
    assert events.one(DefenceAnnounced).via == "abort_roll" and f["t"].willpower == 3
    # The dodge itself is an action: Wounded, 5 − 2 = 3 dice.
    assert f.act("a", [6, 2, 2, 2, 2] + [6, 6, 2]).one(DefenceRolled).pool == 3


def test_V_MAN_3_a_failed_roll_keeps_the_declared_action() -> None:
    """V-MAN-3: the roll fails: no defence, no second try, and the declared punch must be carried out."""
    f = duel(t="willpower: 3")
    turn(f, attack("punch", "a"), attack("punch", "t"))
    events = f.do("defend", "t", [2, 2, 5, 5, 3], kind="dodge", abort="roll")
    assert events.one(AbortFailed).fighter == "t"
    with pytest.raises(ConteurError) as err:
        f.do("defend", "t", kind="dodge", abort="point")
    assert err.value.rule == "V-MAN-3" and f["t"].willpower == 3
    events = f.act("a", [6, 2, 2, 2, 2] + [2, 2])
    assert not events.of(DefenceRolled)
    assert f.act("t", [2, 2, 2, 2]).one(AttackRolled).attacker == "t"


def test_V_MAN_3_only_before_acting() -> None:
    """V-MAN-3: a fighter who has already acted this turn cannot abort."""
    f = Fight("""
combatants:
  - {id: a, side: x, position: [0, 0], wits: 1, dexterity: 3, brawl: 2, strength: 2}
  - {id: t, side: y, position: [1, 0], wits: 5, dexterity: 3, dodge: 2, brawl: 1}
""")
    f.initiative(1, 10)
    f.declare("a", attack("punch", "t"))
    f.declare("t", attack("punch", "a"), attack("punch", "a"))
    # Multiple actions come at the end of the turn: a acts first; t has not acted yet.
    assert any(c.type == "defend" and c.rule == "V-MAN-3" for c in f.encounter.legal_commands("t"))
    f.act("a", [2, 2, 2, 2, 2])
    f.act("t", [2, 2])
    with pytest.raises(ConteurError) as err:
        f.do("defend", "t", kind="dodge", abort="point")
    assert err.value.rule == "V-MAN-3"
    assert not any(c.type == "defend" for c in f.encounter.legal_commands("t"))


def test_V_MAN_3_abort_needs_a_willpower_point_or_roll() -> None:
    """V-MAN-3: without saying how (point or roll), or without a point left, no abort."""
    f = duel(t="willpower: 1")
    turn(f, attack("punch", "a"), attack("punch", "t"))
    with pytest.raises(ConteurError) as err:
        f.do("defend", "t", kind="dodge")
    assert err.value.rule == "V-MAN-3"
    f.do("gm_willpower", fighter="t", amount=1)
    with pytest.raises(ConteurError) as err:
        f.do("defend", "t", kind="dodge", abort="point")
    assert err.value.key == "vtm.no_willpower"
    templates = [c for c in f.encounter.legal_commands("t") if c.type == "defend"]
    assert templates and templates[0].param("abort").choices == ("roll",)


def test_V_MAN_3_damage_after_abort_counts_normally() -> None:
    """V-MAN-3 / V-DEF-2: an aborted action's dodge is a resisted roll like any other."""
    f = duel(t="willpower: 3")
    turn(f, attack("punch", "a"), attack("punch", "t"))
    f.do("defend", "t", kind="dodge", abort="point")
    events = f.act("a", [6, 6, 6, 2, 2] + [6, 2, 2, 2, 2] + [6, 6, 2] + [2])
    assert events.one(DamageTaken).levels == 2


# ------------------------------------------------------------------ V-DEF-2: exact odds


def damage_pool_odds(literal: bool) -> dict[int, float]:
    """Exact odds of the damage pool (0: no hit) of 3 attack dice against a 1-die dodge,
    Strength 2, run through the real dice chain (``strike.roll_strike``) over every outcome."""

    def run(dice: DiceSource) -> int:
        strike = Strike(
            attacker="a",
            target="t",
            maneuver="punch",
            pool=3,
            difficulty=6,
            damage_dice=2,
            damage_type="bashing",
            soak=0,
            defence=Defence(defender="t", kind="dodge", pool=1, difficulty=6),
            every_success_adds=literal,
        )
        outcome = roll_strike(strike, dice)
        pools = [e.pool for e in outcome.events if isinstance(e, DamageRolled)]
        return pools[0] if pools else 0

    return distribution_of(run)


def damage_pool_brute_force(literal: bool) -> dict[int, float]:
    """The same odds counted over the 10^4 faces of the two rolls (core dice rules)."""
    out: dict[int, float] = {}
    for faces in itertools.product(range(1, 11), repeat=4):
        attack_roll = VtmPool(3, 6).read(faces[:3])
        pool = 0
        if not attack_roll.botch and attack_roll.successes > 0:
            net = attack_roll.successes - VtmPool(1, 6).read(faces[3:]).successes
            if net > 0:  # a tie misses
                pool = 2 + (net if literal else net - 1)
        out[pool] = out.get(pool, 0.0) + 1e-4
    return out


@pytest.mark.parametrize("literal", [False, True], ids=["reading", "literal_option"])
def test_V_DEF_2_exact_odds_of_the_difference(literal: bool) -> None:
    """V-DEF-2, exact numbers: the damage pool after a dodge, reading (V-DMG-1 on the difference)
    and table option (every success of the difference adds a die), against brute force."""
    exact = damage_pool_odds(literal)
    expected = damage_pool_brute_force(literal)
    assert exact.keys() == expected.keys()
    for pool, p in expected.items():
        assert exact[pool] == pytest.approx(p, abs=1e-12)
    # 3 successes against none leaves 3: 4 dice by the reading, 5 by the option.
    assert max(exact) == (5 if literal else 4)
