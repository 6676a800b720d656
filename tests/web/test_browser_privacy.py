"""What players see, in Chromium, in English: the GM (1366×768) chooses on the
campaign page that players read NPCs as « Adversaire 1 » / "Opponent 1", their allies'
exact health and NPCs' dice; the player's phone (390×844) follows. A GM's secret note (its
box ticked) never reaches the phone until he clicks « montrer » / "show" on its log line,
then it arrives live; the phone's log numbers have no gap where the GM's secrets are; an
NPC joining hidden (the join form's box) stays off the phone; the GM logs out.

Screenshots: ``out/test-output/privacy/`` (or ``$CONTEUR_TEST_OUTPUT/privacy``).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from conteur.store import Participant, Store
from conteur.web.demo import demo_data

from .test_browser import ARGS, CHROMIUM, TIMEOUT_MS, _need_browser
from .test_browser import server as server  # the fixture, shared with that test

OUTPUT = (
    Path(
        os.environ.get(
            "CONTEUR_TEST_OUTPUT", Path(__file__).resolve().parents[2] / "out" / "test-output"
        )
    )
    / "privacy"
)
MARKER = "MARQUEUR-GM-BROWSER-5"
NPC = "Sam le barman"
WORDS = {
    "fr": {
        "label": "Adversaire 1",
        "show": "montrer",
        "logout": "Se déconnecter",
        "secret": "secret",
    },
    "en": {"label": "Opponent 1", "show": "show", "logout": "Log out", "secret": "secret"},
}


def back_room(store: Store) -> tuple[int, str]:
    sam = next(c for c in demo_data()["combatants"] if c["id"] == "sam")
    chars = {c.name: c for c in store.list_characters(1)}
    jack, billy = chars["Jack Malone"], chars["Billy Harper"]
    info = store.start_encounter(
        1,
        "Arrière-salle",
        [
            Participant(jack.id, side="cow-boys", position=(0, 0), combatant_id="jack"),
            Participant(billy.id, side="cow-boys", position=(1, 0), combatant_id="billy"),
        ],
        npcs=[sam],
    )
    return info.id, jack.token


@pytest.mark.parametrize("lang", ["en"])  # once (issue 15); both: test_browser_rulesets
def test_what_players_see_follows_the_gms_choices_and_secrets(
    lang: str, request: pytest.FixtureRequest
) -> None:
    _need_browser()
    from playwright.sync_api import expect, sync_playwright

    base, store, gm_token = request.getfixturevalue("server")
    eid, token = back_room(store)
    words = WORDS[lang]
    OUTPUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            gm_ctx = browser.new_context(viewport={"width": 1366, "height": 768})
            phone_ctx = browser.new_context(viewport={"width": 390, "height": 844})
            gm, phone = gm_ctx.new_page(), phone_ctx.new_page()
            gm.set_default_timeout(TIMEOUT_MS)
            phone.set_default_timeout(TIMEOUT_MS)
            gm.goto(f"{base}/?token={gm_token}")
            gm.goto(f"{base}/lang/{lang}?next=/c/1")
            phone.goto(f"{base}/lang/{lang}?next=/p/{token}")
            expect(phone.locator("#live")).to_have_attribute("data-live", "on")
            expect(phone.locator("[data-others]")).to_contain_text(NPC)

            # The campaign's choices: labels, allies' exact health, NPCs' dice.
            form = gm.locator('form[data-form="privacy"]')
            form.locator('input[name="npc_names"][value="labels"]').check()
            form.locator('input[name="ally_health"][value="exact"]').check()
            form.locator('input[name="npc_dice"]').check()
            gm.screenshot(path=str(OUTPUT / f"campaign-{lang}-1366x768.png"), full_page=True)
            form.locator('button[type="submit"]').click()
            expect(gm.locator('input[name="npc_names"][value="labels"]')).to_be_checked()
            phone.reload()
            expect(phone.locator("[data-others]")).to_contain_text(words["label"])
            expect(phone.locator('[data-fighter="billy"] [data-ally-health]')).to_be_visible()
            assert NPC not in phone.content()

            # A secret note: on the GM's page, never on the phone, until he shows it.
            gm.goto(f"{base}/e/{eid}")
            expect(gm.locator("#live")).to_have_attribute("data-live", "on")
            gm.locator('[data-drawer="tools"] > summary').click()
            note = gm.locator('form[data-form="gm_note:"]')
            note.locator('input[name="reason"]').fill(MARKER)
            note.locator("input[data-secret]").check()
            note.locator('button[type="submit"]').click()
            line = gm.locator("ol.log > li", has_text=MARKER)
            expect(line).to_be_visible()
            gm.wait_for_timeout(800)  # the stream had its chance to (wrongly) tell the phone
            assert MARKER not in phone.content()
            assert NPC not in phone.content()
            seqs = phone.locator("ol.log > li[data-seq]").evaluate_all(
                "els => els.map(e => Number(e.dataset.seq))"
            )
            assert sorted(seqs) == list(range(len(seqs)))  # no gap where the secret is
            gm.screenshot(path=str(OUTPUT / f"gm-secret-{lang}-1366x768.png"))
            phone.screenshot(path=str(OUTPUT / f"player-secret-{lang}-390x844.png"), full_page=True)

            line.locator("[data-show]").click()
            expect(phone.locator("ol.log")).to_contain_text(MARKER)  # live, by the stream
            expect(gm.locator("ol.log > li", has_text=MARKER).first).to_be_visible()
            seqs = phone.locator("ol.log > li[data-seq]").evaluate_all(
                "els => els.map(e => Number(e.dataset.seq))"
            )
            assert sorted(seqs) == list(range(len(seqs)))
            phone.screenshot(path=str(OUTPUT / f"player-shown-{lang}-390x844.png"), full_page=True)

            # An NPC joins hidden: the GM's roster has it, the phone nothing of it.
            gm.locator('[data-drawer="tools"] > summary').click()
            join = gm.locator('form[data-form="join"]')
            if not join.is_visible():
                gm.locator('[data-drawer="tools"] > summary').click()
            archetype = join.locator('select[name="who"] option[value^="a:"]').first
            join.locator('select[name="who"]').select_option(archetype.get_attribute("value"))
            join.locator('input[name="name"]').fill("Ombre Furtive")
            join.locator("input[data-join-hidden]").check()
            join.locator('button[type="submit"]').click()
            expect(gm.locator(".roster")).to_contain_text("Ombre Furtive")
            gm.wait_for_timeout(800)
            assert "Ombre Furtive" not in phone.content()
            assert "furtive" not in phone.content().lower()
            gm.screenshot(path=str(OUTPUT / f"gm-joined-hidden-{lang}-1366x768.png"))

            # The GM logs out: his page asks for the password again.
            gm.locator("[data-logout] button").click()
            expect(gm.locator('input[type="password"]').first).to_be_visible()
            gm.goto(f"{base}/e/{eid}")
            expect(gm.locator('input[type="password"]').first).to_be_visible()
            gm.screenshot(path=str(OUTPUT / f"gm-logged-out-{lang}-1366x768.png"))
            assert re.search(r"\d", words["label"])
        finally:
            browser.close()
