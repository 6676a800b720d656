"""Two writers on one database never lose nor duplicate a committed command."""

from __future__ import annotations

import threading

import pytest

from conteur.dice import TypedDice
from conteur.engine import Command, CommandEntry
from conteur.store import Store, open_store
from conteur.store import log as log_module

from .helpers import comparable, saloon

PER_WRITER = 10


def test_two_stores_writing_at_once_keep_every_command_once(db_url: str) -> None:
    stores = [open_store(db_url) for _ in range(2)]
    _, _, encounter = saloon(stores[0])
    for st in stores:
        st.encounter(encounter.id)  # both start with a cached live encounter
    stored: dict[str, int] = {}
    errors: list[BaseException] = []
    writers = [(st, f"s{n}t{k}") for n, st in enumerate(stores) for k in range(2)]
    barrier = threading.Barrier(len(writers))

    def write(st: Store, name: str) -> None:
        try:
            barrier.wait()
            for i in range(PER_WRITER):
                note = Command("gm_note", None, {"reason": f"{name}-{i}"})
                entry = st.execute(encounter.id, note, TypedDice([]))
                stored[f"{name}-{i}"] = entry.seq
        except BaseException as exc:  # reported below
            errors.append(exc)

    # Two stores (two processes, say), each used by two threads (a web server's workers).
    threads = [threading.Thread(target=write, args=w) for w in writers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    log = stores[0].log(encounter.id)
    assert [e["seq"] for e in log] == list(range(len(writers) * PER_WRITER))
    reasons = [e["command"]["args"]["reason"] for e in log]
    assert sorted(reasons) == sorted(stored) and len(set(reasons)) == len(reasons)
    assert {r: e["seq"] for r, e in zip(reasons, log, strict=True)} == stored
    states = [comparable(st.encounter(encounter.id).state) for st in stores]
    assert states[0] == states[1]
    for st in stores:
        st.close()


def test_a_writer_that_lost_the_race_reloads_and_retries(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The unique (encounter, seq) constraint refuses a stale writer, which then tries again."""
    first, second = open_store(db_url), open_store(db_url)
    _, _, encounter = saloon(first)
    first.encounter(encounter.id)
    second.execute(encounter.id, Command("gm_note", None, {"reason": "second"}), TypedDice([]))
    # Make the first store believe its cache is current, once: it writes seq 0 again.
    real_last_seq = log_module.last_stored_seq
    calls = {"n": 0}

    def stale_last_seq(s: object, encounter_id: int) -> int:
        calls["n"] += 1
        return -1 if calls["n"] == 1 else real_last_seq(s, encounter_id)  # type: ignore[arg-type]

    monkeypatch.setattr(log_module, "last_stored_seq", stale_last_seq)
    dice = TypedDice([])
    entry = first.execute(encounter.id, Command("gm_note", None, {"reason": "first"}), dice)
    assert calls["n"] >= 2  # refused once by the constraint, then reloaded
    assert isinstance(entry, CommandEntry) and entry.seq == 1
    log = first.log(encounter.id)
    assert [(e["seq"], e["command"]["args"]["reason"]) for e in log] == [
        (0, "second"),
        (1, "first"),
    ]
    first.close()
    second.close()
