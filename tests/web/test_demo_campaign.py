"""The demo campaign as a new game master finds it (``make run``): its characters keep the
sides of the demo's fight, so a second encounter started from the campaign page with the
form as it comes puts the cow-boys against the saloon again; a sheet that names its own
side fills the form the same way."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from conteur.store import Store

from .conftest import csrf_of
from .test_western_tracker import BILL, JACK

SIDES = {
    "Jack Malone": "cow-boys",
    "Billy Harper": "cow-boys",
    "Sam le barman": "saloon",
    "Ézéchiel Crowe": "saloon",
}


def test_the_new_encounter_form_comes_with_each_demo_characters_side(
    gm: TestClient, store: Store
) -> None:
    (campaign,) = store.list_campaigns()
    page = gm.get(f"/c/{campaign.id}").text
    names = {str(c.id): c.name for c in store.list_characters(campaign.id)}
    shown = dict(re.findall(r'<input name="side_(\d+)" size="10" value="([^"]*)"', page))
    assert {names[cid]: side for cid, side in shown.items()} == SIDES

    form: dict[str, str | list[str]] = {
        "csrf": csrf_of(page),
        "name": "Deuxième bagarre",
        "characters": list(shown),
        **{f"side_{cid}": side for cid, side in shown.items()},
    }
    started = gm.post(f"/c/{campaign.id}/encounters", data=form, follow_redirects=False)
    assert started.status_code == 303, started.text[:300]
    eid = int(started.headers["location"].rsplit("/", 1)[1])
    encounter = store.encounter(eid)
    roster = encounter.ruleset.roster(encounter.state)
    assert {r.name: r.side for r in roster.rows} == SIDES


def test_a_sheets_own_side_fills_the_new_encounter_form(gm: TestClient, store: Store) -> None:
    """A western sheet names its side (``camp``, ``side``): the campaign page's form comes with it
    (the side an encounter takes when the form leaves it empty, ``store.encounters``)."""
    campaign = store.create_campaign("Tombstone", "western")
    for sheet in ({**BILL, "camp": "hors-la-loi"}, {**JACK, "side": "shérif"}):
        store.add_character(campaign.id, sheet)
    page = gm.get(f"/c/{campaign.id}").text
    names = {str(c.id): c.name for c in store.list_characters(campaign.id)}
    shown = dict(re.findall(r'<input name="side_(\d+)" size="10" value="([^"]*)"', page))
    assert {names[cid]: side for cid, side in shown.items()} == {
        "Bill Tanner": "hors-la-loi",
        "Jack Malone": "shérif",
    }
