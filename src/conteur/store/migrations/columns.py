"""The tables, columns and constraints the revisions spell alike, with the names the first
revision gave them (``fk_<table>_<column>_<target>``, ``pk_<table>``).

Frozen with the revisions that use them: what a revision creates must never change, so a
helper here is not edited once a revision calls it — a new shape gets a new helper.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.schema import SchemaItem

JSON_TYPE = sa.JSON().with_variant(JSONB(), "postgresql")
"""JSON everywhere, JSONB on PostgreSQL."""


def create_table(name: str, *items: SchemaItem) -> None:
    """Create the table ``name``: its ``id`` column, ``items`` (columns, then constraints),
    and its primary key, the ``id``."""
    op.create_table(name, key(), *items, primary_key(name))


def key() -> sa.Column[int]:
    """The ``id`` column every table starts with (its primary key: ``primary_key``)."""
    return sa.Column("id", sa.Integer(), nullable=False)


def primary_key(table: str) -> sa.PrimaryKeyConstraint:
    """The primary key of ``table``: its ``id``."""
    return sa.PrimaryKeyConstraint("id", name=f"pk_{table}")


def reference(table: str, column: str, target: str) -> sa.ForeignKeyConstraint:
    """``table.column`` pointing at the row ``target.id``."""
    return sa.ForeignKeyConstraint([column], [f"{target}.id"], name=f"fk_{table}_{column}_{target}")


def integer(name: str, *, nullable: bool = False) -> sa.Column[int]:
    """An integer (a count, or the id of a row of another table: ``reference``)."""
    return sa.Column(name, sa.Integer(), nullable=nullable)


def string(name: str, length: int, *, nullable: bool = False) -> sa.Column[str]:
    """A text of at most ``length`` characters."""
    return sa.Column(name, sa.String(length), nullable=nullable)


def moment(name: str = "created_at", *, nullable: bool = False) -> sa.Column[object]:
    """A moment with its time zone (``created_at`` unless named)."""
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def json(name: str) -> sa.Column[object]:
    """A JSON document that every row has."""
    return sa.Column(name, JSON_TYPE, nullable=False)


def add_column(table: str, column: sa.Column[Any]) -> None:
    """Add ``column`` to the existing ``table`` (in batch mode: SQLite copies the table
    where its ``ALTER TABLE`` cannot)."""
    with op.batch_alter_table(table) as batch:
        batch.add_column(column)


def drop_column(table: str, name: str) -> None:
    """Drop the column ``name`` of ``table`` (in batch mode, as ``add_column``)."""
    with op.batch_alter_table(table) as batch:
        batch.drop_column(name)
