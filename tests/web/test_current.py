"""The game master's "action in progress" panel (UI.md): who acts, what they declared,
the odds of that attack, and the buttons to roll or type the dice."""

from __future__ import annotations

import html
import re

from fastapi.testclient import TestClient

from conteur.engine import Command
from conteur.store import Store
from ruleset_fights import FIGHTS

from .conftest import csrf_of
from .test_api import DEMO, HX, command, gm_csrf, initiative
from .test_browser_rulesets import faces_for


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


# ------------------------------------------------------------------ the card's odds and reach


def ten_metres_apart(store: Store) -> int:
    """The vtm fighters of ``tests/ruleset_fights.py``, Jack and Ézéchiel, 10 m apart, started
    by the game master's forms' commands: the encounter."""
    from conteur.store.service import Participant

    camp = store.create_campaign("Reach", "vtm")
    jack, ezechiel = store.import_characters(camp.id, FIGHTS["vtm"].sheets, "yaml")
    info = store.start_encounter(
        camp.id,
        "Ten metres",
        [Participant(jack.id, "a", (0, 0)), Participant(ezechiel.id, "b", (10, 0))],
    )
    return info.id


def punches_ten_metres_apart(gm: TestClient, store: Store) -> tuple[int, str, str]:
    """Jack and Ézéchiel 10 m apart, each declaring by the GM's form a punch on the other
    *with* an opening move toward him (V-MAN-6); the encounter, its CSRF token and who acts
    first."""
    eid = ten_metres_apart(store)
    csrf = csrf_of(gm.get(f"/e/{eid}").text)

    def post(**values: str) -> None:
        r = gm.post(f"/e/{eid}/command", data={"csrf": csrf, **values}, headers=HX)
        assert r.status_code == 200, r.text

    post(type="initiative", actor="", faces="5 3")
    for _ in range(2):
        enc = store.encounter(eid)
        fid = enc.ruleset.turn_view(enc.state).due[0]
        other = "ezechiel" if fid == "jack" else "jack"
        post(type="declare", actor=fid, kind="punch", target=other, move_to=other)
    enc = store.encounter(eid)
    return eid, csrf, enc.ruleset.turn_view(enc.state).due[0]


def card_odds(gm: TestClient, eid: int, actor: str) -> object:
    page = gm.get(f"/e/{eid}/panel").text
    section = page.split(f'data-current="{actor}"', 1)[1].split("</section>", 1)[0]
    odds = re.search(r'hx-get="([^"]+)" hx-trigger="load"', section)
    assert odds, section
    return gm.get(html.unescape(odds.group(1)))


def test_the_card_prices_a_punch_declared_with_an_opening_move(
    gm: TestClient, store: Store
) -> None:
    """V-MAN-6: 10 m away, a punch declared « en s'approchant de » is priced from where the
    opening move ends — the card does not say « trop loin » — and the act hits as priced."""
    eid, csrf, actor = punches_ten_metres_apart(gm, store)
    other = "ezechiel" if actor == "jack" else "jack"
    r = card_odds(gm, eid, actor)
    assert r.status_code == 200, r.text  # type: ignore[attr-defined]
    assert 'data-odds="hit"' in r.text and "trop loin" not in r.text  # type: ignore[attr-defined]
    enc = store.encounter(eid)
    odds = enc.ruleset.attack_odds(enc.state, actor, other, "punch")
    assert 0 < odds.p_hit < 1
    # The act closes in and strikes: the same legality as the card's.
    faces = faces_for(store, eid, Command("act", actor))
    r = gm.post(
        f"/e/{eid}/command",
        data={"csrf": csrf, "type": "act", "actor": actor, "faces": faces},
        headers=HX,
    )
    assert r.status_code == 200, r.text
    kinds = [type(e).__name__ for e in store.encounter(eid).log[-1].events]  # type: ignore[union-attr]
    assert "Moved" in kinds and "AttackRolled" in kinds, kinds


def test_the_card_still_refuses_a_punch_the_move_cannot_bring_in_reach(
    gm: TestClient, store: Store
) -> None:
    """V-GEN-1: the target moved 60 m away after the declarations; half a run (14.5 m) does
    not close that, so the card says it is too far — from where the move ends, as the act
    would — in the GM's language."""
    eid, csrf, actor = punches_ten_metres_apart(gm, store)
    other = "ezechiel" if actor == "jack" else "jack"
    r = gm.post(
        f"/e/{eid}/command",
        data={"csrf": csrf, "type": "gm_move", "actor": "", "fighter": other, "to": "60, 0"},
        headers=HX,
    )
    assert r.status_code == 200, r.text
    name = store.encounter(eid).ruleset.names(store.encounter(eid).state)[other]
    for lang, said in (
        (
            "fr",
            f"[V-GEN-1] {name} est à 45,5 m\u202f: trop loin pour le corps à corps (au plus 1 m)",
        ),
        ("en", f"[V-GEN-1] {name} is 45.5 m away: too far for close combat (at most 1 m)"),
    ):
        gm.get(f"/lang/{lang}")
        r = card_odds(gm, eid, actor)
        assert r.status_code == 400, r.text  # type: ignore[attr-defined]
        assert refusal_of(r.text) == said  # type: ignore[attr-defined]


def refusal_of(page: str) -> str:
    """The refusal a page shows (its one error message), as read."""
    found = re.search(r'class="message error"[^>]*>([^<]*)<', page)
    assert found, page
    return html.unescape(found.group(1))
