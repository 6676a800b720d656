"""Encounters as an append-only log: one transaction per command, undo as a row, replay, close."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from conteur.dice import SeededDice, TypedDice
from conteur.engine import Command, CommandEntry, Encounter, UndoEntry
from conteur.i18n import ConteurError
from conteur.store import Participant, Store, open_store

from .helpers import ANN, BOB, comparable, gm, one_turn, run, saloon

STORE_SRC = Path(__file__).resolve().parents[2] / "src" / "conteur" / "store"


def test_a_command_is_stored_whole_with_its_events(store: Store) -> None:
    _, _, encounter = saloon(store)
    events = store.run_command(
        encounter.id, gm("gm_damage", fighter="bob", levels=2, damage_type="lethal"), TypedDice([])
    )
    log = store.log(encounter.id)
    assert len(log) == 1 and log[0]["kind"] == "command" and log[0]["seq"] == 0
    assert log[0]["events"] == [e.to_dict() for e in events]
    assert store.last_seq(encounter.id) == 0
    (entry,) = store.events_since(encounter.id, -1)
    assert isinstance(entry, CommandEntry) and tuple(events) == entry.events


def test_a_refused_command_leaves_no_row_and_consumes_no_dice(store: Store) -> None:
    _, _, encounter = saloon(store)
    with pytest.raises(ConteurError) as err:  # nobody acts before initiative
        run(store, encounter.id, "act", "ann", [8, 8, 8, 8, 8])
    assert err.value.rule is not None
    short = TypedDice([9, 5])  # three fighters roll initiative: one die is missing
    with pytest.raises(ConteurError) as err:
        store.run_command(encounter.id, Command("initiative"), short)
    assert err.value.key == "dice.too_few" and short.position == 0
    extra = TypedDice([9, 5, 1, 4])  # one die too many
    with pytest.raises(ConteurError) as err:
        store.run_command(encounter.id, Command("initiative"), extra, all_dice_used=True)
    assert err.value.key == "dice.left_over" and extra.position == 0
    with pytest.raises(ConteurError) as err:
        store.run_command(encounter.id, Command("gm_note", None, {"reason": {1, 2}}), TypedDice([]))
    assert err.value.key == "store.command.not_json"
    assert store.log(encounter.id) == []
    assert store.encounter(encounter.id).state.phase == "setup"
    one_turn(store, encounter.id)  # the same fight goes on normally, seq from 0
    assert [e["seq"] for e in store.log(encounter.id)] == list(range(6))


def test_replay_from_the_database_equals_the_live_state(db_url: str) -> None:
    first = open_store(db_url)
    _, _, encounter = saloon(first)
    one_turn(first, encounter.id)
    first.undo(encounter.id)
    first.run_command(encounter.id, Command("act", "cid"), SeededDice(7))
    first.run_command(encounter.id, Command("initiative"), SeededDice(1899))
    live = first.encounter(encounter.id)
    other = open_store(db_url)  # another process: nothing cached
    loaded = other.encounter(encounter.id)
    assert loaded is not live
    assert comparable(loaded.state) == comparable(live.state)
    assert loaded.end_state() == live.end_state()
    assert [e.to_dict() for e in loaded.log] == [e.to_dict() for e in live.log]
    replayed = Encounter.replay(other.get_encounter(encounter.id).scenario, other.log(encounter.id))
    assert comparable(replayed.state) == comparable(live.state) == comparable(replayed.rebuild())
    first.close()
    other.close()


def test_undo_is_a_row_and_never_a_deletion(store: Store) -> None:
    _, _, encounter = saloon(store)
    run(store, encounter.id, "gm_damage", fighter="ann", levels=1, damage_type="bashing")
    before = store.encounter(encounter.id).end_state()
    run(store, encounter.id, "gm_damage", fighter="ann", levels=2, damage_type="lethal")
    undone = store.undo(encounter.id)
    assert undone == UndoEntry(2, 1)
    assert store.encounter(encounter.id).end_state() == before
    log = store.log(encounter.id)
    assert [(e["seq"], e["kind"]) for e in log] == [(0, "command"), (1, "command"), (2, "undo")]
    assert log[2]["undoes"] == 1
    assert store.events_since(encounter.id, 1) == [UndoEntry(2, 1)]
    store.undo(encounter.id)
    with pytest.raises(ConteurError) as err:
        store.undo(encounter.id)
    assert err.value.key == "engine.nothing_to_undo"
    assert len(store.log(encounter.id)) == 4
    assert store.encounter(encounter.id).end_state()["ann"]["health"] == []


def test_the_log_is_append_only_in_every_code_path(store: Store) -> None:
    """No UPDATE or DELETE reaches the log or the character versions, whatever is done."""
    statements: list[str] = []

    @event.listens_for(store.engine, "before_cursor_execute")
    def _record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    _campaign, chars, encounter = saloon(store)
    one_turn(store, encounter.id)
    with pytest.raises(ConteurError):
        run(store, encounter.id, "act", "ann", [1])
    store.undo(encounter.id)
    store.events_since(encounter.id, 2)
    other = open_store(store.engine.url)  # a second writer makes the first one reload
    run(other, encounter.id, "gm_note", reason="la porte claque")
    other.close()
    run(store, encounter.id, "gm_heal", fighter="bob", levels=1)
    store.update_character(chars["ann"].id, state={"health": ["bashing"]})
    store.close_encounter(encounter.id, awards={chars["ann"].id: {"experience": 1}})
    writes = [s for s in statements if re.match(r"\s*(UPDATE|DELETE)\b", s, re.I)]
    assert writes  # the current rows (characters, encounters) are updated...
    for s in writes:  # ...never the history
        assert not re.search(r"\b(encounter_log|character_versions)\b", s), s
    assert any(re.match(r"\s*INSERT INTO encounter_log\b", s) for s in statements)
    # And no code path of the store could: the source never updates or deletes them.
    for path in STORE_SRC.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(update|delete)\(\s*(LogRow|CharacterVersion)", text), path
        assert not re.search(r"session\.delete|s\.delete\(", text), path


def test_closing_writes_the_outcome_back_as_new_versions(store: Store) -> None:
    campaign = store.create_campaign("Duel", "vtm", era="1899")
    ann = store.add_character(campaign.id, ANN, {"experience": 4})
    bob = store.add_character(campaign.id, BOB, {"willpower": 4, "ammo": {"colt": 2}})
    encounter = store.start_encounter(
        campaign.id,
        "Duel à midi",
        [Participant(ann.id, side="a", position=(0, 0)), Participant(bob.id, "b", (5, 0))],
        npcs=[{"id": "barman", "sheet": {"name": "Barman", "kind": "mortal"}, "side": "c"}],
    )
    assert encounter.characters == {"ann": ann.id, "bob": bob.id}
    assert store.encounter(encounter.id).end_state()["bob"]["ammo"] == {"heavy_revolver": 2}
    run(store, encounter.id, "initiative", dice=[1, 9, 1])
    run(store, encounter.id, "declare", "barman", actions=[{"kind": "dodge"}])
    run(store, encounter.id, "declare", "ann", actions=[{"kind": "dodge"}])
    run(
        store,
        encounter.id,
        "declare",
        "bob",
        actions=[{"kind": "shoot", "target": "ann"}],
        willpower=True,
    )  # Bob spends a point of Willpower: 4 -> 3
    run(store, encounter.id, "gm_damage", fighter="ann", levels=2, damage_type="lethal")
    updated = store.close_encounter(encounter.id, awards={ann.id: {"experience": 2}})
    assert [c.id for c in updated] == [ann.id, bob.id]
    ann_after, bob_after = store.get_character(ann.id), store.get_character(bob.id)
    assert ann_after.state["health"] == ["lethal", "lethal"]
    assert ann_after.state["experience"] == 6
    assert bob_after.state["willpower"] == 3
    assert bob_after.state["ammo"] == {"heavy_revolver": 2}
    assert bob_after.sheet == BOB  # the sheet is untouched
    for char in (ann_after, bob_after):
        last = store.character_history(char.id)[-1]
        assert (last.version, last.reason, last.encounter_id) == (
            2,
            "encounter_closed",
            encounter.id,
        )
        assert last.state == char.state
        assert last.describe_reason("fr") == "fin d'une rencontre"
    info = store.get_encounter(encounter.id)
    assert info.status == "closed" and info.closed_at is not None
    with pytest.raises(ConteurError) as err:
        run(store, encounter.id, "gm_note", reason="trop tard")
    assert err.value.key == "store.encounter.closed"
    with pytest.raises(ConteurError):
        store.close_encounter(encounter.id)
    with pytest.raises(ConteurError):
        store.undo(encounter.id)
    assert len(store.character_history(ann.id)) == 2
    # The next fight starts from the wounds carried out of this one.
    again = store.start_encounter(campaign.id, "Revanche", [Participant(ann.id)])
    assert store.encounter(again.id).end_state()["ann"]["health"] == ["lethal", "lethal"]
    assert [e.name for e in store.list_encounters(campaign.id, "open")] == ["Revanche"]


def test_starting_an_encounter_checks_everything_first(store: Store) -> None:
    campaign, chars, _ = saloon(store)
    other = store.create_campaign("Ailleurs", "vtm")
    stranger = store.add_character(other.id, {"name": "Stranger", "kind": "mortal"})
    bad_calls = [
        lambda: store.start_encounter(campaign.id, "x", []),
        lambda: store.start_encounter(campaign.id, "", [Participant(chars["ann"].id)]),
        lambda: store.start_encounter(campaign.id, "x", [Participant(stranger.id)]),
        lambda: store.start_encounter(
            campaign.id, "x", [Participant(chars["ann"].id), Participant(chars["ann"].id)]
        ),
        lambda: store.start_encounter(
            campaign.id, "x", [Participant(chars["ann"].id, extra={"health": ["cassé"]})]
        ),
        lambda: store.start_encounter(
            campaign.id, "x", [Participant(chars["ann"].id)], extra={"ruleset": "hunter"}
        ),
        lambda: store.start_encounter(
            campaign.id, "x", [Participant(chars["ann"].id)], npcs=[{"id": "ann", "name": "Ann"}]
        ),
    ]
    for call in bad_calls:
        with pytest.raises(ConteurError) as err:
            call()
        assert err.value.message("fr") and err.value.message("en")
    assert len(store.list_encounters(campaign.id)) == 1


def test_a_live_view_catches_up_with_events_since(store: Store) -> None:
    _, _, encounter = saloon(store)
    seen = store.last_seq(encounter.id)
    assert seen == -1
    run(store, encounter.id, "initiative", dice=[9, 5, 1])
    run(store, encounter.id, "declare", "cid", actions=[{"kind": "punch", "target": "ann"}])
    new = store.events_since(encounter.id, seen)
    assert [e.seq for e in new] == [0, 1]
    store.undo(encounter.id)
    newer = store.events_since(encounter.id, new[-1].seq)
    assert newer == [UndoEntry(2, 1)]
    assert store.events_since(encounter.id, 2) == []
