"""Attack pools, Defense and armour, damage, chance die, dodge, health (H-ATK-*, H-HLT-1...)."""

from __future__ import annotations

import pytest

from conteur.i18n import ConteurError
from conteur.rulesets.hunter.events import (
    HunterConsciousnessRolled,
    HunterDamaged,
    HunterDrawn,
)

from .fight import Fight, roll, sheet


def duel(attacker: dict[str, object], target: dict[str, object], **options: object) -> Fight:
    f = Fight(attacker, target, options=dict(options) or None)
    f.start(9, 1)
    return f


def test_H_ATK_2_the_texts_example_str_5_brawl_4_against_defense_4_armour_1_is_4_dice() -> None:
    shanwei = sheet("shanwei", strength=5, brawl=4)
    pompier = sheet("pompier", dexterity=4, wits=4, armour="reinforced_clothing")
    f = duel(shanwei, pompier)
    r = roll(f.act("shanwei", target="pompier", dice=[8, 8, 2, 3]))
    assert (r.pool, r.defense, r.armour, r.successes) == (4, 4, 1, 2)
    assert {"H-ATK-1", "H-ATK-2"} <= set(r.rules)


def test_H_ATK_1_unarmed_is_strength_plus_brawl() -> None:
    f = duel(sheet("a", strength=4, brawl=3), sheet("b", dexterity=0))
    r = roll(f.act("a", target="b", dice=[2] * 7))
    assert r.maneuver == "unarmed" and r.pool == 7


def test_H_ATK_1_melee_is_strength_plus_weaponry_plus_the_weapons_rating() -> None:
    f = duel(sheet("a", strength=3, weaponry=2, weapon="sword"), sheet("b", dexterity=0))
    r = roll(f.act("a", target="b", dice=[2] * 8))
    assert r.maneuver == "melee" and r.pool == 3 + 2 + 3
    assert ("weapon", 3) in r.modifiers


def test_H_ATK_1_firearms_is_dexterity_plus_firearms_plus_the_weapons_rating() -> None:
    f = duel(sheet("a", dexterity=3, firearms=2, weapon="heavy_pistol"), sheet("b", dexterity=0))
    r = roll(f.act("a", target="b", dice=[2] * 8))
    assert r.maneuver == "shoot" and r.pool == 3 + 2 + 3
    assert f["a"].ammo["heavy_pistol"] == 7


def test_H_ATK_1_thrown_is_dexterity_plus_athletics() -> None:
    f = duel(sheet("a", dexterity=3, athletics=2, strength=3), sheet("b", dexterity=0))
    r = roll(f.act("a", "throw", target="b", object="stone", dice=[2] * 5))
    assert r.maneuver == "throw" and r.pool == 5


def test_H_ATK_2_defense_also_counts_against_firearms_by_the_text() -> None:
    f = duel(sheet("a", weapon="light_pistol"), sheet("b", dexterity=3, wits=3))
    r = roll(f.act("a", target="b", dice=[2] * 4))
    assert r.defense == 3 and r.pool == 3 + 2 + 2 - 3


def test_H_ATK_2_option_no_defense_against_firearms() -> None:
    f = duel(
        sheet("a", weapon="light_pistol"),
        sheet("b", dexterity=3, wits=3),
        no_defense_vs_firearms=True,
    )
    r = roll(f.act("a", target="b", dice=[2] * 7))
    assert r.defense == 0 and r.pool == 7


def test_H_ATK_2_ballistic_armour_against_firearms_general_against_the_rest() -> None:
    f = duel(sheet("a", weapon="light_pistol"), sheet("b", dexterity=0, armour="flak_jacket"))
    assert roll(f.act("a", target="b", dice=[2] * 4)).armour == 3
    f2 = duel(sheet("a"), sheet("b", dexterity=0, armour="flak_jacket"))
    assert roll(f2.act("a", target="b", dice=[2] * 3)).armour == 2


def test_H_ATK_2_defense_drops_by_one_for_each_attacker_after_the_first() -> None:
    f = Fight(sheet("a"), sheet("b"), sheet("c", dexterity=3, wits=3))
    f.start(9, 8, 1)
    assert roll(f.act("a", target="c", dice=[2] * 2)).defense == 3
    assert roll(f.act("b", target="c", dice=[2] * 3)).defense == 2


