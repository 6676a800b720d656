"""A player's phone (390×844) in Chromium, and the forms' legal offers.

The phone page is one column with what needs the player first: the roll asked of them on
the dice pad, brought into view when it comes; their own legal actions as big buttons
(44 px tall at least, measured); their sheet; the others in the ruleset's words; the
public log. A form offers a place for the table's dice only for a command that may roll
(a pass or a declaration has none), and a fighter held in a lock is offered breaking free
and nothing it cannot do. Screenshots go to ``out/test-output/phone/``.
"""

from __future__ import annotations

from typing import Any

import pytest

from conteur.dice import TypedDice
from conteur.engine import Command
from conteur.i18n import t
from conteur.store import Store
from conteur.web.view import option_text

from .test_browser import TIMEOUT_MS
from .test_browser_player import OUTPUT
from .test_browser_rolls import GM_SIZE, PHONE_SIZE, fresh_saloon, press
from .test_browser_rolls import browser as browser  # the fixtures, shared with that module
from .test_browser_rolls import site as site

SHOTS = OUTPUT / "phone"
TOUCH = 44


def _in_view(page: Any, selector: str) -> None:
    """The first element of ``selector`` is inside the viewport as the page is scrolled now."""
    box = page.locator(selector).first.bounding_box()
    height = page.viewport_size["height"]
    assert box is not None, selector
    assert box["y"] >= -1 and box["y"] + min(box["height"], height) <= height + 1, (selector, box)


def _tall(page: Any, selector: str) -> int:
    """Every visible element of ``selector`` is at least 44 px tall: their number."""
    boxes = [
        b
        for b in page.locator(selector).evaluate_all(
            "es => es.filter(e => e.offsetParent !== null).map(e => {"
            " const r = e.getBoundingClientRect(); return [e.outerHTML.slice(0, 80), r.height]; })"
        )
    ]
    short = [b for b in boxes if b[1] < TOUCH]
    assert short == [], short
    return len(boxes)


def _bottom(page: Any) -> None:
    """Scrolled to the end of the log: what needs the player is out of view."""
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(50)
    box = page.locator("[data-needs-me] > h3").bounding_box()
    assert box is not None and box["y"] + box["height"] < 0, box


