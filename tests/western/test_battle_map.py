"""The western battle map, which the shots read: ``gm_place`` (logged, undoable) puts a
fighter on the map in metres; the 20 m within which a revolver may fire instinctively
(W-SKL-2; beyond, always aimed, W-SKL-4) is a band of the map, and a move across it changes
the shot's skill, its odds and its rule ids; beyond the weapon's range, no shot (W-RNG-1)."""

from __future__ import annotations

import pytest

from conteur.engine.odds import AttackQuery
from conteur.i18n import ConteurError
from conteur.rulesets.western.events import Placed, ShotRolled
from conteur.rulesets.western.odds import attack_odds
from conteur.store import Participant, open_store

from .fight import Fight, gunman


def holstered() -> Fight:
    """Bill's Colt is holstered in round 1 (instinctive fire, W-SKL-2); Joe 10 m away."""
    f = Fight(gunman("bill", ready=False), gunman("joe", x=10))
    f.round()
    return f


def test_the_place_command_is_logged_undone_and_refused_naming_the_field() -> None:
    f = holstered()
    ev = f.do("gm_place", fighter="joe", to="30,0").one(Placed)
    assert (ev.x, ev.y, ev.metres) == (30.0, 0.0, 20.0) and f["joe"].position == (30.0, 0.0)
    assert (
        ev.describe("fr", {"joe": "Joe"})
        == "Joe change de place\u202f: (30\u202f; 0), à 20 m de la précédente"
    )
    assert ev.describe("en", {"joe": "Joe"}) == "Joe changes place: (30, 0), 20 m from the last"
    f.encounter.undo()
    assert f["joe"].position == (10.0, 0.0)
    logged = len(f.encounter.log)
    for args, field in (({"fighter": "joe", "to": "loin"}, "to"), ({"to": "1,1"}, "fighter")):
        with pytest.raises(ConteurError) as err:
            f.do("gm_place", **args)
        assert err.value.params["field"] == field
        assert err.value.message("fr") != err.value.message("en")
    assert len(f.encounter.log) == logged and f["joe"].position == (10.0, 0.0)


def test_W_SKL_4_a_move_beyond_20_m_makes_the_shot_aimed() -> None:
    f = holstered()
    near = attack_odds(f.state, AttackQuery(attacker="bill", target="joe"))
    assert (near.words["skill"], near.pool) == ("instinctive_pistol", 40)
    f.do("gm_place", fighter="joe", to="0,25")  # 25 m: beyond the 20 m (W-SKL-4)
    far = attack_odds(f.state, AttackQuery(attacker="bill", target="joe"))
    assert (far.words["skill"], far.pool) == ("aimed_pistol", 56) and far.p_hit != near.p_hit
    shot = f.shoot("bill", "joe", 90).one(ShotRolled)
    assert shot.skill == "aimed_pistol" and "W-SKL-4" in shot.rules
    assert "W-SKL-2" not in shot.rules


def test_W_RNG_1_placed_beyond_the_range_no_shot() -> None:
    f = holstered()
    f.do("gm_place", fighter="joe", to="51,0")  # the Colt's range: 50 m
    with pytest.raises(ConteurError) as err:
        f.shoot("bill", "joe", 10)
    assert err.value.key == "western.out_of_range" and err.value.rule == "W-RNG-1"


def test_the_map_shows_the_20_m_of_instinctive_fire_as_a_band() -> None:
    f = holstered()
    bmap = f.encounter.ruleset.battle_map(f.state, "fr")
    assert bmap is not None and bmap.unit == "metre" and bmap.place == "gm_place"
    assert (bmap.zone, bmap.covers, bmap.zones) == ("", (), ())  # the excerpt names no cover
    assert [(b.id, b.upto, b.rule) for b in bmap.bands["bill"]] == [
        ("instinctive", 20.0, "W-SKL-2"),
        ("aimed", 50.0, "W-SKL-4"),
        ("beyond", None, "W-RNG-1"),
    ]
    assert bmap.bands["bill"][1].label == "tir visé seulement (au-delà de 20 m)"
    # The table's option lifts the limit: no 20 m band then.
    g = Fight(gunman("bill"), gunman("joe", x=10), options={"instinctive_beyond": True})
    bands = g.encounter.ruleset.battle_map(g.state, "en")
    assert bands is not None
    assert [(b.id, b.upto) for b in bands.bands["bill"]] == [("in_range", 50.0), ("beyond", None)]


def test_a_western_encounter_starts_in_formation_by_side() -> None:
    store = open_store("sqlite:///:memory:")
    c = store.create_campaign("Saloon", "western")
    sheets = [gunman(n) for n in ("bill", "jim", "joe")]
    for s in sheets:
        del s["position"], s["side"]  # none given: the formation's
    ids = [store.add_character(c.id, s).id for s in sheets[:2]]
    info = store.start_encounter(
        c.id,
        "x",
        [Participant(ids[0], side="posse"), Participant(ids[1], side="posse")],
        npcs=[{**sheets[2], "side": "gang"}],
    )
    assert [e["position"] for e in info.scenario["combatants"]] == [[0, 0], [2, 0], [0, 10]]
    store.close()
