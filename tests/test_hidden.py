"""Hidden combatants through the public engine, for every shipped ruleset: in the fight from
the start, nothing of them reaches a player (no line, no veiled line, no name) until they
act or the game master reveals them; the reveal is logged, public, and undone like any
command; a stored log replays to the same hidden set (``conteur.engine.hidden``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conteur.dice import SeededDice
from conteur.engine import Command, Encounter
from conteur.engine.hidden import Revealed, parse_line
from conteur.engine.reading import lines_of, readable
from conteur.engine.visibility import GM, Viewer, player
from conteur.i18n import ConteurError
from hidden_fights import FIGHTS, HiddenFight, next_act, play_setup

RULESETS = sorted(FIGHTS)
SECRETS = ("zorba", "quincy")
"""The hidden ones' ids, and the first word of their names (« Zorba Kell », « Quincy Vold »)."""


def _started(fight: HiddenFight) -> Encounter:
    enc = Encounter.start(fight.scenario())
    play_setup(lambda: enc, enc.execute, fight)
    return enc


def _read(enc: Encounter, viewer: Viewer, lang: str = "fr") -> str:
    """Every line ``viewer`` reads of the log, lower-cased, one per line."""
    names = enc.ruleset.names(enc.state)
    out = []
    for entry in readable(enc.log, viewer):
        events = getattr(entry, "events", ())
        out += [line.text for line in lines_of(events, viewer, lang, names)[0]]  # type: ignore[arg-type]
    return "\n".join(out).lower().replace("\u202f", " ")  # French spacing read as plain


def _player(fight: HiddenFight) -> Viewer:
    return player(fight.pc_id, frozenset({fight.pc_id}))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_hidden_one_is_nobodys_until_it_acts(ruleset: str) -> None:
    fight = FIGHTS[ruleset]
    enc = _started(fight)
    assert enc.hidden == {"zorba", "quincy"}
    before = _read(enc, _player(fight))
    assert before  # the player does read the turn
    for secret in SECRETS:
        assert secret not in before
    gm = _read(enc, GM)
    assert "zorba" in gm and "quincy" in gm  # the GM reads them: their initiative...
    dice = SeededDice(11)
    while "zorba" in enc.hidden:
        line = next_act(enc, fight)
        enc.execute(parse_line(enc, line, "fr"), dice)
    entry = enc.log[-1]
    assert entry.command.actor == "zorba"
    first = entry.events[0]
    assert isinstance(first, Revealed) and first.fighter == "zorba" and first.by == "action"
    assert enc.hidden == {"quincy"}
    after = _read(enc, _player(fight))
    assert "zorba kell sort de l'ombre et agit" in after
    assert after.startswith(before)  # nothing earlier shows up: they did not see it happen
    assert "quincy" not in after
    # Its deed is the table's: every line of that command the GM reads, the player reads too
    # (as a veiled line at least), and none of it names the one still hidden.
    names = enc.ruleset.names(enc.state)
    gm_lines, _ = lines_of(entry.events, GM, "fr", names)
    seen, _ = lines_of(entry.events, _player(fight), "fr", names)
    assert len(seen) >= 2 and len(seen) <= len(gm_lines)
    assert _read(enc, _player(fight), "en").count("zorba kell comes out of hiding and acts") == 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_gm_reveals_one_and_undo_hides_it_again(ruleset: str) -> None:
    fight = FIGHTS[ruleset]
    enc = _started(fight)
    command = parse_line(enc, "révéler Quincy Vold", "fr")
    assert command == Command("reveal", None, {"fighter": "quincy"})
    assert parse_line(enc, "reveal quincy", "en") == command
    assert [tp.type for tp in enc.legal_commands() if tp.type == "reveal"] == ["reveal"]
    assert enc.legal_commands()[-1].param("fighter").choices == ("quincy", "zorba")
    seq = len(enc.log)
    enc.execute(command, SeededDice(1))
    assert enc.log[-1].seq == seq and enc.hidden == {"zorba"}
    (ev,) = enc.log[-1].events
    assert isinstance(ev, Revealed) and ev.by == "gm" and ev.seen.audience == "public"
    text = _read(enc, _player(fight))
    assert text.endswith("quincy vold sort de l'ombre (révélé par le mj)")
    assert "zorba" not in text
    # A stored log replays to the same hidden set, stamps included.
    again = Encounter.replay(fight.scenario(), enc.log_dicts())
    assert again.hidden == {"zorba"} and _read(again, _player(fight)) == text
    enc.undo()
    assert enc.hidden == {"zorba", "quincy"}
    # The reveal stays in the log, undone (the table saw it); nothing new names Quincy.
    enc.execute(parse_line(enc, next_act(enc, fight), "fr"), SeededDice(3))
    assert _read(enc, _player(fight)).count("quincy") == 1
    assert enc.ruleset.summary(enc.rebuild()) == enc.ruleset.summary(enc.state)


