"""What one store tells the others: PostgreSQL notifications sent when a change commits
(never for a refused command), on a channel of the store's own schema; and a store whose
cached encounter is behind folds in the newer entries instead of replaying the whole log."""

from __future__ import annotations

import asyncio

import pytest

from conteur.engine import Encounter
from conteur.store import Store, changes, open_store

from .helpers import run, saloon


def test_a_store_behind_catches_up_with_the_entries_another_wrote(db_url: str) -> None:
    writer, reader = open_store(db_url), open_store(db_url)
    try:
        _, _, enc = saloon(writer)
        run(writer, enc.id, "initiative", dice=[9, 5, 1])
        cached = reader.encounter(enc.id)
        one_turn_rest(writer, enc.id)
        writer.undo(enc.id)
        caught = reader.encounter(enc.id)
        assert caught is cached  # the same live encounter, brought up to date
        replayed = Encounter.replay(writer.get_encounter(enc.id).scenario, writer.log(enc.id))
        assert caught.log_dicts() == replayed.log_dicts()
        assert caught.ruleset.summary(caught.state) == replayed.ruleset.summary(replayed.state)  # type: ignore[attr-defined]
        assert caught.end_state() == replayed.end_state()
        # An undo that does not follow on what the cache saw: the whole log is replayed.
        with pytest.raises(ValueError):
            cached.catch_up(replayed.log[-1:])
    finally:
        writer.close()
        reader.close()


def one_turn_rest(store: Store, encounter_id: int) -> None:
    run(store, encounter_id, "declare", "cid", actions=[{"kind": "punch", "target": "ann"}])
    run(store, encounter_id, "declare", "bob", actions=[{"kind": "punch", "target": "ann"}])
    run(store, encounter_id, "declare", "ann", actions=[{"kind": "punch", "target": "bob"}])
    run(store, encounter_id, "act", "ann", [8, 8, 8, 2, 2, 7, 7, 7, 7, 3])


def test_changes_are_announced_on_commit_only_and_per_schema(pg_cluster: object) -> None:
    url = pg_cluster.new_database()  # type: ignore[attr-defined]
    elsewhere = pg_cluster.new_database()  # type: ignore[attr-defined]
    store, listener_store, other = open_store(url), open_store(url), open_store(elsewhere)
    try:
        campaign, _, enc = saloon(store)
        saloon(other)
        heard = asyncio.run(_listen_while(listener_store, store, other, enc.id, campaign.id))
    finally:
        store.close()
        listener_store.close()
        other.close()
    # in order: the initiative, the undo, the settings, the close; nothing of the refused
    # command, nothing from the store on another schema, nothing the listener's own store said
    assert heard == [
        (changes.ENCOUNTER, enc.id),
        (changes.ENCOUNTER, enc.id),
        (changes.CAMPAIGN, campaign.id),
        (changes.CLOSED, enc.id),
    ]


async def _listen_while(
    listener_store: Store, store: Store, other: Store, eid: int, cid: int
) -> list[tuple[str, int]]:
    heard: list[tuple[str, int]] = []
    listener = changes.ChangeListener(
        listener_store.engine.url, listener_store.origin, lambda k, i: heard.append((k, i))
    )
    task = asyncio.create_task(listener.run())
    await asyncio.wait_for(listener.ready.wait(), 10)

    def writes() -> None:
        run(store, eid, "initiative", dice=[9, 5, 1])
        with pytest.raises(Exception):  # noqa: B017 -- refused: too few dice
            run(store, eid, "act", "ann", [1])
        run(other, eid, "initiative", dice=[9, 5, 1])  # another schema
        listener_store.update_campaign(cid, settings={"lang": "fr"})  # the listener's own
        store.undo(eid)
        store.update_campaign(cid, settings={"player_input": True})
        store.close_encounter(eid)

    await asyncio.to_thread(writes)
    deadline = asyncio.get_running_loop().time() + 5
    while len(heard) < 4 and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.1)  # and nothing more comes
    task.cancel()
    return heard
