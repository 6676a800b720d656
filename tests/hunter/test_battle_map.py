"""Hunter's battle map, which the rules read: ``gm_place`` (logged, undoable) puts a fighter
on the map in yards, and a shot that names no band takes the band of the map (H-RNG-1);
cover zones (``gm_zone``, levels of ``data/cover.yaml``) give their cover to whoever stands
in them (H-COV-1..3); the map shows each fighter's bands for the weapon in its hand."""

from __future__ import annotations

import pytest

from conteur.engine.odds import AttackQuery
from conteur.i18n import ConteurError
from conteur.rulesets.hunter.cover import COVER_PENALTY, cover_table
from conteur.rulesets.hunter.events import (
    HunterAttackRolled,
    HunterPlaced,
    HunterShotHitsCover,
    HunterZoneDrawn,
)
from conteur.rulesets.hunter.odds import attack_odds
from conteur.store import Participant, open_store

from .fight import Fight, roll, sheet


def duel() -> Fight:
    """Ana (light revolver: 20/40/80 yards) and a Defense-less armed target, at the origin."""
    f = Fight(
        sheet("ana", weapon="light_revolver", dexterity=3, firearms=2, position=[0, 0]),
        sheet("bete", dexterity=0, weapon="light_pistol", position=[0, 0]),
    )
    f.start(9, 1)
    return f


def _pool(f: Fight) -> int:
    return attack_odds(f.state, AttackQuery(attacker="ana", target="bete")).pool


def test_the_place_command_is_logged_undone_and_refused_naming_the_field() -> None:
    f = duel()
    ev = f.do("gm_place", fighter="bete", to="30,0").one(HunterPlaced)
    assert (ev.x, ev.y, ev.yards) == (30.0, 0.0, 30.0) and f["bete"].position == (30.0, 0.0)
    assert (
        ev.describe("fr")
        == "bete change de place\u202f: (30\u202f; 0), à 30 yards de la précédente"
    )
    assert ev.describe("en") == "bete changes place: (30, 0), 30 yards from the last"
    f.encounter.undo()
    assert f["bete"].position == (0.0, 0.0)
    logged = len(f.encounter.log)
    for bad in ("trente", "nan,1", ""):
        with pytest.raises(ConteurError) as err:
            f.do("gm_place", fighter="bete", to=bad)
        assert err.value.key == "hunter.gm.position" and err.value.params["field"] == "to"
        assert "yards" in err.value.message("fr") and "yards" in err.value.message("en")
    assert len(f.encounter.log) == logged and f["bete"].position == (0.0, 0.0)


def test_H_RNG_1_the_band_of_a_shot_comes_from_the_map() -> None:
    f = duel()
    assert _pool(f) == 3 + 2 + 2  # Dexterity, Firearms, the revolver's damage: short range
    f.do("gm_place", fighter="bete", to="30,0")  # 30 yards: medium (−2)
    assert _pool(f) == 5
    r = roll(f.act("ana", target="bete", dice=[2] * 5))
    assert ("range_medium", -2) in r.modifiers and "H-RNG-1" in r.rules
    f.do("initiative")
    f.do("gm_place", fighter="bete", to="0,-60")  # 60 yards: long (−4)
    assert _pool(f) == 3
    # A band named in the command, or a distance, still wins over the map.
    r = roll(f.act("ana", target="bete", range="short", dice=[2] * 7))
    assert not [m for m in r.modifiers if m[0].startswith("range_")]
    f.do("initiative")
    f.do("gm_place", fighter="bete", to="81,0")  # beyond long range
    with pytest.raises(ConteurError) as err:
        f.act("ana", target="bete")
    assert err.value.key == "hunter.attack.out_of_range" and err.value.rule == "H-RNG-1"
    assert "81 yards" in err.value.message("fr")


