"""Hidden combatants: in the fight from the start, unknown to the players until revealed.

A scenario's combatant entry may say ``hidden: true`` (``caché``): the combatant fights
as any other, but no player reads anything of it — no roster row, no rank in the order,
no turn, no log line, not even a veiled one — until it is **revealed**:

* when it acts: a command of its own that the ruleset says brings it out of hiding
  (``Ruleset.reveals``; by default any command of its own; a ruleset keeps its
  declarations or its stealthy moves hidden), or
* when the game master says so: the engine's own command ``reveal`` (script line
  « révéler X » / "reveal X"), logged and undone as any other.

Both are a public ``Revealed`` event in the log. Which combatants are hidden is read
from the scenario and the log (``hidden_now``): undoing the command that revealed one
hides it again. Every event emitted while a combatant is hidden and naming it (any of
its fields holding the combatant's id) is stamped with that name in ``Visibility.hides``:
players never read it, even after the reveal (they did not see it happen).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from conteur.i18n import ConteurError, Lang, t

from .commands import Command, CommandTemplate, Param
from .events import Event
from .visibility import PUBLIC

HIDDEN_KEYS = ("hidden", "caché", "cache")
"""The spellings of the flag in a scenario's combatant entry."""

REVEAL = "reveal"
"""The engine's own command: the game master reveals a hidden combatant."""

REVEAL_WORDS = frozenset({"révéler", "reveler", "reveal", "révèle", "revele"})
"""The script verbs of ``reveal`` (French and English)."""

UNDO_WORDS = frozenset({"annuler", "undo"})
"""The script line of the engine's own ``undo`` (``Encounter.undo``), in French and English:
every ruleset's script takes it, whatever else its language calls it."""


class Revealed(Event):
    """A hidden combatant comes out of hiding: by acting, or because the GM says so."""

    fighter: str
    by: str = "gm"
    """``gm`` (the game master's command) or ``action`` (its own first action)."""

    def describe(self, lang: Lang | None = None, names: Mapping[str, str] | None = None) -> str:
        name = (names or {}).get(self.fighter, self.fighter)
        return t(f"ev.Revealed.{self.by}", lang, fighter=name)


class JoinedHidden(Event):
    """The combatant the same command brings into the fight enters hidden (the joining form's
    « caché » / "hidden" box): bookkeeping the engine adds, read by ``hidden_now``."""

    quiet: ClassVar[bool] = True
    fighter: str


def hidden_flag(entry: Mapping[str, Any], where: str = "combatant") -> tuple[dict[str, Any], bool]:
    """A joining combatant's entry without its hidden flag, and whether it was set
    (ConteurError naming the field when the flag is not a yes/no)."""
    clean = dict(entry)
    hidden = False
    for key in HIDDEN_KEYS:
        if key not in clean:
            continue
        value = clean.pop(key)
        if not isinstance(value, bool):
            raise ConteurError("engine.hidden.not_bool", entry=where, field=key, value=value)
        hidden = hidden or value
    return clean, hidden


def split_scenario(scenario: Mapping[str, Any]) -> tuple[dict[str, Any], frozenset[str]]:
    """The scenario as the ruleset reads it (the flags taken out) and the combatants hidden
    at the start. ConteurError naming the entry and the field when a flag is not a yes/no."""
    combatants = scenario.get("combatants")
    if not isinstance(combatants, list):
        return dict(scenario), frozenset()
    clean: list[Any] = []
    hidden: set[str] = set()
    for i, raw in enumerate(combatants):
        if not isinstance(raw, Mapping) or not any(k in raw for k in HIDDEN_KEYS):
            clean.append(raw)
            continue
        entry = dict(raw)
        for key in HIDDEN_KEYS:
            if key not in entry:
                continue
            value = entry.pop(key)
            if not isinstance(value, bool):
                raise ConteurError(
                    "engine.hidden.not_bool", entry=f"combatants[{i}]", field=key, value=value
                )
            if value:
                cid = entry.get("id")
                if not isinstance(cid, str) or not cid:
                    raise ConteurError("engine.hidden.no_id", entry=f"combatants[{i}]", field=key)
                hidden.add(cid)
        clean.append(entry)
    return {**scenario, "combatants": clean}, frozenset(hidden)


def hidden_now(at_start: frozenset[str], events: Iterable[Event]) -> frozenset[str]:
    """The combatants still hidden after ``events`` (the events in force): those the scenario
    brought in hidden and those who joined hidden, not revealed since."""
    hidden = set(at_start)
    for ev in events:
        if isinstance(ev, JoinedHidden):
            hidden.add(ev.fighter)
        elif isinstance(ev, Revealed):
            hidden.discard(ev.fighter)
    return frozenset(hidden)


