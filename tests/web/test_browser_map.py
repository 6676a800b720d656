"""The battle map in Chromium: the GM drags tokens (each move the ruleset's place command,
logged and undoable), the range band of a shot comes from the map — a drag that changes
the band changes the odds and the rule ids of the attack's event —, a cover zone drawn on
the map changes the difficulty, and the player's page (390×844) shows the map live without
the hidden combatant, the player dragging their own token. Screenshots go to
``out/test-output/map/``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import pytest

from conteur.dice import TypedDice
from conteur.engine import Command
from conteur.store import Participant, Store

from .test_browser import TIMEOUT_MS
from .test_browser_player import OUTPUT

SHOTS = OUTPUT / "map"
GASPARD, MOUFLON, NINI = "gaspard_lenoir", "le_mouflon", "nini"


def _sheet(name: str) -> dict[str, Any]:
    return {
        "nom": name,
        "type": "mortel",
        "attributs": {"Dextérité": 3, "Astuce": 2, "Vigueur": 3},
        "capacités": {"Armes à feu": 3, "Vigilance": 1},
        "armes": ["revolver léger"],
    }


@dataclass(frozen=True)
class Table:
    """An encounter of the module's server: its id, a GM's and a player's link."""

    base: str
    store: Store
    eid: int
    gm_token: str
    player_token: str


def _pages(chromium: Any, table: Table, lang: str) -> tuple[Any, Any]:
    """The GM's page (1366×768) and the player's (390×844), in ``lang``, following live."""
    from playwright.sync_api import expect

    gm = chromium.new_context(viewport={"width": 1366, "height": 768}).new_page()
    gm.set_default_timeout(TIMEOUT_MS)
    gm.goto(f"{table.base}/lang/{lang}?next=/e/{table.eid}%3Ftoken%3D{table.gm_token}")
    expect(gm.locator("html")).to_have_attribute("lang", lang)
    phone = chromium.new_context(viewport={"width": 390, "height": 844}).new_page()
    phone.set_default_timeout(TIMEOUT_MS)
    phone.goto(f"{table.base}/lang/{lang}?next=/p/{table.player_token}")
    expect(phone.locator("#live")).to_have_attribute("data-live", "on")
    return gm, phone


@pytest.fixture
def quay(blank_site: tuple[str, Store]) -> Table:
    """A vtm campaign whose players move their own token; three characters, Nini hidden,
    in the resolution phase: Gaspard (fastest) shoots at the Mouflon."""
    return _quay(blank_site)


def _quay(site: tuple[str, Store], packs: tuple[str, ...] = ()) -> Table:
    """The quay's encounter (``quay``), in a campaign with these option packs."""
    base, store = site
    c = store.create_campaign(
        "Quai", "vtm", era="1899", packs=packs, settings={"player_moves": True}
    )
    g = store.add_character(c.id, _sheet("Gaspard Lenoir"))
    m = store.add_character(c.id, _sheet("Le Mouflon"))
    n = store.add_character(c.id, _sheet("Nini"))
    gun = {"weapon": "revolver léger"}
    info = store.start_encounter(
        c.id,
        "Quai de la Gare",
        [
            Participant(g.id, side="police", extra=gun),
            Participant(m.id, side="apaches", extra=gun),
            Participant(n.id, side="apaches", extra={**gun, "hidden": True}),
        ],
    )
    # No positions given: a line per side, 10 m apart (the default formation).
    assert [e["position"] for e in info.scenario["combatants"]] == [[0, 0], [0, 10], [2, 10]]
    for cmd, faces in (
        (Command("initiative", None, {}), [5, 3, 2]),
        (Command("declare", NINI, {"kind": "other"}), []),
        (Command("declare", MOUFLON, {"kind": "other"}), []),
        (Command("declare", GASPARD, {"kind": "shoot", "target": MOUFLON}), []),
    ):
        store.execute(info.id, cmd, TypedDice(faces))
    player = store.get_character(g.id).token
    return Table(base, store, info.id, store.new_gm_token(), player)


def _client(page: Any, x: float, y: float) -> tuple[float, float]:
    """Where the grid point (x, y) is on the screen."""
    got = page.evaluate(
        """([x, y]) => { const svg = document.querySelector('#battle-map svg');
        const p = svg.createSVGPoint(); p.x = x; p.y = y;
        const q = p.matrixTransform(svg.getScreenCTM()); return [q.x, q.y]; }""",
        [x, y],
    )
    return float(got[0]), float(got[1])


