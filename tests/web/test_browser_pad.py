"""The dice pad in Chromium, beyond vtm: it comes by the page's one live stream (no polling:
the requests are counted), a hunter chance die with its 10 rolled again typed on the
player's phone (390×844) — which keeps its screen awake meanwhile (a stub Wake Lock) —,
a western shot's d100 pad with its hit location on the GM's screen (1366×768), and the
table's screen and the player's page following the GM's new fight without a reload.

One server and one browser for the module; each test plays in its own campaign (set up
through the store). Screenshots go to ``out/test-output/rolls/``, to be looked at.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlparse

import pytest

from conteur.dice import TypedDice
from conteur.engine import Command
from conteur.store import Participant, Store, open_store
from conteur.web import create_app

from .conftest import GM_PASSWORD
from .test_browser import TIMEOUT_MS, _need_browser, serving
from .test_browser_player import OUTPUT
from .test_hunter_tracker import ANA, BETE
from .test_western_tracker import BILL, JACK

GM_SIZE = {"width": 1366, "height": 768}
PHONE_SIZE = {"width": 390, "height": 844}
SHOTS = OUTPUT / "rolls"
FAST_MS = 3000
"""A roll asked must reach the phone well within this (the stream, not a poll)."""

WAKE_LOCK_STUB = """
window.__wake = { requested: 0, released: 0, held: false };
Object.defineProperty(navigator, "wakeLock", { configurable: true, value: {
  request: function (kind) {
    window.__wake.requested += 1; window.__wake.held = true;
    var listeners = [];
    var lock = {
      type: kind, released: false,
      addEventListener: function (name, fn) { if (name === "release") listeners.push(fn); },
      release: function () {
        if (lock.released) return Promise.resolve();
        lock.released = true; window.__wake.released += 1; window.__wake.held = false;
        listeners.forEach(function (fn) { fn(); });
        return Promise.resolve();
      }
    };
    return Promise.resolve(lock);
  }
}});
"""
"""``navigator.wakeLock`` as the pad sees it, counting requests and releases."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Store]]:
    _need_browser()
    store = open_store(f"sqlite:///{tmp_path_factory.mktemp('pad') / 'pad.db'}")
    store.set_gm_password(GM_PASSWORD)
    with serving(create_app(store)) as port:
        yield f"http://127.0.0.1:{port}", store
    store.close()


@pytest.fixture(scope="module")
def browser(site: tuple[str, Store], chromium: Any) -> Any:
    """The module's Chromium (tests/web/conftest.py), opened after its server."""
    return chromium


class Requests:
    """The requests a page makes, by path and method."""

    def __init__(self, page: Any) -> None:
        self.seen: list[tuple[str, str]] = []
        page.on("request", lambda r: self.seen.append((r.method, urlparse(r.url).path)))

    def count(self, method: str, suffix: str) -> int:
        return sum(1 for m, path in self.seen if m == method and path.endswith(suffix))


def hunt(store: Store, name: str) -> tuple[int, int, str]:
    """A hunter campaign (players roll their own dice) at Ana's turn, the Bête dodging: her
    shot is a chance die (H-CHANCE-1). Its campaign, encounter and Ana's player token."""
    campaign = store.create_campaign(name, "hunter", settings={"player_input": True})
    ana = store.add_character(campaign.id, {**ANA, "armes à feu": 0})
    bete = store.add_character(campaign.id, BETE)
    info = store.start_encounter(
        campaign.id, "Nuit au dépôt", [Participant(ana.id, "cellule"), Participant(bete.id, "bete")]
    )
    for command, faces in [
        (Command("ambush", None, {"fighter": "bete"}), "8 2 3 4 5"),
        (Command("initiative", None, {}), "9 2"),
        (Command("dodge", "bete", {}), ""),
    ]:
        store.execute(info.id, command, TypedDice(faces))
    return campaign.id, info.id, ana.token


def gm_page(browser: Any, base: str, store: Store, path: str, lang: str) -> tuple[Any, Any]:
    ctx = browser.new_context(viewport=GM_SIZE)
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    token = store.new_gm_token()  # one session per context (a start link is single-use)
    page.goto(f"{base}/lang/{lang}?next={path}%3Ftoken%3D{token}")
    return ctx, page


HUNTER = {
    "fr": {
        "chance": "dé de chance",
        "again": "vague 1",
        "mine": "À vous de lancer",
        "line": "2 succès",
        "marks": ["succès, 10 relancé, dé de chance", "succès"],
    },
    "en": {
        "chance": "chance die",
        "again": "wave 1",
        "mine": "Your roll",
        "line": "2 successes",
        "marks": ["success, 10 rolled again, chance die", "success"],
    },
}


