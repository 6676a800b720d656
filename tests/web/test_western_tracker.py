"""The tracker plays a western fight: a campaign, characters, an encounter, commands by forms."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from conteur.store import Store
from conteur.store.service import Participant

from .conftest import csrf_of

HX = {"hx-request": "true"}

BILL = {
    "id": "bill",
    "nom": "Bill Tanner",
    "caractéristiques": {
        "FORCE": 12,
        "RÉSISTANCE": 11,
        "CONSTITUTION": 12,
        "RAPIDITÉ": 15,
        "RÉPUTATION": 6,
    },
    "compétences": {"tir visé au pistolet": 56, "tir instinctif au pistolet": 40},
    "armes": ["colt_saa"],
}
JACK = {
    "id": "jack",
    "name": "Jack Malone",
    "characteristics": {
        "STRENGTH": 13,
        "RESISTANCE": 12,
        "CONSTITUTION": 13,
        "SPEED": 11,
        "REPUTATION": 12,
    },
    "skills": {"aimed pistol": 50},
    "weapons": ["schofield"],
}


def western(store: Store) -> tuple[int, int]:
    camp = store.create_campaign("Dodge City", "western")
    bill = store.add_character(camp.id, BILL)
    jack = store.add_character(camp.id, JACK)
    enc = store.start_encounter(
        camp.id,
        "Duel",
        [Participant(bill.id, "bill", (0, 0)), Participant(jack.id, "jack", (12, 0))],
        extra={"witnesses": True},
    )
    return camp.id, enc.id


def test_western_campaign_through_the_pages(gm: TestClient, store: Store) -> None:
    csrf = csrf_of(gm.get("/").text)
    r = gm.post(
        "/campaigns",
        data={"csrf": csrf, "name": "Tombstone", "ruleset": "western"},
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text
    assert any(c.ruleset == "western" for c in store.list_campaigns())


def test_a_western_duel_played_by_forms(gm: TestClient, store: Store) -> None:
    _, eid = western(store)
    page = gm.get(f"/e/{eid}")
    assert page.status_code == 200 and "Bill Tanner" in page.text and "Jack Malone" in page.text
    csrf = csrf_of(page.text)
    assert 'data-form="round:"' in page.text

    def post(**values: str) -> object:
        return gm.post(f"/e/{eid}/command", data={"csrf": csrf, **values}, headers=HX)

    r = post(type="round", actor="")
    assert r.status_code == 200, r.text  # type: ignore[attr-defined]
    panel = gm.get(f"/e/{eid}/panel").text
    assert 'data-form="attack:bill"' in panel and 'data-form="attack:jack"' not in panel
    # The fastest shooter is due (W-SPD-2): the turn line and the roster say so.
    due = re.search(r"<strong data-due>(.*?)</strong>", panel)
    assert due is not None and due.group(1) == "Bill Tanner"
    assert re.search(r'<tr data-fighter="bill"[^>]* class="due">', panel)
    # Bill's critical from the text: 56 %, roll 4, hand → forearm.
    r = post(type="attack", actor="bill", target="jack", faces="4 42 6")
    assert r.status_code == 200, r.text  # type: ignore[attr-defined]
    assert "avant-bras droit" in r.text  # type: ignore[attr-defined]
    # Jack is not due after a refused command, and nothing changed.
    before = store.last_seq(eid)
    r = post(type="attack", actor="bill", target="jack", zone="nowhere")
    assert r.status_code == 422 and store.last_seq(eid) == before  # type: ignore[attr-defined]
    r = post(type="attack", actor="jack", target="bill", zone="head", faces="95")
    assert r.status_code == 200, r.text  # type: ignore[attr-defined]
    r = post(type="pass", actor="bill")
    assert r.status_code == 200
    r = post(type="duel_won", actor="", side="bill", witness="1")
    assert r.status_code == 200, r.text  # type: ignore[attr-defined]
    panel = gm.get(f"/e/{eid}/panel").text
    assert "Bill Tanner" in panel


def test_western_odds_in_the_tracker(gm: TestClient, store: Store) -> None:
    _, eid = western(store)
    r = gm.get(f"/e/{eid}/odds", params={"attacker": "bill", "target": "jack"})
    assert r.status_code == 200, r.text
    assert "56" in r.text and 'class="bars"' in r.text


def test_western_script_line_in_the_tracker(gm: TestClient, store: Store) -> None:
    _, eid = western(store)
    csrf = csrf_of(gm.get(f"/e/{eid}").text)
    r = gm.post(f"/e/{eid}/script", data={"csrf": csrf, "line": "round"}, headers=HX)
    assert r.status_code == 200, r.text
    r = gm.post(
        f"/e/{eid}/script",
        data={"csrf": csrf, "line": "bill: tire sur jack", "faces": "70"},
        headers=HX,
    )
    assert r.status_code == 200, r.text
    assert store.last_seq(eid) == 1


def test_closing_writes_back_pv_and_reputation(gm: TestClient, store: Store) -> None:
    camp, eid = western(store)
    csrf = csrf_of(gm.get(f"/e/{eid}").text)
    gm.post(f"/e/{eid}/command", data={"csrf": csrf, "type": "round", "actor": ""}, headers=HX)
    gm.post(
        f"/e/{eid}/command",
        data={
            "csrf": csrf,
            "type": "attack",
            "actor": "bill",
            "target": "jack",
            "faces": "30 24 8",
        },
        headers=HX,
    )
    gm.post(
        f"/e/{eid}/command",
        data={"csrf": csrf, "type": "duel_won", "actor": "", "side": "bill", "witness": "1"},
        headers=HX,
    )
    r = gm.post(f"/e/{eid}/close", data={"csrf": csrf}, follow_redirects=False)
    assert r.status_code in (200, 303), r.text
    chars = {c.name: c for c in store.list_characters(camp)}
    assert chars["Jack Malone"].state["pv"] == 18 - 16
    assert chars["Bill Tanner"].state["reputation"] == 8
    # and a new encounter starts from what they carry
    store.start_encounter(
        camp,
        "Revanche",
        [
            Participant(chars["Jack Malone"].id, "jack", (0, 0)),
            Participant(chars["Bill Tanner"].id, "bill", (5, 0)),
        ],
    )
