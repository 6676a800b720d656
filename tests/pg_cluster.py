"""A throwaway PostgreSQL server for the tests, started from Debian's binaries.

``PgCluster.start()`` finds ``initdb`` and ``pg_ctl`` (``/usr/lib/postgresql/*/bin``
or the PATH), creates a cluster in a fresh temporary folder — owned by the
``postgres`` system user when the tests run as root, since PostgreSQL refuses
to run as root — and starts it on 127.0.0.1 on a free port, with fsync off
(it is thrown away). ``new_database()`` creates an empty database and gives
its URL; ``stop()`` stops the server and removes the folder.

``CONTEUR_TEST_PG_URL`` (the URL of a database on a server started elsewhere,
by CI for instance) makes ``new_database`` create its databases there instead.

When the binaries are missing, ``find_binaries`` says so; the fixtures fail
with that message when ``CI`` or ``CONTEUR_REQUIRE_PG`` is set and skip the
PostgreSQL tests otherwise (``make test`` installs Debian's ``postgresql``
package first when it runs as root: ``make system-deps``).
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

MISSING = (
    "PostgreSQL binaries (initdb, pg_ctl) not found: install Debian's `postgresql` "
    "package (`make system-deps` does it as root), or set CONTEUR_TEST_PG_URL"
)


def pg_required() -> bool:
    """Whether the PostgreSQL tests must run (CI, or ``CONTEUR_REQUIRE_PG``) rather than skip."""
    return any(
        os.environ.get(v, "").strip() not in ("", "0", "false")
        for v in ("CI", "CONTEUR_REQUIRE_PG")
    )


def start_for_tests() -> PgCluster:
    """A started cluster; when PostgreSQL is not installed, fail if required, else skip."""
    import pytest

    try:
        return PgCluster.start()
    except FileNotFoundError:
        if pg_required():
            pytest.fail(
                MISSING + " (required here: CI or CONTEUR_REQUIRE_PG is set)", pytrace=False
            )
        pytest.skip(MISSING)


def find_binaries() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl`` (the newest Debian version first)."""
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: [int(x) if x.isdigit() else 0 for x in Path(p).parts[-3].split(".")],
        reverse=True,
    )
    which = shutil.which("initdb")
    if which:
        candidates.append(which)
    for initdb in candidates:
        folder = Path(initdb).parent
        if (folder / "pg_ctl").exists():
            return folder
    return None


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgCluster:
    """One PostgreSQL server for a test session."""

    _counter = itertools.count(1)

    def __init__(self, base_url: str | None = None) -> None:
        self.base_url = base_url
        self.folder: Path | None = None
        self.bin: Path | None = None
        self.port = 0
        self.user: str | None = None

    # ------------------------------------------------------------------ running as another user

    def _run(self, args: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        if self.user is not None:
            args = ["runuser", "-u", self.user, "--", *args]
        return subprocess.run(
            args,
            check=True,
            capture_output=True,
            text=True,
            timeout=60,
            **kwargs,  # type: ignore[arg-type]
        )

    @classmethod
    def start(cls, durable: bool = False, prefix: str = "conteur-pg-") -> PgCluster:
        """A new server, started; RuntimeError (with PostgreSQL's own message) when it cannot.

        Tests want speed: no fsync, no synchronous commit. ``durable`` keeps both on,
        as a real server has them (the latency benchmark). Test servers keep each
        transaction's commit time (``track_commit_timestamp``).
        """
        external = os.environ.get("CONTEUR_TEST_PG_URL")
        if external:
            return cls(external)
        folder_bin = find_binaries()
        if folder_bin is None:
            raise FileNotFoundError(MISSING)
        cluster = cls()
        cluster.bin = folder_bin
        root = os.geteuid() == 0
        # As root, the folder must be reachable by the postgres user: /tmp, not a private TMPDIR.
        cluster.folder = Path(
            tempfile.mkdtemp(prefix=prefix, dir="/tmp" if root and Path("/tmp").is_dir() else None)
        )
        if root:
            cluster.user = "postgres"
            shutil.chown(cluster.folder, user="postgres")
        data = cluster.folder / "data"
        try:
            cluster._run(
                [
                    str(folder_bin / "initdb"),
                    "-D",
                    str(data),
                    "-U",
                    "postgres",
                    "-A",
                    "trust",
                    "-E",
                    "UTF8",
                    "--locale=C",
                    *([] if durable else ["--no-sync"]),
                ]
            )
            # Commit timestamps too: the cross-process latency test times its commands
            # from their commit (tests/web/test_processes.py).
            fast = (
                "-F -c synchronous_commit=off -c full_page_writes=off -c track_commit_timestamp=on "
            )
            for attempt in range(3):
                cluster.port = free_port()
                options = (
                    f"-h 127.0.0.1 -p {cluster.port} -k {cluster.folder} "
                    f"{'' if durable else fast}-c max_connections=60"
                )
                try:
                    cluster._run(
                        [
                            str(folder_bin / "pg_ctl"),
                            "-D",
                            str(data),
                            "-o",
                            options,
                            "-l",
                            str(cluster.folder / "server.log"),
                            "-w",
                            "-t",
                            "30",
                            "start",
                        ]
                    )
                    break
                except subprocess.CalledProcessError:
                    if attempt == 2:
                        raise
                    time.sleep(0.2)
        except subprocess.CalledProcessError as exc:
            log = cluster.folder / "server.log"
            detail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            cluster.stop()
            raise RuntimeError(
                f"could not start PostgreSQL: {exc.stderr or exc.stdout}\n{detail}"
            ) from None
        return cluster

    @property
    def admin_url(self) -> str:
        if self.base_url:
            return self.base_url
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def new_database(self) -> str:
        """The URL of a new, empty database: a fresh schema, first on the search path.

        A schema costs a few milliseconds where ``CREATE DATABASE`` copies a
        template of several megabytes, and the whole cluster is removed at the end.
        """
        import psycopg
        from sqlalchemy import make_url

        base = make_url(self.admin_url)
        name = f"t_{os.getpid()}_{next(self._counter)}"
        with psycopg.connect(
            host=base.host,
            port=base.port,
            user=base.username,
            password=base.password,
            dbname=base.database or "postgres",
            autocommit=True,
        ) as conn:
            conn.execute(f'CREATE SCHEMA "{name}"')
        url = base.set(drivername="postgresql+psycopg").update_query_dict(
            {"options": f"-csearch_path={name}"}
        )
        return url.render_as_string(hide_password=False)

    def stop(self) -> None:
        """Stop the server (fast) and remove its folder."""
        if self.folder is None or self.bin is None:
            return
        data = self.folder / "data"
        if (data / "postmaster.pid").exists():
            with contextlib.suppress(subprocess.CalledProcessError, subprocess.TimeoutExpired):
                self._run(
                    [str(self.bin / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]
                )
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None
