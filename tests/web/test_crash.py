"""Crash safety of the tracker: kill ``conteur serve`` (SIGKILL) while the game master's
commands stream in, restart it, and find every acknowledged command in the log, none twice,
and a state equal to the replay of the committed log."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

from conteur.engine import Encounter
from conteur.store import open_store

from .serving import wait_until_answering

SERVE = [sys.executable, "-c", "from conteur.launch import main; main()", "serve"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(data_dir: Path, port: int, *extra: str) -> tuple[subprocess.Popen[str], str]:
    env = {k: v for k, v in os.environ.items() if k != "CONTEUR_DATABASE_URL"}
    env["CONTEUR_DATA_DIR"] = str(data_dir)
    proc = subprocess.Popen(
        [*SERVE, "--port", str(port), *extra],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 30
    link = ""
    while time.monotonic() < deadline and not link:
        line = proc.stdout.readline()
        found = re.search(r"(http://\S+\?token=\S+)", line)
        link = found.group(1) if found else ""
        if not line and proc.poll() is not None:
            break
    assert link, "conteur serve printed no link"
    wait_until_answering(f"http://127.0.0.1:{port}", proc, max(deadline - time.monotonic(), 1))
    return proc, link


def _gm_client(link: str, port: int) -> tuple[httpx.Client, str]:
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=5)
    client.get(link.replace(f"http://127.0.0.1:{port}", ""), follow_redirects=True)
    page = client.get("/e/1").text
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page)
    assert csrf, page[:500]
    return client, csrf.group(1)


def test_killing_the_server_loses_no_acknowledged_command(tmp_path: Path) -> None:
    port = _free_port()
    proc, link = _start(tmp_path, port, "--demo")
    acked: list[int] = []
    try:
        client, csrf = _gm_client(link, port)

        def writer() -> None:
            for n in range(10_000):
                try:
                    r = client.post(
                        "/e/1/script",
                        data={"csrf": csrf, "line": f"mj: note coup {n}"},
                        headers={"hx-request": "true"},
                    )
                except httpx.HTTPError:
                    return
                if r.status_code == 200:
                    acked.append(n)

        thread = threading.Thread(target=writer)
        thread.start()
        deadline = time.monotonic() + 20
        while len(acked) < 15 and time.monotonic() < deadline:
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        thread.join(20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert len(acked) >= 15

    store = open_store(f"sqlite:///{tmp_path / 'conteur.db'}")
    try:
        log = store.log(1)
        notes = [e["command"]["args"].get("reason") for e in log if e["kind"] == "command"]
        numbers = [int(str(n).rsplit(" ", 1)[1]) for n in notes]
        assert len(numbers) == len(set(numbers))  # none stored twice
        assert set(acked) <= set(numbers)  # none acknowledged and lost
        assert numbers == list(range(len(numbers)))  # in order, no gap
        assert [e["seq"] for e in log] == list(range(len(log)))
        info = store.get_encounter(1)
        replayed = Encounter.replay(info.scenario, log)
        live = store.encounter(1)
        assert replayed.ruleset.summary(replayed.state) == live.ruleset.summary(live.state)  # type: ignore[attr-defined]
    finally:
        store.close()

    # The server starts again on the same database, and the game goes on.
    proc, link = _start(tmp_path, port)
    try:
        client, csrf = _gm_client(link, port)
        assert f"coup {numbers[-1]}" in client.get("/e/1").text
        r = client.post(
            "/e/1/script",
            data={"csrf": csrf, "line": "mj: note reprise"},
            headers={"hx-request": "true"},
        )
        assert r.status_code == 200 and "reprise" in r.text
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def test_killing_the_server_in_the_middle_of_an_action_keeps_its_rolls(tmp_path: Path) -> None:
    """SIGKILL while an action waits for the table's dice: after the restart the rolls
    entered are still there, nothing is half-committed, and the action can be finished."""
    hx = {"hx-request": "true"}
    port = _free_port()
    proc, link = _start(tmp_path, port, "--demo")
    try:
        client, csrf = _gm_client(link, port)
        for values in [
            {"type": "initiative", "actor": "", "faces": "5 3 5 8"},
            {
                "type": "declare",
                "actor": "billy",
                "kind": "weapon_strike",
                "target": "ezechiel",
                "weapon": "knife",
            },
            {"type": "declare", "actor": "sam", "delay": "1"},
            {
                "type": "declare",
                "actor": "jack",
                "kind": "punch",
                "target": "ezechiel",
                "then_kind": "block",
            },
            {"type": "declare", "actor": "ezechiel", "kind": "punch", "target": "jack"},
        ]:
            r = client.post("/e/1/command", data={"csrf": csrf, **values}, headers=hx)
            assert r.status_code == 200, r.text[:300]
        client.post(
            "/e/1/rolls", data={"csrf": csrf, "type": "act", "actor": "ezechiel"}, headers=hx
        )
        step = re.search(r'name="step" value="(\d+)"', client.get("/e/1/rolls").text)
        assert step
        r = client.post(
            "/e/1/rolls/faces", data={"csrf": csrf, "step": step.group(1), "faces": "8 9 1 3 7 10"}
        )
        assert r.status_code == 200
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    store = open_store(f"sqlite:///{tmp_path / 'conteur.db'}")
    try:
        seq = store.last_seq(1)
        pending = store.pending(1)
        assert pending is not None and [list(r) for r in pending.rolls] == [[8, 9, 1, 3, 7, 10]]
    finally:
        store.close()
    proc, link = _start(tmp_path, port)
    try:
        client, csrf = _gm_client(link, port)
        pad = client.get("/e/1/rolls").text
        assert 'data-pad-count="4"' in pad  # Jack's block, where it was
        assert "data-pad-count" not in client.post("/e/1/rolls/cancel", data={"csrf": csrf}).text
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
    store = open_store(f"sqlite:///{tmp_path / 'conteur.db'}")
    try:
        assert store.last_seq(1) == seq and store.pending(1) is None  # nothing half-committed
    finally:
        store.close()
