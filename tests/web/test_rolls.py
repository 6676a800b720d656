"""Rolls at the table: an action asks for its rolls one at a time, in the rules' order; the
action waits in the store (``pending_actions``), not in the log, until its last roll is in.

Every flow (typed dice, « lancer pour moi », cancel, a restart in the middle, a command that
lands first, a player's own roll) and every refusal (too few or too many dice, a face the die
has not, an old step, no action waiting, another player's roll, an NPC's roll)."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from conteur.store import Participant, Store, open_store
from conteur.web import create_app
from conteur.web.demo import demo_data

from .conftest import GM_PASSWORD, csrf_of

HX = {"hx-request": "true"}
DEMO = 1


@pytest.fixture
def db(tmp_path: Path, demo_db: tuple[Path, str]) -> tuple[str, str]:
    """A SQLite copy of the demo (its URL) and the GM's token."""
    target = tmp_path / "rolls.db"
    shutil.copyfile(demo_db[0], target)
    return f"sqlite:///{target}", demo_db[1]


@pytest.fixture
def lite(db: tuple[str, str]) -> Iterator[Store]:
    s = open_store(db[0])
    yield s
    s.close()


def client_of(s: Store, token: str) -> TestClient:
    """A GM's client, logged in with the password (the fixture's token opens one session)."""
    client = TestClient(create_app(s))
    r = client.post("/login", data={"token": GM_PASSWORD, "next": "/"}, follow_redirects=False)
    assert r.status_code == 303
    return client


@pytest.fixture
def gm(lite: Store, db: tuple[str, str]) -> Iterator[TestClient]:
    with client_of(lite, db[1]) as client:
        yield client


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def step_of(html: str) -> str:
    match = re.search(r'name="step" value="(\d+)"', html)
    assert match, html
    return match.group(1)


def count_of(html: str) -> int:
    match = re.search(r'data-pad-count="(\d+)"', html)
    assert match, html
    return int(match.group(1))


class Table:
    """The GM's side of one encounter: commands, and the pad's routes."""

    def __init__(self, client: TestClient, eid: int = DEMO) -> None:
        self.client = client
        self.eid = eid
        self.csrf = csrf_of(client.get(f"/e/{eid}").text)

    def command(self, **values: str) -> None:
        r = self.client.post(
            f"/e/{self.eid}/command", data={"csrf": self.csrf, **values}, headers=HX
        )
        assert r.status_code == 200, r.text

    def begin(self, **values: str) -> object:
        return self.client.post(
            f"/e/{self.eid}/rolls", data={"csrf": self.csrf, **values}, headers=HX
        )

    def pad(self) -> str:
        r = self.client.get(f"/e/{self.eid}/rolls")
        assert r.status_code == 200
        return r.text

    def enter(self, faces: str | None, step: str | None = None) -> object:
        step = step if step is not None else step_of(self.pad())
        data = {"csrf": self.csrf, "step": step}
        data.update({"auto": "1"} if faces is None else {"faces": faces})
        return self.client.post(f"/e/{self.eid}/rolls/faces", data=data)

    def cancel(self) -> object:
        return self.client.post(f"/e/{self.eid}/rolls/cancel", data={"csrf": self.csrf})


def saloon_round(table: Table) -> None:
    """Initiative and declarations: Ézéchiel acts first, punching Jack, who blocks."""
    table.command(type="initiative", actor="", faces="5 3 5 8")
    table.command(
        type="declare", actor="billy", kind="weapon_strike", target="ezechiel", weapon="knife"
    )
    table.command(type="declare", actor="sam", delay="1")
    table.command(type="declare", actor="jack", kind="punch", target="ezechiel", then_kind="block")
    table.command(type="declare", actor="ezechiel", kind="punch", target="jack")


# The four rolls of Ézéchiel's punch, in the rules' order: its name and its dice.
ASKED = [
    ("Attaque de Ézéchiel Crowe", 6, "8 9 1 3 7 10"),
    ("Blocage de Jack Malone", 4, "2 3 9 4"),
    ("Dégâts sur Jack Malone", 5, "6 6 2 9 1"),
    ("Encaissement de Jack Malone", 3, "3 8 2"),
]


