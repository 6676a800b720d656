"""Attacks, damage, soak and armour (V-GEN-1/2, V-ATK-*, V-DMG-*, V-SOAK-*, V-ARM-*)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conteur.i18n import ConteurError
from conteur.rulesets.vtm.events import (
    ArmourDestroyed,
    AttackMissed,
    AttackRolled,
    Botched,
    Burned,
    ComplicationChosen,
    DamageRolled,
    DamageTaken,
    InitiativeRolled,
    SoakRolled,
)
from conteur.rulesets.vtm.health import HealthTrack, fate

from .fight import Fight, attack


def duel(a: str, t: str, head: str = "", distance: float = 1) -> Fight:
    """Fighter ``a`` (fast) and ``t`` (slow), ``distance`` metres apart."""
    return Fight(f"""
{head}
combatants:
  - {{id: a, side: x, position: [0, 0], wits: 5, {a}}}
  - {{id: t, side: y, position: [{distance}, 0], wits: 1, {t}}}
""")


def strike(f: Fight, action: dict[str, Any], dice: list[int]) -> Any:
    """Initiative (a first), t declares nothing risky, a declares ``action`` and acts."""
    f.initiative(10, 1)
    f.declare("t", {"kind": "other"})
    f.declare("a", action)
    return f.act("a", dice)


# ------------------------------------------------------------------ reach and pools


def test_V_GEN_1_unarmed_needs_contact_and_melee_two_metres() -> None:
    """V-GEN-1: bare hands within 1 m, a melee weapon within 1–2 m. Reach is checked when
    the blow is declared, and again when it is struck (the target may have stepped back)."""
    f = duel("dexterity: 3, brawl: 2", "stamina: 2", distance=1.5)
    f.initiative(10, 1)
    f.declare("t", {"kind": "other"})
    with pytest.raises(ConteurError) as err:
        f.declare("a", attack("punch", "t"))
    assert err.value.rule == "V-GEN-1"
    h = duel("dexterity: 3, brawl: 2", "stamina: 2", distance=1)
    h.initiative(10, 1)
    h.declare("t", {"kind": "other"})
    h.declare("a", attack("punch", "t"))
    h.do("gm_move", fighter="t", to=[1.5, 0])
    with pytest.raises(ConteurError) as err:
        h.act("a", [2] * 5)
    assert err.value.rule == "V-GEN-1"
    g = duel("dexterity: 2, melee: 3, weapons: [knife]", "stamina: 2", distance=1.5)
    events = strike(g, attack("weapon_strike", "t"), [2, 2, 2, 2, 2])
    assert events.one(AttackRolled).pool == 5


def test_V_GEN_2_ranged_needs_the_weapon_range() -> None:
    """V-GEN-2: a target beyond twice the short range cannot be shot."""
    f = duel("dexterity: 3, firearms: 2, weapons: [light_revolver]", "stamina: 2", distance=30)
    f.initiative(10, 1)
    f.declare("t", {"kind": "other"})
    with pytest.raises(ConteurError) as err:
        f.declare("a", attack("shoot", "t"))
    assert err.value.rule == "V-GEN-2"
    assert "30" in err.value.message("fr") and "30" in err.value.message("en")
    g = duel("dexterity: 3, firearms: 2, weapons: [light_revolver]", "stamina: 2", distance=10)
    g.initiative(10, 1)
    g.declare("t", {"kind": "other"})
    g.declare("a", attack("shoot", "t"))
    g.do("gm_move", fighter="t", to=[30, 0])  # out of range since the declaration
    with pytest.raises(ConteurError) as err:
        g.act("a", [2, 2, 2, 2, 2])
    assert err.value.rule == "V-GEN-2"
    assert g["a"].ammo["light_revolver"] == 6


def test_V_ATK_1_pools_brawl_melee_firearms_thrown() -> None:
    """V-ATK-1: Dex + Brawl, Dex + Melee, Dex + Firearms, Dex + Athletics."""
    sheet = "dexterity: 3, brawl: 1, melee: 2, firearms: 3, athletics: 4, weapons: [{}]"
    cases = [
        ("punch", "knife", 1, 4),
        ("weapon_strike", "knife", 1, 5),
        ("shoot", "heavy_revolver", 10, 6),
        ("throw", "thrown_knife", 3, 7),
    ]
    for kind, weapon, metres, pool in cases:
        f = duel(sheet.format(weapon), "stamina: 2", distance=metres)
        events = strike(f, attack(kind, "t"), [2] * pool)
        assert events.one(AttackRolled).pool == pool, kind


def test_V_ATK_2_no_dot_rolls_the_attribute_alone() -> None:
    """V-ATK-2: no Brawl: Dexterity alone, at the usual difficulty."""
    f = duel("dexterity: 3", "stamina: 2")
    events = strike(f, attack("punch", "t"), [2, 2, 2])
    rolled = events.one(AttackRolled)
    assert (rolled.pool, rolled.difficulty) == (3, 6)
    assert "V-ATK-2" in rolled.rules


def test_V_ATK_2_option_untrained_plus_one() -> None:
    """V-ATK-2 option: +1 difficulty when the ability is missing."""
    f = duel("dexterity: 3", "stamina: 2", head="options: {untrained_plus_one: true}")
    assert strike(f, attack("punch", "t"), [2, 2, 2]).one(AttackRolled).difficulty == 7


def test_V_ATK_3_weapon_and_scope_change_pool() -> None:
    """V-ATK-3: the weapon may change the pool (a rifle's scope adds dice to an aimed shot)."""
    f = duel(
        "dexterity: 2, firearms: 2, perception: 3, weapons: [rifle]", "stamina: 2", distance=50
    )
    f.initiative(10, 1)
    f.declare("t", {"kind": "other"})
    f.declare("a", {"kind": "aim", "target": "t"})
    f.act("a")
    f.act("t")
    f.initiative(10, 1)
    f.declare("t", {"kind": "other"})
    f.declare("a", attack("shoot", "t"))
    rolled = f.act("a", [2] * 5).one(AttackRolled)
    # Dex 2 + Firearms 2 + 1 turn of aim = 5, with a scope +2 only if the rifle has one.
    assert rolled.pool in (5, 7)


def test_V_ATK_4_default_difficulty_is_six() -> None:
    """V-ATK-4: most attacks are at difficulty 6."""
    f = duel("dexterity: 2, brawl: 2", "stamina: 2")
    assert strike(f, attack("punch", "t"), [2, 2, 2, 2]).one(AttackRolled).difficulty == 6


def test_V_ATK_5_no_success_misses_and_does_no_damage() -> None:
    """V-ATK-5: no success, no damage."""
    f = duel("dexterity: 2, brawl: 2", "stamina: 2")
    events = strike(f, attack("punch", "t"), [5, 4, 3, 2])
    assert events.of(AttackMissed) and not events.of(DamageRolled)
    assert f["t"].health.filled == 0


def test_V_ATK_5_botch_waits_for_the_storytellers_complication() -> None:
    """V-ATK-5: a botch misses and the Conteur picks or types the complication."""
    f = duel("dexterity: 2, brawl: 2", "stamina: 2")
    events = strike(f, attack("punch", "t"), [1, 4, 3, 2])
    assert events.one(Botched).fighter == "a"
    assert f.state.botches == [{"fighter": "a", "context": "punch", "complication": None}]
    done = f.do("gm_complication", fighter="a", text="Il glisse sur la sciure.")
    assert done.one(ComplicationChosen).text == "Il glisse sur la sciure."
    with pytest.raises(ConteurError):
        f.do("gm_complication", fighter="a", text="encore")


def test_V_ATK_5_a_tables_complication_reads_in_the_log_language() -> None:
    """V-ATK-5: the complication picked from the table (``hits_friend``) is logged in French
    and read in English under ``--lang en``; a typed one is shown as typed."""
    f = duel("dexterity: 2, brawl: 2", "stamina: 2")
    strike(f, attack("punch", "t"), [1, 4, 3, 2])
    chosen = f.do("gm_complication", fighter="a", id="hits_friend").one(ComplicationChosen)
    assert "Le coup touche un allié ou un passant proche." in chosen.describe("fr")
    english = chosen.describe("en")
    assert "The attack hits a nearby friend or bystander." in english and "allié" not in english


def test_V_ATK_5_complication_in_english_with_lang_en() -> None:
    """V-ATK-5: ``conteur play examples/saloon.yaml ... --lang en`` writes the saloon's
    complication (``mj: complication billy hits_friend``) in English."""
    from pathlib import Path

    from typer.testing import CliRunner

    from conteur.cli import app

    root = Path(__file__).resolve().parents[2] / "examples"
    args = ["play", str(root / "saloon.yaml"), "--script", str(root / "saloon.txt")]
    args += ["--dice", str(root / "saloon.dice"), "--lang", "en"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "The attack hits a nearby friend or bystander." in result.stdout
    assert "Le coup touche" not in result.stdout


# ------------------------------------------------------------------ damage


def test_V_DMG_1_each_success_beyond_the_first_adds_a_damage_die() -> None:
    """V-DMG-1: 4 successes with Strength 2 → 2 + 3 = 5 damage dice."""
    f = duel("dexterity: 4, brawl: 1, strength: 2", "stamina: 1")
    events = strike(f, attack("punch", "t"), [7, 8, 9, 6, 2] + [2, 2, 2, 2, 2])
    assert events.one(DamageRolled).pool == 5


def test_V_DMG_2_damage_from_strength_or_weapon_at_difficulty_six() -> None:
    """V-DMG-2: a heavy revolver rolls its 6 dice; each success at 6+ is a level."""
    f = duel("dexterity: 3, firearms: 2, weapons: [heavy_revolver]", "stamina: 1", distance=10)
    events = strike(f, attack("shoot", "t"), [6, 2, 2, 2, 2] + [6, 6, 5, 5, 2, 10])
    damage = events.one(DamageRolled)
    assert (damage.pool, damage.successes, damage.damage_type) == (6, 3, "lethal")
    assert f["t"].health.count("lethal") == 3  # a mortal cannot soak lethal (V-SOAK-1)


def test_V_DMG_3_damage_types_are_stored_per_box() -> None:
    """V-DMG-3: bashing and lethal both show '/', aggravated 'X'; each box keeps its type."""
    track = HealthTrack.empty()
    track.take(1, "bashing")
    track.take(1, "aggravated")
    track.take(1, "lethal")
    assert track.marks() == "[X][/][/][ ][ ][ ][ ]"
    assert track.boxes[:3] == ["aggravated", "lethal", "bashing"]


def test_V_DMG_3_a_fist_a_knife_and_claws_fill_three_boxes_of_three_types() -> None:
    """V-DMG-3 through the engine: a punch (bashing), a knife (lethal) and a vampire's claws
    (aggravated) each land one level on a mortal; the track shows X / / and keeps each type,
    the worse types first."""
    f = Fight("""
combatants:
  - {id: a, side: x, position: [1, 0], wits: 5, dexterity: 3, brawl: 1, strength: 1}
  - {id: b, side: x, position: [0, 1], wits: 4, dexterity: 3, melee: 1, strength: 1,
     weapons: [knife]}
  - {id: c, side: x, position: [-1, 0], wits: 3, dexterity: 3, brawl: 1, strength: 1,
     kind: vampire, powers: [feral_claws]}
  - {id: t, side: y, position: [0, 0], wits: 1, stamina: 1}
""")
    f.initiative(10, 10, 10, 1)
    assert f.order() == [["a"], ["b"], ["c"], ["t"]]
    f.declare("t", {"kind": "other"})
    f.declare("c", attack("claws", "t"))
    f.declare("b", attack("weapon_strike", "t"))
    f.declare("a", attack("punch", "t"))
    punch = f.act("a", [6, 2, 2, 2] + [6] + [2])  # 1 success; Strength 1: 1 level; soak 0
    knife = f.act("b", [6, 2, 2, 2] + [6, 2])  # Strength + 1: 2 dice, 1 level; no soak
    claws = f.act("c", [6, 2, 2, 2] + [6, 2])  # Strength + 1 aggravated; no soak
    assert [e.one(DamageRolled).damage_type for e in (punch, knife, claws)] == [
        "bashing",
        "lethal",
        "aggravated",
    ]
    assert [e.one(DamageTaken).levels for e in (punch, knife, claws)] == [1, 1, 1]
    assert f["t"].health.boxes[:4] == ["aggravated", "lethal", "bashing", None]
    assert f["t"].health.marks() == "[X][/][/][ ][ ][ ][ ]"


def test_V_DMG_4_damage_pool_never_below_one_die_and_never_botches() -> None:
    """V-DMG-4: at least one damage die; a damage 'botch' simply does nothing."""
    f = duel("dexterity: 3, brawl: 1, strength: 1", "stamina: 1")
    f.do(
        "gm_maneuver",
        id="slap",
        spec={"traits": "dexterity+brawl", "damage": "strength-3", "damage_type": "bashing"},
    )
    events = strike(f, attack("slap", "t"), [6, 2, 2, 2] + [1])
    damage = events.one(DamageRolled)
    assert damage.pool == 1 and damage.successes == 0
    assert not events.of(Botched) and f["t"].health.filled == 0


def test_V_DMG_4_option_ones_cancel_on_damage_and_soak() -> None:
    """V-DMG-4 table option: 1s cancel damage successes (default: they do not)."""
    plain = duel("dexterity: 3, brawl: 1, strength: 3", "stamina: 1")
    events = strike(plain, attack("punch", "t"), [6, 2, 2, 2] + [6, 6, 1] + [2])
    assert events.one(DamageRolled).successes == 2
    opt = duel(
        "dexterity: 3, brawl: 1, strength: 3",
        "stamina: 1",
        head="options: {damage_ones_cancel: true}",
    )
    events = strike(opt, attack("punch", "t"), [6, 2, 2, 2] + [6, 6, 1] + [2])
    assert events.one(DamageRolled).successes == 1


def test_V_DMG_5_wound_penalties_apply_to_pools_not_soak() -> None:
    """V-DMG-5: Wounded (−2) removes two dice from the attack; the soak keeps every die."""
    f = duel(
        "dexterity: 3, brawl: 2, stamina: 3, health: [lethal, lethal, lethal, lethal]",
        "dexterity: 3, brawl: 2, strength: 2, stamina: 3, health: [lethal, lethal, lethal, lethal]",
    )
    events = strike(f, attack("punch", "t"), [6, 2, 2] + [6] + [2, 2, 2])
    assert events.one(AttackRolled).pool == 3
    assert events.one(SoakRolled).pool == 3


def test_V_DMG_5_incapacitated_and_past_the_track() -> None:
    """V-DMG-5: the last box: incapacitated; past it a mortal dies, a vampire falls into torpor,
    meets Final Death if aggravated; a full track turns bashing into lethal."""
    track = HealthTrack.empty()
    track.take(7, "bashing")
    assert track.incapacitated and fate(track, "mortal") == "incapacitated"
    track.take(1, "bashing")
    assert track.count("lethal") == 1 and fate(track, "mortal") == "incapacitated"
    track.take(6, "bashing")
    assert track.count("lethal") == 7 and track.past_track is None
    track.take(1, "lethal")
    assert fate(track, "mortal") == "dead" and fate(track, "vampire") == "torpor"
    agg = HealthTrack.empty()
    agg.take(8, "aggravated")
    assert fate(agg, "vampire") == "final_death"


def test_V_DMG_3_V_DMG_5_aggravated_on_a_full_lethal_track_shows_an_X() -> None:
    """V-DMG-3, V-DMG-5: aggravated is marked "X"; worse damage pushes lesser down the track.
    A vampire Incapacitated by 7 lethal takes 1 aggravated: the track shows [X] and six [/],
    and the aggravated damage past the track is Final Death."""
    f = duel("dexterity: 2", "kind: vampire, stamina: 2")
    f.do("gm_damage", fighter="t", levels=7, damage_type="lethal")
    assert f["t"].health.marks() == "[/]" * 7 and f["t"].fate == "incapacitated"
    f.do("gm_damage", fighter="t", levels=1, damage_type="aggravated")
    assert f["t"].health.marks() == "[X]" + "[/]" * 6
    assert f["t"].health.count("aggravated") == 1 and f["t"].fate == "final_death"
    mortal = duel("dexterity: 2", "stamina: 2")
    mortal.do("gm_damage", fighter="t", levels=7, damage_type="lethal")
    mortal.do("gm_damage", fighter="t", levels=2, damage_type="aggravated")
    assert mortal["t"].health.marks() == "[X][X]" + "[/]" * 5 and mortal["t"].fate == "dead"


def test_V_DMG_5_no_wound_penalties_leaves_pools_and_initiative_whole() -> None:
    """V-DMG-5 (wound penalties on pools and initiative) and R-CALL-6 (apparitions suffer
    none): Wounded (4 levels, −2), a fighter marked ``no_wound_penalties`` keeps initiative
    Dex 3 + Wits 2 = 5 and its Dex 3 + Brawl 2 = 5 dice; an ordinary one has 3 and 3."""
    for conditions, rating, pool in (("conditions: {no_wound_penalties: true}", 5, 5), ("", 3, 3)):
        f = Fight(f"""
combatants:
  - {{id: a, side: x, position: [0, 0], dexterity: 3, wits: 2, brawl: 2, {conditions}}}
  - {{id: t, side: y, position: [1, 0], wits: 1}}
""")
        f.do("gm_damage", fighter="a", levels=4, damage_type="lethal")
        assert f["a"].health.penalty == -2
        rolled = f.initiative(10, 1).of(InitiativeRolled)
        assert {r.fighter: r.rating for r in rolled}["a"] == rating
        f.declare("t", {"kind": "other"})
        f.declare("a", attack("punch", "t"))
        assert f.act("a", [2] * pool).one(AttackRolled).pool == pool
    g = Fight("""
combatants:
  - {id: a, side: x, position: [0, 0], dexterity: 3, wits: 2, brawl: 2}
  - {id: t, side: y, position: [1, 0], wits: 1}
""")
    g.do("gm_damage", fighter="a", levels=4, damage_type="lethal")
    g.do("gm_condition", fighter="a", condition="no_wound_penalties")
    assert (
        g.encounter.ruleset.parse_command("mj: état a sans pénalité de blessure", g.state).args[
            "condition"
        ]
        == "no_wound_penalties"
    )
    assert g.initiative(10, 1).of(InitiativeRolled)[0].rating == 5


def test_V_DMG_5_incapacitated_fighter_loses_its_action() -> None:
    """V-DMG-5: an incapacitated fighter takes no action."""
    f = duel("dexterity: 2, brawl: 2", "dexterity: 2, brawl: 2")
    f.initiative(10, 1)
    f.declare("t", attack("punch", "a"))
    f.declare("a", attack("punch", "t"))
    f.do("gm_damage", fighter="t", levels=7, damage_type="lethal")
    events = f.act("a", [2, 2, 2, 2])
    assert any(type(e).__name__ == "ActionLost" and e.fighter == "t" for e in events)
    assert f.state.phase == "setup"


def test_V_DMG_6_vampires_halve_bashing_after_soak() -> None:
    """V-DMG-6 (option, on): 3 bashing levels past soak become 1 on a vampire."""
    f = duel("dexterity: 3, brawl: 1, strength: 3", "kind: vampire, stamina: 1")
    events = strike(f, attack("punch", "t"), [6, 2, 2, 2] + [6, 6, 6] + [2])
    taken = events.one(DamageTaken)
    assert taken.levels == 1 and "V-DMG-6" in taken.rules
    off = duel(
        "dexterity: 3, brawl: 1, strength: 3",
        "kind: vampire, stamina: 1",
        head="options: {vampires_halve_bashing: false}",
    )
    assert (
        strike(off, attack("punch", "t"), [6, 2, 2, 2] + [6, 6, 6] + [2]).one(DamageTaken).levels
        == 3
    )


def test_V_DMG_6_blunt_weapons_bash_unless_at_the_head() -> None:
    """V-DMG-6 (option, on): a club does bashing, lethal when aimed at the head."""
    f = duel("dexterity: 3, melee: 1, strength: 2, weapons: [club]", "stamina: 1")
    assert (
        strike(f, attack("weapon_strike", "t"), [6, 2, 2, 2] + [2] * 4)
        .one(DamageRolled)
        .damage_type
        == "bashing"
    )
    g = duel("dexterity: 3, melee: 1, strength: 2, weapons: [club]", "stamina: 1")
    # At the head: difficulty 8 (V-MAN-8); damage Str 2 + club 2 + 2 extra + 1 = 7 dice.
    events = strike(g, attack("weapon_strike", "t", location="head"), [8, 8, 8, 2] + [2] * 7)
    assert events.one(DamageRolled).damage_type == "lethal"


def test_V_DMG_6_option_firearms_bash_vampires() -> None:
    """V-DMG-6 (option, off by default): firearms do bashing to vampires unless at the head."""
    head = "options: {firearms_bashing_vs_vampires: true, vampires_halve_bashing: false}"
    f = duel(
        "dexterity: 3, firearms: 1, weapons: [light_revolver]",
        "kind: vampire, stamina: 1",
        head=head,
        distance=5,
    )
    assert (
        strike(f, attack("shoot", "t"), [6, 2, 2, 2] + [2] * 4).one(DamageRolled).damage_type
        == "bashing"
    )


def test_V_DMG_7_damage_above_stamina_dazes() -> None:
    """V-DMG-7: unsoaked damage above Stamina (a mortal) dazes: it loses its next action."""
    f = duel("dexterity: 4, brawl: 1, strength: 4", "dexterity: 2, brawl: 2, stamina: 1")
    f.initiative(10, 1)
    f.declare("t", attack("punch", "a"))
    f.declare("a", attack("punch", "t"))
    events = f.act("a", [6, 6, 2, 2, 2] + [6, 6, 6, 2, 2] + [2])
    assert f["t"].conditions.get("dazed") is None  # the daze was spent on its action
    lost = [e for e in events if type(e).__name__ == "ActionLost"]
    assert lost and lost[0].reason == "dazed" and "V-DMG-7" in lost[0].rules


# ------------------------------------------------------------------ soak and armour


def test_V_SOAK_1_mortals_soak_bashing_only_vampires_lethal_too() -> None:
    """V-SOAK-1: a mortal rolls no soak against lethal; a vampire soaks it with Stamina."""
    hit = [6, 2, 2, 2] + [6, 6, 6, 2]
    m = duel("dexterity: 3, melee: 1, strength: 3, weapons: [knife]", "stamina: 3")
    assert not strike(m, attack("weapon_strike", "t"), hit).of(SoakRolled)
    v = duel("dexterity: 3, melee: 1, strength: 3, weapons: [knife]", "kind: vampire, stamina: 3")
    events = strike(v, attack("weapon_strike", "t"), [*hit, 6, 2, 2])
    assert events.one(SoakRolled).pool == 3 and v["t"].health.count("lethal") == 2


def test_V_SOAK_2_stamina_3_fortitude_2_five_dice_lethal_two_aggravated() -> None:
    """V-SOAK-2: Stamina 3 + Fortitude 2: 5 dice vs bashing/lethal, 2 vs aggravated (the text's example)."""
    f = Fight("""
combatants:
  - {id: lucien, kind: vampire, stamina: 3, fortitude: 2, position: [0, 0], side: camarilla}
  - {id: gangrel, kind: vampire, dexterity: 3, brawl: 3, strength: 2, wits: 4,
     powers: [feral_claws], position: [1, 0], side: sabbat}
""")
    f.initiative(1, 10)
    f.declare("lucien", {"kind": "other"})
    f.declare("gangrel", attack("claws", "lucien"))
    events = f.act(
        "gangrel",
        [
            8,
            7,
            6,
            2,
            1,
            9,  # attack: 4 successes, one 1 -> net 3
            6,
            6,
            3,
            9,
            2,  # damage Str+1 = 3, +2 extra -> 5 dice: 3
            6,
            2,
        ],
    )  # soak: Fortitude only -> 2 dice: 1
    soak = events.one(SoakRolled)
    assert soak.pool == 2 and "V-SOAK-2" in soak.rules
    assert f["lucien"].health.count("aggravated") == 2
    g = Fight("""
combatants:
  - {id: lucien, kind: vampire, stamina: 3, fortitude: 2, position: [0, 0], side: camarilla}
  - {id: tzimisce, kind: vampire, dexterity: 3, brawl: 3, strength: 2, wits: 4,
     powers: [bone_claws], position: [1, 0], side: sabbat}
""")
    g.initiative(1, 10)
    g.declare("lucien", {"kind": "other"})
    g.declare("tzimisce", attack("claws", "lucien"))
    events = g.act("tzimisce", [8, 2, 2, 2, 2, 2] + [6, 2, 2] + [2, 2, 2, 2, 2])
    assert events.one(SoakRolled).pool == 5 and events.one(DamageRolled).damage_type == "lethal"


def test_V_SOAK_3_soak_never_botches_and_each_success_removes_one_level() -> None:
    """V-SOAK-3: difficulty 6; 1s neither cancel nor botch; each success removes one damage success."""
    f = duel("dexterity: 3, brawl: 1, strength: 4", "stamina: 3")
    events = strike(f, attack("punch", "t"), [6, 2, 2, 2] + [6, 6, 6, 2] + [1, 1, 6])
    soak = events.one(SoakRolled)
    assert soak.successes == 1
    assert f["t"].health.count("bashing") == 2


def test_V_ARM_1_armour_adds_to_soak_but_not_against_fire() -> None:
    """V-ARM-1: armour adds to soak against bashing, lethal and claws; a mortal soaks lethal with it alone."""
    f = duel(
        "dexterity: 3, melee: 1, strength: 3, weapons: [knife]", "stamina: 3, armour: leather_coat"
    )
    events = strike(f, attack("weapon_strike", "t"), [6, 2, 2, 2] + [6, 6, 2, 2] + [6])
    assert events.one(SoakRolled).pool == 1  # reading: Stamina does not count, the coat's 1 does
    assert f["t"].health.count("lethal") == 1
    from conteur.rulesets.vtm.attack import soak_pool

    g = duel("dexterity: 1", "stamina: 3, armour: leather_coat")
    assert soak_pool(g["t"], "bashing", "weapon", g.state) == 4
    assert soak_pool(g["t"], "aggravated", "claws", g.state) == 1
    assert soak_pool(g["t"], "aggravated", "fire", g.state) == 0


def test_V_DMG_3_fire_from_the_storyteller_only_fortitude_soaks() -> None:
    """V-DMG-3 (fire: aggravated), V-SOAK-1/V-SOAK-2 (aggravated: Fortitude alone), V-ARM-1
    (armour never against fire): ``mj: dégâts lucien 3 feu`` on a vampire with Stamina 3,
    Fortitude 2 and a leather coat rolls 2 soak dice (one 6: one level soaked), 2 levels X;
    a mortal with Stamina 3 and the same coat soaks nothing: 3 levels X."""
    f = Fight("""
combatants:
  - {id: lucien, kind: vampire, stamina: 3, fortitude: 2, armour: leather_coat,
     position: [0, 0], side: a}
  - {id: jim, stamina: 3, armour: leather_coat, position: [5, 0], side: b}
""")
    line = f.encounter.ruleset.parse_command("mj: dégâts lucien 3 feu", f.state)
    assert line.args == {"fighter": "lucien", "levels": 3, "damage_type": "fire"}
    events = f.do(line.type, dice=[6, 2], **line.args)
    burned = events.one(Burned)
    assert (burned.levels, burned.soak) == (3, 2)
    assert "feu" in burned.describe("fr") and "Fire" in burned.describe("en")
    assert (events.one(SoakRolled).pool, events.one(SoakRolled).successes) == (2, 1)
    assert (
        events.one(DamageTaken).levels == 2 and events.one(DamageTaken).damage_type == "aggravated"
    )
    assert f["lucien"].health.marks().startswith("[X][X][ ]")
    mortal = f.do("gm_damage", fighter="jim", levels=3, damage_type="fire")
    assert mortal.one(Burned).soak == 0 and not mortal.of(SoakRolled)
    assert f["jim"].health.count("aggravated") == 3


def test_V_ARM_1_a_fire_weapon_of_the_tables_only_fortitude_soaks(tmp_path: Path) -> None:
    """V-DMG-3, V-ARM-1: a GM's table gives a torch ``damage_type: fire``; struck with it, a
    vampire with Stamina 3, Fortitude 1 and a leather coat soaks with 1 die (Fortitude), not
    5, and takes aggravated damage; a maneuver may deal fire too (V-CC-0)."""
    path = tmp_path / "feu.yaml"
    path.write_text(
        """
weapons:
  - {id: torch, name_fr: Torche, name_en: Torch, category: melee,
     damage: {strength_plus: 0}, damage_type: fire}
""",
        encoding="utf-8",
    )
    f = duel(
        "dexterity: 3, melee: 1, strength: 2, weapons: [torch]",
        "kind: vampire, stamina: 3, fortitude: 1, armour: leather_coat",
        head=f"tables: ['{path}']",
    )
    events = strike(f, attack("weapon_strike", "t"), [6, 2, 2, 2] + [6, 6] + [2])
    assert events.one(SoakRolled).pool == 1
    assert events.one(DamageTaken).damage_type == "aggravated"
    assert f["t"].health.count("aggravated") == 2
    g = duel("dexterity: 3, brawl: 1, strength: 2", "kind: vampire, stamina: 3, fortitude: 1")
    spec = {"traits": "dexterity+brawl", "damage": "strength", "damage_type": "fire"}
    g.do("gm_maneuver", id="brandon", spec=spec)
    events = strike(g, attack("brandon", "t"), [6, 2, 2, 2] + [6, 2] + [2])
    assert events.one(SoakRolled).pool == 1 and g["t"].health.count("aggravated") == 1


def test_V_ARM_2_heavy_armour_hinders_dexterity_pools() -> None:
    """V-ARM-2: a breastplate's penalty comes off Dexterity-based pools."""
    f = duel("dexterity: 3, brawl: 2, armour: breastplate", "stamina: 2")
    rolled = strike(f, attack("punch", "t"), [2] * 3).one(AttackRolled)
    assert rolled.pool < 5 and "V-ARM-2" in rolled.rules


def test_V_ARM_3_armour_breaks_at_twice_its_rating() -> None:
    """V-ARM-3: one attack's damage successes >= twice the rating destroy the armour (before soak)."""
    f = duel(
        "dexterity: 3, melee: 1, strength: 3, weapons: [knife]", "stamina: 3, armour: leather_coat"
    )
    events = strike(f, attack("weapon_strike", "t"), [6, 2, 2, 2] + [6, 6, 2, 2] + [2])
    assert events.one(ArmourDestroyed).target == "t" and f["t"].armour_destroyed
    g = duel(
        "dexterity: 3, melee: 1, strength: 3, weapons: [knife]", "stamina: 3, armour: leather_coat"
    )
    assert not strike(g, attack("weapon_strike", "t"), [6, 2, 2, 2] + [6, 2, 2, 2] + [2]).of(
        ArmourDestroyed
    )


def test_V_DMG_6_bashing_halved_to_nothing_is_still_logged() -> None:
    """V-DMG-6: one bashing level past soak becomes 0 on a vampire, and the log says so."""
    f = duel("dexterity: 3, brawl: 1, strength: 1", "kind: vampire, stamina: 1")
    events = strike(f, attack("punch", "t"), [6, 2, 2, 2] + [6] + [2])
    taken = events.one(DamageTaken)
    assert taken.levels == 0 and "V-DMG-6" in taken.rules
    assert f["t"].health.filled == 0
