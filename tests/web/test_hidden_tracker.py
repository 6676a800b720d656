"""Hidden combatants in the tracker, for every shipped ruleset: a player's page, panel, live
stream and odds, and the table's screen, hold nothing of a hidden one — not its name, not
its id — until it acts or the game master reveals it; the GM's page marks it hidden and
offers « Révéler ». The player's forms (``player_input`` on) offer no hidden target."""

from __future__ import annotations

import html
import json
import re
import time

import pytest
from fastapi.testclient import TestClient

from conteur.store import Store
from hidden_fights import FIGHTS, next_act, start_in_store

from .conftest import csrf_of
from .test_visibility import stream_text

HX = {"hx-request": "true"}
SECRETS = ("zorba", "quincy")


def table_token(gm: TestClient, cid: int) -> str:
    found = re.search(r'/t/([A-Za-z0-9_-]{20,})"', gm.get(f"/c/{cid}").text)
    assert found is not None, "no table link on the campaign page"
    return found.group(1)


def public_texts(client: TestClient, token: str, table: str) -> dict[str, str]:
    """Everything a player and the table's screen are sent, by where it came from (HTML
    entities decoded)."""
    texts = {
        "player page": client.get(f"/p/{token}").text,
        "player panel": client.get(f"/p/{token}/panel").text,
        "player stream": stream_text(client, f"/p/{token}/stream"),
        "table page": client.get(f"/t/{table}").text,
        "table panel": client.get(f"/t/{table}/panel").text,
        "table stream": stream_text(client, f"/t/{table}/stream"),
    }
    return {where: html.unescape(text) for where, text in texts.items()}


def absent(texts: dict[str, str], *secrets: str) -> None:
    for where, text in texts.items():
        for secret in secrets:
            assert secret not in text.lower(), f"{secret} in the {where}"


@pytest.mark.parametrize("ruleset", sorted(FIGHTS))
def test_nothing_of_a_hidden_one_reaches_players_or_the_table(
    ruleset: str, gm: TestClient, stranger: TestClient, store: Store
) -> None:
    fight = FIGHTS[ruleset]
    eid, token, cid = start_in_store(store, fight)
    store.update_campaign(cid, settings={"player_input": True})
    app_panels = gm.app.state.panels  # type: ignore[attr-defined]
    app_panels.forget()
    table = table_token(gm, cid)
    texts = public_texts(stranger, token, table)
    absent(texts, *SECRETS)
    visible = fight.names[fight.npcs[0]["id"]]
    assert visible in texts["player page"] and visible in texts["table page"]
    pc_name = str(fight.pc_sheet["nom"])
    assert pc_name in texts["table page"]
    # The player may not price an attack on a hidden one, even by guessing its id: the
    # answer is the one an unknown id gets (but for the link to the page asked).
    r = stranger.get(f"/p/{token}/odds", params={"target": "zorba"})
    unknown = stranger.get(f"/p/{token}/odds", params={"target": "xxxxx"})
    assert r.status_code == unknown.status_code == 400
    assert r.text.replace("zorba", "xxxxx") == unknown.text

    page = gm.get(f"/e/{eid}").text
    for cid_ in SECRETS:
        assert f'data-fighter="{cid_}" data-status' in page
        assert re.search(rf'data-fighter="{cid_}"[^>]*data-hidden', page)
        assert f'data-reveal="{cid_}"' in page
    assert 'data-form="reveal:"' in page  # and the GM's tool, in its drawer

    # The GM reveals Quincy: the table and the player read it, Zorba stays unknown.
    csrf = csrf_of(page)
    r = gm.post(
        f"/e/{eid}/command",
        data={"csrf": csrf, "type": "reveal", "fighter": "quincy"},
        headers=HX,
    )
    assert r.status_code == 200, r.text
    assert 'data-reveal="quincy"' not in r.text and 'data-reveal="zorba"' in r.text
    texts = public_texts(stranger, token, table)
    absent(texts, "zorba")
    # (A stream opened again within the same poll period shares the earlier read: the live
    # streams after a command are the browser test's.)
    for where in ("player page", "table page", "player panel", "table panel"):
        assert "Quincy Vold sort de l'ombre (révélé par le MJ)" in texts[where], where
    assert 'data-fighter="quincy"' in texts["table panel"]

    # Zorba acts (a line of the script language): revealed, read by all.
    while "zorba" in store.encounter(eid).hidden:
        line = next_act(store.encounter(eid), fight)
        seq = re.search(r'data-seq="(-?\d+)"', gm.get(f"/e/{eid}/panel").text)
        assert seq is not None
        r = gm.post(
            f"/e/{eid}/script",
            data={"csrf": csrf, "line": line, "faces": "", "seq": seq.group(1)},
            headers=HX,
        )
        assert r.status_code == 200, r.text
    texts = public_texts(stranger, token, table)
    for where in ("player page", "table page"):
        assert "Zorba Kell sort de l'ombre et agit" in texts[where], where
        assert 'data-fighter="zorba"' in texts[where]