def walk(table: Table, s: Store, rolls: list[tuple[str, int, str]]) -> None:
    for title, count, faces in rolls:
        pad = table.pad()
        assert title.lower() in text(pad).lower() and count_of(pad) == count, text(pad)
        assert f"0 / {count}" in text(pad)
        assert s.last_seq(table.eid) == 4  # nothing logged before the last roll
        r = table.enter(faces)
        assert r.status_code == 200, text(r.text)  # type: ignore[attr-defined]


def test_each_roll_is_asked_in_turn_and_nothing_is_logged_before_the_last(
    gm: TestClient, lite: Store
) -> None:
    table = Table(gm)
    saloon_round(table)
    r = table.begin(type="act", actor="ezechiel")
    assert r.status_code == 200  # type: ignore[attr-defined]
    assert 'id="rolls"' in r.text  # type: ignore[attr-defined]
    walk(table, lite, ASKED[:3])
    pending = lite.pending(DEMO)
    assert pending is not None and [list(f) for f in pending.rolls] == [
        [8, 9, 1, 3, 7, 10],
        [2, 3, 9, 4],
        [6, 6, 2, 9, 1],
    ]
    r = table.enter(ASKED[3][2])
    assert r.status_code == 200 and "data-pad-form" not in r.text  # type: ignore[attr-defined]
    assert lite.last_seq(DEMO) == 5 and lite.pending(DEMO) is None
    entry = lite.log(DEMO)[-1]
    faces = [r["faces"] for ev in entry["events"] for r in ev.get("rolls", [])]
    assert faces == [[8, 9, 1, 3, 7, 10], [2, 3, 9, 4], [6, 6, 2, 9, 1], [3, 8, 2]]
    panel = gm.get(f"/e/{DEMO}/panel").text
    assert 'data-faces="8 9 1 3 7 10"' in panel
    assert 'class="die die-cancels' in panel and 'class="die die-cancelled' in panel
    assert "🎲" not in panel and "(succès)" in panel  # words for screen readers too


def test_the_program_may_roll_any_single_roll(gm: TestClient, lite: Store) -> None:
    table = Table(gm)
    saloon_round(table)
    table.begin(type="act", actor="ezechiel")
    table.enter("8 9 1 3 7 10")  # a hit of 4 successes; the block is rolled by the program
    assert table.enter(None).status_code == 200  # type: ignore[attr-defined]
    for _ in range(2):  # a blocked blow asks for no damage: fewer rolls
        if lite.pending(DEMO) is None:
            break
        table.enter(None)
    assert lite.pending(DEMO) is None and lite.last_seq(DEMO) == 5
    # The drawn faces are kept as if typed: in the log, so its replay is unchanged.
    entry = lite.log(DEMO)[-1]
    faces = [r["faces"] for ev in entry["events"] for r in ev.get("rolls", [])]
    assert faces[0] == [8, 9, 1, 3, 7, 10] and len(faces[1]) == 4
    assert all(1 <= f <= 10 for roll in faces for f in roll)


def test_a_cancel_in_the_middle_logs_nothing(gm: TestClient, lite: Store) -> None:
    table = Table(gm)
    saloon_round(table)
    table.begin(type="act", actor="ezechiel")
    table.enter("8 9 1 3 7 10")
    r = table.cancel()
    assert r.status_code == 200 and "data-pad-form" not in r.text  # type: ignore[attr-defined]
    assert lite.pending(DEMO) is None and lite.last_seq(DEMO) == 4
    assert table.cancel().status_code == 200  # cancelling nothing is harmless


def test_a_restart_in_the_middle_keeps_the_rolls_and_commits_nothing_half(
    db: tuple[str, str],
) -> None:
    first = open_store(db[0])
    with client_of(first, db[1]) as client:
        table = Table(client)
        saloon_round(table)
        table.begin(type="act", actor="ezechiel")
        walk(table, first, ASKED[:2])
    first.close()  # the server stops
    again = open_store(db[0])
    try:
        with client_of(again, db[1]) as client:
            table = Table(client)
            pad = table.pad()
            assert "dégâts sur jack malone" in text(pad).lower()  # where it was
            assert again.last_seq(DEMO) == 4
            walk(table, again, ASKED[2:3])
            table.enter(ASKED[3][2])
            assert again.last_seq(DEMO) == 5 and again.pending(DEMO) is None
    finally:
        again.close()


