"""Shots and blows through the public engine: skills, location, multiplier, critical shift."""

from __future__ import annotations

import pytest

from conteur.i18n import ConteurError
from conteur.rulesets.western.events import (
    DamageDealt,
    LocationRolled,
    LocationShifted,
    ShotRolled,
)

from .fight import Fight, gunman


def duel(**bill: object) -> Fight:
    return Fight(gunman("bill", x=0, **bill), gunman("joe", x=10))


# ------------------------------------------------------------------ sequence, location


def test_W_SEQ_1_each_shot_runs_target_hit_location_damage() -> None:
    """W-SEQ-1: order → target → hit → location → damage, again for each bullet."""
    f = Fight(gunman("bill", x=0), gunman("joe", x=10), gunman("sam", x=5, side="joe"))
    f.round()
    ev = f.shoot("bill", "joe", 30, 20, 5)
    assert [type(e) for e in ev] == [ShotRolled, LocationRolled, DamageDealt]
    assert "W-SEQ-1" in ev.rules()
    ev3 = f.shoot("joe", "bill", 90)  # same speed: scenario order
    ev2 = f.shoot("sam", "bill", 90)
    assert ev2.one(ShotRolled).hit is False
    ev4 = f.shoot("bill", "sam", 30, 20, 5)  # bill's second bullet, a new target
    assert ev3.one(ShotRolled).target == "bill" and ev4.one(ShotRolled).target == "sam"


def test_W_LOC_2_location_roll_sets_zone_and_multiplier() -> None:
    """W-LOC-2: 1D100 on the hit-location table; 20 is the chest, ×2: 5 becomes 10 PV."""
    f = duel()
    f.round()
    before = f["joe"].pv
    ev = f.shoot("bill", "joe", 30, 20, 5)
    assert ev.one(LocationRolled).zone == "chest"
    dmg = ev.one(DamageDealt)
    assert (dmg.dice, dmg.multiplier, dmg.pv_lost) == (5, 2.0, 10)
    assert f["joe"].pv == before - 10


def test_W_LOC_2_head_triples_damage() -> None:
    """W-LOC-2: the head (01-05) is ×3 in the default table."""
    f = duel()
    f.round()
    ev = f.shoot("bill", "joe", 30, 3, 4)
    assert ev.one(DamageDealt).pv_lost == 12


def test_W_LOC_1_no_location_on_an_animal_that_is_not_human_like() -> None:
    """W-LOC-1 (reading): a horse has no hit location; the multiplier is ×1."""
    f = Fight(gunman("bill"), gunman("horse", x=10, human=False))
    f.round()
    ev = f.shoot("bill", "horse", 30, 6)
    assert not ev.of(LocationRolled)
    assert ev.one(DamageDealt).pv_lost == 6


def test_W_LOC_1_no_aiming_at_a_zone_of_a_non_human() -> None:
    """W-LOC-1: zones exist only on human-like targets."""
    f = Fight(gunman("bill"), gunman("horse", x=10, human=False))
    f.round()
    with pytest.raises(ConteurError) as err:
        f.shoot("bill", "horse", zone="head")
    assert err.value.key == "western.no_zones"


def test_W_LOC_1_damage_is_at_least_one_pv() -> None:
    """W-LOC-1: a hand is ×0.5; 1 × 0.5 still costs 1 PV (default rounding)."""
    f = duel()
    f.round()
    ev = f.shoot("bill", "joe", 30, 41, 1)
    assert ev.one(DamageDealt).pv_lost == 1


def test_miss_rolls_nothing_more_and_cites_no_location_rule() -> None:
    f = duel()
    f.round()
    ev = f.shoot("bill", "joe", 57)
    assert len(ev) == 1 and not ev.one(ShotRolled).hit
    assert "W-LOC-2" not in ev.rules()


# ------------------------------------------------------------------ critical


