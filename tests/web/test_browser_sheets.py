"""Sheet forms in Chromium (issue 16 items 1-3), 1366×768, in French: a GM builds
a vtm, a hunter and a western character through the forms (dots clicked and moved with the
keyboard), bad input is refused beside its field in the page's language, a Foundry Vampire
actor is imported through the page, a quick NPC is added in the encounter builder.

Screenshots: ``out/test-output/sheets/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from conteur.store import Store, open_store
from conteur.web import create_app

from .conftest import GM_PASSWORD
from .test_browser import ARGS, CHROMIUM, TIMEOUT_MS, _need_browser, serving

SHOTS = Path(__file__).resolve().parents[2] / "out" / "test-output" / "sheets"
FOUNDRY = Path(__file__).resolve().parents[1] / "vtm" / "foundry" / "vampire.json"
GM_SIZE = {"width": 1366, "height": 768}

WORDS = {
    "fr": {"mortal_max": "au plus 5 points", "size": "nombre entier", "force": "30"},
    "en": {"mortal_max": "at most 5 dots", "size": "whole number", "force": "30"},
}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[int, Store, dict[str, int]]]:
    store = open_store(f"sqlite:///{tmp_path / 'sheets.db'}")
    store.set_gm_password(GM_PASSWORD)
    ids = {
        "vtm": store.create_campaign("Paris", "vtm", era="modern").id,
        "hunter": store.create_campaign("Cellules", "hunter").id,
        "western": store.create_campaign("Tombstone", "western").id,
    }
    with serving(create_app(store)) as port:
        yield port, store, ids
    store.close()


@pytest.mark.parametrize("lang", ["fr"])  # once (issue 15); both: test_browser_rulesets
def test_gm_builds_characters_without_yaml(
    server: tuple[int, Store, dict[str, int]], lang: str
) -> None:
    _need_browser()
    from playwright.sync_api import expect, sync_playwright

    port, store, ids = server
    base = f"http://127.0.0.1:{port}"
    words = WORDS[lang]
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = browser.new_context(viewport=GM_SIZE).new_page()
            page.set_default_timeout(TIMEOUT_MS)
            token = store.new_gm_token()
            page.goto(f"{base}/lang/{lang}?next=/c/{ids['vtm']}%3Ftoken%3D{token}")
            # vtm: a mortal with six dots of Strength is refused beside Strength.
            form = page.locator('form[data-form="sheet"]')
            form.locator('input[name="f.name"]').fill("Mina")
            form.locator('select[name="f.kind"]').select_option("mortal")
            expect(form.locator('[data-section="disciplines"]')).to_be_hidden()
            form.locator('[data-field="attributes.strength"] .dot[title="6"]').click()
            form.locator('button[type="submit"]').click()
            err = page.locator('[data-field="attributes.strength"] .field-error')
            expect(err).to_contain_text(words["mortal_max"])
            err.scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"vtm-refused-{lang}.png"))
            # ... made a vampire, Dexterity chosen with the keyboard, weapons from the table.
            form = page.locator('form[data-form="sheet"]')
            form.locator('select[name="f.kind"]').select_option("vampire")
            expect(form.locator('[data-section="disciplines"]')).to_be_visible()
            dex = form.locator('[data-field="attributes.dexterity"] input[value="1"]')
            dex.focus()
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowRight")
            assert (
                form.locator('[data-field="attributes.dexterity"] input:checked').get_attribute(
                    "value"
                )
                == "3"
            )
            expect(form.locator('[data-field="attributes.dexterity"] .dot.on')).to_have_count(3)
            form.locator('[data-field="disciplines.celerity"] .dot[title="2"]').click()
            form.locator('select[name="f.weapons"]').select_option(["heavy_pistol", "knife"])
            form.locator('input[name="f.state.side"]').fill("PJ")
            page.screenshot(path=str(SHOTS / f"vtm-form-{lang}.png"))
            form.locator('button[type="submit"]').click()
            expect(page.locator("h1")).to_contain_text("Mina")
            mina = next(c for c in store.list_characters(ids["vtm"]) if c.name == "Mina")
            assert mina.sheet["attributes"] == {"strength": 6, "dexterity": 3}
            assert mina.sheet["disciplines"] == {"celerity": 2}
            assert mina.sheet["weapons"] == ["knife", "heavy_pistol"] or mina.sheet["weapons"] == [
                "heavy_pistol",
                "knife",
            ]
            # The Foundry export of a Vampire actor, through the page.
            page.goto(f"{base}/c/{ids['vtm']}")
            page.locator('form[data-form="import-file"] input[type="file"]').set_input_files(
                str(FOUNDRY)
            )
            page.locator('form[data-form="import-file"] button[type="submit"]').click()
            expect(page.locator("h1")).to_contain_text("Lucien Valois")
            expect(page.locator("[data-unmapped] li").first).to_be_visible()
            page.screenshot(path=str(SHOTS / f"foundry-{lang}.png"), full_page=True)
            # A quick NPC in the encounter builder.
            page.goto(f"{base}/c/{ids['vtm']}")
            builder = page.locator("#new-encounter")
            builder.locator('select[name="npc1_who"]').select_option("q")
            builder.locator('input[name="npc1_name"]').fill("Gros Bill")
            builder.locator('input[name="npc1_side"]').fill("voyous")
            builder.locator('select[name="npc2_who"]').select_option("a:thug")
            builder.scroll_into_view_if_needed()
            page.screenshot(path=str(SHOTS / f"builder-{lang}.png"))
            builder.locator('button[type="submit"]').click()
            page.wait_for_url(f"{base}/e/*")
            eid = int(page.url.rsplit("/", 1)[1])
            fighters = store.encounter(eid).state.fighters
            assert "gros_bill" in fighters and "thug" in fighters
            assert fighters["gros_bill"].side == "voyous"
            # hunter: Size refused beside Size, then the hunter made.
            page.goto(f"{base}/c/{ids['hunter']}")
            form = page.locator('form[data-form="sheet"]')
            form.locator('input[name="f.name"]').fill(f"Dean {lang}")
            form.locator('[data-field="firearms"] .dot[title="3"]').click()
            form.locator('select[name="f.weapons"]').select_option(["shotgun"])
            form.locator('input[name="f.size"]').fill("grand")
            form.locator('button[type="submit"]').click()
            expect(page.locator('[data-field="size"] .field-error')).to_contain_text(words["size"])
            page.screenshot(path=str(SHOTS / f"hunter-refused-{lang}.png"))
            page.locator('form[data-form="sheet"] input[name="f.size"]').fill("5")
            page.locator('form[data-form="sheet"] button[type="submit"]').click()
            expect(page.locator("h1")).to_contain_text(f"Dean {lang}")
            # western: Force 30 refused beside Force, then Billy made.
            page.goto(f"{base}/c/{ids['western']}")
            form = page.locator('form[data-form="sheet"]')
            form.locator('input[name="f.name"]').fill(f"Billy {lang}")
            form.locator('input[name="f.characteristics.force"]').fill("30")
            form.locator('input[name="f.skills.aimed_pistol"]').fill("60")
            form.locator('select[name="f.weapons"]').select_option(["colt_saa"])
            form.locator('button[type="submit"]').click()
            expect(
                page.locator('[data-field="characteristics.force"] .field-error')
            ).to_contain_text(words["force"])
            page.screenshot(path=str(SHOTS / f"western-refused-{lang}.png"))
            page.locator('form[data-form="sheet"] input[name="f.characteristics.force"]').fill("14")
            page.locator('form[data-form="sheet"] button[type="submit"]').click()
            expect(page.locator("h1")).to_contain_text(f"Billy {lang}")
            billy = next(
                c for c in store.list_characters(ids["western"]) if c.name == f"Billy {lang}"
            )
            assert billy.sheet["skills"] == {"aimed_pistol": 60}
        finally:
            browser.close()
