"""The house_ranged option pack (rules/001): every R- id, its Readings, driven through the
public engine with the faces a table would roll."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conteur.i18n import ConteurError
from conteur.rulesets.vtm.events import (
    AmmoChanged,
    AttackMissed,
    AttackRolled,
    ConditionSet,
    DamageRolled,
    DamageTaken,
    SoakRolled,
    WeaponChanged,
)
from conteur.rulesets.vtm.packs.house_ranged.conditions import ArmHit
from conteur.rulesets.vtm.packs.house_ranged.events import (
    BurstShared,
    CarefulAim,
    CarefulAimLost,
    HeadShotKill,
    LimbRolled,
    LocationIgnored,
    PinnedDown,
    SpreadFired,
    SuppressionLaid,
    SuppressionTested,
)
from conteur.rulesets.vtm.tables import Weapon, load_tables
from conteur.rulesets.vtm.turn import declaring_now

from .fight import Fight, attack
from .test_ranged import begin, duel, finish, flow, refused, rolled, scene, shot

PACK = "packs: [house_ranged]"
MODERN = "era: modern\npacks: [house_ranged]"
MISS = [2] * 5
"""Five faces that miss a 5-dice shot."""


def hits(successes: int, pool: int = 5) -> list[int]:
    """Faces of an attack roll of ``pool`` dice with exactly ``successes`` 8s, the rest 2s
    (no 1s, so no botch and nothing cancelled)."""
    return [8] * successes + [2] * (pool - successes)


# ------------------------------------------------------------------ R-SHOT


@pytest.mark.parametrize(
    ("metres", "difficulty"),
    [(1, 4), (3, 4), (4, 5), (10, 5), (11, 6), (20, 6), (21, 7), (30, 7), (31, 8), (60, 10)],
)
def test_R_SHOT_1_difficulty_by_distance(metres: float, difficulty: int) -> None:
    """R-SHOT-1: 1–3 m: 4; 4–10 m: 5; 11–20 m: 6; then +1 every further 10 m (rifle, 200 m)."""
    f = duel("weapons: [rifle]", metres=metres, head=PACK)
    events = shot(f, {"a": [attack("shoot", "t")]}, MISS)
    assert rolled(events) == (5, difficulty)
    assert "R-SHOT-1" in events.one(AttackRolled).rules
    assert "V-RNG-5" not in events.one(AttackRolled).rules


def test_R_SHOT_1_reading_distances_round_up_to_the_next_metre() -> None:
    """R-SHOT-1 (reading): 3.2 m counts as 4 m: difficulty 5, not 4; 10.01 m as 11 m: 6."""
    for metres, difficulty in ((3.2, 5), (10.01, 6)):
        f = duel("weapons: [rifle]", metres=metres, head=PACK)
        assert rolled(shot(f, {"a": [attack("shoot", "t")]}, MISS))[1] == difficulty


def test_R_SHOT_1_reading_difficulty_capped_at_10() -> None:
    """R-SHOT-1 (reading): 150 m would be 6 + 13: the difficulty stops at 10."""
    f = duel("weapons: [rifle]", metres=150, head=PACK)
    assert rolled(shot(f, {"a": [attack("shoot", "t")]}, MISS))[1] == 10


def test_R_SHOT_1_reading_the_weapons_maximum_range_still_applies() -> None:
    """R-SHOT-1 (reading): a heavy revolver (short range 35 m) still reaches 70 m, not 71 m."""
    f = duel("weapons: [heavy_revolver]", metres=70, head=PACK)
    assert rolled(shot(f, {"a": [attack("shoot", "t")]}, MISS)) == (5, 10)
    g = duel("weapons: [heavy_revolver]", metres=71, head=PACK)
    g.initiative(5, 5)
    g.declare("t", {"kind": "other"})
    assert refused(g, g.declare, "a", attack("shoot", "t")).rule == "V-GEN-2"


def test_R_SHOT_2_each_success_past_the_first_adds_a_damage_die() -> None:
    """R-SHOT-2: 3 successes with a heavy revolver (6 dice): 6 + 2 = 8 damage dice."""
    f = duel("weapons: [heavy_revolver]", metres=12, head=PACK)
    events = shot(f, {"a": [attack("shoot", "t")]}, hits(3) + [2] * 8)
    assert events.one(DamageRolled).pool == 8
    assert "R-SHOT-2" in events.one(AttackRolled).rules
    one = duel("weapons: [heavy_revolver]", metres=12, head=PACK)
    assert shot(one, {"a": [attack("shoot", "t")]}, hits(1) + [2] * 6).one(DamageRolled).pool == 6


# ------------------------------------------------------------------ pack on/off


def test_pack_replaces_the_core_maneuvers_no_stacking() -> None:
    """With the pack on, the V-RNG-6, V-RNG-8, V-RNG-2 and V-RNG-1 maneuvers are gone from the
    encounter, and a shot aims at a spot only as a called shot (R-CALL replaces V-MAN-8)."""
    f = duel("weapons: [small_smg]", metres=5, head=MODERN)
    f.initiative(5, 5)
    f.declare("t", {"kind": "other"})
    for kind in ("three_round_burst", "full_auto", "spray", "aim"):
        refused(f, f.declare, "a", attack(kind, "t"))
    err = refused(f, f.declare, "a", attack("shoot", "t", targeting="small"))
    assert err.rule == "R-CALL-1"
    core = duel("weapons: [small_smg]", metres=5, head="era: modern")
    core.initiative(5, 5)
    core.declare("t", {"kind": "other"})
    core.declare("a", attack("three_round_burst", "t"))


def test_pack_same_fight_with_and_without_the_pack() -> None:
    """The same shot at 12 m with a heavy revolver: core V-RNG-5 difficulty 6 (short range
    35 m), the pack's R-SHOT-1 difficulty 6 too; at 5 m core 6 but the pack 5; a core
    three-round burst exists only without the pack, the pack's short burst only with it."""
    core = duel("weapons: [heavy_revolver]", metres=5)
    house = duel("weapons: [heavy_revolver]", metres=5, head=PACK)
    core_roll = shot(core, {"a": [attack("shoot", "t")]}, MISS)
    house_roll = shot(house, {"a": [attack("shoot", "t")]}, MISS)
    assert rolled(core_roll) == (5, 6) and "V-RNG-5" not in core_roll.one(AttackRolled).rules
    assert rolled(house_roll) == (5, 5) and "R-SHOT-1" in house_roll.one(AttackRolled).rules
    plain = duel("weapons: [heavy_revolver]", metres=5)
    plain.initiative(5, 5)
    plain.declare("t", {"kind": "other"})
    refused(plain, plain.declare, "a", attack("short_burst", "t"))


