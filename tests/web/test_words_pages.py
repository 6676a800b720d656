"""Every page in the reader's language: no catalogue id, raw catalog key, English decimal,
plural hack, nor the other language's typography in the visible text (``tests/test_words``)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from conteur.engine.encounter import CommandEntry, UndoEntry
from conteur.engine.inputs import read_data
from conteur.engine.script import typed_dice
from conteur.i18n import LANGS, Lang, t
from conteur.store import Store, open_store
from conteur.web import create_app
from test_words import EXAMPLES, NNBSP, check, played

from .conftest import Contexts
from .test_browser import TIMEOUT_MS, _need_browser
from .test_browser import server as server  # the fixture, shared with that test
from .test_browser_player import OUTPUT


def visible(page: str) -> list[str]:
    """The text a reader sees on ``page``, one piece per element."""
    # a textarea holds the user's own sheet, not the program's words
    page = re.sub(r"(?s)<(script|style|template|textarea)\b.*?</\1>", " ", page)
    page = re.sub(r"(?s)<!--.*?-->", " ", page)
    return [t for t in (html.unescape(p).strip() for p in re.split(r"<[^>]*>", page)) if t]


TEXT_NODES = """() => {
  const out = [], walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const tag = n.parentElement.closest("script, style, template, textarea");
    if (!tag && n.data.trim()) out.push(n.data.trim());
  }
  return out;
}"""
"""Every text Chromium holds in the page, one piece per text node."""


def pages(store: Store) -> list[str]:
    out = ["/", "/settings", "/password"]  # the GM's settings: sessions, the password
    for c in store.list_campaigns():
        out.append(f"/c/{c.id}")
        out += [f"/characters/{ch.id}" for ch in store.list_characters(c.id)]
        out += [f"/e/{e.id}" for e in store.list_encounters(c.id)]
        chars = store.list_characters(c.id)
        if chars:
            out.append(f"/p/{store.new_player_token(chars[0].id)}")
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_reads_in_the_readers_language(gm: TestClient, store: Store, lang: Lang) -> None:
    gm.get(f"/lang/{lang}?next=/")
    texts = []
    for path in pages(store):
        r = gm.get(path)
        assert r.status_code == 200, path
        texts += [(path, text) for text in visible(r.text)]
    with TestClient(gm.app) as stranger:
        stranger.get(f"/lang/{lang}?next=/")
        texts += [("login", text) for text in visible(stranger.get("/").text)]
    check(iter(texts), lang)


# ---------------------------------------------------------------- every example, played


@pytest.fixture(scope="module")
def played_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, list[int]]]:
    """Every shipped example played through the store (its commands, its table's dice)."""
    store = open_store(f"sqlite:///{tmp_path_factory.mktemp('words') / 'words.db'}")
    ids = []
    for path in EXAMPLES:
        scenario = read_data(path)
        keys = ("ruleset", "combatants", "era", "options", "packs", "title")
        camp = store.create_campaign(
            path.stem,
            scenario["ruleset"],
            packs=scenario.get("packs", ()),
            options=scenario.get("options"),
            era=str(scenario["era"]) if "era" in scenario else None,
        )
        extra = {k: v for k, v in scenario.items() if k not in keys}
        info = store.start_encounter(
            camp.id, path.stem, [], npcs=scenario["combatants"], extra=extra
        )
        dice = typed_dice(path.with_suffix(".dice"))
        for entry in played(path).log:
            if isinstance(entry, UndoEntry):
                store.undo(info.id)
            elif isinstance(entry, CommandEntry):
                store.execute(info.id, entry.command, dice)
        ids.append(info.id)
    token = store.new_gm_token()
    with TestClient(create_app(store)) as client:
        assert client.get(f"/?token={token}", follow_redirects=False).status_code == 303
        yield client, ids
    store.close()


@pytest.mark.parametrize("lang", LANGS)
def test_every_played_example_page_reads_in_the_readers_language(
    played_site: tuple[TestClient, list[int]], lang: Lang
) -> None:
    client, ids = played_site
    client.get(f"/lang/{lang}?next=/")
    texts = []
    for eid in ids:
        r = client.get(f"/e/{eid}")
        assert r.status_code == 200, eid
        texts += [(f"/e/{eid}", text) for text in visible(r.text)]
    check(iter(texts), lang)


# ---------------------------------------------------------------- the screens' own words


@pytest.mark.parametrize("lang", LANGS)
def test_the_screens_words_read_in_the_readers_language(
    gm: TestClient, store: Store, lang: Lang
) -> None:
    """The GM page's keyboard help and drawers, and a player's log after an undone action
    (« une action a été annulée »): each in the reader's language and typography."""
    from conteur.dice import SeededDice

    enc = store.encounter(1)
    store.execute(1, enc.ruleset.parse_command("initiative", enc.state, "fr"), SeededDice(1))
    store.undo(1)
    gm.get(f"/lang/{lang}?next=/")
    gm_texts = visible(gm.get("/e/1").text)
    char = next(c for c in store.list_characters(store.get_encounter(1).campaign_id))
    player_texts = visible(gm.get(f"/p/{store.new_player_token(char.id)}").text)
    # the words this test is about are on the pages it reads (it cannot pass on a page
    # that lacks them)
    for key in ("web.keys", "web.keys.next", "web.keys.typing"):
        assert t(key, lang) in gm_texts, key
    assert "↶ " + t("web.log.undone_public", lang) in player_texts
    check(iter([("/e/1", x) for x in gm_texts] + [("/p", x) for x in player_texts]), lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_pages_typography_in_chromium(
    lang: Lang, request: pytest.FixtureRequest, contexts: Contexts
) -> None:
    """What Chromium renders (GM at 1366×768, a player at 390×844), each page's visible
    text checked, the narrow no-break spaces of French there and none in English.
    Screenshots: ``out/test-output/words/``."""
    _need_browser()
    base, store, token = request.getfixturevalue("server")
    billy = next(c.token for c in store.list_characters(1) if c.name == "Billy Harper")
    from playwright.sync_api import expect

    shots = OUTPUT / "words"
    shots.mkdir(parents=True, exist_ok=True)
    try:
        gm = contexts.new_context(viewport={"width": 1366, "height": 768}).new_page()
        gm.set_default_timeout(TIMEOUT_MS)
        gm.goto(f"{base}/lang/{lang}?next=/e/1%3Ftoken%3D{token}")  # opens one session
        expect(gm.locator("html")).to_have_attribute("lang", lang)
        form = gm.locator('form[data-form="initiative:"]')
        form.locator('input[name="faces"]').fill("5 3 5 8")
        form.locator('button[type="submit"]').click()
        expect(gm.locator("[data-due]")).to_be_visible()
        turn = gm.locator("[data-phase]").inner_text()
        gm.screenshot(path=str(shots / f"gm-{lang}-1366x768.png"))
        gm_text = gm.evaluate(TEXT_NODES)

        player = contexts.new_context(viewport={"width": 390, "height": 844}).new_page()
        player.set_default_timeout(TIMEOUT_MS)
        player.goto(f"{base}/lang/{lang}?next=/p/{billy}")
        player.goto(f"{base}/p/{billy}")
        expect(player.locator(".log")).to_be_visible()
        player.screenshot(path=str(shots / f"player-{lang}-390x844.png"), full_page=True)
        player_text = player.evaluate(TEXT_NODES)
    finally:
        contexts.close()
    due = t("web.due", lang)
    if lang == "fr":
        assert f"{due}{NNBSP}:" in turn, turn
    else:
        assert f"{due}:" in turn and NNBSP not in "".join(gm_text + player_text), turn
    check(iter([("gm", x) for x in gm_text] + [("player", x) for x in player_text]), lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_rosters_headers_are_capitalised(
    played_site: tuple[TestClient, list[int]], lang: Lang
) -> None:
    """Every column header of the GM's roster starts with a capital, « Malus » / "Penalty"
    as « Nom », « Santé », « États » (issue 15), on every played example's page."""
    client, ids = played_site
    client.get(f"/lang/{lang}?next=/")
    for eid in ids:
        page = client.get(f"/e/{eid}").text
        head = re.search(r'(?s)<table class="grid roster">\s*<thead>(.*?)</thead>', page)
        assert head, eid
        headers = [html.unescape(h).strip() for h in re.findall(r"<th[^>]*>(.*?)</th>", head[1])]
        assert headers[:3] == [t("web.name", lang), t("web.health", lang), t("web.penalty", lang)]
        assert headers[2] == {"fr": "Malus", "en": "Penalty"}[lang]
        assert [h for h in headers if not h[:1].isupper()] == [], (eid, headers)
