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
from pg_cluster import PgCluster, start_for_tests


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
    token = s.new_gm_token()
    s.close()
    return path, token


@pytest.fixture
def store(tmp_path: Path, demo_db: tuple[Path, str]) -> Iterator[Store]:
    target = tmp_path / "web.db"
    shutil.copyfile(demo_db[0], target)
    s = open_store(f"sqlite:///{target}")
    yield s
    s.close()


@pytest.fixture
def gm_token(store: Store, demo_db: tuple[Path, str]) -> str:
    return demo_db[1]


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