def test_a_second_tab_sees_the_same_roll_and_an_old_step_is_refused(
    gm: TestClient, lite: Store
) -> None:
    table = Table(gm)
    saloon_round(table)
    table.begin(type="act", actor="ezechiel")
    step = step_of(table.pad())
    assert table.enter("8 9 1 3 7 10", step).status_code == 200  # type: ignore[attr-defined]
    r = table.enter("8 9 1 3 7 10", step)  # the other tab, showing the old roll
    assert r.status_code == 409 and "déjà été saisi" in r.text  # type: ignore[attr-defined]
    pending = lite.pending(DEMO)
    assert pending is not None and len(pending.rolls) == 1


def test_the_pad_answers_204_while_nothing_changed(gm: TestClient) -> None:
    table = Table(gm)
    saloon_round(table)
    assert gm.get(f"/e/{DEMO}/rolls?v=none").status_code == 204
    table.begin(type="act", actor="ezechiel")
    version = re.search(r'data-version="([^"]+)"', table.pad())
    assert version
    assert gm.get(f"/e/{DEMO}/rolls?v={version.group(1)}").status_code == 204
    table.enter("8 9 1 3 7 10")
    assert gm.get(f"/e/{DEMO}/rolls?v={version.group(1)}").status_code == 200


@pytest.mark.parametrize(
    ("faces", "said"),
    [
        ("8 9 1", "pas assez de dés : 3 sur 6"),
        ("8 9 1 3 7 10 4", "trop de dés : 7 pour 6"),
        ("8 9 1 3 7 11", "« 11 » n'est pas une face d'un d10"),
        ("8 9 x 3 7 1", "« x » n'est pas une face d'un d10"),
        ("", "pas assez de dés : 0 sur 6"),
    ],
)
def test_bad_faces_are_refused_beside_the_pad(
    gm: TestClient, lite: Store, faces: str, said: str
) -> None:
    table = Table(gm)
    saloon_round(table)
    table.begin(type="act", actor="ezechiel")
    r = table.enter(faces)
    assert r.status_code == 422 and said in r.text.replace("&#39;", "'")  # type: ignore[attr-defined]
    assert "data-pad-form" in r.text  # type: ignore[attr-defined]
    pending = lite.pending(DEMO)
    assert pending is not None and pending.rolls == () and lite.last_seq(DEMO) == 4


def test_a_zero_reads_ten_on_a_d10(gm: TestClient, lite: Store) -> None:
    table = Table(gm)
    saloon_round(table)
    table.begin(type="act", actor="ezechiel")
    assert table.enter("0 9 1 3 7 0").status_code == 200  # type: ignore[attr-defined]
    pending = lite.pending(DEMO)
    assert pending is not None and list(pending.rolls[0]) == [10, 9, 1, 3, 7, 10]


def test_refusals_without_a_waiting_action(gm: TestClient, lite: Store) -> None:
    table = Table(gm)
    r = table.enter("1", step="0")
    assert r.status_code == 422 and "Aucune action n'attend" in r.text.replace("&#39;", "'")  # type: ignore[attr-defined]
    r = gm.post(f"/e/{DEMO}/rolls/faces", data={"csrf": table.csrf, "faces": "1"})
    assert r.status_code == 400  # no step
    r = gm.post(f"/e/{DEMO}/rolls/faces", data={"csrf": "0" * 64, "step": "0", "faces": "1"})
    assert r.status_code == 403
    r = table.begin(type="act", actor="ezechiel")  # not legal before the initiative
    assert r.status_code == 422 and lite.pending(DEMO) is None  # type: ignore[attr-defined]
    assert gm.get("/e/999/rolls").status_code == 404


def test_a_second_action_waits_for_the_first(gm: TestClient, lite: Store) -> None:
    table = Table(gm)
    saloon_round(table)
    table.begin(type="act", actor="ezechiel")
    r = table.begin(type="act", actor="ezechiel")
    assert r.status_code == 422 and "attend déjà" in r.text  # type: ignore[attr-defined]


