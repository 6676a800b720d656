"""Catalog words for the tables' entries: ``word.western.<id>`` (zones, weapons, stealth), skills.

Log lines name zones and weapons by the tables' own French and English names;
a game master's tables add their new entries the same way.
"""

from __future__ import annotations

import yaml

from conteur.i18n import catalog, register_catalog

from .tables import Tables, default_tables

_done: set[int] = set()


def register_words(tables: Tables | None = None) -> None:
    """Add ``word.western.<id>`` for every entry of ``tables`` not yet in the catalog."""
    tables = tables or default_tables()
    if id(tables) in _done:
        return
    _done.add(id(tables))
    words: dict[str, dict[str, str]] = {}
    entries = [*tables.locations, *tables.weapons, *tables.stealth]
    for e in entries:
        key = f"word.western.{e.id}"
        if key not in catalog() and key not in words:
            words[key] = {"fr": e.fr, "en": e.en}
    for s in tables.skills:
        key = f"western.skill.{s.id}"
        if key not in catalog():
            words[key] = {"fr": s.fr, "en": s.en}
    if words:
        register_catalog(f"conteur.rulesets.western/tables#{id(tables)}", yaml.safe_dump(words))
