"""Scenarios: sheets inline or in files, current state carried in, table data of the GM."""

from __future__ import annotations

from conteur.rulesets.vtm.events import AttackRolled, DamageRolled

from .fight import Fight, attack


def test_V_CC_0_a_weapon_defined_on_the_sheet_is_usable() -> None:
    """V-CC-0: a sheet's own weapon (a pitchfork, Str+2 lethal) fights like a table weapon."""
    f = Fight("""
combatants:
  - {id: a, side: x, position: [0, 0], dexterity: 3, melee: 2, wits: 5, strength: 2,
     weapons: [{id: pitchfork, name_fr: Fourche, name_en: Pitchfork, category: melee,
                damage: {strength_plus: 2}, damage_type: lethal}]}
  - {id: t, side: y, position: [1, 0]}
""")
    assert f["a"].weapon == "pitchfork"
    f.initiative(10, 1)
    f.declare("t", {"kind": "other"})
    f.declare("a", attack("weapon_strike", "t"))
    events = f.act("a", [6, 2, 2, 2, 2] + [6, 2, 2, 2])
    assert events.one(AttackRolled).pool == 5
    damage = events.one(DamageRolled)
    assert (damage.pool, damage.damage_type) == (4, "lethal")


def test_log_lines_name_the_maneuver_in_each_language() -> None:
    """The log says « Coup de poing » in French and "Punch" in English, not the id."""
    f = Fight("""
combatants:
  - {id: a, side: x, position: [0, 0], dexterity: 2, brawl: 1, wits: 5}
  - {id: t, side: y, position: [1, 0]}
""")
    f.initiative(10, 1)
    f.declare("t", {"kind": "other"})
    f.declare("a", attack("punch", "t"))
    rolled = f.act("a", [2, 2, 2]).one(AttackRolled)
    assert "punch" not in rolled.describe("fr").lower()
    assert "punch" in rolled.describe("en").lower()
