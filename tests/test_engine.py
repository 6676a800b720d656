"""The engine's guarantees, played on the vtm ruleset: undo, an append-only log, replay,
JSON events, refused commands that change nothing, and a scenario's state in and out."""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from pathlib import Path
from typing import Any, Union, get_args, get_origin

import pytest

from conteur.dice import SeededDice, TypedDice
from conteur.engine import (
    Command,
    CommandEntry,
    Encounter,
    UndoEntry,
    entry_from_dict,
    event_from_dict,
    event_types,
)
from conteur.i18n import ConteurError
from vtm.fight import Fight, attack
from vtm.statedump import dump

SCENE = """
combatants:
  - {id: ann, side: a, position: [0, 0], wits: 5, dexterity: 3, brawl: 2, strength: 3,
     dodge: 2, melee: 2, weapons: [knife]}
  - {id: bob, side: b, position: [1, 0], wits: 1, dexterity: 2, brawl: 1, dodge: 1,
     stamina: 2, firearms: 2, weapons: [light_revolver]}
"""


def played() -> tuple[Fight, list[Any]]:
    """A short fight, with the full state after each command (the start first)."""
    f = Fight(SCENE)
    states = [dump(f.state)]
    steps: list[tuple[str, str | None, list[int], dict[str, Any]]] = [
        ("gm_note", None, [], {"reason": "Une ruelle, la nuit."}),
        ("initiative", None, [7, 3], {}),
        ("declare", "bob", [], {"actions": [{"kind": "dodge"}]}),
        ("declare", "ann", [], {"actions": [attack("weapon_strike", "bob")]}),
        ("act", "ann", [8, 8, 7, 2, 2] + [6, 2, 2] + [6, 6, 6, 2, 2], {}),
        ("gm_damage", None, [], {"fighter": "ann", "levels": 1, "damage_type": "bashing"}),
        ("initiative", None, [1, 9], {}),
    ]
    for type_, actor, dice, args in steps:
        f.do(type_, actor, dice, **args)
        states.append(dump(f.state))
    return f, states


# ------------------------------------------------------------------ undo and the log


def test_undo_the_last_command_then_back_to_the_start() -> None:
    """Each undo restores the state before the last command still in force, down to the start."""
    f, states = played()
    for expected in reversed(states[:-1]):
        f.encounter.undo()
        assert dump(f.state) == expected
    with pytest.raises(ConteurError) as err:
        f.encounter.undo()
    assert err.value.key == "engine.nothing_to_undo"


def test_undo_without_kept_history_refolds_the_log() -> None:
    """Without the kept states, undo folds the log again: the same states come back."""
    f, states = played()
    f.encounter.keep_history = False
    f.encounter._snapshots.clear()
    for expected in reversed(states[:-1]):
        f.encounter.undo()
        assert dump(f.state) == expected


def test_the_log_is_append_only_and_an_undo_is_an_entry() -> None:
    """Undo appends an entry naming what it retracts; earlier entries never change."""
    f, _ = played()
    before = [e.to_dict() for e in f.encounter.log]
    undone = f.encounter.undo()
    log = f.encounter.log
    assert [e.to_dict() for e in log[: len(before)]] == before
    assert isinstance(log[-1], UndoEntry) and log[-1].undoes == undone.seq
    f.encounter.undo()
    assert len(log) == len(before) + 2 and isinstance(log[-1], UndoEntry)
    assert log[-1].undoes < log[-2].undoes  # type: ignore[union-attr]
    f.do("initiative", None, [5, 5])
    assert isinstance(log[-1], CommandEntry) and log[-1].seq == len(log) - 1
    assert [e.to_dict() for e in log[: len(before)]] == before


def test_replay_rebuilds_the_identical_state() -> None:
    """A stored log (JSON and back) replayed on the scenario gives the same state and end state."""
    f, _ = played()
    f.encounter.undo()
    stored = json.loads(json.dumps(f.encounter.log_dicts()))
    replayed = Encounter.replay(f.encounter.scenario, stored)
    assert dump(replayed.state) == dump(f.state)
    assert replayed.end_state() == f.encounter.end_state()
    assert replayed.log_dicts() == f.encounter.log_dicts()
    # The replayed encounter carries on like the original.
    replayed.execute(Command("gm_note", None, {"reason": "suite"}), TypedDice([]))
    replayed.undo()
    replayed.undo()
    f.encounter.undo()
    assert dump(replayed.state) == dump(f.state)


# ------------------------------------------------------------------ events


def test_every_logged_event_is_json_and_reads_back() -> None:
    """Events of a real fight (with their dice) survive ``json.dumps`` and ``event_from_dict``."""
    f, _ = played()
    seen = set()
    for entry in f.encounter.log:
        assert entry_from_dict(json.loads(json.dumps(entry.to_dict()))) == entry
    for event in f.encounter.events():
        back = event_from_dict(json.loads(json.dumps(event.to_dict())))
        assert back == event and back.to_dict() == event.to_dict()
        seen.add(type(event).__name__)
    assert {"AttackRolled", "DefenceRolled", "DamageRolled", "InitiativeRolled"} <= seen


def sample(tp: Any) -> Any:
    """A JSON-shaped value of type ``tp`` (tuples for sequences, as the events keep them)."""
    origin, args = get_origin(tp), get_args(tp)
    if tp is str:
        return "x"
    if tp is bool:
        return True
    if tp is int:
        return 2
    if tp is float:
        return 1.5
    if tp is Any:
        return "any"
    if origin in (Union, types.UnionType):
        return sample(next(a for a in args if a is not type(None)))
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return (sample(args[0]), sample(args[0]))
        return tuple(sample(a) for a in args)
    if origin is dict:
        return {"k": sample(args[1]), "n": None, "l": [1, 2]}
    if origin is typing.Literal:
        return args[0]
    raise AssertionError(f"no sample for {tp!r}")


