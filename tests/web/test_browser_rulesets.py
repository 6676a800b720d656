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

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from conteur.engine import Command
from conteur.engine.plan import next_roll
from conteur.store import Store, open_store
from conteur.web import create_app

from .conftest import GM_PASSWORD
from .test_browser import ARGS, CHROMIUM, TIMEOUT_MS, _need_browser, serving
from .test_browser_player import OUTPUT
from .test_screens import SIZES, _fits, _inside

SHOTS = OUTPUT / "rulesets"
PHONE = {"width": 390, "height": 844}


@dataclass(frozen=True)
class Walk:
    """A ruleset's short fight: its characters (a campaign file, as a GM pastes it), the
    command that starts the fight, what each fighter declares first (when the ruleset has
    declarations), and the action of the fighter due, against the other one."""

    sheets: str
    start: str
    action: str
    args: Callable[[str], dict[str, str]]
    declare: Callable[[str], dict[str, str]] | None = None


WALKS = {
    "vtm": Walk(
        sheets="""
- {id: jack, nom: Jack Malone, type: mortel, Force: 3, Dextérité: 3, Vigueur: 3, Astuce: 3,
   Perception: 2, Athlétisme: 2, Bagarre: 3, Esquive: 2, Volonté: 4}
- {id: ezechiel, nom: Ézéchiel Crowe, type: vampire, Force: 4, Dextérité: 3, Vigueur: 3,
   Astuce: 3, Bagarre: 3, Esquive: 3, Puissance: 1, Volonté: 6, sang: 12}
""",
        start="initiative",
        action="act",
        args=lambda other: {},
        declare=lambda other: {"kind": "punch", "target": other, "move_to": other},
    ),
    "hunter": Walk(
        sheets="""
- {id: ana, nom: Ana, force: 2, dextérité: 3, vigueur: 2, astuce: 3, calme: 3,
   armes à feu: 3, arme: heavy_pistol}
- {id: bete, nom: la Bête, type: monstre, force: 5, dextérité: 3, vigueur: 4, astuce: 3,
   calme: 2, mains nues: 4, dégâts à mains nues: L}
""",
        start="initiative",
        action="act",
        args=lambda other: {"kind": "attack", "target": other},
    ),
    "western": Walk(
        sheets="""
- id: bill
  nom: Bill Tanner
  caractéristiques: {FORCE: 12, RÉSISTANCE: 11, CONSTITUTION: 12, RAPIDITÉ: 15, RÉPUTATION: 6}
  compétences: {tir visé au pistolet: 56}
  armes: [colt_saa]
- id: jack
  name: Jack Malone
  characteristics: {STRENGTH: 13, RESISTANCE: 12, CONSTITUTION: 13, SPEED: 11, REPUTATION: 12}
  skills: {aimed pistol: 50}
  weapons: [schofield]
""",
        start="round",
        action="attack",
        args=lambda other: {"target": other},
    ),
    "duel": Walk(
        sheets="""
- {id: ana, name: Ana, attack: 2, guard: 1, health: 5}
- {id: bob, name: Bob, attack: 1, guard: 2, health: 5}
""",
        start="begin",
        action="attack",
        args=lambda other: {"target": other},
    ),
}

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
    enc = store.encounter(eid)
    rolls: list[list[int]] = []
    pattern = (7, 3, 8, 2, 6, 4, 5)
    for n in range(100):
        needed = next_roll(enc, command, rolls)
        if needed is None:
            return " ".join(str(f) for roll in rolls for f in roll)
        while len(rolls) <= needed.index:
            rolls.append([])
        top = max(needed.sides - 1, 1)
        rolls[needed.index] += [1 + (pattern[(n + i) % 7] - 1) % top for i in range(needed.count)]
    raise AssertionError(f"{command}: the rolls asked never end")


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
def browser(site: tuple[str, Store]) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield chromium
        chromium.close()


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
        for i in range(2):
            sides.nth(i).fill(f"side{i}")
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
        form = gm.locator(f'form[data-form="{walk.start}:"]')
        rolls = form.locator('input[name="faces"]').count() > 0
        _submit(gm, form, {}, faces_for(store, eid, Command(walk.start)) if rolls else None)
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
