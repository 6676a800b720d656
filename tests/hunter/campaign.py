"""The session-2 fight of the examples played through the store, as the tracker would."""

from __future__ import annotations

from pathlib import Path

import yaml

from conteur.engine.script import script_lines, typed_dice
from conteur.store import Participant, open_store

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "hunter"
UNDO = {"annuler", "undo"}


def session_2_export(db: Path) -> str:
    """The campaign export (YAML) after the session-2 fight, played and closed in a store."""
    scenario = yaml.safe_load((EXAMPLES / "session-2-combat.yaml").read_text("utf-8"))
    store = open_store(f"sqlite:///{db}")
    try:
        campaign = store.create_campaign("La cave du boucher", "hunter")
        hunters, npcs = [], []
        for raw in scenario["combatants"]:
            sheet = {k: v for k, v in raw.items() if k != "camp"}
            if raw.get("type") in ("monstre", "passant"):
                npcs.append({"id": raw["id"], "side": raw["camp"], "sheet": sheet})
            else:
                char = store.add_character(campaign.id, sheet)
                hunters.append(Participant(char.id, raw["camp"]))
        enc = store.start_encounter(campaign.id, "La cave", hunters, npcs=npcs)
        dice = typed_dice(EXAMPLES / "session-2-combat.dice")
        ruleset = store.encounter(enc.id).ruleset
        for _, line in script_lines(EXAMPLES / "session-2-combat.txt"):
            if line in UNDO:
                store.undo(enc.id)
                continue
            command = ruleset.parse_command(line, store.encounter(enc.id).state)
            store.run_command(enc.id, command, dice)
        store.close_encounter(enc.id)
        return store.export_characters(campaign.id)
    finally:
        store.close()


if __name__ == "__main__":  # regenerate the shipped export
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        text = session_2_export(Path(tmp) / "c.db")
    head = (
        "# Export des personnages de la campagne après le combat de la séance 2\n"
        "# (GET /c/<id>/export?fmt=yaml), régénéré par : python -m tests.hunter.campaign\n"
    )
    (EXAMPLES / "session-2-personnages.yaml").write_text(head + text, "utf-8")
