"""Playing a script: the lines of a fight, read by the ruleset and carried out in order.

Shared by ``conteur play``, the tracker's tests and anything that replays a
written fight (a ruleset's session report may replay a session's fights).
Nothing here knows a ruleset: ``parse_command`` reads each line, the
ruleset's ``deferrable`` error keys say which refusals only mean "not this
fighter's turn yet".
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from conteur.i18n import ConteurError, Lang, os_reason

from .hidden import parse_line

if TYPE_CHECKING:
    from conteur.dice import DiceSource

    from .encounter import Encounter, LogEntry


@dataclass(frozen=True)
class Played:
    """One script line carried out: its number, its text and the log entry it made."""

    line: int
    text: str
    entry: LogEntry

    def to_dict(self) -> dict[str, Any]:
        return {"line": self.line, "text": self.text, **self.entry.to_dict()}


def strip_comment(line: str) -> str:
    """``line`` without its ``#`` comment (a ``#`` inside quotes is kept)."""
    closing = {'"': '"', "“": "”", "«": "»"}
    quote: str | None = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in closing:
            quote = closing[c]
        elif c == "#":
            return line[:i]
    return line


def _text_of(path: Path) -> str:
    """A script's or dice file's text; ``cli.play.no_file``, or not UTF-8 text (its place)."""
    from .inputs import not_utf8

    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConteurError("cli.play.no_file", path=str(path), reason=os_reason(exc)) from None
    except UnicodeDecodeError as exc:
        raise not_utf8(path, exc) from None


def script_lines(path: Path) -> list[tuple[int, str]]:
    """The lines of a script worth playing: (number, text), comments and blank lines left out."""
    text = _text_of(path)
    out = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = strip_comment(raw).strip()
        if line:
            out.append((number, line))
    return out


def typed_dice(path: Path) -> DiceSource:
    """The faces of a dice file: numbers split by spaces, commas or new lines; ``#`` comments."""
    from conteur.dice import TypedDice

    text = _text_of(path)
    faces = " ".join(line.split("#", 1)[0] for line in text.splitlines())
    return TypedDice(faces)


def start(scenario_path: Path) -> Encounter:
    """The encounter a scenario file describes (its ``ruleset`` key picks the ruleset)."""
    from .encounter import Encounter
    from .scenario import load_scenario

    scenario, base = load_scenario(scenario_path)
    return Encounter.start(scenario, base, source=str(scenario_path))


def final_state(encounter: Encounter) -> list[dict[str, Any]]:
    """Where each combatant stands, JSON-ready: the ruleset's ``summary``."""
    return encounter.ruleset.summary(encounter.state)


def play_script(
    encounter: Encounter, lines: list[tuple[int, str]], dice: DiceSource, lang: Lang
) -> tuple[list[Played], tuple[int, str, ConteurError] | None]:
    """Carry out the script's lines in order; stop at the first one refused.

    A line refused only because it is not its fighter's turn yet (the
    ruleset's ``deferrable`` error keys: declaring before a slower fighter,
    acting before a faster one) waits, and is tried again after each command
    carried out, so that one script plays whatever order the initiative dice
    give. A line still waiting at the end is reported as refused.
    """
    played: list[Played] = []
    waiting: list[tuple[int, str, ConteurError]] = []
    deferrable = encounter.ruleset.deferrable

    def attempt(number: int, text: str) -> None:
        command = parse_line(encounter, text, lang)
        if command.type == "undo":
            encounter.undo()
        else:
            encounter.execute(command, dice)
        played.append(Played(number, text, encounter.log[-1]))

    def retry_waiting() -> None:
        progress = True
        while progress and waiting:
            progress = False
            for item in list(waiting):
                try:
                    attempt(item[0], item[1])
                except ConteurError as error:
                    if error.key not in deferrable:
                        raise _Stop(item[0], item[1], error) from None
                    continue
                waiting.remove(item)
                progress = True
                break

    try:
        for number, text in lines:
            try:
                attempt(number, text)
            except ConteurError as error:
                if error.key in deferrable:
                    waiting.append((number, text, error))
                    continue
                return played, (number, text, error)
            retry_waiting()
    except _Stop as stop:
        return played, (stop.number, stop.text, stop.error)
    if waiting:
        return played, waiting[0]
    return played, None


class _Stop(Exception):
    """A waiting line refused for a reason other than its turn."""

    def __init__(self, number: int, text: str, error: ConteurError) -> None:
        self.number, self.text, self.error = number, text, error
