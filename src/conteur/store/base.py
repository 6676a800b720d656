"""What every unit of the ``Store`` shares: the database, its transactions, the live cache.

The ``Store`` (``conteur.store.service``) is one class made of units, each a class of
its own module over ``StoreBase``: ``campaigns``, ``characters``, ``log`` (an
encounter's live state and its log), ``encounters``, ``pending`` (actions waiting for
the table's dice) and ``gamemaster`` (the game master's secrets and sessions). Each
method is one transaction, opened here by ``_read`` or ``_write``.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Self, TypeVar

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from conteur.engine import Encounter

from .db import WRITE_OPTION, display_url

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

V = TypeVar("V", bound="DataclassInstance")


def from_row(kind: type[V], row: object, **given: Any) -> V:
    """The value ``kind`` (a dataclass: ``CharacterInfo``...) of a row, each field the row's
    column of the same name, or the one ``given`` (a copy, a conversion)."""
    names = (f.name for f in fields(kind))
    return kind(**{n: given[n] if n in given else getattr(row, n) for n in names})


@dataclass
class Live:
    """An encounter kept in memory, and the seq of the last stored entry it has folded."""

    encounter: Encounter
    last_seq: int


class StoreBase:
    """The database and the live encounters of one ``Store``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._live: dict[int, Live] = {}
        self._lock = threading.RLock()
        self.origin = secrets.token_hex(8)
        """This store's id in the notifications it sends other processes (``changes``)."""

    @property
    def url(self) -> str:
        """The database URL, password hidden."""
        return display_url(self.engine.url)

    def close(self) -> None:
        """Close every connection (the store can still be used; it reconnects)."""
        self._live.clear()
        self.engine.dispose()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _read(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            yield session

    @contextmanager
    def _write(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            session.connection(execution_options={WRITE_OPTION: True})
            yield session
