"""Property tests: random legal play never breaks the engine's guarantees.

Commands are built from ``encounter.legal_commands()`` (the templates a form
or a tactic would use), with seeded dice. After every step:

* a command either applies whole or is refused with a ``ConteurError`` that
  changes nothing and consumes no dice;
* replaying the stored log gives the identical state;
* undoing the command and running it again with the same dice gives the
  identical state.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conteur.dice import SeededDice
from conteur.engine import Command, CommandTemplate, Encounter, entry_from_dict
from conteur.i18n import ConteurError
from conteur.rulesets.vtm import turn

from .fight import Fight
from .statedump import dump

SCENE = """
combatants:
  - {id: vic, kind: vampire, side: a, position: [0, 0], wits: 3, dexterity: 3, brawl: 3,
     strength: 3, stamina: 2, dodge: 2, celerity: 2, fortitude: 1, blood: 6, stealth: 2,
     powers: [feral_claws]}
  - {id: kat, side: a, position: [0, 1], wits: 2, dexterity: 3, melee: 3, strength: 2,
     stamina: 2, weapons: [knife], armour: leather_coat}
  - {id: sam, side: b, position: [1, 0], wits: 2, dexterity: 2, brawl: 2, firearms: 3,
     stamina: 2, dodge: 1, perception: 2, alertness: 2, weapons: [light_revolver]}
  - {id: ned, side: b, position: [1, 1], wits: 1, dexterity: 2, brawl: 1, firearms: 2,
     stamina: 3, weapons: [heavy_revolver]}
"""

SIMPLE = ("punch", "weapon_strike", "shoot", "dodge", "block", "parry", "other", "move", "claws")
DAMAGE = ("bashing", "lethal", "aggravated")


def value(draw: Any, template: CommandTemplate, name: str, param: Any) -> Any:
    """A value for one parameter, within its template's choices or range."""
    if param.kind == "choice":
        if not param.choices:
            return None
        return draw(st.sampled_from(param.choices))
    if param.kind == "int":
        return draw(st.integers(param.min if param.min is not None else -3, param.max or 3))
    if param.kind == "bool":
        return draw(st.booleans())
    if param.kind == "position":
        return [draw(st.integers(-3, 3)), draw(st.integers(-3, 3))]
    # Text fields: what the GM would type.
    if name == "health":
        return draw(st.lists(st.sampled_from(DAMAGE), max_size=8))
    if name == "ammo":
        return {
            draw(st.sampled_from(("light_revolver", "heavy_revolver"))): draw(st.integers(0, 6))
        }
    if name == "conditions":
        return {draw(st.sampled_from(("no_room", "dazed", "knocked_down"))): draw(st.booleans())}
    if name == "spec":
        return {"traits": "dexterity+brawl", "damage": "strength+1", "damage_type": "bashing"}
    return draw(st.sampled_from(("raison", "headbutt", "")))


def declaration(draw: Any, template: CommandTemplate) -> dict[str, Any]:
    """A declaration built from the template: delay, full defence, or one to three actions."""
    mode = draw(st.sampled_from(("actions", "actions", "actions", "delay", "full_defense")))
    if mode == "delay":
        return {"delay": True}
    if mode == "full_defense" and template.param("full_defense").choices:
        return {"full_defense": draw(st.sampled_from(template.param("full_defense").choices))}
    kinds = list(template.param("kind").choices)
    if draw(st.integers(0, 9)) < 7:
        kinds = [k for k in kinds if k in SIMPLE] or kinds
    targets = template.param("target").choices
    actions = []
    for _ in range(draw(st.integers(1, 3))):
        action: dict[str, Any] = {"kind": draw(st.sampled_from(kinds))}
        if targets:
            action["target"] = draw(st.sampled_from(targets))
        if action["kind"] == "move":
            action["to"] = [draw(st.integers(-5, 5)), 0]
        actions.append(action)
    args: dict[str, Any] = {"actions": actions}
    dots = sum(1 for p in template.params if p.name.startswith("celerity_kind_"))
    if dots and len(actions) > 1:
        args["celerity"] = draw(st.integers(0, min(dots, 1)))
    return args


