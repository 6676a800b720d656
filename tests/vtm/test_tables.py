"""The vtm tables: FACTS.md numbers, the text's maneuver rows, era filter, GM files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conteur.i18n import ConteurError, catalog
from conteur.rulesets.vtm.tables import (
    AUTOMATIC_MODES,
    Maneuver,
    Tables,
    find_maneuver,
    load_tables,
)

MODERN = load_tables("modern")
T1899 = load_tables("1899")


def row(maneuver_id: str) -> Maneuver:
    return T1899.maneuvers[maneuver_id]


def gm_file(tmp_path: Path, text: str, name: str = "maison.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def table_error(tmp_path: Path, text: str) -> ConteurError:
    path = gm_file(tmp_path, text)
    with pytest.raises(ConteurError) as info:
        load_tables("1899", [path])
    return info.value


# ---------------------------------------------------------------- weapons (FACTS.md)

RANGED = {
    # id: damage dice, short range, rate, clip, chamber, concealment
    "light_revolver": (4, 12, 3, 6, 0, "pocket"),
    "heavy_revolver": (6, 35, 2, 6, 0, "jacket"),
    "light_pistol": (4, 20, 4, 17, 1, "pocket"),
    "heavy_pistol": (5, 30, 3, 7, 1, "jacket"),
    "rifle": (8, 200, 1, 5, 1, "none"),
    "small_smg": (4, 25, 3, 30, 1, "jacket"),
    "large_smg": (4, 50, 3, 30, 1, "coat"),
    "assault_rifle": (7, 150, 3, 42, 1, "none"),
    "shotgun": (8, 20, 1, 5, 1, "coat"),
    "semi_auto_shotgun": (8, 20, 3, 8, 1, "coat"),
    "crossbow": (5, 20, 1, 1, 0, "coat"),
}

MELEE = {
    # id: Strength +, type, concealment
    "sap": (1, "bashing", "pocket"),
    "club": (2, "bashing", "coat"),
    "knife": (1, "lethal", "jacket"),
    "sword": (2, "lethal", "coat"),
    "axe": (3, "lethal", "none"),
    "stake": (1, "lethal", "coat"),
}


@pytest.mark.parametrize("weapon_id", sorted(RANGED))
def test_ranged_weapons_have_the_published_numbers(weapon_id: str) -> None:
    dice, short, rate, clip, chamber, concealment = RANGED[weapon_id]
    w = MODERN.weapon(weapon_id)
    assert (w.damage.dice, w.range, w.rate, w.clip, w.chamber) == (dice, short, rate, clip, chamber)
    assert w.concealment == concealment
    assert w.category == "ranged" and w.damage_type == "lethal"
    assert not w.estimated


def test_heavy_revolver_row() -> None:
    w = T1899.weapon("heavy_revolver")
    assert w.damage.dice == 6 and w.range == 35 and w.rate == 2 and w.clip == 6
    assert w.capacity == 6


def test_light_pistol_holds_seventeen_plus_one() -> None:
    assert MODERN.weapon("light_pistol").capacity == 18


def test_crossbow_reloads_in_five_turns_and_can_stake() -> None:
    w = T1899.weapon("crossbow")
    assert w.reload_turns == 5 and w.can_stake


@pytest.mark.parametrize("weapon_id", sorted(MELEE))
def test_melee_weapons_have_the_published_numbers(weapon_id: str) -> None:
    plus, damage_type, concealment = MELEE[weapon_id]
    w = T1899.weapon(weapon_id)
    assert w.damage.strength_plus == plus
    assert w.damage_type == damage_type
    assert w.concealment == concealment
    assert w.category == "melee"
    assert w.blunt == (damage_type == "bashing")


def test_knife_is_strength_plus_one_lethal() -> None:
    w = T1899.weapon("knife")
    assert w.damage.strength_plus == 1 and w.damage_type == "lethal"
    assert w.damage.pool(strength=3) == 4
    assert w.damage.describe("fr") == "Force + 1"


def test_stake_stakes_and_long_weapons_are_long() -> None:
    assert T1899.weapon("stake").can_stake
    assert T1899.weapon("sword").length == "long"
    assert T1899.weapon("staff").length == "long"
    assert T1899.weapon("knife").length == "short"
    assert T1899.weapon("broken_bottle").length == "short"


@pytest.mark.parametrize(
    "weapon_id",
    [
        "derringer",
        "lever_action_rifle",
        "bolt_action_rifle",
        "double_barrel_shotgun",
        "pump_shotgun",
        "mauser_c96",
        "borchardt",
        "gatling_gun",
        "maxim_gun",
        "bow",
        "thrown_knife",
        "staff",
        "broken_bottle",
    ],
)
def test_1899_weapons_without_published_numbers_are_estimated(weapon_id: str) -> None:
    w = T1899.weapon(weapon_id)
    assert w.estimated
    assert "1899" in w.eras


def test_machine_guns_are_crew_served_automatic() -> None:
    for weapon_id in ("gatling_gun", "maxim_gun"):
        w = T1899.weapon(weapon_id)
        assert w.crew_served and w.automatic
        assert set(w.modes) == {"full_auto", "spray"}


def test_automatic_modes_only_on_automatic_weapons() -> None:
    for tables in (T1899, MODERN):
        for w in tables.weapons.values():
            if AUTOMATIC_MODES & set(w.modes):
                assert w.automatic, w.id


def test_thrown_knife_uses_the_thrown_category() -> None:
    w = T1899.weapon("thrown_knife")
    assert w.category == "thrown" and w.is_ranged and w.range is not None


def test_weapon_by_french_name_or_alias() -> None:
    assert T1899.weapon("Revolver lourd").id == "heavy_revolver"
    assert T1899.weapon("colt").id == "heavy_revolver"
    assert T1899.weapon("ÉPÉE").id == "sword"
    assert T1899.weapon("Couteau").label("fr") == "Couteau"
    assert T1899.weapon("Couteau").label("en") == "Knife"


def test_the_same_name_resolves_in_each_era() -> None:
    assert T1899.weapon("Fusil à pompe").id == "pump_shotgun"
    assert MODERN.weapon("Fusil à pompe").id == "shotgun"
    assert T1899.weapon("shotgun").id == "pump_shotgun"


def test_two_weapons_of_one_era_may_not_share_a_name(tmp_path: Path) -> None:
    err = table_error(tmp_path, "weapons:\n  - {id: club, aliases: [couteau]}\n")
    assert (err.params["entry"], err.params["field"]) == ("club", "aliases")
    assert "knife" in err.message("fr") and "knife" in err.message("en")


def test_unknown_weapon_suggests_close_ones_in_both_languages() -> None:
    with pytest.raises(ConteurError) as info:
        T1899.weapon("revolvr lourd")
    err = info.value
    assert "revolvr lourd" in err.message("fr")
    assert "Revolver lourd" in err.message("fr")
    assert "Heavy revolver" in err.message("en")
    with pytest.raises(ConteurError) as info:
        T1899.weapon("zzzz")
    assert info.value.key == "vtm.weapon.unknown"


# ---------------------------------------------------------------- armour

ARMOUR = {
    "reinforced_clothing": (1, 0),
    "armoured_tshirt": (2, 1),
    "kevlar_vest": (3, 1),
    "flak_jacket": (4, 2),
    "riot_gear": (5, 3),
}


@pytest.mark.parametrize("armour_id", sorted(ARMOUR))
def test_modern_armour_rating_and_penalty(armour_id: str) -> None:
    a = MODERN.find_armour(armour_id)
    assert (a.rating, a.penalty) == ARMOUR[armour_id]
    assert a.eras == ["modern"] and not a.estimated


def test_kevlar_vest_is_three_one() -> None:
    a = MODERN.find_armour("Kevlar")
    assert a.id == "kevlar_vest" and a.rating == 3 and a.penalty == 1


def test_1899_armour_is_estimated() -> None:
    coat = T1899.find_armour("manteau de cuir épais")
    assert (coat.rating, coat.penalty, coat.estimated) == (1, 0, True)
    plate = T1899.find_armour("Cuirasse")
    assert plate.rating in (2, 3) and plate.penalty > 0 and plate.estimated


# ---------------------------------------------------------------- era (V-ERA-1)


def test_V_ERA_1_1899_hides_smgs_assault_rifle_kevlar_and_bursts() -> None:
    """V-ERA-1: no hand-held SMG, assault rifle, Kevlar or three-round burst in 1899."""
    for weapon_id in ("small_smg", "large_smg", "assault_rifle"):
        assert weapon_id not in T1899.weapons
        assert weapon_id in MODERN.weapons
    for armour_id in ("kevlar_vest", "armoured_tshirt", "flak_jacket", "riot_gear"):
        assert armour_id not in T1899.armour
    assert not [w.id for w in T1899.weapons.values() if w.can("burst3")]
    assert [w.id for w in MODERN.weapons.values() if w.can("burst3")]


def test_V_ERA_1_automatic_fire_in_1899_only_from_machine_guns() -> None:
    """V-ERA-1: the era's rare automatic weapons are crew-served machine guns."""
    automatic = [w for w in T1899.weapons.values() if w.automatic]
    assert automatic and all(w.crew_served for w in automatic)


