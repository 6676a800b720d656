"""What players see, in the engine: a GM's secret command, showing it later, joining hidden,
a hidden one's own player, per-campaign choices (``Privacy``), and a fighter taken out
letting go of its holds — in every ruleset where it applies, read through ``lines_of``."""

from __future__ import annotations

from pathlib import Path

import pytest

from conteur.dice import TypedDice
from conteur.engine import Command, Encounter
from conteur.engine.encounter import UndoEntry
from conteur.engine.joining import JOIN, WITHDRAW
from conteur.engine.reading import lines_of
from conteur.engine.script import play_script, script_lines, start, typed_dice
from conteur.engine.shown import SECRET, SHOW, parse_show
from conteur.engine.visibility import DEFAULT_PRIVACY, Privacy, Viewer, Visibility, player
from conteur.i18n import ConteurError
from vtm.examples import steps

ROOT = Path(__file__).resolve().parents[1]
MARKER = "MARQUEUR-NOTE-GM-42"


def _saloon() -> Encounter:
    return start(ROOT / "examples" / "saloon.yaml")


def _texts(enc: Encounter, viewer: Viewer, seq: int) -> list[str]:
    from conteur.engine.shown import shown_events

    entry = enc.log[seq]
    lines, _ = lines_of(shown_events(entry, enc.log), viewer, "fr", enc.ruleset.names(enc.state))
    return [line.text for line in lines]


def test_a_secret_gm_command_is_his_alone_until_shown_and_the_show_is_undone_like_any() -> None:
    enc = _saloon()
    table = player("billy", frozenset(enc.ruleset.names(enc.state)) - {"sam", "ezechiel"})
    gm = Viewer(gm=True)
    fighter = next(iter(sorted(enc.ruleset.names(enc.state))))
    enc.execute(
        Command("gm_damage", None, {"fighter": fighter, "levels": 1, SECRET: True}), TypedDice("")
    )
    secret = len(enc.log) - 1
    assert all(ev.seen.audience == "secret" for ev in enc.log[secret].events)
    assert _texts(enc, table, secret) == []  # not even a veiled line
    assert _texts(enc, gm, secret)  # the GM reads it
    enc.execute(Command("gm_note", None, {"reason": MARKER}), TypedDice(""))
    note = len(enc.log) - 1
    assert not any(MARKER in t for t in _texts(enc, table, note))
    # Shown: the show entry reads as the note made public; the note's own stamps unchanged.
    enc.execute(parse_show(f"montrer {note}") or Command(SHOW), TypedDice(""))
    show = len(enc.log) - 1
    assert any(MARKER in t for t in _texts(enc, table, show))
    assert enc.log[note].events[0].seen.audience != "public"
    assert not any(MARKER in t for t in _texts(enc, table, note))
    with pytest.raises(ConteurError) as err:
        enc.execute(Command(SHOW, None, {"seq": note}), TypedDice(""))
    assert err.value.key == "engine.show.already"
    with pytest.raises(ConteurError) as err:
        enc.execute(Command(SHOW, None, {"seq": 10_000}), TypedDice(""))
    assert err.value.key == "engine.show.nothing"
    enc.undo()  # the show undone: the note may be shown again
    assert isinstance(enc.log[-1], UndoEntry)
    enc.execute(Command(SHOW, None, {"seq": note}), TypedDice(""))
    replayed = Encounter.replay(enc.scenario, enc.log_dicts())
    assert any(MARKER in t for t in _texts(replayed, table, len(replayed.log) - 1))


def test_a_combatant_joins_hidden_and_its_own_player_still_reads_it() -> None:
    enc = _saloon()
    entry = {
        "id": "ombre",
        "side": "bandits",
        "position": [3, 0],
        "wits": 2,
        "dexterity": 2,
        "brawl": 2,
        "hidden": True,
    }
    enc.execute(Command(JOIN, None, {"combatant": entry}), TypedDice(""))
    assert enc.hidden == {"ombre"} and enc.ever_hidden == {"ombre"}
    joined = enc.log[-1]
    assert all(ev.seen.hides == ("ombre",) for ev in joined.events)
    others = player("billy", frozenset({"billy", "ombre"}))
    own = player("ombre", frozenset({"billy", "ombre"}))
    assert _texts(enc, others, joined.seq) == []
    assert _texts(enc, own, joined.seq)  # its own phone shows it
    assert own.sees(Visibility("public", None, ("ombre",)))
    assert not own.sees(Visibility("public", None, ("ombre", "autre")))
    enc.undo()
    assert enc.hidden == frozenset()
    with pytest.raises(ConteurError) as err:
        bad = {**entry, "hidden": "peut-être"}
        enc.execute(Command(JOIN, None, {"combatant": bad}), TypedDice(""))
    assert err.value.key == "engine.hidden.not_bool"


