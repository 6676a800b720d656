"""The tracker's edges, probed as an attacker would (issue 18): reconnecting streams with a
malformed ``Last-Event-ID``, the login form and where it leads, slowed-down login attempts,
user text that looks like a page slot, and an undo from a stale tab."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from conteur.store import Store, open_store
from conteur.web import create_app

from .conftest import GM_PASSWORD, csrf_of
from .test_api import DEMO, HX, gm_csrf, initiative, log_len, token_of


def first_update(text: str) -> dict[str, object]:
    data: dict[str, object] = json.loads(text.split("data: ", 1)[1].split("\n", 1)[0])
    return data


@pytest.fixture
def lone(tmp_path: Path, demo_db: tuple[Path, str]) -> Iterator[tuple[FastAPI, TestClient, str]]:
    """The demo on SQLite only, for the timed tests (the delays are the app's, not the store's):
    the app, a client without a session, the GM's token."""
    shutil.copyfile(demo_db[0], tmp_path / "lone.db")
    store = open_store(f"sqlite:///{tmp_path / 'lone.db'}")
    app = create_app(store)
    with TestClient(app) as client:
        yield app, client, demo_db[1]
    store.close()


# ------------------------------------------------------------------ Last-Event-ID


BAD_EVENT_IDS = ["--5", "abc", "-", "", " ", "1.5", "0x1", "²", "١", "9" * 30, "9" * 5000, "-7"]


def test_a_malformed_last_event_id_starts_from_the_beginning(
    gm: TestClient, stranger: TestClient, store: Store
) -> None:
    initiative(gm, gm_csrf(gm))
    player = token_of(store, "Jack Malone")
    for last_id in BAD_EVENT_IDS:
        headers = {"Last-Event-ID": last_id.encode()}  # bytes: non-ASCII too
        for client, path in ((gm, f"/e/{DEMO}/stream"), (stranger, f"/p/{player}/stream")):
            with client.stream("GET", f"{path}?limit=1", headers=headers) as r:
                assert r.status_code == 200, last_id
                text = "".join(r.iter_text())
            assert "id: 0\n" in text and first_update(text)["seq"] == 0, last_id


def test_a_well_formed_last_event_id_still_resumes(gm: TestClient, store: Store) -> None:
    csrf = gm_csrf(gm)
    initiative(gm, csrf)
    gm.post(
        f"/e/{DEMO}/command",
        data={"csrf": csrf, "type": "declare", "actor": "billy", "kind": "dodge"},
        headers=HX,
    )
    with gm.stream("GET", f"/e/{DEMO}/stream?limit=1", headers={"Last-Event-ID": " 0 "}) as r:
        text = "".join(r.iter_text())
    data = first_update(text)
    assert data["seq"] == 1 and [e["seq"] for e in data["entries"]] == [1]  # type: ignore[attr-defined]


# ------------------------------------------------------------------ the login form


def test_the_login_form_posts_the_secret(lone: tuple[FastAPI, TestClient, str]) -> None:
    _, stranger, gm_token = lone
    page = stranger.get(f"/e/{DEMO}?x=1&token=wrong").text
    form = page.split('data-form="login"', 1)[0].rsplit("<form", 1)[1]
    assert 'method="post"' in form and 'action="/login"' in form and "get" not in form.lower()
    assert 'name="next" value="/e/1?x=1"' in page  # the page asked, without the token
    page = stranger.post(f"/e/{DEMO}/command", data={"type": "initiative"}).text
    assert 'name="next" value="/"' in page  # a form sent without a session: home after
    r = stranger.post(
        "/login", data={"token": gm_token, "next": "/e/1?x=1"}, follow_redirects=False
    )
    assert r.status_code == 303 and r.headers["location"] == "/e/1?x=1"
    assert gm_token not in r.headers["location"] and "HttpOnly" in r.headers["set-cookie"]
    assert stranger.get(f"/e/{DEMO}").status_code == 200