def test_H_ATK_3_each_success_is_a_point_of_damage_of_the_weapons_type() -> None:
    f = duel(sheet("a", strength=4, brawl=4), sheet("b", dexterity=0, stamina=2))
    ev = f.act("a", target="b", dice=[8, 9, 8, 2, 3, 4, 5, 6])
    d = ev.one(HunterDamaged)
    assert (d.amount, d.damage_type) == (3, "bashing")
    assert f["b"].health.marks() == "[/][/][/][ ][ ][ ][ ]"
    f2 = duel(sheet("a", weapon="knife"), sheet("b", dexterity=0))
    d2 = f2.act("a", target="b", dice=[8, 2, 2, 2, 2, 2]).one(HunterDamaged)
    assert (d2.amount, d2.damage_type) == (1, "lethal")
    assert "H-ATK-3" in d2.rules


def test_H_ATK_3_what_a_creature_is_vulnerable_to_does_aggravated_damage() -> None:
    vampire = sheet("v", dexterity=0, vulnerable=["fire"], kind="monstre")
    f = duel(sheet("a", weapon="torch"), vampire)
    d = f.act("a", target="v", dice=[8, 2, 2, 2, 2, 2]).one(HunterDamaged)
    assert d.damage_type == "aggravated" and f["v"].health.marks().startswith("[*]")


def test_H_CHANCE_1_a_pool_at_zero_rolls_one_die_and_a_ten_does_damage() -> None:
    f = duel(sheet("a", strength=1, brawl=0), sheet("b", dexterity=4, wits=4))
    ev = f.act("a", target="b", dice=[10, 3])
    r = roll(ev)
    assert r.chance and r.pool < 0 and r.successes == 1
    assert ev.one(HunterDamaged).amount == 1
    assert "H-CHANCE-1" in r.rules


def test_H_CHANCE_1_a_chance_die_that_is_not_ten_fails_and_a_one_is_dramatic() -> None:
    f = duel(sheet("a", strength=1, brawl=0), sheet("b", dexterity=4, wits=4))
    r = roll(f.act("a", target="b", dice=[9]))
    assert r.successes == 0 and not r.dramatic
    f.do("initiative")
    r = roll(f.act("a", target="b", dice=[1]))
    assert r.dramatic and {"H-CHANCE-1", "H-FAIL-1"} <= set(r.rules)


def test_H_FAIL_1_no_success_and_a_one_is_a_dramatic_failure() -> None:
    f = duel(sheet("a"), sheet("b", dexterity=0))
    r = roll(f.act("a", target="b", dice=[1, 5, 7, 3, 2]))
    assert r.dramatic and "H-FAIL-1" in r.rules
    f.do("initiative")
    r = roll(f.act("a", target="b", dice=[1, 8, 7, 3, 2]))
    assert not r.dramatic and r.successes == 1


def test_H_EXC_1_five_successes_are_exceptional_at_engine_level() -> None:
    f = duel(sheet("a", strength=5, brawl=2), sheet("b", dexterity=0, stamina=5))
    r = roll(f.act("a", target="b", dice=[8, 8, 9, 8, 9, 2, 3]))
    assert r.successes == 5 and r.exceptional and "H-EXC-1" in r.rules


def test_H_OFF_1_the_off_hand_costs_two_dice() -> None:
    f = duel(sheet("a"), sheet("b", dexterity=0))
    r = roll(f.act("a", target="b", off_hand=True, dice=[2] * 3))
    assert ("off_hand", -2) in r.modifiers and r.pool == 3 and "H-OFF-1" in r.rules


def test_H_AOA_1_all_out_adds_two_dice_and_loses_defense() -> None:
    f = duel(sheet("a", dexterity=3, wits=3), sheet("b", dexterity=0))
    r = roll(f.act("a", target="b", all_out=True, dice=[2] * 7))
    assert ("all_out", 2) in r.modifiers and r.pool == 7
    r2 = roll(f.act("b", target="a", dice=[2] * 5))
    assert r2.defense == 0 and "H-AOA-1" in r2.rules


def test_H_DRAW_1_drawing_takes_the_turn() -> None:
    f = duel(sheet("a", weapons=["knife", "heavy_pistol"]), sheet("b"))
    ev = f.act("a", "draw", weapon="heavy_pistol")
    assert ev.one(HunterDrawn).weapon == "heavy_pistol" and f["a"].acted
    assert f["a"].weapon == "heavy_pistol"