def test_a_command_that_lands_first_invalidates_the_waiting_action(
    gm: TestClient, lite: Store
) -> None:
    table = Table(gm)
    saloon_round(table)
    table.begin(type="act", actor="ezechiel")
    table.enter("8 9 1 3 7 10")
    table.command(type="gm_note", actor="", reason="la porte claque")
    pending = lite.pending(DEMO)
    assert pending is not None and pending.stale
    pad = table.pad()
    assert "Une autre commande est passée avant" in pad and "data-pad-form" not in pad
    r = table.enter("2 3 9 4", step=str(pending.step))
    assert r.status_code == 409 and lite.pending(DEMO) is None  # type: ignore[attr-defined]
    assert lite.last_seq(DEMO) == 5  # the note only


def test_an_initiative_is_asked_per_combatant(gm: TestClient, lite: Store) -> None:
    table = Table(gm)
    table.begin(type="initiative", actor="")
    seen, pads = [], []
    for face in ["5", "3", "5", "8"]:
        pad = table.pad()
        assert count_of(pad) == 1
        seen.append(text(pad))
        pads.append(pad)
        table.enter(face)
    assert lite.pending(DEMO) is None and lite.last_seq(DEMO) == 0
    assert len(seen) == 4
    # the initiative is the Storyteller's command: « Action du Conteur », not « de Conteur »
    assert [re.findall(r"</span> · ([^<·]+?)\s*</p>", pad) for pad in pads] == [
        ["Action du Conteur"]
    ] * 4


# ------------------------------------------------------------------ players


def player_token(s: Store, name: str) -> str:
    return next(c.token for c in s.list_characters(DEMO) if c.name == name)


def test_a_players_roll_is_asked_on_their_phone(gm: TestClient, lite: Store) -> None:
    table = Table(gm)
    saloon_round(table)
    table.begin(type="act", actor="ezechiel")
    table.enter("8 9 1 3 7 10")  # Ézéchiel's attack; now Jack's block
    jack, billy = player_token(lite, "Jack Malone"), player_token(lite, "Billy Harper")
    assert "en attente : blocage de Jack Malone" in text(table.pad())
    with TestClient(create_app(lite)) as phone:
        pad = phone.get(f"/p/{jack}/rolls").text
        assert "Blocage de Jack Malone" in text(pad) and count_of(pad) == 4
        assert 'data-pad="cancel"' not in pad  # a player cannot cancel the GM's action
        other = phone.get(f"/p/{billy}/rolls").text
        assert "data-pad-form" not in other  # not Billy's roll
        csrf = csrf_of(phone.get(f"/p/{jack}").text)
        r = phone.post(
            f"/p/{billy}/rolls/faces",
            data={
                "csrf": csrf_of(phone.get(f"/p/{billy}").text),
                "step": step_of(pad),
                "faces": "2 3 9 4",
            },
        )
        assert r.status_code == 422 and "pas le vôtre" in r.text
        r = phone.post(
            f"/p/{jack}/rolls/faces", data={"csrf": csrf, "step": step_of(pad), "faces": "2 3 9 4"}
        )
        assert r.status_code == 200, r.text
        assert "data-pad-form" not in r.text  # the damage is Ézéchiel's: not on Jack's phone
    pending = lite.pending(DEMO)
    assert pending is not None and list(pending.rolls[1]) == [2, 3, 9, 4]


def test_without_player_input_no_roll_reaches_a_phone(gm: TestClient, lite: Store) -> None:
    lite.update_campaign(DEMO, settings={"player_input": False})
    table = Table(gm)
    saloon_round(table)
    table.begin(type="act", actor="ezechiel")
    table.enter("8 9 1 3 7 10")
    assert "en attente" not in text(table.pad())
    jack = player_token(lite, "Jack Malone")
    with TestClient(create_app(lite)) as phone:
        assert "data-pad-form" not in phone.get(f"/p/{jack}/rolls").text