def _into_view(page: Any) -> None:
    """The map scrolled into view, in one step of the page's own (the live stream may swap
    the panel between a locator's finding the map and its scrolling)."""
    page.evaluate(
        "() => document.querySelector('#battle-map svg').scrollIntoView({block: 'center'})"
    )


def _drag(page: Any, fid: str, to: tuple[float, float]) -> None:
    """The mouse drags ``fid``'s token to ``to``, pressed once the token is under it (a panel
    the live stream swaps in may shift the page between finding the token and pressing)."""
    tk = page.locator(f'#battle-map .token[data-fighter="{fid}"]')
    for _ in range(20):
        _into_view(page)
        start = _client(page, float(tk.get_attribute("data-x")), float(tk.get_attribute("data-y")))
        page.mouse.move(*start)
        under = page.evaluate(
            "([x, y]) => { const t = document.elementFromPoint(x, y);"
            " const k = t && t.closest('.token'); return k ? k.dataset.fighter : null; }",
            list(start),
        )
        if under == fid:
            break
        page.wait_for_timeout(100)
    else:
        raise AssertionError(f"the token {fid} never came under the mouse")
    end = _client(page, *to)
    page.mouse.down()
    page.mouse.move(*end, steps=6)
    page.mouse.up()


def _position(table: Table, fid: str, wanted: tuple[float, float] | None = None) -> Any:
    """Where ``fid`` stands in the store (waiting a little for ``wanted``, the page's request
    being on its way)."""
    for _ in range(150):
        got = table.store.read_encounter(
            table.eid, lambda enc: tuple(enc.state.fighters[fid].position)
        )
        if wanted is None or got == wanted:
            return got
        time.sleep(0.1)
    return got


def _last_event(table: Table, type_name: str = "AttackRolled") -> dict[str, Any]:
    """The last event of ``type_name`` not undone in the encounter's log."""

    def read(enc: Any) -> dict[str, Any]:
        for entry in reversed(list(enc.active())):
            for ev in entry.events:
                if ev.type_name == type_name:
                    return ev.to_dict()  # type: ignore[no-any-return]
        raise AssertionError(f"no {type_name} in the log")

    return table.store.read_encounter(table.eid, read)  # type: ignore[no-any-return]


def _odds(gm: Any) -> str:
    """The chance to hit the odds drawer gives now (its form as it stands: the due fighter
    at the first other combatant, the weapon in hand), asked afresh — again if the live
    stream swapped the panel (and the drawer's box with it) before the answer came."""
    for _ in range(6):
        drawer = gm.locator('details[data-drawer="odds"]')
        box = gm.locator("#odds-box")
        hit = box.locator('[data-odds="hit"]')
        try:  # a panel the stream swaps in may close the drawer or drop the box meanwhile
            if drawer.get_attribute("open", timeout=3000) is None:
                drawer.locator("summary").click(timeout=3000)
            box.evaluate("el => { el.innerHTML = ''; }", timeout=3000)
            drawer.locator('form[data-form="odds"] button[type="submit"]').click(timeout=3000)
            hit.wait_for(timeout=4000)
            text = str(hit.inner_text(timeout=2000))
        except Exception:  # the panel swapped under the request: ask again
            continue
        if "%" in text:
            return text
    raise AssertionError("the odds drawer never answered")


def _drag_across(
    gm: Any, phone: Any, table: Table, fid: str, to: tuple[int, int], band: str, rule: str
) -> tuple[str, str]:
    """The GM drags ``fid`` to ``to`` (from the selected token: into ``band``, its rule id in
    the map's line); the odds before and after, which differ; the phone follows."""
    from playwright.sync_api import expect

    before = _odds(gm)
    _drag(gm, fid, (float(to[0]), float(to[1])))
    assert _position(table, fid, (float(to[0]), float(to[1]))) == to
    expect(gm.locator(f'#battle-map .token[data-fighter="{fid}"]')).to_have_attribute(
        "data-band", band
    )
    expect(gm.locator("[data-map-info]")).to_contain_text(rule)
    after = _odds(gm)
    assert after != before, (before, after)
    phone_token = phone.locator(f'#battle-map .token[data-fighter="{fid}"]')
    expect(phone_token).to_have_attribute("data-x", str(to[0]))
    return before, after