def test_W_CRIT_1_critical_under_a_tenth_of_the_percentage() -> None:
    """W-CRIT-1: Bill 56 %: 4 and 5 are criticals (40, 50 < 56), 6 is not (60)."""
    for face, critical in ((4, True), (5, True), (6, False)):
        f = duel()
        f.round()
        ev = f.shoot("bill", "joe", face, 20, 1)
        assert ev.one(ShotRolled).critical is critical, face


def test_W_CRIT_2_bill_hand_becomes_forearm() -> None:
    """W-CRIT-2, the text's example: 56 %, roll 4, margin 52: hand → forearm (30), not arm (60)."""
    f = duel()
    f.round()
    ev = f.shoot("bill", "joe", 4, 42, 4)
    assert ev.one(LocationRolled).zone == "right_hand"
    shift = ev.one(LocationShifted)
    assert (shift.rolled, shift.zone, shift.margin) == ("right_hand", "right_forearm", 52)
    assert ev.one(DamageDealt).zone == "right_forearm"
    assert ev.one(DamageDealt).pv_lost == 3  # 4 × 0.75


def test_W_CRIT_2_margin_60_reaches_the_arm() -> None:
    """W-CRIT-2 (reading): margins count from the zone rolled; hand → arm needs 60 in all."""
    f = duel(skills={"tir visé au pistolet": 70})
    f.round()
    ev = f.shoot("bill", "joe", 6, 57, 2)  # margin 64, left hand
    assert ev.one(LocationShifted).zone == "left_arm"


def test_W_CRIT_2_never_backwards() -> None:
    """W-CRIT-2: a forearm with a big margin goes up to the arm, never down to the hand."""
    f = duel()
    f.round()
    ev = f.shoot("bill", "joe", 2, 45, 2)  # margin 54, right forearm
    assert ev.one(LocationShifted).zone == "right_arm"


def test_W_CRIT_2_small_margin_does_not_move() -> None:
    """W-CRIT-2: a critical with less than 30 % of margin keeps the zone."""
    f = duel(skills={"tir visé au pistolet": 25})
    f.round()
    ev = f.shoot("bill", "joe", 2, 42, 2)  # critical (20 < 25), margin 23
    assert not ev.of(LocationShifted)
    assert ev.one(DamageDealt).zone == "right_hand"


def test_W_CRIT_3_no_shift_when_aiming_at_a_zone() -> None:
    """W-CRIT-3: aiming at the hand (−40 %), a critical stays on the hand."""
    f = duel(skills={"tir visé au pistolet": 95})
    f.round()
    ev = f.shoot("bill", "joe", 2, 4, zone="right_hand")
    shot = ev.one(ShotRolled)
    assert shot.percent == 55 and shot.critical
    assert not ev.of(LocationShifted)
    assert ev.one(LocationRolled).zone == "right_hand"
    assert ev.one(DamageDealt).zone == "right_hand"


# ------------------------------------------------------------------ skills


def test_W_SKL_1_ready_and_not_surprised_is_aimed() -> None:
    """W-SKL-1: weapon in hand, not surprised: aimed pistol at 56 %."""
    f = duel()
    f.round()
    shot = f.shoot("bill", "joe", 57).one(ShotRolled)
    assert (shot.skill, shot.percent) == ("aimed_pistol", 56)
    assert "W-SKL-1" in shot.rules


def test_W_SKL_2_weapon_not_ready_is_instinctive() -> None:
    """W-SKL-2: revolver holstered in round 1: instinctive pistol at 40 %."""
    f = duel(ready=False)
    f.round()
    shot = f.shoot("bill", "joe", 45).one(ShotRolled)
    assert (shot.skill, shot.percent, shot.hit) == ("instinctive_pistol", 40, False)


def test_W_SKL_2_sudden_adversary_is_instinctive() -> None:
    """W-SKL-2: gun in hand but a sudden adversary appears: instinctive."""
    f = duel()
    f.round()
    f.do("surprise", target="bill", surprise="sudden")
    assert f.shoot("bill", "joe", 45).one(ShotRolled).skill == "instinctive_pistol"