def test_pack_unknown_name_refused() -> None:
    """A scenario naming an unknown pack is refused with the known ones."""
    with pytest.raises(ConteurError) as err:
        duel(head="packs: [house_rangd]")
    assert "house_ranged" in err.value.message("en")


# ------------------------------------------------------------------ weapons


def test_shipped_firearms_say_their_cadence_and_bore() -> None:
    """The 1899 and modern tables say which firearm is single shot, semi-automatic or
    automatic, and which shotgun is smooth-bore with buckshot or sawed off."""
    for era in ("1899", "modern"):
        t = load_tables(era)
        for w in t.weapons.values():
            if w.category == "ranged":
                assert w.cadence is not None, w.id
        assert t.weapons["sawed_off_shotgun"].sawed_off
        assert t.weapons["double_barrel_shotgun"].load == "buckshot"
    modern = load_tables("modern")
    assert modern.weapons["light_pistol"].cadence == "semi_automatic"
    assert modern.weapons["small_smg"].cadence == "automatic"
    assert load_tables("1899").weapons["lever_action_rifle"].cadence == "single_shot"


def test_weapon_fields_are_validated() -> None:
    """A load or a sawed-off barrel needs a smooth bore; cadence automatic needs automatic."""
    base = {
        "id": "x",
        "name_fr": "x",
        "category": "ranged",
        "damage": {"dice": 4},
        "damage_type": "lethal",
        "range": 10,
        "rate": 1,
        "clip": 2,
    }
    Weapon.model_validate({**base, "smooth_bore": True, "load": "shot", "sawed_off": True})
    for bad in ({"load": "shot"}, {"sawed_off": True}, {"cadence": "automatic"}):
        with pytest.raises(ValueError):
            Weapon.model_validate({**base, **bad})


# ------------------------------------------------------------------ R-BURST

TRIO = (
    flow("id: a, side: x, position: [0, 0], dexterity: 3, firearms: 2, wits: 5"),
    flow("id: b, side: y, position: [10, 0], wits: 1, stamina: 2"),
    flow("id: c, side: y, position: [10, 1], wits: 1, stamina: 2"),
    flow("id: d, side: y, position: [10, 2], wits: 1, stamina: 2"),
    flow("id: e, side: y, position: [10, 3], wits: 1, stamina: 2"),
)


def burst_scene(weapon: str, count: int = 4) -> Fight:
    shooter = {**TRIO[0], "weapons": [weapon]}
    return scene(shooter, *TRIO[1 : count + 1], head=MODERN)


def test_R_BURST_1_short_burst_semi_automatic_three_rounds() -> None:
    """R-BURST-1: +3 dice, +1 difficulty (10 m: 5 + 1 = 6); a semi-automatic pistol fires
    3 rounds (reading)."""
    f = burst_scene("heavy_pistol", 1)
    events = shot(f, {"a": [attack("short_burst", "b")]}, [2] * 8)
    assert rolled(events) == (8, 6)
    assert events.one(AmmoChanged).rounds == 8 - 3
    assert "R-BURST-1" in events.one(AttackRolled).rules


def test_R_BURST_1_short_burst_automatic_five_rounds() -> None:
    """R-BURST-1 (reading): an automatic weapon's short burst fires 5 rounds."""
    f = burst_scene("small_smg", 1)
    assert shot(f, {"a": [attack("short_burst", "b")]}, [2] * 8).one(AmmoChanged).rounds == 26


def test_R_BURST_1_needs_semi_or_automatic() -> None:
    """R-BURST-1: a single-shot rifle cannot fire a burst."""
    f = burst_scene("rifle", 1)
    f.initiative(5, 5)
    f.declare("b", {"kind": "other"})
    assert refused(f, f.declare, "a", attack("short_burst", "b")).rule == "R-BURST-1"


