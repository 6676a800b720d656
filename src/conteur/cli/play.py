"""``conteur play SCENARIO.yaml --script COMMANDS.txt``: play a fight written as a script.

The scenario names its ruleset (``ruleset: <name>``); the ruleset reads each line
of the script (``Ruleset.parse_command``) and the engine carries it out with
the dice: the program's (``--seed``) or the table's, typed in a file
(``--dice``, one flat stream in roll order, ``#`` comments allowed). ``annuler``
/ ``undo`` takes back the last command. The output is the events in prose
(French by default, ``--lang en``), or with ``--json`` the log (each line, its
command and its events) and where each fighter stands at the end.

``conteur play`` is the game master's tool: it shows every event. With ``--as
PLAYER`` (a combatant id) it shows what that combatant's player would read at the
table: the events that player may see (``Viewer.sees``), the veiled line of the
others, nothing of a command they may see nothing of, and at the end their own
combatant in full and the others' standing in a word (``--json`` gains the fields
``as``, ``veiled`` and ``others``; every other field keeps its name).

A line the ruleset cannot read, or a command the rules refuse (dice running
short included), stops the play: the error names the line, and the exit code
is 2. Nothing here knows a ruleset: a new one plugs in through the registry.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

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
    from conteur.engine.script import Played
    from conteur.engine.visibility import Viewer

# The engine (and numpy, through the dice) is imported inside the functions that play:
# `conteur --help` and the other commands do not pay for it (docs/performance.md).


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


def readable(played: list[Played], viewer: Viewer) -> list[Played]:
    """The played lines ``viewer`` reads something of: a command it may see nothing of is
    left out, and so is the undo of it."""
    from conteur.engine.encounter import CommandEntry, UndoEntry
    from conteur.engine.reading import hidden_entry

    if viewer.gm:
        return played
    gone: set[int] = set()
    out = []
    for p in played:
        entry = p.entry
        undone = isinstance(entry, UndoEntry) and entry.undoes in gone
        if undone or (isinstance(entry, CommandEntry) and hidden_entry(entry, viewer)):
            gone.add(entry.seq)
        else:
            out.append(p)
    return out


def print_prose(
    encounter: Encounter,
    played: list[Played],
    lang: Lang,
    *,
    seed: int | None,
    left: int | None,
    finished: bool,
    viewer: Viewer | None = None,
) -> None:
    """The events as prose: a header at each turn, each line of the script, its events;
    for a player (``viewer``), only what they may see, the veiled line of the rest."""
    from rich.console import Console
    from rich.text import Text

    from conteur.engine.encounter import CommandEntry
    from conteur.engine.reading import lines_of
    from conteur.engine.visibility import GM

    viewer = GM if viewer is None else viewer

    out = Console(file=sys.stdout, highlight=False, soft_wrap=True)
    names = encounter.ruleset.names(encounter.state)
    seqs = {p.entry.seq: p for p in played}
    for p in readable(played, viewer):
        if not isinstance(p.entry, CommandEntry):
            undone = seqs.get(p.entry.undoes)
            out.print(
                Text(
                    t(
                        "cli.play.undone",
                        lang,
                        line=undone.line if undone else "?",
                        text=_line_text(undone, viewer, names, lang) if undone else "",
                    ),
                    style="yellow",
                )
            )
            continue
        shown, _ = lines_of(p.entry.events, viewer, lang, names)
        for line in shown:
            if _heading(line.event):
                out.print()
                out.print(Text(line.text, style="bold"))
        out.print(Text(f"» {_line_text(p, viewer, names, lang)}", style="dim"))
        for line in shown:
            if not _heading(line.event):
                out.print(Text("  " + line.text))
    if not finished:
        return
    out.print()
    out.print(Text(t("cli.play.summary", lang), style="bold"))
    lines = (
        encounter.ruleset.summary_lines(encounter.state, lang)
        if viewer.gm
        else player_summary_lines(encounter, viewer, lang)
    )
    for text in lines:
        out.print(Text("  " + text))
    if left:
        out.print(Text(t("cli.play.dice_left", lang, count=left), style="yellow"))
    if seed is not None:
        out.print(Text(t("cli.play.seed", lang, seed=seed), style="dim"))


def _line_text(p: Played, viewer: Viewer, names: dict[str, str], lang: Lang) -> str:
    """The script line as written, for whoever may see all it did; else who gave it only
    (the line may carry what the game master keeps: a note, a modifier's reason)."""
    from conteur.engine.encounter import CommandEntry

    entry = p.entry
    if viewer.gm or not isinstance(entry, CommandEntry):
        return p.text
    if all(viewer.sees(e.seen) for e in entry.events if not type(e).quiet):
        return p.text
    actor = entry.command.actor
    who = names.get(actor, actor) if actor else t("cli.play.gm", lang)
    return t("cli.play.veiled_line", lang, line=p.line, actor=who)


def player_summary_lines(encounter: Encounter, viewer: Viewer, lang: Lang) -> list[str]:
    """Where each combatant stands as a player reads it: their own in full (health and
    resources), the others in the ruleset's word for how they stand."""
    lines = []
    for r in encounter.ruleset.roster(encounter.state).rows:
        if r.id in viewer.players:
            parts = [r.health.text(lang)] + [
                f"{res.label.describe(lang)} {res.text(lang)}" for res in r.resources
            ]
        else:
            parts = [t(r.band, lang)]
        lines.append(t("engine.summary.line", lang, fighter=r.name, parts=" · ".join(parts)))
    return lines


def _heading(event: Event) -> bool:
    """Events that open a new stage of play (a turn) are printed as headers."""
    return type(event).heading


def report(
    encounter: Encounter,
    played: list[Played],
    *,
    seed: int | None,
    left: int | None,
    viewer: Viewer | None = None,
) -> dict[str, Any]:
    """The JSON document of a played script; for a player (``viewer``), what they read.

    A player's document keeps every field and gains ``as`` (the combatant), for each
    entry ``veiled`` (the lines shown instead of the events kept from them), and
    ``others`` (each other combatant's standing); ``state`` holds their own combatant
    only, and an entry they may not see whole has no script ``text`` nor arguments."""
    from conteur.engine.script import final_state
    from conteur.engine.visibility import GM

    viewer = GM if viewer is None else viewer
    if viewer.gm:
        return {
            "ruleset": encounter.ruleset.name,
            "seed": seed,
            "log": [p.to_dict() for p in played],
            "state": final_state(encounter),
            "dice_left": left,
        }
    names = encounter.ruleset.names(encounter.state)
    rows = encounter.ruleset.roster(encounter.state).rows
    return {
        "ruleset": encounter.ruleset.name,
        "seed": seed,
        "log": [_entry_dict(p, viewer, names) for p in readable(played, viewer)],
        "state": [s for s in final_state(encounter) if s.get("id") in viewer.players],
        "dice_left": left,
        "as": viewer.character,
        "others": [
            {"id": r.id, "name": r.name, "side": r.side, "status": r.status, "band": r.band}
            for r in rows
            if r.id not in viewer.players and r.id not in encounter.hidden
        ],
    }


def _entry_dict(p: Played, viewer: Viewer, names: dict[str, str]) -> dict[str, Any]:
    """One played line as a player reads it: the events they may see, the veiled lines."""
    from conteur.engine.encounter import CommandEntry

    data = p.to_dict()
    entry = p.entry
    if not isinstance(entry, CommandEntry):
        return data
    seen = [e for e in entry.events if viewer.sees(e.seen)]
    data["events"] = [e.to_dict() for e in seen]
    data["veiled"] = [
        text
        for e in entry.events
        if not viewer.sees(e.seen)
        and not e.seen.hides
        and (text := e.veiled(None, names)) is not None
    ]
    if len(seen) < len(entry.events):
        data["text"] = None
        data["command"] = {**data["command"], "args": {}}
    return data


def stop(
    encounter: Encounter,
    played: list[Played],
    failure: tuple[int, str, ConteurError],
    lang: Lang,
    as_json: bool,
    seed: int | None,
    viewer: Viewer | None = None,
) -> NoReturn:
    """Report the line that was refused (after what was played) and exit 2."""
    number, text, error = failure
    if as_json:
        doc = report(encounter, played, seed=seed, left=None, viewer=viewer)
        doc["error"] = {**error.to_dict(lang), "line": number, "text": text}
        print_json(doc)
    else:
        print_prose(encounter, played, lang, seed=seed, left=None, finished=False, viewer=viewer)
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
    as_player: Annotated[
        str | None, typer.Option("--as", help=help_text("cli.help.play.as"))
    ] = None,
    with_report: Annotated[
        bool, typer.Option("--report", help=help_text("cli.help.play.report"))
    ] = False,
) -> None:
    """Play a fight written as a script against a scenario, and print what happens."""
    from conteur.dice import SeededDice
    from conteur.engine.script import play_script, script_lines, start, typed_dice

    chosen = resolve_lang(lang)
    try:
        if seed is not None and dice is not None:
            raise ConteurError("cli.seed_and_dice")
        encounter = start(scenario)
        viewer = viewer_of(encounter, as_player)
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
        stop(encounter, played, failure, chosen, as_json, used, viewer)
    left = dice_left(source)
    if as_json:
        doc = report(encounter, played, seed=used, left=left, viewer=viewer)
        if with_report and viewer.gm:
            from conteur.engine.report import fight_report

            doc["report"] = fight_report(encounter).to_dict()
        print_json(doc)
    else:
        print_prose(encounter, played, chosen, seed=used, left=left, finished=True, viewer=viewer)
        if with_report and viewer.gm:
            print_report(encounter, chosen)


def print_report(encounter: Encounter, lang: Lang) -> None:
    """The fight's summary in prose: each fighter, then each side's luck."""
    from rich.console import Console
    from rich.text import Text

    from conteur.engine.report import fight_report, report_lines

    out = Console(file=sys.stdout, highlight=False, soft_wrap=True)
    out.print()
    out.print(Text(t("engine.report.title", lang), style="bold"))
    for line in report_lines(fight_report(encounter), lang):
        out.print(Text(line))


def viewer_of(encounter: Encounter, combatant: str | None) -> Viewer:
    """The game master (None), or the player of ``combatant``, alone at the table
    (ConteurError naming it, and the known ids, when there is no such combatant)."""
    from conteur.engine.visibility import GM, player

    if combatant is None:
        return GM
    names = encounter.ruleset.names(encounter.state)
    if combatant not in names:
        raise ConteurError("cli.play.unknown_player", name=combatant, known=", ".join(names))
    return player(combatant, frozenset({combatant}))


def _fail(error: ConteurError, lang: Lang, as_json: bool) -> NoReturn:
    from .common import fail

    fail(error, lang, as_json)
