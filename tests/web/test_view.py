"""What the pages read from an encounter: hidden events stay off the players' log."""

from __future__ import annotations

import dataclasses

from conteur.dice import SeededDice
from conteur.engine import Encounter
from conteur.engine.commands import Command
from conteur.engine.encounter import CommandEntry
from conteur.web import view
from conteur.web.demo import demo_data


def test_hidden_events_are_left_out_of_the_public_log() -> None:
    data = demo_data()
    enc = Encounter.start({"ruleset": "vtm", "era": data["era"], "combatants": data["combatants"]})
    enc.execute(Command("initiative"), SeededDice(1))
    entry = enc.log[-1]
    assert isinstance(entry, CommandEntry)
    hidden = tuple(dataclasses.replace(e, public=False) for e in entry.events)
    enc.log[-1] = CommandEntry(entry.seq, entry.command, hidden)
    gm_lines = view.log_items(enc, "fr")[0].lines
    assert gm_lines and any("initiative" in line for line in gm_lines)
    assert view.log_items(enc, "fr", public_only=True)[0].lines == []


def test_public_status_words() -> None:
    assert view.public_status({"health": "[ ][ ]", "fate": "alive"}, "fr") == "indemne"
    assert view.public_status({"health": "[/][ ]", "fate": "alive"}, "fr") == "blessé"
    assert view.public_status({"health": "[X][X]", "fate": "dead"}, "en") == "out of the fight"


def test_the_web_layer_names_no_ruleset_maneuver() -> None:
    """Ruleset-neutral: attacks, second actions and odds options come from the ruleset
    (``legal_commands``, ``attack_kinds``, ``odds_toggles``), never from the web's code."""
    from pathlib import Path

    source = "".join(p.read_text(encoding="utf-8") for p in Path(view.__file__).parent.glob("*.py"))
    for word in ("punch", "shoot", "weapon_strike", "then_kind", "then_target", "cover", "aim"):
        assert f'"{word}"' not in source, word


def test_the_shared_log_grows_as_a_fresh_one_and_undo_marks_old_entries(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Panels extends the previous state's log; it must equal one built from scratch."""
    from conteur.store import open_store
    from conteur.web.panels import Panels

    store = open_store(f"sqlite:///{tmp_path / 'log.db'}")
    from conteur.web.demo import load_demo

    load_demo(store)

    def render(name: str, lang: str, **context: object) -> str:
        return repr(sorted((k, str(v)) for k, v in context.items()))

    kept = Panels(store, render)
    enc = store.encounter(1)
    lines = ["mj: note coup un", "mj: note coup deux", "annuler", "mj: note coup trois"]
    for line in lines:
        enc = store.encounter(1)
        command = enc.ruleset.parse_command(line, enc.state, "fr")
        if command.type == "undo":
            store.undo(1)
        else:
            store.execute(1, command, SeededDice(1))
        for public in (False, True):
            shared = kept.snapshot(1, "fr", public=public)
            fresh = Panels(store, render).snapshot(1, "fr", public=public)
            assert shared.log_html == fresh.log_html
            assert [i.undone for i in shared.items] == [i.undone for i in fresh.items]
    assert [i.undone for i in shared.items] == [False, True, False, False]
    store.close()
