"""Web fixtures: the demo on SQLite and on PostgreSQL, a GM client, a stranger, a module's
Chromium."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from conteur.store import Store, open_store
from conteur.web import create_app
from conteur.web.demo import load_demo
from pg_cluster import PgCluster, start_for_tests

GM_PASSWORD = "le conteur se souvient"
"""The game master's password in the fixtures' databases (a first start has none)."""


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    """A PostgreSQL server for the session (fails in CI, skips elsewhere, when not installed)."""
    cluster = start_for_tests()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A SQLite file with the schema, the demo and a GM token, made once, copied by each test."""
    path = tmp_path_factory.mktemp("web") / "demo.db"
    s = open_store(f"sqlite:///{path}")
    load_demo(s)
    s.set_gm_password(GM_PASSWORD)  # chosen: a login goes straight to the page asked for
    token = s.new_gm_token()
    s.close()
    return path, token


@pytest.fixture(params=["sqlite", "postgresql"])
def demo_store(
    request: pytest.FixtureRequest, tmp_path: Path, demo_db: tuple[Path, str]
) -> Iterator[tuple[Store, str]]:
    """The demo and a GM token, on SQLite (a copy of the file made once) and on PostgreSQL
    (a fresh schema on the session's server: failing in CI, skipped elsewhere without it)."""
    if request.param == "sqlite":
        target = tmp_path / "web.db"
        shutil.copyfile(demo_db[0], target)
        s = open_store(f"sqlite:///{target}")
        token = demo_db[1]
    else:
        s = open_store(request.getfixturevalue("pg_cluster").new_database())
        load_demo(s)
        s.set_gm_password(GM_PASSWORD)
        token = s.new_gm_token()
    yield s, token
    s.close()


@pytest.fixture
def store(demo_store: tuple[Store, str]) -> Store:
    return demo_store[0]


@pytest.fixture
def gm_token(demo_store: tuple[Store, str]) -> str:
    return demo_store[1]


@pytest.fixture
def app(store: Store, gm_token: str):  # type: ignore[no-untyped-def]
    return create_app(store)


@pytest.fixture
def gm(app, gm_token: str) -> Iterator[TestClient]:  # type: ignore[no-untyped-def]
    with TestClient(app) as client:
        r = client.get(f"/?token={gm_token}", follow_redirects=False)
        assert r.status_code == 303
        yield client


@pytest.fixture
def stranger(app) -> Iterator[TestClient]:  # type: ignore[no-untyped-def]
    with TestClient(app) as client:
        yield client


def csrf_of(html: str) -> str:
    match = re.search(r'name="csrf" value="([0-9a-f]+)"', html)
    assert match, "no CSRF field in the page"
    return match.group(1)


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One headless Chromium (Debian's) for a test module: each test opens its own contexts
    and closes them. Skips, or fails in CI, without Chromium or Playwright."""
    from .test_browser import ARGS, CHROMIUM, _need_browser

    _need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def blank_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Store]]:
    """A server for a test module on an empty SQLite store with the GM's password (each
    test sets up its own campaign; a GM logs in with ``store.new_gm_token()``): its address
    and store."""
    from .test_browser import _need_browser, serving

    _need_browser()
    store = open_store(f"sqlite:///{tmp_path_factory.mktemp('site') / 'site.db'}")
    store.set_gm_password(GM_PASSWORD)
    with serving(create_app(store)) as port:
        yield f"http://127.0.0.1:{port}", store
    store.close()


class Contexts:
    """The browser contexts one test opens in its module's Chromium, closed when it ends."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.opened: list[Any] = []

    def new_context(self, **options: Any) -> Any:
        context = self.browser.new_context(**options)
        self.opened.append(context)
        return context

    def close(self) -> None:
        while self.opened:
            self.opened.pop().close()


@pytest.fixture
def contexts(chromium: Any) -> Iterator[Contexts]:
    """A test's contexts in the module's Chromium (``contexts.new_context(viewport=…)``)."""
    opened = Contexts(chromium)
    try:
        yield opened
    finally:
        opened.close()
