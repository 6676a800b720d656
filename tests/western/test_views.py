"""The western roster and turn as readers get them (``views.py``): PV as points, unhurt
only with every PV, out and dead from the fates, the band from the share of PV left,
reputation and cartridges per hand, conditions in words, the order of combat and who is
due (W-SPD-2)."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from conteur.engine.views import RosterRow
from conteur.i18n import LANGS, catalog
from conteur.rulesets.western import views

from .fight import Fight, gunman


def duel(**joe: object) -> Fight:
    return Fight(gunman("bill", x=0, off_hand="colt_saa"), gunman("joe", x=10, **joe))


def row(f: Fight, fid: str) -> RosterRow:
    return f.encounter.ruleset.roster(f.state).row(fid)


def test_a_fighter_with_every_pv_is_unhurt_though_its_health_reads_17_17() -> None:
    """The tracker used to call « 17/17 PV » wounded (a « / » in the text)."""
    f = duel()
    r = row(f, "joe")
    assert r.health.kind == "points" and (r.health.points, r.health.maximum) == (17, 17)
    assert r.health.text("fr") == "17/17 PV" and r.health.unit == "western.unit.pv"
    assert (r.status, r.band, r.penalty, r.fate) == ("unhurt", "band.unhurt", 0, "alive")


def test_W_LOC_2_a_wound_makes_the_fighter_wounded_with_its_band() -> None:
    f = duel()
    f.round()
    f.shoot("bill", "joe", 30, 20, 5)  # chest ×2: 10 PV, 7 of 17 left (41 %)
    r = row(f, "joe")
    assert r.health.text("en") == "7/17 PV"
    assert (r.status, r.band) == ("wounded", "western.band.badly_wounded")


@pytest.mark.parametrize(
    ("pv", "fate", "status", "band"),
    [
        (16, "alive", "wounded", "western.band.scratched"),
        (10, "alive", "wounded", "western.band.wounded"),
        (1, "alive", "wounded", "western.band.critical"),
        (0, "out", "out", "western.band.out"),
        (17, "unconscious", "out", "western.band.unconscious"),
        (-12, "dead", "dead", "western.band.dead"),
    ],
)
def test_status_and_band_follow_the_pv_and_the_fate(
    pv: int, fate: str, status: str, band: str
) -> None:
    f = duel(pv=pv, fate=fate, pv_max=17, unconscious=5 if fate == "unconscious" else 0)
    r = row(f, "joe")
    assert (r.status, r.band, r.fate) == (status, band, fate)


def test_every_band_of_the_ladder_has_its_words_in_both_languages() -> None:
    rungs, fates = views.ladder()
    for name in [n for _, n in rungs] + list(fates.values()):
        assert set(catalog()[f"western.band.{name}"]) == set(LANGS), name


def test_reputation_and_the_cartridges_of_each_hand() -> None:
    f = duel()
    f.round()
    f.shoot("bill", "joe", 90)  # a miss: one cartridge less in the main hand
    r = row(f, "bill")
    assert [x.key for x in r.resources] == ["reputation", "ammo.main", "ammo.off"]
    assert [x.text() for x in r.resources] == ["10", "5/6", "6/6"]
    main = r.resource("ammo.main")
    assert main is not None
    assert main.label.describe("fr") == "Colt Single Action Army, main principale (balles)"
    assert main.label.describe("en") == "Colt Single Action Army, main hand (cartridges)"
    assert [c.key for c in f.encounter.ruleset.columns()] == ["reputation"]
    assert set(catalog()["western.res.reputation"]) == set(LANGS)


@pytest.mark.parametrize("lang", LANGS)
def test_every_condition_is_words_naming_the_other_fighter(lang: str) -> None:
    f = duel()
    f.round()
    state = f.state
    joe = state.fighters["joe"]
    state.fighters["joe"] = replace(
        joe,
        fate="unconscious",
        unconscious=4,
        helpless=True,
        surprised="attacked",
        surprised_round=1,
        instinctive_round=1,
        ready=False,
        behind="bill",
    )
    conds = views.conditions(state, state.fighters["joe"])
    # An unconscious fighter's gun is no condition of its own: « holstered » is for the standing.
    assert [c.key for c in conds] == [k for k in views.CONDITIONS if k != "holstered"]
    state.fighters["joe"] = replace(state.fighters["joe"], fate="alive")
    conds = views.conditions(state, state.fighters["joe"])
    assert "holstered" in [c.key for c in conds]
    names = {"bill": "Bill", "joe": "Joe"}
    for c in views.conditions(state, replace(state.fighters["joe"], fate="unconscious")) + conds:
        assert set(catalog()[c.label.key]) == set(LANGS)
        text = c.text(lang, names)  # type: ignore[arg-type]
        assert text and "{" not in text and "_" not in text, text
        assert not re.search(r"\b(western|cond|word|bill)\b", text), text
        if c.other is not None:
            assert "Bill" in text


def test_a_surprise_shows_only_in_its_round() -> None:
    f = duel()
    f.do("surprise", target="joe", surprise="sudden")
    assert [c.key for c in row(f, "joe").conditions] == ["surprised"]
    f.round()
    assert "surprised" in [c.key for c in row(f, "joe").conditions]
    for _ in range(len(f.state.slots)):
        due = f.state.due()
        assert due is not None
        f.do("pass", due[0])
    f.round()
    assert "surprised" not in [c.key for c in row(f, "joe").conditions]


def test_W_SPD_2_the_turn_is_the_order_of_combat_and_who_shoots_now() -> None:
    f = Fight(gunman("bill", x=0, characteristics={"RAPIDITÉ": 15}), gunman("joe", x=10))
    rs = f.encounter.ruleset
    view = rs.turn_view(f.state)
    assert (view.turn, view.phase, view.due, view.order) == (0, "setup", (), ())
    # Bill: 3 shots at speed 15, ranked 15, 10, 5 (5 off per shot fired); Joe: 2 at 10,
    # ranked 10, 5; a tie goes to the faster.
    f.round()
    view = rs.turn_view(f.state)
    assert (view.turn, view.phase, view.due) == (1, "round", ("bill",))
    assert [(s.ids[0], s.total) for s in view.order] == [
        ("bill", 15),
        ("bill", 10),
        ("joe", 10),
        ("bill", 5),
        ("joe", 5),
    ]
    f.do("pass", "bill")
    f.do("pass", "bill")
    assert rs.turn_view(f.state).due == ("joe",)
    assert rs.due_actors(f.state) == ["joe"]  # type: ignore[attr-defined]
    assert [s.total for s in rs.turn_view(f.state).order] == [10, 5, 5]


@pytest.mark.parametrize("phase", ["setup", "round", "end"])
def test_each_phase_has_a_label(phase: str) -> None:
    assert set(catalog()[f"phase.{phase}"]) == set(LANGS)
