"""Encounter logs in the stored format (``CommandEntry.to_dict()`` / ``UndoEntry.to_dict()``).

The rolls are real ``HunterPool`` records rolled from typed faces; the events
are literal dicts in the stored shape, with the ``actor``/``target`` fields of
the hunter ruleset's contract.
"""

from __future__ import annotations

from typing import Any

from conteur.dice import TypedDice
from conteur.rulesets.hunter.dice import HunterPool


def hunter_roll(dice: int, faces: str) -> dict[str, Any]:
    """A stored ``HunterPool`` record rolled from the typed ``faces``."""
    source = TypedDice(faces)
    record = source.roll(HunterPool(dice))
    assert not source.remaining, "every typed face is used"
    return record.to_dict()


def attack(seq: int, actor: str, target: str, dice: int, faces: str) -> dict[str, Any]:
    """A command whose one event resolves ``actor``'s roll against ``target``."""
    return {
        "kind": "command",
        "seq": seq,
        "command": {"type": "attack", "actor": actor, "args": {"target": target}},
        "events": [
            {
                "type": "AttackRolled",
                "rules": ["H-ATK-1"],
                "rolls": [hunter_roll(dice, faces)],
                "public": True,
                "actor": actor,
                "target": target,
            }
        ],
    }


def undo(seq: int, undoes: int) -> dict[str, Any]:
    return {"kind": "undo", "seq": seq, "undoes": undoes}
