"""Autofire, range, throwing, aiming, shooting into melee, cover, reloading."""

from __future__ import annotations

import pytest

from conteur.i18n import ConteurError
from conteur.rulesets.hunter.attack import throw_ranges
from conteur.rulesets.hunter.events import (
    HunterAllyHit,
    HunterAmmoSpent,
    HunterAttackRolled,
    HunterCoverChanged,
    HunterDamaged,
    HunterReloaded,
    HunterShotHitsCover,
)
from conteur.rulesets.hunter.tables import load_tables

from .fight import Fight, roll, sheet

GUN = {"dexterity": 3, "firearms": 2}


def shooter(weapon: str = "large_smg", **traits: object) -> dict[str, object]:
    return sheet("s", weapon=weapon, **{**GUN, **traits})


def still(fid: str, **traits: object) -> dict[str, object]:
    """A target with no Defense, to read pools easily."""
    return sheet(fid, dexterity=0, **traits)


def test_H_AUTO_1_short_burst_three_bullets_one_target_one_die() -> None:
    f = Fight(shooter(), still("t"))
    f.start(9, 1)
    ev = f.act("s", "burst", burst="short", targets=["t"], dice=[2] * 9)
    r = roll(ev)
    assert ("burst_short", 1) in r.modifiers and r.pool == 3 + 2 + 3 + 1
    assert ev.one(HunterAmmoSpent).rounds == 3
    assert {"H-AUTO-1", "H-AUTO-4"} <= set(r.rules)
    with pytest.raises(ConteurError):
        f.do("initiative")
        f.act("s", "burst", burst="short", targets=["t", "s"])


def test_H_AUTO_2_medium_burst_ten_bullets_up_to_three_targets_two_dice_each() -> None:
    f = Fight(shooter(), still("t"), still("u"))
    f.start(9, 1, 1, 3, 2)  # the two targets tie and roll off
    ev = f.act("s", "burst", burst="medium", targets=["t", "u"], dice=[2] * 16)
    rolls = ev.of(HunterAttackRolled)
    assert [r.target for r in rolls] == ["t", "u"]
    for r in rolls:
        assert ("burst_medium", 2) in r.modifiers and ("targets", -2) in r.modifiers
        assert r.pool == 3 + 2 + 3 + 2 - 2
    assert ev.one(HunterAmmoSpent).rounds == 10


def test_H_AUTO_2_a_medium_burst_takes_three_targets_at_most() -> None:
    f = Fight(shooter(), still("t"), still("u"), still("v"), still("w"))
    f.start(9, 1, 1, 1, 1, 2, 3, 4, 5)
    with pytest.raises(ConteurError) as err:
        f.act("s", "burst", burst="medium", targets=["t", "u", "v", "w"])
    assert err.value.key == "hunter.attack.burst_targets"
    # said in words, never with the burst's id
    assert err.value.message("fr") == "[H-AUTO-4] rafale moyenne\u202f: 4 cibles, nombre impossible"
    assert err.value.message("en") == "[H-AUTO-4] medium burst: 4 targets is not allowed"


def test_H_AUTO_3_long_burst_twenty_bullets_any_targets_three_dice() -> None:
    f = Fight(shooter("assault_rifle"), still("t"), still("u"), still("v"), still("w"))
    f.start(9, 1, 1, 1, 1, 2, 3, 4, 5)
    ev = f.act("s", "burst", burst="long", targets=["t", "u", "v", "w"], dice=[2] * 32)
    for r in ev.of(HunterAttackRolled):
        assert r.pool == 3 + 2 + 4 + 3 - 4
    assert ev.one(HunterAmmoSpent).rounds == 20 and "H-AUTO-3" in ev.rules()


def test_H_AUTO_3_the_game_master_may_limit_the_targets() -> None:
    f = Fight(shooter(), still("t"), still("u"), options={"long_burst_max_targets": 1})
    f.start(9, 1, 1, 2, 3)
    with pytest.raises(ConteurError):
        f.act("s", "burst", burst="long", targets=["t", "u"])


def test_H_AUTO_4_three_targets_cost_three_dice_and_one_target_none() -> None:
    f = Fight(shooter(), still("t"), still("u"), still("v"))
    f.start(9, 1, 1, 1, 2, 3, 4)
    ev = f.act("s", "burst", burst="medium", targets=["t", "u", "v"], dice=[2] * 21)
    assert all(("targets", -3) in r.modifiers for r in ev.of(HunterAttackRolled))
    f.do("initiative")
    r = roll(f.act("s", "burst", burst="medium", targets=["t"], dice=[2] * 10))
    assert not any(what == "targets" for what, _ in r.modifiers)


