"""Joining and logging in, in Chromium (issue 15 item 7): the first start's link asks the
game master for a password (1366×768), the campaign page's QR codes decode (zxing-cpp, on
the browser's own screenshot) to the players' links at the local network's address, and a
phone (390×844) opens the decoded link; the start link, used again, says so; the password
logs in; the settings page revokes the first session. In English (the French words: the
walks of ``test_browser_rulesets`` and ``test_words_pages``).

Screenshots: ``out/test-output/joining/``.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from conteur.store import Store, open_store
from conteur.web import create_app
from conteur.web.demo import load_demo
from conteur.web.hosting import Hosting, join_base

from .test_browser import ARGS, CHROMIUM, TIMEOUT_MS, _free_port, _need_browser, serving

SHOTS = Path(__file__).resolve().parents[2] / "out" / "test-output" / "joining"
GM_SIZE = {"width": 1366, "height": 768}
PHONE_SIZE = {"width": 390, "height": 844}
PASSWORD = "la diligence arrive"


@pytest.fixture
def lan_server(tmp_path: Path) -> Iterator[tuple[int, str, Store, str]]:
    """A first start listening on every interface, as ``conteur serve --host 0.0.0.0``: its
    port, the local network's base, the store, the start token (no password yet)."""
    store = open_store(f"sqlite:///{tmp_path / 'joining.db'}")
    load_demo(store)
    token = store.new_gm_token()
    port = _free_port()
    lan = join_base("0.0.0.0", port, None)
    app = create_app(store, hosting=Hosting(lan_url=lan))
    with serving(app, host="0.0.0.0", port=port):
        yield port, lan, store, token
    store.close()


def decode(png: bytes) -> list[str]:
    """The QR codes zxing-cpp reads in a screenshot."""
    import zxingcpp
    from PIL import Image

    return [r.text for r in zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))]


TEXT = {
    "fr": {
        "choose": "Choisissez votre mot de passe",
        "mismatch": "Les deux mots de passe diffèrent",
        "used": "Lien déjà utilisé",
        "used_body": "Connectez-vous avec votre mot de passe.",
        "join": "Rejoindre la table",
        "revoke": "Révoquer",
        "this_one": "(celle-ci)",
        "login": "Accès du Conteur",
    },
    "en": {
        "choose": "Choose your password",
        "mismatch": "The two passwords differ",
        "used": "Link already used",
        "used_body": "Log in with your password.",
        "join": "Joining the table",
        "revoke": "Revoke",
        "this_one": "(this one)",
        "login": "Storyteller's access",
    },
}


@pytest.mark.parametrize("lang", ["en"])  # once (issue 15); both: test_browser_rulesets
def test_joining_and_logging_in_in_the_browser(
    lan_server: tuple[int, str, Store, str], lang: str
) -> None:
    _need_browser()
    pytest.importorskip("zxingcpp")
    from playwright.sync_api import expect, sync_playwright

    port, lan, store, token = lan_server
    local = f"http://127.0.0.1:{port}"  # the GM's laptop opens the printed link
    words = TEXT[lang]
    SHOTS.mkdir(parents=True, exist_ok=True)
    jack = next(c for c in store.list_characters(1) if c.name == "Jack Malone")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            laptop = browser.new_context(viewport=GM_SIZE)
            gm = laptop.new_page()
            gm.set_default_timeout(TIMEOUT_MS)
            gm.goto(f"{local}/lang/{lang}?next=/c/1%3Ftoken%3D{token}")
            # The first visit asks for a password (typed twice, at least 8 characters).
            expect(gm.locator("h1")).to_have_text(words["choose"])
            assert gm.url == f"{local}/password?next=%2Fc%2F1"
            new = gm.locator('input[name="password"]')
            assert new.get_attribute("minlength") == "8"
            new.fill(PASSWORD)
            gm.locator('input[name="confirm"]').fill(PASSWORD + "!")
            gm.locator('form[data-form="password"] button[type="submit"]').click()
            expect(gm.locator("[data-password-message]")).to_contain_text(words["mismatch"])
            gm.screenshot(path=str(SHOTS / f"password-first-{lang}.png"))
            gm.locator('input[name="password"]').fill(PASSWORD)
            gm.locator('input[name="confirm"]').fill(PASSWORD)
            gm.locator('form[data-form="password"] button[type="submit"]').click()
            # ... then the page asked for: the campaign, with a QR code per player link.
            expect(gm.locator("#join")).to_have_text(words["join"])
            assert gm.url == f"{local}/c/1" and store.has_gm_password()
            cards = gm.locator(".qr-card")
            expect(cards).to_have_count(len(store.list_characters(1)))
            card = gm.locator(f'.qr-card[data-qr="{jack.slug}"]')
            card.scroll_into_view_if_needed()
            gm.screenshot(path=str(SHOTS / f"campaign-qr-{lang}.png"), full_page=True)
            box = card.locator("svg").bounding_box()
            assert box and box["width"] >= 140  # big enough for a phone across the table
            link = decode(card.locator("svg").screenshot())
            assert link == [f"{lan}/p/{jack.token}"]  # the LAN's address, not the laptop's
            assert lan != local or lan.startswith("http://127.0.0.1:")
            # A phone "scans" it: opens the decoded link.
            phone_ctx = browser.new_context(viewport=PHONE_SIZE, is_mobile=True, has_touch=True)
            phone = phone_ctx.new_page()
            phone.set_default_timeout(TIMEOUT_MS)
            phone.goto(f"{lan}/lang/{lang}?next=/p/{jack.token}")
            expect(phone.locator("body")).to_contain_text("Jack Malone")
            phone.screenshot(path=str(SHOTS / f"phone-joined-{lang}.png"))
            # The start link again, elsewhere: used up, it says so and asks for the password.
            other = browser.new_context(viewport=GM_SIZE).new_page()
            other.set_default_timeout(TIMEOUT_MS)
            other.goto(f"{local}/lang/{lang}?next=/%3Ftoken%3D{token}")
            expect(other.locator("h1")).to_have_text(words["used"])
            expect(other.locator("[data-login-message]")).to_contain_text(words["used_body"])
            other.screenshot(path=str(SHOTS / f"link-used-{lang}.png"))
            other.locator('input[name="token"]').fill(PASSWORD)
            other.locator('form[data-form="login"] button[type="submit"]').click()
            other.locator("[data-settings-link]").click()
            rows = other.locator("tr[data-session]")
            expect(rows).to_have_count(2)
            expect(other.locator("tr[data-current]")).to_contain_text(words["this_one"])
            other.screenshot(path=str(SHOTS / f"settings-sessions-{lang}.png"))
            # Revoke the laptop's first session: its next page asks to log in.
            other.locator("tr[data-session]:not([data-current]) button").click()
            expect(rows).to_have_count(1)
            gm.reload()
            expect(gm.locator("h1")).to_have_text(words["login"])
            gm.screenshot(path=str(SHOTS / f"revoked-{lang}.png"))
        finally:
            browser.close()
