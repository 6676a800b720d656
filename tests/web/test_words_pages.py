"""Every page in the reader's language: no catalogue id, raw catalog key, English decimal,
plural hack, nor the other language's typography in the visible text (``tests/test_words``)."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from conteur.engine.encounter import CommandEntry, UndoEntry
from conteur.engine.script import read_yaml, typed_dice
from conteur.i18n import LANGS, Lang
from conteur.store import Store, open_store
from conteur.web import create_app
from test_words import EXAMPLES, check, played


def visible(page: str) -> list[str]:
    """The text a reader sees on ``page``, one piece per element."""
    # a textarea holds the user's own sheet, not the program's words
    page = re.sub(r"(?s)<(script|style|template|textarea)\b.*?</\1>", " ", page)
    page = re.sub(r"(?s)<!--.*?-->", " ", page)
    return [t for t in (html.unescape(p).strip() for p in re.split(r"<[^>]*>", page)) if t]


def pages(store: Store) -> list[str]:
    out = ["/"]
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
        scenario = read_yaml(path)
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
