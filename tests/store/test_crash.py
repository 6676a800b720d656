"""Crash safety of the store: a writer killed (SIGKILL) mid-write never leaves a torn log.

Run on SQLite in WAL mode (the default database): after each kill the store
reopens cleanly, every seq the writer saw committed is there, the log has no
gap, and the state equals both the replay of the committed log and a fresh
execution of its commands. (Killing the web server during a stream of
commands is the web app's own test.)
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from conteur.dice import TypedDice
from conteur.engine import CommandEntry, Encounter, UndoEntry, entry_from_dict
from conteur.store import open_store

from .helpers import comparable, saloon

WRITER = Path(__file__).with_name("crash_writer.py")
WRITERS = 2


def test_a_writer_killed_mid_write_loses_no_committed_command(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'conteur.db'}"
    store = open_store(url)
    _, _, encounter = saloon(store)
    store.close()
    rng = random.Random(1899)
    committed: list[int] = []
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(WRITER.parents[1]), *sys.path])}
    # Several writers at once (they also race for each seq), killed one after the other.
    writers = [
        subprocess.Popen(
            [sys.executable, str(WRITER), url, str(encounter.id)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for _ in range(WRITERS)
    ]
    for writer in writers:
        assert writer.stdout is not None and writer.stderr is not None
        target = rng.randint(3, 25)
        seen = 0
        for line in writer.stdout:
            committed.append(int(line))
            seen += 1
            if seen >= target:
                break
        assert seen >= target, writer.stderr.read()
        os.kill(writer.pid, signal.SIGKILL)  # most likely in the middle of the next write
        writer.wait()
        committed.extend(int(line) for line in writer.stdout)  # committed, not read yet
        writer.stdout.close()
        writer.stderr.close()
    assert len(committed) == len(set(committed))  # no seq was stored twice

    store = open_store(url)
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
    log = store.log(encounter.id)
    seqs = [e["seq"] for e in log]
    assert seqs == list(range(len(log)))  # no gap, no duplicate
    assert set(committed) <= set(seqs)  # nothing the writer saw committed was lost
    assert len(log) <= max(committed) + 2  # at most the killed write got in

    live = store.encounter(encounter.id)
    scenario = store.get_encounter(encounter.id).scenario
    replayed = Encounter.replay(scenario, log)
    fresh = Encounter.start(scenario)
    for raw in log:
        entry = entry_from_dict(raw)
        if isinstance(entry, CommandEntry):
            fresh.execute(entry.command, TypedDice([]))
        else:
            assert isinstance(entry, UndoEntry)
            assert fresh.undo().seq == entry.undoes
    assert comparable(live.state) == comparable(replayed.state) == comparable(fresh.state)
    assert [e.to_dict() for e in fresh.log] == log
    store.run_command(encounter.id, fresh.log[0].command, TypedDice([]))  # type: ignore[union-attr]
    assert store.last_seq(encounter.id) == len(log)
    store.close()