def test_V_ERA_1_other_era_weapon_error_names_the_era() -> None:
    """V-ERA-1: asking for an SMG in 1899 says it does not exist yet."""
    with pytest.raises(ConteurError) as info:
        T1899.weapon("Uzi")
    err = info.value
    assert err.rule == "V-ERA-1"
    assert "1899" in err.message("fr") and "n'existe pas" in err.message("fr")
    assert "does not exist" in err.message("en")
    with pytest.raises(ConteurError) as info:
        T1899.find_armour("kevlar")
    assert info.value.rule == "V-ERA-1"


def test_V_ERA_1_era_spellings_and_unknown_era() -> None:
    """V-ERA-1: the era is chosen by name; an unknown one is refused."""
    assert load_tables("moderne") is MODERN
    assert load_tables(1899) is T1899
    with pytest.raises(ConteurError) as info:
        load_tables("1492")
    assert "1492" in info.value.message("fr") and "1899" in info.value.message("en")


def test_default_tables_are_1899_and_cached() -> None:
    assert load_tables() is T1899
    assert T1899.era == "1899"


# ---------------------------------------------------------------- maneuvers, close (V-CC)


def test_V_CC_1_sweep_row() -> None:
    """V-CC-1: Dex + Brawl or Melee / +1 / — / Strength or weapon; Dex + Athletics diff 8."""
    m = row("sweep")
    assert m.kind == "close" and m.rule == "V-CC-1"
    assert m.traits == [["dexterity", "brawl"], ["dexterity", "melee"]]
    assert (m.difficulty, m.accuracy) == (1, 0)
    assert m.damage.base == "strength_or_weapon" and m.damage.plus == 0
    check = m.effect("knockdown_check")
    assert check is not None
    assert check.who == "target" and check.traits == ["dexterity", "athletics"]
    assert check.difficulty == 8 and check.conditions == ["knocked_down", "dazed"]