def test_H_AUTO_4_reading_option_core_one_per_target_after_the_first() -> None:
    f = Fight(shooter(), still("t"), still("u"), options={"autofire_penalty": "core"})
    f.start(9, 1, 1, 2, 3)
    ev = f.act("s", "burst", burst="medium", targets=["t", "u"], dice=[2] * 18)
    assert all(("targets", -1) in r.modifiers for r in ev.of(HunterAttackRolled))


def test_H_AUTO_4_autofire_needs_an_autofire_weapon() -> None:
    f = Fight(shooter("heavy_pistol"), still("t"))
    f.start(9, 1)
    with pytest.raises(ConteurError) as err:
        f.act("s", "burst", burst="short", targets=["t"])
    assert err.value.key == "hunter.attack.no_autofire"


def test_H_RNG_1_medium_costs_two_dice_long_four() -> None:
    f = Fight(shooter("heavy_pistol"), still("t"))
    f.start(9, 1)
    assert roll(f.act("s", target="t", range="medium", dice=[2] * 6)).pool == 6
    f.do("initiative")
    r = roll(f.act("s", target="t", distance=100, dice=[2] * 4))  # heavy pistol: 30/60/120
    assert ("range_long", -4) in r.modifiers and "H-RNG-1" in r.rules
    f.do("initiative")
    with pytest.raises(ConteurError) as err:
        f.act("s", target="t", distance=121)
    assert err.value.key == "hunter.attack.out_of_range"


def test_H_RNG_1_the_log_line_signs_its_penalties_with_a_true_minus() -> None:
    """The medium range's −2 (and every other modifier) reads « −2 » (U+2212), not ASCII."""
    f = Fight(shooter("heavy_pistol", strength=1), still("t"))
    f.start(9, 1)
    r = roll(f.act("s", target="t", range="medium", dice=[2] * 4))
    fr = r.describe("fr").split(" [", 1)[1].split("]", 1)[0]
    en = r.describe("en").split(" [", 1)[1].split("]", 1)[0]
    assert fr == (
        "Dextérité +3, Armes à feu +2, arme +3, Force insuffisante \u22122, portée moyenne \u22122"
    )
    assert (
        en == "Dexterity +3, Firearms +2, weapon +3, Strength too low \u22122, medium range \u22122"
    )


def test_H_THR_1_the_texts_tyre_is_thrown_7_14_28_yards() -> None:
    thrower = Fight(sheet("x", strength=4, dexterity=3, athletics=2))["x"]
    assert throw_ranges(thrower, load_tables().weapon("tyre"), far=False) == (7, 14, 28)
    f = Fight(sheet("x", strength=4, dexterity=3, athletics=2), still("t"))
    f.start(9, 1)
    r = roll(f.act("x", "throw", target="t", object="tyre", distance=14, dice=[2] * 3))
    assert ("range_medium", -2) in r.modifiers and "H-THR-1" in r.rules


def test_H_THR_2_an_aerodynamic_object_goes_twice_as_far() -> None:
    x = Fight(sheet("x", strength=4, dexterity=3, athletics=2))["x"]
    knife = load_tables().weapon("throwing_knife")  # size 1: 4 + 3 + 2 − 1 = 8, doubled
    assert throw_ranges(x, knife, far=False) == (16, 32, 64)
    f = Fight(sheet("x", strength=4, dexterity=3, athletics=2), still("t"))
    f.start(9, 1)
    bands = []
    # Dex 3 + Athletics 2 + knife 1 = 6 dice, less the range penalty (H-RNG-1)
    for distance, dice in ((16, 6), (17, 4), (32, 4), (33, 2), (64, 2)):
        r = roll(
            f.act(
                "x",
                "throw",
                target="t",
                object="throwing_knife",
                distance=distance,
                dice=[2] * dice,
            )
        )
        assert "H-THR-2" in r.rules and r.pool == dice
        bands.append(next((m for m in r.modifiers if m[0].startswith("range_")), None))
        f.do("initiative")
    assert bands == [
        None,
        ("range_medium", -2),
        ("range_medium", -2),
        ("range_long", -4),
        ("range_long", -4),
    ]
    with pytest.raises(ConteurError) as err:
        f.act("x", "throw", target="t", object="throwing_knife", distance=65)
    assert err.value.key == "hunter.attack.out_of_range"


def test_H_THR_3_an_object_the_size_of_the_throwers_strength_cannot_be_thrown() -> None:
    f = Fight(sheet("x", strength=2), still("t"))
    f.start(9, 1)
    with pytest.raises(ConteurError) as err:
        f.act("x", "throw", target="t", object="tyre")  # size 2
    assert err.value.key == "hunter.attack.too_heavy" and err.value.rule == "H-THR-3"
    with pytest.raises(ConteurError):
        f.act("x", "throw", target="t", object="javelin")  # size 3: larger still