def _one_column(page: Any) -> None:
    """The panel's blocks stack in one column, none wider than the phone."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_SIZE["width"]
    lefts = page.locator("#panel > *:not(.panel-msg)").evaluate_all(
        "es => es.filter(e => e.offsetParent !== null)"
        ".map(e => Math.round(e.getBoundingClientRect().left))"
    )
    assert len(set(lefts)) == 1, lefts


@pytest.mark.parametrize("lang", ["fr"])  # once (issue 15); both: test_browser_rulesets
def test_a_players_phone_page(site: tuple[str, Store, str], browser: Any, lang: str) -> None:
    from playwright.sync_api import expect

    base, store, _token = site
    SHOTS.mkdir(parents=True, exist_ok=True)
    eid, tokens = fresh_saloon(store, f"Saloon phone {lang}")
    enc = store.encounter(eid)
    bands = {r.id: t(r.band, lang) for r in enc.ruleset.roster(enc.state).rows}
    gm_ctx = browser.new_context(viewport=GM_SIZE)
    phone_ctx = browser.new_context(viewport=PHONE_SIZE, device_scale_factor=1)
    try:
        gm, phone = gm_ctx.new_page(), phone_ctx.new_page()
        for page in (gm, phone):
            page.set_default_timeout(TIMEOUT_MS)
        gm.goto(f"{base}/lang/{lang}?next=/e/{eid}%3Ftoken%3D{store.new_gm_token()}")
        phone.goto(f"{base}/lang/{lang}?next=/p/{tokens['jack']}")
        expect(phone.locator("#live")).to_have_attribute("data-live", "on")
        expect(gm.locator("#live")).to_have_attribute("data-live", "on")

        # The sheet, the others in the ruleset's words, the public log; one column.
        expect(phone.locator("[data-sheet] h3")).to_contain_text("Jack Malone")
        for fid in ("billy", "sam", "ezechiel"):
            row = phone.locator(f'[data-others] li[data-fighter="{fid}"] [data-status]')
            expect(row).to_have_text(bands[fid])
        expect(phone.locator(".log > li[data-seq]").first).to_be_visible()
        _one_column(phone)

        # The attack is the GM's to roll; the block is Jack's: his pad comes into view,
        # even when he was reading the log at the bottom of the page.
        _bottom(phone)
        gm.locator('form[data-form="act:ezechiel"] [data-rolls-start]').click()
        press(gm, [8, 9, 1, 3, 7, 10])
        gm.locator("#rolls [data-pad=submit]").click()
        pad = phone.locator("#rolls section.rolls")
        expect(pad.locator("[data-pad-counter]")).to_have_text("0 / 4")
        phone.wait_for_timeout(100)
        _in_view(phone, "#rolls section.rolls")
        _in_view(phone, "#rolls [data-pad=submit]")
        assert _tall(phone, "#rolls button") >= 10 + 3  # ten faces, back, send, roll for me
        _one_column(phone)
        phone.screenshot(path=str(SHOTS / f"pad-{lang}-390x844.png"))
        press(phone, [2, 3, 9, 4])
        phone.locator("#rolls [data-pad=submit]").click()
        expect(phone.locator("#rolls section.rolls")).to_have_count(0)

        # The damage and the soak on the GM's screen; then Jack's rank is over and Billy is
        # due (Sam's delayed action may interrupt): Billy's actions come into view on his
        # phone as big buttons, the dice box only where dice are rolled.
        billy = phone_ctx.new_page()
        billy.set_default_timeout(TIMEOUT_MS)
        billy.goto(f"{base}/p/{tokens['billy']}")
        expect(billy.locator("#live")).to_have_attribute("data-live", "on")
        _bottom(billy)
        expect(gm.locator("#rolls [data-pad-counter]")).to_have_text("0 / 5")
        press(gm, [6, 6, 2, 9, 1])
        gm.locator("#rolls [data-pad=submit]").click()
        expect(gm.locator("#rolls [data-pad-counter]")).to_have_text("0 / 3")
        press(gm, [3, 8, 2])
        gm.locator("#rolls [data-pad=submit]").click()
        act = billy.locator('form[data-form="act:billy"]')
        expect(act).to_be_visible()
        billy.wait_for_timeout(100)
        _in_view(billy, '[data-needs-me] form.command button[type="submit"]')
        mine = billy.locator("[data-needs-me] form.command").evaluate_all(
            "fs => fs.map(f => f.dataset.form)"
        )
        assert sorted(mine) == ["act:billy", "defend:billy", "pass:billy"], mine
        assert _tall(billy, '[data-needs-me] form.command button[type="submit"]') == 3
        assert _tall(billy, "[data-needs-me] form.command select") >= 1
        expect(act.locator('input[name="faces"]')).to_have_count(1)
        passing = billy.locator('form[data-form="pass:billy"]')
        expect(passing.locator('input[name="faces"]')).to_have_count(0)
        _one_column(billy)
        billy.screenshot(path=str(SHOTS / f"actions-{lang}-390x844.png"))
        billy.screenshot(path=str(SHOTS / f"page-{lang}-390x844.png"), full_page=True)
        # The GM's screen: the pass of the fighter due has no dice box either.
        expect(gm.locator('form[data-form="pass:billy"]')).to_be_visible()
        expect(gm.locator('form[data-form="pass:billy"] input[name="faces"]')).to_have_count(0)
        expect(gm.locator('form[data-form="pass:billy"] [data-rolls-start]')).to_have_count(0)
        current_act = gm.locator('.current form[data-form="act:billy"]')
        expect(current_act.locator('input[name="faces"]')).to_have_count(1)
    finally:
        gm_ctx.close()
        phone_ctx.close()


HOLD = [
    (Command("initiative", None, {}), "5 3 5 8"),
    (
        Command(
            "declare", "billy", {"kind": "weapon_strike", "target": "ezechiel", "weapon": "knife"}
        ),
        "",
    ),
    (Command("declare", "sam", {"delay": 1}), ""),
    (Command("declare", "jack", {"kind": "punch", "target": "ezechiel"}), ""),
    (Command("declare", "ezechiel", {"kind": "hold", "target": "jack"}), ""),
    (Command("act", "ezechiel", {}), "9 9 9 9 9 9 9"),  # the hold takes: Jack is held
]


@pytest.mark.parametrize("lang", ["en"])  # once (issue 15); both: test_browser_rulesets
def test_a_held_fighter_is_offered_breaking_free_and_nothing_else(
    site: tuple[str, Store, str], browser: Any, lang: str
) -> None:
    from playwright.sync_api import expect

    base, store, _token = site
    SHOTS.mkdir(parents=True, exist_ok=True)
    eid, tokens = fresh_saloon(store, f"Saloon hold {lang}", HOLD)
    free = option_text(t("word.break_free", lang))  # as a list of choices says it
    gm_ctx = browser.new_context(viewport=GM_SIZE)
    phone_ctx = browser.new_context(viewport=PHONE_SIZE, device_scale_factor=1)
    try:
        gm, phone = gm_ctx.new_page(), phone_ctx.new_page()
        for page in (gm, phone):
            page.set_default_timeout(TIMEOUT_MS)
        gm.goto(f"{base}/lang/{lang}?next=/e/{eid}%3Ftoken%3D{store.new_gm_token()}")
        phone.goto(f"{base}/lang/{lang}?next=/p/{tokens['jack']}")
        expect(gm.locator('.current[data-current="jack"]')).to_be_visible()

        # Jack's turn, held: his action is the escape roll, or a pass; no defence, no punch.
        for page in (gm, phone):
            mine = page.locator('form[data-form$=":jack"]').evaluate_all(
                "fs => fs.map(f => f.dataset.form)"
            )
            assert sorted(mine) == ["act:jack", "pass:jack"], mine
            kinds = page.locator('form[data-form="act:jack"] select[name="kind"] option')
            offered = [(o.get_attribute("value"), o.inner_text()) for o in kinds.all()]
            assert [o for o in offered if o[0]] == [("break_free", free)], offered
        gm.screenshot(path=str(SHOTS / f"held-gm-{lang}-1366x768.png"))
        phone.screenshot(path=str(SHOTS / f"held-phone-{lang}-390x844.png"), full_page=True)

        # The next turn: still held, Jack may declare only the escape (on his holder), no
        # move, no weapon, no defence; and no declaration form has a place for dice.
        for command, faces in [
            (Command("act", "jack", {"kind": "break_free"}), "1 2 2 2 2 2 10 10 10 10 10 10 10"),
            (Command("act", "billy", {}), "2 2 2 2 2"),
            (Command("initiative", None, {}), "5 3 5 8"),
            (Command("declare", "billy", {"delay": 1}), ""),
            (Command("declare", "sam", {"delay": 1}), ""),
        ]:
            store.execute(eid, command, TypedDice(faces))
        gm.reload()
        declare = gm.locator('form[data-form="declare:jack"]')
        expect(declare).to_be_visible()
        for name in ("kind", "then_kind"):
            values = declare.locator(f'select[name="{name}"] option').evaluate_all(
                "os => os.map(o => o.value).filter(v => v)"
            )
            assert values == ["break_free"], (name, values)
        targets = declare.locator('select[name="target"] option').evaluate_all(
            "os => os.map(o => o.value).filter(v => v)"
        )
        assert targets == ["ezechiel"], targets
        for empty in ("weapon", "full_defense", "move_to"):  # nothing to choose: no field
            expect(declare.locator(f'[name="{empty}"]')).to_have_count(0)
        expect(gm.locator('form[data-form^="declare:"] input[name="faces"]')).to_have_count(0)
        expect(gm.locator('form[data-form^="declare:"] [data-rolls-start]')).to_have_count(0)
        gm.screenshot(path=str(SHOTS / f"held-declare-{lang}-1366x768.png"))
    finally:
        gm_ctx.close()
        phone_ctx.close()