def _entries(page: Any) -> int:
    return int(page.locator(".log > li[data-seq]").count())


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_battle_map(lang: str, quay: Table, chromium: Any) -> None:
    from playwright.sync_api import expect

    SHOTS.mkdir(parents=True, exist_ok=True)
    point_blank, short = (
        ("Bout portant", "Portée courte")
        if lang == "fr"
        else (
            "Point blank",
            "Short range",
        )
    )
    gm, phone = _pages(chromium, quay, lang)
    try:
        tokens = gm.locator("#battle-map .token")
        expect(tokens).to_have_count(3)
        expect(gm.locator(f'#battle-map .token[data-fighter="{NINI}"]')).to_have_class(
            "token side-1 hidden-token"
        )
        # The hidden combatant's token is not on the player's page at all.
        expect(phone.locator("#battle-map .token")).to_have_count(2)
        assert phone.locator(f'[data-fighter="{NINI}"]').count() == 0

        # Placing a token: the drag is the place command, in the log, on the phone too.
        before = _entries(gm)
        _drag(gm, MOUFLON, (1.5, 0))
        expect(gm.locator(".log > li[data-seq]")).to_have_count(before + 1)
        assert _position(quay, MOUFLON, (1.5, 0.0)) == (1.5, 0.0)
        mouflon_phone = phone.locator(f'#battle-map .token[data-fighter="{MOUFLON}"]')
        expect(mouflon_phone).to_have_attribute("data-x", "1.5")

        # The distance and the band from the selected token, the rules' own band.
        gm.locator(f'#battle-map .token[data-fighter="{GASPARD}"]').click()
        mouflon = gm.locator(f'#battle-map .token[data-fighter="{MOUFLON}"]')
        expect(mouflon).to_have_attribute("data-band", point_blank)
        expect(mouflon.locator(".dist")).to_have_text("1,5 m" if lang == "fr" else "1.5 m")
        expect(gm.locator("[data-map-info]")).to_contain_text("V-RNG-5")
        odds = gm.locator('.current [data-odds="hit"]')
        expect(odds).to_contain_text("%")
        near = odds.inner_text()
        gm.screenshot(path=str(SHOTS / f"gm-point-blank-{lang}-1366x768.png"))

        # A drag to 8 m: short range, other odds; the shot's event says so.
        _drag(gm, MOUFLON, (8, 0))
        expect(mouflon).to_have_attribute("data-x", "8")
        expect(mouflon).to_have_attribute("data-band", short)
        expect(odds).not_to_have_text(near)
        gm.locator('.current button[type="submit"]').first.click()
        expect(gm.locator(".log > li[data-seq]")).to_have_count(before + 3)
        far_attack = _last_event(quay)
        assert far_attack["difficulty"] == 6
        assert "V-RNG-5" not in far_attack["rules"], far_attack["rules"]

        # Undone, and the Mouflon dragged back to 1.5 m: point blank, difficulty 4, V-RNG-5.
        gm.locator("#undo-button").click()
        expect(gm.locator(".log > li.undo-line")).to_have_count(1)
        _drag(gm, MOUFLON, (1.5, 0))
        expect(mouflon).to_have_attribute("data-x", "1.5")
        expect(gm.locator(".current")).to_be_visible()
        gm.locator('.current button[type="submit"]').first.click()
        expect(gm.locator(".log > li.undo-line")).to_have_count(1)
        gm.wait_for_function(
            "n => document.querySelectorAll('.log > li[data-seq]').length >= n", arg=before + 6
        )
        near_attack = _last_event(quay)
        assert near_attack["difficulty"] == 4
        assert "V-RNG-5" in near_attack["rules"]
        gm.locator("#undo-button").click()  # the shot again, now with a cover zone
        expect(gm.locator(".log > li.undo-line")).to_have_count(2)

        # A cover zone drawn around the Mouflon: good cover, +2 to the shot at him.
        gm.locator("[data-map-draw]").click()
        for corner in ((0.5, -1), (3, -1), (3, 1)):
            gm.mouse.click(*_client(gm, *corner))
        points = gm.locator('form.map-zone [name="points"]')
        expect(points).to_have_value("0.5,-1 3,-1 3,1")  # the corners clicked on the grid
        gm.mouse.click(*_client(gm, 0.5, 1))
        gm.locator('form.map-zone select[name="level"]').select_option("good")
        gm.locator('form.map-zone button[type="submit"]').click()
        zone = gm.locator('#battle-map polygon[data-level="good"]')
        expect(zone).to_have_attribute("points", "0.5,-1 3,-1 3,1 0.5,1")
        expect(phone.locator('#battle-map polygon[data-level="good"]')).to_have_count(1)
        gm.locator(f'#battle-map .token[data-fighter="{GASPARD}"]').click()
        gm.screenshot(path=str(SHOTS / f"gm-cover-zone-{lang}-1366x768.png"))
        gm.locator('.current button[type="submit"]').first.click()
        expect(gm.locator(".log > li.undo-line")).to_have_count(2)
        gm.wait_for_function(
            "() => Array.from(document.querySelectorAll('.log > li[data-seq]'))"
            ".some(li => /V-RNG-3/.test(li.textContent) && /V-RNG-5/.test(li.textContent)"
            " && li.querySelector('.undone') === null && li.textContent.includes('4'))"
        )
        covered = _last_event(quay)
        assert covered["difficulty"] == 6, covered  # point blank 4, good cover +2
        assert "V-RNG-3" in covered["rules"] and "V-RNG-5" in covered["rules"]

        # The player drags their own token; the Mouflon's is not theirs to move.
        phone_gaspard = phone.locator(f'#battle-map .token[data-fighter="{GASPARD}"]')
        expect(phone_gaspard).to_have_attribute("data-mine", "")
        _into_view(phone)
        _drag(phone, GASPARD, (0, 3))
        expect(phone_gaspard).to_have_attribute("data-y", "3")
        assert _position(quay, GASPARD, (0.0, 3.0)) == (0.0, 3.0)
        _drag(phone, MOUFLON, (5, 5))
        expect(mouflon_phone).to_have_attribute("data-x", "1.5")  # not even moved on the page
        expect(mouflon_phone).to_have_class("token side-1 selected")  # only selected
        phone.wait_for_timeout(300)
        assert _position(quay, MOUFLON) == (1.5, 0.0)
        expect(phone.locator(f'[data-fighter="{NINI}"]')).to_have_count(0)
        phone.screenshot(path=str(SHOTS / f"player-{lang}-390x844.png"), full_page=True)

        # The keyboard: the GM focuses a token, Enter selects it, the arrows move it.
        gaspard = gm.locator(f'#battle-map .token[data-fighter="{GASPARD}"]')
        expect(gaspard).to_have_attribute("data-y", "3")
        gaspard.focus()
        gm.keyboard.press("Enter")
        expect(gaspard).to_have_class("token side-0 selected")
        gm.keyboard.press("ArrowRight")
        gm.keyboard.press("ArrowRight")
        gm.keyboard.press("ArrowUp")
        assert _position(quay, GASPARD, (2.0, 2.0)) == (2.0, 2.0)  # one command, sent at rest
        expect(gaspard).to_have_attribute("data-x", "2")
        expect(phone_gaspard).to_have_attribute("data-x", "2")
        gm.screenshot(path=str(SHOTS / f"gm-after-{lang}-1366x768.png"))
    finally:
        gm.context.close()
        phone.context.close()