@pytest.mark.parametrize("lang", ["en"])  # once (issue 15); both: test_browser_rulesets
def test_a_hunter_chance_die_rolled_again_on_the_phone(
    site: tuple[str, Store], browser: Any, lang: str
) -> None:
    """Ana's shot is a chance die: the GM starts it, the phone gets it by the stream at
    once (wake lock asked), a 10 is typed, the 10 is rolled again (8: a success), and the
    log says 2 successes (H-CHANCE-1: only a 10 succeeds, and it rolls again), each die
    marked. No request polls the pad; each page holds one stream."""
    from playwright.sync_api import expect

    base, store = site
    words = HUNTER[lang]
    _, eid, ana = hunt(store, f"Vigile {lang}")
    gm_ctx, gm = gm_page(browser, base, store, f"/e/{eid}", lang)
    phone_ctx = browser.new_context(viewport=PHONE_SIZE, device_scale_factor=1)
    phone_ctx.add_init_script(WAKE_LOCK_STUB)
    try:
        phone = phone_ctx.new_page()
        phone.set_default_timeout(TIMEOUT_MS)
        gm_requests, phone_requests = Requests(gm), Requests(phone)
        gm.reload()  # counted from its loading on
        phone.goto(f"{base}/lang/{lang}?next=/p/{ana}")
        expect(phone.locator("#live")).to_have_attribute("data-live", "on")
        expect(gm.locator("#live")).to_have_attribute("data-live", "on")
        assert phone.evaluate("window.__wake.requested") == 0  # nothing asked yet

        form = gm.locator('form[data-form="act:ana"]')
        form.locator('select[name="kind"]').select_option("attack")
        form.locator('select[name="target"]').select_option("bete")
        form.locator("[data-rolls-start]").click()
        expect(gm.locator("#rolls [data-waiting]")).to_be_visible()
        mine = phone.locator("#rolls section.rolls")
        expect(mine.locator("h3")).to_contain_text(words["mine"], timeout=FAST_MS)
        expect(mine.locator("[data-ask-line]")).to_contain_text(words["chance"])
        expect(mine.locator("[data-pad-counter]")).to_have_text("0 / 1")
        phone.wait_for_function("window.__wake.held === true", timeout=FAST_MS)
        SHOTS.mkdir(parents=True, exist_ok=True)
        phone.screenshot(path=str(SHOTS / f"hunter-chance-phone-{lang}-390x844.png"))

        phone.keyboard.press("0")  # 0 is a 10
        expect(mine.locator("[data-pad-counter]")).to_have_text("1 / 1")
        phone.keyboard.press("Enter")
        # The 10 is rolled again: one die more, said as such.
        expect(mine.locator("p.dim").first).to_contain_text(words["again"])
        expect(mine.locator("[data-pad-counter]")).to_have_text("0 / 1")
        phone.locator('#rolls .pad-key[data-face="8"]').click()
        phone.screenshot(path=str(SHOTS / f"hunter-again-phone-{lang}-390x844.png"))
        phone.locator("#rolls [data-pad=submit]").click()

        expect(phone.locator("#rolls section.rolls")).to_have_count(0)
        expect(gm.locator("#rolls section.rolls")).to_have_count(0)
        phone.wait_for_function("window.__wake.held === false", timeout=FAST_MS)
        wake = phone.evaluate("window.__wake")
        assert wake["requested"] >= 1 and wake["released"] == wake["requested"], wake

        entry = gm.locator('.log li[data-seq="3"]')
        dice = entry.locator('[data-faces="10 8"] .die')
        expect(dice).to_have_count(2)
        titles = [dice.nth(i).get_attribute("title") for i in range(2)]
        assert titles == words["marks"], titles
        expect(entry).to_contain_text(words["line"])
        assert store.encounter(eid).state.fighters["bete"].health.marks().startswith("[X][X][ ]")
        entry.scroll_into_view_if_needed()
        gm.screenshot(path=str(SHOTS / f"hunter-chance-gm-{lang}-1366x768.png"))

        for requests in (gm_requests, phone_requests):
            assert requests.count("GET", "/rolls") == 0, requests.seen  # no polling
            assert requests.count("GET", "/stream") == 1, requests.seen  # one stream
    finally:
        gm_ctx.close()
        phone_ctx.close()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_face_typed_before_the_answer_comes_back_is_kept(
    site: tuple[str, Store], browser: Any, lang: str
) -> None:
    """The race a phone meets on a slow network: Ana's 10 is sent, the page's stream brings
    the 10 rolled again before the command's own answer comes back, and the player types
    the 8 at once. The late answer (the same box) must not wipe the 8: it is still there,
    and sent, and the roll ends (H-CHANCE-1: 2 successes)."""
    from playwright.sync_api import expect

    base, store = site
    words = HUNTER[lang]
    _, eid, ana = hunt(store, f"Réseau lent {lang}")
    gm_ctx, gm = gm_page(browser, base, store, f"/e/{eid}", lang)
    phone_ctx = browser.new_context(viewport=PHONE_SIZE, device_scale_factor=1)
    held: list[tuple[Any, Any]] = []

    def hold(route: Any) -> None:
        """The request reaches the server; its answer waits until the test lets it go."""
        held.append((route, route.fetch()))

    try:
        phone = phone_ctx.new_page()
        phone.set_default_timeout(TIMEOUT_MS)
        phone.goto(f"{base}/lang/{lang}?next=/p/{ana}")
        expect(phone.locator("#live")).to_have_attribute("data-live", "on")
        form = gm.locator('form[data-form="act:ana"]')
        form.locator('select[name="kind"]').select_option("attack")
        form.locator('select[name="target"]').select_option("bete")
        form.locator("[data-rolls-start]").click()
        mine = phone.locator("#rolls section.rolls")
        counter = mine.locator("[data-pad-counter]")
        expect(counter).to_have_text("0 / 1", timeout=FAST_MS)

        phone.route("**/rolls/faces", hold)
        phone.keyboard.press("0")
        phone.keyboard.press("Enter")
        # The stream, not the answer, shows the 10 rolled again.
        expect(mine.locator("p.dim").first).to_contain_text(words["again"])
        for _ in range(100):  # the handler keeps the answer once its fetch is back
            if held:
                break
            phone.wait_for_timeout(50)
        assert len(held) == 1
        phone.locator('#rolls .pad-key[data-face="8"]').click()
        expect(counter).to_have_text("1 / 1")
        phone.evaluate("document.getElementById('rolls').dataset.before = 'answer'")
        route, response = held.pop()
        route.fulfill(response=response)
        phone.unroute("**/rolls/faces")
        # The late answer put the same box in place (a new element): the 8 stays in it.
        phone.wait_for_function("!document.getElementById('rolls').dataset.before")
        expect(counter).to_have_text("1 / 1")
        phone.locator("#rolls [data-pad=submit]").click()
        expect(phone.locator("#rolls section.rolls")).to_have_count(0)
        entry = gm.locator('.log li[data-seq="3"]')
        expect(entry.locator('[data-faces="10 8"] .die')).to_have_count(2)
        expect(entry).to_contain_text(words["line"])
    finally:
        gm_ctx.close()
        phone_ctx.close()


