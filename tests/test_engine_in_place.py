"""Commands run on the live state: what that relies on, checked on real fights of every ruleset.

``Encounter.execute`` copies nothing before a command (``engine/encounter.py``). That is sound
because of the rulesets' contract — the state changes only by folding events — and it stays
sound only while:

* a command changes the state exactly as its events folded into the state before it do
  (no rule code writes to the state outside ``Resolution.emit``);
* nothing between two commands (a referee, a tactic, a template) changes the state;
* a refused command leaves the state as it was, the same object, whatever it emitted first;
* an event, once logged, never changes — an event's value folded into the state and
  changed there later would rewrite the log;
* undo, from snapshots, gives back each earlier state; replay gives the same state.

``Checked`` checks all of it around every command of whole simulated fights.
"""

from __future__ import annotations

import copy
import dataclasses
import time
from pathlib import Path
from typing import Any

import pytest

from conteur.dice import DiceSource, SeededDice, TypedDice
from conteur.engine import Command, Encounter, EventList
from conteur.engine.encounter import SNAPSHOT_EVERY, fold
from conteur.engine.scenario import load_scenario
from conteur.engine.scratch import scratch_copy
from conteur.i18n import ConteurError
from conteur.sim.encounters import prepare, run_seed
from conteur.sim.referee import get_referee
from conteur.sim.tactics import make_tactic
from sim.fight_records import CONFIGS, job_of
from vtm.fight import Fight, attack
from vtm.statedump import dump

ROOT = Path(__file__).resolve().parents[1]


def plain(value: Any) -> Any:
    """``value`` as plain data, to compare states built apart: the shared tables by type."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(plain(v) for v in value)
    if type(value).__name__ == "TablesRef":
        return "tables"
    return value


class Checked(Encounter):
    """An encounter that checks, around each command, what running on the live state needs."""

    def execute(self, command: Command, dice: DiceSource) -> EventList:
        checks: dict[str, Any] = self.__dict__.setdefault("checks", {"after": [], "dicts": []})
        state = self.state
        if checks["after"]:
            assert state == checks["after"][-1], f"the state changed between commands: {command}"
        before = copy.deepcopy(state)
        try:
            events = super().execute(command, dice)
        except ConteurError:
            assert self.state is state and self.state == before, f"refused, not undone: {command}"
            raise
        assert self.state is state
        expected = fold(copy.deepcopy(before), [self.log[-1]])
        assert self.state == expected, f"changed outside its events: {command}"
        checks["dicts"].append(self.log[-1].to_dict())
        checks["after"].append(copy.deepcopy(self.state))
        return events

    def check_the_whole_fight(self) -> None:
        checks = self.__dict__.get("checks", {"after": [], "dicts": []})
        assert self.log_dicts() == checks["dicts"], "a logged event changed afterwards"
        replayed = Encounter.replay(self.scenario, self.log_dicts(), self.base_dir)
        assert plain(replayed.state) == plain(self.state)
        assert plain(self.rebuild()) == plain(self.state)
        states = checks["after"]
        state = self.state
        for i in range(len(states) - 2, -1, -1):
            self.undo()
            assert self.state is state and self.state == states[i], f"undo to {i + 1} commands"
        self.undo()
        assert self.state == self.origin


def checked_fight(name: str, index: int) -> Checked:
    _, path, tactics, _ = next(c for c in CONFIGS if c[0] == name)
    job = job_of(path, tactics)
    prep = prepare(job)
    start = prep.encounter
    enc = Checked(
        start.ruleset,
        start.scenario,
        scratch_copy(start.origin),
        base_dir=start.base_dir,
        origin=start.origin,
    )
    dice = SeededDice(run_seed(job.seed, index))
    record = prep.referee.fight(enc, dice, prep.tactics, job.max_turns, job.escape)
    assert record.error is None
    return enc


@pytest.mark.parametrize("name", [c[0] for c in CONFIGS])
def test_whole_fights_change_the_state_only_by_their_events(name: str) -> None:
    for index in range(2):
        enc = checked_fight(name, index)
        enc.check_the_whole_fight()


# ------------------------------------------------------------------ refused commands

SCENE = """
combatants:
  - {id: ann, side: a, position: [0, 0], wits: 5, dexterity: 3, brawl: 2, strength: 3,
     dodge: 2, melee: 2, weapons: [knife]}
  - {id: bob, side: b, position: [1, 0], wits: 1, dexterity: 2, brawl: 1, dodge: 1,
     stamina: 2, firearms: 2, weapons: [light_revolver]}