def test_R_BURST_1_split_among_one_to_three_targets() -> None:
    """R-BURST-1: 5 successes split among b, c, d (2, 2, 1 — the rest as named); each target's
    damage is base plus its successes − 1 (reading): heavy pistol 5 → 6, 6, 5 dice.
    Four targets are refused."""
    f = burst_scene("heavy_pistol", 3)
    action = attack("short_burst", "b", targets=["c", "d"])
    events = shot(f, {"a": [action]}, hits(5, 8) + [2] * 6 + [2] * 6 + [2] * 5)
    assert events.one(BurstShared).shares == (("b", 2), ("c", 2), ("d", 1))
    assert [d.pool for d in events.of(DamageRolled)] == [6, 6, 5]
    g = burst_scene("heavy_pistol", 4)
    g.initiative(5, 5, 5, 5, 5)
    for fid in ("b", "c", "d", "e"):
        g.declare(fid, {"kind": "other"})
    err = refused(g, g.declare, "a", attack("short_burst", "b", targets=["c", "d", "e"]))
    assert err.rule == "R-BURST-1"


def test_R_BURST_1_all_successes_to_one_target_when_chosen() -> None:
    """R-BURST-1: split freely — with ``split: [b, b, b, c]``, b takes 3 of 4 and c 1."""
    f = burst_scene("heavy_pistol", 2)
    action = attack("short_burst", "b", targets=["c"], split=["b", "b", "b", "c"])
    events = shot(f, {"a": [action]}, hits(4, 8) + [2] * 7 + [2] * 5)
    assert [d.pool for d in events.of(DamageRolled)] == [7, 5]
    assert events.one(BurstShared).shares == (("b", 3), ("c", 1))


def test_R_BURST_2_long_burst_ten_dice_plus_two_ten_rounds() -> None:
    """R-BURST-2: +10 dice, +2 difficulty (10 m: 5 + 2 = 7), at least 10 rounds, automatic only."""
    f = burst_scene("small_smg", 1)
    events = shot(f, {"a": [attack("long_burst", "b")]}, [2] * 15)
    assert rolled(events) == (15, 7)
    assert events.one(AmmoChanged).rounds == 31 - 10
    g = burst_scene("heavy_pistol", 1)
    g.initiative(5, 5)
    g.declare("b", {"kind": "other"})
    assert refused(g, g.declare, "a", attack("long_burst", "b")).rule == "R-BURST-2"


def test_R_BURST_2_needs_ten_rounds_in_the_clip() -> None:
    """R-BURST-2: "at least 10 bullets": 9 left in the clip refuse the long burst."""
    shooter = {**TRIO[0], "weapons": ["small_smg"]}
    f = scene({"ammo": {"small_smg": 9}, **shooter}, TRIO[1], head=MODERN)
    f.initiative(5, 5)
    f.declare("b", {"kind": "other"})
    assert refused(f, f.declare, "a", attack("long_burst", "b")).rule == "R-BURST-2"


def test_R_BURST_2_up_to_ten_targets() -> None:
    """R-BURST-2: successes split among up to 10 targets: 3 over b, c, d, e (one each, e none)."""
    f = burst_scene("small_smg", 4)
    action = attack("long_burst", "b", targets=["c", "d", "e"])
    events = shot(f, {"a": [action]}, hits(3, 15) + [2] * 4 + [2] * 4 + [2] * 4)
    assert dict(events.one(BurstShared).shares) == {"b": 1, "c": 1, "d": 1, "e": 0}
    assert [m.target for m in events.of(AttackMissed)] == ["e"]


# ------------------------------------------------------------------ R-SPREAD


def spread_duel(metres: float, weapon: str = "double_barrel_shotgun", target: str = "") -> Fight:
    return duel(f"weapons: [{weapon}]", target, metres=metres, head=MODERN)


@pytest.mark.parametrize(
    ("metres", "difficulty", "dice"),
    [(5, 4, 9), (15, 5, 8), (25, 6, 6), (35, 7, 4)],
)
def test_R_SPREAD_2_bands(metres: float, difficulty: int, dice: int) -> None:
    """R-SPREAD-2: 1–10 m: +1 die, difficulty 4; 11–20 m: normal, 5; 21–30 m: −2 dice, 6;
    31–40 m: −4 dice, 7 (shotgun 8 dice, one success)."""
    f = spread_duel(metres)
    events = shot(f, {"a": [attack("shotgun_spread", "t")]}, hits(1) + [2] * dice)
    assert rolled(events) == (5, difficulty)
    assert events.one(DamageRolled).pool == dice
    assert events.one(SpreadFired).rules == ("R-SPREAD-2",)


def test_R_SPREAD_2_last_band_no_base_damage_one_success_rolls_nothing() -> None:
    """R-SPREAD-2 (reading): at 41–80 m, difficulty 8, no base damage: one success rolls no
    die (beats V-DMG-4), three successes roll 2 dice; the bands reach 80 m whatever the
    shotgun's own range (20 m)."""
    f = spread_duel(60)
    events = shot(f, {"a": [attack("shotgun_spread", "t")]}, hits(1))
    assert rolled(events) == (5, 8)
    assert events.one(DamageRolled).pool == 0 and not events.of(DamageTaken)
    g = spread_duel(80)
    assert (
        shot(g, {"a": [attack("shotgun_spread", "t")]}, hits(3) + [2, 2]).one(DamageRolled).pool
        == 2
    )
    h = spread_duel(81)
    h.initiative(5, 5)
    h.declare("t", {"kind": "other"})
    assert refused(h, h.declare, "a", attack("shotgun_spread", "t")).rule == "R-SPREAD-2"


