"""The schema: created by the shipped Alembic migrations on SQLite and PostgreSQL, as the models say."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import event, inspect, text
from sqlalchemy.exc import DBAPIError

from conteur.i18n import ConteurError
from conteur.store import (
    current_revision,
    data_dir,
    database_url,
    head_revision,
    make_engine,
    open_store,
)
from conteur.store.db import normalize_url
from conteur.store.migrate import HEAD
from conteur.store.models import Base

from .helpers import one_turn, saloon

TABLES = {
    "alembic_version",
    "campaigns",
    "characters",
    "character_versions",
    "encounters",
    "encounter_characters",
    "encounter_log",
    "gm_secrets",
    "gm_sessions",
    "pending_actions",
    "server_keys",
}


def test_migrations_create_the_schema(db_url: str) -> None:
    engine = make_engine(db_url)
    assert current_revision(engine) is None
    store = open_store(db_url)
    try:
        assert current_revision(engine) == head_revision() == HEAD == "0004"
        assert set(inspect(engine).get_table_names()) == TABLES
        uniques = {
            tuple(u["column_names"])
            for u in inspect(engine).get_unique_constraints("encounter_log")
        }
        assert ("encounter_id", "seq") in uniques
    finally:
        store.close()
        engine.dispose()


def test_the_migrations_match_the_models(db_url: str) -> None:
    open_store(db_url).close()
    engine = make_engine(db_url)
    with engine.connect() as conn:
        diff = compare_metadata(
            MigrationContext.configure(conn, opts={"compare_type": True}), Base.metadata
        )
    engine.dispose()
    assert diff == []


def test_opening_again_keeps_the_data(db_url: str) -> None:
    store = open_store(db_url)
    campaign = store.create_campaign("Saloon", "vtm")
    store.close()
    again = open_store(db_url)
    assert [c.name for c in again.list_campaigns()] == ["Saloon"]
    assert again.get_campaign(campaign.id).ruleset == "vtm"
    again.close()


@pytest.mark.parametrize("table", ["encounter_log", "character_versions"])
@pytest.mark.parametrize(
    "statement", ["UPDATE {table} SET created_at = created_at", "DELETE FROM {table}"]
)
def test_the_database_refuses_to_change_the_append_only_tables(
    db_url: str, table: str, statement: str
) -> None:
    store = open_store(db_url)
    _, _, encounter = saloon(store)
    one_turn(store, encounter.id)
    with pytest.raises(DBAPIError, match="append-only"), store.engine.begin() as conn:
        conn.execute(text(statement.format(table=table)))
    assert len(store.log(encounter.id)) == 6
    store.close()


def test_sqlite_runs_in_wal_mode_with_foreign_keys(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'c.db'}")
    begins: list[str] = []

    @event.listens_for(store.engine, "before_cursor_execute")
    def _record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.startswith("BEGIN"):
            begins.append(statement)

    store.create_campaign("Saloon", "vtm")  # a write takes the lock before it reads
    store.list_campaigns()  # a read does not
    assert begins == ["BEGIN IMMEDIATE", "BEGIN"]
    event.remove(store.engine, "before_cursor_execute", _record)
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    with pytest.raises(DBAPIError), store.engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO encounter_log (encounter_id, seq, kind, entry, created_at) "
                "VALUES (999, 0, 'undo', '{}', '2025-01-01')"
            )
        )
    store.close()


def test_the_default_database_is_sqlite_in_the_data_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("CONTEUR_DATABASE_URL", raising=False)
    monkeypatch.setenv("CONTEUR_DATA_DIR", str(tmp_path / "données"))
    assert data_dir() == tmp_path / "données"
    assert database_url() == f"sqlite:///{tmp_path / 'données' / 'conteur.db'}"
    store = open_store()
    assert (tmp_path / "données" / "conteur.db").exists()
    store.close()
    monkeypatch.delenv("CONTEUR_DATA_DIR")
    assert "conteur" in str(data_dir())


def test_a_postgresql_url_uses_psycopg(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CONTEUR_DATABASE_URL", "postgresql://mj:secret@db.example:5433/conteur")
    assert database_url() == "postgresql://mj:secret@db.example:5433/conteur"
    assert normalize_url(database_url()).drivername == "postgresql+psycopg"


def test_unusable_urls_are_refused_in_both_languages() -> None:
    with pytest.raises(ConteurError) as err:
        open_store("mysql://localhost/conteur")
    assert "mysql" in err.value.message("fr") and "mysql" in err.value.message("en")
    with pytest.raises(ConteurError) as err:
        open_store("pas une url")
    assert err.value.key == "store.url.bad"


def test_an_unreachable_server_is_a_clear_error() -> None:
    from pg_cluster import free_port

    with pytest.raises(ConteurError) as err:
        open_store(
            f"postgresql://nobody:pw@127.0.0.1:{free_port()}/none",
            connect_args={"connect_timeout": 2},
        )
    assert err.value.key == "store.unreachable"
    assert "pw" not in err.value.message("en")


def test_an_unwritable_data_folder_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "fichier"
    blocker.write_text("pas un dossier")
    with pytest.raises(ConteurError) as err:
        open_store(f"sqlite:///{blocker / 'sous-dossier' / 'conteur.db'}")
    assert err.value.message("en") == (
        f"Cannot create the database's folder {blocker / 'sous-dossier'} (given by "
        "CONTEUR_DATA_DIR, or the user's data folder): a file already has that name, or that "
        "of a folder above it."
    )
