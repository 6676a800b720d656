"""``conteur play``, ``conteur odds attack`` and ``conteur simulate`` on one fight per ruleset:
vtm, hunter, western and the toy duel of ``tests/plugins`` (``tests/ruleset_fights.py``).

What a command prints is checked against what the ruleset's contract says of the same fight
played in-process (``Ruleset.summary``, ``roster``, ``attack_odds``): the commands know no
ruleset, so each passes for all four or for none.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conteur.cli import app
from conteur.engine.script import script_lines, start
from ruleset_fights import FIGHTS, Fight

runner = CliRunner()
RULESETS = list(FIGHTS)


def play(fight: Fight, *extra: str, script: Path | None = None, dice: Path | None = None) -> Any:
    args = ["play", str(fight.scenario), "--script", str(script or fight.script)]
    return runner.invoke(app, [*args, "--dice", str(dice or fight.dice), *extra])


def copy_of(
    fight: Fight, tmp_path: Path, script: str | None = None, dice: str | None = None
) -> Fight:
    """The fight with its script or dice rewritten, in ``tmp_path`` (the scenario stays)."""
    scenario = tmp_path / fight.scenario.name
    scenario.write_text(fight.scenario.read_text("utf-8"), encoding="utf-8")
    scenario.with_suffix(".txt").write_text(
        fight.script.read_text("utf-8") if script is None else script, encoding="utf-8"
    )
    scenario.with_suffix(".dice").write_text(
        fight.dice.read_text("utf-8") if dice is None else dice, encoding="utf-8"
    )
    return Fight(**{**fight.__dict__, "scenario": scenario})


@pytest.mark.parametrize("ruleset", RULESETS)
def test_play_json_is_the_fight_the_contract_plays(ruleset: str) -> None:
    """Every line logged, every face used, and the final state the ruleset's ``summary``
    gives; the target's roster row says the blows landed."""
    fight = FIGHTS[ruleset]
    result = play(fight, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["ruleset"] == ruleset and data["dice_left"] == 0 and "error" not in data
    # (a line written before its fighter's turn waits for it: the order is the fight's)
    assert sorted(e["line"] for e in data["log"]) == [n for n, _ in script_lines(fight.script)]
    enc = fight.played()
    assert data["state"] == json.loads(json.dumps(enc.ruleset.summary(enc.state)))
    fresh = start(fight.scenario)
    assert fresh.ruleset.roster(fresh.state).row(fight.target).status == "unhurt"
    assert enc.ruleset.roster(enc.state).row(fight.target).status == fight.status


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_play_prose_ends_with_the_rosters_lines(ruleset: str, lang: str) -> None:
    """Each line echoed, then the final state in the user's language: one line per combatant,
    the ruleset's ``summary_lines``."""
    fight = FIGHTS[ruleset]
    result = play(fight, "--lang", lang)
    assert result.exit_code == 0, result.output
    out = result.stdout.splitlines()
    echoed = [line for line in out if line.startswith("» ")]
    assert sorted(echoed) == sorted(f"» {text}" for _, text in script_lines(fight.script))
    enc = fight.played()
    heading = {"fr": "État final", "en": "Final state"}[lang]
    tail = out[out.index(next(line for line in out if line.startswith(heading))) + 1 :]
    lines = enc.ruleset.summary_lines(enc.state, lang)
    assert [line.strip() for line in tail if line.strip()][: len(lines)] == lines


@pytest.mark.parametrize("ruleset", RULESETS)
def test_dice_running_short_stop_at_their_line(ruleset: str, tmp_path: Path) -> None:
    """The last face taken away: the last rolling line is refused whole, named by its number
    in both languages; nothing of it is applied (exit 2)."""
    fight = FIGHTS[ruleset]
    faces = " ".join(line.split("#", 1)[0] for line in fight.dice.read_text("utf-8").splitlines())
    short = copy_of(fight, tmp_path, dice=" ".join(faces.split()[:-1]))
    result = play(short, "--json")
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert data["error"]["error"] == "dice.too_few"
    line = data["error"]["line"]
    assert line not in [e["line"] for e in data["log"]]
    fr, en = play(short), play(short, "--lang", "en")
    assert f"ligne {line}" in fr.stderr and "pas assez de dés" in fr.stderr
    assert f"line {line}" in en.stderr


@pytest.mark.parametrize("ruleset", RULESETS)
def test_undo_takes_back_the_last_command(ruleset: str, tmp_path: Path) -> None:
    """« annuler » at the end: the state is the fight's before its last command."""
    fight = FIGHTS[ruleset]
    text = fight.script.read_text("utf-8")
    undone = copy_of(fight, tmp_path, script=text.rstrip("\n") + "\nannuler\n")
    result = play(undone, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["log"][-1]["kind"] == "undo"
    enc = fight.played()
    enc.undo()
    assert data["state"] == json.loads(json.dumps(enc.ruleset.summary(enc.state)))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_same_seed_plays_the_same_fight(ruleset: str) -> None:
    fight = FIGHTS[ruleset]
    args = ["play", str(fight.scenario), "--script", str(fight.script), "--seed", "7", "--json"]
    first, second = runner.invoke(app, args), runner.invoke(app, args)
    assert first.exit_code == second.exit_code and first.stdout == second.stdout
    assert json.loads(first.stdout)["seed"] == 7


@pytest.mark.parametrize("ruleset", RULESETS)
def test_odds_attack_answers_the_contracts_odds(ruleset: str) -> None:
    """``conteur odds attack --json`` is the ruleset's ``attack_odds`` answer, whole."""
    fight = FIGHTS[ruleset]
    args = ["odds", "attack", str(fight.scenario), "--attacker", fight.attacker]
    result = runner.invoke(app, [*args, "--target", fight.target, "--json"])
    assert result.exit_code == 0, result.output
    enc = start(fight.scenario)
    odds = enc.ruleset.attack_odds(enc.state, fight.attacker, fight.target)
    assert json.loads(result.stdout) == json.loads(json.dumps(odds.to_dict()))
    assert 0 < odds.to_dict()["p_hit"] < 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_odds_attack_names_an_unknown_fighter_in_both_languages(ruleset: str) -> None:
    fight = FIGHTS[ruleset]
    args = ["odds", "attack", str(fight.scenario), "--attacker", "nobody"]
    args += ["--target", fight.target, "--json"]
    fr, en = runner.invoke(app, args), runner.invoke(app, [*args, "--lang", "en"])
    assert fr.exit_code == 2 and "«\u202fnobody\u202f»" in json.loads(fr.stdout)["message"]
    assert en.exit_code == 2 and '"nobody"' in json.loads(en.stdout)["message"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_simulate_plays_every_run_to_an_end(ruleset: str) -> None:
    """``conteur simulate``: the roster's sides, each run won by one or drawn, none failed,
    and the same seed gives the same answer."""
    fight = FIGHTS[ruleset]
    args = ["simulate", str(fight.scenario), "--runs", "12", "--seed", "3"]
    args += ["--workers", "1", "--no-plot", "--json"]
    first, second = runner.invoke(app, args), runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    data, again = json.loads(first.stdout), json.loads(second.stdout)
    assert data.pop("run") != {} and again.pop("run") != {}  # its timings: the rest is equal
    assert data == again
    assert data["ruleset"] == ruleset and data["runs"] == 12 and data["errors"]["count"] == 0
    enc = start(fight.scenario)
    rows = enc.ruleset.roster(enc.state).rows
    assert {side: s["fighters"] for side, s in data["sides"].items()} == {
        side: sum(1 for r in rows if r.side == side) for side in {r.side for r in rows}
    }
    wins = sum(s["wins"] for s in data["sides"].values())
    assert wins + data["draws"]["count"] == 12


@pytest.mark.parametrize("ruleset", RULESETS)
def test_without_seed_nor_dice_the_seed_is_shown(ruleset: str) -> None:
    fight = FIGHTS[ruleset]
    args = ["play", str(fight.scenario), "--script", str(fight.script), "--json"]
    assert isinstance(json.loads(runner.invoke(app, args).stdout)["seed"], int)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_seed_and_dice_together_are_refused(ruleset: str) -> None:
    result = play(FIGHTS[ruleset], "--seed", "3")
    assert result.exit_code == 2 and "--seed" in result.stderr


@pytest.mark.parametrize("ruleset", RULESETS)
def test_left_over_dice_are_reported(ruleset: str, tmp_path: Path) -> None:
    fight = FIGHTS[ruleset]
    more = copy_of(fight, tmp_path, dice=fight.dice.read_text("utf-8") + "\n1 1\n")
    result = play(more)
    assert result.exit_code == 0, result.output
    assert "2 dés du fichier non utilisés" in result.stdout
    assert json.loads(play(more, "--json").stdout)["dice_left"] == 2
