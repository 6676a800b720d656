"""During and after a fight in Chromium, in French: the GM (1366×768) brings an archetype
in and the player's phone (390×844) sees it live; takes Sam out, undoes with ``u`` and redoes
with ``shift+u``; settles a western tie by hand (W-SPD-2); closes the fight and reads its
summary. Screenshots in ``out/test-output/fights/``.
"""

from __future__ import annotations

from typing import Any

import pytest

from conteur.engine.report import fight_report, luck_text
from conteur.store import Participant, Store

from .test_browser import ARGS, CHROMIUM, TIMEOUT_MS, _need_browser
from .test_browser import server as server  # the fixture, shared with that test
from .test_browser_player import OUTPUT
from .test_screens import _fits, _inside

SHOTS = OUTPUT / "fights"
WORDS = {
    "fr": {"name": "Le Renfort", "withdrawn": "retiré", "redone": "refait la commande n°"},
    "en": {"name": "Backup", "withdrawn": "withdrawn", "redone": "redoes command #"},
}


def _gunman(fid: str, speed: int) -> dict[str, Any]:
    return {
        "id": fid,
        "name": fid.capitalize(),
        "characteristics": {"STRENGTH": 12, "RESISTANCE": 11, "CONSTITUTION": 12,
                            "SPEED": speed, "REPUTATION": 6},
        "skills": {"aimed pistol": 50},
        "weapons": ["colt_saa"],
    }  # fmt: skip


def _western_tie(store: Store) -> int:
    """A western encounter where two gunmen of speed 12 tie (W-SPD-2)."""
    camp = store.create_campaign("Tombstone", "western")
    bill = store.add_character(camp.id, _gunman("bill", 12))
    jack = store.add_character(camp.id, _gunman("jack", 12))
    enc = store.start_encounter(
        camp.id, "Égalité", [Participant(bill.id, "a", (0, 0)), Participant(jack.id, "b", (9, 0))]
    )
    return enc.id


def _open_tools(page: Any) -> None:
    drawer = page.locator('details[data-drawer="tools"]')
    if drawer.get_attribute("open") is None:
        drawer.locator("> summary").click()


