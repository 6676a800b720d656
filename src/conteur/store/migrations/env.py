"""Alembic environment: run by ``conteur.store.migrate.upgrade`` (or the ``alembic`` tool).

``open_store`` hands over an open connection in ``config.attributes["connection"]``;
otherwise the URL comes from the ``sqlalchemy.url`` option or ``conteur.store.db.database_url``.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from conteur.store.db import database_url, make_engine
from conteur.store.models import Base

config = context.config
target_metadata = Base.metadata


def run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        run(connection)
        return
    engine = make_engine(config.get_main_option("sqlalchemy.url") or database_url())
    try:
        with engine.connect() as conn:
            run(conn)
            conn.commit()
    finally:
        engine.dispose()


if context.is_offline_mode():
    context.configure(
        url=config.get_main_option("sqlalchemy.url") or database_url(),
        target_metadata=target_metadata,
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()
else:
    run_online()