def test_H_DRAW_1_unless_the_character_has_the_right_merit() -> None:
    f = duel(sheet("a", weapons=["knife"], atouts=["dégainer vite"]), sheet("b", dexterity=0))
    f.do("quick_draw", "a", weapon="knife")
    assert f["a"].weapon == "knife" and not f["a"].acted
    roll(f.act("a", target="b", dice=[2] * 6))
    g = duel(sheet("a", weapons=["knife"]), sheet("b"))
    with pytest.raises(ConteurError) as err:
        g.do("quick_draw", "a", weapon="knife")
    assert err.value.key == "hunter.draw.needs_turn"


def test_H_DODGE_1_dodging_doubles_the_lower_of_wits_and_dexterity() -> None:
    f = Fight(sheet("a", strength=5, brawl=5), sheet("b", dexterity=4, wits=2))
    f.start(9, 1)
    f.do("dodge", "b")  # out of its turn: b gives up its action
    assert f["b"].acted
    r = roll(f.act("a", target="b", dice=[2] * 6))
    assert r.defense == 4 and "H-DODGE-1" in r.rules


def test_H_DODGE_1_the_dodge_drops_by_one_for_each_attack_received() -> None:
    f = Fight(sheet("a"), sheet("c"), sheet("b", dexterity=3, wits=3))
    f.start(9, 8, 1)
    f.do("dodge", "b")
    assert roll(f.act("a", target="b", dice=[2])).defense == 6
    assert roll(f.act("c", target="b", dice=[2])).defense == 5


def test_H_DODGE_1_cannot_dodge_after_acting() -> None:
    f = Fight(sheet("a"), sheet("b"))
    f.start(9, 1)
    f.do("pass", "a")
    with pytest.raises(ConteurError) as err:
        f.do("dodge", "a")
    assert err.value.key == "hunter.dodge.no_action"


def test_H_DODGE_1_against_a_thrown_object_dex_plus_athletics_replaces_defense() -> None:
    f = duel(sheet("a", dexterity=4, athletics=3), sheet("b", dexterity=3, wits=2, athletics=3))
    r = roll(f.act("a", "throw", target="b", object="stone", athletics_dodge=True, dice=[2]))
    assert r.defense == 6 and "H-DODGE-1" in r.rules


def test_H_HLT_1_health_is_stamina_plus_size_with_wound_penalties() -> None:
    f = duel(sheet("a", strength=5, brawl=5), sheet("b", dexterity=0, stamina=2))
    assert f["b"].health.size == 7
    f.act("a", target="b", dice=[8, 8, 8, 8, 8, 2, 2, 2, 2, 2])  # 5 bashing of 7 boxes
    assert f["b"].health.penalty == -1
    ev = f.act("b", target="a", dice=[2] * 2)
    assert ("wounds", -1) in roll(ev).modifiers and "H-HLT-1" in roll(ev).rules


def test_H_HLT_1_bashing_in_the_last_box_calls_for_a_stamina_roll() -> None:
    f = duel(sheet("a", weapon="club", strength=5, weaponry=5), sheet("b", dexterity=0, stamina=2))
    faces = [8] * 7 + [2] * 5 + [3, 3]  # 7 successes: the track full of bashing; Stamina fails
    ev = f.act("a", target="b", dice=faces)
    assert ev.one(HunterConsciousnessRolled).conscious is False
    assert f["b"].fate == "unconscious"


def test_H_HLT_1_damage_past_the_track_upgrades_bashing_to_lethal_then_aggravated() -> None:
    from conteur.rulesets.hunter.health import HealthTrack

    t = HealthTrack.empty(3).with_damage(3, "bashing")
    assert t.marks() == "[/][/][/]" and t.fate() == "alive"
    t = t.with_damage(1, "bashing")
    assert t.marks() == "[X][/][/]"
    t = t.with_damage(2, "lethal")
    assert t.marks() == "[X][X][X]" and t.fate() == "incapacitated"
    t = t.with_damage(3, "lethal")
    assert t.marks() == "[*][*][*]" and t.fate() == "dead"
    assert HealthTrack.empty(7).with_damage(5, "lethal").penalty == -1
    assert HealthTrack.empty(7).with_damage(6, "lethal").penalty == -2
    assert HealthTrack.empty(7).with_damage(7, "lethal").penalty == -3


def test_H_HLT_1_lethal_in_the_last_box_takes_the_fighter_out() -> None:
    f = duel(sheet("a", weapon="sword", strength=5, weaponry=5), sheet("b", dexterity=0, stamina=1))
    f.act("a", target="b", dice=[8] * 6 + [2] * 7)
    assert f["b"].fate == "incapacitated" and f["b"].health.marks().count("X") == 6
