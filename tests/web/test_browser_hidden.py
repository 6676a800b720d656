"""Hidden combatants and the table's screen in Chromium, for every shipped ruleset, each in
one language, both languages among them: the GM's page (1366×768) marks the two hidden ones and offers « Révéler »;
a player's phone (390×844) and the table's screen (1920×1080) show nothing of them — live
— until the GM reveals one (his button) and the other acts (a line of the GM's script);
then both pages show them, live, in the roster and on the battle map. The table's screen is
checked at 1920×1080 and 1366×768: no scrolling, no column wider than itself, every text at
least 28 px, the map's initials at least 16 px tall.

One server and one browser for the module; each ruleset plays in its own campaign (set up
through the store). Screenshots: ``out/test-output/hidden/`` (or
``$CONTEUR_TEST_OUTPUT/hidden``).
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

import pytest

from conteur.store import Store
from hidden_fights import FIGHTS, next_act, start_in_store

from .test_browser import TIMEOUT_MS

OUTPUT = (
    Path(
        os.environ.get(
            "CONTEUR_TEST_OUTPUT", Path(__file__).resolve().parents[2] / "out" / "test-output"
        )
    )
    / "hidden"
)
SECRETS = ("zorba", "quincy")
HIDDEN_WORD = {"fr": "caché", "en": "hidden"}
REVEAL_WORD = {"fr": "Révéler", "en": "Reveal"}

SMALL_TEXT = """() => {
  const bad = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.trim()) continue;
    const el = node.parentElement;
    if (el.closest("svg")) continue;  // the map's labels: MAP_TEXT
    const box = el.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue;  // read to screen readers only
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.display === "none") continue;
    if (parseFloat(style.fontSize) < 28) bad.push(node.textContent.trim().slice(0, 40) + " " + style.fontSize);
  }
  return bad;
}"""

MAP_TEXT = """() => [...document.querySelectorAll("#battle-map .token text.ini")].map(
  (t) => [t.textContent, Math.round(t.getBoundingClientRect().height)])"""
"""Each token's initials on the table's map and their height on the screen, in pixels."""

OVERFLOW = """() => {
  const doc = document.documentElement;
  const out = [];
  if (doc.scrollWidth > innerWidth || doc.scrollHeight > innerHeight)
    out.push("page " + doc.scrollWidth + "x" + doc.scrollHeight);
  document.querySelectorAll(".table-col").forEach((c) => {
    const name = (c.querySelector("h2, summary") || c).textContent.trim().slice(0, 40);
    if (c.scrollWidth > c.clientWidth + 1) out.push("wide " + name);
    // the log is cut at the bottom on purpose (its oldest entries); nothing else is
    if (!c.classList.contains("table-log") && c.scrollHeight > c.clientHeight + 1)
      out.push("tall " + name);
  });
  document.querySelectorAll(".table-screen *").forEach((el) => {
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.right > innerWidth + 1) out.push("past the edge " + el.tagName);
  });
  return out;
}"""


def _absent(page: Any, where: str) -> None:
    text = page.content().lower()
    for secret in SECRETS:
        assert secret not in text, f"{secret} on the {where}"


def _table_fits(table: Any, name: str) -> None:
    table.screenshot(path=str(OUTPUT / f"{name}.png"))
    assert table.evaluate(SMALL_TEXT) == [], name
    assert table.evaluate(OVERFLOW) == [], name
    initials = table.evaluate(MAP_TEXT)
    assert initials, name  # every fight here is on a map: the table's screen shows it
    assert all(height >= 16 for _, height in initials), (name, initials)


LANG_OF = {"vtm": "fr", "hunter": "en", "western": "fr"}
"""The language each ruleset's fight is read in (once each, issue 15; both languages of
every ruleset: test_browser_rulesets)."""


def test_every_ruleset_is_read_in_one_language() -> None:
    assert set(LANG_OF) == set(FIGHTS) and set(LANG_OF.values()) == {"fr", "en"}


@pytest.mark.parametrize("ruleset", sorted(FIGHTS))
def test_hidden_ones_stay_off_the_players_and_the_tables_screens(
    ruleset: str, blank_site: tuple[str, Store], chromium: Any
) -> None:
    from playwright.sync_api import expect

    base, store = blank_site
    lang = LANG_OF[ruleset]
    fight = FIGHTS[ruleset]
    eid, token, cid = start_in_store(store, fight, lang=lang)
    gm_token = store.new_gm_token()
    OUTPUT.mkdir(parents=True, exist_ok=True)
    tag = f"{ruleset}-{lang}"
    contexts: list[Any] = []
    try:
        sizes = {"gm": (1366, 768), "player": (390, 844), "table": (1920, 1080)}
        pages = {}
        for who, (w, h) in sizes.items():
            ctx = chromium.new_context(viewport={"width": w, "height": h}, device_scale_factor=1)
            contexts.append(ctx)
            pages[who] = ctx.new_page()
            pages[who].set_default_timeout(TIMEOUT_MS)
        gm, phone, table = pages["gm"], pages["player"], pages["table"]
        gm.goto(f"{base}/c/{cid}?token={gm_token}")
        gm.goto(f"{base}/lang/{lang}?next=/c/{cid}")
        link = gm.locator("[data-table-link]").input_value()
        table_path = re.sub(r"^https?://[^/]+", "", link)
        assert re.fullmatch(r"/t/[A-Za-z0-9_-]{20,}", table_path), link
        gm.goto(f"{base}/e/{eid}")
        phone.goto(f"{base}/p/{token}")
        table.goto(f"{base}{table_path}")
        for page in (gm, phone, table):
            expect(page.locator("html")).to_have_attribute("lang", lang)
            expect(page.locator("#live")).to_have_attribute("data-live", "on")

        # Hidden: marked on the GM's page, nowhere on the player's nor the table's.
        for fid in SECRETS:
            row = gm.locator(f'.roster tr[data-fighter="{fid}"]')
            expect(row).to_have_attribute("data-hidden", "")
            expect(row.locator(".tag-hidden")).to_have_text(HIDDEN_WORD[lang])
            expect(row.locator(f'[data-reveal="{fid}"]')).to_have_text(REVEAL_WORD[lang])
        visible = fight.names[fight.npcs[0]["id"]]
        expect(phone.locator("[data-others]")).to_contain_text(visible)
        expect(table.locator("[data-others]")).to_contain_text(visible)
        _absent(phone, "player's page")
        _absent(table, "table's screen")
        gm.screenshot(path=str(OUTPUT / f"gm-{tag}-1366x768.png"))
        phone.screenshot(path=str(OUTPUT / f"player-{tag}-390x844.png"), full_page=True)
        _table_fits(table, f"table-{tag}-1920x1080")

        # The GM reveals Quincy with his button: both screens show him, live.
        gm.locator('[data-reveal="quincy"]').click()
        expect(phone.locator('[data-others] [data-fighter="quincy"]')).to_be_visible()
        expect(table.locator('[data-others] [data-fighter="quincy"]')).to_be_visible()
        expect(table.locator('#battle-map .token[data-fighter="quincy"]')).to_have_count(1)
        expect(gm.locator('.roster tr[data-fighter="quincy"]')).not_to_have_attribute(
            "data-hidden", ""
        )
        _absent_one(phone, table, "zorba")

        # Zorba acts (the GM's script line, for whoever is due until Zorba has acted).
        script = gm.locator('form[data-form="script"]')
        for _ in range(6):
            enc = store.encounter(eid)
            if "zorba" not in enc.hidden:
                break
            seq = len(enc.log)
            script.locator('input[name="line"]').fill(next_act(enc, fight))
            script.locator('button[type="submit"]').click()
            _wait(lambda: len(store.encounter(eid).log) > seq)  # noqa: B023
            expect(gm.locator("#panel")).to_have_attribute("data-seq", str(seq))
        assert "zorba" not in store.encounter(eid).hidden
        expect(phone.locator('[data-others] [data-fighter="zorba"]')).to_be_visible()
        expect(table.locator('[data-others] [data-fighter="zorba"]')).to_be_visible()
        expect(table.locator(".table-log")).to_contain_text("Zorba Kell")
        gm.screenshot(path=str(OUTPUT / f"gm-{tag}-revealed-1366x768.png"))
        phone.screenshot(path=str(OUTPUT / f"player-{tag}-revealed-390x844.png"), full_page=True)
        _table_fits(table, f"table-{tag}-revealed-1920x1080")
        table.set_viewport_size({"width": 1366, "height": 768})
        _table_fits(table, f"table-{tag}-revealed-1366x768")
    finally:
        for ctx in contexts:
            ctx.close()


def _absent_one(phone: Any, table: Any, secret: str) -> None:
    for page in (phone, table):
        assert secret not in page.content().lower()


def _wait(done: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError("the command did not land")
        time.sleep(0.05)