def command(draw: Any, template: CommandTemplate) -> Command:
    if template.type == "declare":
        return Command("declare", template.actor, declaration(draw, template))
    args: dict[str, Any] = {}
    for p in template.params:
        if not p.required and draw(st.booleans()):
            continue
        v = value(draw, template, p.name, p)
        if v is not None:
            args[p.name] = v
    if template.type == "act" and "kind" in args:
        kinds = [k for k in template.param("kind").choices if k in SIMPLE]
        if kinds and draw(st.integers(0, 9)) < 7:
            args["kind"] = draw(st.sampled_from(kinds))
        if args["kind"] == "move":
            args["to"] = [draw(st.integers(-5, 5)), 0]
    return Command(template.type, template.actor, args)


WEIGHTS = {"act": 6, "pass": 1, "declare": 4, "initiative": 4, "defend": 2, "ambush": 1}


def pick(draw: Any, templates: list[CommandTemplate]) -> CommandTemplate:
    """A template: the fighters' commands mostly (acting first), the game master's sometimes."""
    weighted = [t for t in templates for _ in range(WEIGHTS.get(t.type, 0))]
    if weighted and draw(st.integers(0, 9)) < 9:
        return draw(st.sampled_from(weighted))
    return draw(st.sampled_from(templates))


def check_turn(enc: Encounter) -> None:
    """The turn never stalls, and only fighters able to act are offered ``act``."""
    state = enc.state
    if state.phase in ("resolution", "end_of_turn"):
        assert turn.due_at_rank(state) or turn.due_at_end(state), state.phase
    for t in enc.legal_commands():
        if t.type == "act":
            f = state.fighters[t.actor]
            assert not f.out_of_fight or f.progress.frozen_penalty is not None, t


def same(a: Encounter, b: Encounter) -> bool:
    return dump(a.state) == dump(b.state) and a.end_state() == b.end_state()


@settings(
    max_examples=15,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data())
def test_random_legal_play_keeps_every_guarantee(data: st.DataObject) -> None:
    """Any sequence of template-built commands: whole or nothing, replayable, undoable."""
    draw = data.draw
    enc = Fight(SCENE).encounter
    dice = SeededDice(draw(st.integers(0, 10_000)))
    for _ in range(draw(st.integers(5, 30))):
        if draw(st.integers(0, 19)) == 0 and enc.active():
            enc.undo()
            continue
        check_turn(enc)
        cmd = command(draw, pick(draw, enc.legal_commands()))
        before, logged, mark = dump(enc.state), list(enc.log), dice.mark()
        try:
            enc.execute(cmd, dice)
        except ConteurError as err:
            assert err.message("fr") and err.message("en")
            assert dump(enc.state) == before, cmd
            assert enc.log == logged and dice.mark() == mark, cmd
            continue
        entry = enc.log[-1]
        assert entry_from_dict(json.loads(json.dumps(entry.to_dict()))) == entry, cmd
        stored = json.loads(json.dumps(enc.log_dicts()))
        assert same(Encounter.replay(enc.scenario, stored), enc), cmd
        after = dump(enc.state)
        enc.undo()
        assert dump(enc.state) == before, cmd
        dice.reset(mark)
        enc.execute(cmd, dice)
        assert dump(enc.state) == after, cmd


@settings(max_examples=10, derandomize=True, deadline=None)
@given(st.data())
def test_templates_are_exact_for_declarations_and_defences(data: st.DataObject) -> None:
    """Every ``defend`` a template offers is accepted (dice aside); only due fighters may declare."""
    draw = data.draw
    enc = Fight(SCENE).encounter
    dice = SeededDice(draw(st.integers(0, 1000)))
    for _ in range(draw(st.integers(3, 25))):
        templates = enc.legal_commands()
        for t in templates:
            if t.type == "defend":
                for kind in t.param("kind").choices:
                    args: dict[str, Any] = {"kind": kind}
                    if t.rule == "V-MAN-3":
                        args["abort"] = t.param("abort").choices[0]
                    enc.execute(Command("defend", t.actor, args), SeededDice(1))
                    enc.undo()
        declarers = {t.actor for t in templates if t.type == "declare"}
        state = enc.state
        if state.phase == "declaration":
            due = {
                fid
                for fid in state.order[state.cursor]
                if state.fighters[fid].progress.declaration is None
            }
            assert declarers == due
        else:
            assert not declarers
        with contextlib.suppress(ConteurError):
            enc.execute(command(draw, pick(draw, templates)), dice)