def test_W_SKL_2_instinctive_against_every_adversary_once_triggered() -> None:
    """W-SKL-2: once surprised, the character shoots instinctively at ALL adversaries."""
    f = Fight(
        gunman("bill"),
        gunman("joe", x=10),
        gunman("sam", x=8, side="joe", characteristics={"RAPIDITÉ": 1}),
    )
    f.round()
    f.do("surprise", target="bill", surprise="sudden")
    assert f.shoot("bill", "joe", 90).one(ShotRolled).skill == "instinctive_pistol"
    f.do("pass", "joe")
    assert f.shoot("bill", "sam", 90).one(ShotRolled).skill == "instinctive_pistol"


def test_W_SKL_3_no_instinctive_after_the_first_round() -> None:
    """W-SKL-3: still holstered in round 2: aimed, not instinctive."""
    f = duel(ready=False)
    f.round()
    f.do("pass", "bill")
    f.do("pass", "joe")
    f.do("pass", "bill")
    f.do("pass", "joe")
    f.round()
    shot = f.shoot("bill", "joe", 90).one(ShotRolled)
    assert shot.skill == "aimed_pistol" and "W-SKL-3" in shot.rules


def test_W_SKL_3_new_adversaries_bring_instinctive_back() -> None:
    """W-SKL-3: in round 2, a new adversary trying to surprise: instinctive again."""
    f = duel()
    f.round()
    for who in ("bill", "joe", "bill", "joe"):
        f.do("pass", who)
    f.round()
    f.do("surprise", target="bill", surprise="sudden")
    assert f.shoot("bill", "joe", 90).one(ShotRolled).skill == "instinctive_pistol"


def test_W_SKL_4_beyond_20_m_always_aimed() -> None:
    """W-SKL-4: 25 m away, holstered and surprised: still aimed."""
    f = Fight(gunman("bill", ready=False), gunman("joe", x=25))
    f.round()
    f.do("surprise", target="bill", surprise="sudden")
    shot = f.shoot("bill", "joe", 90).one(ShotRolled)
    assert shot.skill == "aimed_pistol" and "W-SKL-4" in shot.rules


def test_W_SKL_2_W_SKL_4_drawn_gun_stays_instinctive_after_an_aimed_far_shot() -> None:
    """W-SKL-4 then W-SKL-2: Bill draws (round 1, gun not ready); his first bullet, at Joe
    25 m away, is aimed (56 %, beyond 20 m); his second, at Sam 8 m away, is instinctive
    (40 %): from the moment he draws he shoots instinctively at ALL his adversaries."""
    f = Fight(
        gunman("bill", ready=False, characteristics={"RAPIDITÉ": 14}),
        gunman("joe", x=25),
        gunman("sam", x=8, side="joe", characteristics={"RAPIDITÉ": 1}),
    )
    f.round()
    far = f.shoot("bill", "joe", 90).one(ShotRolled)
    assert (far.skill, far.percent) == ("aimed_pistol", 56) and "W-SKL-4" in far.rules
    while f.state.due() != ("bill", "main"):
        f.do("pass", f.state.due()[0])  # type: ignore[index]
    near = f.shoot("bill", "sam", 90).one(ShotRolled)
    assert (near.skill, near.percent) == ("instinctive_pistol", 40)
    assert "W-SKL-2" in near.rules


def test_W_SKL_3_a_gun_drawn_in_round_1_is_aimed_in_round_2() -> None:
    """W-SKL-3: drawn and fired instinctively in round 1, Bill aims in round 2."""
    f = duel(ready=False)
    f.round()
    assert f.shoot("bill", "joe", 90).one(ShotRolled).skill == "instinctive_pistol"
    for who in ("joe", "bill", "joe"):
        f.do("pass", who)
    f.round()
    assert f.shoot("bill", "joe", 90).one(ShotRolled).skill == "aimed_pistol"