@pytest.fixture
def warehouse(blank_site: tuple[str, Store]) -> Table:
    """The quay with the house_ranged pack on: distance prices a shot by R-SHOT-1."""
    return _quay(blank_site, ("house_ranged",))


R_SHOT_BANDS = {
    "fr": ("4 à 10 m, difficulté 5", "11 à 20 m, difficulté 6"),
    "en": ("4 to 10 m, difficulty 5", "11 to 20 m, difficulty 6"),
}
"""The two R-SHOT-1 bands the Mouflon is dragged across, in each language."""


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_house_ranged_map_shows_r_shot_1s_metres(
    lang: str, warehouse: Table, chromium: Any
) -> None:
    """R-SHOT-1 from the map: with the pack on, Gaspard's light revolver (12 m, so 24 m at
    most) shows the pack's bands, not V-RNG-5's — rings at 3, 10, 20 and 24 m, the Mouflon
    10 m away in « 4 à 10 m, difficulté 5 », the rule id in the map's line, on the phone
    too; dragged to 15 m he is in « 11 à 20 m, difficulté 6 », the odds change, and the
    shot's event has difficulty 6 with R-SHOT-1 (the pack's), not V-RNG-5."""
    from playwright.sync_api import expect

    near, far = R_SHOT_BANDS[lang]
    gm, phone = _pages(chromium, warehouse, lang)
    try:
        gm.locator(f'#battle-map .token[data-fighter="{GASPARD}"]').click()
        mouflon = gm.locator(f'#battle-map .token[data-fighter="{MOUFLON}"]')
        expect(mouflon).to_have_attribute("data-band", near)
        expect(gm.locator("[data-map-info]")).to_contain_text(f"{near} (R-SHOT-1)")
        rings = gm.locator('#battle-map circle.band-ring[data-rule="R-SHOT-1"]')
        expect(rings).to_have_count(4)
        assert [rings.nth(i).get_attribute("r") for i in range(4)] == ["3", "10", "20", "24"]
        expect(gm.locator('#battle-map circle.band-ring[data-rule="V-RNG-5"]')).to_have_count(0)
        SHOTS.mkdir(parents=True, exist_ok=True)
        gm.screenshot(path=str(SHOTS / f"house-ranged-gm-near-{lang}-1366x768.png"))

        # The player's page has the pack's bands too (its own token selected).
        _into_view(phone)
        phone.locator(f'#battle-map .token[data-fighter="{GASPARD}"]').click()
        phone_mouflon = phone.locator(f'#battle-map .token[data-fighter="{MOUFLON}"]')
        expect(phone_mouflon).to_have_attribute("data-band", near)
        expect(phone.locator("[data-map-info]")).to_contain_text("R-SHOT-1")

        _drag_across(gm, phone, warehouse, MOUFLON, (15, 10), far, "R-SHOT-1")
        expect(phone_mouflon).to_have_attribute("data-band", far)
        _into_view(phone)
        phone.screenshot(path=str(SHOTS / f"house-ranged-player-{lang}-390x844.png"))
        before = _entries(gm)
        gm.locator('.current button[type="submit"]').first.click()
        expect(gm.locator(".log > li[data-seq]")).to_have_count(before + 1)
        shot = _last_event(warehouse)
        assert shot["difficulty"] == 6, shot
        assert "R-SHOT-1" in shot["rules"] and "V-RNG-5" not in shot["rules"], shot["rules"]
        gm.locator(f'#battle-map .token[data-fighter="{GASPARD}"]').click()
        gm.screenshot(path=str(SHOTS / f"house-ranged-gm-far-{lang}-1366x768.png"))
    finally:
        gm.context.close()
        phone.context.close()


