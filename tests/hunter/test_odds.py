"""Exact attack odds over the real attack code: brute force and Monte Carlo checks."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conteur.cli import app
from conteur.dice import SeededDice, TypedDice
from conteur.engine import Command, Encounter
from conteur.rulesets.hunter.events import HunterAttackRolled

from .fight import Fight, sheet

ROOT = Path(__file__).resolve().parents[2]


def shanwei() -> Fight:
    """The text's example: Str 5 + Brawl 4 against Defense 4 and armour 1 (H-ATK-2)."""
    return Fight(
        sheet("shanwei", strength=5, brawl=4),
        sheet("pompier", dexterity=4, wits=4, stamina=1, armour="reinforced_clothing"),
    )


def brute_force_hit(pool: int) -> tuple[float, float]:
    """P(at least one success) and P(dramatic failure) of ``pool`` dice without 10-again:
    the 10-again only adds successes to dice that already succeeded."""
    hit = botch = 0.0
    for faces in itertools.product(range(1, 11), repeat=pool):
        if any(f >= 8 for f in faces):
            hit += 1
        elif 1 in faces:
            botch += 1
    return hit / 10**pool, botch / 10**pool


def test_H_ATK_2_odds_of_the_texts_example_against_brute_force() -> None:
    f = shanwei()
    odds = f.encounter.ruleset.attack_odds(f.state, "shanwei", "pompier")
    assert odds.pool == 4
    hit, botch = brute_force_hit(4)
    assert odds.p_hit == pytest.approx(hit)
    assert odds.chance("p_botch") == pytest.approx(botch)
    assert odds.levels.total() == pytest.approx(1.0)


def test_H_CHANCE_1_odds_of_a_chance_die() -> None:
    f = Fight(sheet("a", strength=1, brawl=0), sheet("b", dexterity=4, wits=4))
    odds = f.encounter.ruleset.attack_odds(f.state, "a", "b")
    assert odds.p_hit == pytest.approx(0.1) and odds.chance("p_botch") == pytest.approx(0.1)


def test_odds_agree_with_a_monte_carlo_of_the_real_engine() -> None:
    f = shanwei()
    odds = f.encounter.ruleset.attack_odds(f.state, "shanwei", "pompier")
    runs, hits, out = 3000, 0, 0
    dice = SeededDice(11)
    scenario = f.encounter.scenario
    for _ in range(runs):
        enc = Encounter.start(scenario)
        enc.execute(Command("initiative"), TypedDice("10 1"))
        if enc.state.ranking[0] != "shanwei":
            enc.execute(Command("pass", "pompier"), dice)
        events = enc.execute(
            Command("act", "shanwei", {"kind": "attack", "target": "pompier"}), dice
        )
        hits += events.one(HunterAttackRolled).successes > 0
        out += enc.state.fighters["pompier"].fate != "alive"
    # Three standard deviations of a binomial proportion.
    for p, seen in ((odds.p_hit, hits), (odds.p_incapacitated, out)):
        sd = (p * (1 - p) / runs) ** 0.5
        assert abs(seen / runs - p) <= 3 * sd + 1e-9


def test_attack_kinds_names_what_can_be_priced() -> None:
    f = Fight(sheet("a", weapon="large_smg"), sheet("b"))
    kinds = f.encounter.ruleset.attack_kinds(f.state, "a")  # type: ignore[attr-defined]
    assert kinds == ["attack", "grapple", "burst"]
    for kind in kinds:
        odds = f.encounter.ruleset.attack_odds(f.state, "a", "b", kind)
        assert 0.0 < odds.p_hit < 1.0


def test_conteur_odds_attack_on_the_example() -> None:
    args = ["odds", "attack", str(ROOT / "examples/hunter/cellule.yaml")]
    result = CliRunner().invoke(app, [*args, "--attacker", "ana", "--target", "bete", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["maneuver"] == "shoot" and 0 < data["p_hit"] < 1
    text = CliRunner().invoke(app, [*args, "--attacker", "bete", "--target", "marc"])
    assert text.exit_code == 0, text.output