def test_privacy_reads_back_its_choices_and_names_a_bad_one() -> None:
    assert Privacy.from_dict({}) == DEFAULT_PRIVACY
    chosen = Privacy.from_dict({"ally_health": "exact", "npc_names": "labels", "npc_dice": True})
    assert Privacy.from_dict(chosen.to_dict()) == chosen
    with pytest.raises(ConteurError) as err:
        Privacy.from_dict({"npc_names": "secret"})
    assert err.value.key == "privacy.bad" and "npc_names" in err.value.message("en")
    with pytest.raises(ConteurError) as err:
        Privacy.from_dict({"npc_dice": "yes"})
    assert err.value.key == "privacy.bad"
    with pytest.raises(ConteurError) as err:
        Privacy.from_dict({"colour": "red"})
    assert err.value.key == "privacy.unknown" and "colour" in err.value.message("fr")


def test_npc_dice_are_the_players_only_where_the_campaign_shows_them() -> None:
    owned = Visibility("owner", "sam")
    table = player("billy", frozenset({"billy"}))
    assert not table.sees_roll(owned)
    from dataclasses import replace

    assert replace(table, npc_dice=True).sees_roll(owned)
    assert not replace(table, npc_dice=True).sees_roll(Visibility("gm"))
    assert not replace(table, npc_dice=True).sees_roll(Visibility("owner", "sam", ("sam",)))


def test_vtm_a_fighter_taken_out_lets_go_of_its_hold() -> None:
    """V-CC-7: Varney grapples Lucrèce; taken out, the grapple ends (both free)."""
    for enc in steps("vampires"):
        state = enc.state
        holding = state.fighters["varney"].conditions.get("holding")
        if isinstance(holding, dict):
            break
    else:
        raise AssertionError("no grapple in the example")
    target = str(holding["target"])
    enc.execute(Command(WITHDRAW, None, {"fighter": "varney"}), TypedDice(""))
    assert "holding" not in enc.state.fighters["varney"].conditions
    assert "held_by" not in enc.state.fighters[target].conditions
    ended = [e for e in enc.log[-1].events if type(e).__name__ == "LockEnded"]
    assert [(e.holder, e.target, e.reason) for e in ended] == [("varney", target, "withdrawn")]
    assert "retiré" in ended[0].describe("fr", enc.ruleset.names(enc.state))


def test_hunter_a_fighter_taken_out_lets_go_of_its_hold() -> None:
    """H-GRP-2: a holder taken out of the fight lets go."""
    enc = start(ROOT / "examples" / "hunter" / "cellule.yaml")
    lines = script_lines(ROOT / "examples" / "hunter" / "cellule.txt")
    dice = typed_dice(ROOT / "examples" / "hunter" / "cellule.dice")
    fresh = start(ROOT / "examples" / "hunter" / "cellule.yaml")
    play_script(enc, lines, dice, "fr")
    again = typed_dice(ROOT / "examples" / "hunter" / "cellule.dice")
    for entry in enc.log:
        if isinstance(entry, UndoEntry):
            fresh.undo()
            continue
        fresh.execute(entry.command, again)
        holders = [f for f in fresh.state.fighters.values() if f.holding and f.able]
        if holders:
            break
    else:
        pytest.skip("the hunter example has no hold")
    holder = holders[0]
    held = holder.holding
    fresh.execute(Command(WITHDRAW, None, {"fighter": holder.id}), TypedDice(""))
    assert fresh.state.fighters[holder.id].holding is None
    assert fresh.state.fighters[str(held)].held_by is None
