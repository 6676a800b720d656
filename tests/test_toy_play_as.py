"""``conteur play --as`` on the toy ruleset ``duel`` (tests/plugins), with its own policy.

Apart from ``test_cli_play_as.py`` and after ``test_i18n.py``: starting a duel registers the
toy's catalog, which that test, checking the shipped catalogs, must not see.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from conteur.cli import app

DUEL = Path(__file__).parent / "plugins" / "examples"


def duel(*extra: str) -> Any:
    args = [str(DUEL / "duel.yaml"), "--script", str(DUEL / "duel.txt")]
    return CliRunner().invoke(app, ["play", *args, "--dice", str(DUEL / "duel.dice"), *extra])


def test_the_toy_rulesets_own_policy_the_same_way() -> None:
    """The duel (tests/plugins) stamps its note as the GM's and a roll as its fighter's."""
    everything = duel()
    assert everything.exit_code == 0, everything.output
    assert "SECRET-DUEL" in everything.stdout
    for lang in ("fr", "en"):
        ana = duel("--as", "ana", "--lang", lang)
        assert ana.exit_code == 0, ana.output
        assert "SECRET-DUEL" not in ana.stdout
    data = json.loads(duel("--as", "ana", "--json").stdout)
    assert "SECRET-DUEL" not in json.dumps(data, ensure_ascii=False)
    assert any(entry.get("veiled") for entry in data["log"])  # Bob's rolls, veiled
    assert [s["id"] for s in data["state"]] == ["ana"]
    assert [(o["id"], o["status"]) for o in data["others"]] == [("bob", "out")]
