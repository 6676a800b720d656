"""Persistence: campaigns, characters with their history, encounters as an append-only log.

``open_store()`` opens the database named by ``CONTEUR_DATABASE_URL`` (any
PostgreSQL), else the SQLite file in the user's data directory
(``CONTEUR_DATA_DIR`` overrides the folder), applies the migrations shipped in
the package, and returns a ``Store`` (see ``conteur.store.service``: its units, one module each).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import URL
from sqlalchemy.exc import OperationalError

import conteur.i18n

conteur.i18n.register_package_catalog("conteur.store")

from .campaigns import CampaignInfo  # noqa: E402
from .characters import CharacterInfo, CharacterVersionInfo  # noqa: E402
from .db import data_dir, database_url, display_url, make_engine, unreachable  # noqa: E402
from .encounters import EncounterInfo, Participant  # noqa: E402
from .gamemaster import GmSessionInfo  # noqa: E402
from .migrate import current_revision, head_revision, upgrade  # noqa: E402
from .service import Store  # noqa: E402


def open_store(url: str | URL | None = None, *, migrate: bool = True, **engine_args: Any) -> Store:
    """The store at ``url`` (default: ``database_url()``), its schema brought up to date."""
    target = url if url is not None else database_url()
    try:
        engine = make_engine(target, **engine_args)
    except OSError as exc:  # the data folder cannot be created
        raise unreachable(target, exc) from None
    if migrate:
        try:
            upgrade(engine)
        except OperationalError as exc:
            engine.dispose()
            raise unreachable(target, exc) from None
    return Store(engine)


__all__ = [
    "CampaignInfo",
    "CharacterInfo",
    "CharacterVersionInfo",
    "EncounterInfo",
    "GmSessionInfo",
    "Participant",
    "Store",
    "current_revision",
    "data_dir",
    "database_url",
    "display_url",
    "head_revision",
    "make_engine",
    "open_store",
    "upgrade",
]