def test_an_npcs_roll_never_reaches_a_player(gm: TestClient, lite: Store) -> None:
    sam = next(c for c in demo_data()["combatants"] if c["id"] == "sam")
    jack = next(c for c in lite.list_characters(DEMO) if c.name == "Jack Malone")
    info = lite.start_encounter(
        DEMO,
        "Arrière-salle",
        [Participant(jack.id, side="cow-boys", position=(0, 0), combatant_id="jack")],
        npcs=[sam],
    )
    table = Table(gm, info.id)
    table.command(type="initiative", actor="", faces="3 9")  # Jack 9, Sam 13
    table.command(type="declare", actor="jack", kind="punch", target="sam")
    table.command(type="declare", actor="sam", kind="weapon_strike", target="jack", weapon="club")
    table.begin(type="act", actor="sam")
    gm_pad = text(table.pad())
    assert "attaque de sam" in gm_pad.lower() and "en attente" not in gm_pad
    with TestClient(create_app(lite)) as phone:
        assert "data-pad-form" not in phone.get(f"/p/{jack.token}/rolls").text
        page = phone.get(f"/p/{jack.token}").text + phone.get(f"/p/{jack.token}/panel").text
        assert "Attaque de Sam" not in page and "data-pad-form" not in page
        with phone.stream("GET", f"/p/{jack.token}/stream?since=-1&limit=1") as r:
            raw = "".join(r.iter_text())
        data = json.loads(raw.split("data: ", 1)[1].split("\n", 1)[0])
        assert "Attaque de Sam" not in json.dumps(data, ensure_ascii=False)
        assert "data-pad-form" not in data["panel"]


def test_the_flow_on_postgresql(pg_cluster, demo_db: tuple[Path, str]) -> None:  # type: ignore[no-untyped-def]
    from conteur.web.demo import load_demo

    s = open_store(pg_cluster.new_database())
    try:
        load_demo(s)
        s.set_gm_password(GM_PASSWORD)
        token = s.new_gm_token()
        with client_of(s, token) as client:
            table = Table(client)
            saloon_round(table)
            table.begin(type="act", actor="ezechiel")
            walk(table, s, ASKED[:3])
            table.enter(ASKED[3][2])
            assert s.last_seq(DEMO) == 5 and s.pending(DEMO) is None
    finally:
        s.close()


# ------------------------------------------------------------ the pad on the live stream


def stream_events(client: TestClient, path: str, limit: int) -> list[tuple[str, str]]:
    """The first ``limit`` updates and pad events of a live stream: (event, decoded data)."""
    with client.stream("GET", f"{path}&limit={limit}") as r:
        raw = "".join(r.iter_text())
    out = []
    for block in raw.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "event" in fields:
            out.append((fields["event"], json.loads(fields["data"])))
    return out


def test_the_pad_rides_the_live_stream(gm: TestClient, lite: Store) -> None:
    """With ``pad=1`` a page's stream brings its pad (a ``rolls`` event) when it opens and
    whenever the roll asked changes — the GM's every roll, a player's only their own — and
    no ``id:`` of its own (a reconnection's Last-Event-ID stays the log's seq)."""
    table = Table(gm)
    saloon_round(table)
    seq = lite.last_seq(DEMO)
    jack, billy = player_token(lite, "Jack Malone"), player_token(lite, "Billy Harper")
    first = stream_events(gm, f"/e/{DEMO}/stream?since={seq}&pad=1", 1)
    assert first[0][0] == "rolls" and 'data-version="none"' in first[0][1]
    assert "data-pad-form" not in first[0][1]
    table.begin(type="act", actor="ezechiel")
    [(kind, box)] = stream_events(gm, f"/e/{DEMO}/stream?since={seq}&pad=1", 1)
    assert kind == "rolls" and "Attaque de Ézéchiel Crowe" in text(box) and count_of(box) == 6
    table.enter("8 9 1 3 7 10")
    with TestClient(create_app(lite)) as phone:
        [(kind, mine)] = stream_events(phone, f"/p/{jack}/stream?since={seq}&pad=1", 1)
        assert kind == "rolls" and "Blocage de Jack Malone" in text(mine) and count_of(mine) == 4
        csrf = csrf_of(phone.get(f"/p/{jack}").text)
        assert f'data-csrf="{csrf}"' in mine  # this phone's own CSRF token, to send it
        [(kind, other)] = stream_events(phone, f"/p/{billy}/stream?since={seq}&pad=1", 1)
        assert kind == "rolls" and "data-pad-form" not in other and "Jack" not in text(other)
        with phone.stream("GET", f"/p/{jack}/stream?since=-1&pad=1&limit=2") as r:
            raw = "".join(r.iter_text())
    blocks = [b for b in raw.split("\n\n") if "event:" in b]
    assert [b.split("event: ")[1].split("\n")[0] for b in blocks] == ["update", "rolls"]
    assert blocks[0].startswith(f"id: {seq}\n") and "id:" not in blocks[1]
    # Without ``pad`` (another client of the stream), no pad news.
    assert [k for k, _ in stream_events(gm, f"/e/{DEMO}/stream?since=-1", 1)] == ["update"]