def test_R_SPREAD_1_armour_counts_double() -> None:
    """R-SPREAD-1: a Kevlar vest (3) counts as 6 against a spread: a mortal soaks lethal with
    6 dice instead of 3."""
    f = spread_duel(15, target="armour: kevlar_vest")
    events = shot(f, {"a": [attack("shotgun_spread", "t")]}, hits(1) + [8] * 8 + [2] * 6)
    assert events.one(SoakRolled).pool == 6
    g = duel("weapons: [shotgun]", "armour: kevlar_vest", metres=15, head=MODERN)
    events = shot(g, {"a": [attack("shoot", "t")]}, hits(1) + [8] * 8 + [2] * 3)
    assert events.one(SoakRolled).pool == 3


CONE = (
    flow("id: a, side: x, position: [0, 0], dexterity: 3, firearms: 2, wits: 5"),
    flow("id: b, side: y, position: [15, 0], wits: 1, stamina: 2"),
    flow("id: c, side: y, position: [15, 0.5], wits: 1, stamina: 2"),
    flow("id: d, side: x, position: [15, -0.5], wits: 1, stamina: 2"),
    flow("id: e, side: y, position: [15, 3], wits: 1, stamina: 2"),
)


def cone_scene(*others: dict[str, Any], weapon: str = "double_barrel_shotgun") -> Fight:
    return scene({**CONE[0], "weapons": [weapon]}, *others, head=MODERN)


def test_R_SPREAD_2_cone_up_to_three_targets_allies_included() -> None:
    """R-SPREAD-2 (reading): at 15 m, up to 3 targets in a 1 m cone — the ally d included —
    each with its own damage roll of all the successes (2 successes: 9 dice each)."""
    f = cone_scene(CONE[1], CONE[2], CONE[3])
    action = attack("shotgun_spread", "b", targets=["c", "d"])
    events = shot(f, {"a": [action]}, hits(2) + [2] * 27)
    assert [(d.target, d.pool) for d in events.of(DamageRolled)] == [
        ("b", 9),
        ("c", 9),
        ("d", 9),
    ]


def test_R_SPREAD_2_cone_limits_checked() -> None:
    """R-SPREAD-2: at 5 m only 1 target; at 15 m the cone is 1 m: b and e (3 m apart) refused."""
    f = cone_scene(CONE[1], CONE[4])
    f.initiative(5, 5, 5)
    f.declare("b", {"kind": "other"})
    f.declare("e", {"kind": "other"})
    err = refused(f, f.declare, "a", attack("shotgun_spread", "b", targets=["e"]))
    assert err.rule == "R-SPREAD-2" and err.key == "house_ranged.cone"
    close = scene(
        {**CONE[0], "weapons": ["double_barrel_shotgun"]},
        flow("id: b, side: y, position: [5, 0], wits: 1"),
        flow("id: c, side: y, position: [5, 0.5], wits: 1"),
        head=MODERN,
    )
    close.initiative(5, 5, 5)
    close.declare("b", {"kind": "other"})
    close.declare("c", {"kind": "other"})
    err = refused(close, close.declare, "a", attack("shotgun_spread", "b", targets=["c"]))
    assert err.key == "house_ranged.too_many_targets"


def test_R_SPREAD_1_needs_a_smooth_bore_with_shot() -> None:
    """R-SPREAD-1: a rifle cannot fire a spread."""
    f = duel("weapons: [rifle]", metres=10, head=MODERN)
    f.initiative(5, 5)
    f.declare("t", {"kind": "other"})
    assert refused(f, f.declare, "a", attack("shotgun_spread", "t")).rule == "R-SPREAD-1"


def test_R_SPREAD_3_sawed_off_halves_the_distances_not_the_cones() -> None:
    """R-SPREAD-3: a sawed-off gun at 7 m is in the second band (5–10 m: difficulty 5, normal
    damage); at 30 m the last (21–40 m); the second band's cone stays 1 m (reading)."""
    f = spread_duel(7, weapon="sawed_off_shotgun")
    events = shot(f, {"a": [attack("shotgun_spread", "t")]}, hits(1) + [2] * 8)
    assert rolled(events) == (5, 5) and events.one(DamageRolled).pool == 8
    assert "R-SPREAD-3" in events.one(SpreadFired).rules
    g = spread_duel(30, weapon="sawed_off_shotgun")
    assert rolled(shot(g, {"a": [attack("shotgun_spread", "t")]}, hits(1)))[1] == 8
    h = scene(
        {**CONE[0], "weapons": ["sawed_off_shotgun"]},
        flow("id: b, side: y, position: [7, 0], wits: 1"),
        flow("id: c, side: y, position: [7, 1], wits: 1"),
        head=MODERN,
    )
    events = shot(h, {"a": [attack("shotgun_spread", "b", targets=["c"])]}, MISS)
    assert [m.target for m in events.of(AttackMissed)] == ["b", "c"]


