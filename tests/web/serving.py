"""Waiting for a server process the tests started: until it answers, or it stopped."""

from __future__ import annotations

import subprocess
import time

import httpx


def wait_until_answering(base: str, proc: subprocess.Popen[str], seconds: float) -> None:
    """Return once ``base`` serves its style sheet; fail if ``proc`` ends or ``seconds`` pass
    (a loaded machine may print the link well before the server listens)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the server at {base} stopped (exit {proc.returncode})")
        try:
            httpx.get(f"{base}/static/style.css", timeout=2)
            return
        except httpx.HTTPError:
            time.sleep(0.05)
    raise AssertionError(f"the server at {base} never answered in {seconds:g} s")