def test_W_SKL_4_unless_the_scenario_says_otherwise() -> None:
    """W-SKL-4: the scenario's exception (``instinctive_beyond``) allows instinctive at 25 m."""
    f = Fight(
        gunman("bill", ready=False), gunman("joe", x=25), options={"instinctive_beyond": True}
    )
    f.round()
    assert f.shoot("bill", "joe", 90).one(ShotRolled).skill == "instinctive_pistol"


# ------------------------------------------------------------------ range, close combat


def test_W_RNG_1_beyond_maximum_range_is_refused() -> None:
    """W-RNG-1: a derringer (10 m) at 12 m: refused, nothing changes, no dice used."""
    f = Fight(gunman("bill", weapons=["derringer"]), gunman("joe", x=12))
    f.round()
    before = f.snapshot()
    with pytest.raises(ConteurError) as err:
        f.shoot("bill", "joe")
    assert err.value.key == "western.out_of_range" and err.value.rule == "W-RNG-1"
    assert f.state == before


def test_W_RNG_1_thrown_knife_within_range() -> None:
    """W-RNG-1: a throwing knife (15 m) at 10 m uses the throwing skill."""
    f = Fight(
        gunman("bill", weapons=["throwing_knife"], skills={"lancer": 50}), gunman("joe", x=10)
    )
    f.round()
    shot = f.shoot("bill", "joe", 60).one(ShotRolled)
    assert (shot.skill, shot.percent) == ("throwing", 50)


def test_W_CC_1_fists_need_close_range() -> None:
    """W-CC-1: bare fists at 10 m are refused; at 1 m the brawl skill is used."""
    f = Fight(gunman("bill", weapons=["fists"]), gunman("joe", x=10))
    f.round()
    with pytest.raises(ConteurError) as err:
        f.shoot("bill", "joe")
    assert err.value.key == "western.out_of_reach"
    g = Fight(gunman("bill", weapons=["fists"]), gunman("joe", x=1))
    g.round()
    shot = g.shoot("bill", "joe", 60).one(ShotRolled)
    assert shot.skill == "brawl" and "W-CC-1" in shot.rules


def test_W_CC_1_firearm_at_point_blank() -> None:
    """W-CC-1: a revolver fired at 1 m is close combat (point blank)."""
    f = Fight(gunman("bill"), gunman("joe", x=1))
    f.round()
    assert "W-CC-1" in f.shoot("bill", "joe", 90).rules()


def test_empty_revolver_must_be_reloaded() -> None:
    f = Fight(
        gunman("bill", weapons=["derringer"], characteristics={"RAPIDITÉ": 10}), gunman("joe", x=5)
    )
    f.round()
    f.shoot("bill", "joe", 90)
    f.do("pass", "joe")
    f.shoot("bill", "joe", 90)
    f.do("pass", "joe")
    f.round()
    with pytest.raises(ConteurError) as err:
        f.shoot("bill", "joe")
    assert err.value.key == "western.empty"
    f.do("reload", "bill")
    assert f["bill"].ammo["main"] == 2


def test_dead_at_threshold_and_out_at_zero() -> None:
    """Defaults: 0 PV or less is out of the fight; −10 or less is dead."""
    f = Fight(gunman("bill"), gunman("joe", x=5, pv=4))
    f.round()
    f.shoot("bill", "joe", 30, 60, 8)  # left forearm ×0.75: 6
    assert f["joe"].fate == "out"
    g = Fight(gunman("bill"), gunman("joe", x=5, pv=4))
    g.round()
    g.shoot("bill", "joe", 30, 3, 8)  # head ×3: 24
    assert g["joe"].fate == "dead"


def test_typed_dice_short_or_wrong_change_nothing() -> None:
    """A hit with no location die typed, or a face of 101: refused, state and log unchanged."""
    f = duel()
    f.round()
    before = f.snapshot()
    for faces in ([30], [30, 101, 5]):
        with pytest.raises(ConteurError) as err:
            f.shoot("bill", "joe", *faces)
        assert err.value.key in ("dice.too_few", "dice.bad_face")
        assert f.state == before and len(f.encounter.log) == 1