def test_a_western_shot_on_the_d100_pad_with_its_location(
    site: tuple[str, Store], browser: Any
) -> None:
    """Bill's aimed shot, 56 %: a 4 on the d100 pad (typed, then « ajouter »), 42 for the
    location (keyboard: digits, space), 6 on the d8 of damage: a critical success moves
    the hit from the right hand to the right forearm, 6 × 0,75 = 4 PV (W-CRIT-1, W-LOC-1)."""
    from playwright.sync_api import expect

    base, store = site
    camp = store.create_campaign("Dodge City", "western")
    bill, jack = store.add_character(camp.id, BILL), store.add_character(camp.id, JACK)
    info = store.start_encounter(
        camp.id,
        "Duel",
        [Participant(bill.id, "bill", (0, 0)), Participant(jack.id, "jack", (12, 0))],
        extra={"witnesses": True},
    )
    store.execute(info.id, Command("round", None, {}), TypedDice(""))
    ctx, gm = gm_page(browser, base, store, f"/e/{info.id}", "fr")
    try:
        requests = Requests(gm)
        form = gm.locator('form[data-form="attack:bill"]')
        form.locator('select[name="target"]').select_option("jack")
        form.locator("[data-rolls-start]").click()
        pad = gm.locator("#rolls section.rolls")
        expect(pad.locator("[data-ask-line]")).to_contain_text("56")
        expect(pad.locator("[data-pad-counter]")).to_have_text("0 / 1")
        expect(pad.locator('.pad-key[data-digit="0"]')).to_be_visible()  # digits, not faces
        gm.locator('#rolls .pad-key[data-digit="4"]').click()
        gm.locator('#rolls [data-pad="add"]').click()
        expect(pad.locator("[data-pad-counter]")).to_have_text("1 / 1")
        SHOTS.mkdir(parents=True, exist_ok=True)
        gm.screenshot(path=str(SHOTS / "western-d100-gm-fr-1366x768.png"))
        gm.locator("#rolls [data-pad=submit]").click()
        expect(pad.locator("h3")).to_contain_text("Localisation")
        gm.keyboard.type("42")
        gm.keyboard.press("Enter")  # the number typed is one die
        expect(pad.locator("[data-pad-counter]")).to_have_text("1 / 1")
        gm.keyboard.press("Enter")  # and the roll is sent
        expect(pad.locator("h3")).to_contain_text("Dégâts")
        expect(pad.locator(".pad-key[data-face]")).to_have_count(8)  # a d8
        gm.locator('#rolls .pad-key[data-face="6"]').click()
        gm.locator("#rolls [data-pad=submit]").click()
        expect(gm.locator("#rolls section.rolls")).to_have_count(0)
        entry = gm.locator('.log li[data-seq="1"]')
        expect(entry).to_contain_text("42 → main droite")
        expect(entry).to_contain_text("main droite → avant-bras droit")
        expect(entry).to_contain_text("6 × 0,75 (avant-bras droit) = 4 PV perdus")
        expect(entry.locator('[data-faces="4"]')).to_have_count(1)
        entry.scroll_into_view_if_needed()
        gm.screenshot(path=str(SHOTS / "western-location-gm-fr-1366x768.png"))
        assert requests.count("GET", "/rolls") == 0, requests.seen
    finally:
        ctx.close()


