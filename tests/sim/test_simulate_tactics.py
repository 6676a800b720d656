"""The vtm tactics: what each one declares, and that its commands go through the real rules."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from conteur.dice import SeededDice
from conteur.engine import Command, Encounter, EventList
from conteur.i18n import ConteurError
from conteur.rulesets.vtm.events import (
    ActionDeclared,
    AttackRolled,
    CoverTaken,
    DefenceAnnounced,
    Moved,
)
from conteur.rulesets.vtm.ranged import Aimed
from conteur.rulesets.vtm.sim import Dodge, VtmTactic
from conteur.rulesets.vtm.state import Fighter, VtmState
from conteur.rulesets.vtm.turn import declaring_now
from conteur.sim.referee import get_referee
from conteur.sim.tactics import Tactic, make_tactic, parse_tactic_option, side_tactics

HUNTER = (
    "{id: van, side: hunters, position: [0, 0], dexterity: 3, firearms: 3, melee: 2, wits: 2,"
    " perception: 3, dodge: 2, stamina: 2, willpower: 5, weapons: [heavy_revolver, knife]}"
)
VAMPIRE = (
    "{id: drac, side: undead, position: [20, 0], kind: vampire, strength: 3, dexterity: 3,"
    " stamina: 3, wits: 2, brawl: 3, powers: [feral_claws]}"
)


def encounter(*fighters: str, head: str = "") -> Encounter:
    data: dict[str, Any] = yaml.safe_load(head) or {} if head else {}
    data.setdefault("ruleset", "vtm")
    data["combatants"] = [yaml.safe_load(f) for f in fighters]
    return Encounter.start(data)


def state_of(enc: Encounter) -> VtmState:
    assert isinstance(enc.state, VtmState)
    return enc.state


def declare_all(enc: Encounter, tactics: dict[str, Tactic], seed: int = 1) -> dict[str, Any]:
    """Initiative, then every fighter declares with its side's tactic; the declarations."""
    dice = SeededDice(seed)
    enc.execute(Command("initiative"), dice)
    out: dict[str, Any] = {}
    while state_of(enc).phase == "declaration":
        for fid in declaring_now(state_of(enc)):
            f = state_of(enc).fighters[fid]
            cmd = tactics[f.side].declare(state_of(enc), f)
            out[fid] = cmd.args
            enc.execute(cmd, dice)
    return out


def fight(enc: Encounter, tactics: dict[str, Tactic], seed: int = 1, turns: int = 10) -> EventList:
    """The whole fight with the referee; every event in force."""
    record = get_referee("vtm").fight(enc, SeededDice(seed), tactics, turns, 50.0)
    assert record.error is None, record.error
    return enc.events()


def tactic(name: str, **options: Any) -> Tactic:
    return make_tactic("vtm", name, options)


# ------------------------------------------------------------------ weapons and reach


def test_a_loaded_gun_in_range_shoots_and_claws_close_in_with_a_whole_move() -> None:
    """20 m is within the heavy revolver's range; 20 m - 1 m is more
    than half a run (Dex 3: 29 m / 2), so the vampire moves the whole action."""
    enc = encounter(HUNTER, VAMPIRE)
    near = tactic("nearest")
    plans = declare_all(enc, {"hunters": near, "undead": near})
    assert plans["van"]["actions"] == [
        {"kind": "shoot", "target": "drac", "weapon": "heavy_revolver"}
    ]
    assert plans["drac"]["actions"] == [{"kind": "move", "target": "van"}]


def test_close_enough_the_attack_starts_with_a_move() -> None:
    """Within half a run of reach, the attack carries ``move_to`` (the target)."""
    enc = encounter(HUNTER, VAMPIRE.replace("[20, 0]", "[10, 0]"))
    plans = declare_all(enc, {"hunters": tactic("nearest"), "undead": tactic("nearest")})
    assert plans["drac"]["actions"] == [{"kind": "claws", "target": "van", "move_to": "van"}]
    events = EventList(
        e for entry in enc.active() for e in entry.events
    )  # the declaration went through the rules
    assert any(isinstance(e, ActionDeclared) and e.fighter == "drac" for e in events)


def test_an_empty_gun_is_reloaded_unless_an_enemy_is_close_then_the_knife() -> None:
    """Reload with no enemy within 2 m; the knife when one is."""
    far = encounter(HUNTER.replace("}", ", ammo: {heavy_revolver: 0}}"), VAMPIRE)
    plans = declare_all(far, {"hunters": tactic("nearest"), "undead": tactic("nearest")})
    assert plans["van"]["actions"] == [{"kind": "reload", "weapon": "heavy_revolver"}]
    near = encounter(
        HUNTER.replace("}", ", ammo: {heavy_revolver: 0}}"), VAMPIRE.replace("[20, 0]", "[1, 0]")
    )
    plans = declare_all(near, {"hunters": tactic("nearest"), "undead": tactic("nearest")})
    assert plans["van"]["actions"] == [
        {"kind": "weapon_strike", "target": "drac", "weapon": "knife"}
    ]