def test_V_CC_2_weapon_strike_row() -> None:
    """V-CC-2: Dex + Melee / — / — / weapon."""
    m = row("weapon_strike")
    assert m.traits == [["dexterity", "melee"]]
    assert (m.difficulty, m.accuracy, m.damage.base) == (0, 0, "weapon")
    assert m.requires.weapon == ["melee"]


def test_V_CC_3_claws_row() -> None:
    """V-CC-3: Dex + Brawl / — / — / Strength + 1; aggravated (Feral Claws), lethal (bone)."""
    m = row("claws")
    assert m.traits == [["dexterity", "brawl"]]
    assert (m.difficulty, m.accuracy) == (0, 0)
    assert (m.damage.base, m.damage.plus) == ("strength", 1)
    assert m.damage_type_by_power["feral_claws"] == "aggravated"
    assert m.damage_type_by_power["bone_claws"] == "lethal"
    assert {"feral_claws", "bone_claws"} <= set(m.requires.powers)


def test_V_CC_4_kick_row_and_traits_option() -> None:
    """V-CC-4: Str + Brawl as the text says (option: Dex + Brawl) / +1 / — / Strength + 1."""
    m = row("kick")
    assert m.traits == [["strength", "brawl"]]
    assert (m.difficulty, m.accuracy) == (1, 0)
    assert (m.damage.base, m.damage.plus, m.damage_type) == ("strength", 1, "bashing")
    assert m.traits_option == "kick_traits"
    defaults = T1899.option_defaults()
    assert m.traits_for(defaults) == [["strength", "brawl"]]
    chosen = T1899.option_values({"kick_traits": "Dextérité + Bagarre"})
    assert chosen["kick_traits"] == "dexterity+brawl"
    assert m.traits_for(chosen) == [["dexterity", "brawl"]]


def test_V_CC_5_punch_row() -> None:
    """V-CC-5: Dex + Brawl / — / — / Strength, bashing."""
    m = row("punch")
    assert m.traits == [["dexterity", "brawl"]]
    assert (m.difficulty, m.accuracy) == (0, 0)
    assert (m.damage.base, m.damage.plus, m.damage_type) == ("strength", 0, "bashing")


def test_V_CC_6_disarm_row() -> None:
    """V-CC-6: Dex + Melee / +1 / — / special."""
    m = row("disarm")
    assert m.traits == [["dexterity", "melee"]]
    assert (m.difficulty, m.accuracy, m.damage.base) == (1, 0, "special")
    assert m.effect("disarm") is not None


def test_V_CC_7_grapple_row() -> None:
    """V-CC-7: Str + Brawl / — / — / Strength."""
    m = row("grapple")
    assert m.traits == [["strength", "brawl"]]
    assert (m.difficulty, m.accuracy) == (0, 0)
    assert (m.damage.base, m.damage.plus, m.damage_type) == ("strength", 0, "bashing")
    grapple = m.effect("grapple")
    assert grapple is not None and grapple.traits == ["strength", "brawl"]


def test_V_CC_8_hold_row() -> None:
    """V-CC-8: Str + Brawl / — / — / none."""
    m = row("hold")
    assert m.traits == [["strength", "brawl"]]
    assert (m.difficulty, m.accuracy, m.damage.base) == (0, 0, "none")
    hold = m.effect("hold")
    assert hold is not None and hold.traits == ["strength", "brawl"]


