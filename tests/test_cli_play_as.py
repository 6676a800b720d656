"""``conteur play --as PLAYER``: what that combatant's player would read; without it, everything.

The visibility policy is the test's own (``veiled_policy``): the GM's note is the GM's, an
attack roll its attacker's — so Bob's roll is not Ann's player's, who reads its veiled line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import veiled_policy
from conteur.cli import app

MARKER = "MARQUEUR-SECRET-7Q"

SCENARIO = """
ruleset: vtm
combatants:
  - {id: ann, side: a, position: [0, 0], sheet: {nom: Ann, Dextérité: 3, Astuce: 3, Bagarre: 2, Vigueur: 2}}
  - {id: bob, side: b, position: [1, 0], sheet: {name: Bob, dexterity: 2, wits: 1, brawl: 1, stamina: 2}}
"""

# Ann 3+6 = 9 and Bob 2+3 = 5: Bob declares first, Ann acts first.
SCRIPT = f"""\
initiative
mj: note {MARKER}
bob: déclare coup de poing sur ann
ann: déclare coup de poing sur bob
ann: agit
bob: agit
"""

DICE = "3 2  8 7 3 2 4  6 6  2 3  3 3"
BOB_POOL = "Bob attaque Ann (Coup de poing) : Dextérité 2 + Bagarre 1 − blessures 1 = 2 dés"


@pytest.fixture(autouse=True)
def policy(monkeypatch: pytest.MonkeyPatch) -> None:
    veiled_policy.install(monkeypatch)


def play(tmp_path: Path, *extra: str) -> Any:
    (tmp_path / "fight.yaml").write_text(SCENARIO, encoding="utf-8")
    (tmp_path / "fight.txt").write_text(SCRIPT, encoding="utf-8")
    (tmp_path / "fight.dice").write_text(DICE, encoding="utf-8")
    args = [str(tmp_path / "fight.yaml"), "--script", str(tmp_path / "fight.txt")]
    return CliRunner().invoke(app, ["play", *args, "--dice", str(tmp_path / "fight.dice"), *extra])


def test_the_game_master_reads_everything(tmp_path: Path) -> None:
    result = play(tmp_path)
    assert result.exit_code == 0, result.output
    assert MARKER in result.stdout and BOB_POOL in result.stdout
    assert "Bob : santé [/][/][ ]" in result.stdout  # the ruleset's own summary lines


def test_a_player_never_reads_the_gms_note_nor_another_ones_roll(tmp_path: Path) -> None:
    result = play(tmp_path, "--as", "ann")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert MARKER not in out and "mj: note" not in out  # not even the script's line
    assert BOB_POOL not in out and "3 3" not in out
    assert "Bob attaque Ann" in out  # the veiled line instead
    assert "» ligne 6 (Bob)" in out  # the line itself may carry what the GM keeps
    assert (
        "Ann attaque Bob (Coup de poing) : Dextérité 3 + Bagarre 2 = 5 dés" in out
    )  # Ann's own roll, whole
    assert "» ann: agit" in out
    # The end: Ann in full, Bob in the ruleset's word only.
    assert "Ann\u202f: [ ][ ][ ][ ][ ][ ][ ] · Volonté 5/5" in out
    assert "Bob\u202f: égratigné" in out and "[/][/]" not in out.split("État final", 1)[1]


def test_as_in_json_only_gains_fields(tmp_path: Path) -> None:
    everything = json.loads(play(tmp_path, "--json").stdout)
    result = play(tmp_path, "--json", "--as", "ann")
    assert result.exit_code == 0, result.output
    assert MARKER not in result.stdout
    data = json.loads(result.stdout)
    assert set(everything) <= set(data) and data["as"] == "ann"
    assert [e["line"] for e in data["log"]] == [1, 3, 4, 5, 6]  # the note: nothing at all
    gm_entry = everything["log"][-1]
    entry = data["log"][-1]
    assert set(gm_entry) <= set(entry) and entry["veiled"] == ["Bob attaque Ann"]
    assert "AttackRolled" in [e["type"] for e in gm_entry["events"]]
    assert "AttackRolled" not in [e["type"] for e in entry["events"]]
    assert entry["text"] is None and entry["command"]["args"] == {}
    assert [s["id"] for s in data["state"]] == ["ann"]
    assert data["others"] == [
        {"id": "bob", "name": "Bob", "side": "b", "status": "wounded", "band": "vtm.band.scratched"}
    ]


@pytest.mark.parametrize(
    ("lang", "words"), [("fr", "aucun combattant « zoe »"), ("en", 'no combatant "zoe"')]
)
def test_an_unknown_player_is_refused_by_name(tmp_path: Path, lang: str, words: str) -> None:
    result = play(tmp_path, "--as", "zoe", "--lang", lang)
    assert result.exit_code == 2 and words in result.stderr and "ann, bob" in result.stderr
    assert result.stdout == ""
