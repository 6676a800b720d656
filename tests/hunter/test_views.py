"""The hunter roster and turn as readers get them (``views.py``): the track as boxes
(H-HLT-1), status and band from the track and the fate, the wound penalty, Defense and
ammunition, conditions in words naming who holds whom, the initiative ranking."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from conteur.engine.views import RosterRow
from conteur.i18n import LANGS, catalog, t
from conteur.rulesets.hunter import health, views
from conteur.rulesets.hunter.state import HunterState

from .fight import Fight, sheet


def fight() -> Fight:
    # Ana: Dex 3, Wits 3 (Defense 3), a heavy pistol (8 rounds); the Bête, a monster.
    ana = sheet("ana", name="Ana", side="cell", wits=3, weapon="heavy_pistol")
    return Fight(ana, sheet("bete", name="la Bête", kind="monstre", stamina=3))


def row(f: Fight, fid: str) -> RosterRow:
    return f.encounter.ruleset.roster(f.state).row(fid)


def test_an_unhurt_fighter_is_unhurt_with_empty_boxes_and_its_defense_and_rounds() -> None:
    f = fight()
    r = row(f, "ana")
    assert r.health.kind == "boxes" and r.health.marks == ("",) * 7
    assert (r.status, r.band, r.penalty, r.fate) == ("unhurt", "band.unhurt", 0, "alive")
    assert r.health.text() == "[ ]" * 7
    defense = r.resource("defense")
    assert defense is not None and defense.value == 3  # min(Dex 3, Wits 3), H-ATK-2
    ammo = r.resource("ammo.heavy_pistol")
    assert ammo is not None and ammo.text() == "8/8"
    assert ammo.label.describe("fr") == "pistolet lourd (balles)"
    assert ammo.label.describe("en") == "heavy pistol (rounds)"
    assert [c.key for c in f.encounter.ruleset.columns()] == ["defense"]
    assert f.encounter.ruleset.roster(f.state).columns == f.encounter.ruleset.columns()


def test_H_HLT_1_marks_status_band_and_penalty_follow_the_track() -> None:
    f = fight()  # the Bête: Stamina 3 + Size 5 = 8 boxes
    f.do("gm_damage", fighter="bete", amount=2, damage_type="lethal")
    f.do("gm_damage", fighter="bete", amount=1, damage_type="bashing")
    r = row(f, "bete")
    assert r.health.marks == ("X", "X", "/", "", "", "", "", "")
    assert (r.status, r.band, r.penalty) == ("wounded", "hunter.band.bruised", 0)
    f = fight()
    f.do("gm_damage", fighter="bete", amount=6, damage_type="lethal")  # 6 of 8: −1
    assert (row(f, "bete").band, row(f, "bete").penalty) == ("hunter.band.wounded", -1)
    f.do("gm_damage", fighter="bete", amount=1, damage_type="aggravated")  # 7 of 8: −2
    r = row(f, "bete")
    assert r.health.marks[0] == "*" and (r.band, r.penalty) == ("hunter.band.badly_wounded", -2)
    f.do("gm_damage", fighter="bete", amount=1, damage_type="lethal")  # lethal in the last box
    r = row(f, "bete")
    assert (r.status, r.band, r.fate) == ("out", "hunter.band.dying", "incapacitated")
    f = fight()
    f.do("gm_damage", fighter="bete", amount=8, damage_type="aggravated")
    r = row(f, "bete")
    assert (r.status, r.band, r.fate) == ("dead", "hunter.band.dead", "dead")


def test_every_band_of_the_ladder_has_its_words_in_both_languages() -> None:
    rungs, fates = health.ladder()
    bands = [name for _, name in rungs] + list(fates.values())
    assert len(bands) >= 5
    for name in bands:
        assert set(catalog()[f"hunter.band.{name}"]) == set(LANGS), name
    assert health.band_of([0, 0, 0], "unconscious") == "hunter.band.unconscious"


def test_H_DODGE_1_defense_is_the_one_the_rules_oppose_now() -> None:
    f = fight()
    f.start(9, 1)
    f.do("dodge", "bete")  # the Bête: min(Dex 3, Wits 2) = 2, doubled
    assert row(f, "bete").resource("defense").value == 4  # type: ignore[union-attr]
    f.act("ana", kind="aim", target="bete")  # H-AIM-1: no Defense while aiming
    assert row(f, "ana").resource("defense").value == 0  # type: ignore[union-attr]


def every_condition(state: HunterState) -> HunterState:
    """Ana with every condition the rules can set on a fighter (some at once that cannot
    happen together), naming the Bête where a condition names someone."""
    ana = state.fighters["ana"]
    state.fighters["ana"] = replace(
        ana,
        surprised=True,
        holding="bete",
        held_by="bete",
        immobilised=True,
        prone=True,
        shield="bete",
        dodging=True,
        all_out=True,
        aim=2,
        aim_target="bete",
        no_defense=True,
        reloading=2,
        delay_after="bete",
        cover="partial",
    )
    return state


@pytest.mark.parametrize("lang", LANGS)
def test_every_condition_is_words_naming_the_other_fighter(lang: str) -> None:
    f = fight()
    state = every_condition(f.state)
    conds = views.conditions(state, state.fighters["ana"])
    keys = [c.key for c in conds]
    # held_by is implied by immobilised (« immobilisé par la Bête »).
    assert keys == [k for k in views.CONDITIONS if k != "held_by"]
    names = {"ana": "Ana", "bete": "la Bête"}
    for c in conds:
        assert set(catalog()[c.label.key]) == set(LANGS)
        text = c.text(lang, names)  # type: ignore[arg-type]
        assert text and "{" not in text and "_" not in text and "bete" not in text, text
        assert not re.search(r"\b(hunter|cond|word)\b", text), text
        if c.other is not None:
            assert c.other == "bete" and "la Bête" in text
    state.fighters["ana"] = replace(state.fighters["ana"], immobilised=False)
    held = views.conditions(state, state.fighters["ana"])
    assert "held_by" in [c.key for c in held]
    assert t("hunter.cond.held_by", "fr", other="la Bête") == "tenu par la Bête"


def test_a_grapple_names_who_holds_whom_in_the_rows() -> None:
    f = fight()
    f.start(1, 9)  # the Bête acts first
    f.act("bete", kind="grapple", target="ana", dice=(8, 8))  # 5 dice − Defense 3
    names = f.encounter.ruleset.names(f.state)
    bete = [c.text("fr", names) for c in row(f, "bete").conditions]
    ana = [c.text("en", names) for c in row(f, "ana").conditions]
    assert bete == ["tient Ana"] and ana == ["held by la Bête"]


def test_the_turn_is_the_ranking_with_its_totals_and_who_acts() -> None:
    f = fight()
    rs = f.encounter.ruleset
    assert rs.turn_view(f.state).phase == "setup" and not rs.turn_view(f.state).due
    f.start(9, 1)  # Ana 9 + 5 = 14, the Bête 1 + 5 = 6
    view = rs.turn_view(f.state)
    assert (view.turn, view.phase, view.due, view.over) == (1, "resolution", ("ana",), False)
    assert [(s.ids, s.total) for s in view.order] == [(("ana",), 14), (("bete",), 6)]
    f.do("pass", "ana")
    assert rs.turn_view(f.state).due == ("bete",)
    f.do("gm_damage", fighter="bete", amount=20, damage_type="aggravated")
    view = rs.turn_view(f.state)
    assert view.over and view.phase == "over" and not view.due


@pytest.mark.parametrize("phase", ["setup", "resolution", "over"])
def test_each_phase_has_a_label(phase: str) -> None:
    assert set(catalog()[f"phase.{phase}"]) == set(LANGS)