def test_celerity_adds_close_attacks_while_blood_lasts() -> None:
    """Celerity 2 and blood: two more claw attacks on the same target."""
    fast = VAMPIRE.replace("[20, 0]", "[1, 0]").replace("}", ", celerity: 2, blood: 1}")
    plans = declare_all(
        encounter(HUNTER, fast), {"hunters": tactic("nearest"), "undead": tactic("nearest")}
    )
    assert plans["drac"]["celerity"] == 1 and len(plans["drac"]["actions"]) == 2
    plans = declare_all(
        encounter(HUNTER, fast),
        {"hunters": tactic("nearest"), "undead": tactic("nearest", celerity=False)},
    )
    assert "celerity" not in plans["drac"]


def test_weakest_picks_the_most_hurt_enemy() -> None:
    other = (
        VAMPIRE.replace("drac", "nosf")
        .replace("[20, 0]", "[30, 0]")
        .replace("}", ", health: [lethal, lethal, lethal]}")
    )
    enc = encounter(HUNTER, VAMPIRE, other)
    plans = declare_all(enc, {"hunters": tactic("weakest"), "undead": tactic("nearest")})
    assert plans["van"]["actions"][0]["target"] == "nosf"
    enc = encounter(HUNTER, VAMPIRE, other)
    plans = declare_all(enc, {"hunters": tactic("nearest"), "undead": tactic("nearest")})
    assert plans["van"]["actions"][0]["target"] == "drac"


# ------------------------------------------------------------------ the named tactics


def test_cover_takes_cover_where_it_stands_then_shoots_from_it() -> None:
    """A move naming the cover reached; then shots, never leaving it."""
    enc = encounter(HUNTER, VAMPIRE.replace("[20, 0]", "[60, 0]"))
    tactics = {"hunters": tactic("cover", cover=2), "undead": tactic("nearest")}
    plans = declare_all(enc, tactics)
    assert plans["van"]["actions"] == [{"kind": "move", "to": [0.0, 0.0], "cover": 2}]
    events = fight(enc, tactics)
    taken = [e for e in events.of(CoverTaken) if e.fighter == "van"]
    assert taken and taken[0].level == 2
    assert not [e for e in events.of(Moved) if e.fighter == "van" and e.metres > 0]


def test_cover_runs_to_the_nearest_spot_within_a_run() -> None:
    enc = encounter(HUNTER, VAMPIRE.replace("[20, 0]", "[60, 0]"))
    tactics = {
        "hunters": tactic("cover", cover=3, spots=[[-40, 0], [-5, 3], [-6, 0]]),
        "undead": tactic("nearest"),
    }
    plans = declare_all(enc, tactics)
    assert plans["van"]["actions"] == [{"kind": "move", "to": [-5.0, 3.0], "cover": 3}]


def test_aim_aims_one_turn_then_shoots_the_same_target() -> None:
    """A turn of aim (+1 die), then the shot at the target aimed at — here a
    gunman who stays where he is (taking cover does not move him, so he is not running)."""
    gunman = HUNTER.replace("van", "bob").replace("hunters", "outlaws").replace("[0, 0]", "[30, 0]")
    enc = encounter(HUNTER, gunman)
    tactics = {"hunters": tactic("aim"), "outlaws": tactic("cover", cover=1)}
    events = fight(enc, tactics, turns=2)
    aims = [e for e in events.of(Aimed) if e.fighter == "van"]
    assert aims and aims[0].target == "bob" and aims[0].turns == 1
    declared = [e.summary for e in events.of(ActionDeclared) if e.fighter == "van"]
    assert declared == ["aim>bob", "shoot>bob"]
    shot = [e for e in events.of(AttackRolled) if e.attacker == "van"]
    assert ("aim", 1) in shot[0].modifiers


def test_aim_shoots_at_once_at_an_enemy_who_will_charge() -> None:
    """No aim at an enemy with no gun: it runs in, and a running target cannot be aimed at."""
    enc = encounter(HUNTER, VAMPIRE.replace("[20, 0]", "[30, 0]"))
    plans = declare_all(enc, {"hunters": tactic("aim"), "undead": tactic("nearest")})
    assert plans["van"]["actions"] == [
        {"kind": "shoot", "target": "drac", "weapon": "heavy_revolver"}
    ]


def test_a_declared_aim_is_given_up_when_the_target_runs() -> None:
    """The gunman, out of his light revolver's range (24 m at most), runs in before the aim
    is taken: a running target cannot be aimed at, the aim is given up (pass)."""
    gunman = (
        (HUNTER.replace("van", "bob").replace("hunters", "outlaws").replace("[0, 0]", "[40, 0]"))
        .replace("wits: 2", "wits: 5")
        .replace("heavy_revolver", "light_revolver")
    )
    enc = encounter(HUNTER, gunman)
    tactics = {"hunters": tactic("aim"), "outlaws": tactic("nearest")}
    plans = declare_all(enc, tactics)
    assert plans["van"]["actions"][0]["kind"] == "aim"
    assert plans["bob"]["actions"] == [{"kind": "move", "target": "van"}]  # out of its range
    events = fight(enc, tactics, turns=1)
    assert not events.of(Aimed)