def ever_hidden(at_start: frozenset[str], events: Iterable[Event]) -> frozenset[str]:
    """The combatants hidden at some time: at the start, or joining hidden."""
    return at_start | {ev.fighter for ev in events if isinstance(ev, JoinedHidden)}


def names_of(event: Event, ids: frozenset[str]) -> frozenset[str]:
    """The combatants of ``ids`` that ``event`` names (any field holding one's id)."""
    if not ids:
        return frozenset()
    found: set[str] = set()
    for f in dataclasses.fields(event):
        if f.name in ("rules", "rolls", "seen"):
            continue
        _collect(getattr(event, f.name), ids, found)
    return frozenset(found)


def mentioned(value: Any, ids: frozenset[str]) -> frozenset[str]:
    """The combatants of ``ids`` that ``value`` (a command's arguments...) holds anywhere."""
    found: set[str] = set()
    _collect(value, ids, found)
    return frozenset(found)


def _collect(value: Any, ids: frozenset[str], found: set[str]) -> None:
    if isinstance(value, str):
        if value in ids:
            found.add(value)
    elif isinstance(value, tuple | list | set | frozenset):
        for v in value:
            _collect(v, ids, found)
    elif isinstance(value, Mapping):
        for k, v in value.items():
            _collect(k, ids, found)
            _collect(v, ids, found)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            _collect(getattr(value, f.name), ids, found)


def stamp(events: Sequence[Event], hidden: frozenset[str], actor: str | None = None) -> list[Event]:
    """``events`` with the hidden combatants each names stamped in its ``seen.hides``; when
    the command's ``actor`` is one of them, every event is its doing and is stamped with it
    (the end of the declarations its declaration closes tells of it too)."""
    out: list[Event] = []
    doer = frozenset({actor}) if actor is not None and actor in hidden else frozenset()
    for ev in events:
        named = names_of(ev, hidden) | doer
        if named:
            hides = tuple(sorted(set(ev.seen.hides) | named))
            ev = dataclasses.replace(ev, seen=dataclasses.replace(ev.seen, hides=hides))
        out.append(ev)
    return out


def reveal_template(hidden: frozenset[str]) -> CommandTemplate | None:
    """The game master's ``reveal`` command, when someone is hidden."""
    if not hidden:
        return None
    return CommandTemplate(
        REVEAL, None, (Param("fighter", "choice", choices=tuple(sorted(hidden))),)
    )


def reveal_events(command: Command, hidden: frozenset[str]) -> tuple[Event, ...]:
    """The events of the game master's ``reveal`` (ConteurError when no one hidden is named)."""
    fighter = command.args.get("fighter")
    if command.actor is not None or not isinstance(fighter, str) or fighter not in hidden:
        raise ConteurError("engine.hidden.not_hidden", fighter=str(fighter))
    return (Revealed(fighter=fighter, by="gm", seen=PUBLIC),)


def parse_line(encounter: Any, line: str, lang: Lang | None = None) -> Command:
    """One script line of ``encounter`` (an ``Encounter``): the engine's « révéler X »
    while someone is hidden, « annuler », « montrer N », else the ruleset's own language
    (``parse_command``)."""
    if encounter.hidden:
        found = parse_reveal(line, encounter.ruleset.names(encounter.state))
        if found is not None:
            return found
    if line.strip().lower() in UNDO_WORDS:
        return Command("undo")
    from .shown import parse_show

    shown = parse_show(line)
    if shown is not None:
        return shown
    command: Command = encounter.ruleset.parse_command(line, encounter.state, lang)
    return command


def parse_reveal(line: str, names: Mapping[str, str]) -> Command | None:
    """« révéler Sam » / "reveal sam" as the ``reveal`` command (None: another line).

    The combatant is named by its id or its name (case and accents as typed)."""
    words = line.strip().split(None, 1)
    if not words or words[0].lower().rstrip(":") not in REVEAL_WORDS:
        return None
    who = words[1].strip() if len(words) > 1 else ""
    if not who:
        raise ConteurError("engine.hidden.who")
    folded = who.casefold()
    for cid, name in names.items():
        if folded in (cid.casefold(), name.casefold()):
            return Command(REVEAL, None, {"fighter": cid})
    raise ConteurError("engine.hidden.not_hidden", fighter=who)


__all__ = [
    "HIDDEN_KEYS",
    "REVEAL",
    "JoinedHidden",
    "Revealed",
    "ever_hidden",
    "hidden_flag",
    "hidden_now",
    "mentioned",
    "names_of",
    "parse_line",
    "parse_reveal",
    "reveal_events",
    "reveal_template",
    "split_scenario",
    "stamp",
]