HUNTER = {"force": 2, "dextérité": 3, "vigueur": 2, "astuce": 3, "calme": 3, "armes à feu": 3}


@pytest.fixture
def depot(blank_site: tuple[str, Store]) -> Table:
    """A hunter campaign: Ana (light revolver, 20/40/80 yards) against the Bête, a Ghoul
    hidden; no position given (the formation: 10 yards between the sides); Ana's turn."""
    base, store = blank_site
    c = store.create_campaign("Dépôt", "hunter", settings={"player_moves": True})
    ana = store.add_character(c.id, {**HUNTER, "id": "ana", "nom": "Ana", "arme": "light_revolver"})
    monster = {**HUNTER, "dextérité": 1, "astuce": 1, "type": "monstre"}
    info = store.start_encounter(
        c.id,
        "Nuit au dépôt",
        [Participant(ana.id, side="cellule")],
        npcs=[
            {**monster, "id": "bete", "nom": "la Bête", "side": "monstres"},
            {**monster, "id": "goule", "nom": "la Goule", "side": "monstres", "hidden": True},
        ],
    )
    assert [e["position"] for e in info.scenario["combatants"]] == [[0, 0], [0, 10], [2, 10]]
    store.execute(info.id, Command("initiative", None, {}), TypedDice([9, 2, 1]))
    player = store.get_character(ana.id).token
    return Table(base, store, info.id, store.new_gm_token(), player)