def test_revealing_someone_not_hidden_is_refused_and_changes_nothing() -> None:
    fight = FIGHTS["vtm"]
    enc = _started(fight)
    count = len(enc.log)
    with pytest.raises(ConteurError) as err:
        enc.execute(Command("reveal", None, {"fighter": "sam"}), SeededDice(1))
    assert err.value.message("fr") == "«\u202fsam\u202f» n'est pas un combattant caché"
    assert err.value.message("en") == '"sam" is not a hidden combatant'
    with pytest.raises(ConteurError) as err:
        parse_line(enc, "révéler", "fr")
    assert err.value.key == "engine.hidden.who"
    assert len(enc.log) == count and enc.hidden == {"zorba", "quincy"}


def test_a_flag_that_is_not_yes_or_no_is_refused_naming_entry_and_field() -> None:
    scenario = FIGHTS["hunter"].scenario()
    scenario["combatants"][2]["hidden"] = "oui"
    with pytest.raises(ConteurError) as err:
        Encounter.start(scenario)
    assert err.value.message("fr") == (
        "combatants[2], champ «\u202fhidden\u202f»\u202f: oui ou non attendu (true / false), "
        "pas «\u202foui\u202f»"
    )
    assert err.value.message("en") == (
        'combatants[2], field "hidden": yes or no expected (true / false), not "oui"'
    )
    scenario["combatants"][2]["hidden"] = False
    assert Encounter.start(scenario).hidden == {"quincy"}  # false: an ordinary combatant


def test_a_declaration_keeps_a_vtm_fighter_hidden_an_attack_reveals_it() -> None:
    """The ruleset decides (``Ruleset.reveals``): a vtm declaration is no deed yet."""
    enc = _started(FIGHTS["vtm"])
    declared = [e for e in enc.log if getattr(e, "command", None) and e.command.actor == "zorba"]
    assert [e.command.type for e in declared] == ["declare"]  # type: ignore[union-attr]
    events = declared[0].events  # type: ignore[union-attr]
    assert [ev.seen.hides for ev in events if getattr(ev, "fighter", None) == "zorba"] == [
        ("zorba",)
    ]
    # The end of the declarations its own closed is its doing too: nothing of it is public.
    assert [ev.seen.hides for ev in events if getattr(ev, "fighter", None) != "zorba"] == [
        ("zorba",)
    ]
    assert enc.ruleset.reveals(Command("act", "zorba"), enc.state)
    assert not enc.ruleset.reveals(Command("declare", "zorba"), enc.state)


@pytest.mark.parametrize(
    ("ruleset", "told"),
    [
        ("vtm", "ordre d'initiative : jack malone > sam le barman (v-ini-2)"),
        ("western", "round 1"),
    ],
)
def test_the_order_is_told_without_the_hidden_ones(ruleset: str, told: str) -> None:
    """``Event.without``: the table reads the order of initiative, the hidden ones left out."""
    fight = FIGHTS[ruleset]
    enc = _started(fight)
    lines = _read(enc, _player(fight)).splitlines()
    assert any(line.startswith(told) for line in lines), lines
    assert "zorba" in _read(enc, GM)


def test_conteur_play_as_a_player_tells_nothing_of_a_hidden_one(tmp_path: Path) -> None:
    """``conteur play --as``: the same reading, on the command line (the reveal a script
    line, « révéler X »)."""
    import json

    import yaml
    from typer.testing import CliRunner

    from conteur.cli import app

    fight = FIGHTS["hunter"]
    (tmp_path / "f.yaml").write_text(yaml.safe_dump(fight.scenario()), encoding="utf-8")
    (tmp_path / "f.txt").write_text("initiative\n", encoding="utf-8")
    args = ["play", str(tmp_path / "f.yaml"), "--script", str(tmp_path / "f.txt")]
    args += ["--seed", "7", "--json", "--as", "ana"]
    out = CliRunner().invoke(app, args)
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert [o["id"] for o in data["others"]] == ["bete"]
    assert "zorba" not in out.stdout.lower() and "quincy" not in out.stdout.lower()
    (tmp_path / "f.txt").write_text("initiative\nrévéler quincy\n", encoding="utf-8")
    out = CliRunner().invoke(app, args)
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert [o["id"] for o in data["others"]] == ["bete", "quincy"]
    assert "zorba" not in out.stdout.lower()
    gm = CliRunner().invoke(app, args[:-2])
    assert "zorba" in gm.stdout.lower()
