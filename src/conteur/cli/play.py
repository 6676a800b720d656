"""``conteur play SCENARIO.yaml --script COMMANDS.txt``: play a fight written as a script.

The scenario names its ruleset (``ruleset: vtm``); the ruleset reads each line
of the script (``Ruleset.parse_command``) and the engine carries it out with
the dice: the program's (``--seed``) or the table's, typed in a file
(``--dice``, one flat stream in roll order, ``#`` comments allowed). ``annuler``
/ ``undo`` takes back the last command. The output is the events in prose
(French by default, ``--lang en``), or with ``--json`` the log (each line, its
command and its events) and where each fighter stands at the end.

A line the ruleset cannot read, or a command the rules refuse (dice running
short included), stops the play: the error names the line, and the exit code
is 2. Nothing here knows a ruleset: a new one plugs in through the registry.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from conteur.engine.script import (
    Played,
    final_state,
    names_of,
    play_script,
    script_lines,
    start,
    typed_dice,
)
from conteur.i18n import ConteurError, Lang, t

from .common import (
    LangOption,
    SeedOption,
    help_text,
    new_seed,
    print_json,
    resolve_lang,
)

if TYPE_CHECKING:
    from conteur.dice import DiceSource
    from conteur.engine import Encounter, Event


class _Message:
    """An error's own text, rendered in the language of the message that quotes it."""

    def __init__(self, error: ConteurError) -> None:
        self.error = error

    def describe(self, lang: Lang | None = None) -> str:
        return self.error.message(lang)


def dice_left(dice: DiceSource) -> int | None:
    """Typed faces not used by any roll (None for the program's dice)."""
    remaining = getattr(dice, "remaining", None)
    return len(remaining) if remaining is not None else None


# ----------------------------------------------------------------------------- output


def print_prose(
    encounter: Encounter,
    played: list[Played],
    lang: Lang,
    *,
    seed: int | None,
    left: int | None,
    finished: bool,
) -> None:
    """The events as prose: a header at each turn, each line of the script, its events."""
    from rich.console import Console
    from rich.text import Text

    from conteur.engine.encounter import CommandEntry

    out = Console(file=sys.stdout, highlight=False, soft_wrap=True)
    names = names_of(encounter.state)
    seqs = {p.entry.seq: p for p in played}
    for p in played:
        if not isinstance(p.entry, CommandEntry):
            undone = seqs.get(getattr(p.entry, "undoes", -1))
            out.print(
                Text(
                    t(
                        "cli.play.undone",
                        lang,
                        line=undone.line if undone else "?",
                        text=undone.text if undone else "",
                    ),
                    style="yellow",
                )
            )
            continue
        shown = [e for e in p.entry.events if not type(e).quiet]
        for event in shown:
            if _heading(event):
                out.print()
                out.print(Text(event.describe(lang, names), style="bold"))
        out.print(Text(f"» {p.text}", style="dim"))
        for event in shown:
            if not _heading(event):
                out.print(Text("  " + event.describe(lang, names)))
    if not finished:
        return
    lines = getattr(encounter.ruleset, "summary_lines", None)
    if callable(lines):
        out.print()
        out.print(Text(t("cli.play.summary", lang), style="bold"))
        for line in lines(encounter.state, lang):
            out.print(Text("  " + line))
    if left:
        out.print(Text(t("cli.play.dice_left", lang, count=left), style="yellow"))
    if seed is not None:
        out.print(Text(t("cli.play.seed", lang, seed=seed), style="dim"))


def _heading(event: Event) -> bool:
    """Events that open a new stage of play (a turn) are printed as headers."""
    return bool(getattr(type(event), "heading", False))


def report(
    encounter: Encounter,
    played: list[Played],
    *,
    seed: int | None,
    left: int | None,
) -> dict[str, Any]:
    """The JSON document of a played script."""
    return {
        "ruleset": encounter.ruleset.name,
        "seed": seed,
        "log": [p.to_dict() for p in played],
        "state": final_state(encounter),
        "dice_left": left,
    }


def stop(
    encounter: Encounter,
    played: list[Played],
    failure: tuple[int, str, ConteurError],
    lang: Lang,
    as_json: bool,
    seed: int | None,
) -> NoReturn:
    """Report the line that was refused (after what was played) and exit 2."""
    number, text, error = failure
    if as_json:
        doc = report(encounter, played, seed=seed, left=None)
        doc["error"] = {**error.to_dict(lang), "line": number, "text": text}
        print_json(doc)
    else:
        print_prose(encounter, played, lang, seed=seed, left=None, finished=False)
        message = t("cli.play.at_line", lang, line=number, message=_Message(error))
        sys.stderr.write(t("cli.error", lang, message=message) + "\n")
    raise typer.Exit(2)


def play(
    scenario: Annotated[Path, typer.Argument(help=help_text("cli.help.play.scenario"))],
    script: Annotated[Path, typer.Option("--script", help=help_text("cli.help.play.script"))],
    seed: SeedOption = None,
    dice: Annotated[
        Path | None, typer.Option("--dice", help=help_text("cli.help.play.dice"))
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help=help_text("cli.help.play.json"))] = False,
    lang: LangOption = None,
) -> None:
    """Play a fight written as a script against a scenario, and print what happens."""
    from conteur.dice import SeededDice

    chosen = resolve_lang(lang)
    try:
        if seed is not None and dice is not None:
            raise ConteurError("cli.seed_and_dice")
        encounter = start(scenario)
        lines = script_lines(script)
        source: DiceSource
        if dice is not None:
            source, used = typed_dice(dice), None
        else:
            used = new_seed() if seed is None else seed
            source = SeededDice(used)
    except ConteurError as error:
        _fail(error, chosen, as_json)
    played, failure = play_script(encounter, lines, source, chosen)
    if failure is not None:
        stop(encounter, played, failure, chosen, as_json, used)
    left = dice_left(source)
    if as_json:
        print_json(report(encounter, played, seed=used, left=left))
    else:
        print_prose(encounter, played, chosen, seed=used, left=left, finished=True)


def _fail(error: ConteurError, lang: Lang, as_json: bool) -> NoReturn:
    from .common import fail

    fail(error, lang, as_json)