def test_a_wrong_secret_posted_opens_nothing(lone: tuple[FastAPI, TestClient, str]) -> None:
    stranger = lone[1]
    r = stranger.post("/login", data={"token": "not-it", "next": "/"}, follow_redirects=False)
    assert r.status_code == 401 and "ouvre pas l" in r.text and 'data-form="login"' in r.text
    assert "conteur_gm" not in r.headers.get("set-cookie", "")
    for data in ({}, {"token": ""}, {"token": "x" * 5000}):
        assert stranger.post("/login", data=data).status_code == 401
    assert (
        stranger.post(
            "/login", content=b"\xff\x00", headers={"content-type": "multipart/form-data"}
        ).status_code
        == 400
    )
    assert stranger.get("/").status_code == 401


ELSEWHERE = [
    "//elsewhere.example",
    "//elsewhere.example/e/1",
    "/\\elsewhere.example",
    "/\\/elsewhere.example",
    "/\t/elsewhere.example",
    "/\n/elsewhere.example",
    "https://elsewhere.example/",
    "javascript:alert(1)",
    "elsewhere.example",
    "",
]


@pytest.mark.parametrize("target", ELSEWHERE)
def test_the_login_leads_to_local_paths_only(
    lone: tuple[FastAPI, TestClient, str], target: str
) -> None:
    _, stranger, gm_token = lone
    r = stranger.post("/login", data={"token": gm_token, "next": target}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/"
    r = stranger.get(f"/lang/en?next={quote(target)}", follow_redirects=False)
    assert r.headers["location"] == "/"


@pytest.mark.parametrize(
    "path",
    [
        "//elsewhere.example",
        "/%2F%2Felsewhere.example",
        "/%5Celsewhere.example",
        "/%09/elsewhere.example",
    ],
)
def test_the_token_link_leads_to_local_paths_only(
    lone: tuple[FastAPI, TestClient, str], path: str
) -> None:
    _, stranger, gm_token = lone
    r = stranger.get(f"http://testserver{path}?token={gm_token}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/"


def test_the_token_never_stays_in_the_url(lone: tuple[FastAPI, TestClient, str]) -> None:
    app, stranger, gm_token = lone
    r = stranger.post(
        "/login",
        data={"token": gm_token, "next": f"/e/1?token={gm_token}&a=b"},
        follow_redirects=False,
    )
    assert r.headers["location"] == "/e/1?a=b"
    fresh = app.state.store.new_gm_token()  # the first one is used up
    r = stranger.get(f"/c/1?token={fresh}&token=again", follow_redirects=False)
    assert r.headers["location"] == "/c/1"


# ------------------------------------------------------------------ slowed-down logins


def timed_login(client: TestClient, token: str) -> tuple[int, float]:
    start = time.monotonic()
    r = client.post("/login", data={"token": token, "next": "/"}, follow_redirects=False)
    return r.status_code, time.monotonic() - start


def test_failed_logins_wait_longer_and_longer(lone: tuple[FastAPI, TestClient, str]) -> None:
    app, client, gm_token = lone
    throttle = app.state.throttle
    throttle.base, throttle.cap = 0.1, 0.4
    times = [timed_login(client, "junk") for _ in range(6)]
    assert [status for status, _ in times] == [401] * 6
    waits = [t for _, t in times]
    for n, wait in enumerate(waits[1:], start=1):  # after the first: 0.1, 0.2, 0.4, 0.4, 0.4 s
        assert wait >= min(0.1 * 2 ** (n - 1), 0.4) - 0.01, waits
    # capped (not doubled again): the wait beyond the checks' own cost (the first attempt's
    # time: three scrypt checks, the password and the latest two tokens) stays under 0.8 s
    assert waits[5] - waits[0] < 0.8, waits
    assert throttle.failures("testclient") == 6
    # The right secret, once the delay has passed, opens a session; failures are forgotten.
    status, wait = timed_login(client, gm_token)
    assert status == 303 and wait >= 0.39
    assert client.get("/").status_code == 200
    assert throttle.failures("testclient") == 0 and throttle.delay(0) == 0


def test_a_waiting_login_blocks_nobody_else(
    lone: tuple[FastAPI, TestClient, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    app, client, gm_token = lone
    store = app.state.store
    assert client.get(f"/?token={gm_token}").status_code == 200  # the GM's session
    throttle = app.state.throttle
    throttle.base, throttle.cap = 1.5, 1.5
    checks: list[bool] = []
    check = store.gm_login

    def spy(secret: str) -> str | None:
        try:  # the scrypt check runs in a worker thread, not on the event loop
            asyncio.get_running_loop()
            checks.append(False)
        except RuntimeError:
            checks.append(True)
        return check(secret)

    monkeypatch.setattr(store, "gm_login", spy)
    assert timed_login(client, "junk")[0] == 401  # the next attempt waits 1.5 s
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        waiting = pool.submit(timed_login, client, "junk")
        time.sleep(0.1)
        start = time.monotonic()
        r = client.get(f"/e/{DEMO}/panel")  # the GM's page meanwhile, on the same event loop
        assert r.status_code == 200 and time.monotonic() - start < 1.0
        assert not waiting.done()
        # Another attempt now would wait longer than the cap: refused at once, unchecked.
        r = client.post("/login", data={"token": gm_token, "next": "/"})
        assert r.status_code == 429 and "patientez" in r.text
        assert not waiting.done()
        status, wait = waiting.result()
        assert status == 401 and wait >= 1.4
    assert checks == [True, True]


def test_the_link_login_is_slowed_down_too(lone: tuple[FastAPI, TestClient, str]) -> None:
    app, client, gm_token = lone
    throttle = app.state.throttle
    throttle.base, throttle.cap = 0.3, 0.3
    assert client.get("/?token=junk").status_code == 401
    start = time.monotonic()
    r = client.get(f"/?token={gm_token}", follow_redirects=False)
    assert r.status_code == 303 and time.monotonic() - start >= 0.29
    client.cookies.clear()
    throttle.base, throttle.cap = 1.0, 1.0
    assert client.get("/?token=junk").status_code == 401
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        waiting = pool.submit(client.get, "/c/1?token=junk")
        time.sleep(0.1)
        r = client.get("/e/1?token=junk")  # a queue longer than the cap: refused at once
        assert r.status_code == 429 and "patientez" in r.text and 'lang="fr"' in r.text
        assert waiting.result().status_code == 401


# ------------------------------------------------------------------ user text and page slots

TRAPS = ["@@token@@ x", "@@csrf@@ y", "<@token@> z", "<@csrf@> w"]
"""Names and notes that look like a page's slots (the old ones, and the current ones)."""


def sheet(name: str) -> str:
    return f"nom: {json.dumps(name)}\ntype: mortel\nDextérité: 3\nBagarre: 2\nVolonté: 3\n"


def test_user_text_never_fills_a_slot(gm: TestClient, stranger: TestClient, store: Store) -> None:
    csrf = csrf_of(gm.get(f"/c/{DEMO}").text)
    for name in TRAPS:
        r = gm.post(
            f"/c/{DEMO}/characters", data={"csrf": csrf, "format": "yaml", "text": sheet(name)}
        )
        assert r.status_code == 200, r.text
    chars = {c.name: c for c in store.list_characters(DEMO)}
    chosen = [chars[n] for n in [*TRAPS, "Jack Malone"]]
    r = gm.post(
        f"/c/{DEMO}/encounters",
        data={"csrf": csrf, "name": "@@token@@ piège", "characters": [str(c.id) for c in chosen]},
        follow_redirects=False,
    )
    assert r.status_code == 303
    eid = int(r.headers["location"].rsplit("/", 1)[1])
    page = gm.get(f"/e/{eid}").text
    csrf = csrf_of(page)
    r = gm.post(
        f"/e/{eid}/command",
        data={"csrf": csrf, "type": "gm_note", "actor": "", "reason": " | ".join(TRAPS)},
        headers=HX,
    )
    assert r.status_code == 200, r.text
    r = gm.post(
        f"/e/{eid}/command", data={"csrf": csrf, "type": "initiative", "actor": ""}, headers=HX
    )
    assert r.status_code == 200, r.text
    jack = chars["Jack Malone"].token
    player_page = stranger.get(f"/p/{jack}").text
    player_csrf = player_page.split('"X-CSRF-Token": "', 1)[1].split('"', 1)[0]
    with stranger.stream("GET", f"/p/{jack}/stream?limit=1") as s:
        streamed = first_update("".join(s.iter_text()))
    views = {
        "GM page": (gm.get(f"/e/{eid}").text, csrf, ""),
        "GM panel": (r.text, csrf, ""),
        "player page": (player_page, player_csrf, jack),
        "player stream": (str(streamed["panel"]), player_csrf, jack),
        "player log": (str(streamed["log"]), player_csrf, jack),
    }
    for view, (html, own_csrf, token) in views.items():
        html = html.replace("\\u00e8", "è")
        for trap in TRAPS:  # shown as typed (HTML-escaped), never as the viewer's secrets
            shown = trap.replace("<", "&lt;").replace(">", "&gt;")
            assert shown in html, (view, trap)
            tail = trap.split(" ", 1)[1]
            assert f"{own_csrf} {tail}" not in html, (view, trap)
            if token:
                assert f"{token} {tail}" not in html, (view, trap)
        assert "<@" not in html, view  # every slot filled
    assert "<h1>@@token@@ piège</h1>" in views["GM page"][0]


# ------------------------------------------------------------------ undo from a stale tab


def seq_of(html: str) -> str:
    match = re.search(
        r'data-form="undo">\s*<input type="hidden" name="csrf" value="[0-9a-f]+">\s*<input type="hidden" name="seq" value="(-?\d+)">',
        html,
    )
    assert match, "no undo form with the page's seq"
    return match.group(1)


def test_an_undo_from_a_stale_tab_is_refused(
    app: FastAPI, gm: TestClient, store: Store, gm_token: str
) -> None:
    with TestClient(app) as other:  # a second GM tab (another window, another device)
        r = other.post("/login", data={"token": GM_PASSWORD, "next": "/"})  # the password
        assert r.status_code == 200
        csrf = gm_csrf(gm)
        initiative(gm, csrf)
        first, second = gm.get(f"/e/{DEMO}").text, other.get(f"/e/{DEMO}").text
        assert seq_of(first) == seq_of(second) == "0"
        # The first tab acts; the second, not refreshed yet, still shows seq 0.
        r = gm.post(
            f"/e/{DEMO}/command",
            data={"csrf": csrf, "type": "declare", "actor": "billy", "kind": "dodge"},
            headers=HX,
        )
        assert r.status_code == 200 and log_len(store) == 2
        other_csrf = csrf_of(second)
        r = other.post(f"/e/{DEMO}/undo", data={"csrf": other_csrf, "seq": "0"}, headers=HX)
        assert r.status_code == 409 and "agi entre-temps" in r.text.replace("&#39;", "'")
        assert 'id="panel" data-seq="1"' in r.text and seq_of(r.text) == "1"  # the fresh state
        assert log_len(store) == 2  # nothing undone
        r = other.post(  # the same through a typed line
            f"/e/{DEMO}/script",
            data={"csrf": other_csrf, "line": "annuler", "seq": "0"},
            headers=HX,
        )
        assert r.status_code == 409 and log_len(store) == 2
        # No seq, or a malformed one: refused too; the fresh seq undoes Billy's dodge.
        for bad in ({}, {"seq": ""}, {"seq": "--1"}, {"seq": "9" * 40}):
            r = other.post(f"/e/{DEMO}/undo", data={"csrf": other_csrf, **bad}, headers=HX)
            assert r.status_code == 422 and log_len(store) == 2
        r = other.post(f"/e/{DEMO}/undo", data={"csrf": other_csrf, "seq": "1"}, headers=HX)
        assert r.status_code == 200 and log_len(store) == 3
        assert store.encounter(DEMO).log[-1].to_dict()["kind"] == "undo"
        # The first tab's page is stale now in turn (its live stream would have caught up).
        r = gm.post(f"/e/{DEMO}/undo", data={"csrf": csrf, "seq": "1"}, headers=HX)
        assert r.status_code == 409 and log_len(store) == 3
    gm.get("/lang/en")
    r = gm.post(f"/e/{DEMO}/undo", data={"csrf": csrf, "seq": "1"}, headers=HX)
    assert r.status_code == 409 and "Someone acted in the meantime" in r.text