RANGE_WORDS = {
    "fr": ["Selon la carte", "Courte portée", "Portée moyenne", "Longue portée"],
    "en": ["From the map", "Short range", "Medium range", "Long range"],
}
"""The options of hunter's range select, in each language (as a list says them)."""


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_hunter_map_in_yards(lang: str, depot: Table, chromium: Any) -> None:
    """H-RNG-1 from the map: the Bête dragged from 10 to 30 yards goes from short to medium
    range, the odds drop, and Ana's shot (its range left « selon la carte ») carries the
    medium range's −2; a partial cover zone drawn around it costs −2 more (H-COV-1). The
    three bands share H-RNG-1, the one rule the checklist gives them."""
    from playwright.sync_api import expect

    short, medium = (
        ("courte portée", "portée moyenne (−2)")
        if lang == "fr"
        else (
            "short range",
            "medium range (−2)",
        )
    )
    gm, phone = _pages(chromium, depot, lang)
    try:
        expect(gm.locator("#battle-map")).to_have_attribute("data-unit", "yd")
        expect(gm.locator("#battle-map .token")).to_have_count(3)
        expect(phone.locator("#battle-map .token")).to_have_count(2)
        assert phone.locator('[data-fighter="goule"]').count() == 0
        gm.locator('#battle-map .token[data-fighter="ana"]').click()
        bete = gm.locator('#battle-map .token[data-fighter="bete"]')
        expect(bete).to_have_attribute("data-band", short)
        expect(bete.locator(".dist")).to_have_text("10 yd")
        gm.screenshot(path=str(SHOTS / f"hunter-gm-short-{lang}-1366x768.png"))
        before = _entries(gm)
        near, far = _drag_across(gm, phone, depot, "bete", (30, 0), medium, "H-RNG-1")
        expect(gm.locator(".log > li[data-seq]")).to_have_count(before + 1)

        # A partial cover zone around the Bête: −2 more, the odds drop again.
        gm.locator("[data-map-draw]").click()
        for corner in ((28, -2), (32, -2), (32, 2), (28, 2)):
            gm.mouse.click(*_client(gm, *corner))
        gm.locator('form.map-zone select[name="level"]').select_option("partial")
        gm.locator('form.map-zone button[type="submit"]').click()
        expect(gm.locator('#battle-map polygon[data-level="partial"]')).to_have_count(1)
        expect(phone.locator('#battle-map polygon[data-level="partial"]')).to_have_count(1)
        covered = _odds(gm)
        assert covered not in (near, far), (near, far, covered)
        gm.locator('#battle-map .token[data-fighter="ana"]').click()
        gm.screenshot(path=str(SHOTS / f"hunter-gm-medium-cover-{lang}-1366x768.png"))
        _into_view(phone)
        phone.screenshot(path=str(SHOTS / f"hunter-player-{lang}-390x844.png"), full_page=True)

        act = gm.locator('.current form[data-form="act:ana"]')
        # Its range in words, the one left empty saying what it does: the map's band.
        expect(act.locator('select[name="range"] option')).to_have_text(RANGE_WORDS[lang])
        act.locator('select[name="target"]').select_option("bete")
        act.locator('button[type="submit"]').first.click()
        gm.wait_for_function(
            "() => Array.from(document.querySelectorAll('.log > li[data-seq]'))"
            ".some(li => /H-RNG-1/.test(li.textContent) && /H-COV-1/.test(li.textContent)"
            " && li.querySelector('.undone') === null)"
        )
        shot = _last_event(depot, "HunterAttackRolled")
        mods = [tuple(m) for m in shot["modifiers"]]
        assert ("range_medium", -2) in mods and ("concealment", -2) in mods, mods
        assert "H-RNG-1" in shot["rules"] and "H-COV-1" in shot["rules"]
    finally:
        gm.context.close()
        phone.context.close()


def _gunman(name: str, speed: int) -> dict[str, Any]:
    return {
        "id": name.lower(),
        "name": name,
        "characteristics": {"FORCE": 12, "RÉSISTANCE": 10, "CONSTITUTION": 12, "RAPIDITÉ": speed},
        "skills": {"tir visé au pistolet": 56, "tir instinctif au pistolet": 40},
        "weapons": ["colt_saa"],
    }


@pytest.fixture
def street(blank_site: tuple[str, Store]) -> Table:
    """A western campaign: Bill, his Colt holstered (instinctive fire in round 1, W-SKL-2),
    against Joe, Sam hidden beside him; no position given (10 m between the sides)."""
    base, store = blank_site
    c = store.create_campaign("Grand-rue", "western", settings={"player_moves": True})
    bill = store.add_character(c.id, _gunman("Bill", 14))
    info = store.start_encounter(
        c.id,
        "Midi",
        [Participant(bill.id, side="posse", extra={"ready": False})],
        npcs=[
            {**_gunman("Joe", 8), "side": "gang"},
            {**_gunman("Sam", 6), "side": "gang", "hidden": True},
        ],
    )
    assert [e["position"] for e in info.scenario["combatants"]] == [[0, 0], [0, 10], [2, 10]]
    store.execute(info.id, Command("round", None, {}), TypedDice([]))
    player = store.get_character(bill.id).token
    return Table(base, store, info.id, store.new_gm_token(), player)