# ------------------------------------------------------------------ R-SUPP

PINNED = (
    flow("id: a, side: x, position: [0, 0], dexterity: 3, firearms: 2, manipulation: 2, wits: 5"),
    flow("id: b, side: y, position: [10, 0], wits: 1, firearms: 1, dexterity: 2"),
    flow("id: c, side: y, position: [10, 1], wits: 1"),
    flow("id: d, side: y, position: [10, 2], wits: 1"),
    flow("id: e, side: y, position: [10, 3], wits: 1"),
)


def pin_scene(weapon: str, count: int = 1, b_weapon: str = "heavy_pistol") -> Fight:
    return scene(
        {**PINNED[0], "weapons": [weapon]},
        {**PINNED[1], "weapons": [b_weapon]},
        *PINNED[2 : count + 1],
        head=MODERN,
    )


def test_R_SUPP_1_manipulation_firearms_difficulty_6_empties_the_clip() -> None:
    """R-SUPP-1: Manipulation 2 + Firearms 2 = 4 dice at difficulty 6 (whatever the distance);
    the clip is emptied; the target is pinned down for the turn."""
    f = pin_scene("heavy_pistol")
    events = shot(f, {"a": [attack("suppressive_fire", "b")]}, [8, 8, 2, 2])
    assert rolled(events) == (4, 6)
    assert events.one(AmmoChanged).rounds == 0
    laid = events.one(SuppressionLaid)
    assert laid.targets == ("b",) and laid.successes == 2 and laid.rules == ("R-SUPP-1",)


def test_R_SUPP_1_targets_by_cadence() -> None:
    """R-SUPP-1: a single-shot rifle pins 1 target, a semi-automatic up to 3, an automatic any."""
    for weapon, ok, too_many in (("rifle", 1, 2), ("heavy_pistol", 3, 4)):
        f = pin_scene(weapon, 4)
        f.initiative(*[5] * 5)
        while "a" not in declaring_now(f.state):
            for fid in declaring_now(f.state):
                f.declare(fid, {"kind": "other"})
        names = ["b", "c", "d", "e"]
        err = refused(f, f.declare, "a", attack("suppressive_fire", "b", targets=names[1:too_many]))
        assert err.rule == "R-SUPP-1"
        f.declare("a", attack("suppressive_fire", "b", targets=names[1:ok]))
    g = pin_scene("small_smg", 4)
    events = shot(
        g, {"a": [attack("suppressive_fire", "b", targets=["c", "d", "e"])]}, [8, 2, 2, 2]
    )
    assert events.one(SuppressionLaid).targets == ("b", "c", "d", "e")


def test_R_SUPP_1_reading_no_success_no_effect() -> None:
    """R-SUPP-1 (reading): no success, nobody is pinned (the clip is still spent)."""
    f = pin_scene("heavy_pistol")
    events = shot(f, {"a": [attack("suppressive_fire", "b")]}, [2, 2, 2, 2])
    assert not events.of(SuppressionLaid) and f["a"].ammo["heavy_pistol"] == 0


def pinned_then_b(b_action: dict[str, Any], supp: list[int]) -> Fight:
    """a (fast) lays suppressive fire on b; b (slow) declared ``b_action``."""
    f = pin_scene("heavy_pistol")
    begin(f, {"a": [attack("suppressive_fire", "b")], "b": [b_action]})
    f.act("a", supp)
    return f


def test_R_SUPP_2_failed_willpower_loses_the_exposing_action() -> None:
    """R-SUPP-2: b (Willpower 5) wants to shoot back; the shooter got 2 successes; b rolls 1 at
    difficulty 6: the shot does not happen (the reading: its exposing action is lost)."""
    f = pinned_then_b(attack("shoot", "a"), [8, 8, 2, 2])
    events = f.act("b", [8, 2, 2, 2, 2])
    test = events.one(SuppressionTested)
    assert (test.successes, test.needed, test.passed) == (1, 2, False)
    assert events.one(PinnedDown).rules == ("R-SUPP-2",) and not events.of(AttackRolled)


def test_R_SUPP_2_passed_willpower_acts_and_takes_base_damage() -> None:
    """R-SUPP-2: b rolls 2 successes (as many as the shooter): it shoots, but first takes the
    heavy pistol's base damage, 5 dice, no extra die for the shooter's successes (reading:
    soaked as usual; b is a mortal: no soak against lethal)."""
    f = pinned_then_b(attack("shoot", "a"), [8, 8, 2, 2])
    events = f.act("b", [8, 8, 2, 2, 2] + [8, 2, 2, 2, 2] + MISS[:3])
    assert events.one(SuppressionTested).passed
    damage = events.of(DamageRolled)[0]
    assert damage.target == "b" and damage.pool == 5
    assert events.one(DamageTaken).target == "b" and f["b"].health.filled == 1
    assert events.one(AttackRolled).attacker == "b"


def test_R_SUPP_2_reading_non_exposing_action_needs_no_test() -> None:
    """R-SUPP-2 (reading): a failed test only forbids exposing actions; reloading from
    cover needs no test at all."""
    f = pinned_then_b({"kind": "reload"}, [8, 2, 2, 2])
    events = f.act("b")
    assert not events.of(SuppressionTested)