def test_V_CC_9_weapon_length_row() -> None:
    """V-CC-9: against a staff or sword, close in and lose one die."""
    m = row("weapon_length")
    assert m.accuracy == -1 and m.effect("close_in") is not None


def test_V_CC_10_bite_row() -> None:
    """V-CC-10: after grapple/hold/tackle, Dex + Brawl / — / +1 / Strength + 1 aggravated."""
    m = row("bite")
    assert m.traits == [["dexterity", "brawl"]]
    assert (m.difficulty, m.accuracy) == (0, 1)
    assert (m.damage.base, m.damage.plus, m.damage_type) == ("strength", 1, "aggravated")
    assert set(m.requires.after) == {"grapple", "hold", "tackle"}
    assert m.requires.powers == ["fangs"]


def test_V_CC_10_kiss_row() -> None:
    """V-CC-10: the Kiss resolves like the bite with no damage, and starts feeding."""
    m = row("kiss")
    assert m.traits == [["dexterity", "brawl"]] and m.accuracy == 1
    assert m.damage.base == "none" and m.effect("feed") is not None
    assert set(m.requires.after) == {"grapple", "hold", "tackle"}


def test_V_CC_11_multiple_opponents_row() -> None:
    """V-CC-11: +1 difficulty per opponent beyond the first, at most +4."""
    effect = row("multiple_opponents").effect("per_opponent")
    assert effect is not None and (effect.difficulty, effect.max) == (1, 4)


def test_V_CC_12_tackle_row() -> None:
    """V-CC-12: Str + Brawl / +1 / — / Strength + 1; both roll Dex + Athletics diff 7."""
    m = row("tackle")
    assert m.traits == [["strength", "brawl"]]
    assert (m.difficulty, m.accuracy) == (1, 0)
    assert (m.damage.base, m.damage.plus, m.damage_type) == ("strength", 1, "bashing")
    check = m.effect("knockdown_check")
    assert check is not None
    assert check.who == "both" and check.traits == ["dexterity", "athletics"]
    assert check.difficulty == 7 and check.conditions == ["knocked_down", "dazed"]
    off = m.effect("condition")
    assert off is not None and off.conditions == ["off_balance"] and off.difficulty == 1


# ---------------------------------------------------------------- defensive (V-DEF)


def test_V_DEF_3_block_row() -> None:
    """V-DEF-3: Dex + Brawl, limited against lethal and aggravated."""
    m = row("block")
    assert m.kind == "defensive" and m.traits == [["dexterity", "brawl"]]
    assert m.effect("block_limit") is not None


def test_V_DEF_4_dodge_row() -> None:
    """V-DEF-4: Dex + Dodge, needs room, takes cover against gunfire."""
    m = row("dodge")
    assert m.kind == "defensive" and m.traits == [["dexterity", "dodge"]]
    assert m.effect("needs_room") is not None and m.effect("take_cover") is not None


def test_V_DEF_5_parry_row() -> None:
    """V-DEF-5: Dex + Melee with a weapon; riposte against an unarmed attacker."""
    m = row("parry")
    assert m.kind == "defensive" and m.traits == [["dexterity", "melee"]]
    assert m.requires.weapon == ["melee"] and m.effect("parry_riposte") is not None


def test_V_DEF_7_full_defense_row() -> None:
    """V-DEF-7: a turn of only defences."""
    assert row("full_defense").effect("full_defense") is not None


# ---------------------------------------------------------------- ranged (V-RNG, V-ATK-1)


def test_V_ATK_1_shoot_and_throw_rows() -> None:
    """V-ATK-1: firearms and bows Dex + Firearms; thrown Dex + Athletics."""
    shoot, throw = row("shoot"), row("throw")
    assert shoot.traits == [["dexterity", "firearms"]] and shoot.requires.mode == "single"
    assert (shoot.difficulty, shoot.accuracy, shoot.damage.base) == (0, 0, "weapon")
    assert throw.traits == [["dexterity", "athletics"]] and throw.requires.weapon == ["thrown"]


def test_V_RNG_1_aim_row() -> None:
    """V-RNG-1: +1 die a turn up to Perception, Firearms 1 needed, scope +2."""
    m = row("aim")
    bonus = m.effect("aim_bonus")
    assert bonus is not None and bonus.value == 1 and bonus.max_trait == "perception"
    scope = m.effect("scope_bonus")
    assert scope is not None and scope.value == 2
    assert m.requires.min_traits == {"firearms": 1}


def test_V_RNG_2_spray_row() -> None:
    """V-RNG-2: Dex + Firearms / +2 / +10 / special; 3 m; dodging at +1."""
    m = row("spray")
    assert m.traits == [["dexterity", "firearms"]]
    assert (m.difficulty, m.accuracy, m.damage.base) == (2, 10, "special")
    assert m.requires.mode == "spray"
    area = m.effect("area")
    dodge = m.effect("dodge_difficulty")
    assert area is not None and area.value == 3
    assert dodge is not None and dodge.difficulty == 1
    assert m.effect("empties_clip") is not None and m.effect("shared_successes") is not None