def _shoot(gm: Any, table: Table, rule: str) -> dict[str, Any]:
    """Bill fires at Joe from the current action's form; the shot's event once logged."""
    shoot = gm.locator('.current form[data-form="attack:bill"]')
    shoot.locator('select[name="target"]').select_option("joe")
    shoot.locator('button[type="submit"]').first.click()
    gm.wait_for_function(
        "rule => Array.from(document.querySelectorAll('.log > li[data-seq]'))"
        ".some(li => li.textContent.includes(rule) && li.querySelector('.undone') === null)",
        arg=rule,
    )
    return _last_event(table, "ShotRolled")


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_western_map_shows_the_20_m_of_instinctive_fire(
    lang: str, street: Table, chromium: Any
) -> None:
    """W-SKL-2/4 from the map: Joe dragged from 10 to 25 m leaves the band of instinctive
    fire, the odds change and Bill's shot is aimed (W-SKL-4); undone and dragged back, the
    shot is instinctive again (W-SKL-2)."""
    from playwright.sync_api import expect

    near_band, far_band = (
        ("tir instinctif possible", "tir visé seulement (au-delà de 20 m)")
        if lang == "fr"
        else ("instinctive fire possible", "aimed fire only (beyond 20 m)")
    )
    gm, phone = _pages(chromium, street, lang)
    try:
        expect(gm.locator("#battle-map")).to_have_attribute("data-unit", "m")
        expect(gm.locator("#battle-map .token")).to_have_count(3)
        expect(phone.locator("#battle-map .token")).to_have_count(2)
        assert phone.locator('[data-fighter="sam"]').count() == 0
        assert gm.locator("form.map-zone").count() == 0  # the excerpt names no cover
        gm.locator('#battle-map .token[data-fighter="bill"]').click()
        joe = gm.locator('#battle-map .token[data-fighter="joe"]')
        expect(joe).to_have_attribute("data-band", near_band)
        expect(gm.locator("[data-map-info]")).to_contain_text("W-SKL-2")
        # The 20 m of instinctive fire, a ring around Bill; then the Colt's 50 m.
        ring = gm.locator('#battle-map circle.band-ring[data-rule="W-SKL-2"]')
        expect(ring).to_have_attribute("r", "20")
        expect(gm.locator('#battle-map circle.band-ring[data-rule="W-SKL-4"]')).to_have_attribute(
            "r", "50"
        )
        _drag_across(gm, phone, street, "joe", (25, 0), far_band, "W-SKL-4")
        gm.locator('#battle-map .token[data-fighter="bill"]').click()
        gm.screenshot(path=str(SHOTS / f"western-gm-aimed-{lang}-1366x768.png"))
        _into_view(phone)
        phone.screenshot(path=str(SHOTS / f"western-player-{lang}-390x844.png"), full_page=True)

        shot = _shoot(gm, street, "W-SKL-4")
        assert shot["skill"] == "aimed_pistol" and "W-SKL-4" in shot["rules"], shot
        gm.locator("#undo-button").click()
        expect(gm.locator(".log > li.undo-line")).to_have_count(1)
        _drag(gm, "joe", (10, 0))
        assert _position(street, "joe", (10.0, 0.0)) == (10.0, 0.0)
        expect(joe).to_have_attribute("data-band", near_band)
        shot = _shoot(gm, street, "W-SKL-2")
        assert shot["skill"] == "instinctive_pistol" and "W-SKL-4" not in shot["rules"], shot
        gm.screenshot(path=str(SHOTS / f"western-gm-instinctive-{lang}-1366x768.png"))
    finally:
        gm.context.close()
        phone.context.close()


OVERLAPS = """() => Array.from(document.querySelectorAll('form[data-form="sheet"] fieldset.dots'))
  .filter(fs => fs.offsetParent !== null)
  .map(fs => {
    const legend = fs.querySelector('legend');
    const range = document.createRange(); range.selectNodeContents(legend);
    const text = range.getBoundingClientRect();
    const dot = fs.querySelector('.dot').getBoundingClientRect();
    const sameLine = dot.top < text.bottom && text.top < dot.bottom;
    return [legend.textContent, sameLine ? dot.left - text.right : 99];
  })
  .filter(([name, gap]) => gap < 4)"""
