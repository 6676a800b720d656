"""Two server processes on one PostgreSQL database: a command posted to one reaches a live
stream opened on the other at once, through PostgreSQL's notifications (``LISTEN``/``NOTIFY``,
``conteur.store.changes``), not the streams' look at the database every 2 s.

Process A is ``conteur serve --public-url …`` (it prints the game master's link, with the
public address), process B is uvicorn with the app factory
(``uvicorn --factory conteur.web.hosting:app_from_env``), both on 127.0.0.1 on free ports,
with the same ``CONTEUR_SECRET_KEY``: the session opened on A is valid on B. The game
master's stream is opened on B; each command is posted to A and timed from the moment the
POST is sent to the moment B's stream delivers the update carrying its seq. The figures go
to ``out/test-output/processes-latency.txt``.
"""

from __future__ import annotations

import json
import os
import queue
import re
import secrets
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from conteur.store import open_store
from conteur.web.demo import load_demo
from pg_cluster import PgCluster

LIMIT_MS = 100.0
COMMANDS = 15
ROUNDS = 5
PUBLIC = "http://jeu.example.org:8080"
OUT = Path(__file__).resolve().parents[2] / "out" / "test-output"
"""Where the measured figures are written (``processes-latency.txt``)."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_until_up(port: int, proc: subprocess.Popen[str], deadline: float) -> None:
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(
                f"server on {port} stopped: {proc.stdout.read() if proc.stdout else ''}"
            )
        try:
            httpx.get(f"http://127.0.0.1:{port}/static/style.css", timeout=1)
            return
        except httpx.HTTPError:
            time.sleep(0.05)
    raise AssertionError(f"server on {port} never answered")


@pytest.fixture
def two_servers(pg_cluster: PgCluster, tmp_path: Path) -> Iterator[tuple[int, int, str]]:
    """Ports of A (``conteur serve``) and B (uvicorn's factory), and A's printed link."""
    url = pg_cluster.new_database()
    store = open_store(url)
    load_demo(store)
    store.close()
    env = {k: v for k, v in os.environ.items() if not k.startswith("CONTEUR_")}
    env.update(
        CONTEUR_DATABASE_URL=url,
        CONTEUR_SECRET_KEY=secrets.token_hex(32),
        CONTEUR_DATA_DIR=str(tmp_path),
    )
    port_a, port_b = _free_port(), _free_port()
    a = subprocess.Popen(
        [sys.executable, "-c", "from conteur.launch import main; main()", "serve"]
        + ["--port", str(port_a), "--public-url", PUBLIC],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    b = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--factory", "conteur.web.hosting:app_from_env"]
        + ["--host", "127.0.0.1", "--port", str(port_b), "--log-level", "warning"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert a.stdout is not None
        deadline = time.monotonic() + 60
        link = ""
        while time.monotonic() < deadline and not link:
            line = a.stdout.readline()
            found = re.search(r"(http://\S+\?token=\S+)", line)
            link = found.group(1) if found else ""
            if not line and a.poll() is not None:
                break
        assert link, "conteur serve printed no link"
        _wait_until_up(port_a, a, deadline)
        _wait_until_up(port_b, b, deadline)
        yield port_a, port_b, link
    finally:
        for proc in (a, b):
            proc.terminate()
        for proc in (a, b):
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)


def _read_stream(client: httpx.Client, path: str, out: queue.Queue[tuple[float, int]]) -> None:
    """Put (arrival time, seq) of each update the stream delivers; stop at the stream's end."""
    try:
        with client.stream("GET", path, timeout=httpx.Timeout(5, read=30)) as r:
            assert r.status_code == 200
            out.put((time.perf_counter(), -2))  # the stream is open
            event = ""
            for line in r.iter_lines():
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event == "update":
                    out.put((time.perf_counter(), int(json.loads(line[6:])["seq"])))
    except httpx.HTTPError:
        return


def test_a_command_on_one_process_reaches_a_stream_on_the_other_within_100_ms(
    two_servers: tuple[int, int, str],
) -> None:
    port_a, port_b, link = two_servers
    assert link.startswith(PUBLIC + "/?token=")  # the printed link has the public address
    token = link.split("?token=", 1)[1]
    a = httpx.Client(base_url=f"http://127.0.0.1:{port_a}", timeout=10)
    b = httpx.Client(base_url=f"http://127.0.0.1:{port_b}", timeout=10)
    try:
        assert a.get(f"/?token={token}", follow_redirects=False).status_code == 303
        b.cookies = a.cookies  # one browser: the session opened on A is valid on B
        page = b.get("/e/1")
        assert page.status_code == 200
        csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page.text)
        assert csrf is not None
        seq = int(re.search(r'data-seq="(-?\d+)"', page.text).group(1))  # type: ignore[union-attr]
        arrivals: queue.Queue[tuple[float, int]] = queue.Queue()
        reader = threading.Thread(
            target=_read_stream, args=(b, f"/e/1/stream?since={seq}", arrivals), daemon=True
        )
        reader.start()
        assert arrivals.get(timeout=10)[1] == -2

        def post(n: int) -> float:
            """Post one command to A; the ms until B's stream delivered its update."""
            nonlocal seq
            sent = time.perf_counter()
            r = a.post(
                "/e/1/script",
                data={"csrf": csrf.group(1), "line": f"mj: note relais {n}"},  # type: ignore[union-attr]
                follow_redirects=False,
            )
            assert r.status_code == 303, r.text[:500]  # stored, back to the encounter
            seq += 1
            while True:
                arrived, got = arrivals.get(timeout=5)
                if got >= seq:
                    break
            assert got == seq
            time.sleep(0.05)
            return (arrived - sent) * 1000

        post(0)  # warms both processes up, untimed
        rounds: list[list[float]] = []
        for r in range(ROUNDS):
            rounds.append(sorted(post(1 + r * COMMANDS + n) for n in range(COMMANDS)))
            if statistics.median(rounds[-1]) < LIMIT_MS:
                break
    finally:
        a.close()
        b.close()
    figures = "".join(
        f"A→B over PostgreSQL notifications, round {k + 1}, {len(lat)} commands: "
        f"median {statistics.median(lat):.1f} ms, max {lat[-1]:.1f} ms "
        f"({', '.join(f'{x:.1f}' for x in lat)})\n"
        for k, lat in enumerate(rounds)
    )
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "processes-latency.txt").write_text(figures, encoding="utf-8")
    # A look at the database every 2 s would take 1 s on average, and up to 2 s: the
    # median says which path brought them. The machine is shared: a round whose median
    # missed is played again (5 rounds at most), and the maximum leaves room for a hiccup.
    latencies = rounds[-1]
    assert statistics.median(latencies) < LIMIT_MS, figures
    assert latencies[-1] < 10 * LIMIT_MS, figures


