"""Grappling: grab, escape, fight back, overpower and each of its options (H-GRP-1..3)."""

from __future__ import annotations

import pytest

from conteur.engine import EventList
from conteur.i18n import ConteurError
from conteur.rulesets.hunter.events import (
    HunterDamaged,
    HunterGrappleEnded,
    HunterGrappleSet,
    HunterOverpowered,
    HunterShieldTakesShot,
)

from .fight import Fight, roll, sheet


def held() -> Fight:
    """a (Str 4, Brawl 3) holds b (Str 2, Defense 2)."""
    f = Fight(
        sheet("a", strength=4, brawl=3, weapons=["knife"]),
        sheet("b", strength=2, brawl=2, dexterity=2, wits=2, weapon="heavy_pistol"),
    )
    f.start(9, 1)
    ev = f.act("a", "grapple", target="b", dice=[8, 2, 2, 2, 2])  # 7 − Defense 2 = 5 dice
    assert roll(ev).pool == 5 and ev.one(HunterGrappleSet).target == "b"
    return f


def test_H_GRP_1_grab_is_strength_plus_brawl_minus_the_targets_defense() -> None:
    f = held()
    assert f["a"].holding == "b" and f["b"].held_by == "a"


def test_H_GRP_1_a_failed_grab_holds_nobody() -> None:
    f = Fight(sheet("a", strength=4, brawl=3), sheet("b"))
    f.start(9, 1)
    f.act("a", "grapple", target="b", dice=[2] * 5)
    assert f["a"].holding is None


def test_H_GRP_2_escape_is_strength_plus_brawl_minus_the_attackers_strength() -> None:
    f = held()
    with pytest.raises(ConteurError) as err:
        f.act("b", target="a")
    assert err.value.key == "hunter.grapple.held"
    ev = f.act("b", "escape", dice=[8])  # 4 − 4 = 0: the chance die
    r = roll(ev)
    assert r.pool == 0 and r.chance is True and r.defense == 4 and "H-GRP-2" in r.rules
    assert not ev.of(HunterGrappleEnded) and f["b"].held_by == "a"


def test_H_GRP_2_a_successful_escape_frees_the_target() -> None:
    f = Fight(sheet("a", strength=2, brawl=3), sheet("b", strength=3, brawl=3))
    f.start(9, 1)
    f.act("a", "grapple", target="b", dice=[8, 2, 2])
    ev = f.act("b", "escape", dice=[8, 2, 2, 2])
    assert ev.one(HunterGrappleEnded) and f["b"].held_by is None and f["a"].holding is None


def test_H_GRP_2_reading_fighting_back_takes_control_of_the_grapple() -> None:
    f = Fight(sheet("a", strength=2, brawl=3), sheet("b", strength=3, brawl=3))
    f.start(9, 1)
    f.act("a", "grapple", target="b", dice=[8, 2, 2])
    ev = f.act("b", "overpower", dice=[8, 2, 2, 2])
    assert roll(ev).maneuver == "fight_back"
    assert f["b"].holding == "a" and f["a"].held_by == "b"


def overpower(option: str, dice: list[int], **args: object) -> tuple[Fight, EventList]:
    f = held()
    f.do("pass", "b")
    f.do("initiative")
    ev = f.act("a", "overpower", option=option, dice=dice, **args)  # 7 − Str 2 = 5 dice
    r = roll(ev)
    assert r.pool >= 5 and "H-GRP-3" in r.rules
    return f, ev


def test_H_GRP_3_overpower_knock_down() -> None:
    f, _ = overpower("knock_down", [8, 2, 2, 2, 2])
    assert f["b"].prone


def test_H_GRP_3_reading_overpower_damage_is_the_successes_as_bashing() -> None:
    _, ev = overpower("damage", [8, 8, 2, 2, 2])
    d = ev.one(HunterDamaged)
    assert (d.amount, d.damage_type) == (2, "bashing")


def test_H_GRP_3_overpower_immobilise_leaves_only_escape_and_no_defense() -> None:
    f, _ = overpower("immobilise", [8, 2, 2, 2, 2])
    assert f["b"].immobilised
    with pytest.raises(ConteurError):
        f.act("b", "overpower")
    f.do("initiative")
    assert roll(f.act("a", "overpower", option="damage", dice=[2] * 5)).pool == 5


def test_H_GRP_3_overpower_draw_a_weapon() -> None:
    f, _ = overpower("draw", [8, 2, 2, 2, 2], weapon="knife")
    assert f["a"].weapon == "knife"


def test_H_GRP_3_overpower_attack_with_the_weapon() -> None:
    f, _ = overpower("draw", [8, 2, 2, 2, 2], weapon="knife")
    f.do("initiative")
    ev = f.act("a", "overpower", option="attack_with", dice=[8, 8, 2, 2, 2, 2])
    assert ("weapon", 1) in roll(ev).modifiers
    d = ev.one(HunterDamaged)
    assert (d.amount, d.damage_type) == (2, "lethal")


def test_H_GRP_3_overpower_disarm() -> None:
    f, _ = overpower("disarm", [8, 2, 2, 2, 2])
    assert f["b"].weapon is None


def test_H_GRP_3_overpower_use_the_target_as_a_shield_against_gunfire() -> None:
    f = Fight(
        sheet("a", strength=4, brawl=3),
        sheet("b", strength=2, dexterity=2, wits=2),
        sheet("g", dexterity=3, firearms=3, weapon="heavy_pistol"),
    )
    f.start(9, 5, 1)
    f.act("a", "grapple", target="b", dice=[8, 2, 2, 2, 2])
    f.do("pass", "b")
    f.do("pass", "g")
    f.do("initiative")
    ev = f.act("a", "overpower", option="shield", dice=[8, 2, 2, 2, 2])
    assert ev.one(HunterOverpowered).option == "shield" and f["a"].shield == "b"
    f.do("pass", "b")
    ev = f.act("g", target="a", dice=[8, 2, 2, 2, 2, 2, 2])
    assert ev.one(HunterShieldTakesShot).shield == "b"
    assert ev.one(HunterDamaged).target == "b"


def test_H_GRP_3_a_failed_overpower_does_nothing() -> None:
    f, _ = overpower("knock_down", [2] * 5)
    assert not f["b"].prone


def test_H_GRP_3_only_the_holder_overpowers() -> None:
    f = Fight(sheet("a"), sheet("b"))
    f.start(9, 1)
    with pytest.raises(ConteurError) as err:
        f.act("a", "overpower", option="damage")
    assert err.value.key == "hunter.grapple.not_holding"
