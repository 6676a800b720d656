"""What each reader of the tracker may see: the game master everything; a player's page, its
panel, its live stream and its odds only what ``Viewer.sees`` allows, and the veiled line of
the rest — whatever the ruleset decides is whose.

The ruleset's own policy is not what is tested here: ``policy`` (``tests/veiled_policy.py``)
stamps a GM's note as the GM's and an attack roll as its attacker's (an NPC's: nobody's at
the table), so that the readers' side of the seam is checked by itself.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

import veiled_policy
from conteur.engine.visibility import GM
from conteur.store import Participant, Store
from conteur.web.demo import demo_data
from conteur.web.panels import table_viewer

from .conftest import csrf_of

HX = {"hx-request": "true"}
MARKER = "MARQUEUR-SECRET-7Q"
ATTACK_FACES = "9 8 7 6 9"
POOL = "5 dés à difficulté 6"
VEILED = "Sam le barman attaque Jack Malone"


@pytest.fixture
def policy(monkeypatch: pytest.MonkeyPatch) -> None:
    """GM notes are the GM's; an attack roll is its attacker's, veiled as « X attaque Y »."""
    veiled_policy.install(monkeypatch)


def back_room(store: Store) -> int:
    """Jack (a player's character) against Sam, an NPC given inline: nobody's at the table."""
    sam = next(c for c in demo_data()["combatants"] if c["id"] == "sam")
    jack = next(c for c in store.list_characters(1) if c.name == "Jack Malone")
    info = store.start_encounter(
        1,
        "Arrière-salle",
        [Participant(jack.id, side="cow-boys", position=(0, 0), combatant_id="jack")],
        npcs=[sam],
    )
    assert info.characters == {"jack": jack.id}
    return info.id


def play(gm: TestClient, eid: int, lines: list[tuple[str, str]]) -> None:
    csrf = csrf_of(gm.get(f"/e/{eid}").text)
    for line, faces in lines:
        seq = str(page_seq(gm, eid))  # the seq the page shows: an undo names it
        r = gm.post(
            f"/e/{eid}/script",
            data={"csrf": csrf, "line": line, "faces": faces, "seq": seq},
            headers=HX,
        )
        assert r.status_code == 200, r.text


def page_seq(gm: TestClient, eid: int) -> int:
    """The last seq the GM's panel shows (-1 before the first command)."""
    found = re.search(r'data-seq="(-?\d+)"', gm.get(f"/e/{eid}/panel").text)
    assert found is not None
    return int(found.group(1))


FIGHT = [
    ("initiative", "3 9"),  # Jack 9, Sam 13
    (f"mj: note {MARKER}", ""),
    ("jack: déclare coup de poing sur sam", ""),
    ("sam: déclare coup de gourdin sur jack", ""),
    ("sam: agit", f"{ATTACK_FACES}  6 7 2 3 8 1 4 2 2  7 2 3"),
]


def stream_text(client: TestClient, path: str) -> str:
    """The live stream's first update, its JSON decoded (``é`` is ``\\u00e9`` on the wire)."""
    with client.stream("GET", f"{path}?since=-1&limit=1") as r:
        assert r.status_code == 200
        raw = "".join(r.iter_text())
    data = json.loads(raw.split("data: ", 1)[1].split("\n", 1)[0])
    return raw + json.dumps(data, ensure_ascii=False)


def assert_veiled(text: str) -> None:
    assert MARKER not in text
    assert POOL not in text and f'data-faces="{ATTACK_FACES}"' not in text
    assert ATTACK_FACES not in text


def test_a_player_never_reads_the_gms_note_nor_an_npcs_roll(
    policy: None, gm: TestClient, stranger: TestClient, store: Store
) -> None:
    eid = back_room(store)
    token = next(c.token for c in store.list_characters(1) if c.name == "Jack Malone")
    stranger.get(f"/p/{token}")  # the players' caches first: they must not leak later
    play(gm, eid, FIGHT)

    page = stranger.get(f"/p/{token}").text
    gm_page = gm.get(f"/e/{eid}").text
    again = stranger.get(f"/p/{token}").text  # after the GM's snapshot of the same state
    panel = stranger.get(f"/p/{token}/panel").text
    stream = stream_text(stranger, f"/p/{token}/stream")
    for text in (page, again, panel, stream):
        assert_veiled(text)
    for text in (page, panel):
        assert VEILED in text  # the veiled line instead of the roll
        assert "Dégâts sur Jack Malone" in text  # the rest of the attack is the table's
        assert 'Sam le barman — <span data-status="unhurt">indemne</span>' in text
        assert VEILED + " (" not in text
    update = json.loads(stream.split("data: ", 1)[1].split("\n", 1)[0])
    assert any(VEILED in line for e in update["entries"] for line in e["lines"])
    # The note's command: no entry at all, and no gap in the numbers where it was.
    assert [e["seq"] for e in update["entries"]] == [0, 1, 2, 3]
    assert update["seq"] == 3 and "id: 3\n" in stream

    # The game master reads everything, the live stream too.
    assert MARKER in gm_page and POOL in gm_page and f'data-faces="{ATTACK_FACES}"' in gm_page
    assert VEILED + " (" in gm_page  # the roll's own line, not the veiled one
    gm_stream = stream_text(gm, f"/e/{eid}/stream")
    assert MARKER in gm_stream and POOL in gm_stream


def test_the_undo_of_a_hidden_note_is_not_the_players_either(
    policy: None, gm: TestClient, stranger: TestClient, store: Store
) -> None:
    eid = back_room(store)
    token = next(c.token for c in store.list_characters(1) if c.name == "Jack Malone")
    play(gm, eid, [("initiative", "3 9"), (f"mj: note {MARKER}", ""), ("annuler", "")])
    page = stranger.get(f"/p/{token}").text
    assert MARKER not in page and "undo-line" not in page and 'data-seq="1"' not in page
    assert 'data-seq="0"' in page  # the initiative is everyone's
    gm_page = gm.get(f"/e/{eid}").text
    assert MARKER in gm_page and "undo-line" in gm_page


def test_a_players_roster_carries_no_npcs_exact_health(
    policy: None, app: Any, gm: TestClient, store: Store
) -> None:
    """Not hidden by the template: the players' snapshot has no full row but their own."""
    eid = back_room(store)
    play(gm, eid, FIGHT)
    info = store.get_encounter(eid)
    snap = app.state.panels.snapshot(eid, "fr", viewer=table_viewer(info, "jack"))
    assert [r.id for r in snap.roster.rows] == ["jack"]
    assert [(p.id, p.status) for p in snap.roster.public] == [
        ("jack", "wounded"),
        ("sam", "unhurt"),
    ]
    assert set(snap.kinds) <= {"jack"}
    full = app.state.panels.snapshot(eid, "fr", viewer=GM)
    assert [r.id for r in full.roster.rows] == ["jack", "sam"]


def test_a_players_odds_price_their_own_attack_only(
    policy: None, gm: TestClient, stranger: TestClient, store: Store
) -> None:
    eid = back_room(store)
    play(gm, eid, FIGHT[:1])
    token = next(c.token for c in store.list_characters(1) if c.name == "Jack Malone")
    r = stranger.get(f"/p/{token}/odds", params={"target": "sam", "attacker": "sam"})
    assert r.status_code == 200 and "Jack Malone → Sam le barman" in r.text
    assert stranger.get(f"/p/{token}/odds", params={"target": "jack"}).status_code == 400
    page = stranger.get(f"/p/{token}").text
    assert 'name="attacker"' not in page