def test_V_RNG_3_cover_levels() -> None:
    """V-RNG-3: light +1, good +2, superior +3; the covered shooter suffers one less."""
    assert [(c.id, c.difficulty, c.shooter_difficulty) for c in T1899.cover.values()] == [
        ("light", 1, 0),
        ("good", 2, 1),
        ("superior", 3, 2),
    ]
    assert T1899.find_cover("derrière un mur").id == "good"
    assert T1899.find_cover("Léger").id == "light"
    assert T1899.find_cover("superior").difficulty == 3


def test_V_RNG_4_two_weapons_row() -> None:
    """V-RNG-4: a multiple action, +1 difficulty for the off hand."""
    m = row("two_weapons")
    off = m.effect("off_hand")
    assert off is not None and off.difficulty == 1
    assert m.effect("multiple_action") is not None


def test_V_RNG_5_range_bands() -> None:
    """V-RNG-5: within 2 m diff 4, up to short range diff 6, up to twice diff 8."""
    revolver = T1899.weapon("heavy_revolver")
    band = T1899.range_band
    assert [(b.id, b.difficulty) for b in T1899.ranges] == [
        ("point_blank", 4),
        ("short", 6),
        ("long", 8),
    ]
    assert band(2, revolver) is not None and band(2, revolver).difficulty == 4  # type: ignore[union-attr]
    assert band(35, revolver).difficulty == 6  # type: ignore[union-attr]
    assert band(36, revolver).difficulty == 8  # type: ignore[union-attr]
    assert band(70, revolver).difficulty == 8  # type: ignore[union-attr]
    assert band(71, revolver) is None


def test_V_RNG_6_three_round_burst_row() -> None:
    """V-RNG-6: Dex + Firearms / +1 / +2 / weapon, three rounds."""
    m = row("three_round_burst")
    assert m.traits == [["dexterity", "firearms"]]
    assert (m.difficulty, m.accuracy, m.damage.base) == (1, 2, "weapon")
    rounds = m.effect("rounds")
    assert rounds is not None and rounds.value == 3
    assert m.requires.mode == "burst3"


def test_V_RNG_7_reload_row() -> None:
    """V-RNG-7: a full turn of concentration that may be part of a multiple action: no
    ``full_turn`` effect, which makes a maneuver the turn's only action (aim's, V-RNG-1)."""
    assert row("reload").effect("full_turn") is None
    assert row("aim").effect("full_turn") is not None


def test_V_RNG_8_full_auto_row() -> None:
    """V-RNG-8: Dex + Firearms / +2 / +10 / special; clip half full; no targeting."""
    m = row("full_auto")
    assert m.traits == [["dexterity", "firearms"]]
    assert (m.difficulty, m.accuracy, m.damage.base) == (2, 10, "special")
    half = m.effect("min_clip_fraction")
    assert half is not None and (half.value, half.max) == (1, 2)
    assert m.effect("no_targeting") is not None and m.requires.mode == "full_auto"


def test_V_RNG_9_multiple_shots_row() -> None:
    """V-RNG-9: a multiple action limited by the weapon's rate."""
    m = row("multiple_shots")
    assert m.traits == [["dexterity", "firearms"]] and m.requires.mode == "multiple"
    assert m.effect("multiple_action") is not None


# ---------------------------------------------------------------- general (V-MAN)


def test_V_MAN_3_abort_row() -> None:
    """V-MAN-3: a Willpower roll at difficulty 6."""
    m = row("abort")
    assert m.traits == [["willpower"]] and m.difficulty == 0


def test_V_MAN_4_flank_and_rear_rows() -> None:
    """V-MAN-4: flank +1 die, behind +2 dice."""
    assert row("flank_attack").accuracy == 1
    assert row("rear_attack").accuracy == 2


def test_V_MAN_5_blind_fighting_row() -> None:
    """V-MAN-5: +2 difficulty, no precise attacks."""
    m = row("blind_fighting")
    assert m.difficulty == 2 and m.effect("no_targeting") is not None


def test_V_MAN_7_ambush_row() -> None:
    """V-MAN-7: Dex + Stealth against Per + Alertness."""
    m = row("ambush")
    assert m.traits == [["dexterity", "stealth"]]
    resisted = m.effect("resisted")
    assert resisted is not None and resisted.traits == ["perception", "alertness"]


def test_V_MAN_8_targeting_sizes() -> None:
    """V-MAN-8: medium +1/+0, small +2/+1, precise +3/+2."""
    assert [(t.id, t.difficulty, t.damage) for t in T1899.targets.values()] == [
        ("medium", 1, 0),
        ("small", 2, 1),
        ("precise", 3, 2),
    ]
    assert T1899.find_target("tête").id == "small"
    assert T1899.find_target("head").id == "small"
    assert T1899.find_target("Cœur").id == "precise"
    assert T1899.find_target("bras").id == "medium"
    with pytest.raises(ConteurError) as info:
        T1899.find_target("orteil")
    assert info.value.rule == "V-MAN-8"