"""


@pytest.mark.parametrize("notes", [0, SNAPSHOT_EVERY - 3, SNAPSHOT_EVERY - 2, 40])
@pytest.mark.parametrize("keep_history", [True, False])
def test_a_command_refused_after_its_first_events_is_undone_in_place(
    notes: int, keep_history: bool
) -> None:
    """The action is taken (events folded in), then the damage dice run short: the state is
    the one before, the same object, the log and the dice untouched — on either side of a
    snapshot, with or without them."""
    f = Fight(SCENE)
    f.encounter.keep_history = keep_history
    for i in range(notes):
        f.do("gm_note", None, [], reason=f"note {i}")
    f.initiative(7, 3)
    f.declare("bob", {"kind": "other"})
    f.declare("ann", attack("punch", "bob"))
    state, before, log = f.state, dump(f.state), f.encounter.log_dicts()
    dice = TypedDice([8, 8, 2, 2, 2, 6])  # 2 successes: 3 + 1 damage dice, one typed
    emitted: list[Any] = []
    resolve = f.encounter.ruleset.resolve

    def spy(ctx: Any, command: Command) -> None:
        try:
            resolve(ctx, command)
        finally:
            emitted.extend(ctx.events)

    f.encounter.ruleset = copy.copy(f.encounter.ruleset)
    f.encounter.ruleset.resolve = spy  # type: ignore[method-assign]
    with pytest.raises(ConteurError) as err:
        f.encounter.execute(Command("act", "ann"), dice)
    assert err.value.key == "dice.too_few" and emitted  # it had emitted events
    assert f.state is state and dump(f.state) == before
    assert f.encounter.log_dicts() == log and dice.position == 0
    f.act("ann", [8, 8, 2, 2, 2] + [6, 2, 2, 2] + [2, 2])
    assert f["bob"].health.filled == 1
    assert dump(f.encounter.rebuild()) == dump(f.state)


# ------------------------------------------------------------------ undo in a long fight


def long_fight() -> Encounter:
    """Twelve against twelve (the 4v4 scenario three times over), fought to the end."""
    data, base = load_scenario(ROOT / "examples" / "simulation" / "4v4_1899.yaml")
    data["combatants"] = [
        {
            **copy.deepcopy(c),
            "id": f"{c['id']}{k}",
            "position": [c["position"][0], c["position"][1] + 4 * k],
        }
        for k in range(3)
        for c in data["combatants"]
    ]
    enc = Encounter.start(data, base)
    tactics = {s: make_tactic("vtm", "nearest") for s in ("chasseurs", "vampires")}
    get_referee("vtm").fight(enc, SeededDice(0), tactics, 20, 50.0)
    return enc


def test_undo_in_a_300_command_fight_takes_under_50_ms() -> None:
    """Each undo refolds fewer than SNAPSHOT_EVERY commands into a copy of a snapshot: well
    under 50 ms of CPU in a fight of 300 commands, and each state the one folded again."""
    enc = long_fight()
    assert len(enc.log) >= 300
    slowest = 0.0
    for _ in range(2 * SNAPSHOT_EVERY + 3):
        began = time.process_time()
        enc.undo()
        slowest = max(slowest, time.process_time() - began)
        assert plain(enc.state) == plain(enc.rebuild())
    assert slowest < 0.050, f"slowest undo {1000 * slowest:.1f} ms of CPU"
