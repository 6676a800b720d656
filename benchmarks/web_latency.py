"""Latency of the live tracker: one game master's command to every player's stream.

Starts ``conteur serve --demo`` on a fresh SQLite database (or the PostgreSQL
database of ``CONTEUR_DATABASE_URL``) on 127.0.0.1, opens ``--viewers`` player
streams (``/p/<token>/stream``, server-sent events), then the game master posts
``--commands`` commands (a note each, through the script line) one after the
other. For each command: the time from sending the POST to the moment the last
stream received the matching entry. Prints p50, p95 and max in ms.

This measures the server's side (the command's transaction, the wake-up of the
streams, the entries read and sent); a browser then fetches its panel (one GET).

    python benchmarks/web_latency.py [--viewers 29] [--commands 100]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import httpx


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=29)
    parser.add_argument("--commands", type=int, default=100)
    args = parser.parse_args()

    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    data_dir = tempfile.mkdtemp(prefix="conteur-bench-")
    env = {**os.environ, "CONTEUR_DATA_DIR": data_dir}
    proc = subprocess.Popen(
        [sys.executable, "-c", "from conteur.launch import main; main()", "serve", "--demo",
         "--port", str(port)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
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
        gm = httpx.Client(base_url=base, timeout=10)
        for _ in range(200):
            try:
                gm.get(f"/?token={link}", follow_redirects=True)
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        page = gm.get("/c/1").text
        tokens = re.findall(r"/p/([A-Za-z0-9_-]{20,})\"", page)
        csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', gm.get("/e/1").text)
        assert tokens and csrf
        received: dict[int, list[float]] = {}
        lock = threading.Lock()
        ready = threading.Barrier(args.viewers + 1)

        def viewer(token: str) -> None:
            try:
                with httpx.Client(base_url=base, timeout=None) as client, client.stream(
                    "GET", f"/p/{token}/stream?since=-1"
                ) as r:
                    ready.wait()
                    for line in r.iter_lines():
                        if line.startswith("data: "):
                            seq = json.loads(line[6:])["seq"]
                            with lock:
                                received.setdefault(seq, []).append(time.perf_counter())
                            if seq >= args.commands - 1:
                                return
            except httpx.HTTPError:
                return  # the server stopped

        threads = [
            threading.Thread(target=viewer, args=(tokens[i % len(tokens)],), daemon=True)
            for i in range(args.viewers)
        ]
        for th in threads:
            th.start()
        ready.wait()
        time.sleep(0.3)
        latencies = []
        for n in range(args.commands):
            sent = time.perf_counter()
            r = gm.post("/e/1/script", data={"csrf": csrf.group(1), "line": f"mj: note coup {n}"},
                        headers={"hx-request": "true"})
            assert r.status_code == 200, r.text[:300]
            deadline = time.perf_counter() + 10
            while time.perf_counter() < deadline:
                with lock:
                    got = list(received.get(n, []))
                if len(got) >= args.viewers:
                    latencies.append((max(got) - sent) * 1000)
                    break
                time.sleep(0.0005)
            else:
                raise SystemExit(f"command {n}: not every view was updated within 10 s")
        latencies.sort()
        p95 = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
        print(
            f"{args.viewers} viewers, {args.commands} commands: "
            f"p50 {statistics.median(latencies):.1f} ms, p95 {p95:.1f} ms, "
            f"max {latencies[-1]:.1f} ms"
        )
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    main()