def test_H_THR_4_the_range_doubles_at_the_cost_of_accuracy() -> None:
    x = Fight(sheet("x", strength=4, dexterity=3, athletics=2))["x"]
    assert throw_ranges(x, load_tables().weapon("tyre"), far=True) == (14, 28, 56)
    f = Fight(sheet("x", strength=4, dexterity=3, athletics=2), still("t"))
    f.start(9, 1)
    r = roll(f.act("x", "throw", target="t", object="tyre", far=True, distance=14, dice=[2] * 3))
    assert ("throw_far", -2) in r.modifiers and "H-THR-4" in r.rules


def test_H_AIM_1_one_die_a_turn_at_most_three_and_no_defense_meanwhile() -> None:
    f = Fight(shooter("rifle"), sheet("t", strength=3, brawl=2))
    f.start(9, 1)
    for turn in range(4):
        f.act("s", "aim", target="t")
        if turn < 3:
            assert roll(f.act("t", target="s", dice=[2] * 5)).defense == 0
        f.do("initiative")
    assert f["s"].aim == 3
    r = roll(f.act("s", target="t", dice=[2] * 11))
    assert ("aim", 3) in r.modifiers and "H-AIM-1" in r.rules
    assert f["s"].aim == 0


def test_H_AIM_1_using_defense_loses_the_aim_bonus() -> None:
    f = Fight(shooter("rifle"), still("t"))
    f.start(9, 1)
    f.act("s", "aim", target="t")
    f.do("stop_aiming", "s")
    assert f["s"].aim == 0


def test_H_AIM_1_no_aiming_with_autofire() -> None:
    f = Fight(shooter(), still("t"))
    f.start(9, 1)
    f.act("s", "aim", target="t")
    f.do("initiative")
    r = roll(f.act("s", "burst", burst="short", targets=["t"], dice=[2] * 9))
    assert not any(what == "aim" for what, _ in r.modifiers) and f["s"].aim == 0


def test_H_MEL_1_two_dice_per_person_to_avoid_four_if_grappling() -> None:
    f = Fight(shooter("heavy_pistol"), still("t"), still("ally"))
    f.start(9, 1, 1, 2, 3)
    r = roll(f.act("s", target="t", avoid=1, dice=[2] * 6))
    assert ("avoid", -2) in r.modifiers and "H-MEL-1" in r.rules
    f.do("initiative")
    r = roll(f.act("s", target="t", avoid=1, avoid_grappling=True, dice=[2] * 4))
    assert ("avoid", -4) in r.modifiers


def test_H_MEL_1_a_miss_hits_nobody_a_dramatic_failure_hits_the_ally() -> None:
    """H-MEL-1: « S'il rate son jet personne ne sera touché, si il s'agit d'un échec critique il
    tirera sur son allié » — and the reading: a normal attack on the ally with the
    unpenalised pool. Dex 3 + Firearms 2 + heavy pistol 3 = 8, −2 for the one person to
    avoid: 6 dice; all miss: nobody hit. With a 1 among them (dramatic failure) the shot
    goes to the ally: 8 dice against its Defense 0, two successes, 2 lethal on the ally."""
    f = Fight(shooter("heavy_pistol"), still("t"), still("ally"))
    f.start(9, 1, 1, 2, 3)
    ev = f.act("s", target="t", avoid=1, ally="ally", dice=[2, 3, 4, 5, 6, 7])
    assert not ev.of(HunterAllyHit) and not ev.of(HunterDamaged)
    f.do("initiative")
    ev = f.act("s", target="t", avoid=1, ally="ally", dice=[1, 3, 4, 5, 6, 7] + [8, 9] + [2] * 6)
    hit = ev.one(HunterAllyHit)
    assert hit.target == "ally" and hit.actor == "s"
    first, on_ally = ev.of(HunterAttackRolled)
    assert (first.target, first.pool, first.dramatic) == ("t", 6, True)
    assert ("avoid", -2) in first.modifiers
    assert (on_ally.target, on_ally.pool, on_ally.successes) == ("ally", 8, 2)
    assert not any(what == "avoid" for what, _ in on_ally.modifiers)
    assert "H-MEL-1" in on_ally.rules
    damaged = ev.one(HunterDamaged)
    assert (damaged.target, damaged.amount, damaged.damage_type) == ("ally", 2, "lethal")
    assert "allié" in hit.describe("fr") and "ally" in hit.describe("en")