@pytest.mark.parametrize("hidden", [False, True])
def test_a_hidden_ones_action_keeps_its_rolls_off_the_phones(
    gm: TestClient, lite: Store, hidden: bool
) -> None:
    """``RollAsk.hidden``: while Sam is hidden, the rolls of his attack — Jack's soak too,
    which would be asked on Jack's phone otherwise — stay on the GM's screen."""
    sam = next(c for c in demo_data()["combatants"] if c["id"] == "sam")
    jack = next(c for c in lite.list_characters(DEMO) if c.name == "Jack Malone")
    info = lite.start_encounter(
        DEMO,
        "Arrière-salle",
        [Participant(jack.id, side="cow-boys", position=(0, 0), combatant_id="jack")],
        npcs=[{**sam, "hidden": True} if hidden else sam],
    )
    table = Table(gm, info.id)
    table.command(type="initiative", actor="", faces="3 9")  # Jack 9, Sam 13
    table.command(type="declare", actor="jack", delay="1")
    table.command(type="declare", actor="sam", kind="weapon_strike", target="jack", weapon="club")
    table.begin(type="act", actor="sam")
    for _ in range(2):  # Sam's attack and his damage: every die a success
        table.enter(" ".join(["9"] * count_of(table.pad())))
    gm_pad = text(table.pad())
    assert "encaissement de jack malone" in gm_pad.lower(), gm_pad
    assert ("en attente" in gm_pad) is not hidden
    with TestClient(create_app(lite)) as phone:
        pad = phone.get(f"/p/{jack.token}/rolls").text
        assert ("data-pad-form" in pad) is not hidden
        data = {"csrf": csrf_of(phone.get(f"/p/{jack.token}").text), "step": step_of(table.pad())}
        r = phone.post(f"/p/{jack.token}/rolls/faces", data={**data, "faces": "1 1 1"})
    if hidden:
        assert r.status_code == 422 and "pas le vôtre" in r.text
        assert table.enter(None).status_code == 200  # type: ignore[attr-defined]
    else:
        assert r.status_code == 200, r.text
    assert lite.pending(info.id) is None and lite.last_seq(info.id) == 3  # committed


def test_the_table_and_the_phones_follow_a_new_fight(gm: TestClient, lite: Store) -> None:
    """A table's screen and a player's page that show another fight than the campaign's
    (the GM opened a new one, or closed theirs) are told ``moved`` by their stream."""
    table_token = lite.table_token(DEMO)
    jack = next(c for c in lite.list_characters(DEMO) if c.name == "Jack Malone")
    with TestClient(create_app(lite)) as screen:
        page = screen.get(f"/t/{table_token}").text
        assert f"/t/{table_token}/stream?since=-1&amp;e={DEMO}" in page
        newer = lite.start_encounter(
            DEMO, "Arrière-salle", [Participant(jack.id, combatant_id="jack")]
        )
        for path in (f"/t/{table_token}/stream?e={DEMO}", f"/p/{jack.token}/stream?e={DEMO}"):
            assert screen.get(path).text.endswith("event: moved\ndata: {}\n\n"), path
        assert f"e={newer.id}" in screen.get(f"/t/{table_token}").text
        assert f"e={newer.id}" in screen.get(f"/p/{jack.token}").text