def test_dodge_when_hurt_declares_full_defence_or_aborts_for_a_dodge() -> None:
    """Hurt and threatened, a full-defence dodge; attacked while hurt with
    an action still to take, abort it for a dodge with a Willpower point."""
    hurt = HUNTER.replace("}", ", health: [lethal, lethal]}")
    enc = encounter(hurt, VAMPIRE.replace("[20, 0]", "[1, 0]"))
    plans = declare_all(enc, {"hunters": tactic("dodge"), "undead": tactic("nearest")})
    assert plans["van"] == {"full_defense": "dodge"}
    slow = hurt.replace("dexterity: 3", "dexterity: 1").replace("wits: 2", "wits: 1")
    enc = encounter(slow, VAMPIRE.replace("[20, 0]", "[1, 0]"))
    tactics = {"hunters": tactic("dodge", hurt=5), "undead": tactic("nearest")}
    declare_all(enc, tactics)
    state = state_of(enc)
    assert tactics["hunters"].react(state, state.fighters["van"]) is None  # not hurt enough
    tactics = {"hunters": tactic("dodge", hurt=2), "undead": tactic("nearest")}
    cmd = tactics["hunters"].react(state, state.fighters["van"])
    assert cmd == Command("defend", "van", {"kind": "dodge", "abort": "point"})
    events = enc.execute(cmd, SeededDice(1))
    assert events.one(DefenceAnnounced).via == "abort_point"


class AttackThenAbort(Dodge):
    """The dodge tactic's reaction, without its full defence: attack, abort when attacked."""

    def plan(self, state: VtmState, fighter: Fighter) -> dict[str, Any]:
        return VtmTactic.plan(self, state, fighter)


def test_the_referee_lets_the_target_abort_before_the_attack() -> None:
    """The slower hunter, hurt, aborts his shot for a dodge when the claws come."""
    hurt = HUNTER.replace("}", ", health: [lethal, lethal]}")
    slow = hurt.replace("dexterity: 3", "dexterity: 1").replace("wits: 2", "wits: 1")
    enc = encounter(slow, VAMPIRE.replace("[20, 0]", "[1, 0]").replace("wits: 2", "wits: 5"))
    events = fight(enc, {"hunters": AttackThenAbort({}), "undead": tactic("nearest")}, turns=1)
    assert [e.via for e in events.of(DefenceAnnounced)] == ["abort_point"]
    assert state_of(enc).fighters["van"].willpower == 4


def test_flee_runs_away_once_badly_hurt() -> None:
    """A full run away from the enemies (Injured: half the run)."""
    hurt = HUNTER.replace("}", ", health: [lethal, lethal, lethal]}")
    enc = encounter(hurt, VAMPIRE)
    plans = declare_all(enc, {"hunters": tactic("flee"), "undead": tactic("nearest")})
    [move] = plans["van"]["actions"]
    assert move == {"kind": "move", "to": [-14.5, 0.0]}  # Dex 3: 29 m, halved


def test_a_fighter_who_ran_far_enough_has_fled() -> None:
    hurt = HUNTER.replace("}", ", health: [lethal, lethal, lethal]}")
    enc = encounter(
        hurt, VAMPIRE.replace("[20, 0]", "[45, 0]").replace("dexterity: 3", "dexterity: 1")
    )
    record = get_referee("vtm").fight(
        enc, SeededDice(2), {"hunters": tactic("flee"), "undead": tactic("nearest")}, 10, 50.0
    )
    assert record.error is None
    assert record.fates[0] == "fled" and record.winner == "undead"


def test_between_turns_a_knocked_down_fighter_tries_to_get_up() -> None:
    down = HUNTER.replace("}", ", conditions: {knocked_down: true}}")
    enc = encounter(down, VAMPIRE)
    state = state_of(enc)
    cmd = tactic("nearest").react(state, state.fighters["van"])
    assert cmd == Command("get_up", "van")
    assert tactic("nearest").react(state, state.fighters["drac"]) is None


# ------------------------------------------------------------------ naming tactics


def test_sides_take_the_command_line_first_then_the_scenario_then_nearest() -> None:
    data = {"sides": {"a": {"tactic": "cover", "cover": 1}, "b": "aim"}}
    assert side_tactics(data, ["a", "b", "c"], {"b": "flee"}) == {
        "a": ("cover", {"cover": 1}),
        "b": ("flee", {}),
        "c": ("nearest", {}),
    }


@pytest.mark.parametrize("text", ["posse", "=cover", "posse=", ""])
def test_a_badly_written_tactic_option_is_refused(text: str) -> None:
    with pytest.raises(ConteurError) as err:
        parse_tactic_option(text)
    assert err.value.key == "sim.tactic.format"


def test_parse_tactic_option() -> None:
    assert parse_tactic_option(" posse = cover ") == ("posse", "cover")
