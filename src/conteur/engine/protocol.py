"""The event protocol as a document: every event type of some rulesets, its JSON fields
and who sees it by default — what ``docs/events.md`` holds (``scripts/events_doc.py``).

Read from the code itself: the event dataclasses' fields, their docstrings, and each
ruleset's ``audiences`` table, so the document cannot drift from what the program does.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
from collections.abc import Iterable
from typing import Any

from .events import Event
from .ruleset import Ruleset

BASE_FIELDS = tuple(f.name for f in dataclasses.fields(Event))
"""The fields every event has (``rules``, ``rolls``, ``public``, ``seen``)."""

_JSON_KINDS = (
    (re.compile(r"^(str)$"), "string"),
    (re.compile(r"^(int)$"), "integer"),
    (re.compile(r"^(float)$"), "number"),
    (re.compile(r"^(bool)$"), "boolean"),
    (re.compile(r"^(tuple|list|Sequence)\["), "array"),
    (re.compile(r"^(dict|Mapping)\["), "object"),
    (re.compile(r"^Visibility$"), "object"),
)


def json_kind(annotation: str) -> str:
    """The JSON kind a field's Python annotation is written as (``str | None``: string or null)."""
    kinds = []
    for part in (p.strip() for p in annotation.split(" | ")):
        if part == "None":
            kinds.append("null")
            continue
        kinds.append(next((kind for rx, kind in _JSON_KINDS if rx.search(part)), "any"))
    return " or ".join(dict.fromkeys(kinds))


def _summary(cls: type[Event]) -> str:
    """The first paragraph of an event type's own docstring, on one line."""
    doc = cls.__dict__.get("__doc__") or ""
    first = inspect.cleandoc(doc).split("\n\n")[0]
    return " ".join(first.split()).replace("``", "`").replace("|", "\\|")


def _flags(cls: type[Event]) -> str:
    flags = [name for name in ("quiet", "heading") if getattr(cls, name)]
    return f" ({', '.join(flags)})" if flags else ""


def ruleset_section(ruleset: Ruleset[Any]) -> list[str]:
    """The lines documenting one ruleset's event types."""
    audiences = ruleset.audiences()
    named = {*audiences.gm, *audiences.owned, *audiences.decided}
    types = ruleset.event_types()
    lines = [
        f"## `{ruleset.name}`",
        "",
        f"{len(types)} event types. Default visibility of a type not listed otherwise: "
        f"{audiences.fallback or 'public'}. An event marked `public: false` is the game "
        "master's whatever its type.",
        "",
        "| type | what it records | own fields (JSON kind) | seen by |",
        "|---|---|---|---|",
    ]
    for cls in types:
        own = [f for f in dataclasses.fields(cls) if f.name not in BASE_FIELDS]
        fields = "<br>".join(f"`{f.name}`: {json_kind(str(f.type))}" for f in own) or "—"
        seen = audiences.describe(cls.type_name) if cls.type_name in named else "default"
        lines.append(
            f"| `{cls.type_name}`{_flags(cls)} | {_summary(cls) or '—'} | {fields} | {seen} |"
        )
    lines.append("")
    return lines


HEADER = """# The event protocol

Generated from the code by `scripts/events_doc.py` (checked in CI by
`tests/test_events_doc.py`): do not edit by hand.

An encounter's log is a list of events. `conteur play --json` prints them and the store
keeps them, each as one JSON object:

```json
{"type": "AttackRolled", "rules": ["V-ATK-1"], "rolls": [...], "public": true,
 "seen": {"audience": "owner", "owner": "jack"}, "attacker": "jack", ...}
```

Every event has these fields:

- `type` (string): the event type, one of the tables below;
- `rules` (array of strings): the rule ids it applied (`docs/rules-coverage.md`);
- `rolls` (array of objects): the dice it used, each with its kind, its faces and its result;
- `public` (boolean): false for what only the game master may see whatever its type;
- `seen` (object): who may see it, stamped when it was emitted — `audience` is `public`,
  `gm` (the game master only), `owner` (the combatant `owner`'s player and the game
  master; every player when that combatant is a player character) or `secret` (the game
  master only, and the players read nothing of it: a command he made secret). A reader
  who may not see an event reads its veiled line instead, or nothing. `hides` (array of
  strings, present only when not empty) lists the hidden combatants the event names: no
  player but the hidden one's own reads it, not even its veiled line
  (`conteur.engine.hidden`).

The engine adds types of its own, in every ruleset: `Revealed` (`fighter`: string,
`by`: string, `gm` or `action`) — a hidden combatant comes out of hiding, because the
game master said so (the command `reveal`) or by its first deed; it is public.
`JoinedHidden` (`fighter`: string; quiet, the game master's) — the combatant the same
`join` brings in enters hidden. `Shown` (`seq`: integer; public) — the game master shows
the players the entry `seq` of the log (the command `show`): readers read the `show`
entry as that entry's events made public; the entry itself keeps its stamps
(`conteur.engine.shown`). Any command of the game master's with the argument
`secret: true` has its events stamped `secret`.

Combatants are named by their ids (`fighter`, `attacker`, `target`, `defender`, `actor`,
`other`, `holder`). Types marked *quiet* are bookkeeping that printed logs leave out;
*heading* types open a new stage of play (a turn, a round). Later versions only add types
and fields; a reader should ignore what it does not know.
"""


def protocol_document(rulesets: Iterable[Ruleset[Any]]) -> str:
    """The whole document for ``rulesets``, in the order given."""
    lines = [HEADER]
    for ruleset in rulesets:
        lines.extend(ruleset_section(ruleset))
    return "\n".join(lines).rstrip("\n") + "\n"


__all__ = ["BASE_FIELDS", "json_kind", "protocol_document", "ruleset_section"]
