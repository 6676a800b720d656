"""Latency of the live tracker: one game master's command to every player's view updated.

For each database (SQLite, then PostgreSQL, side by side in one run), starts
``conteur serve --demo`` on 127.0.0.1 — SQLite: a fresh file (WAL,
``synchronous=FULL``); PostgreSQL: a throwaway server started from Debian's
binaries as ``tests/pg_cluster.py`` does, but durable (fsync and synchronous
commit on, as a real server) — opens ``--viewers`` player views
(``/p/<token>/stream``, server-sent events: each update carries the view's new
panel, so a view is updated when its message arrives, with no request back),
then the game master posts ``--commands`` commands (a note each, through the
script line) one after the other. For each command: the time from sending the
POST to the moment the **last** view received its new panel. Prints p50, p95
and max in ms for each database.

The views are plain asyncio connections in one client thread, reading the
stream's bytes (a browser per view would not share a Python interpreter with
the others); the server, the client and everything else share the machine's
cores.

    python benchmarks/web_latency.py [--viewers 29] [--commands 200] [--db both]

``BENCH_LAUNCH`` (Python code, run by ``python -c``) replaces the server's launch line
(``from conteur.launch import main; main()``): to run it under a profiler, say.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ------------------------------------------------------------------ the databases


@contextlib.contextmanager
def sqlite_env() -> Iterator[dict[str, str]]:
    folder = tempfile.mkdtemp(prefix="conteur-bench-")
    try:
        yield {"CONTEUR_DATA_DIR": folder}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def postgresql_env() -> Iterator[dict[str, str]]:
    """A durable PostgreSQL on 127.0.0.1 (``CONTEUR_BENCH_PG_URL``: one started elsewhere)."""
    external = os.environ.get("CONTEUR_BENCH_PG_URL")
    if external:
        yield {"CONTEUR_DATABASE_URL": external}
        return
    sys.path.insert(0, str(ROOT / "tests"))
    from pg_cluster import PgCluster

    try:
        cluster = PgCluster.start(durable=True, prefix="conteur-bench-pg-")
    except (FileNotFoundError, RuntimeError) as exc:
        raise SystemExit(str(exc)) from None
    try:
        yield {"CONTEUR_DATABASE_URL": cluster.new_database()}
    finally:
        cluster.stop()


# ------------------------------------------------------------------ one run


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) a process has used so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measure(
    base: str, gm_token: str, viewers: int, commands: int, pid: int
) -> tuple[list[float], float, float]:
    """Post ``commands`` notes; for each, the ms until every view had its new panel; and the
    CPU ms the server and this client spent per command."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as gm:
        for _ in range(200):
            try:
                await gm.get(f"/?token={gm_token}", follow_redirects=True)
                break
            except httpx.HTTPError:
                await asyncio.sleep(0.05)
        page = (await gm.get("/c/1")).text
        tokens = re.findall(r"/p/([A-Za-z0-9_-]{20,})\"", page)
        csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', (await gm.get("/e/1")).text)
        assert tokens and csrf, "the demo campaign is missing"

        latest = [-1] * viewers
        arrived: list[dict[int, float]] = [{} for _ in range(viewers)]
        news = asyncio.Event()
        connected = asyncio.Event()
        opened = [0]

        def received(i: int, seq: int) -> None:
            arrived[i][seq] = time.perf_counter()
            latest[i] = max(latest[i], seq)
            news.set()

        async def updated(seq: int) -> float:
            """When the last view got a panel at least as new as ``seq``."""
            while min(latest) < seq:
                news.clear()
                await news.wait()
            return max(min(t for s, t in a.items() if s >= seq) for a in arrived)

        url = urlsplit(base)
        message_id = re.compile(rb"id: (\d+)\n")

        async def view(i: int) -> None:
            """One view: a plain HTTP/1.1 connection reading the stream (each message is
            one chunk; the chunks' framing lies between messages)."""
            token = tokens[i % len(tokens)]
            reader, writer = await asyncio.open_connection(url.hostname, url.port)
            request = f"GET /p/{token}/stream?since=-1 HTTP/1.1\r\nHost: {url.netloc}\r\n\r\n"
            writer.write(request.encode())
            await writer.drain()
            opened[0] += 1
            if opened[0] == viewers:
                connected.set()
            buffer = b""
            try:
                while data := await reader.read(1 << 16):
                    *messages, buffer = (buffer + data).split(b"\n\n")
                    for message in messages:
                        found = message_id.search(message)
                        if found and b'"panel": "' in message:
                            received(i, int(found.group(1)))
            finally:
                writer.close()

        tasks = [asyncio.create_task(view(i)) for i in range(viewers)]
        await asyncio.wait_for(connected.wait(), 30)
        await asyncio.sleep(0.5)
        latencies = []
        server0, client0 = cpu_seconds(pid), time.process_time()
        for n in range(commands):
            sent = time.perf_counter()
            r = await gm.post(
                "/e/1/script",
                data={"csrf": csrf.group(1), "line": f"mj: note coup {n}"},
                headers={"hx-request": "true"},
            )
            assert r.status_code == 200, r.text[:300]
            seq = int(re.search(r'data-seq="(\d+)"', r.text).group(1))  # type: ignore[union-attr]
            try:
                done = await asyncio.wait_for(updated(seq), 10)
            except TimeoutError:
                raise SystemExit(f"command {n}: not every view was updated within 10 s") from None
            latencies.append((done - sent) * 1000)
        server_ms = (cpu_seconds(pid) - server0) * 1000 / commands
        client_ms = (time.process_time() - client0) * 1000 / commands
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return latencies, server_ms, client_ms


def run(db: str, viewers: int, commands: int) -> str:
    env_of = sqlite_env if db == "sqlite" else postgresql_env
    with env_of() as extra:
        port = _free_port()
        env = {**os.environ, **extra}
        proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                os.environ.get("BENCH_LAUNCH", "from conteur.launch import main; main()"),
                "serve",
                "--demo",
                "--port",
                str(port),
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            assert proc.stdout is not None
            link = ""
            while not link:
                line = proc.stdout.readline()
                if not line:
                    raise SystemExit("conteur serve stopped")
                found = re.search(r"\?token=(\S+)", line)
                link = found.group(1) if found else ""
            latencies, server_ms, client_ms = asyncio.run(
                measure(f"http://127.0.0.1:{port}", link, viewers, commands, proc.pid)
            )
        finally:
            proc.terminate()
            proc.wait(10)
    latencies.sort()
    p95 = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
    return (
        f"{db:<10} {viewers} viewers, {commands} commands: "
        f"p50 {statistics.median(latencies):.1f} ms, p95 {p95:.1f} ms, max {latencies[-1]:.1f} ms"
        f" · CPU per command: server {server_ms:.1f} ms, client {client_ms:.1f} ms"
        f" · load average {os.getloadavg()[0]:.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=29)
    parser.add_argument("--commands", type=int, default=200)
    parser.add_argument("--db", choices=("sqlite", "postgresql", "both"), default="both")
    args = parser.parse_args()
    dbs = ("sqlite", "postgresql") if args.db == "both" else (args.db,)
    for db in dbs:
        print(run(db, args.viewers, args.commands), flush=True)


if __name__ == "__main__":
    main()