"""The dot fields whose label's text comes within 4 px of their first dot (none wanted)."""


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_1899_sheet_form_labels_clear_their_dots(
    lang: str, blank_site: tuple[str, Store], chromium: Any
) -> None:
    """The 1899 vtm form offers no Computer nor Technology (``data/abilities.yaml``), and no
    ability's label (« Commandement », « Représentation »...) touches its dots, at 1366×768
    and at 390×844."""
    from playwright.sync_api import expect

    base, store = blank_site
    c = store.create_campaign(f"Paris 1899 {lang}", "vtm", era="1899")
    for size in ({"width": 1366, "height": 768}, {"width": 390, "height": 844}):
        page = chromium.new_context(viewport=size).new_page()
        try:
            page.set_default_timeout(TIMEOUT_MS)
            token = store.new_gm_token()
            page.goto(f"{base}/lang/{lang}?next=/c/{c.id}%3Ftoken%3D{token}")
            form = page.locator('form[data-form="sheet"]')
            expect(form.locator('[data-field="abilities.leadership"]')).to_have_count(1)
            assert form.locator('[data-field="abilities.computer"]').count() == 0
            assert form.locator('[data-field="abilities.technology"]').count() == 0
            assert page.evaluate(OVERLAPS) == []
            form.locator('[data-field="abilities.performance"]').scroll_into_view_if_needed()
            name = f"sheet-1899-{lang}-{size['width']}x{size['height']}.png"
            page.screenshot(path=str(SHOTS / name))
        finally:
            page.context.close()


TOKENS_APART = """() => Array.from(document.querySelectorAll('#battle-map .token circle'))
  .map(c => { const r = c.getBoundingClientRect();
    return [c.closest('.token').dataset.fighter, r.x + r.width / 2, r.y + r.height / 2,
            r.width / 2]; })"""


def _touching(page: Any) -> list[tuple[str, str]]:
    """The pairs of tokens whose circles overlap on the screen."""
    circles = page.evaluate(TOKENS_APART)
    assert len(circles) >= 2, circles
    return [
        (a[0], b[0])
        for i, a in enumerate(circles)
        for b in circles[i + 1 :]
        if ((a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2) ** 0.5 < a[3] + b[3]
    ]


def test_a_brawls_tokens_a_metre_apart_do_not_touch(
    blank_site: tuple[str, Store], chromium: Any
) -> None:
    """The demo's saloon: four fighters a metre apart. The grid zooms in (12 m wide at the
    least) and the tokens keep their size on the screen, so none covers another — on the
    GM's page (French, 1366×768) and on a player's phone (English, 390×844)."""
    from conteur.web.demo import add_demo

    base, store = blank_site
    campaign = add_demo(store)
    (encounter,) = store.list_encounters(campaign.id)
    jack = next(c for c in store.list_characters(campaign.id) if c.name == "Jack Malone")
    SHOTS.mkdir(parents=True, exist_ok=True)
    gm_ctx = chromium.new_context(viewport={"width": 1366, "height": 768})
    phone_ctx = chromium.new_context(viewport={"width": 390, "height": 844})
    try:
        gm = gm_ctx.new_page()
        gm.set_default_timeout(TIMEOUT_MS)
        gm.goto(f"{base}/lang/fr?next=/%3Ftoken%3D{store.new_gm_token()}")
        gm.goto(f"{base}/e/{encounter.id}")
        gm.locator("#battle-map svg").wait_for()
        gm.screenshot(path=str(SHOTS / "gm-brawl-fr-1366x768.png"))
        assert _touching(gm) == []
        # Before initiative the order says so, unnumbered (it is no one's rank 1).
        none = gm.locator("[data-order] li")
        assert none.all_inner_texts() == ["Pas encore d'initiative ce tour."]
        assert none.evaluate("li => getComputedStyle(li).listStyleType") == "none"
        phone = phone_ctx.new_page()
        phone.set_default_timeout(TIMEOUT_MS)
        phone.goto(f"{base}/lang/en?next=/p/{jack.token}")
        phone.locator("#battle-map svg").scroll_into_view_if_needed()
        phone.screenshot(path=str(SHOTS / "player-brawl-en-390x844.png"))
        assert _touching(phone) == []
    finally:
        gm_ctx.close()
        phone_ctx.close()
