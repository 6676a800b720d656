"""Joining and logging in (issue 15 item 7), at the API: the password chosen at the first
visit, the single-use start token, stored sessions that survive a restart and can be
revoked, slowed-down logins that never lock the game master out, the players' QR codes
carrying the local network's address, and what ``conteur serve`` prints."""

from __future__ import annotations

import concurrent.futures
import html as html_lib
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from conteur.store import Store, open_store
from conteur.web import create_app
from conteur.web.demo import load_demo
from conteur.web.hosting import Hosting, is_loopback, join_base, lan_address
from conteur.web.qr import qr_code, qr_svg
from conteur.web.sessions import CACHE_SECONDS, describe_agent

from .conftest import GM_PASSWORD, csrf_of

NNBSP = "\u202f"


@pytest.fixture
def first_start(tmp_path: Path) -> Iterator[tuple[Store, str]]:
    """A first start: the demo, no password yet, the token ``conteur serve`` would print."""
    store = open_store(f"sqlite:///{tmp_path / 'first.db'}")
    load_demo(store)
    yield store, store.new_gm_token()
    store.close()


def message_of(html: str) -> str:
    found = re.search(r'class="message error" role="alert"[^>]*>([^<]*)<', html)
    assert found, html[:2000]
    return html_lib.unescape(found.group(1))


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_first_visit_asks_for_a_password_then_logs_in_with_it(
    first_start: tuple[Store, str], lang: str
) -> None:
    store, token = first_start
    with TestClient(create_app(store)) as gm, TestClient(create_app(store)) as later:
        gm.cookies.set("conteur_lang", lang)
        r = gm.get(f"/c/1?token={token}", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/password?next=%2Fc%2F1"
        page = gm.get(r.headers["location"])
        assert page.status_code == 200 and 'minlength="8"' in page.text
        intro = {"fr": "Choisissez votre mot de passe", "en": "Choose your password"}[lang]
        assert f"<h1>{intro}</h1>" in page.text
        csrf = csrf_of(page.text)
        base = {"csrf": csrf, "next": "/c/1"}
        r = gm.post("/password", data={**base, "password": "un long secret", "confirm": "autre"})
        assert r.status_code == 422
        assert (
            message_of(r.text)
            == {
                "fr": f"Les deux mots de passe diffèrent{NNBSP}: tapez le même deux fois.",
                "en": "The two passwords differ: type the same one twice.",
            }[lang]
        )
        r = gm.post("/password", data={**base, "password": "court", "confirm": "court"})
        assert r.status_code == 422
        assert (
            message_of(r.text)
            == {
                "fr": "Le mot de passe du conteur doit avoir au moins 8 caractères.",
                "en": "The game master's password needs at least 8 characters.",
            }[lang]
        )
        assert not store.has_gm_password()  # nothing half-applied
        r = gm.post(
            "/password",
            data={**base, "password": "le saloon ferme", "confirm": "le saloon ferme"},
            follow_redirects=False,
        )
        assert r.status_code == 303 and r.headers["location"] == "/c/1"
        assert store.has_gm_password() and gm.get("/c/1").status_code == 200
        # Thereafter the password logs in (and a wrong one does not).
        assert later.post("/login", data={"token": "le saloon fermé"}).status_code == 401
        assert later.get("/").status_code == 401
        r = later.post("/login", data={"token": "le saloon ferme", "next": "/c/1"})
        assert r.status_code == 200 and r.url.path == "/c/1"
        # A later token login goes straight to the page: the password is chosen.
        fresh = store.new_gm_token()
        r = later.get(f"/?token={fresh}", follow_redirects=False)
        assert r.headers["location"] == "/"


def test_changing_the_password_needs_the_current_one(first_start: tuple[Store, str]) -> None:
    store, token = first_start
    store.set_gm_password(GM_PASSWORD)
    with TestClient(create_app(store)) as gm:
        assert gm.get(f"/?token={token}").status_code == 200
        page = gm.get("/settings")
        assert 'name="current"' in page.text
        csrf = csrf_of(page.text)
        new = {"csrf": csrf, "password": "un autre secret", "confirm": "un autre secret"}
        r = gm.post("/password", data={**new, "current": "pas le bon"})
        assert r.status_code == 403 and "rien n'a changé" in message_of(r.text)
        assert store.check_gm_password(GM_PASSWORD)
        r = gm.post("/password", data={**new, "current": GM_PASSWORD}, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/settings?changed=1"
        assert store.check_gm_password("un autre secret")
        assert not store.check_gm_password(GM_PASSWORD)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_start_link_opens_one_session_then_says_so(
    first_start: tuple[Store, str], lang: str
) -> None:
    store, token = first_start
    with TestClient(create_app(store)) as gm, TestClient(create_app(store)) as other:
        other.cookies.set("conteur_lang", lang)
        assert gm.get(f"/?token={token}", follow_redirects=False).status_code == 303
        r = other.get(f"/?token={token}", follow_redirects=False)
        assert r.status_code == 410 and "conteur_gm" not in r.headers.get("set-cookie", "")
        assert (
            message_of(r.text)
            == {
                "fr": "Ce lien du Conteur a déjà servi\u202f: il n'ouvre qu'une seule session, puis ne"
                " marche plus. Aucun mot de passe n'a encore été choisi\u202f: relancez «\u202fconteur"
                " serve\u202f», qui affiche un nouveau lien, et choisissez-en un.",
                "en": "This Storyteller's link has already been used: it opens one session only, then"
                ' stops working. No password has been chosen yet: restart "conteur serve", which'
                " prints a new link, and choose one.",
            }[lang]
        )
        store.set_gm_password(GM_PASSWORD)
        r = other.get(f"/e/1?token={token}", follow_redirects=False)
        assert r.status_code == 410 and 'data-form="login"' in r.text
        assert (
            message_of(r.text)
            == {
                "fr": "Ce lien du Conteur a déjà servi\u202f: il n'ouvre qu'une seule session, puis ne"
                " marche plus. Connectez-vous avec votre mot de passe.",
                "en": "This Storyteller's link has already been used: it opens one session only, then"
                " stops working. Log in with your password.",
            }[lang]
        )
        assert 'name="next" value="/e/1"' in r.text  # the password leads to the page asked for
        assert other.get("/").status_code == 401
        # Posted in the form, the used token opens nothing either; the password does.
        r = other.post("/login", data={"token": token, "next": "/"}, follow_redirects=False)
        assert r.status_code == 410
        r = other.post("/login", data={"token": GM_PASSWORD, "next": "/e/1"})
        assert r.status_code == 200 and r.url.path == "/e/1"
    # The token a restart replaced is recognised as used too, not as a wrong secret.
    assert store.gm_login(token) == "used"
    newer = store.new_gm_token()
    assert store.gm_login(token) == "used" and not store.check_gm_secret(token)
    assert store.check_gm_secret(newer) and store.gm_login(newer) == "token"
    assert store.gm_login(newer) == "used" and store.gm_login("junk") is None


def test_a_token_opens_one_session_even_when_logins_race(first_start: tuple[Store, str]) -> None:
    store, token = first_start
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        kinds = list(pool.map(store.gm_login, [token] * 4))
    assert sorted(kinds, key=str) == ["token", "used", "used", "used"]


def test_the_session_survives_a_restart_and_can_be_revoked(
    tmp_path: Path, demo_db: tuple[Path, str]
) -> None:
    """Two app instances on one SQLite file, one after the other (a restart), then side by
    side (two processes): the GM's session, and their pages' CSRF tokens, stay good; the
    settings page lists the sessions, and a revoked one opens nothing, anywhere."""
    shutil.copyfile(demo_db[0], tmp_path / "restart.db")
    url = f"sqlite:///{tmp_path / 'restart.db'}"
    first = open_store(url)
    with TestClient(create_app(first)) as gm:
        assert gm.get(f"/?token={demo_db[1]}", follow_redirects=False).status_code == 303
        cookie = gm.cookies["conteur_gm"]
        csrf = csrf_of(gm.get("/e/1").text)
    first.close()  # the server stops

    again = open_store(url)  # ... and starts again: a new app, a new process's memory
    app = create_app(again)
    with TestClient(app, headers={"user-agent": "Mozilla/5.0 (X11; Linux) Firefox/140.0"}) as gm:
        gm.cookies.set("conteur_gm", cookie)
        assert gm.get("/e/1").status_code == 200  # still logged in
        r = gm.post("/e/1/script", data={"csrf": csrf, "line": "mj: note toujours là"})
        assert r.status_code in (200, 303), r.text  # the page's CSRF token from before too
        # A second device logs in with the password: two sessions listed.
        with TestClient(
            create_app(again), headers={"user-agent": "Mozilla/5.0 (Linux; Android 15) Chrome/140"}
        ) as phone:
            assert phone.post("/login", data={"token": GM_PASSWORD}).status_code == 200
            page = phone.get("/settings").text
            rows = re.findall(r'<tr data-session="(\d+)"( data-current)?>\s*<td>([^<]*)', page)
            assert [(bool(cur), device.strip()) for _, cur, device in rows] == [
                (True, "Chrome · Android"),
                (False, "testclient"),  # the test client's own agent, not recognised
            ]
            laptop_id = rows[1][0]
            r = phone.post(
                f"/settings/sessions/{laptop_id}/revoke",
                data={"csrf": csrf_of(page)},
                follow_redirects=False,
            )
            assert r.status_code == 303
            # ``gm`` is another app (another process): it trusts its last answer a few seconds
            assert gm.get("/e/1").status_code == 200
            app.state.sessions.clock = lambda: time.monotonic() + CACHE_SECONDS  # seconds later
            assert gm.get("/e/1").status_code == 401
            assert phone.get("/settings").status_code == 200  # the other one stays open
            assert len(again.list_gm_sessions()) == 1
            r = phone.post(f"/settings/sessions/{laptop_id}/revoke", data={"csrf": csrf_of(page)})
            assert r.status_code == 404  # already revoked
    again.close()
    third = open_store(url)  # and after one more restart, the revoked session stays closed
    with TestClient(create_app(third)) as gm:
        gm.cookies.set("conteur_gm", cookie)
        assert gm.get("/e/1").status_code == 401
    third.close()


def test_only_the_digest_of_a_session_is_stored(gm: TestClient, store: Store) -> None:
    nonce = gm.cookies["conteur_gm"].split(".")[0]
    with store.engine.connect() as conn:
        stored = " ".join(conn.exec_driver_sql("SELECT digest FROM gm_sessions").scalars())
    assert nonce not in stored and len(stored.split()) == 1 and len(stored) == 64


def test_failed_logins_slow_down_but_never_lock_the_gm_out(
    tmp_path: Path, demo_db: tuple[Path, str]
) -> None:
    shutil.copyfile(demo_db[0], tmp_path / "slow.db")
    store = open_store(f"sqlite:///{tmp_path / 'slow.db'}")
    app = create_app(store)
    throttle = app.state.throttle
    throttle.base, throttle.cap = 0.02, 0.2
    with TestClient(app) as client:
        for _ in range(25):  # far more failures than it takes to reach the cap
            r = client.post("/login", data={"token": "pas le mot de passe"})
            assert r.status_code == 401
        assert throttle.failures("testclient") == 25
        assert throttle.delay(25) == 0.2  # the wait stopped growing at the cap
        start = time.monotonic()
        r = client.post("/login", data={"token": GM_PASSWORD}, follow_redirects=False)
        waited = time.monotonic() - start
        assert r.status_code == 303 and 0.15 <= waited < 1.5
        assert throttle.failures("testclient") == 0
    store.close()


# ------------------------------------------------------------------ the players' QR codes


def svgs_of(html: str) -> list[str]:
    return re.findall(r"<svg viewBox=.*?</svg>", html, flags=re.S)


def test_each_player_link_is_a_qr_code_with_the_local_network_s_address(
    store: Store, gm_token: str
) -> None:
    lan = "http://192.168.1.23:8000"
    app = create_app(store, hosting=Hosting(lan_url=lan))
    chars = store.list_characters(1)
    # The GM opened the page on the laptop itself (127.0.0.1): the codes carry the LAN's.
    with TestClient(app, base_url="http://127.0.0.1:8000") as gm:
        gm.get(f"/?token={gm_token}")
        page = gm.get("/c/1").text
        one = gm.get(f"/characters/{chars[0].id}").text
    expected = [qr_svg(f"{lan}/p/{c.token}", f"Code QR du lien de {c.name}") for c in chars]
    assert svgs_of(page) == [str(e) for e in expected]
    assert svgs_of(one) == [str(expected[0])]
    assert re.findall(r'class="link" value="([^"]+)"', page) == [
        f"{lan}/p/{c.token}" for c in chars
    ]
    # Opened at the LAN address itself, the links follow the request as before.
    with TestClient(app, base_url="http://192.168.1.50:8000") as gm:
        gm.get(f"/?token={store.new_gm_token()}")
        links = re.findall(r'class="link" value="([^"]+)"', gm.get("/c/1").text)
    assert links == [f"http://192.168.1.50:8000/p/{c.token}" for c in chars]


def test_the_qr_code_is_segno_s_encoding_of_the_link() -> None:
    url = "http://192.168.1.23:8000/p/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"
    code = qr_code(url)
    assert code.error == "M" and not code.is_micro
    svg = str(qr_svg(url, "<Jack & « Billy »>"))
    assert "<title>&lt;Jack &amp; « Billy »&gt;</title>" in svg  # a name is escaped
    size = code.symbol_size(scale=4, border=4)[0]
    assert svg.startswith(f'<svg viewBox="0 0 {size} {size}" role="img" ')
    assert qr_code(url + "x").matrix != code.matrix  # the matrix depends on the whole link


def test_a_qr_code_drawn_by_the_server_decodes_to_its_link() -> None:
    """The SVG's own drawing, rasterised here (no browser), read back by zxing-cpp."""
    zxingcpp = pytest.importorskip("zxingcpp")
    import numpy as np

    url = "http://192.168.1.23:8000/p/Zm9vYmFyYmF6cXV4LXRoZS1wbGF5ZXItdG9rZW4tMTIz"
    svg = str(qr_svg(url, "x"))
    size = qr_code(url).symbol_size(scale=1, border=4)[0]
    image = np.full((size, size), 255, dtype=np.uint8)
    for y, x, length in _dark_runs(svg):  # the path's horizontal strokes, module by module
        image[y, x : x + length] = 0
    big = np.kron(image, np.ones((6, 6), dtype=np.uint8))
    found = zxingcpp.read_barcodes(big)
    assert [r.text for r in found] == [url]


def _dark_runs(svg: str) -> list[tuple[int, int, int]]:
    """The dark runs of segno's path (``M x y.5 h n m dx dy h n ...``): (row, column, length)."""
    path = re.search(r'<path stroke="#000" d="([^"]+)"', svg)
    assert path
    runs, x, y = [], 0.0, 0.0
    for op, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?:\s(-?[\d.]+))?", path.group(1)):
        if op == "M":
            x, y = float(a), float(b)
        elif op == "m":
            x, y = x + float(a), y + float(b)
        else:
            runs.append((int(y), int(x), int(a)))
            x += float(a)
    return runs


# ------------------------------------------------------------------ the local network


def test_the_local_network_s_address_is_found_without_the_internet() -> None:
    address = lan_address()
    socket.inet_aton(address)  # an IPv4 address
    assert address == "127.0.0.1" or not is_loopback(address)
    assert join_base("0.0.0.0", 8000, None) == f"http://{address}:8000"
    assert join_base("0.0.0.0", 8000, "https://jeu.example.org") == "https://jeu.example.org"
    assert join_base("192.168.4.2", 8080, None) == "http://192.168.4.2:8080"
    assert [is_loopback(h) for h in ("127.0.0.1", "::1", "[::1]", "localhost", "192.0.2.1")] == [
        True,
        True,
        True,
        True,
        False,
    ]
    assert (
        describe_agent("Mozilla/5.0 (iPhone; CPU iPhone OS 18_0) Safari/604.1") == "Safari · iPhone"
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[str], list[str]]:
    """``conteur serve --demo ARGS`` until it prints the GM's link: the process, its lines."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CONTEUR_")}
    env.update(CONTEUR_DATA_DIR=str(tmp_path / "data"))
    proc = subprocess.Popen(
        [sys.executable, "-c", "from conteur.launch import main; main()", "serve", "--demo", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not any("?token=" in x for x in lines):
        line = proc.stdout.readline()
        if not line and proc.poll() is not None:
            break
        lines.append(line)
    return proc, lines


def _stop(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def test_serve_on_every_interface_prints_the_address_phones_join_then_the_link(
    tmp_path: Path,
) -> None:
    import httpx

    port = _free_port()
    proc, lines = _serve(tmp_path, "--host", "0.0.0.0", "--port", str(port))
    try:
        join = f"http://{lan_address()}:{port}/"
        assert lines[-2].strip() == (
            f"Joueurs{NNBSP}: sur le même réseau, les téléphones rejoignent la table à {join}"
            " (codes QR sur la page de la campagne)."
        ), lines
        link = re.fullmatch(
            rf"Conteur{NNBSP}: ouvrez (http://127\.0\.0\.1:{port}/\?token=\S+) \(ce lien n'ouvre"
            rf" qu'une session{NNBSP}: choisissez-y votre mot de passe\)",
            lines[-1].strip(),
        )
        assert link, lines  # the GM's link last
        for _ in range(100):
            try:
                r = httpx.get(link.group(1), follow_redirects=False)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        assert r.status_code == 303 and r.headers["location"] == "/password?next=%2F"
        page = httpx.get(f"http://127.0.0.1:{port}/c/1", cookies=r.cookies).text
        assert f'data-join-base="{join}"' in page  # the codes carry the address printed
        assert len(svgs_of(page)) >= 2
    finally:
        _stop(proc)


def test_serve_on_this_machine_only_says_how_phones_could_join(tmp_path: Path) -> None:
    proc, lines = _serve(tmp_path, "--port", str(_free_port()), "--lang", "en")
    try:
        assert lines[-2].strip() == (
            "Local network: the server listens on this machine only; for phones to join the"
            ' table, run "make run HOST=0.0.0.0" (conteur serve --host 0.0.0.0).'
        ), lines
        assert lines[-1].startswith("Storyteller: open http://127.0.0.1:")
        assert (
            lines[-1].rstrip().endswith("(this link opens one session: choose your password there)")
        )
    finally:
        _stop(proc)
