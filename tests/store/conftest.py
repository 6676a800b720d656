"""Store fixtures: every store test runs on SQLite (a temporary file) and on PostgreSQL.

The PostgreSQL server is started once per test session by ``pg_cluster.PgCluster``
(a throwaway cluster on 127.0.0.1); each test gets a new schema of its own on it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from conteur.store import Store, open_store
from pg_cluster import PgCluster, start_for_tests

BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    """A PostgreSQL server for the session (fails in CI, skips elsewhere, when not installed)."""
    cluster = start_for_tests()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of an empty database, SQLite or PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'conteur.db'}"
    cluster: PgCluster = request.getfixturevalue("pg_cluster")
    return cluster.new_database()


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    """An open store on an empty database (schema created by the migrations)."""
    st = open_store(db_url)
    try:
        yield st
    finally:
        st.close()
