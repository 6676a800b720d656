"""Dice die by die: each face of a roll with what it did, for any reader to draw.

Every roll request says what its faces did (``notes(faces)``, ``DieNote``).
``marked_faces`` turns that into plain words a page can use as CSS classes,
without knowing which game rolled: the face's role first (``success``,
``failure``, ``one``, ``cancels``, ``cancelled``, ``replaced``, ``counted``),
then what else is true of it:

* ``again`` — the face made another die be rolled (10-again and the like);
* ``wave-N`` — the face was rolled in the N-th again-wave; ``rote`` — a rote reroll;
* ``cancels-I`` / ``cancelled-by-I`` — the 1 that cancels the success at index
  I of the faces, and that success (the lowest success left is the one cancelled);
* ``critical`` — a success the result calls critical (a low d100);
* ``chance`` — the chance die (its 10 succeeds, its 1 is a dramatic failure: ``dramatic``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from .rolls import DieNote, RollRecord


@runtime_checkable
class Noted(Protocol):
    """A roll request that says what each of its faces did."""

    def notes(self, faces: Sequence[int]) -> tuple[DieNote, ...]: ...


def _pairs(notes: Sequence[DieNote]) -> dict[int, int]:
    """Which cancelling 1 (by index) cancels which success (by index), both ways."""
    ones = [i for i, n in enumerate(notes) if n.role == "cancels"]
    hits = sorted(
        (i for i, n in enumerate(notes) if n.role == "cancelled"), key=lambda i: notes[i].face
    )
    out: dict[int, int] = {}
    for one, hit in zip(ones, hits, strict=False):
        out[one] = hit
        out[hit] = one
    return out


def marked_faces(record: RollRecord[Any]) -> list[tuple[int, str]]:
    """Each face of ``record`` in roll order, with the space-separated words of what it did.

    A record with no faces (an exact enumeration) gives []; a request that cannot
    say what its faces did marks each face ``counted``.
    """
    request = record.request
    if not record.faces:
        return []
    if not isinstance(request, Noted):
        return [(face, "counted") for face in record.faces]
    notes = request.notes(record.faces)
    pairs = _pairs(notes)
    result = record.result
    critical = bool(getattr(result, "critical", False))
    chance = bool(getattr(result, "chance", False))
    dramatic = bool(getattr(result, "dramatic_failure", False))
    out: list[tuple[int, str]] = []
    for i, note in enumerate(notes):
        words: list[str] = [note.role]
        if note.explodes:
            words.append("again")
        if note.stage == "rote":
            words.append("rote")
        if note.wave:
            words.append(f"wave-{note.wave}")
        if note.role == "cancels" and i in pairs:
            words.append(f"cancels-{pairs[i]}")
        if note.role == "cancelled" and i in pairs:
            words.append(f"cancelled-by-{pairs[i]}")
        if critical and note.role == "success":
            words.append("critical")
        if chance and note.stage == "roll" and note.wave == 0:
            words.append("chance")
            if dramatic and note.face == 1:
                words.append("dramatic")
        out.append((note.face, " ".join(words)))
    return out


__all__ = ["Noted", "marked_faces"]
