"""A player's page on a phone (390×844) in Chromium: the others in the ruleset's own word (an
unhurt fighter is « indemne »), and the game master's note never, not even live.

The visibility policy is the test's own (``veiled_policy``: the GM's note is the GM's). The
screenshot is written to ``out/test-output/`` (or ``$CONTEUR_TEST_OUTPUT``) to be looked at.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import veiled_policy
from conteur.store import Store

from .test_browser import ARGS, CHROMIUM, TIMEOUT_MS, _need_browser
from .test_browser import server as server  # the fixture, shared with that test

MARKER = "MARQUEUR-SECRET-7Q"
OUTPUT = Path(
    os.environ.get(
        "CONTEUR_TEST_OUTPUT", Path(__file__).resolve().parents[2] / "out" / "test-output"
    )
)


def test_a_players_phone_shows_indemne_and_never_the_gms_note(
    monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    _need_browser()
    veiled_policy.install(monkeypatch)
    base, store, token = request.getfixturevalue("server")
    from playwright.sync_api import expect, sync_playwright

    assert isinstance(store, Store)
    billy = next(c.token for c in store.list_characters(1) if c.name == "Billy Harper")
    enc = store.encounter(1)
    from conteur.dice import SeededDice

    store.execute(
        1, enc.ruleset.parse_command(f"mj: note {MARKER}", enc.state, "fr"), SeededDice(1)
    )
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            gm_ctx = browser.new_context()
            phone = browser.new_context(
                viewport={"width": 390, "height": 844}, device_scale_factor=1
            )
            gm, player = gm_ctx.new_page(), phone.new_page()
            for page in (gm, player):
                page.set_default_timeout(TIMEOUT_MS)
            gm.goto(f"{base}/e/1?token={token}")
            expect(gm.locator(".log")).to_contain_text(MARKER)  # the GM reads it
            player.goto(f"{base}/p/{billy}")
            expect(player.locator("#live")).to_have_attribute("data-live", "on")
            sam = player.locator('[data-others] li[data-fighter="sam"]')
            expect(sam).to_contain_text("Sam le barman — indemne")
            expect(sam.locator("[data-status]")).to_have_attribute("data-status", "unhurt")

            # Live: a second note and the initiative; the player's page follows, note-free.
            script = gm.locator('form[data-form="script"]')
            script.locator('input[name="line"]').fill(f"mj: note {MARKER} encore")
            script.locator('button[type="submit"]').click()
            # The note's own update lands before the next form is filled (a live update
            # replaces the panel, and a half-filled form with it).
            expect(gm.locator(".log")).to_contain_text(f"{MARKER} encore")
            form = gm.locator('form[data-form="initiative:"]')
            form.locator('input[name="faces"]').fill("5 3 5 8")
            form.locator('button[type="submit"]').click()
            expect(player.locator("[data-order] li").first).to_contain_text("Ézéchiel Crowe")
            expect(player.locator('form[data-form="declare:billy"]')).to_be_visible()
            assert MARKER not in player.content()
            assert MARKER in gm.content()
            # Nothing wider than the phone: the page fits its 390 px.
            width = player.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, width
            OUTPUT.mkdir(parents=True, exist_ok=True)
            shot = OUTPUT / "player-390x844.png"
            player.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 0
        finally:
            browser.close()
