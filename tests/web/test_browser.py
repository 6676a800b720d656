"""A short real fight in Chromium: the GM's page drives it, a player's page follows live (SSE).

Initiative with typed dice, declarations from the slowest (the player declares
their own), the odds before rolling, refused dice, an attack, an undo, a delayed
action that interrupts, and the language switch.

Debian's ``chromium`` (``make system-deps``) driven by Playwright; Playwright's own
browser download is never used. Without Chromium the test fails when ``CI`` is
set and skips otherwise, as the PostgreSQL tests do.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from conteur.store import Store, open_store
from conteur.web import create_app
from conteur.web.demo import load_demo

from .conftest import GM_PASSWORD, Contexts

CHROMIUM = os.environ.get("CONTEUR_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
TIMEOUT_MS = 10_000


def _required() -> bool:
    return any(
        os.environ.get(v, "").strip() not in ("", "0", "false")
        for v in ("CI", "CONTEUR_REQUIRE_BROWSER")
    )


def _need_browser() -> None:
    missing = None
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        missing = f"Chromium not found at {CHROMIUM} (Debian package `chromium`, make system-deps)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            missing = "Python Playwright is not installed (pip install -e '.[dev]')"
    if missing:
        if _required():
            pytest.fail(missing + " (required here: CI is set)", pytrace=False)
        pytest.skip(missing)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(app: Any, host: str = "127.0.0.1", port: int | None = None) -> Iterator[int]:
    """``app`` served by uvicorn in a thread on ``host`` while the block runs: its port."""
    import uvicorn

    port = port or _free_port()
    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=1
    )
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not srv.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the web server did not start")
        time.sleep(0.02)
    try:
        yield port
    finally:
        srv.should_exit = True
        thread.join(10)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Store, str]]:
    store = open_store(f"sqlite:///{tmp_path / 'browser.db'}")
    load_demo(store)
    store.set_gm_password(GM_PASSWORD)
    token = store.new_gm_token()
    with serving(create_app(store)) as port:
        yield f"http://127.0.0.1:{port}", store, token
    store.close()


def test_a_short_fight_in_the_browser(server: tuple[str, Store, str], contexts: Contexts) -> None:
    _need_browser()
    from playwright.sync_api import expect

    base, store, token = server
    billy = next(c.token for c in store.list_characters(1) if c.name == "Billy Harper")
    try:
        gm_ctx, player_ctx = contexts.new_context(), contexts.new_context()
        gm, player = gm_ctx.new_page(), player_ctx.new_page()
        gm.set_default_timeout(TIMEOUT_MS)
        player.set_default_timeout(TIMEOUT_MS)

        gm.goto(f"{base}/e/1?token={token}")
        expect(gm.locator("html")).to_have_attribute("lang", "fr")
        player.goto(f"{base}/p/{billy}")
        expect(player.locator("#live")).to_have_attribute("data-live", "on")
        expect(gm.locator("#live")).to_have_attribute("data-live", "on")

        # Initiative with the table's dice: Ézéchiel 14, Jack 11, Sam 9, Billy 8.
        form = gm.locator('form[data-form="initiative:"]')
        form.locator('input[name="faces"]').fill("5 3 5 8")
        form.locator('button[type="submit"]').click()
        expect(gm.locator("[data-order] li").first).to_contain_text("Ézéchiel Crowe")

        # The player's page follows live, and Billy, the slowest, declares first — himself.
        declare = player.locator('form[data-form="declare:billy"]')
        expect(declare).to_be_visible()
        expect(player.locator("[data-order] li").first).to_contain_text("Ézéchiel Crowe")
        declare.locator('select[name="kind"]').select_option("weapon_strike")
        declare.locator('select[name="target"]').select_option("ezechiel")
        declare.locator('select[name="weapon"]').select_option("knife")
        declare.locator('button[type="submit"]').click()

        # The GM's page sees Billy's declaration live; then Sam (delays), Jack, Ézéchiel.
        sam = gm.locator('form[data-form="declare:sam"]')
        expect(sam).to_be_visible()
        expect(gm.locator('form[data-form="declare:ezechiel"]')).to_have_count(0)
        sam.locator('input[name="delay"]').check()
        sam.locator('button[type="submit"]').click()
        jack = gm.locator('form[data-form="declare:jack"]')
        jack.locator('select[name="kind"]').select_option("punch")
        jack.locator('select[name="target"]').select_option("ezechiel")
        jack.locator('select[name="then_kind"]').select_option("block")
        jack.locator('button[type="submit"]').click()
        ez = gm.locator('form[data-form="declare:ezechiel"]')
        ez.locator('select[name="kind"]').select_option("punch")
        ez.locator('select[name="target"]').select_option("jack")
        ez.locator('button[type="submit"]').click()

        # Resolution: the odds of Ézéchiel's punch before rolling.
        act = gm.locator('form[data-form="act:ezechiel"]')
        expect(act).to_be_visible()
        gm.locator('details[data-drawer="odds"] > summary').click()  # a closed drawer
        odds = gm.locator('form[data-form="odds"]')
        odds.locator('select[name="attacker"]').select_option("ezechiel")
        odds.locator('select[name="target"]').select_option("jack")
        odds.locator('select[name="maneuver"]').select_option("punch")
        expect(gm.locator('#odds-box [data-odds="hit"]')).to_contain_text("%")
        expect(gm.locator("#odds-box .bar").first).to_be_visible()

        # Too few typed dice: a message, nothing changes.
        act.locator('input[name="faces"]').fill("9 8")
        act.locator('button[type="submit"]').click()
        expect(gm.locator("#panel .message.error")).to_be_visible()
        assert store.last_seq(1) == 4

        # The attack with the table's dice: attack, Jack's block, damage, soak.
        act = gm.locator('form[data-form="act:ezechiel"]')
        act.locator('input[name="faces"]').fill("9 8 7 4 2 6  8 3 2 5  7 8 2 4 3  6 2 4")
        act.locator('button[type="submit"]').click()
        expect(gm.locator('tr[data-fighter="jack"] [data-health]')).to_contain_text("/")
        jack_status = player.locator("[data-others] li", has_text="Jack Malone")
        expect(jack_status).to_contain_text("égratigné")  # vtm's ladder of words
        expect(player.locator(".log")).to_contain_text("Ézéchiel Crowe")

        # Undo: Jack is unhurt again, on both pages.
        gm.locator("#undo-button").click()
        expect(gm.locator('tr[data-fighter="jack"] [data-health]')).to_have_text(
            "[ ][ ][ ][ ][ ][ ][ ]"
        )
        expect(jack_status).to_contain_text("indemne")
        expect(player.locator("ol.log > li.undone")).to_have_count(1)  # marked live too
        expect(player.locator("ol.log > li.undo-line")).to_have_count(1)
        expect(gm.locator('form[data-form="act:ezechiel"]')).to_be_visible()
        assert store.encounter(1).log[-1].to_dict()["kind"] == "undo"

        # The attack again; then Sam's delayed action interrupts (V-INI-5).
        act = gm.locator('form[data-form="act:ezechiel"]')
        act.locator('input[name="faces"]').fill("9 8 7 4 2 6  8 3 2 5  7 8 2 4 3  6 2 4")
        act.locator('button[type="submit"]').click()
        sam_act = gm.locator('form[data-form="act:sam"]')
        expect(sam_act).to_contain_text("V-INI-5")
        sam_act.locator('select[name="kind"]').select_option("weapon_strike")
        sam_act.locator('select[name="target"]').select_option("jack")
        sam_act.locator('input[name="faces"]').fill("7 6 3 2 9  6 7 2 3 8 1 4  7 2 3")
        sam_act.locator('button[type="submit"]').click()
        expect(gm.locator('tr[data-fighter="jack"] [data-health]')).to_contain_text("[/][/][/]")
        expect(player.locator(".log")).to_contain_text("Sam le barman")

        # The end of turn 1 as in examples/saloon.txt: Billy's botch, its complication
        # (a typed line), the GM's damage tool, Jack's punch.
        def act(who: str, faces: str) -> None:
            form = gm.locator(f'form[data-form="act:{who}"]')
            form.locator('input[name="faces"]').fill(faces)
            form.locator('button[type="submit"]').click()

        act("billy", "1 3 2 4 5")
        # the panel has swapped in Billy's botch before the next line is typed
        expect(gm.locator(".log")).to_contain_text("Billy Harper attaque Ézéchiel Crowe")
        script = gm.locator('form[data-form="script"]')
        script.locator('input[name="line"]').fill("mj: complication billy hits_friend")
        script.locator('button[type="submit"]').click()
        # the complication's own line (Billy's botch already says "complication")
        expect(gm.locator(".log")).to_contain_text("Complication pour Billy Harper")
        gm.locator("details > summary", has_text="Outils du Conteur").click()
        tool = gm.locator('form[data-form="gm_damage:"]')
        tool.locator('select[name="fighter"]').select_option("jack")
        tool.locator('input[name="levels"]').fill("1")
        tool.locator('select[name="damage_type"]').select_option("lethal")
        tool.locator('button[type="submit"]').click()
        act("jack", "8  6 4 9  7 3 2")

        # Turn 2: Billy, attacked by Ézéchiel, aborts his knife strike to dodge with
        # Willpower (V-MAN-3) — offered exactly then — from his own page.
        initiative = gm.locator('form[data-form="initiative:"]')
        initiative.locator('input[name="faces"]').fill("7 4 3 9")
        initiative.locator('button[type="submit"]').click()
        for who, choices in (
            ("sam", {"kind": "weapon_strike", "target": "jack", "then_kind": "parry"}),
            ("billy", {"kind": "weapon_strike", "target": "ezechiel", "weapon": "knife"}),
            ("jack", {"kind": "punch", "target": "sam"}),
            ("ezechiel", {"kind": "punch", "target": "billy"}),
        ):
            form = gm.locator(f'form[data-form="declare:{who}"]')
            for name, value in choices.items():
                form.locator(f'select[name="{name}"]').select_option(value)
            form.locator('button[type="submit"]').click()
        expect(gm.locator('form[data-form="defend:billy"]')).to_be_visible()
        defend = player.locator('form[data-form="defend:billy"]')  # Billy's own choice
        expect(defend.locator('select[name="abort"]')).to_be_visible()
        defend.locator('select[name="kind"]').select_option("dodge")
        defend.locator('select[name="abort"]').select_option("point")
        defend.locator('button[type="submit"]').click()
        expect(gm.locator(".log")).to_contain_text("V-MAN-3")
        expect(player.locator(".log")).to_contain_text("V-MAN-3")
        act("ezechiel", "10 8 7 3 6 1  9 6 2 4")
        expect(gm.locator('form[data-form="act:jack"]')).to_be_visible()
        assert store.encounter(1).log[-1].to_dict()["command"]["type"] == "act"

        # English by the visible switch, remembered.
        gm.get_by_role("link", name="English").click()
        expect(gm.locator("html")).to_have_attribute("lang", "en")
        gm.reload()
        expect(gm.locator("html")).to_have_attribute("lang", "en")
    finally:
        contexts.close()


def test_the_login_form_keeps_the_secret_out_of_urls(
    server: tuple[str, Store, str], contexts: Contexts
) -> None:
    """The login form POSTs the GM's secret: no URL the browser visits or requests carries it
    (nor its history), and the page asked for opens after it."""
    _need_browser()
    from playwright.sync_api import expect

    base, _store, token = server
    try:
        page = contexts.new_context().new_page()
        page.set_default_timeout(TIMEOUT_MS)
        requests: list[tuple[str, str]] = []
        visited: list[str] = []
        page.on("request", lambda r: requests.append((r.method, r.url)))
        page.on("framenavigated", lambda f: visited.append(f.url))
        page.goto(f"{base}/e/1")
        form = page.locator('form[data-form="login"]')
        form.locator('input[name="token"]').fill("not-the-token")
        form.locator('button[type="submit"]').click()
        expect(page.locator(".message.error")).to_contain_text("ouvre pas")
        form = page.locator('form[data-form="login"]')
        form.locator('input[name="token"]').fill(token)
        form.locator('button[type="submit"]').click()
        expect(page.locator("#live")).to_have_attribute("data-live", "on")
        assert page.url == f"{base}/e/1"
        assert ("POST", f"{base}/login") in requests
        assert not any(token in url for _, url in requests), requests
        assert not any(token in url or "not-the-token" in url for url in visited), visited
    finally:
        contexts.close()


def test_a_stale_tab_cannot_undo_what_it_did_not_see(
    server: tuple[str, Store, str], contexts: Contexts
) -> None:
    """Two GM tabs; the second's live stream is cut, so it still shows the state before the
    first tab's initiative. Its undo is refused with « quelqu'un a agi entre-temps » and
    the current state; undone from that state, it works."""
    _need_browser()
    from playwright.sync_api import expect

    base, store, token = server
    try:
        context = contexts.new_context()
        first, second = context.new_page(), context.new_page()
        for page in (first, second):
            page.set_default_timeout(TIMEOUT_MS)
        second.route("**/stream*", lambda route: route.abort())  # this tab hears nothing
        first.goto(f"{base}/e/1?token={token}")
        second.goto(f"{base}/e/1")
        expect(second.locator("#panel")).to_have_attribute("data-seq", "-1")
        form = first.locator('form[data-form="initiative:"]')
        form.locator('input[name="faces"]').fill("5 3 5 8")
        form.locator('button[type="submit"]').click()
        expect(first.locator("[data-order] li").first).to_contain_text("Ézéchiel Crowe")
        assert store.last_seq(1) == 0
        second.locator("#undo-button").click()
        expect(second.locator("#panel .message.error")).to_contain_text("agi entre-temps")
        expect(second.locator("#panel")).to_have_attribute("data-seq", "0")  # fresh state
        expect(second.locator("[data-order] li").first).to_contain_text("Ézéchiel Crowe")
        assert store.last_seq(1) == 0  # nothing undone
        second.keyboard.press("u")  # from the state it now shows: undone
        expect(second.locator("#panel")).to_have_attribute("data-seq", "1")
        assert store.encounter(1).log[-1].to_dict()["kind"] == "undo"
    finally:
        contexts.close()
