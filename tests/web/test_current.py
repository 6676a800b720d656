"""The game master's "action in progress" panel (UI.md): who acts, what they declared,
the odds of that attack, and the buttons to roll or type the dice."""

from __future__ import annotations

import html
import re

from fastapi.testclient import TestClient

from conteur.store import Store

from .test_api import DEMO, command, gm_csrf, initiative


def declare_all(gm: TestClient, csrf: str) -> None:
    initiative(gm, csrf)  # Ézéchiel 14, Jack 11, Sam 9, Billy 8
    for values in (
        {"actor": "billy", "kind": "weapon_strike", "target": "ezechiel", "weapon": "knife"},
        {"actor": "sam", "delay": "1"},
        {"actor": "jack", "kind": "punch", "target": "ezechiel", "then_kind": "block"},
        {"actor": "ezechiel", "kind": "punch", "target": "jack"},
    ):
        r = command(gm, csrf, type="declare", **values)
        assert r.status_code == 200, r.text  # type: ignore[attr-defined]


def test_the_action_in_progress(gm: TestClient, store: Store) -> None:
    csrf = gm_csrf(gm)
    page = gm.get(f"/e/{DEMO}/panel").text
    assert "data-current=" not in page  # nobody acts before the initiative
    declare_all(gm, csrf)
    page = gm.get(f"/e/{DEMO}/panel").text
    section = page.split('data-current="ezechiel"', 1)[1].split("</section>", 1)[0]
    assert "Action en cours" in page and "Ézéchiel Crowe" in section
    declared = [i for i in store.encounter(DEMO).log if i.command.type == "declare"][-1]  # type: ignore[union-attr]
    line = declared.events[-1].describe("fr", {"jack": "Jack Malone", "ezechiel": "Ézéchiel Crowe"})  # type: ignore[union-attr]
    assert html.escape(line, quote=False) in re.sub(
        r"</?abbr[^>]*>", "", section
    )  # the declaration, in the log's own words
    odds = re.search(r'hx-get="([^"]+)" hx-trigger="load"', section)
    assert odds and "attacker=ezechiel" in odds.group(1) and "target=jack" in odds.group(1)
    assert "maneuver=punch" in odds.group(1)
    r = gm.get(html.unescape(odds.group(1)))
    assert r.status_code == 200 and 'data-odds="hit"' in r.text
    assert 'data-form="act:ezechiel"' in section and "Lancer les dés" in section
    assert page.count('data-form="act:ezechiel"') == 1  # not offered twice
    r = command(
        gm, csrf, type="act", actor="ezechiel", faces="9 8 7 4 2 6  8 3 2 5  7 8 2 4 3  6 2 4"
    )
    assert r.status_code == 200, r.text  # type: ignore[attr-defined]
    assert 'data-current="ezechiel"' not in r.text  # type: ignore[attr-defined]


def test_the_action_in_progress_in_english(gm: TestClient) -> None:
    declare_all(gm, gm_csrf(gm))
    gm.get("/lang/en")
    page = gm.get(f"/e/{DEMO}/panel").text
    assert "Action in progress" in page and "Roll the dice" in page
