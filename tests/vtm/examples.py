"""The shipped vtm examples played step by step, through the public engine.

``steps(name)`` plays ``examples/<name>.txt`` with its typed dice the way ``conteur play``
does (a line that is not its fighter's turn yet waits), then plays the commands carried
out again, in the same order and with the same dice, on a fresh encounter, yielding it
before the first and after each one: every state a table went through.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from conteur.engine import Encounter
from conteur.engine.encounter import UndoEntry
from conteur.engine.script import play_script, script_lines, start, typed_dice

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
VTM_EXAMPLES = ("saloon", "fusillade", "vampires", "house_ranged")
"""The vtm examples (house_ranged plays its option pack)."""


def played(name: str) -> Encounter:
    """The example played whole."""
    enc = start(EXAMPLES / f"{name}.yaml")
    lines = script_lines(EXAMPLES / f"{name}.txt")
    _, refused = play_script(enc, lines, typed_dice(EXAMPLES / f"{name}.dice"), "fr")
    assert refused is None, refused
    return enc


def steps(name: str) -> Iterator[Encounter]:
    """The example's encounter before its first command and after each one."""
    whole = played(name)
    enc = start(EXAMPLES / f"{name}.yaml")
    dice = typed_dice(EXAMPLES / f"{name}.dice")
    yield enc
    for entry in whole.log:
        if isinstance(entry, UndoEntry):
            enc.undo()
        else:
            enc.execute(entry.command, dice)
        yield enc