@pytest.mark.parametrize("lang", ["fr"])  # once (issue 15); both: test_browser_rulesets
def test_during_and_after_a_fight(lang: str, request: pytest.FixtureRequest) -> None:
    _need_browser()
    base, store, token = request.getfixturevalue("server")
    assert isinstance(store, Store)
    words = WORDS[lang]
    billy = next(c.token for c in store.list_characters(1) if c.name == "Billy Harper")
    western = _western_tie(store)
    from playwright.sync_api import expect, sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            gm = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
            phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
            for page in (gm, phone):
                page.set_default_timeout(TIMEOUT_MS)
            gm.goto(f"{base}/lang/{lang}?next=/e/1%3Ftoken%3D{token}")
            gm.goto(f"{base}/e/1")  # the start link opened the session (single use)
            phone.goto(f"{base}/lang/{lang}?next=/p/{billy}")
            expect(phone.locator("#live")).to_have_attribute("data-live", "on")
            form = gm.locator('form[data-form="initiative:"]')
            form.locator('input[name="faces"]').fill("5 3 5 8")
            form.locator('button[type="submit"]').click()
            expect(gm.locator("[data-order]")).to_contain_text("Sam")

            # 1. Bring an archetype in, from the GM's tools; the phone sees it live.
            _open_tools(gm)
            join = gm.locator('form[data-form="join"]')
            join.locator('select[name="who"]').select_option("a:thug")
            join.locator('input[name="name"]').fill(words["name"])
            join.locator('input[name="side"]').fill("saloon")
            join.locator('button[type="submit"]').click()
            row = gm.locator(
                '.roster tr[data-fighter="le-renfort"], .roster tr[data-fighter="backup"]'
            )
            expect(row).to_contain_text(words["name"])
            expect(gm.locator("[data-order]")).not_to_contain_text(words["name"])  # V-INI-1
            expect(phone.locator("main")).to_contain_text(words["name"])
            _fits(gm)
            gm.screenshot(path=str(SHOTS / f"gm-joined-{lang}-1366x768.png"))
            phone.screenshot(path=str(SHOTS / f"player-joined-{lang}-390x844.png"), full_page=True)

            # 2. Take Sam out: off the order, « retiré » on the roster; u undoes, shift+u redoes.
            _open_tools(gm)  # the drawer stays open across updates; open it if it is not
            out = gm.locator('form[data-form="withdraw:"]')
            out.locator('select[name="fighter"]').select_option("sam")
            out.locator('button[type="submit"]').click()
            expect(gm.locator("[data-order]")).not_to_contain_text("Sam")
            expect(gm.locator('.roster tr[data-fighter="sam"]')).to_contain_text(words["withdrawn"])
            assert gm.locator("#redo-button").count() == 0
            gm.locator("h1").click()
            gm.keyboard.press("u")
            expect(gm.locator("[data-order]")).to_contain_text("Sam")
            expect(gm.locator("#redo-button")).to_be_visible()
            _inside(gm, "#redo-button")
            gm.screenshot(path=str(SHOTS / f"gm-undone-{lang}-1366x768.png"))
            gm.keyboard.press("Shift+U")
            expect(gm.locator("[data-order]")).not_to_contain_text("Sam")
            expect(gm.locator(".log")).to_contain_text(words["redone"])
            expect(gm.locator("#redo-button")).to_have_count(0)
            gm.screenshot(path=str(SHOTS / f"gm-redone-{lang}-1366x768.png"))
            expect(phone.locator("main")).to_contain_text(f"Sam le barman — {words['withdrawn']}")
            phone.screenshot(path=str(SHOTS / f"player-redone-{lang}-390x844.png"), full_page=True)

            # 3. A western tie: the GM's call (W-SPD-2), offered as a step of the turn.
            gm.goto(f"{base}/e/{western}")
            gm.locator('form[data-form="round:"] button[type="submit"]').click()
            tie = gm.locator('form[data-form="settle_tie:"]')
            expect(tie).to_be_visible()
            expect(tie).to_contain_text("W-SPD-2")
            _inside(gm, 'form[data-form="settle_tie:"] button[type="submit"]')
            expect(gm.locator("strong[data-due]")).to_contain_text("Bill")
            gm.screenshot(path=str(SHOTS / f"gm-tie-{lang}-1366x768.png"))
            tie.locator('select[name="first"]').select_option("jack")
            tie.locator('button[type="submit"]').click()
            expect(gm.locator("strong[data-due]")).to_contain_text("Jack")
            expect(gm.locator('form[data-form="settle_tie:"]')).to_have_count(0)

            # 4. Close the saloon's fight: its summary, numbers as the engine counts them.
            expected = fight_report(store.encounter(1))
            gm.goto(f"{base}/e/1")
            _open_tools(gm)
            gm.once("dialog", lambda d: d.accept())
            gm.locator('form[hx-post="/e/1/close"] button').click()
            for _ in range(100):  # htmx follows the redirect to the campaign in place
                if store.get_encounter(1).status == "closed":
                    break
                gm.wait_for_timeout(50)
            gm.goto(f"{base}/e/1")
            report = gm.locator("[data-report]")
            expect(report).to_be_visible()
            for f in expected.fighters:
                cells = report.locator(f'tr[data-fighter="{f.name}"] td').all_inner_texts()
                numbers = [str(n) for n in (f.attacks, f.hits, f.dealt, f.taken, f.rolls)]
                assert cells == [*numbers, luck_text(f.luck, lang)], (f.name, cells)
            assert report.locator("tr[data-side]").count() == len(expected.sides)
            _fits(gm)
            gm.screenshot(path=str(SHOTS / f"gm-summary-{lang}-1366x768.png"))
        finally:
            browser.close()