def test_H_COV_1_a_cover_zone_gives_its_level_and_is_undone() -> None:
    f = duel()
    f.do("gm_place", fighter="bete", to="10,0")
    ev = f.do("gm_zone", points="8,-2 12,-2 12,2 8,2", level="partial").one(HunterZoneDrawn)
    assert ev.zone == "z1" and ev.rules == ("H-COV-1",)
    assert ev.describe("fr") == "Zone de couvert z1\u202f: couvert partiel (H-COV-1)"
    assert ev.describe("en") == "Cover zone z1: partial cover (H-COV-1)"
    assert _pool(f) == 7 - COVER_PENALTY["partial"]
    r = roll(f.act("ana", target="bete", dice=[2] * 5))
    assert ("concealment", -2) in r.modifiers and "H-COV-1" in r.rules
    f.do("initiative")
    # Shooting from inside the zone: the shooter's own cover less one (H-COV-2).
    assert (
        attack_odds(f.state, AttackQuery(attacker="bete", target="ana")).modifiers.count(
            ("own_cover", -1)
        )
        == 1
    )
    f.do("gm_place", fighter="bete", to="20,0")  # out of the zone: no cover
    assert _pool(f) == 7
    f.encounter.undo()
    assert _pool(f) == 5
    f.do("gm_unzone", zone="z1")
    assert f.state.zones == {} and _pool(f) == 7


def test_H_COV_1_a_full_cover_zone_takes_the_shot() -> None:
    f = duel()
    f.do("gm_zone", points="-1,-1 1,-1 1,1 -1,1", level="full")
    f.do("gm_place", fighter="ana", to="5,0")
    ev = f.act("ana", target="bete")
    assert ev.one(HunterShotHitsCover).target == "bete" and not ev.of(HunterAttackRolled)


@pytest.mark.parametrize(
    ("args", "field"),
    [({"points": "1,2 3", "level": "partial"}, "points"), ({"points": "0,0 1,0 1,1"}, "level")],
)
def test_a_bad_zone_is_refused_naming_the_field(args: dict[str, str], field: str) -> None:
    f = duel()
    logged = len(f.encounter.log)
    with pytest.raises(ConteurError) as err:
        f.do("gm_zone", **args)
    assert err.value.params["field"] == field
    assert err.value.message("fr") != err.value.message("en")
    assert f.state.zones == {} and len(f.encounter.log) == logged


def test_the_map_in_yards_shows_the_weapons_bands_and_the_cover_table() -> None:
    f = duel()
    bmap = f.encounter.ruleset.battle_map(f.state, "fr")
    assert bmap is not None and bmap.unit == "yard"
    assert (bmap.place, bmap.zone, bmap.unzone) == ("gm_place", "gm_zone", "gm_unzone")
    assert [(b.id, b.upto, b.rule) for b in bmap.bands["ana"]] == [
        ("short", 20.0, "H-RNG-1"),
        ("medium", 40.0, "H-RNG-1"),
        ("long", 80.0, "H-RNG-1"),
        ("beyond", None, "H-RNG-1"),
    ]
    assert [b.label for b in bmap.bands["ana"]][1] == "portée moyenne (−2)"
    assert bmap.bands["bete"][0].upto == 20.0
    assert [c.id for c in bmap.covers] == [c.id for c in cover_table()[1:]]
    assert [c.label for c in bmap.covers][1] == "partiel"


def test_a_hunter_encounter_starts_in_formation_by_side() -> None:
    store = open_store("sqlite:///:memory:")
    c = store.create_campaign("Cellule", "hunter")
    base = {"force": 2, "dextérité": 2, "vigueur": 2, "astuce": 2, "calme": 2}
    ids = [store.add_character(c.id, {**base, "id": n, "nom": n}).id for n in ("a", "b")]
    info = store.start_encounter(
        c.id,
        "x",
        [Participant(ids[0], side="cell"), Participant(ids[1], side="cell")],
        npcs=[{**base, "id": "bete", "type": "monstre", "side": "monstres"}],
    )
    assert [e["position"] for e in info.scenario["combatants"]] == [[0, 0], [2, 0], [0, 10]]
    store.close()