def test_R_SUPP_2_reading_it_lasts_the_turn() -> None:
    """R-SUPP-2 (reading): next turn b shoots without a test."""
    f = pinned_then_b({"kind": "other"}, [8, 2, 2, 2])
    finish(f)
    begin(f, {"b": [attack("shoot", "a")]})
    f.act("a")
    events = f.act("b", [2, 2, 2])
    assert not events.of(SuppressionTested) and events.of(AttackRolled)


# ------------------------------------------------------------------ R-CALL


def called(location: str, target: str = "", metres: float = 12) -> tuple[Fight, dict[str, Any]]:
    f = duel("weapons: [heavy_revolver]", target, metres=metres, head=PACK)
    return f, {"a": [attack("called_shot", "t", location=location)]}


def test_R_CALL_1_plus_two_difficulty_and_a_spot() -> None:
    """R-CALL-1: Dex + Firearms at +2 (12 m: 6 + 2 = 8); the spot is required."""
    f, plan = called("torso")
    events = shot(f, plan, MISS)
    assert rolled(events) == (5, 8) and "R-CALL-1" in events.one(AttackRolled).rules
    g = duel("weapons: [heavy_revolver]", metres=12, head=PACK)
    g.initiative(5, 5)
    g.declare("t", {"kind": "other"})
    assert refused(g, g.declare, "a", attack("called_shot", "t")).rule == "R-CALL-1"
    err = refused(g, g.declare, "a", attack("shoot", "t", location="head"))
    assert err.key == "house_ranged.use_called_shot"


def test_R_CALL_2_head_two_more_dice_and_death_at_stamina() -> None:
    """R-CALL-2: a head shot does 6 + 2 = 8 dice; 3 levels inflicted on a vampire of Stamina 3
    (after soak, reading) put it in torpor rather than death (reading)."""
    f, plan = called("head", "kind: vampire, stamina: 3")
    dice = hits(1) + [8, 8, 8, 8, 8, 2, 2, 2] + [8, 8, 2]
    events = shot(f, plan, dice)
    assert events.of(DamageRolled)[0].pool == 8
    kill = events.one(HeadShotKill)
    assert (kill.damage, kill.stamina) == (3, 3)
    assert f["t"].fate == "torpor"


def test_R_CALL_2_below_stamina_no_kill() -> None:
    """R-CALL-2: 2 levels after soak against Stamina 3: the target lives."""
    f, plan = called("head", "kind: vampire, stamina: 3")
    events = shot(f, plan, hits(1) + [8, 8, 8, 8, 2, 2, 2, 2] + [8, 8, 2])
    assert not events.of(HeadShotKill) and f["t"].fate == "alive"


def test_R_CALL_3_torso_normal_effects() -> None:
    """R-CALL-3: the torso: 6 dice, no location effect."""
    f, plan = called("torso")
    events = shot(f, plan, hits(1) + [8, 2, 2, 2, 2, 2])
    assert events.one(DamageRolled).pool == 6
    assert not events.of(LimbRolled) and not events.of(HeadShotKill)


def test_R_CALL_4_arm_dexterity_roll_or_drop_then_plus_two() -> None:
    """R-CALL-4: 2 levels to the arm: Dexterity 2 at difficulty 7 needs 2 successes; 1 → the
    weapon drops; then +2 difficulty on the target's attacks."""
    f, plan = called("arm", "dexterity: 2, weapons: [knife]")
    events = shot(f, plan, hits(1) + [8, 8, 2, 2, 2, 2] + [8, 2])
    limb = events.one(LimbRolled)
    assert (limb.pool, limb.difficulty, limb.successes, limb.needed) == (2, 7, 1, 2)
    assert events.one(WeaponChanged).weapon is None and f["t"].weapon is None
    assert f["t"].conditions["arm_hit"] == 2


def test_R_CALL_4_arm_roll_made_keeps_the_weapon() -> None:
    """R-CALL-4: 2 successes against 2 levels: the weapon stays in hand."""
    f, plan = called("arm", "dexterity: 2, weapons: [knife]")
    events = shot(f, plan, hits(1) + [8, 8, 2, 2, 2, 2] + [8, 8])
    assert not events.of(WeaponChanged) and f["t"].weapon == "knife"


def test_R_CALL_4_arm_penalty_on_later_attacks() -> None:
    """R-CALL-4: a fighter hit in the arm attacks at +2 difficulty (12 m: 6 + 2 = 8)."""
    f = duel("weapons: [heavy_revolver]", metres=12, head=PACK)
    f["a"].conditions.put(ArmHit(penalty=2))
    assert rolled(shot(f, {"a": [attack("shoot", "t")]}, MISS)) == (5, 8)


def test_R_CALL_5_leg_dex_athletics_or_fall() -> None:
    """R-CALL-5: 1 level to the leg: Dex 1 + Athletics 1 at difficulty 7, 0 successes: falls."""
    f, plan = called("leg", "dexterity: 1, athletics: 1")
    events = shot(f, plan, hits(1) + [8, 2, 2, 2, 2, 2] + [2, 2])
    assert events.one(LimbRolled).pool == 2
    assert f["t"].conditions.get("knocked_down") and f["t"].conditions["leg_hit"] == 2
    down = [c for c in events.of(ConditionSet) if c.condition == "knocked_down"]
    assert down[0].rules == ("R-CALL-5",)


