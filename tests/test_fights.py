"""During and after a fight, through the public engine: redo after undo (the same events, so
the same dice and result), refused once a new command is recorded."""

from __future__ import annotations

import pytest

from conteur.engine import CommandEntry, Encounter
from conteur.i18n import ConteurError
from test_engine import played
from vtm.statedump import dump

# ------------------------------------------------------------------ redo


def test_redo_puts_undone_commands_back_with_their_events() -> None:
    """Two undos then two redos: the state after each is the one before the undos, step by
    step; each redo is a new entry naming what it redoes, with the very same events."""
    f, states = played()
    enc = f.encounter
    last, before_last = enc.active()[-1], enc.active()[-2]
    enc.undo()
    enc.undo()
    assert dump(f.state) == states[-3]
    first = enc.redo()
    assert dump(f.state) == states[-2]
    assert first.redoes == before_last.seq and first.events == before_last.events
    second = enc.redo()
    assert dump(f.state) == states[-1]
    assert second.redoes == last.seq and second.command == last.command
    assert [e.seq for e in enc.active()][-2:] == [first.seq, second.seq]
    # The stored log reads back to the same state, redo entries included.
    again = Encounter.replay(enc.scenario, enc.log_dicts())
    assert dump(again.state) == dump(f.state)
    assert isinstance(again.log[-1], CommandEntry) and again.log[-1].redoes == last.seq
    with pytest.raises(ConteurError) as err:
        enc.redo()
    assert err.value.key == "engine.nothing_to_redo"


def test_a_redo_can_be_undone_and_redone_again() -> None:
    f, states = played()
    enc = f.encounter
    enc.undo()
    enc.redo()
    enc.undo()
    assert dump(f.state) == states[-2]
    enc.redo()
    assert dump(f.state) == states[-1]


def test_redo_is_refused_once_a_new_command_is_recorded() -> None:
    """After an undo, a new command makes what was undone impossible to redo, with a message
    that says why (in French and English)."""
    f, _ = played()
    enc = f.encounter
    enc.undo()
    f.do("gm_note", None, [], reason="autre chose")
    with pytest.raises(ConteurError) as err:
        enc.redo()
    assert err.value.key == "engine.redo_after_command"
    assert "nouvelle action" in err.value.message("fr")
    assert "new action" in err.value.message("en")
    assert dump(enc.rebuild()) == dump(f.state)


def test_nothing_to_redo_at_the_start() -> None:
    f, _ = played()
    with pytest.raises(ConteurError) as err:
        f.encounter.redo()
    assert err.value.key == "engine.nothing_to_redo"