def test_every_maneuver_cites_a_checklist_rule() -> None:
    for m in T1899.maneuvers.values():
        assert re.fullmatch(r"V-[A-Z]+-\d+", m.rule), m.id
        assert m.names.fr and m.names.en


# ---------------------------------------------------------------- command words

WORDS = {
    "coup de poing": "punch",
    "poing": "punch",
    "punch": "punch",
    "coup de pied": "kick",
    "pied": "kick",
    "kick": "kick",
    "balayage": "sweep",
    "sweep": "sweep",
    "plaquage": "tackle",
    "tackle": "tackle",
    "empoignade": "grapple",
    "grapple": "grapple",
    "immobilisation": "hold",
    "hold": "hold",
    "morsure": "bite",
    "bite": "bite",
    "baiser": "kiss",
    "kiss": "kiss",
    "désarmer": "disarm",
    "desarmer": "disarm",
    "disarm": "disarm",
    "griffes": "claws",
    "claws": "claws",
    "coup": "weapon_strike",
    "frappe": "weapon_strike",
    "strike": "weapon_strike",
    "tirer": "shoot",
    "tir": "shoot",
    "shoot": "shoot",
    "viser": "aim",
    "ajuster": "aim",
    "aim": "aim",
    "arrosage": "spray",
    "spray": "spray",
    "rafale": "three_round_burst",
    "burst": "three_round_burst",
    "tir automatique": "full_auto",
    "full auto": "full_auto",
    "recharger": "reload",
    "reload": "reload",
    "esquive": "dodge",
    "esquiver": "dodge",
    "dodge": "dodge",
    "blocage": "block",
    "bloquer": "block",
    "block": "block",
    "parade": "parry",
    "parer": "parry",
    "parry": "parry",
    "lancer": "throw",
    "throw": "throw",
    "Tirs multiples": "multiple_shots",
    "deux armes": "two_weapons",
}


@pytest.mark.parametrize(("word", "maneuver_id"), sorted(WORDS.items()))
def test_command_words(word: str, maneuver_id: str) -> None:
    assert find_maneuver(word).id == maneuver_id
    assert find_maneuver(word.upper()).id == maneuver_id


def test_unknown_command_word_suggests_in_both_languages() -> None:
    with pytest.raises(ConteurError) as info:
        find_maneuver("plaquagee")
    err = info.value
    assert "« plaquagee »" in err.message("fr") and "Plaquage" in err.message("fr")
    assert '"plaquagee"' in err.message("en") and "Tackle" in err.message("en")


# ---------------------------------------------------------------- health (V-DMG-5)


def test_V_DMG_5_health_track() -> None:
    """V-DMG-5: Bruised 0, Hurt −1, Injured −1, Wounded −2, Mauled −2, Crippled −5, then out."""
    health = T1899.health
    assert [(lvl.id, lvl.names.fr, lvl.penalty) for lvl in health.levels] == [
        ("bruised", "Contusionné", 0),
        ("hurt", "Touché", -1),
        ("injured", "Légèrement blessé", -1),
        ("wounded", "Blessé", -2),
        ("mauled", "Gravement blessé", -2),
        ("crippled", "Estropié", -5),
        ("incapacitated", "Invalide", 0),
    ]
    assert health.levels[-1].can_act is False
    assert health.penalty("Estropié") == -5
    assert health.level("Mauled") is health.levels[4]


def test_V_DMG_5_movement_by_level() -> None:
    """V-DMG-5: running halved when Injured, none when Wounded, 3 m Mauled, 1 m Crippled."""
    health = T1899.health
    assert health.movement.walk.metres(3) == 7
    assert health.movement.jog.metres(3) == 15
    assert health.movement.run.metres(3) == 29
    assert health.max_move("bruised", 3) == 29
    assert health.max_move("injured", 3) == 14
    assert health.max_move("wounded", 3) == 7
    assert health.max_move("mauled", 3) == 3
    assert health.max_move("crippled", 3) == 1
    assert health.max_move("incapacitated", 3) == 0


# ---------------------------------------------------------------- complications, options


@pytest.mark.parametrize("category", ["ranged", "melee", "brawl", "thrown"])
def test_V_ATK_5_botch_complications_for_each_attack(category: str) -> None:
    """V-ATK-5: something to offer the game master for every kind of botched attack."""
    found = T1899.botch_complications(category)  # type: ignore[arg-type]
    assert found
    assert all(c.text.fr and c.text.en and c.rule == "V-ATK-5" for c in found)


