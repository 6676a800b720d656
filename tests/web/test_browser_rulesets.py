"""One fight per ruleset in Chromium, through the tracker's pages only: vtm, hunter, western
and the toy duel of ``tests/plugins`` (an entry-point plugin, no code of its own in ``src``).

For each, in French and in English, the game master (1366×768) creates the campaign on the
home page, pastes the characters on the campaign page, starts the encounter from its form,
starts the fight, and plays the first action with the table's dice typed in its form; the
next fighter's turn follows. While the action is due, at 1366×768 and at 1024×768, every
control of the turn — the battle map too when the ruleset has one — is inside the viewport
with no scrolling (bounding boxes) and nothing overflows its column; a player's phone (390×844) follows live. The faces typed are the ones
the engine asks for (``conteur.engine.plan.next_roll``), so the walk reads no ruleset's
internals. Screenshots go to ``out/test-output/rulesets/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from conteur.engine import Command
from conteur.store import Store, open_store
from conteur.web import create_app
from ruleset_fights import FIGHTS, line, table_rolls

from .conftest import GM_PASSWORD
from .test_browser import TIMEOUT_MS, _need_browser, serving
from .test_browser_player import OUTPUT
from .test_screens import SIZES, _fits, _inside

SHOTS = OUTPUT / "rulesets"
PHONE = {"width": 390, "height": 844}

SIDES = {"fr": ("Les Bleus", "Les Rouges"), "en": ("The Blues", "The Reds")}
"""The two sides' names, as a GM would type them in the page's language."""


WALKS = FIGHTS
"""A ruleset's short fight (``tests/ruleset_fights.py``): its characters as a campaign file,
the command that starts the fight, what each fighter declares first (when the ruleset has
declarations), and the action of the fighter due, against the other one."""

TURN_CONTROLS = (
    ".current h3",
    '.current button[type="submit"]',
    '.current input[name="faces"]',
    "#undo-button",
    "[data-order]",
    ".roster thead th:last-child",  # the last column, unclipped
    ".log > li",
    'details[data-drawer="tools"] > summary',
    'details[data-drawer="odds"] > summary',
)


def faces_for(store: Store, eid: int, command: Command) -> str:
    """The faces a table would type for ``command`` now: as many as the engine asks, each
    below the die's highest face (no reroll), as the form's one line."""
    pattern = (7, 3, 8, 2, 6, 4, 5)

    def face(sides: int, n: int) -> int:
        return 1 + (pattern[n % 7] - 1) % max(sides - 1, 1)

    return line(table_rolls(store.encounter(eid), command, face))


def _submit(page: Any, form: Any, values: dict[str, str], faces: str | None) -> None:
    for name, value in values.items():
        form.locator(f'select[name="{name}"]').select_option(value)
    if faces is not None:
        form.locator('input[name="faces"]').fill(faces)
    form.locator('button[type="submit"]').click()


def _due(store: Store, eid: int) -> str:
    enc = store.encounter(eid)
    due = enc.ruleset.turn_view(enc.state).due
    assert due, "nobody is due"
    return due[0]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Store]]:
    _need_browser()
    store = open_store(f"sqlite:///{tmp_path_factory.mktemp('rulesets') / 'rulesets.db'}")
    store.set_gm_password(GM_PASSWORD)
    with serving(create_app(store)) as port:
        yield f"http://127.0.0.1:{port}", store
    store.close()


@pytest.fixture(scope="module")
def browser(site: tuple[str, Store], chromium: Any) -> Any:
    """The module's Chromium (tests/web/conftest.py), opened after its server."""
    return chromium


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("ruleset", list(WALKS))
def test_one_fight_per_ruleset_fits_the_gms_screen(
    site: tuple[str, Store], browser: Any, ruleset: str, lang: str
) -> None:
    from playwright.sync_api import expect

    base, store = site
    walk = WALKS[ruleset]
    SHOTS.mkdir(parents=True, exist_ok=True)
    gm_ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    phone_ctx = browser.new_context(viewport=PHONE)
    try:
        gm = gm_ctx.new_page()
        gm.set_default_timeout(TIMEOUT_MS)
        gm.goto(f"{base}/lang/{lang}?next=/%3Ftoken%3D{store.new_gm_token()}")
        expect(gm.locator("html")).to_have_attribute("lang", lang)

        # The campaign, its characters and the encounter, from the pages' own forms.
        new = gm.locator('form[action="/campaigns"]')
        new.locator('input[name="name"]').fill(f"{ruleset} {lang}")
        new.locator('select[name="ruleset"]').select_option(ruleset)
        new.locator('button[type="submit"]').click()
        paste = gm.locator('form[action$="/characters"]')
        paste.locator('textarea[name="text"]').fill(walk.sheets)
        paste.locator('button[type="submit"]').click()
        start = gm.locator("#new-encounter")
        sides = start.locator('input[name^="side_"]')
        expect(sides).to_have_count(2)
        for i, side in enumerate(SIDES[lang]):
            sides.nth(i).fill(side)
        start.locator('button[type="submit"]').click()
        expect(gm.locator("#live")).to_have_attribute("data-live", "on")
        eid = int(gm.url.rsplit("/", 1)[1])
        ids = list(store.encounter(eid).ruleset.names(store.encounter(eid).state))
        assert len(ids) == 2, ids

        player = phone_ctx.new_page()
        player.set_default_timeout(TIMEOUT_MS)
        char = store.list_characters(store.get_encounter(eid).campaign_id)[0]
        player.goto(f"{base}/lang/{lang}?next=/p/{char.token}")
        expect(player.locator("#live")).to_have_attribute("data-live", "on")

        # The fight starts (with the table's dice when it rolls), then the declarations.
        seq = store.last_seq(eid)
        form = gm.locator(f'form[data-form="{walk.begin}:"]')
        rolls = form.locator('input[name="faces"]').count() > 0
        _submit(gm, form, {}, faces_for(store, eid, Command(walk.begin)) if rolls else None)
        expect(gm.locator("#panel")).to_have_attribute("data-seq", str(seq + 1))
        if walk.declare is not None:
            for _ in ids:
                fid = _due(store, eid)
                other = next(i for i in ids if i != fid)
                seq = store.last_seq(eid)
                _submit(
                    gm, gm.locator(f'form[data-form="declare:{fid}"]'), walk.declare(other), None
                )
                expect(gm.locator("#panel")).to_have_attribute("data-seq", str(seq + 1))

        # The action due: every control of the turn in view, at both sizes.
        actor = _due(store, eid)
        other = next(i for i in ids if i != actor)
        current = gm.locator(f'.current[data-current="{actor}"]')
        expect(current).to_be_visible()
        action = current.locator(f'form[data-form="{walk.action}:{actor}"]')
        expect(action).to_be_visible()
        if current.locator(".current-odds").count():  # priced as it will be acted: no refusal
            expect(current.locator(".current-odds [data-odds]").first).to_be_visible()
            expect(current.locator(".current-odds .message.error")).to_have_count(0)
        controls = [*TURN_CONTROLS, f'.roster tr[data-fighter="{actor}"]']
        controls += [f'.current form.command select[name="{n}"]' for n in walk.args(other)]
        enc = store.encounter(eid)
        if enc.ruleset.battle_map(enc.state) is not None:  # the map, whole, and the actor on it
            controls += ["#battle-map svg", f'#battle-map .token[data-fighter="{actor}"]']
        for width, height in SIZES:
            gm.set_viewport_size({"width": width, "height": height})
            gm.wait_for_timeout(100)
            gm.screenshot(path=str(SHOTS / f"gm-{ruleset}-{lang}-{width}x{height}.png"))
            _fits(gm)
            for selector in controls:
                _inside(gm, selector)
        gm.set_viewport_size({"width": 1366, "height": 768})

        # The action with the table's dice typed in its form; then the next one is due.
        command = Command(walk.action, actor, walk.args(other))
        seq = store.last_seq(eid)
        _submit(gm, action, walk.args(other), faces_for(store, eid, command))
        expect(gm.locator("#panel")).to_have_attribute("data-seq", str(seq + 1))
        entry = store.encounter(eid).log[-1]
        assert entry.to_dict()["command"]["type"] == walk.action, entry.to_dict()
        name = store.encounter(eid).ruleset.names(store.encounter(eid).state)[actor]
        expect(player.locator(".log")).to_contain_text(name)  # the phone follows, live
        nxt = _due(store, eid)
        assert nxt != actor, "the turn did not move on"
        expect(gm.locator(f'.current[data-current="{nxt}"]')).to_be_visible()
        _fits(gm)
        _inside(gm, '.current button[type="submit"]')
        gm.screenshot(path=str(SHOTS / f"gm-{ruleset}-{lang}-next-1366x768.png"))
        assert player.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        player.screenshot(path=str(SHOTS / f"player-{ruleset}-{lang}-390x844.png"), full_page=True)
    finally:
        gm_ctx.close()
        phone_ctx.close()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_card_shows_no_refusal_for_a_punch_with_an_opening_move(
    site: tuple[str, Store], browser: Any, lang: str
) -> None:
    """V-MAN-6 beside V-GEN-1, at 1366×768: a punch declared 10 m away « en s'approchant de »
    its target is priced on the current action's card (the act closes in and strikes); once
    the target stands 60 m away, beyond half a run, the card says it is too far."""
    from playwright.sync_api import expect

    from conteur.dice import TypedDice

    from .test_current import ten_metres_apart

    base, store = site
    eid = ten_metres_apart(store)
    store.run_command(eid, Command("initiative"), TypedDice("5 3"))
    for _ in range(2):
        fid = _due(store, eid)
        other = "ezechiel" if fid == "jack" else "jack"
        args = {"kind": "punch", "target": other, "move_to": other}
        store.run_command(eid, Command("declare", fid, args), TypedDice(""))
    actor = _due(store, eid)
    other = "ezechiel" if actor == "jack" else "jack"
    names = store.encounter(eid).ruleset.names(store.encounter(eid).state)

    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        gm = ctx.new_page()
        gm.set_default_timeout(TIMEOUT_MS)
        gm.goto(f"{base}/lang/{lang}?next=/e/{eid}%3Ftoken%3D{store.new_gm_token()}")
        expect(gm.locator("#live")).to_have_attribute("data-live", "on")
        card = gm.locator(f'.current[data-current="{actor}"]')
        expect(card.locator(".declared")).to_contain_text(names[other])
        expect(card.locator('.current-odds [data-odds="hit"]')).to_be_visible()
        expect(card.locator(".message.error")).to_have_count(0)
        _inside(gm, ".current-odds")
        gm.screenshot(path=str(SHOTS / f"card-reach-{lang}-1366x768.png"))

        # The target steps out of any reach; the page follows live and the card refuses.
        seq = store.last_seq(eid)
        away = Command("gm_move", None, {"fighter": other, "to": [60, 0]})
        store.run_command(eid, away, TypedDice(""))
        expect(gm.locator("#panel")).to_have_attribute("data-seq", str(seq + 1))
        refusal = card.locator(".current-odds .message.error")
        far = {"fr": f"{names[other]} est à 45,5 m", "en": f"{names[other]} is 45.5 m away"}[lang]
        expect(refusal).to_contain_text(far)
        expect(card.locator('.current-odds [data-odds="hit"]')).to_have_count(0)
        _inside(gm, ".current-odds .message.error")
        gm.screenshot(path=str(SHOTS / f"card-too-far-{lang}-1366x768.png"))
    finally:
        ctx.close()