@pytest.mark.parametrize("name", sorted(event_types()))
def test_every_event_type_round_trips(name: str) -> None:
    """``event_from_dict`` reads back every event type, whatever its fields."""
    cls = event_types()[name]
    hints = typing.get_type_hints(cls)
    kwargs = {
        f.name: sample(hints[f.name])
        for f in dataclasses.fields(cls)
        if f.name not in ("rolls", "public") and f.default is dataclasses.MISSING
    }
    event = cls(**kwargs, rules=("V-GEN-3",))
    text = json.dumps(event.to_dict())
    assert event_from_dict(json.loads(text)) == event


# ------------------------------------------------------------------ refused commands


def test_an_illegal_command_changes_nothing() -> None:
    """A refused command leaves the state and the log as they were."""
    f = Fight(SCENE)
    f.initiative(7, 3)
    before, log = dump(f.state), f.encounter.log_dicts()
    dice = SeededDice(4)
    mark = dice.mark()
    with pytest.raises(ConteurError):
        f.encounter.execute(Command("declare", "ann", {"actions": [{"kind": "dodge"}]}), dice)
    assert dump(f.state) == before and f.encounter.log_dicts() == log
    assert dice.mark() == mark


def test_dice_running_short_refuse_the_whole_command() -> None:
    """Typed dice that run out during the damage roll: nothing applied, no face consumed."""
    f = Fight(SCENE)
    f.initiative(7, 3)
    f.declare("bob", {"kind": "other"})
    f.declare("ann", attack("punch", "bob"))
    before, log = dump(f.state), f.encounter.log_dicts()
    dice = TypedDice([8, 8, 2, 2, 2, 6])  # 2 successes: 3 + 1 damage dice, only one typed
    with pytest.raises(ConteurError) as err:
        f.encounter.execute(Command("act", "ann"), dice)
    assert err.value.key == "dice.too_few"
    assert dice.position == 0
    assert dump(f.state) == before and f.encounter.log_dicts() == log
    f.act("ann", [8, 8, 2, 2, 2] + [6, 2, 2, 2] + [2, 2])
    assert f["bob"].health.filled == 1


def test_a_failure_half_way_leaves_seeded_dice_where_they_were() -> None:
    """A command that rolls and then fails gives its dice back: the seed's next faces are unused.

    The ambush rolls Stealth against Alertness first; only the free punch finds Bob 9 m away.
    """
    f = Fight(SCENE.replace("strength: 3", "strength: 3, stealth: 2"))
    f.do("gm_move", fighter="bob", to=[9, 0])
    before, log = dump(f.state), f.encounter.log_dicts()
    dice = SeededDice(11)
    mark = dice.mark()
    with pytest.raises(ConteurError) as err:
        f.encounter.execute(Command("ambush", "ann", {"target": "bob", "kind": "punch"}), dice)
    assert err.value.rule == "V-GEN-1"
    assert dice.mark() == mark
    assert dump(f.state) == before and f.encounter.log_dicts() == log


# ------------------------------------------------------------------ the scenario in and out


def test_start_carries_wounds_willpower_blood_and_ammunition_out() -> None:
    """A scenario's wounds, Willpower, blood and rounds are the fight's start and its end state."""
    f = Fight("""
combatants:
  - {id: ann, kind: vampire, side: a, health: [L, B, aggravated], willpower: 2, blood: 4,
     weapons: [light_revolver], ammo: {light_revolver: 3}}
  - {id: bob, side: b, position: [1, 0]}
""")
    ann = f["ann"]
    assert ann.health.boxes[:3] == ["aggravated", "lethal", "bashing"]
    assert (ann.willpower, ann.blood, ann.ammo) == (2, 4, {"light_revolver": 3})
    end = f.encounter.end_state()
    assert end["ann"]["health"] == ["aggravated", "lethal", "bashing"]
    assert (end["ann"]["willpower"], end["ann"]["blood"]) == (2, 4)
    assert end["ann"]["ammo"] == {"light_revolver": 3}
    assert end["bob"]["health"] == [] and end["bob"]["fate"] == "alive"


def test_refolding_reads_the_scenario_files_from_its_base_dir(tmp_path: Path) -> None:
    """A sheet given as a file next to the scenario is found again when undo or replay refolds."""
    (tmp_path / "ann.yaml").write_text(
        "name: Ann\nid: ann\nkind: mortal\nattributes: {dexterity: 3, wits: 2}\n",
        encoding="utf-8",
    )
    scenario = {
        "ruleset": "vtm",
        "combatants": [
            {"id": "ann", "sheet": "ann.yaml", "side": "a"},
            {"id": "bob", "side": "b", "position": [1, 0]},
        ],
    }
    enc = Encounter.start(scenario, tmp_path, keep_history=False)
    assert enc.base_dir == tmp_path
    enc.execute(Command("gm_note", None, {"reason": "un"}), TypedDice([]))
    enc.execute(Command("gm_damage", None, {"fighter": "ann", "levels": 2}), TypedDice([]))
    enc.undo()
    assert enc.state.fighters["ann"].health.filled == 0
    again = Encounter.replay(scenario, enc.log_dicts(), tmp_path)
    assert dump(again.state) == dump(enc.state)
