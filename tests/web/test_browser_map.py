"""The battle map in Chromium: the GM drags tokens (each move the ruleset's place command,
logged and undoable), the range band of a shot comes from the map — a drag that changes
the band changes the odds and the rule ids of the attack's event —, a cover zone drawn on
the map changes the difficulty, and the player's page (390×844) shows the map live without
the hidden combatant, the player dragging their own token. Screenshots go to
``out/test-output/map/``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conteur.dice import TypedDice
from conteur.engine import Command
from conteur.store import Participant, Store, open_store
from conteur.web import create_app

from .conftest import GM_PASSWORD
from .test_browser import ARGS, CHROMIUM, TIMEOUT_MS, _need_browser, serving
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


@pytest.fixture
def quay(tmp_path: Path) -> Iterator[tuple[str, Store, str, str]]:
    """A vtm campaign whose players move their own token; three characters, Nini hidden,
    in the resolution phase: Gaspard (fastest) shoots at the Mouflon."""
    store = open_store(f"sqlite:///{tmp_path / 'map.db'}")
    store.set_gm_password(GM_PASSWORD)
    c = store.create_campaign("Quai", "vtm", era="1899", settings={"player_moves": True})
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
    with serving(create_app(store)) as port:
        yield f"http://127.0.0.1:{port}", store, store.new_gm_token(), player
    store.close()


def _client(page: Any, x: float, y: float) -> tuple[float, float]:
    """Where the grid point (x, y) is on the screen."""
    got = page.evaluate(
        """([x, y]) => { const svg = document.querySelector('#battle-map svg');
        const p = svg.createSVGPoint(); p.x = x; p.y = y;
        const q = p.matrixTransform(svg.getScreenCTM()); return [q.x, q.y]; }""",
        [x, y],
    )
    return float(got[0]), float(got[1])


def _drag(page: Any, fid: str, to: tuple[float, float]) -> None:
    tk = page.locator(f'#battle-map .token[data-fighter="{fid}"]')
    start = _client(page, float(tk.get_attribute("data-x")), float(tk.get_attribute("data-y")))
    end = _client(page, *to)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=6)
    page.mouse.up()


def _position(store: Store, fid: str, wanted: tuple[float, float] | None = None) -> Any:
    """Where ``fid`` stands in the store (waiting a little for ``wanted``, the page's request
    being on its way)."""
    for _ in range(150):
        got = store.read_encounter(1, lambda enc: tuple(enc.state.fighters[fid].position))
        if wanted is None or got == wanted:
            return got
        time.sleep(0.1)
    return got


def _last_attack(store: Store) -> dict[str, Any]:
    def read(enc: Any) -> dict[str, Any]:
        for entry in reversed(enc.log):
            for ev in getattr(entry, "events", ()):
                if ev.type_name == "AttackRolled":
                    return ev.to_dict()  # type: ignore[no-any-return]
        raise AssertionError("no attack in the log")

    return store.read_encounter(1, read)  # type: ignore[no-any-return]


def _entries(page: Any) -> int:
    return int(page.locator(".log > li[data-seq]").count())


@pytest.mark.parametrize("lang", ["en"])  # once (issue 15); both: test_browser_rulesets
def test_the_battle_map(lang: str, quay: tuple[str, Store, str, str]) -> None:
    _need_browser()
    from playwright.sync_api import expect, sync_playwright

    base, store, token, player_token = quay
    SHOTS.mkdir(parents=True, exist_ok=True)
    point_blank, short = (
        ("Bout portant", "Portée courte")
        if lang == "fr"
        else (
            "Point blank",
            "Short range",
        )
    )
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            gm = browser.new_context(viewport={"width": 1366, "height": 768}).new_page()
            gm.set_default_timeout(TIMEOUT_MS)
            gm.goto(f"{base}/lang/{lang}?next=/e/1%3Ftoken%3D{token}")
            expect(gm.locator("html")).to_have_attribute("lang", lang)
            phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
            phone.set_default_timeout(TIMEOUT_MS)
            phone.goto(f"{base}/lang/{lang}?next=/p/{player_token}")
            expect(phone.locator("#live")).to_have_attribute("data-live", "on")

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
            assert _position(store, MOUFLON, (1.5, 0.0)) == (1.5, 0.0)
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
            far_attack = _last_attack(store)
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
            near_attack = _last_attack(store)
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
            covered = _last_attack(store)
            assert covered["difficulty"] == 6, covered  # point blank 4, good cover +2
            assert "V-RNG-3" in covered["rules"] and "V-RNG-5" in covered["rules"]

            # The player drags their own token; the Mouflon's is not theirs to move.
            phone_gaspard = phone.locator(f'#battle-map .token[data-fighter="{GASPARD}"]')
            expect(phone_gaspard).to_have_attribute("data-mine", "")
            phone.locator("#battle-map").scroll_into_view_if_needed()
            _drag(phone, GASPARD, (0, 3))
            expect(phone_gaspard).to_have_attribute("data-y", "3")
            assert _position(store, GASPARD, (0.0, 3.0)) == (0.0, 3.0)
            _drag(phone, MOUFLON, (5, 5))
            expect(mouflon_phone).to_have_attribute("data-x", "1.5")  # not even moved on the page
            expect(mouflon_phone).to_have_class("token side-1 selected")  # only selected
            phone.wait_for_timeout(300)
            assert _position(store, MOUFLON) == (1.5, 0.0)
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
            assert _position(store, GASPARD, (2.0, 2.0)) == (2.0, 2.0)  # one command, sent at rest
            expect(gaspard).to_have_attribute("data-x", "2")
            expect(phone_gaspard).to_have_attribute("data-x", "2")
            gm.screenshot(path=str(SHOTS / f"gm-after-{lang}-1366x768.png"))
        finally:
            browser.close()
