"""Entry points of a group, read from the installed distributions without
``importlib.metadata``.

``importlib.metadata`` (with the ``email``, ``zipfile``, ``csv`` and ``shutil`` modules it
loads) costs ~25 ms, more than an odds answer: the command line's parts
(``conteur.cli_parts``) and the rulesets (``conteur.engine.registry``) read their groups
from the ``entry_points.txt`` of the distributions on ``sys.path`` directly, and ask
``importlib.metadata`` only when that finds no declaration at all (distributions it cannot
read this way: zipped, say). Tests check both readings agree.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any


def declared_entry_points(group: str) -> dict[str, str]:
    """``{name: "module:attribute"}`` of ``group``'s entry points, the first declaration of
    a name winning as ``importlib.metadata`` has it (nothing is imported)."""
    found = _scan(group)
    if found:
        return found
    from importlib.metadata import entry_points

    out: dict[str, str] = {}
    for ep in entry_points(group=group):
        out.setdefault(ep.name, ep.value)
    return out


def resolve(target: str) -> Any:
    """The object an entry point names, ``"module:attribute"`` (or ``"module"``; extras in
    brackets ignored), imported now."""
    module, _, attribute = target.split("[", 1)[0].partition(":")
    found: Any = importlib.import_module(module.strip())
    for part in filter(None, attribute.strip().split(".")):
        found = getattr(found, part)
    return found


def _scan(group: str) -> dict[str, str]:
    """The entry points of ``group`` in the distributions of ``sys.path`` (their
    ``*.dist-info``/``*.egg-info`` folders, in path order), the first of a name winning."""
    header = f"[{group}]"
    out: dict[str, str] = {}
    for folder in sys.path:
        try:
            entries = sorted(os.scandir(folder or "."), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if not entry.name.endswith((".dist-info", ".egg-info")):
                continue
            try:
                with open(os.path.join(entry.path, "entry_points.txt"), encoding="utf-8") as f:
                    lines = f.read().splitlines()
            except OSError:
                continue
            section = ""
            for line in lines:
                line = line.strip()
                if line.startswith("["):
                    section = line
                elif section == header and "=" in line:
                    key, _, value = line.partition("=")
                    out.setdefault(key.strip(), value.strip())
    return out


__all__ = ["declared_entry_points", "resolve"]
