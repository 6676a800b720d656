"""During and after a fight, through the public engine: redo after undo (the same events, so
the same dice and result), refused once a new command is recorded; the summary after the
fight (attacks, hits, damage, luck against the exact odds)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from conteur.dice import TypedDice
from conteur.engine import Command, CommandEntry, Encounter
from conteur.engine.commands import SETTLE_TIE
from conteur.engine.joining import JOIN, WITHDRAW, WITHDRAWN
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
        "Ana\u202f: 0 attaque, 0 touche\u202f; dégâts infligés 0, subis 0\u202f; chance 58 % sur 1 jet",
        "Bob\u202f: 1 attaque, 0 touche\u202f; dégâts infligés 0, subis 0\u202f; chance 25 % sur 1 jet",
        "Camp rouges\u202f: chance 58 % sur 1 jet",
        "Camp bleus\u202f: chance 25 % sur 1 jet",
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


# ------------------------------------------------------------------ joining and leaving


def _turn_ids(enc: Encounter) -> list[str]:
    return [fid for slot in enc.ruleset.turn_view(enc.state).order for fid in slot.ids]


def test_duel_a_newcomer_takes_the_last_place_and_a_withdrawn_one_leaves_the_order() -> None:
    """D-TURN-1: Carla joins after Ana and Bob and acts after Bob; Ana taken out while due
    passes the turn on; undo brings her back; the log replays to the same state."""
    enc = duel()
    rules = enc.ruleset
    assert rules.join_rule(enc.state) == "D-TURN-1"
    enc.execute(rules.parse_command("début", enc.state), TypedDice(""))
    carla = rules.quick_npc({"name": "Carla", "attack": 3})
    enc.execute(Command(JOIN, None, {"combatant": {**carla, "side": "bleus"}}), TypedDice(""))
    assert _turn_ids(enc) == ["ana", "bob", "carla"]
    enc.execute(rules.parse_command("ana passe", enc.state), TypedDice(""))
    enc.execute(rules.parse_command("bob passe", enc.state), TypedDice(""))
    assert rules.turn_view(enc.state).due == ("carla",)
    enc.execute(rules.parse_command("carla passe", enc.state), TypedDice(""))
    assert rules.turn_view(enc.state).due == ("ana",)
    withdraw = next(tp for tp in enc.legal_commands() if tp.type == WITHDRAW)
    assert withdraw.param("fighter").choices == ("ana", "bob", "carla")
    enc.execute(Command(WITHDRAW, None, {"fighter": "ana"}), TypedDice(""))
    assert _turn_ids(enc) == ["bob", "carla"]
    row = rules.roster(enc.state).row("ana")
    assert (row.status, row.fate) == ("out", WITHDRAWN)
    assert rules.turn_view(enc.state).over  # only the blue side still stands (D-END-1)
    enc.undo()
    assert rules.turn_view(enc.state).due == ("ana",) and _turn_ids(enc)[0] == "ana"
    again = Encounter.replay(enc.scenario, enc.log_dicts())
    assert again.state == enc.state


def test_a_newcomer_is_refused_whole_with_a_clear_message() -> None:
    enc = duel()
    before = len(enc.log)
    for args, key in (
        ({"combatant": {"id": "bob"}}, "engine.join.taken"),
        ({"combatant": {"name": "x"}}, "engine.join.no_id"),
        ({}, "engine.join.no_entry"),
        ({"combatant": {"id": "zed", "attack": "beaucoup"}}, "duel.scenario.bad"),
    ):
        with pytest.raises(ConteurError) as err:
            enc.execute(Command(JOIN, None, args), TypedDice(""))
        assert err.value.key == key
    assert len(enc.log) == before and list(enc.state.fighters) == ["ana", "bob"]
    with pytest.raises(ConteurError) as err:
        enc.execute(Command(WITHDRAW, None, {"fighter": "zed"}), TypedDice(""))
    assert err.value.key == "engine.withdraw.unknown"
    assert "zed" in err.value.message("fr") and "Ana" not in err.value.message("fr")


def test_vtm_a_newcomer_rolls_initiative_at_the_next_turn_and_a_withdrawn_one_is_skipped() -> None:
    """V-INI-1: a combatant who joins during the declarations is not in this turn's order; it
    rolls with the others at the next turn. Bob taken out while due to declare: the
    declarations go on to Ann (V-INI-3, V-INI-4)."""
    f, _ = played()
    enc = f.encounter
    assert enc.state.phase == "declaration"
    order = _turn_ids(enc)
    cid = {
        "id": "cid",
        "side": "b",
        "position": [3, 0],
        "wits": 2,
        "dexterity": 2,
        "brawl": 2,
        "weapons": ["knife"],
    }
    enc.execute(Command(JOIN, None, {"combatant": cid}), TypedDice(""))
    assert _turn_ids(enc) == order and "cid" in enc.ruleset.names(enc.state)
    slowest = order[-1]
    assert enc.ruleset.turn_view(enc.state).due == (slowest,)
    enc.execute(Command(WITHDRAW, None, {"fighter": slowest}), TypedDice(""))
    assert slowest not in _turn_ids(enc)
    assert enc.ruleset.turn_view(enc.state).due == (order[0],)
    f.do("declare", order[0], [], actions=[{"kind": "dodge"}])
    while enc.state.phase != "setup":
        f.do("pass", enc.ruleset.turn_view(enc.state).due[0], [])
    f.do("initiative", None, [5, 5])  # the two still standing: Ann and Cid
    assert sorted(_turn_ids(enc)) == sorted([order[0], "cid"])
    assert dump(Encounter.replay(enc.scenario, enc.log_dicts()).state) == dump(enc.state)


def test_hunter_a_newcomer_rolls_initiative_at_the_next_turn() -> None:
    """H-INI-1 (reading, as H-AMB-1): the newcomer is ranked from the next turn's initiative;
    a combatant taken out leaves the ranking at once and is not ranked again."""
    enc = start(ROOT / "examples" / "hunter" / "cellule.yaml")
    enc.execute(Command("initiative"), TypedDice("5 5 5 5 5 1 2 3 4 5 6 7 8 9 10"))
    ranking = list(enc.state.ranking)
    thug = enc.ruleset.archetypes()[0].scenario_entry("renfort", "fr")
    enc.execute(Command(JOIN, None, {"combatant": {**thug, "side": "bete"}}), TypedDice(""))
    assert enc.state.ranking == ranking
    first = ranking[0]
    enc.execute(Command(WITHDRAW, None, {"fighter": first}), TypedDice(""))
    assert enc.state.ranking == ranking[1:]
    assert enc.ruleset.turn_view(enc.state).due == (ranking[1],)
    enc.execute(Command("initiative"), TypedDice("7"))  # the newcomer's roll, the only one
    assert "renfort" in enc.state.ranking and first not in enc.state.ranking


def _gunman(fid: str, side: str, speed: int) -> dict[str, Any]:
    return {
        "id": fid,
        "nom": fid.capitalize(),
        "camp": side,
        "position": [0, 0],
        "prêt": True,
        "caractéristiques": {
            "FORCE": 12,
            "RÉSISTANCE": 11,
            "CONSTITUTION": 12,
            "RAPIDITÉ": speed,
            "RÉPUTATION": 6,
        },
        "compétences": {"tir visé au pistolet": 56},
        "armes": ["colt_saa"],
    }


def test_western_a_tie_in_the_order_of_combat_is_the_game_masters_call() -> None:
    """W-SPD-2: two shooters of speed 12 tie (the text's 4.2.2.4 is missing); the program
    puts the one listed first first, and the game master may say otherwise — once per tie."""
    enc = Encounter.start(
        {
            "ruleset": "western",
            "combatants": [
                _gunman("bill", "a", 12),
                _gunman("jack", "b", 12),
                _gunman("ike", "b", 9),
            ],
        }
    )
    enc.execute(Command("round"), TypedDice(""))
    assert [fid for fid, _ in enc.state.slots][:2] == ["bill", "jack"]
    tie = next(tp for tp in enc.legal_commands() if tp.type == SETTLE_TIE)
    assert tie.param("first").choices == ("bill", "jack") and tie.rule == "W-SPD-2"
    enc.execute(Command(SETTLE_TIE, None, {"first": "jack"}), TypedDice(""))
    assert enc.ruleset.turn_view(enc.state).due == ("jack",)
    assert [fid for fid, _ in enc.state.slots][:2] == ["jack", "bill"]
    assert not any(tp.type == SETTLE_TIE for tp in enc.legal_commands())  # settled
    with pytest.raises(ConteurError) as err:
        enc.execute(Command(SETTLE_TIE, None, {"first": "bill"}), TypedDice(""))
    assert err.value.key == "western.tie.none"
    enc.undo()
    with pytest.raises(ConteurError) as err:
        enc.execute(Command(SETTLE_TIE, None, {"first": "ike"}), TypedDice(""))
    assert err.value.key == "western.tie.not_tied"
    assert "Bill, Jack" in err.value.message("en")


def test_western_a_newcomer_shoots_from_the_next_round_a_withdrawn_one_no_more() -> None:
    enc = Encounter.start(
        {"ruleset": "western", "combatants": [_gunman("bill", "a", 12), _gunman("jack", "b", 9)]}
    )
    enc.execute(Command("round"), TypedDice(""))
    enc.execute(Command(JOIN, None, {"combatant": _gunman("ike", "b", 15)}), TypedDice(""))
    assert "ike" not in {fid for fid, _ in enc.state.slots}
    enc.execute(Command(WITHDRAW, None, {"fighter": "bill"}), TypedDice(""))
    assert {fid for fid, _ in enc.state.slots[enc.state.done :]} == {"jack"}
    while enc.state.phase == "round":
        enc.execute(Command("pass", enc.ruleset.turn_view(enc.state).due[0]), TypedDice(""))
    enc.execute(Command("round"), TypedDice(""))
    assert enc.state.slots[0][0] == "ike"
    assert "bill" not in {fid for fid, _ in enc.state.slots}


def test_vtm_script_lines_bring_a_combatant_in_and_take_one_out() -> None:
    f, _ = played()
    enc = f.encounter
    for line in ("mj: renfort {id: cid, side: b, dexterity: 2}", "gm: withdraw bob"):
        enc.execute(enc.ruleset.parse_command(line, enc.state, "fr"), TypedDice(""))
    assert "cid" in enc.ruleset.names(enc.state)
    assert enc.ruleset.roster(enc.state).row("bob").fate == WITHDRAWN
    with pytest.raises(ConteurError) as err:
        enc.ruleset.parse_command("mj: renfort pas un dictionnaire", enc.state, "fr")
    assert err.value.key == "vtm.script.bad_newcomer"


def test_conteur_play_report_prints_the_summary_in_prose_and_json() -> None:
    from typer.testing import CliRunner

    from conteur.cli import app

    args = [
        "play",
        str(EXAMPLES / "duel.yaml"),
        "--script",
        str(EXAMPLES / "duel.txt"),
        "--dice",
        str(EXAMPLES / "duel.dice"),
        "--report",
    ]
    enc = duel()
    _, failure = play_script(
        enc, script_lines(EXAMPLES / "duel.txt"), typed_dice(EXAMPLES / "duel.dice"), "en"
    )
    assert failure is None
    expected = fight_report(enc)
    prose = CliRunner().invoke(app, [*args, "--lang", "en"])
    assert prose.exit_code == 0, prose.output
    tail = prose.output.split("Fight summary\n", 1)[1].strip().splitlines()
    assert tail == report_lines(expected, "en")
    data = json.loads(CliRunner().invoke(app, [*args, "--json"]).output)
    assert data["report"] == expected.to_dict()
    plain = json.loads(CliRunner().invoke(app, args[:-1] + ["--json"]).output)
    assert "report" not in plain
