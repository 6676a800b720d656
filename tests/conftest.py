"""Shared test setup: French by default, whatever the developer's environment says; the toy
ruleset ``duel`` (``tests/plugins``) installed beside conteur through its entry point; the
record of which tests run the rules engine (``tests/engine_runs.py``); and a start cache
of the tests' own."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

if "CONTEUR_CACHE_DIR" not in os.environ:
    # The start cache (``conteur.runcache``) of the tests' own: warm after the first
    # process, as an installation's; never the developer's ~/.cache. Subprocesses inherit it.
    import atexit
    import shutil
    import tempfile

    _cache = tempfile.mkdtemp(prefix="conteur-cache-")
    os.environ["CONTEUR_CACHE_DIR"] = _cache
    atexit.register(shutil.rmtree, _cache, ignore_errors=True)

import engine_runs  # imports conteur: after the cache's folder is set

PLUGINS = Path(__file__).resolve().parent / "plugins"
"""A folder laid out like site-packages: the toy ruleset and its ``.dist-info`` entry point."""

if str(PLUGINS) not in sys.path:
    sys.path.insert(0, str(PLUGINS))
    # Subprocesses (``conteur play``, the tracker's server) find it the same way.
    os.environ["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(PLUGINS), os.environ.get("PYTHONPATH", "")) if p
    )

pytest_plugins = ["pytester"]

engine_runs.install()


def pytest_configure(config: pytest.Config) -> None:
    """Record which tests run the engine (``tests/engine_runs.py``; read by rules_coverage)."""
    config.pluginmanager.register(engine_runs.EngineRuns(config.rootpath), "conteur-engine-runs")


@pytest.fixture(autouse=True)
def _default_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests start with ``CONTEUR_LANG`` unset, so the default language is French."""
    monkeypatch.delenv("CONTEUR_LANG", raising=False)