def test_V_ATK_5_text_examples_present() -> None:
    """V-ATK-5: jam, weapon explodes, blade breaks, a friend hit."""
    ids = {c.id for c in T1899.complications}
    assert {"jam", "weapon_explodes", "blade_breaks", "hits_friend", "drops_weapon"} <= ids


def test_V_DMG_7_conditions() -> None:
    """V-DMG-7: knocked down (Dex + Athletics to stand), dazed (loses next action)."""
    down = T1899.conditions["knocked_down"]
    assert down.recover_traits == ["dexterity", "athletics"]
    assert (down.attackers_dice, down.close_attack_dice) == (1, -2)
    assert T1899.conditions["dazed"].loses_next_action
    assert T1899.conditions["off_balance"].difficulty == 1


def test_option_defaults() -> None:
    assert T1899.option_defaults() == {
        "damage_ones_cancel": False,
        "vampires_halve_bashing": True,
        "blunt_bashing_unless_head": True,
        "firearms_bashing_vs_vampires": False,
        "defence_literal_difference": False,
        "untrained_plus_one": False,
        "multiple_first_at_rank": False,
        "auto_fire_every_success": False,
        "kick_traits": "strength+brawl",
        "dazed_threshold_bonus_supernatural": 2,
    }
    for spec in T1899.options.values():
        assert spec.description.fr and spec.description.en and spec.rule.startswith("V-")


def test_option_values_are_checked() -> None:
    values = T1899.option_values(
        {"damage_ones_cancel": "oui", "dazed_threshold_bonus_supernatural": 3}
    )
    assert values["damage_ones_cancel"] is True
    assert values["dazed_threshold_bonus_supernatural"] == 3
    with pytest.raises(ConteurError) as info:
        T1899.option_values({"kick_traits": "wits+brawl"})
    assert "kick_traits" in info.value.message("fr") and "kick_traits" in info.value.message("en")
    with pytest.raises(ConteurError) as info:
        T1899.option_values({"no_such_option": True})
    assert info.value.key == "vtm.option.unknown"
    with pytest.raises(ConteurError):
        T1899.option_values({"damage_ones_cancel": "peut-être"})


# ---------------------------------------------------------------- GM files (V-CC-0)


def test_V_CC_0_custom_maneuver_from_a_gm_file(tmp_path: Path) -> None:
    """V-CC-0: a custom maneuver (French traits) and a changed kick, from the GM's file."""
    path = gm_file(
        tmp_path,
        """
manoeuvres:
  - id: headbutt
    kind: close
    rule: V-CC-0
    names: {fr: Coup de tête, en: Headbutt}
    words: [tête, headbutt]
    traits: [[Force, Bagarre]]
    difficulty: 1
    damage: strength+2
    damage_type: bashing
  - id: kick
    difficulty: 2
armes:
  - id: rapier
    name_fr: Rapière
    name_en: Rapier
    category: melee
    damage: {strength_plus: 2}
    damage_type: lethal
    eras: ["1899"]
""",
    )
    tables = load_tables("1899", [path])
    headbutt = tables.find_maneuver("Coup de tête")
    assert headbutt.id == "headbutt" and headbutt.custom
    assert headbutt.traits == [["strength", "brawl"]]
    assert (headbutt.difficulty, headbutt.damage.base, headbutt.damage.plus) == (1, "strength", 2)
    kick = tables.maneuvers["kick"]
    assert kick.difficulty == 2 and kick.damage.plus == 1 and not kick.custom
    assert tables.weapon("Rapière").damage.strength_plus == 2
    assert str(path) in tables.sources
    # the shared default tables are untouched
    assert load_tables("1899").maneuvers["kick"].difficulty == 1
    assert "headbutt" not in load_tables("1899").maneuvers


def test_gm_file_adds_an_era_weapon(tmp_path: Path) -> None:
    path = gm_file(tmp_path, "weapons:\n  - {id: small_smg, eras: ['1899', modern]}\n")
    assert load_tables("1899", [path]).weapon("small_smg").damage.dice == 4


def test_bad_trait_in_data_names_file_entry_and_field(tmp_path: Path) -> None:
    err = table_error(
        tmp_path,
        """
maneuvers:
  - {id: headbutt, kind: close, rule: V-CC-0, names: {fr: Coup de tête, en: Headbutt},
     traits: [[Forse, brawl]]}
""",
    )
    assert err.key == "vtm.tables.invalid"
    fr, en = err.message("fr"), err.message("en")
    assert "maison.yaml" in fr and "« headbutt »" in fr and "« traits[1][1] »" in fr
    assert "vouliez-vous dire « strength »" in fr
    assert "maison.yaml" in en and '"headbutt"' in en and '"traits[1][1]"' in en


