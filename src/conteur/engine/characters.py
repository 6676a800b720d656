"""Characters brought in from other programs: what an importer returns, and finding one.

A ruleset offers importers through ``Ruleset.importers()``: a format name (``foundry``)
and a function reading that format's parsed data into a sheet of the ruleset. The
result says what it could not carry over (``unmapped``), field by field: an importer
never drops a field silently.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from conteur.i18n import ConteurError, Lang, Msg

from .registry import available_rulesets, get_ruleset

JsonValue = Any
"""A value as JSON holds it (number, text, list, mapping): what an import reads."""


@dataclass(frozen=True)
class Unmapped:
    """One thing of the imported file left off the sheet: where it was, its name, why."""

    field: str
    """Its place in the imported file (``system.abilities.awareness.value``, ``items[3]``)."""
    name: str
    """What the file calls it (``awareness``, ``Chainsaw``)."""
    value: JsonValue
    """Its value there, short (a number, a text; an item's type)."""
    reason: Msg
    """Why it is not on the sheet, in either language."""

    def to_dict(self, lang: Lang | None = None) -> dict[str, Any]:
        return {
            "field": self.field,
            "name": self.name,
            "value": self.value,
            "reason": self.reason.describe(lang),
        }


@dataclass(frozen=True)
class ImportResult:
    """A character read from another program's file.

    ``sheet`` and ``state`` are what a character export holds (``conteur.store``
    takes them as they are); ``mapped`` lists the file's fields carried over,
    ``unmapped`` the ones left off, each with its reason.
    """

    ruleset: str
    sheet: dict[str, Any]
    state: dict[str, Any] = field(default_factory=dict)
    unmapped: tuple[Unmapped, ...] = ()
    mapped: tuple[str, ...] = ()

    def to_dict(self, lang: Lang | None = None) -> dict[str, Any]:
        """JSON-ready: ``{ruleset, sheet, state, unmapped}`` (reasons in ``lang``)."""
        return {
            "ruleset": self.ruleset,
            "sheet": self.sheet,
            "state": self.state,
            "unmapped": [u.to_dict(lang) for u in self.unmapped],
        }


Importer = Callable[[JsonValue, str], ImportResult]
"""Reads one file's parsed data (``source`` names the file in errors) into a sheet."""


def find_importer(fmt: str, ruleset: str | None = None) -> tuple[str, Importer]:
    """The ruleset offering the import format ``fmt`` and its importer.

    ``ruleset`` picks one when several offer the format. ConteurError
    ``engine.import.unknown_format`` (with the formats there are) or
    ``engine.import.ambiguous`` otherwise.
    """
    wanted = fmt.strip().lower()
    names = [ruleset] if ruleset else available_rulesets()
    found: list[tuple[str, Importer]] = []
    known: list[str] = []
    for name in names:
        importers = get_ruleset(name).importers()
        known.extend(f"{key} ({name})" for key in importers)
        if wanted in importers:
            found.append((name, importers[wanted]))
    if not found:
        raise ConteurError(
            "engine.import.unknown_format", format=fmt, known=", ".join(known) or "—"
        )
    if len(found) > 1:
        raise ConteurError(
            "engine.import.ambiguous", format=fmt, rulesets=", ".join(n for n, _ in found)
        )
    return found[0]


__all__ = ["ImportResult", "Importer", "JsonValue", "Unmapped", "find_importer"]
