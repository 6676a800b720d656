"""H-XP-2 counts taken from the characters instead of the encounters' logs.

Each hunter character of the tracker carries ``xp_counters`` in its state
(exceptional successes directly against a monster, dramatic failures), folded
by the fight's events and written back when an encounter closes, so they sum
a session's encounters. A summary that names a campaign export (``personnages:
export.yaml``, the file of ``GET /c/<id>/export?fmt=yaml|json`` or ``conteur db``)
reads them there, one line per hunter of the cell. Nothing is written: the game
master resets the counters by editing the character once the award is given.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from conteur.i18n import ConteurError

from .sheet import normalize, xp_counters
from .xp_log import LogCount
from .xp_session import read_yaml


def exported_characters(path: Path) -> list[Mapping[str, Any]]:
    """The characters of an export: one (``sheet`` and ``state``), or ``characters: [...]``."""
    data = read_yaml(path)  # JSON is YAML as well
    if isinstance(data, Mapping) and isinstance(data.get("characters"), list):
        items = data["characters"]
    elif isinstance(data, Mapping) and "sheet" in data:
        items = [data]
    else:
        raise ConteurError("xp.characters.not_an_export", path=str(path))
    for number, item in enumerate(items, start=1):
        if not isinstance(item, Mapping) or not isinstance(item.get("sheet"), Mapping):
            raise ConteurError("xp.characters.bad_entry", path=str(path), number=number)
        if item.get("ruleset", "hunter") != "hunter":
            raise ConteurError(
                "xp.characters.ruleset", path=str(path), ruleset=str(item.get("ruleset"))
            )
    return list(items)


def character_key(sheet: Mapping[str, Any]) -> set[str]:
    """The words a summary may name a character by: its id and its name."""
    names = (sheet.get(k) for k in ("id", "name", "nom"))
    return {normalize(str(n)) for n in names if n}


def count_characters(path: Path, hunters: Iterable[str], source: str) -> tuple[LogCount, ...]:
    """One count per hunter of the cell, read from its carried ``xp_counters`` (H-XP-2)."""
    items = exported_characters(path)
    out = []
    for hunter in hunters:
        found = [c for c in items if normalize(hunter) in character_key(c["sheet"])]
        if not found:
            raise ConteurError("xp.characters.missing", path=source, hunter=hunter, rule="H-XP-2")
        state = found[0].get("state") or {}
        raw = state.get("xp_counters") if isinstance(state, Mapping) else None
        counters = xp_counters(hunter, raw)
        out.append(
            LogCount(
                f"{source} : {hunter}",
                counters["exceptional_vs_monster"],
                counters["dramatic_failures"],
                character=True,
            )
        )
    return tuple(out)