def test_the_table_and_the_phone_follow_the_gms_new_fight(
    site: tuple[str, Store], browser: Any
) -> None:
    """The table's screen and Ana's phone wait for a fight; the GM starts one from the
    campaign page: both show it by themselves, without a reload by anyone; then another
    one: both switch to it; the fights are closed: both say there is none."""
    from playwright.sync_api import expect

    base, store = site
    campaign = store.create_campaign("Vigile suite", "hunter", settings={"player_input": True})
    ana = store.add_character(campaign.id, ANA)
    store.add_character(campaign.id, BETE)
    cid, table_token = campaign.id, store.table_token(campaign.id)
    ctx, gm = gm_page(browser, base, store, f"/c/{cid}", "fr")
    screen_ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
    phone_ctx = browser.new_context(viewport=PHONE_SIZE, device_scale_factor=1)
    try:
        screen, phone = screen_ctx.new_page(), phone_ctx.new_page()
        for page in (screen, phone):
            page.set_default_timeout(TIMEOUT_MS)
        screen.goto(f"{base}/t/{table_token}")
        phone.goto(f"{base}/p/{ana.token}")
        expect(screen.locator(".table-none")).to_be_visible()
        expect(phone.locator("#panel")).to_contain_text("aucune rencontre")
        expect(screen.locator("#live")).to_have_attribute("data-live", "on")
        expect(phone.locator("#live")).to_have_attribute("data-live", "on")

        for name in ("Nuit au dépôt", "Deuxième nuit"):
            gm.goto(f"{base}/c/{cid}")
            gm.locator('#new-encounter input[name="name"]').fill(name)
            gm.locator('#new-encounter button[type="submit"]').click()
            gm.wait_for_url("**/e/*")
            expect(screen.locator("h1")).to_contain_text(name, timeout=FAST_MS)
            expect(phone.locator("#panel h2")).to_have_text(name, timeout=FAST_MS)
            expect(screen.locator("#live")).to_have_attribute("data-live", "on")
        SHOTS.mkdir(parents=True, exist_ok=True)
        screen.screenshot(path=str(SHOTS / "table-follows-fr-1920x1080.png"))
        phone.screenshot(path=str(SHOTS / "phone-follows-fr-390x844.png"))

        # Closed by another process (here the store): the streams see it on their next
        # look at the database (every 2 s), with no command of this server to wake them.
        for info in store.list_encounters(cid, "open"):
            store.close_encounter(info.id)
        expect(screen.locator(".table-none")).to_be_visible()
        expect(phone.locator("#panel")).to_contain_text("aucune rencontre")
    finally:
        ctx.close()
        screen_ctx.close()
        phone_ctx.close()
