"""The game master's secrets: a command of his kept from the players, or shown to them later.

Two things, the same in every ruleset:

* **secret**: any command of the game master's (a note, a roll, damage, a modifier...) given
  the argument ``secret: true`` is resolved without it, and every event it emits is stamped
  the game master's alone (``GM_ONLY``, its hidden combatants kept): the players read
  nothing of it, not even a veiled line.
* **show** (« montrer » / "show"): the engine's own command ``show`` names an entry of the
  log (``seq``) — a command of the game master's whose events the players may not all read —
  and emits a public ``Shown`` event. History is not rewritten: the entry keeps its stamps,
  and readers read the ``show`` entry as the shown events made public (``shown_events``),
  at the place in the log where the game master showed them. The ``show`` is logged,
  undone (the entry may be shown again) and redone as any other command.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from conteur.i18n import ConteurError, Lang, t

from .commands import Command
from .events import Event
from .visibility import PUBLIC, Visibility

SHOW = "show"
"""The engine's own command: the game master shows the players an entry of the log."""

SECRET = "secret"
"""The argument that makes a command of the game master's his alone."""


class Shown(Event):
    """The game master shows the players what an entry of the log told him alone."""

    seq: int

    def describe(self, lang: Lang | None = None, names: Mapping[str, str] | None = None) -> str:
        return t("ev.Shown", lang)


def is_secret(command: Command) -> bool:
    """Whether ``command`` is the game master's and asked to be his alone."""
    return command.actor is None and command.args.get(SECRET) is True


def without_secret(command: Command) -> Command:
    """``command`` as the ruleset resolves it: its ``secret`` argument taken out."""
    if SECRET not in command.args:
        return command
    return Command(
        command.type, command.actor, {k: v for k, v in command.args.items() if k != SECRET}
    )


def kept_secret(events: Sequence[Event]) -> list[Event]:
    """``events`` stamped the game master's alone (the hidden combatants they name kept)."""
    return [
        dataclasses.replace(ev, seen=Visibility("secret", None, ev.seen.hides)) for ev in events
    ]


def showable(entry: Any) -> bool:
    """Whether ``entry`` (a log entry) is a command of the game master's that the players may
    not read in full: some event of it is not public (and says something)."""
    command = getattr(entry, "command", None)  # a command's entry (an undo's has none)
    if not isinstance(command, Command) or command.actor is not None:
        return False
    if command.type == SHOW:
        return False
    return any(not type(ev).quiet and ev.seen.audience != "public" for ev in entry.events)


def show_events(command: Command, log: Sequence[Any], in_force: set[int]) -> tuple[Event, ...]:
    """The events of the game master's ``show`` of the entry ``seq`` names: a public
    ``Shown``. ConteurError ``engine.show.*`` when that entry is no secret of the GM's in
    force, or is already shown."""
    raw = command.args.get("seq")
    if command.actor is not None or isinstance(raw, bool) or not isinstance(raw, int):
        raise ConteurError("engine.show.which", seq=str(raw))
    target = next((e for e in log if e.seq == raw), None)
    if target is None or raw not in in_force or not showable(target):
        raise ConteurError("engine.show.nothing", seq=raw)
    for entry in log:
        if entry.seq in in_force and _shows(entry) == raw:
            raise ConteurError("engine.show.already", seq=raw)
    return (Shown(seq=raw, seen=PUBLIC),)


def _shows(entry: Any) -> int | None:
    events = getattr(entry, "events", ())
    return next((ev.seq for ev in events if isinstance(ev, Shown)), None)


def shown_events(entry: Any, log: Sequence[Any]) -> tuple[Event, ...]:
    """What readers read of a ``show`` entry: its ``Shown`` line, then the shown entry's
    events made public (a hidden combatant they name stays hidden); any other entry's own
    events as they are."""
    events: tuple[Event, ...] = tuple(getattr(entry, "events", ()))
    seq = _shows(entry)
    if seq is None:
        return events
    target = next((e for e in log if e.seq == seq), None)
    if target is None:
        return events
    public = tuple(
        dataclasses.replace(ev, seen=Visibility("public", None, ev.seen.hides))
        for ev in target.events
    )
    return events + public


def parse_show(line: str) -> Command | None:
    """« montrer 12 » / "show 12" as the ``show`` command of entry 12 (None: another line)."""
    words = line.strip().split()
    if len(words) != 2 or words[0].lower().rstrip(":") not in SHOW_WORDS:
        return None
    number = words[1].lstrip("#")
    if not number.isdigit():
        raise ConteurError("engine.show.which", seq=words[1])
    return Command(SHOW, None, {"seq": int(number)})


SHOW_WORDS = frozenset({"montrer", "montre", "show"})
"""The script verbs of ``show`` (French and English)."""


__all__ = [
    "SECRET",
    "SHOW",
    "SHOW_WORDS",
    "Shown",
    "is_secret",
    "kept_secret",
    "parse_show",
    "show_events",
    "showable",
    "shown_events",
    "without_secret",
]
