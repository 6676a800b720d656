"""Every page in the reader's language: no catalogue id, raw catalog key, English decimal,
plural hack, nor the other language's typography in the visible text (``tests/test_words``)."""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient

from conteur.i18n import LANGS, Lang
from conteur.store import Store
from test_words import check


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
