"""The screens' layouts in Chromium: the GM's fight screen fits 1366×768 and 1024×768 with
every control of a turn in view, nothing overflows its column, a refusal shows in the form
that was sent, one form per command before the initiative, the keyboard's help, and the
players' log without the GM's numbering. Screenshots go to ``out/test-output/screens/``.
"""

from __future__ import annotations

from typing import Any

import pytest

from conteur.store import Store

from .test_browser import ARGS, CHROMIUM, TIMEOUT_MS, _need_browser
from .test_browser import server as server  # the fixture, shared with that test
from .test_browser_player import OUTPUT

SHOTS = OUTPUT / "screens"
SIZES = [(1366, 768), (1024, 768)]


def _inside(page: Any, selector: str) -> None:
    """The first element of ``selector`` is wholly inside the viewport, with no scrolling."""
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    assert box is not None, selector
    assert box["x"] >= 0 and box["y"] >= 0, (selector, box)
    assert box["x"] + box["width"] <= size["width"] + 1, (selector, box, size)
    assert box["y"] + box["height"] <= size["height"] + 1, (selector, box, size)


def _fits(page: Any) -> None:
    """The page does not scroll, and no column's content is wider than its column."""
    size = page.viewport_size
    height = page.evaluate("document.documentElement.scrollHeight")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert height <= size["height"] and width <= size["width"], (width, height, size)
    wide = page.evaluate(
        """Array.from(document.querySelectorAll('#panel .col'))
        .filter(c => c.scrollWidth > c.clientWidth + 1)
        .map(c => [c.className, c.scrollWidth, c.clientWidth,
          Array.from(c.querySelectorAll('*')).filter(e => e.getBoundingClientRect().right >
            c.getBoundingClientRect().right + 1).map(e => e.tagName + '.' + e.className)])"""
    )
    assert wide == [], wide


def _declare(page: Any, fid: str, **values: Any) -> None:
    form = page.locator(f'form[data-form="declare:{fid}"]')
    for name, value in values.items():
        if value is True:
            form.locator(f'input[name="{name}"]').check()
        else:
            form.locator(f'select[name="{name}"]').select_option(value)
    form.locator('button[type="submit"]').click()


@pytest.mark.parametrize("lang", ["fr"])  # once (issue 15); both: test_browser_rulesets
def test_the_gms_fight_screen_fits_the_window(lang: str, request: pytest.FixtureRequest) -> None:
    _need_browser()
    base, store, token = request.getfixturevalue("server")
    assert isinstance(store, Store)
    billy = next(c.token for c in store.list_characters(1) if c.name == "Billy Harper")
    from playwright.sync_api import expect, sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            ctx = browser.new_context(viewport={"width": 1366, "height": 768})
            gm = ctx.new_page()
            gm.set_default_timeout(TIMEOUT_MS)
            gm.goto(f"{base}/lang/{lang}?next=/e/1%3Ftoken%3D{token}")
            expect(gm.locator("html")).to_have_attribute("lang", lang)

            # Before the initiative: one form per command (the ambush: its actor a choice).
            types = gm.locator("#panel .col-actions > form.command").evaluate_all(
                "fs => fs.map(f => f.dataset.form.split(':')[0])"
            )
            assert len(types) == len(set(types)), types
            assert gm.locator('select[name="actor"]').count() >= 1
            _fits(gm)
            gm.screenshot(path=str(SHOTS / f"gm-before-initiative-{lang}-1366x768.png"))

            form = gm.locator('form[data-form="initiative:"]')
            form.locator('input[name="faces"]').fill("5 3 5 8")
            form.locator('button[type="submit"]').click()
            _declare(gm, "billy", kind="weapon_strike", target="ezechiel", weapon="knife")
            _declare(gm, "sam", delay=True)
            _declare(gm, "jack", kind="punch", target="ezechiel", then_kind="block")
            _declare(gm, "ezechiel", kind="punch", target="jack")
            expect(gm.locator('.current[data-current="ezechiel"]')).to_be_visible()
            expect(gm.locator('.current [data-odds="hit"]')).to_contain_text("%")

            for width, height in SIZES:
                gm.set_viewport_size({"width": width, "height": height})
                gm.wait_for_timeout(150)
                _fits(gm)
                for selector in (
                    ".current h3",
                    '.current button[type="submit"]',
                    '.current input[name="faces"]',
                    ".current [data-odds]",
                    "#undo-button",
                    "[data-order]",
                    ".roster thead th:last-child",  # the conditions column, unclipped
                    '.roster tr[data-fighter="billy"]',
                    ".log > li",
                    'details[data-drawer="tools"] > summary',
                    "#battle-map svg",  # the battle map, whole, beside the roster
                    '#battle-map .token[data-fighter="billy"]',
                ):
                    _inside(gm, selector)
                expect(gm.locator('details[data-drawer="tools"]')).not_to_have_attribute("open", "")
                gm.screenshot(path=str(SHOTS / f"gm-action-{lang}-{width}x{height}.png"))
            gm.set_viewport_size({"width": 1920, "height": 1080})
            _fits(gm)
            gm.screenshot(path=str(SHOTS / f"gm-action-{lang}-1920x1080.png"))
            gm.set_viewport_size({"width": 1366, "height": 768})

            # A refusal (too few dice) shows in the form that was sent, in view, and aria-live.
            current = gm.locator(".current form.command")
            current.locator('input[name="faces"]').fill("1")
            current.locator('button[type="submit"]').click()
            error = gm.locator(".current [data-msg] .message.error")
            expect(error).to_be_visible()
            assert gm.locator("#panel > .panel-msg").count() == 0
            assert current.locator("[data-msg]").get_attribute("aria-live") == "polite"
            _inside(gm, ".current [data-msg] .message.error")
            gm.screenshot(path=str(SHOTS / f"gm-refused-{lang}-1366x768.png"))

            # The keyboard: nothing while typing; digits go to the dice; ? shows the help.
            faces = gm.locator('.current input[name="faces"]')
            faces.fill("")
            gm.locator("h1").click()
            gm.keyboard.press("7")
            expect(faces).to_be_focused()
            expect(faces).to_have_value("7")
            gm.keyboard.type("u")  # typed into the field: no undo
            expect(faces).to_have_value("7u")
            assert gm.locator(".log > li[data-seq]").count() == 5
            gm.locator("h1").click()
            gm.keyboard.press("?")
            help_ = gm.locator("#keys-help")
            expect(help_).to_be_visible()
            expect(help_.locator("kbd", has_text="n")).to_be_visible()
            gm.screenshot(path=str(SHOTS / f"gm-keys-{lang}-1366x768.png"))
            gm.keyboard.press("Escape")
            expect(help_).to_be_hidden()
            gm.keyboard.press("u")  # undo: Ézéchiel's declaration is withdrawn
            expect(gm.locator(".log > li.undo-line")).to_have_count(1)

            # A player's log carries no GM numbering (which would count the hidden entries).
            phone = browser.new_context(viewport={"width": 390, "height": 844})
            player = phone.new_page()
            player.set_default_timeout(TIMEOUT_MS)
            player.goto(f"{base}/p/{billy}")
            expect(player.locator(".log > li[data-seq]").first).to_be_visible()
            assert player.locator(".log .seq").count() == 0
            assert "#0" not in player.locator(".log").inner_text()
            assert player.evaluate("document.documentElement.scrollWidth") <= 390
            player.screenshot(path=str(SHOTS / f"player-{lang}-390x844.png"), full_page=True)
        finally:
            browser.close()
