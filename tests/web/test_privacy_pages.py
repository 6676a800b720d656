"""What players see, on the pages (SQLite and PostgreSQL): the campaign's choices (allies'
exact health, NPCs by generic labels, NPCs' dice), a GM's secret command and showing it,
the players' numbering without gaps, joining hidden, the opponents' side by default, an
undone join's player link, logging out and idle sessions.

Marker strings in the GM's texts are never in a player's page, panel, odds or live stream
while they are secret, and the GM's page has them."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from conteur.dice import SeededDice
from conteur.store import Participant, Store
from conteur.store.models import GmSession, now
from conteur.web import create_app
from conteur.web.demo import demo_data
from conteur.web.sessions import idle_seconds

from .conftest import csrf_of

HX = {"hx-request": "true"}
MARKER = "MARQUEUR-SECRET-PRIV-9"
NPC = "Sam le barman"


def back_room(store: Store) -> tuple[int, str]:
    """Jack and Billy (players' characters) against Sam, an NPC; Jack's link."""
    sam = next(c for c in demo_data()["combatants"] if c["id"] == "sam")
    chars = {c.name: c for c in store.list_characters(1)}
    info = store.start_encounter(
        1,
        "Arrière-salle",
        [
            Participant(
                chars["Jack Malone"].id, side="cow-boys", position=(0, 0), combatant_id="jack"
            ),
            Participant(
                chars["Billy Harper"].id, side="cow-boys", position=(1, 0), combatant_id="billy"
            ),
        ],
        npcs=[sam],
    )
    return info.id, chars["Jack Malone"].token


def post(gm: TestClient, path: str, data: dict[str, str], status: int = 200) -> str:
    csrf = csrf_of(gm.get("/").text)
    r = gm.post(path, data={"csrf": csrf, **data}, headers=HX)
    assert r.status_code == status, r.text[:2000]
    return r.text


def stream(client: TestClient, path: str, since: int = -1) -> str:
    with client.stream("GET", f"{path}?since={since}&limit=1") as r:
        assert r.status_code == 200
        raw = "".join(r.iter_text())
    data = json.loads(raw.split("data: ", 1)[1].split("\n", 1)[0])
    return raw + json.dumps(data, ensure_ascii=False)


def player_texts(client: TestClient, token: str) -> list[str]:
    return [
        client.get(f"/p/{token}").text,
        client.get(f"/p/{token}/panel").text,
        stream(client, f"/p/{token}/stream"),
        client.get(f"/p/{token}/odds", params={"target": "sam"}).text,
    ]


def test_the_campaigns_choices_change_what_players_read(
    gm: TestClient, stranger: TestClient, store: Store
) -> None:
    eid, token = back_room(store)
    post(gm, f"/e/{eid}/script", {"line": "initiative", "faces": "3 9 4"})
    post(gm, f"/e/{eid}/script", {"line": "mj: dégâts billy 2 létal", "faces": ""})
    page = gm.get("/c/1").text
    assert 'name="npc_names"' in page and "Ce que voient les joueurs" in page
    before = stranger.get(f"/p/{token}").text
    assert NPC in before and "Adversaire 1" not in before
    assert "data-ally-health" not in before  # allies in words by default

    post(gm, "/c/1/privacy", {"ally_health": "exact", "npc_names": "labels", "npc_dice": "1"})
    assert store.get_campaign(1).privacy.to_dict() == {
        "ally_health": "exact",
        "npc_names": "labels",
        "npc_dice": True,
    }
    for text in player_texts(stranger, token):
        assert NPC not in text and "Sam" not in text.replace("Samedi", "")
    page = stranger.get(f"/p/{token}").text
    assert "Adversaire 1" in page
    ally = re.search(r'data-fighter="billy">.*?data-ally-health>([^<]+)<', page)
    assert ally is not None and ally.group(1).strip()  # Billy's boxes, exact
    # The NPC's initiative die is the table's now: its faces in the public log.
    assert re.search(r"Adversaire 1 : initiative \d+ \+ \d+ = \d+", page.replace("\u202f", " "))
    gm_page = gm.get(f"/e/{eid}").text
    assert NPC in gm_page and "Adversaire 1" not in gm_page  # the GM keeps his names
    stranger.cookies.set("conteur_lang", "en")
    en = stranger.get(f"/p/{token}").text
    stranger.cookies.delete("conteur_lang")
    assert "Opponent 1" in en and NPC not in en

    post(gm, "/c/1/privacy", {"ally_health": "words", "npc_names": "names"})
    back = stranger.get(f"/p/{token}").text
    assert NPC in back and "data-ally-health" not in back
    assert not re.search(r"Sam le barman : initiative \d", back.replace("\u202f", " "))
    page = post(gm, "/c/1/privacy", {"ally_health": "all", "npc_names": "names"}, status=400)
    assert "ally_health" in page and "all" in page
    assert store.get_campaign(1).privacy.ally_health == "words"  # nothing half-applied


def test_a_secret_gm_command_stays_his_until_he_shows_it(
    gm: TestClient, stranger: TestClient, store: Store
) -> None:
    eid, token = back_room(store)
    post(gm, f"/e/{eid}/script", {"line": "initiative", "faces": "3 9 4"})
    stranger.get(f"/p/{token}")  # the players' caches first: they must not leak later
    post(gm, f"/e/{eid}/command", {"type": "gm_note", "actor": "", "reason": MARKER, "secret": "1"})
    post(
        gm,
        f"/e/{eid}/command",
        {
            "type": "gm_damage",
            "actor": "",
            "fighter": "jack",
            "levels": "1",
            "damage_type": "lethal",
            "secret": "1",
        },
    )
    for text in player_texts(stranger, token):
        assert MARKER not in text
        assert "Jack Malone perd" not in text and "Jack Malone est blessé" not in text
    gm_page = gm.get(f"/e/{eid}").text
    assert MARKER in gm_page and "Jack Malone perd 1" in gm_page
    assert MARKER in stream(gm, f"/e/{eid}/stream")
    shows = re.findall(r'data-show="(\d+)"', gm_page)
    assert "1" in shows and "2" in shows  # « montrer » on his secret lines
    assert "data-secret" in gm_page  # the box on his tools
    assert "data-secret" not in stranger.get(f"/p/{token}").text

    post(gm, f"/e/{eid}/show", {"seq": "1"})
    texts = player_texts(stranger, token)
    for text in texts[:3]:
        assert MARKER in text
    assert "Le MJ montre aux joueurs" in texts[0]
    assert "Jack Malone perd" not in texts[0]  # only what he showed
    page = post(gm, f"/e/{eid}/show", {"seq": "1"}, status=422)
    assert "déjà montrée" in page
    post(gm, f"/e/{eid}/undo", {"seq": str(len(store.encounter(eid).log) - 1)})
    page = stranger.get(f"/p/{token}").text  # the show undone, as any command: marked so
    undone = re.search(r'<li class="undone" data-seq="(\d+)">(.*?)</li>\s*</ul>', page, re.S)
    assert undone is not None and MARKER in undone.group(2)
    assert 'data-show="1"' in gm.get(f"/e/{eid}").text  # he may show it again


def test_a_players_numbers_have_no_gap_where_hidden_entries_are(
    gm: TestClient, stranger: TestClient, store: Store
) -> None:
    eid, token = back_room(store)
    post(gm, f"/e/{eid}/script", {"line": "initiative", "faces": "3 9 4"})
    for i in range(3):
        post(gm, f"/e/{eid}/script", {"line": f"mj: note {MARKER}{i}", "faces": ""})
    post(gm, f"/e/{eid}/script", {"line": "mj: dégâts jack 1 létal", "faces": ""})
    page = stranger.get(f"/p/{token}").text
    numbers = [int(n) for n in re.findall(r'<li class="[^"]*" data-seq="(\d+)"', page)]
    assert sorted(numbers) == [0, 1]  # the initiative and the damage: the notes leave no gap
    assert re.search(r'id="panel" data-seq="1"', page)
    assert "?since=1" in page
    raw = stream(stranger, f"/p/{token}/stream")
    assert "id: 1\n" in raw and '"seq": 1,' in raw
    gm_page = gm.get(f"/e/{eid}").text
    assert re.search(r'id="panel" data-seq="4"', gm_page)  # the GM's own numbers are the log's


def test_join_hidden_with_the_opponents_side_and_an_undone_join_drops_its_link(
    gm: TestClient, stranger: TestClient, store: Store
) -> None:
    eid, token = back_room(store)
    page = gm.get(f"/e/{eid}").text
    assert "data-join-hidden" in page and 'data-npc-side="' in page
    side = re.search(r'data-npc-side="([^"]+)"', page)
    assert side is not None and side.group(1) != "cow-boys"
    arch = re.search(r'<option value="(a:[^"]+)">', page)
    assert arch is not None
    post(gm, f"/e/{eid}/join", {"who": arch.group(1), "name": "Ombre Furtive", "hidden": "1"})
    enc = store.encounter(eid)
    newcomer = next(fid for fid in enc.hidden)
    rows = {r.id: r for r in enc.ruleset.roster(enc.state).rows}
    assert rows[newcomer].side == side.group(1)
    assert "Ombre Furtive" not in stranger.get(f"/p/{token}").text
    assert "Ombre Furtive" in gm.get(f"/e/{eid}").text
    # A campaign character joins, then the join is undone: the player's link goes with it.
    linda = store.add_character(1, {"id": "linda", "name": "Linda", **_sheet(store)})
    post(gm, f"/e/{eid}/join", {"who": f"c:{linda.id}"})
    assert "linda" in store.get_encounter(eid).characters
    post(gm, f"/e/{eid}/undo", {"seq": str(len(store.encounter(eid).log) - 1)})
    assert "linda" not in store.get_encounter(eid).characters
    post(gm, f"/e/{eid}/redo", {"seq": str(len(store.encounter(eid).log) - 1)})
    assert store.get_encounter(eid).characters.get("linda") == linda.id


def _sheet(store: Store) -> dict[str, object]:
    jack = next(c for c in store.list_characters(1) if c.name == "Jack Malone")
    return {k: v for k, v in jack.sheet.items() if k not in ("id", "name", "nom")}


def test_the_gm_logs_out_and_his_session_is_revoked(gm: TestClient, store: Store) -> None:
    page = gm.get("/").text
    assert "data-logout" in page and "Se déconnecter" in page
    gm.cookies.set("conteur_lang", "en")
    assert "Log out" in gm.get("/").text
    cookie = gm.cookies.get("conteur_gm")
    assert cookie and len(store.list_gm_sessions()) == 1
    r = gm.post("/logout", data={"csrf": csrf_of(page)}, follow_redirects=False)
    assert r.status_code == 303
    assert store.list_gm_sessions() == []
    gm.cookies.set("conteur_gm", cookie)
    again = gm.get("/")
    assert again.status_code == 401  # the old cookie opens nothing


def test_a_session_idle_too_long_expires(store: Store, gm_token: str) -> None:
    app = create_app(store, session_idle=3600.0)
    with TestClient(app) as client:
        assert client.get(f"/?token={gm_token}", follow_redirects=False).status_code == 303
        assert client.get("/").status_code == 200
        with store._write() as s:
            s.execute(update(GmSession).values(seen_at=now() - timedelta(hours=2)))
        app.state.sessions._answers.clear()
        assert client.get("/").status_code == 401
    assert store.list_gm_sessions() == []


def test_the_idle_time_is_read_from_the_environment() -> None:
    assert idle_seconds({}) == 12 * 3600
    assert idle_seconds({"CONTEUR_SESSION_IDLE": "0,5"}) == 1800
    assert idle_seconds({"CONTEUR_SESSION_IDLE": "0"}) is None
    from conteur.i18n import ConteurError

    with pytest.raises(ConteurError) as err:
        idle_seconds({"CONTEUR_SESSION_IDLE": "toujours"})
    assert "CONTEUR_SESSION_IDLE" in err.value.message("fr") and "toujours" in err.value.message(
        "en"
    )


def test_a_gm_modifiers_reason_never_reaches_a_player(
    gm: TestClient, stranger: TestClient, store: Store
) -> None:
    """A GM's modifier on a player's own fighter (issue 15's done-when: « a GM modifier's
    reason »): its reason is on the GM's page and stream, never in that player's page,
    panel, odds or stream — before the roll it changes, nor after it."""
    eid, token = back_room(store)
    post(gm, f"/e/{eid}/script", {"line": "initiative", "faces": "3 9 4"})
    stranger.get(f"/p/{token}")  # the players' caches first: they must not leak later
    modifier = {"fighter": "jack", "dice": "2", "difficulty": "0", "reason": MARKER}
    post(gm, f"/e/{eid}/command", {"type": "gm_modifier", "actor": "", **modifier})
    for text in player_texts(stranger, token):
        assert MARKER not in text
    assert MARKER in gm.get(f"/e/{eid}").text and MARKER in stream(gm, f"/e/{eid}/stream")
    declarations = {
        "sam": "esquive",
        "billy": "esquive",
        "jack": "coup de poing sur sam en s'approchant de sam",
    }
    while (due := _due(store, eid)) is not None and due in declarations:
        post(gm, f"/e/{eid}/script", {"line": f"{due}: déclare {declarations.pop(due)}"})
    assert declarations == {}, declarations
    for _ in range(3):  # the actions, fastest first, until Jack's has rolled
        enc = store.encounter(eid)
        due = _due(store, eid)
        assert due is not None
        store.execute(
            eid, enc.ruleset.parse_command(f"{due}: agit", enc.state, "fr"), SeededDice(5)
        )
        if due == "jack":
            break
    assert store.encounter(eid).log[-1].to_dict()["command"]["actor"] == "jack"
    assert MARKER in gm.get(f"/e/{eid}").text  # the roll it changed says why, to the GM
    for text in player_texts(stranger, token):
        where = [text[max(0, i - 120) : i + 40] for i in [text.find(MARKER)] if i >= 0]
        assert where == []


def _due(store: Store, eid: int) -> str | None:
    enc = store.encounter(eid)
    due = enc.ruleset.turn_view(enc.state).due
    return due[0] if due else None