def test_the_gms_script_line_reveals_and_undo_hides_again(
    gm: TestClient, stranger: TestClient, store: Store
) -> None:
    eid, token, _ = start_in_store(store, FIGHTS["vtm"])
    page = gm.get(f"/e/{eid}").text
    csrf = csrf_of(page)
    seq = int(re.findall(r'data-seq="(-?\d+)"', gm.get(f"/e/{eid}/panel").text)[0])
    r = gm.post(
        f"/e/{eid}/script",
        data={"csrf": csrf, "line": "révéler Quincy Vold", "faces": "", "seq": str(seq)},
        headers=HX,
    )
    assert r.status_code == 200 and store.encounter(eid).hidden == {"zorba"}
    assert 'data-fighter="quincy"' in stranger.get(f"/p/{token}").text
    r = gm.post(f"/e/{eid}/undo", data={"csrf": csrf, "seq": str(seq + 1)}, headers=HX)
    assert r.status_code == 200 and store.encounter(eid).hidden == {"zorba", "quincy"}
    player = stranger.get(f"/p/{token}").text
    assert 'data-fighter="quincy"' not in player and "Quincy Vold" in player  # the undone line
    r = gm.post(
        f"/e/{eid}/script",
        data={"csrf": csrf, "line": "révéler Sam le barman", "faces": "", "seq": str(seq + 2)},
        headers=HX,
    )
    assert r.status_code == 422 and "n&#39;est pas un combattant caché" in r.text


def test_a_table_link_is_the_campaigns_and_a_new_one_stops_the_old(
    gm: TestClient, stranger: TestClient, store: Store
) -> None:
    _, _, cid = start_in_store(store, FIGHTS["western"], lang="en")
    old = table_token(gm, cid)
    page = stranger.get(f"/t/{old}")
    assert page.status_code == 200 and '<html lang="en">' in page.text
    assert "Whose turn" in page.text or "whose turn" in page.text
    assert stranger.get("/t/not-a-token").status_code == 404
    csrf = csrf_of(gm.get(f"/c/{cid}").text)
    assert gm.post(f"/c/{cid}/table", data={"csrf": csrf}).status_code == 200
    new = table_token(gm, cid)
    assert new != old
    assert stranger.get(f"/t/{old}").status_code == 404
    assert stranger.get(f"/t/{new}").status_code == 200
    assert stranger.post(f"/c/{cid}/table", data={"csrf": "x"}).status_code in (401, 403)


