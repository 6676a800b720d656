"""The battle map the rules read: cover zones (V-RNG-3) drawn by ``gm_zone``, logged and
undoable, give their cover to whoever stands in them; the range bands (V-RNG-5) the map
shows are the tables' for the weapon in hand; the geometry under them; the default
formation an encounter starts in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conteur.dice import SeededDice, TypedDice
from conteur.engine import Command, Encounter
from conteur.engine.battlemap import formation, inside, new_zone_id, parse_points
from conteur.engine.scenario import load_scenario
from conteur.i18n import ConteurError
from conteur.rulesets.vtm.events import AttackRolled
from conteur.store import Participant, open_store

from .fight import attack
from .test_ranged import duel, rolled, shot

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MISS = [2] * 5
"""Five faces that miss a 5-dice shot."""
SQUARE = ((0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0))


def test_inside_a_polygon() -> None:
    assert inside((2, 2), SQUARE)
    assert inside((4, 2), SQUARE)  # on an edge
    assert not inside((5, 2), SQUARE)
    assert not inside((2, -0.1), SQUARE)
    l_shape = ((0, 0), (4, 0), (4, 1), (1, 1), (1, 4), (0, 4))
    assert inside((0.5, 3), l_shape) and not inside((3, 3), l_shape)


def test_points_are_read_or_refused() -> None:
    assert parse_points("0,0 4,0 4,4") == ((0, 0), (4, 0), (4, 4))
    assert parse_points("0,0; 4,0; 4,4") == ((0, 0), (4, 0), (4, 4))
    for bad in ("0,0 4,0", "0,0 4 4,4", "a,b c,d e,f", 12):
        with pytest.raises(ValueError):
            parse_points(bad)


def test_the_default_formation_is_a_line_per_side() -> None:
    assert formation(["a", "b", "a", None, "b"]) == [
        (0.0, 0.0),
        (0.0, 10.0),
        (2.0, 0.0),
        (0.0, 20.0),
        (2.0, 10.0),
    ]


def _fight() -> Encounter:
    scenario, base = load_scenario(EXAMPLES / "fusillade.yaml")
    for c in scenario["combatants"]:
        c.pop("cover", None)
    return Encounter.start(scenario, base)


def _difficulty(enc: Encounter, attacker: str = "gaspard", target: str = "nini") -> Any:
    return enc.ruleset.attack_odds(enc.state, attacker, target).to_dict()["difficulty"]


ZONE = {"points": "14,-5 18,-5 18,-1 14,-1", "level": "good"}  # around Nini at (16, -3)


def test_a_cover_zone_gives_its_cover_and_is_undone() -> None:
    enc = _fight()
    assert _difficulty(enc) == 6
    events = enc.execute(Command("gm_zone", None, ZONE), TypedDice([]))
    assert [e.type_name for e in events] == ["CoverZoneDrawn"]
    assert events[0].rules == ("V-RNG-3",)
    assert events[0].describe("fr") == "Zone de couvert z1\u202f: bon couvert (V-RNG-3)"
    assert events[0].describe("en") == "Cover zone z1: good cover (V-RNG-3)"
    assert _difficulty(enc) == 8  # good cover: +2 (V-RNG-3)
    # Shooting from inside the zone: the shooter's own cover less one (+1).
    assert _difficulty(enc, "nini", "gaspard") == 7
    # Out of the zone, no cover; back in it, cover again.
    enc.execute(Command("gm_move", None, {"fighter": "nini", "to": "10,-3"}), TypedDice([]))
    assert _difficulty(enc) == 6
    enc.undo()
    assert _difficulty(enc) == 8
    enc.undo()
    assert enc.state.zones == {} and _difficulty(enc) == 6


def test_a_zone_shot_through_by_the_rules() -> None:
    """The attack's own event carries the zone's cover (its modifier and rule id)."""
    enc = _fight()
    enc.execute(Command("gm_zone", None, {**ZONE, "level": "superior"}), TypedDice([]))
    enc.execute(Command("initiative", None, {}), SeededDice(3))
    for fid in [f for rank in reversed(enc.state.order) for f in rank]:
        args = {"kind": "shoot", "target": "nini"} if fid == "gaspard" else {"kind": "other"}
        enc.execute(Command("declare", fid, args), TypedDice([]))
    while enc.state.phase == "resolution":
        due = next(t for t in enc.legal_commands() if t.type == "act")
        done = enc.execute(Command("act", due.actor, {}), SeededDice(7))
        shots = [e for e in done if e.type_name == "AttackRolled" and e.attacker == "gaspard"]  # type: ignore[attr-defined]
        if shots:
            assert "V-RNG-3" in shots[0].rules
            assert ("target_cover_superior", 3) in shots[0].modifiers  # type: ignore[attr-defined]
            return
    raise AssertionError("Gaspard never shot")


def test_a_zone_is_erased_by_its_own_command() -> None:
    enc = _fight()
    enc.execute(Command("gm_zone", None, ZONE), TypedDice([]))
    enc.execute(Command("gm_zone", None, {**ZONE, "level": "light"}), TypedDice([]))
    assert set(enc.state.zones) == {"z1", "z2"}
    erase = next(t for t in enc.legal_commands() if t.type == "gm_unzone")
    assert erase.params[0].choices == ("z1", "z2")
    enc.execute(Command("gm_unzone", None, {"zone": "z1"}), TypedDice([]))
    assert set(enc.state.zones) == {"z2"} and _difficulty(enc) == 7
    drawn = enc.execute(Command("gm_zone", None, ZONE), TypedDice([]))
    assert drawn[0].zone == "z1"  # type: ignore[attr-defined]  # the first id free again


def test_a_new_zone_takes_the_first_free_id() -> None:
    assert new_zone_id({}) == "z1"
    assert new_zone_id(dict.fromkeys(("z1", "z3"))) == "z2"
    assert new_zone_id(dict.fromkeys(("z1", "z2", "zone"))) == "z3"


@pytest.mark.parametrize(
    ("args", "field", "fr", "en"),
    [
        (
            {"points": "1,2 3", "level": "good"},
            "points",
            "zone «\u202f1,2 3\u202f»",
            'zone "1,2 3"',
        ),
        ({"points": "0,0 1,0 1,1", "level": "bof"}, "level", "«\u202fbof\u202f»", '"bof"'),
    ],
)
def test_a_bad_zone_is_refused_naming_the_field(
    args: dict[str, str], field: str, fr: str, en: str
) -> None:
    enc = _fight()
    with pytest.raises(ConteurError) as err:
        enc.execute(Command("gm_zone", None, args), TypedDice([]))
    assert err.value.params["field"] == field
    assert fr in err.value.message("fr") and en in err.value.message("en")
    assert enc.state.zones == {} and len(enc.log) == 0


def test_the_map_shows_the_tables_bands_for_the_weapon_in_hand() -> None:
    enc = _fight()
    bmap = enc.ruleset.battle_map(enc.state, "en")
    assert bmap is not None and bmap.unit == "metre" and bmap.place == "gm_move"
    bands = bmap.bands["gaspard"]  # the Lebel rifle: short range 200 m
    assert [(b.id, b.upto, b.rule) for b in bands] == [
        ("point_blank", 2.0, "V-RNG-5"),
        ("short", 200.0, "V-RNG-5"),
        ("long", 400.0, "V-RNG-5"),
        ("beyond", None, "V-GEN-2"),
    ]
    assert bands[1].label == "Short range"
    assert [c.id for c in bmap.covers] == ["light", "good", "superior"]
    assert enc.ruleset.map_unit() == "metre"
    from conteur.engine.registry import get_ruleset

    assert get_ruleset("hunter").map_unit() == "yard"


PACK = "packs: [house_ranged]"
REVOLVER = "weapons: [heavy_revolver]"
"""A heavy revolver: short range 35 m, so at most 70 m (V-GEN-2)."""


def test_the_pack_shows_its_own_distance_bands_each_citing_r_shot_1() -> None:
    """With house_ranged, V-RNG-5's bands leave the map and R-SHOT-1's metres come in, up to
    the weapon's maximum range, in the reader's language (the pack off: V-RNG-5's)."""
    f = duel(REVOLVER, head=PACK)
    fr = f.encounter.ruleset.battle_map(f.state, "fr").bands["a"]
    assert [(b.label, b.upto, b.rule) for b in fr] == [
        ("1 à 3 m, difficulté 4", 3.0, "R-SHOT-1"),
        ("4 à 10 m, difficulté 5", 10.0, "R-SHOT-1"),
        ("11 à 20 m, difficulté 6", 20.0, "R-SHOT-1"),
        ("21 à 30 m, difficulté 7", 30.0, "R-SHOT-1"),
        ("31 à 40 m, difficulté 8", 40.0, "R-SHOT-1"),
        ("41 à 50 m, difficulté 9", 50.0, "R-SHOT-1"),
        ("51 à 70 m, difficulté 10", 70.0, "R-SHOT-1"),  # capped at 10 (reading)
        ("hors de portée", None, "V-GEN-2"),
    ]
    en = f.encounter.ruleset.battle_map(f.state, "en").bands["a"]
    assert [b.label for b in en][:2] == ["1 to 3 m, difficulty 4", "4 to 10 m, difficulty 5"]
    assert en[-1].label == "out of range"
    core = duel(REVOLVER).encounter
    rows = core.ruleset.battle_map(core.state, "fr").bands["a"]
    assert [(b.id, b.upto, b.rule) for b in rows] == [
        ("point_blank", 2.0, "V-RNG-5"),
        ("short", 35.0, "V-RNG-5"),
        ("long", 70.0, "V-RNG-5"),
        ("beyond", None, "V-GEN-2"),
    ]


@pytest.mark.parametrize("metres", [0.5, 3, 3.2, 10, 12.5, 21, 44, 70])
def test_the_shot_reads_the_band_the_map_shows(metres: float) -> None:
    """R-SHOT-1 from the map: the target moved on the map (``gm_move``, a drag) stands in
    one band from the shooter; the shot, with the table's faces, has that band's difficulty."""
    f = duel(REVOLVER, metres=1, head=PACK)
    f.do("gm_move", None, fighter="t", to=f"{metres},0")
    bands = f.encounter.ruleset.battle_map(f.state, "en").bands["a"]
    band = next(b for b in bands if b.upto is None or metres <= b.upto)
    events = shot(f, {"a": [attack("shoot", "t")]}, MISS)
    _, difficulty = rolled(events)
    assert band.rule == "R-SHOT-1" and band.label.endswith(f"difficulty {difficulty}")
    assert "R-SHOT-1" in events.one(AttackRolled).rules


def test_past_the_last_band_the_shot_is_refused() -> None:
    """V-GEN-2 with the pack on: 71 m is beyond the revolver's 70 m, as the map says."""
    f = duel(REVOLVER, metres=71, head=PACK)
    bands = f.encounter.ruleset.battle_map(f.state, "fr").bands["a"]
    assert bands[-2].upto == 70.0 and bands[-1].rule == "V-GEN-2"
    f.initiative(5, 5)
    f.declare("t", {"kind": "other"})
    with pytest.raises(ConteurError) as err:
        f.declare("a", attack("shoot", "t"))
    assert err.value.rule == "V-GEN-2"


def test_an_encounter_without_positions_starts_in_formation() -> None:
    store = open_store("sqlite:///:memory:")
    c = store.create_campaign("Quai", "vtm", era="1899")
    sheet = {"nom": "A", "type": "mortel", "attributs": {"Dextérité": 2}}
    ids = [store.add_character(c.id, {**sheet, "nom": n}).id for n in ("A", "B", "C")]
    info = store.start_encounter(
        c.id,
        "x",
        [
            Participant(ids[0], side="un"),
            Participant(ids[1], side="deux"),
            Participant(ids[2], side="un", position=(5, 5)),
        ],
    )
    assert [e["position"] for e in info.scenario["combatants"]] == [[0, 0], [0, 10], [5, 5]]
    store.close()