def test_conteur_serve_workers_runs_several_processes_sharing_the_session(
    pg_cluster: PgCluster, tmp_path: Path
) -> None:
    """``conteur serve --workers 2``: one link; the session it opens is good whichever
    process answers (each request on a new connection, handed to either by the kernel)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CONTEUR_")}
    env.update(CONTEUR_DATABASE_URL=pg_cluster.new_database(), CONTEUR_DATA_DIR=str(tmp_path))
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-c", "from conteur.launch import main; main()", "serve", "--demo"]
        + ["--workers", "2", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 60
        lines: list[str] = []
        while time.monotonic() < deadline and not any("?token=" in x for x in lines):
            lines.append(proc.stdout.readline())
        link = re.search(r"(http://\S+\?token=\S+)", "".join(lines))
        assert link, "".join(lines)
        _wait_until_up(port, proc, deadline)
        login = httpx.get(link.group(1), follow_redirects=False)
        assert login.status_code == 303
        cookies = {"conteur_gm": login.cookies["conteur_gm"]}
        for _ in range(12):
            page = httpx.get(f"http://127.0.0.1:{port}/e/1", cookies=cookies)
            assert page.status_code == 200
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
    assert proc.stdout is not None
    assert "2 processus serveur" in "".join(lines) + proc.stdout.read()
