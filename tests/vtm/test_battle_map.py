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
from conteur.engine.battlemap import formation, inside, parse_points
from conteur.engine.scenario import load_scenario
from conteur.i18n import ConteurError
from conteur.store import Participant, open_store

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
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


def test_the_pack_that_replaces_the_bands_shows_none() -> None:
    scenario, base = load_scenario(EXAMPLES / "house_ranged.yaml")
    enc = Encounter.start(scenario, base)
    bmap = enc.ruleset.battle_map(enc.state, "fr")
    assert bmap is not None and bmap.bands == {}


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
