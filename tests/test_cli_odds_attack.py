"""``conteur odds attack``: the exact odds of a whole attack from a scenario file."""

from __future__ import annotations

import json
import math
from pathlib import Path

from typer.testing import CliRunner

from conteur.cli import app
from conteur.engine import Encounter
from conteur.engine.scenario import load_scenario

SCENARIO = """
ruleset: vtm
era: "1899"
combatants:
  - {id: bill, name: Bill, side: posse, position: [0, 0], dexterity: 3, firearms: 3,
     weapons: [heavy_revolver]}
  - {id: lucien, name: Lucien, kind: vampire, side: camarilla, position: [12, 0],
     stamina: 3, fortitude: 2, cover: 2}
"""


def write(tmp_path: Path) -> Path:
    path = tmp_path / "duel.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    return path


def test_json_answer_is_the_rulesets_exact_odds(tmp_path: Path) -> None:
    """V-RNG-3, V-RNG-5: a shot at 12 m at a target behind a wall (+2): difficulty 8."""
    path = write(tmp_path)
    result = CliRunner().invoke(
        app, ["odds", "attack", str(path), "--attacker", "bill", "--target", "lucien", "--json"]
    )
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["difficulty"] == 8 and answer["pool"] == 6
    data, base = load_scenario(path)
    enc = Encounter.start(data, base)
    odds = enc.ruleset.attack_odds(enc.state, "bill", "lucien")
    assert math.isclose(answer["p_hit"], odds.p_hit, abs_tol=1e-12)
    assert math.isclose(sum(answer["levels"].values()), 1.0, abs_tol=1e-12)


def test_readable_answer_in_french_and_english(tmp_path: Path) -> None:
    path = write(tmp_path)
    args = ["odds", "attack", str(path), "--attacker", "bill", "--target", "lucien"]
    fr = CliRunner().invoke(app, args)
    en = CliRunner().invoke(app, [*args, "--lang", "en"])
    assert "toucher" in fr.stdout and "hors de combat" in fr.stdout
    assert "hit" in en.stdout and "incapacitated" in en.stdout


def test_missing_scenario_file_is_reported(tmp_path: Path) -> None:
    args = ["odds", "attack", str(tmp_path / "nope.yaml"), "--attacker", "a", "--target", "b"]
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 2 and "nope.yaml" in json.loads(result.stdout)["message"]


def test_a_ruleset_without_pool_says_its_own_roll_in_both_languages() -> None:
    """A d100 shot (western) has no pool nor difficulty: the ruleset's roll line is printed."""
    root = Path(__file__).resolve().parents[1]
    scenario = root / "examples" / "western" / "duel.yaml"
    args = ["odds", "attack", str(scenario), "--attacker", "bill", "--target", "jack"]
    fr = CliRunner().invoke(app, [*args, "--lang", "fr"])
    en = CliRunner().invoke(app, [*args, "--lang", "en"])
    assert fr.exit_code == 0 and en.exit_code == 0, fr.output + en.output
    assert "tir visé au pistolet à 56 %" in fr.stdout and "réserve" not in fr.stdout
    assert "aimed pistol at 56%" in en.stdout and "pool" not in en.stdout
    assert "réussite critique" in fr.stdout and "critical success" in en.stdout