def test_H_MEL_1_the_ally_keeps_its_own_defense_and_armour() -> None:
    """H-MEL-1 (reading): the attack on the ally is a normal one: the ally's Defense
    (Dexterity 2, Wits 2: 2) comes off the unpenalised 8 dice: 6 dice."""
    f = Fight(shooter("heavy_pistol"), still("t"), sheet("ally", dexterity=2))
    f.start(9, 1, 1)
    ev = f.act("s", target="t", avoid=1, ally="ally", dice=[1, 3, 4, 5, 6, 7] + [2] * 6)
    on_ally = ev.of(HunterAttackRolled)[1]
    assert (on_ally.target, on_ally.defense, on_ally.pool) == ("ally", 2, 6)
    assert not ev.of(HunterDamaged)


def test_H_RNG_1_out_of_range_is_said_in_yards_in_both_languages() -> None:
    """H-RNG-1: hunter's ranges are in yards (« 7 yards à courte portée »): a target beyond
    long range is refused in yards, in French too."""
    f = Fight(shooter("heavy_pistol"), still("t"))
    f.start(9, 1)
    with pytest.raises(ConteurError) as err:
        f.act("s", target="t", distance=1000)
    assert err.value.key == "hunter.attack.out_of_range" and err.value.rule == "H-RNG-1"
    assert "1000 yards" in err.value.message("fr") and "mètre" not in err.value.message("fr")
    assert "1000 yards" in err.value.message("en")


def test_H_COV_1_concealment_costs_one_two_three_dice_and_full_cover_takes_the_shot() -> None:
    f = Fight(shooter("heavy_pistol"), still("t"))
    f.start(9, 1)
    for level, penalty in (("barely", 1), ("partial", 2), ("substantial", 3)):
        f.do("gm_cover", fighter="t", cover=level)
        r = roll(f.act("s", target="t", dice=[2] * (8 - penalty)))
        assert ("concealment", -penalty) in r.modifiers and "H-COV-1" in r.rules
        f.do("initiative")
    f.do("gm_cover", fighter="t", cover="full")
    ev = f.act("s", target="t")
    assert ev.one(HunterShotHitsCover).target == "t" and not ev.of(HunterAttackRolled)


def test_H_COV_2_shooting_from_cover_the_texts_example_gives_minus_four() -> None:
    f = Fight(shooter("heavy_pistol", cover="substantial"), still("t", cover="partial"))
    f.start(9, 1)
    r = roll(f.act("s", target="t", dice=[2] * 4))
    assert ("own_cover", -2) in r.modifiers and ("concealment", -2) in r.modifiers
    assert r.pool == 8 - 4 and "H-COV-2" in r.rules


def test_H_COV_3_full_cover_cannot_shoot_without_leaving_it_then_substantial() -> None:
    f = Fight(shooter("heavy_pistol", cover="full"), still("t"))
    f.start(9, 1)
    with pytest.raises(ConteurError) as err:
        f.act("s", target="t")
    assert err.value.key == "hunter.attack.in_full_cover"
    ev = f.act("s", target="t", leave_cover=True, dice=[2] * 6)
    assert ev.one(HunterCoverChanged).cover == "substantial" and f["s"].cover == "substantial"
    assert ("own_cover", -2) in roll(ev).modifiers


def test_H_RLD_1_reloading_takes_the_turn() -> None:
    f = Fight(shooter("heavy_pistol", ammo={"heavy_pistol": 0}), sheet("t"))
    f.start(9, 1)
    with pytest.raises(ConteurError) as err:
        f.act("s", target="t")
    assert err.value.key == "hunter.attack.no_ammo"
    ev = f.act("s", "reload")
    assert not ev.one(HunterReloaded).exposed and f["s"].ammo["heavy_pistol"] == 8
    assert f["s"].acted
    assert roll(f.act("t", target="s", dice=[2] * 3)).defense == 2


def test_H_RLD_1_bullet_by_bullet_costs_the_defense() -> None:
    f = Fight(shooter("heavy_revolver", ammo={"heavy_revolver": 0}), sheet("t"))
    f.start(9, 1)
    assert f.act("s", "reload").one(HunterReloaded).exposed
    r = roll(f.act("t", target="s", dice=[2] * 5))
    assert r.defense == 0 and "H-RLD-1" in r.rules


def test_H_RLD_1_a_crossbow_takes_three_turns_to_reload() -> None:
    f = Fight(shooter("crossbow", strength=3, ammo={"crossbow": 0}), sheet("t"))
    f.start(9, 1)
    for left in (2, 1, 0):
        assert f.act("s", "reload").one(HunterReloaded).turns_left == left
        assert f["s"].ammo["crossbow"] == (1 if left == 0 else 0)
        f.do("initiative")


def test_H_AUTO_2_a_form_may_name_the_targets_in_one_text() -> None:
    f = Fight(shooter(), still("t"), still("u"))
    f.start(9, 1, 1, 3, 2)
    ev = f.act("s", "burst", burst="medium", targets="t, u", dice=[2] * 16)
    assert [r.target for r in ev.of(HunterAttackRolled)] == ["t", "u"]
