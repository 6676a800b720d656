"""What one reader reads of the log: each event it may see in prose, the veiled line of the
others, shared by every reader (the tracker's pages, ``conteur play --as``).

The stored log keeps every event with who may see it (``Event.seen``, stamped by the
ruleset when it was emitted); a reader filters it with its ``Viewer``. An event the
reader may see is described with the faces it rolled; one it may not see gives its
``veiled`` line (no faces, no pool) or nothing at all. A command of which the reader
may see nothing — every event kept from it and none veiled, a GM's note — is no entry
of that reader's log at all, and neither is the undo of such a command.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from conteur.i18n import Lang

from .encounter import CommandEntry, LogEntry, UndoEntry
from .events import Event
from .visibility import Viewer


@dataclass(frozen=True)
class Line:
    """One line of the log as a reader reads it."""

    text: str
    event: Event
    """The event the line tells (seen, or veiled)."""
    faces: str = ""
    """The faces it rolled, space-separated ("" when it rolled none, or is veiled)."""
    veiled: bool = False
    """The reader may not see the event: this is the line shown instead."""


def lines_of(
    events: Iterable[Event],
    viewer: Viewer,
    lang: Lang | None = None,
    names: Mapping[str, str] | None = None,
) -> tuple[list[Line], bool]:
    """The lines ``viewer`` reads of ``events`` (bookkeeping events left out), and whether
    some event was kept from it."""
    out: list[Line] = []
    hidden = False
    for ev in events:
        if type(ev).quiet:
            continue
        if viewer.sees(ev.seen) or (ev.rolls and viewer.sees_roll(ev.seen)):
            faces = " ".join(str(f) for r in ev.rolls for f in r.faces)
            out.append(Line(ev.describe(lang, names), ev, faces))
            continue
        hidden = True
        if ev.seen.audience == "secret":  # the GM's secret: not even a veiled line
            continue
        if ev.seen.hides:  # it names a hidden combatant: what is told without them, if any
            ev = told(ev)  # type: ignore[assignment]
            if ev is None:
                continue
            if viewer.sees(ev.seen):
                faces = " ".join(str(f) for r in ev.rolls for f in r.faces)
                out.append(Line(ev.describe(lang, names), ev, faces))
                continue
        veiled = ev.veiled(lang, names)
        if veiled:
            out.append(Line(veiled, ev, veiled=True))
    return out, hidden


def told(ev: Event) -> Event | None:
    """What a reader who may not know of the hidden combatants ``ev`` names reads of it:
    the event ``without`` them (with its own audience), or None."""
    if not ev.seen.hides:
        return ev
    other = ev.without(frozenset(ev.seen.hides))
    if other is None:
        return None
    return dataclasses.replace(other, seen=dataclasses.replace(ev.seen, hides=()))


def hidden_entry(entry: CommandEntry, viewer: Viewer) -> bool:
    """Whether ``viewer`` may see nothing of that command: some of its events are kept
    from it and none of the others is seen or veiled."""
    if viewer.gm:
        return False
    hidden = False
    for ev in entry.events:
        if type(ev).quiet:
            continue
        if viewer.sees(ev.seen):
            return False
        hidden = True
        if ev.seen.audience == "secret":
            continue
        shown = told(ev)
        if shown is not None and (viewer.sees(shown.seen) or shown.veiled() is not None):
            return False
    return hidden


def readable(log: Sequence[LogEntry], viewer: Viewer) -> list[LogEntry]:
    """The entries of ``log`` that ``viewer`` reads, in order: the commands of which it may
    see nothing left out, and the undos of those."""
    gone: set[int] = set()
    out: list[LogEntry] = []
    for entry in log:
        if isinstance(entry, UndoEntry):
            if entry.undoes not in gone:
                out.append(entry)
            else:
                gone.add(entry.seq)
            continue
        if hidden_entry(entry, viewer):
            gone.add(entry.seq)
            continue
        out.append(entry)
    return out


__all__ = ["Line", "hidden_entry", "lines_of", "readable", "told"]
