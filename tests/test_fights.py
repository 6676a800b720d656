"""During and after a fight, through the public engine: redo after undo (the same events, so
the same dice and result), refused once a new command is recorded; the summary after the
fight (attacks, hits, damage, luck against the exact odds)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from conteur.dice import TypedDice
from conteur.engine import CommandEntry, Encounter
from conteur.engine.report import fight_report, report_lines
from conteur.engine.script import play_script, script_lines, start, typed_dice
from conteur.i18n import ConteurError
from test_engine import played
from vtm.statedump import dump

ROOT = Path(__file__).parent.parent
EXAMPLES = Path(__file__).parent / "plugins" / "examples"

# ------------------------------------------------------------------ redo


def test_redo_puts_undone_commands_back_with_their_events() -> None:
    """Two undos then two redos: the state after each is the one before the undos, step by
    step; each redo is a new entry naming what it redoes, with the very same events."""
    f, states = played()
    enc = f.encounter
    last, before_last = enc.active()[-1], enc.active()[-2]
    enc.undo()
    enc.undo()
    assert dump(f.state) == states[-3]
    first = enc.redo()
    assert dump(f.state) == states[-2]
    assert first.redoes == before_last.seq and first.events == before_last.events
    second = enc.redo()
    assert dump(f.state) == states[-1]
    assert second.redoes == last.seq and second.command == last.command
    assert [e.seq for e in enc.active()][-2:] == [first.seq, second.seq]
    # The stored log reads back to the same state, redo entries included.
    again = Encounter.replay(enc.scenario, enc.log_dicts())
    assert dump(again.state) == dump(f.state)
    assert isinstance(again.log[-1], CommandEntry) and again.log[-1].redoes == last.seq
    with pytest.raises(ConteurError) as err:
        enc.redo()
    assert err.value.key == "engine.nothing_to_redo"


def test_a_redo_can_be_undone_and_redone_again() -> None:
    f, states = played()
    enc = f.encounter
    enc.undo()
    enc.redo()
    enc.undo()
    assert dump(f.state) == states[-2]
    enc.redo()
    assert dump(f.state) == states[-1]


def test_redo_is_refused_once_a_new_command_is_recorded() -> None:
    """After an undo, a new command makes what was undone impossible to redo, with a message
    that says why (in French and English)."""
    f, _ = played()
    enc = f.encounter
    enc.undo()
    f.do("gm_note", None, [], reason="autre chose")
    with pytest.raises(ConteurError) as err:
        enc.redo()
    assert err.value.key == "engine.redo_after_command"
    assert "nouvelle action" in err.value.message("fr")
    assert "new action" in err.value.message("en")
    assert dump(enc.rebuild()) == dump(f.state)


def test_nothing_to_redo_at_the_start() -> None:
    f, _ = played()
    with pytest.raises(ConteurError) as err:
        f.encounter.redo()
    assert err.value.key == "engine.nothing_to_redo"


# ------------------------------------------------------------------ the summary


def duel() -> Encounter:
    return Encounter.start(yaml.safe_load((EXAMPLES / "duel.yaml").read_text("utf-8")))


def test_the_summary_counts_attacks_hits_damage_and_luck_against_exact_odds() -> None:
    """Ana (attack 2) rolls 6 against Bob's guard 2 + 1: a hit of 8 − 3 = 5 (D-ATK-1, D-DMG-1).
    Bob's 2 + 1 = 3 against Ana's 4 + 1 = 5 misses. A d6's 6 is at the percentile
    5/6 + ½·1/6 = 11/12, a 1 at 1/12, a 2 at 3/12, a 4 at 7/12."""
    enc = duel()
    rules = enc.ruleset
    enc.execute(rules.parse_command("début", enc.state), TypedDice(""))
    enc.execute(rules.parse_command("ana attaque bob", enc.state), TypedDice("1 1"))  # 3 vs 3
    enc.undo()  # an undone command is no part of the fight
    enc.execute(rules.parse_command("ana attaque bob", enc.state), TypedDice("6 1"))
    report = fight_report(enc)
    ana, bob = report.fighter("ana"), report.fighter("bob")
    assert (ana.attacks, ana.hits, ana.dealt, ana.taken) == (1, 1, 5, 0)
    assert (bob.attacks, bob.hits, bob.dealt, bob.taken) == (0, 0, 0, 5)
    assert ana.luck == pytest.approx(11 / 12) and bob.luck == pytest.approx(1 / 12)
    assert report.side("rouges").luck == pytest.approx(11 / 12)
    assert report.side("bleus").to_dict()["by_kind"]["expr"] == {
        "rolls": 1,
        "score": 1.0,
        "expected": 3.5,
    }


def test_the_summary_of_a_miss_and_in_words() -> None:
    enc = Encounter.start(
        {
            "ruleset": "duel",
            "combatants": [
                {"id": "ana", "name": "Ana", "side": "rouges", "attack": 2, "guard": 1},
                {"id": "bob", "name": "Bob", "side": "bleus", "attack": 1, "guard": 2},
            ],
        }
    )
    rules = enc.ruleset
    enc.execute(rules.parse_command("début", enc.state), TypedDice(""))
    enc.execute(rules.parse_command("ana passe", enc.state), TypedDice(""))
    enc.execute(rules.parse_command("bob attaque ana", enc.state), TypedDice("2 4"))
    report = fight_report(enc)
    bob = report.fighter("bob")
    assert (bob.attacks, bob.hits, bob.dealt) == (1, 0, 0)
    assert bob.luck == pytest.approx(3 / 12) and report.fighter("ana").luck == pytest.approx(7 / 12)
    assert report_lines(report, "fr") == [
        "Ana : 0 attaque, 0 touche ; dégâts infligés 0, subis 0 ; chance 58 % sur 1 jet",
        "Bob : 1 attaque, 0 touche ; dégâts infligés 0, subis 0 ; chance 25 % sur 1 jet",
        "Camp rouges : chance 58 % sur 1 jet",
        "Camp bleus : chance 25 % sur 1 jet",
    ]
    assert report_lines(report, "en")[1] == (
        "Bob: 1 attack, 0 hits; damage dealt 0, taken 0; luck 25% over 1 roll"
    )


@pytest.mark.parametrize(
    "example", ["saloon", "fusillade", "hunter/cellule", "western/duel", "western/saloon"]
)
def test_every_ruleset_tallies_its_shipped_fight(example: str) -> None:
    """Every hit is an attack's, every point dealt is taken by someone, and each side's luck
    is the average of its fighters' percentiles (weighted by their rolls)."""
    base = ROOT / "examples" / example
    enc = start(base.with_suffix(".yaml"))
    dice = typed_dice(base.with_suffix(".dice"))
    _, failure = play_script(enc, script_lines(base.with_suffix(".txt")), dice, "fr")
    assert failure is None
    report = fight_report(enc)
    assert sum(f.attacks for f in report.fighters) > 0
    assert sum(f.hits for f in report.fighters) > 0
    for f in report.fighters:
        assert 0 <= f.hits <= f.attacks
        assert f.luck is None or 0 < f.luck < 1
    assert 0 < sum(f.dealt for f in report.fighters) <= sum(f.taken for f in report.fighters)
    for side in report.sides:
        mine = [f for f in report.fighters if f.side == side.side and f.rolls]
        assert side.rolls == sum(f.rolls for f in mine)
        assert side.percentiles == pytest.approx(sum(f.percentiles for f in mine))