def test_R_CALL_6_no_wound_penalties_ignore_location_effects() -> None:
    """R-CALL-6: an apparition (condition no_wound_penalties) hit in the head takes the normal
    6 dice, no head effect; hit in the leg, no roll and no fall."""
    f, plan = called("head", "conditions: {no_wound_penalties: true}, stamina: 1")
    events = shot(f, plan, hits(1) + [8, 8, 2, 2, 2, 2])
    assert events.one(DamageRolled).pool == 6
    assert events.one(LocationIgnored).rules == ("R-CALL-6",) and not events.of(HeadShotKill)
    g, plan = called("leg", "conditions: {apparition: true}")
    events = shot(g, plan, hits(1) + [8, 2, 2, 2, 2, 2])
    assert not events.of(LimbRolled) and not g["t"].conditions.get("knocked_down")


# ------------------------------------------------------------------ R-AIM


def careful(f: Fight, **params: Any) -> dict[str, Any]:
    return {"a": [attack("careful_shot", "t", **params)]}


def test_R_AIM_1_one_round_then_minus_one() -> None:
    """R-AIM-1: the first round lines the shot up (no roll); the next fires at −1 (12 m: 6 − 1)."""
    f = duel("weapons: [rifle]", metres=12, head=PACK)
    begin(f, careful(f))
    events = f.act("a")
    assert events.one(CarefulAim).rounds == 1 and not events.of(AttackRolled)
    finish(f)
    begin(f, careful(f))
    events = f.act("a", MISS)
    assert rolled(events) == (5, 5) and "R-AIM-1" in events.one(AttackRolled).rules
    assert "careful_shot" not in f["a"].conditions


def test_R_AIM_1_two_rounds_minus_two_no_more() -> None:
    """R-AIM-1: waiting one more round gives −2 in all (12 m: 4); a third wait gives no more."""
    f = duel("weapons: [rifle]", metres=12, head=PACK)
    begin(f, careful(f))
    f.act("a")
    finish(f)
    begin(f, careful(f, wait=True))
    assert f.act("a").one(CarefulAim).rounds == 2
    finish(f)
    begin(f, careful(f, wait=True))
    events = f.act("a", MISS)
    assert rolled(events) == (5, 4)


def test_R_AIM_1_disturbed_by_a_close_attack_loses_the_bonus() -> None:
    """R-AIM-1: attacked in close combat while lining up, the shooter loses the bonus: its
    next careful shot lines up again (one round, no roll)."""
    f = scene(
        flow("id: a, side: x, position: [0, 0], dexterity: 3, firearms: 2, wits: 1"),
        flow("id: t, side: y, position: [12, 0], wits: 1, dexterity: 1"),
        flow("id: m, side: y, position: [1, 0], wits: 5, dexterity: 2, brawl: 1"),
        head=PACK,
    )
    f["a"].sheet.weapons.append("rifle")
    begin(f, {"a": [attack("careful_shot", "t", weapon="rifle")]})
    finish(f)
    assert f["a"].conditions["careful_shot"]["rounds"] == 1
    begin(f, {"a": [attack("careful_shot", "t", weapon="rifle")], "m": [attack("punch", "a")]})
    events = f.act("m", [2, 2, 2])
    assert events.one(CarefulAimLost).rules == ("R-AIM-1",)
    events = f.act("a")
    assert events.one(CarefulAim).rounds == 1 and not events.of(AttackRolled)


def test_R_AIM_1_the_target_must_be_visible() -> None:
    """R-AIM-1: a blinded shooter cannot start a careful shot."""
    f = duel("weapons: [rifle], conditions: {blinded: true}", metres=12, head=PACK)
    f.initiative(5, 5)
    f.declare("t", {"kind": "other"})
    assert refused(f, f.declare, "a", attack("careful_shot", "t")).rule == "R-AIM-1"


def test_R_AIM_1_alone_in_its_round() -> None:
    """R-AIM-1: nothing else may be done in a careful shot's round."""
    f = duel("weapons: [rifle]", metres=12, head=PACK)
    f.initiative(5, 5)
    f.declare("t", {"kind": "other"})
    err = refused(f, f.declare, "a", attack("careful_shot", "t"), {"kind": "move"})
    assert err.rule == "R-AIM-1"


# ------------------------------------------------------------------ script words