@pytest.mark.parametrize(
    ("text", "entry", "field", "fr_part", "en_part"),
    [
        (
            "weapons:\n  - {id: gun, category: ranged, damage: {dice: 4}, damage_type: lethal}\n",
            "gun",
            "range",
            "obligatoire",
            "required",
        ),
        (
            "weapons:\n  - {id: knife, damage: {dice: 4}}\n",
            "knife",
            "damage",
            "Force + N",
            "Strength + N",
        ),
        (
            "weapons:\n  - {id: knife, damag: 3}\n",
            "knife",
            "damag",
            "vouliez-vous dire « damage »",
            'did you mean "damage"',
        ),
        (
            "armour:\n  - {id: kevlar_vest, rating: -1}\n",
            "kevlar_vest",
            "rating",
            "au moins 0",
            "at least 0",
        ),
        (
            "weapons:\n  - {id: pistol, category: ranged, damage: {dice: 4}, damage_type: lethal,"
            " range: 10, rate: 1, clip: 6, modes: [burst3]}\n",
            "pistol",
            "modes",
            "automatique",
            "automatic",
        ),
        (
            "maneuvers:\n  - {id: kick, damage: strength+x}\n",
            "kick",
            "damage",
            "strength+x",
            "strength+x",
        ),
        (
            "maneuvers:\n  - {id: kick, words: [coup de poing]}\n",
            "kick",
            "words",
            "punch",
            "punch",
        ),
        (
            "maneuvers:\n  - {id: bite, requires: {after: [lutte]}}\n",
            "bite",
            "requires.after[1]",
            "lutte",
            "lutte",
        ),
        (
            "maneuvers:\n  - {id: kick, effects: [{type: explode}]}\n",
            "kick",
            "effects[1].type",
            "explode",
            "explode",
        ),
        (
            "maneuvers:\n  - {id: kick, requires: {power: [fangs]}}\n",
            "kick",
            "requires.power",
            "vouliez-vous dire « powers »",
            'did you mean "powers"',
        ),
        (
            "options:\n  - {id: kick_traits, default: wits+brawl}\n",
            "kick_traits",
            "default",
            "wits+brawl",
            "wits+brawl",
        ),
    ],
)
def test_bad_data_names_file_entry_field(
    tmp_path: Path, text: str, entry: str, field: str, fr_part: str, en_part: str
) -> None:
    err = table_error(tmp_path, text)
    assert err.key == "vtm.tables.invalid"
    assert err.params["entry"] == entry
    assert err.params["field"] == field
    fr, en = err.message("fr"), err.message("en")
    assert "maison.yaml" in fr and "maison.yaml" in en
    assert f"« {entry} »" in fr and f'"{entry}"' in en
    assert fr_part in fr
    assert en_part in en


def test_bad_file_shapes(tmp_path: Path) -> None:
    err = table_error(tmp_path, "weapons: [unclosed\n")  # the strict input layer's words
    assert err.message("en") == f"{tmp_path / 'maison.yaml'}: not valid YAML (line 2)"
    err = table_error(tmp_path, "weapons: " + "[" * 5000 + "]" * 5000 + "\n")  # no crash
    assert err.message("fr") == (
        f"{tmp_path / 'maison.yaml'}\u202f: listes ou tables imbriquées sur plus de 40 niveaux"
    )
    err = table_error(tmp_path, "- just a list\n")
    assert err.key == "vtm.tables.not_mapping"
    err = table_error(tmp_path, "gadgets: []\n")
    assert err.params["field"] == "gadgets" and "weapons" in err.message("fr")
    err = table_error(tmp_path, "weapons:\n  - {name: sans id}\n")
    assert err.params["field"] == "id"
    err = table_error(tmp_path, "weapons:\n  - {id: a, category: melee}\n  - {id: a}\n")
    assert "deux fois" in err.message("fr") and "twice" in err.message("en")
    with pytest.raises(ConteurError) as info:
        load_tables("1899", [tmp_path / "absent.yaml"])
    assert info.value.key == "vtm.tables.unreadable"


def test_new_entry_needs_required_fields(tmp_path: Path) -> None:
    err = table_error(tmp_path, "maneuvers:\n  - {id: headbutt, kind: close}\n")
    assert err.params["entry"] == "headbutt"
    assert "obligatoire" in err.message("fr") and "required" in err.message("en")


# ---------------------------------------------------------------- catalog


def test_every_vtm_message_key_used_exists_in_both_languages() -> None:
    root = Path(__file__).resolve().parents[2] / "src" / "conteur" / "rulesets" / "vtm"
    used: set[str] = set()
    for name in ("tables.py", "sheet.py", "traits.py"):
        used |= set(re.findall(r'"(vtm\.[a-z_]+(?:\.[a-z_]+)+)"', (root / name).read_text()))
    assert used
    known = catalog()
    for key in sorted(used):
        assert key in known, key
        assert known[key]["fr"] and known[key]["en"]


def test_tables_type() -> None:
    assert isinstance(T1899, Tables)
    with pytest.raises(TypeError):
        T1899.weapons["x"] = T1899.weapons["knife"]  # type: ignore[index]
