"""Counting the rolls of H-XP-2 in an encounter's stored log (plain dicts, no combat import).

A log is the list of ``CommandEntry.to_dict()`` / ``UndoEntry.to_dict()``
entries, as a JSON array, as JSON lines, or inside the document that
``conteur play --json`` writes (its ``log``). Commands retracted by an undo
entry do not count. In a command still in force, every hunter roll (a
``HunterPool`` record) of an event is the roll of the event's actor
(``actor``, else ``attacker``, else ``fighter``) against its ``target``:

- +1 per exceptional success (H-EXC-1: five successes or more) rolled by a
  hunter directly against a monster (H-XP-2, combat only: the log is a fight);
- +1 per dramatic failure rolled by a hunter, whatever the roll (H-XP-2).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conteur.i18n import ConteurError, Msg, env_lang
from conteur.i18n.spelling import key_of

from .dice import HunterResult
from .xp_session import (
    KIND_WORDS,
    EncounterRef,
    FighterKind,
    read_text,
    read_yaml,
)

ROLLER_FIELDS = ("actor", "attacker", "fighter")
"""Event fields naming who rolled, in order of preference."""


@dataclass(frozen=True)
class LogCount:
    """What one encounter's log adds to H-XP-2."""

    log: str
    exceptional_successes: int
    dramatic_failures: int
    character: bool = False
    """True when the counts are a character's carried counters, not a log's."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "log": self.log,
            "exceptional_successes": self.exceptional_successes,
            "dramatic_failures": self.dramatic_failures,
        }


def read_log(path: Path) -> list[dict[str, Any]]:
    """The entries of a stored log: a JSON array, JSON lines or a ``conteur play --json`` report."""
    text = read_text(path)
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError:
        data = None
        lines = [line for line in text.splitlines() if line.strip()]
        try:
            data = [json.loads(line) for line in lines]
        except json.JSONDecodeError as exc:
            raise ConteurError("xp.unreadable", path=str(path), reason=str(exc)) from None
    if isinstance(data, dict) and isinstance(data.get("log"), list):
        data = data["log"]
    if not isinstance(data, list):
        raise ConteurError("xp.log.not_a_log", path=str(path))
    for number, entry in enumerate(data, start=1):
        if not isinstance(entry, dict) or entry.get("kind") not in ("command", "undo"):
            raise ConteurError("xp.log.bad_entry", path=str(path), number=number)
    return data


KIND_FIELDS = ("kind", "type", "nature")
"""Fields of a combatant (or of its ``sheet``) that may name its kind."""


def scenario_kinds(path: Path) -> dict[str, FighterKind]:
    """The kind of each combatant of a scenario.

    Its ``kind`` (French ``type``/``nature``), on the combatant or on its
    ``sheet``; in a ``hunter`` scenario a combatant that names none is a
    hunter, as the hunter sheet has it.
    """
    raw = read_yaml(path)
    if not isinstance(raw, dict):
        return {}
    default: FighterKind | None = "hunter" if raw.get("ruleset") == "hunter" else None
    combatants = raw.get("combatants")
    kinds: dict[str, FighterKind] = {}
    for combatant in combatants if isinstance(combatants, list) else []:
        if not isinstance(combatant, dict) or "id" not in combatant:
            continue
        sheet = combatant.get("sheet")
        places = [combatant, sheet] if isinstance(sheet, dict) else [combatant]
        words = [
            key_of(str(value))
            for place in places
            for key, value in place.items()
            if key_of(str(key)) in KIND_FIELDS
        ]
        found = next((KIND_WORDS[w] for w in words if w in KIND_WORDS), default)
        if found is not None:
            kinds[str(combatant["id"])] = found
    return kinds


def active_events(entries: Iterable[Mapping[str, Any]]) -> Iterable[Mapping[str, Any]]:
    """The events of the commands still in force (undone commands left out)."""
    listed = list(entries)
    undone = {entry.get("undoes") for entry in listed if entry.get("kind") == "undo"}
    for entry in listed:
        if entry.get("kind") == "command" and entry.get("seq") not in undone:
            yield from entry.get("events") or []


def count_log(
    entries: Iterable[Mapping[str, Any]], kinds: Mapping[str, FighterKind], log: str
) -> LogCount:
    """Exceptional successes against monsters and dramatic failures of the hunters (H-XP-2)."""

    def kind_of(fighter: Any) -> FighterKind:
        if not isinstance(fighter, str) or fighter not in kinds:
            raise ConteurError(
                "xp.log.unknown_fighter", fighter=str(fighter), log=log, rule="H-XP-2"
            )
        return kinds[fighter]

    exceptional = dramatic = 0
    for event in active_events(entries):
        rolls = [r for r in event.get("rolls") or [] if r.get("kind") == "hunter"]
        if not rolls:
            continue
        roller = next((event[f] for f in ROLLER_FIELDS if event.get(f) is not None), None)
        if kind_of(roller) != "hunter":
            continue
        for record in rolls:
            result = HunterResult(**record["result"])
            if result.dramatic_failure:
                dramatic += 1
            if result.exceptional and kind_of(event.get("target")) == "monster":
                exceptional += 1
    return LogCount(log, exceptional, dramatic)


def replay(ref: EncounterRef, base_dir: Path) -> list[dict[str, Any]]:
    """The log of the summary's script played on its scenario with the table's dice.

    The same play as ``conteur play SCENARIO --script SCRIPT --dice DICE``; a
    refused line stops it with ``xp.replay_failed``.
    """
    from conteur.engine.script import play_script, script_lines, start, typed_dice

    assert ref.scenario is not None and ref.script is not None and ref.dice is not None
    encounter = start(base_dir / ref.scenario)
    lines = script_lines(base_dir / ref.script)
    _, failure = play_script(encounter, lines, typed_dice(base_dir / ref.dice), env_lang())
    if failure is not None:
        number, _, error = failure
        raise ConteurError(
            "xp.replay_failed",
            script=ref.script,
            line=number,
            message=Msg(error.key, **error.params),
        )
    return encounter.log_dicts()


def count_encounter(ref: EncounterRef, hunters: Iterable[str], base_dir: Path) -> LogCount:
    """Read (or replay) one encounter of the summary and count its log.

    Kinds: the cell's hunters, then the scenario's sheets, then what the
    summary says under ``combattants`` (the last word wins).
    """
    kinds: dict[str, FighterKind] = dict.fromkeys(hunters, "hunter")
    if ref.scenario:
        kinds.update(scenario_kinds(base_dir / ref.scenario))
    kinds.update({f: KIND_WORDS[k] for f, k in ref.fighters.items()})
    entries = read_log(base_dir / ref.log) if ref.log is not None else replay(ref, base_dir)
    return count_log(entries, kinds, ref.source)
