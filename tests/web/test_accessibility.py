"""The pages pass axe-core (the npm registry's, pinned by ``tests/web/package-lock.json`` and
installed by ``make test``'s developer stamp with ``npm ci``) in Chromium, with no serious or
critical violation (nor a heading out of order), in the dark theme: the campaign page, the GM's encounter page before the
initiative and during an action with the dice pad open, a player's page, the login page —
in French and in English, at 1366×768 and 390×844. And the keyboard: after the header, Tab
reaches the current action's controls first.

Screenshots go to ``out/test-output/accessibility/``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from conteur.store import Store

from .test_browser import _required
from .test_browser_player import OUTPUT
from .test_browser_rolls import browser as browser  # the fixtures, shared with that module
from .test_browser_rolls import fresh_saloon
from .test_browser_rolls import site as site

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = OUTPUT / "accessibility"
SIZES = [(1366, 768), (390, 844)]
GRAVE = ("serious", "critical")
ALSO = ("heading-order",)
"""Moderate rules refused as well: the headings' order is the outline a screen reader walks."""


def _need_axe() -> None:
    if not AXE.exists():
        missing = f"axe-core not installed at {AXE} (make test runs npm ci in tests/web)"
        if _required():
            pytest.fail(missing + " (required here: CI is set)", pytrace=False)
        pytest.skip(missing)


def violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations of the page as it stands (WCAG 2 A/AA and
    best practices), and its ``ALSO`` ones, each with its rule, impact and the elements at
    fault."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => {
          const r = await axe.run(document, {resultTypes: ['violations']});
          return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map(n => [n.target.join(' '), n.failureSummary])}));
        }"""
    )
    if os.environ.get("CONTEUR_AXE_ALL"):
        return list(found)
    return [v for v in found if v["impact"] in GRAVE or v["id"] in ALSO]


def _check(page: Any, name: str, seen: dict[str, Any]) -> None:
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(50)
        found = violations(page)
        seen[f"{name} {width}x{height}"] = found
        page.screenshot(path=str(SHOTS / f"{name}-{width}x{height}.png"))


def _first_after_header(page: Any) -> dict[str, Any]:
    """Where Tab goes from the header's last control: the element and the part it is in."""
    page.locator("header.top a, header.top button").last.focus()
    page.keyboard.press("Tab")
    return dict(
        page.evaluate(
            """() => { const e = document.activeElement;
              const part = ['.current', '#rolls', '[data-needs-me]', '.col-state', '.col-log']
                .find(s => e.closest(s));
              return {tag: e.tagName, name: e.getAttribute('name') || e.textContent.trim(),
                in: part || null}; }"""
        )
    )


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_pages_pass_axe_core(site: tuple[str, Store, str], browser: Any, lang: str) -> None:
    _need_axe()
    from playwright.sync_api import expect

    base, store, _token = site
    SHOTS.mkdir(parents=True, exist_ok=True)
    eid, tokens = fresh_saloon(store, f"Saloon a11y {lang}")
    seen: dict[str, Any] = {}
    ctx = browser.new_context(viewport={"width": 1366, "height": 768}, color_scheme="dark")
    anonymous = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark")
    try:
        page = ctx.new_page()
        page.set_default_timeout(10_000)
        page.goto(f"{base}/lang/{lang}?next=/c/1%3Ftoken%3D{store.new_gm_token()}")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        _check(page, f"campaign-{lang}", seen)

        page.goto(f"{base}/e/1")  # the demo's fight, before the initiative
        expect(page.locator("#live")).to_have_attribute("data-live", "on")
        _check(page, f"gm-before-initiative-{lang}", seen)

        page.set_viewport_size({"width": 1366, "height": 768})
        page.goto(f"{base}/e/{eid}")  # Ézéchiel's punch, the dice pad open
        page.locator('form[data-form="act:ezechiel"] [data-rolls-start]').click()
        expect(page.locator("#rolls [data-pad-counter]")).to_have_text("0 / 6")
        _check(page, f"gm-dice-pad-{lang}", seen)
        page.set_viewport_size({"width": 1366, "height": 768})
        page.reload()  # the roll asked is still there; focus starts from the page's top
        expect(page.locator("#rolls [data-pad-counter]")).to_have_text("0 / 6")
        first = _first_after_header(page)  # the current action's roll: the pad, then its form
        assert first["in"] in (".current", "#rolls"), first

        phone = anonymous.new_page()
        phone.set_default_timeout(10_000)
        phone.goto(f"{base}/lang/{lang}?next=/p/{tokens['jack']}")
        expect(phone.locator("#live")).to_have_attribute("data-live", "on")
        _check(phone, f"player-{lang}", seen)
        page.locator("#rolls [data-pad=cancel]").click()  # Jack's punch: his turn next
        expect(phone.locator('[data-needs-me] form[data-form^="defend:jack"]')).to_have_count(1)
        first = _first_after_header(phone)
        assert first["in"] == "[data-needs-me]", first

        phone.goto(f"{base}/")  # no session: the login form
        expect(phone.locator('form[data-form="login"]')).to_be_visible()
        _check(phone, f"login-{lang}", seen)
    finally:
        ctx.close()
        anonymous.close()
    report = OUTPUT / f"axe-{lang}.json"
    report.write_text(json.dumps(seen, ensure_ascii=False, indent=1), encoding="utf-8")
    grave = {name: found for name, found in seen.items() if found}
    if os.environ.get("CONTEUR_AXE_REPORT_ONLY"):
        return
    assert grave == {}, json.dumps(grave, ensure_ascii=False, indent=1)