def test_a_players_stream_says_nothing_of_a_hidden_ones_wound(
    gm: TestClient, stranger: TestClient, store: Store
) -> None:
    """No update at all reaches a player for a command that shows them nothing (the GM wounds
    a hidden one): even an empty update would tell them that something happened."""
    import threading

    eid, token, _ = start_in_store(store, FIGHTS["vtm"])
    csrf = csrf_of(gm.get(f"/e/{eid}").text)
    start = len(store.encounter(eid).log) - 1
    # The player's page counts in its own numbers (the entries it reads): no gap there either.
    found = re.search(r'id="panel" data-seq="(-?\d+)"', stranger.get(f"/p/{token}/panel").text)
    assert found is not None
    mine = int(found.group(1))
    assert mine < start  # the hidden ones' entries are not counted
    got: list[str] = []

    def listen() -> None:
        # the GM's client: the same event loop as the commands, whose notifier wakes it
        with gm.stream("GET", f"/p/{token}/stream?since={mine}&limit=1") as r:
            got.append("".join(r.iter_text()))

    reader = threading.Thread(target=listen, daemon=True)
    reader.start()
    time.sleep(0.7)  # the stream has read the state the page shows
    for line in ("mj: dégâts zorba 1 létal", "mj: dégâts jack 1 létal"):
        r = gm.post(f"/e/{eid}/script", data={"csrf": csrf, "line": line, "faces": ""}, headers=HX)
        assert r.status_code == 200, r.text
        time.sleep(0.7)
    reader.join(10)
    assert len(store.encounter(eid).log) - 1 == start + 2
    assert got, "no update"
    assert f'"seq": {mine}, ' not in got[0]  # Zorba's wound: not even an empty update
    assert f"id: {mine + 1}\n" in got[0] and "Jack Malone" in got[0]  # Jack's: the news


def test_the_gm_brings_a_character_in_hidden_when_starting_an_encounter(
    gm: TestClient, store: Store
) -> None:
    cid = 1  # the demo campaign
    page = gm.get(f"/c/{cid}").text
    chars = {c.name: c.id for c in store.list_characters(cid)}
    sam = chars["Sam le barman"]
    assert f'name="hidden_{sam}"' in page
    data = {
        "csrf": csrf_of(page),
        "name": "Guet-apens",
        "characters": [str(i) for i in chars.values()],
        f"hidden_{sam}": "1",
    }
    r = gm.post(f"/c/{cid}/encounters", data=data, follow_redirects=False)
    assert r.status_code == 303, r.text
    eid = int(r.headers["location"].rsplit("/", 1)[1])
    enc = store.encounter(eid)
    assert enc.hidden == {"sam_le_barman"}  # the character's slug
    assert re.search(r'data-fighter="sam_le_barman"[^>]*data-hidden', gm.get(f"/e/{eid}").text)


def test_a_player_cannot_aim_at_a_hidden_one_by_guessing_its_id(
    stranger: TestClient, store: Store
) -> None:
    """Bill's shot (his turn: western, the player enters his own commands) at Zorba is refused
    as a target no one has: the same answer, word for word, and nothing is logged."""
    eid, token, cid = start_in_store(store, FIGHTS["western"])
    store.update_campaign(cid, settings={"player_input": True})
    page = stranger.get(f"/p/{token}").text
    assert 'data-form="attack:bill"' in page and 'value="zorba"' not in page
    csrf = csrf_of(page)
    count = len(store.encounter(eid).log)
    answers = []
    for target in ("zorba", "xxxxx"):
        data = {"csrf": csrf, "type": "attack", "actor": "bill", "target": target}
        r = stranger.post(f"/p/{token}/command", data=data, headers=HX)
        answers.append((r.status_code, html.unescape(r.text).replace(target, "?")))
    assert answers[0] == answers[1] and answers[0][0] == 422
    assert len(store.encounter(eid).log) == count


def test_the_table_link_is_a_secret_no_export_carries(store: Store) -> None:
    _, _, cid = start_in_store(store, FIGHTS["hunter"])
    token = store.table_token(cid)
    assert store.table_token(cid) == token  # made once, kept
    exported = json.dumps(store.export_campaign(cid))
    assert token not in exported and "table_token" not in exported
