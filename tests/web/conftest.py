"""Web fixtures: a store on a temporary SQLite file with the demo loaded, a GM client, a stranger."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from conteur.store import Store, open_store
from conteur.web import create_app
from conteur.web.demo import load_demo


@pytest.fixture(scope="session")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file with the schema and the demo, made once and copied by each test."""
    path = tmp_path_factory.mktemp("web") / "demo.db"
    s = open_store(f"sqlite:///{path}")
    load_demo(s)
    s.close()
    return path


@pytest.fixture
def store(tmp_path: Path, demo_db: Path) -> Iterator[Store]:
    target = tmp_path / "web.db"
    shutil.copyfile(demo_db, target)
    s = open_store(f"sqlite:///{target}")
    yield s
    s.close()


@pytest.fixture
def gm_token(store: Store) -> str:
    return store.new_gm_token()


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
