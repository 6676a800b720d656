"""A writer killed by test_crash: appends commands to one encounter forever, printing each seq.

``python crash_writer.py URL ENCOUNTER_ID`` runs ``command_for(n)`` for the
next seq ``n`` as it sees it (an undo every seventh entry), and prints the seq
it was stored at once it is committed, until it is killed.
"""

from __future__ import annotations

import sys

from conteur.dice import TypedDice
from conteur.engine import Command
from conteur.i18n import ConteurError
from conteur.store import open_store


def command_for(seq: int) -> Command | None:
    """The command stored at ``seq`` (None: an undo)."""
    if seq % 7 == 6:
        return None
    if seq % 3 == 2:
        return Command("gm_heal", None, {"fighter": "bob", "levels": 1})
    return Command("gm_damage", None, {"fighter": "bob", "levels": 1, "damage_type": "bashing"})


def main() -> None:
    url, encounter_id = sys.argv[1], int(sys.argv[2])
    store = open_store(url)
    while True:
        command = command_for(store.last_seq(encounter_id) + 1)
        try:
            if command is None:
                seq = store.undo(encounter_id).seq
            else:
                seq = store.execute(encounter_id, command, TypedDice([])).seq
        except ConteurError:  # nothing to heal or to undo: the refusal stores nothing
            note = Command("gm_note", None, {"reason": "rien"})
            seq = store.execute(encounter_id, note, TypedDice([])).seq
        sys.stdout.write(f"{seq}\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
