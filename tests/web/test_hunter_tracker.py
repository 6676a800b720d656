"""A hunter campaign and encounter in the tracker: created through the store, played through
the GM's forms and a typed line, with the table's dice (the web layer knows no ruleset)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

import conteur.rulesets.vtm  # noqa: F401  (shared labels: cmd.ambush, param.amount)
from conteur.dice import TypedDice
from conteur.engine import Command, Encounter
from conteur.i18n import catalog
from conteur.store import Participant, Store

from .conftest import csrf_of

HX = {"hx-request": "true"}
ANA = {
    "id": "ana",
    "nom": "Ana",
    "force": 2,
    "dextérité": 3,
    "vigueur": 2,
    "astuce": 3,
    "calme": 3,
    "armes à feu": 3,
    "arme": "heavy_pistol",
}
BETE = {
    "id": "bete",
    "nom": "la Bête",
    "type": "monstre",
    "force": 5,
    "dextérité": 3,
    "vigueur": 4,
    "astuce": 3,
    "calme": 2,
    "mains nues": 4,
    "dégâts à mains nues": "L",
}


@pytest.fixture
def hunt(store: Store) -> int:
    campaign = store.create_campaign("Vigile", "hunter")
    a = store.add_character(campaign.id, ANA)
    b = store.add_character(campaign.id, BETE)
    info = store.start_encounter(
        campaign.id, "Nuit au dépôt", [Participant(a.id, "cellule"), Participant(b.id, "bete")]
    )
    return info.id


def test_a_hunter_fight_through_the_forms(gm: TestClient, store: Store, hunt: int) -> None:
    page = gm.get(f"/e/{hunt}")
    assert page.status_code == 200 and "[ ][ ][ ][ ][ ][ ][ ]" in page.text
    csrf = csrf_of(page.text)

    def form(expect: str, **values: str) -> str:
        panel = gm.get(f"/e/{hunt}/panel").text
        assert f'data-form="{expect}"' in panel, f"{expect} not offered now"
        kind, _, actor = expect.partition(":")
        data = {"csrf": csrf, "type": kind, "actor": actor, **values}
        r = gm.post(f"/e/{hunt}/command", data=data, headers=HX)
        assert r.status_code == 200, r.text
        return r.text

    form("ambush:", fighter="bete", faces="8 2 3 4 5")  # H-AMB-1: one success, not surprised
    form("initiative:", faces="9 2")  # Ana 9 + 6 = 15, the Bête 2 + 5 = 7
    panel = gm.get(f"/e/{hunt}/panel").text
    assert 'data-form="act:ana"' in panel and 'data-form="act:bete"' not in panel
    assert 'data-form="dodge:bete"' in panel  # H-DODGE-1: out of its turn
    form("dodge:bete")
    # Ana shoots: Dex 3 + Firearms 3 + pistol 3 − Strength 1 short − doubled Defense 6 = 2 dice.
    form("act:ana", kind="attack", target="bete", faces="8 9")
    enc: Encounter = store.encounter(hunt)
    assert enc.state.fighters["bete"].health.marks().startswith("[X][X][ ]")
    # A typed line of the script language works as well.
    r = gm.post(
        f"/e/{hunt}/script", data={"csrf": csrf, "line": "initiative", "faces": ""}, headers=HX
    )
    assert r.status_code == 200, r.text
    form("act:ana", kind="aim", target="bete")
    form("act:bete", kind="attack", target="ana", faces="8 8 2 2 2 2 2 2 2")
    enc = store.encounter(hunt)
    assert enc.state.fighters["ana"].health.marks().startswith("[X][X][ ]")


def test_an_illegal_form_changes_nothing(gm: TestClient, store: Store, hunt: int) -> None:
    csrf = csrf_of(gm.get(f"/e/{hunt}").text)
    data = {"csrf": csrf, "type": "act", "actor": "bete", "kind": "attack", "target": "ana"}
    r = gm.post(f"/e/{hunt}/command", data=data, headers=HX)
    assert r.status_code == 422
    assert len(store.encounter(hunt).log) == 0


def test_every_offered_hunter_command_and_parameter_is_labelled(store: Store, hunt: int) -> None:
    enc = store.encounter(hunt)
    templates = enc.legal_commands()
    enc.execute(Command("initiative"), TypedDice("9 2"))
    for fid in enc.state.fighters:
        templates += enc.legal_commands(fid)
    missing = set()
    for tp in templates:
        if not {f"web.cmd.{tp.type}", f"cmd.{tp.type}"} & set(catalog()):
            missing.add(f"cmd.{tp.type}")
        for p in tp.params:
            if not {f"web.param.{p.name}", f"param.{p.name}"} & set(catalog()):
                missing.add(f"param.{p.name}")
    assert not missing, sorted(missing)
