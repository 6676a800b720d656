"""``conteur db init|upgrade|info``."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from conteur.cli import app
from conteur.store import open_store

from .helpers import saloon

runner = CliRunner()


def test_db_init_info_upgrade(db_url: str) -> None:
    empty = runner.invoke(app, ["db", "info", "--url", db_url])
    assert empty.exit_code == 0 and "conteur db init" in empty.output
    ready = runner.invoke(app, ["db", "init", "--url", db_url])
    assert ready.exit_code == 0, ready.output
    assert "Base de données prête" in ready.output and "(révision 0004)" in ready.output
    store = open_store(db_url)
    saloon(store)
    store.close()
    again = runner.invoke(app, ["db", "upgrade", "--url", db_url, "--lang", "en"])
    assert again.exit_code == 0 and "Database upgraded" in again.output
    info = runner.invoke(app, ["db", "info", "--url", db_url, "--json"])
    data = json.loads(info.output)
    assert data["revision"] == data["head"] == "0004"
    assert (data["campaigns"], data["characters"], data["encounters"], data["open"]) == (1, 3, 1, 1)


def test_db_refuses_an_unsupported_database() -> None:
    result = runner.invoke(app, ["db", "info", "--url", "mysql://localhost/x", "--lang", "en"])
    assert result.exit_code == 2 and "mysql" in result.output