@pytest.mark.parametrize(
    ("line", "action"),
    [
        (
            "lupo: déclare rafale courte sur rosa et vidal répartis sur rosa et rosa et vidal",
            {
                "kind": "short_burst",
                "target": "rosa",
                "targets": ["rosa", "vidal"],
                "split": ["rosa", "rosa", "vidal"],
            },
        ),
        (
            "lupo: declares short burst on rosa and vidal split among rosa and vidal",
            {
                "kind": "short_burst",
                "target": "rosa",
                "targets": ["rosa", "vidal"],
                "split": ["rosa", "vidal"],
            },
        ),
        ("dario: déclare rafale longue sur vidal", {"kind": "long_burst", "target": "vidal"}),
        ("dario: declares long burst on vidal", {"kind": "long_burst", "target": "vidal"}),
        (
            "rosa: déclare gerbe sur dario et lupo",
            {"kind": "shotgun_spread", "target": "dario", "targets": ["dario", "lupo"]},
        ),
        ("rosa: declares shotgun spread on dario", {"kind": "shotgun_spread", "target": "dario"}),
        (
            "dario: déclare tir de suppression sur vidal et rosa",
            {"kind": "suppressive_fire", "target": "vidal", "targets": ["vidal", "rosa"]},
        ),
        (
            "dario: declares suppressive fire on vidal",
            {"kind": "suppressive_fire", "target": "vidal"},
        ),
        (
            "rosa: déclare tir ciblé sur lupo visant les jambes",
            {"kind": "called_shot", "target": "lupo", "location": "leg"},
        ),
        (
            "rosa: declares called shot on lupo aiming at head",
            {"kind": "called_shot", "target": "lupo", "location": "head"},
        ),
        (
            "vidal: déclare tir précis sur dario attend encore",
            {"kind": "careful_shot", "target": "dario", "wait": True},
        ),
        (
            "vidal: declares careful shot on dario one more round",
            {"kind": "careful_shot", "target": "dario", "wait": True},
        ),
    ],
)
def test_script_words_french_and_english(line: str, action: dict[str, Any]) -> None:
    """The pack's maneuvers and details in the script language, in French and English."""
    import yaml as _yaml

    from conteur.engine import Encounter

    path = Path(__file__).resolve().parents[2] / "examples" / "house_ranged.yaml"
    enc = Encounter.start(_yaml.safe_load(path.read_text(encoding="utf-8")))
    command = enc.ruleset.parse_command(line, enc.state)
    assert command.args["actions"] == [action]


# ------------------------------------------------------------------ the side not in play


def parse_refused(f: Fight, line: str) -> ConteurError:
    """The ConteurError a script line raises (both languages must read)."""
    with pytest.raises(ConteurError) as err:
        f.encounter.ruleset.parse_command(line, f.state)
    assert err.value.message("fr") and err.value.message("en")
    return err.value


def test_R_SUPP_1_R_AIM_1_pack_maneuvers_while_the_pack_is_off_name_the_rule_in_play() -> None:
    """The pack off, its maneuvers are not « not understood »: « tir de suppression »
    (R-SUPP-1) names the core spray that stands in its place (V-RNG-2), « tir précis »
    (R-AIM-1) the core aim (V-RNG-1), « gerbe » (R-SPREAD-2) the pack; a declared
    ``short_burst`` (R-BURST-1) names the three-round burst (V-RNG-6)."""
    f = duel("weapons: [rifle]", metres=10)
    err = parse_refused(f, "a: tir de suppression t")
    assert (err.key, err.rule) == ("vtm.maneuver.pack_off", "V-RNG-2")
    assert "R-SUPP-1" in err.message("fr") and "house_ranged" in err.message("fr")
    assert "Arrosage (V-RNG-2)" in err.message("fr") and "Spray (V-RNG-2)" in err.message("en")
    assert "not understood" not in err.message("en")
    aim = parse_refused(f, "a: tir précis t")
    assert aim.rule == "V-RNG-1" and "Careful shot (R-AIM-1)" in aim.message("en")
    spread = parse_refused(f, "a: gerbe t")
    assert spread.rule == "R-SPREAD-2" and "house_ranged" in spread.message("en")
    f.initiative(5, 5)
    f.declare("t", {"kind": "other"})
    burst = refused(f, f.declare, "a", attack("short_burst", "t"))
    assert (burst.key, burst.rule) == ("vtm.maneuver.pack_off", "V-RNG-6")
    assert "Rafale courte (R-BURST-1)" in burst.message("fr")


def test_R_AIM_1_R_SUPP_1_core_maneuvers_the_pack_replaces_name_their_replacement() -> None:
    """The pack on, R-AIM-1 replaces the core aim (V-RNG-1) and R-SUPP-1 the spray (V-RNG-2):
    « aim », « ajuster son tir », « arroser » and a declared ``aim`` or
    ``three_round_burst`` name the pack's maneuver and rule in French and English."""
    f = duel("weapons: [rifle]", metres=10, head=PACK)
    err = parse_refused(f, "a: aim t")
    assert (err.key, err.rule) == ("vtm.maneuver.replaced_by_pack", "R-AIM-1")
    assert "Aim (V-RNG-1)" in err.message("en") and "Careful shot (R-AIM-1)" in err.message("en")
    assert "Tir précis (R-AIM-1)" in err.message("fr")
    assert parse_refused(f, "a: ajuster son tir t").rule == "R-AIM-1"
    spray = parse_refused(f, "a: arroser t")
    assert spray.rule == "R-SUPP-1" and "Arrosage (V-RNG-2)" in spray.message("fr")
    f.initiative(5, 5)
    f.declare("t", {"kind": "other"})
    assert refused(f, f.declare, "a", attack("aim", "t")).rule == "R-AIM-1"
    burst = refused(f, f.declare, "a", attack("three_round_burst", "t"))
    assert burst.rule == "R-BURST-1" and "Short burst (R-BURST-1)" in burst.message("en")
