"""Ranged combat: range, aim, spray, cover, two weapons, bursts, reloading, full auto,
multiple shots, the era's weapons, ammunition, called shots and blind shooting
(V-GEN-2, V-ATK-3, V-RNG-1..9, V-ERA-1, V-MAN-5, V-MAN-8, V-DEF-4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from conteur.engine import Encounter
from conteur.i18n import ConteurError
from conteur.rulesets.vtm.events import (
    AmmoChanged,
    AttackMissed,
    AttackRolled,
    ConditionSet,
    CoverTaken,
    DamageRolled,
    DefenceRolled,
    SoakRolled,
)
from conteur.rulesets.vtm.ranged import Aimed, ReloadProgress, SprayShared, share_out
from conteur.rulesets.vtm.turn import declaring_now, next_timing

from .fight import Fight, attack

SHOOTER = "id: a, side: x, position: [0, 0], dexterity: 3, firearms: 2, wits: 5"
"""Dex 3 + Firearms 2: a 5-dice shot; Perception 1 unless a test says otherwise."""


def flow(*parts: str) -> dict[str, Any]:
    """YAML flow mappings merged, the later keys winning (``"a: 1, b: 2"``)."""
    out: dict[str, Any] = {}
    for part in parts:
        out.update(yaml.safe_load("{" + part + "}") or {})
    return out


def scene(*fighters: str | dict[str, Any], head: str = "") -> Fight:
    """A fight: the scenario's ``head`` (YAML) and its fighters (flow mappings)."""
    data = yaml.safe_load(head) or {} if head else {}
    data["combatants"] = [f if isinstance(f, dict) else flow(f) for f in fighters]
    return Fight(data)


def duel(shooter: str = "", target: str = "", metres: float = 10, head: str = "") -> Fight:
    """``a`` shoots (fast), ``t`` is shot at (slow), ``metres`` apart."""
    return scene(
        flow(SHOOTER, shooter),
        flow(f"id: t, side: y, position: [{metres}, 0], wits: 1, stamina: 2", target),
        head=head,
    )


def begin(f: Fight, plan: dict[str, Any] | None = None) -> None:
    """Initiative (every face 5), then each fighter declares, slowest first.

    ``plan`` maps a fighter to a list of actions or to ``declare`` keywords;
    a fighter left out declares ``other``.
    """
    plan = plan or {}
    f.initiative(*[5] * len(f.state.fighters))
    while f.state.phase == "declaration":
        for fid in declaring_now(f.state):
            what = plan.get(fid, [{"kind": "other"}])
            if isinstance(what, dict):
                f.declare(fid, **what)
            else:
                f.declare(fid, *what)


def finish(f: Fight) -> None:
    """Take every action left that rolls no dice (other, aim, move, reload...)."""
    while f.state.phase in ("resolution", "end_of_turn"):
        due = [fid for fid in f.state.fighters if next_timing(f.state, fid)]
        assert due, "nobody is due"
        f.act(due[0])


def shot(f: Fight, plan: dict[str, Any], dice: list[int], actor: str = "a") -> Any:
    """A turn in which ``actor`` takes its first action with these faces."""
    begin(f, plan)
    return f.act(actor, dice)


def rolled(events: Any) -> tuple[int, int]:
    """(pool, difficulty) of the single attack roll."""
    r = events.one(AttackRolled)
    return r.pool, r.difficulty


def refused(f: Fight, call: Any, *args: Any, **kwargs: Any) -> ConteurError:
    """The ConteurError a command raises; the state does not change."""
    before = len(f.encounter.log)
    with pytest.raises(ConteurError) as err:
        call(*args, **kwargs)
    assert len(f.encounter.log) == before
    assert err.value.message("fr") and err.value.message("en")
    return err.value


# ------------------------------------------------------------------ V-GEN-2, V-RNG-5 range


def test_V_GEN_2_V_RNG_5_up_to_twice_short_range_then_nothing() -> None:
    """V-GEN-2, V-RNG-5: a heavy revolver (short range 35 m) shoots at 70 m at difficulty 8,
    not at 71 m."""
    f = duel("weapons: [heavy_revolver]", metres=70)
    assert rolled(shot(f, {"a": [attack("shoot", "t")]}, [2] * 5)) == (5, 8)
    g = duel("weapons: [heavy_revolver]", metres=71)
    g.initiative(5, 5)
    g.declare("t", {"kind": "other"})
    assert refused(g, g.declare, "a", attack("shoot", "t")).rule == "V-GEN-2"
    h = duel("weapons: [heavy_revolver]", metres=70)
    begin(h, {"a": [attack("shoot", "t")]})
    h.do("gm_move", fighter="t", to=[71, 0])  # out of range since the declaration
    err = refused(h, h.act, "a", [2] * 5)
    assert err.rule == "V-GEN-2" and h["a"].ammo["heavy_revolver"] == 6


def test_V_RNG_5_point_blank_short_and_long_range() -> None:
    """V-RNG-5: within 2 m difficulty 4; up to the short range 6; up to twice that 8."""
    for metres, difficulty in ((2, 4), (3, 6), (35, 6), (36, 8)):
        f = duel("weapons: [heavy_revolver]", metres=metres)
        assert rolled(shot(f, {"a": [attack("shoot", "t")]}, [2] * 5))[1] == difficulty, metres


def test_V_RNG_5_range_band_and_maneuver_difficulty_add_up() -> None:
    """V-RNG-5: the band replaces the default 6, the maneuver's modifier adds to it:
    full auto (+2) at point blank 4 + 2 = 6; a burst (+1) at long range 8 + 1 = 9."""
    f = duel("weapons: [small_smg]", metres=1.5, head="era: modern")
    assert rolled(shot(f, {"a": [attack("full_auto", "t")]}, [2] * 15)) == (15, 6)
    g = duel("weapons: [small_smg]", metres=40, head="era: modern")
    assert rolled(shot(g, {"a": [attack("three_round_burst", "t")]}, [2] * 7)) == (7, 9)


def test_V_RNG_5_thrown_weapons_use_the_same_bands() -> None:
    """V-RNG-5, V-ATK-1: a throwing knife (short range 10 m): Dex + Athletics, 8 at 15 m, none at 21 m."""
    f = duel("athletics: 2, weapons: [thrown_knife]", metres=15)
    assert rolled(shot(f, {"a": [attack("throw", "t")]}, [2] * 5)) == (5, 8)
    g = duel("athletics: 2, weapons: [thrown_knife]", metres=21)
    g.initiative(5, 5)
    g.declare("t", {"kind": "other"})
    assert refused(g, g.declare, "a", attack("throw", "t")).rule == "V-GEN-2"


# ------------------------------------------------------------------ V-ATK-3


def test_V_ATK_3_the_weapon_changes_pool_and_difficulty() -> None:
    """V-ATK-3: a weapon's options change the roll: a burst adds 2 dice and 1 difficulty,
    full auto 10 dice and 2 difficulty, over a plain shot of 5 dice at 6."""
    pools = {}
    for kind, dice in (("shoot", 5), ("three_round_burst", 7), ("full_auto", 15)):
        f = duel("weapons: [large_smg]", head="era: modern")
        pools[kind] = rolled(shot(f, {"a": [attack(kind, "t")]}, [2] * dice))
    assert pools == {"shoot": (5, 6), "three_round_burst": (7, 7), "full_auto": (15, 8)}


def test_V_ATK_3_rate_of_fire_limits_the_shots() -> None:
    """V-ATK-3, V-RNG-9: a light revolver (rate 3) fires three times a turn, not four."""
    f = duel("weapons: [light_revolver]")
    f.initiative(5, 5)
    f.declare("t", {"kind": "other"})
    err = refused(f, f.declare, "a", *[attack("shoot", "t")] * 4)
    assert err.rule == "V-RNG-9" and "3" in err.message("fr")
    f.declare("a", *[attack("shoot", "t")] * 3)


def test_V_ATK_3_a_scope_adds_dice_to_an_aimed_shot(tmp_path: Path) -> None:
    """V-ATK-3, V-RNG-1: a rifle with a scope (the game master's table) aimed one turn:
    +1 die for the turn, +2 for the scope."""
    table = tmp_path / "guns.yaml"
    table.write_text("weapons:\n  - {id: rifle, scope: true}\n", encoding="utf-8")
    f = duel("weapons: [rifle]", metres=50, head=f"tables: [{table}]")
    begin(f, {"a": [{"kind": "aim", "target": "t"}]})
    assert f.act("a").one(Aimed).dice == 3
    finish(f)
    assert rolled(shot(f, {"a": [attack("shoot", "t")]}, [2] * 8)) == (8, 6)


# ------------------------------------------------------------------ V-RNG-1 aim


def aim_turns(f: Fight, turns: int, target: str = "t") -> list[Aimed]:
    """``a`` spends ``turns`` whole turns aiming at ``target``."""
    out = []
    for _ in range(turns):
        begin(f, {"a": [{"kind": "aim", "target": target}]})
        out.append(f.act("a").one(Aimed))
        finish(f)
    return out


def test_V_RNG_1_a_die_per_turn_of_aim_at_most_perception() -> None:
    """V-RNG-1: Perception 2: one turn of aim +1, two +2, three still +2; the shot gets +2."""
    f = duel("perception: 2, weapons: [heavy_revolver]")
    aims = aim_turns(f, 3)
    assert [(a.turns, a.dice) for a in aims] == [(1, 1), (2, 2), (3, 2)]
    assert aims[1].describe("fr", {"a": "Ana", "t": "Tom"}).startswith("Ana ajuste Tom : 2 tours")
    events = shot(f, {"a": [attack("shoot", "t")]}, [2] * 7)
    assert rolled(events) == (7, 6) and "V-RNG-1" in events.one(AttackRolled).rules
    assert "aim" not in f["a"].conditions  # spent on the shot


def test_V_RNG_1_a_scope_adds_two_dice_beyond_the_perception_cap(tmp_path: Path) -> None:
    """V-RNG-1: Perception 1 caps the turns at +1; the scope's +2 comes on top: +3."""
    table = tmp_path / "guns.yaml"
    table.write_text("weapons:\n  - {id: rifle, scope: true}\n", encoding="utf-8")
    f = duel("perception: 1, weapons: [rifle]", metres=50, head=f"tables: [{table}]")
    assert [a.dice for a in aim_turns(f, 2)] == [3, 3]
    assert rolled(shot(f, {"a": [attack("shoot", "t")]}, [2] * 8))[0] == 8


def test_V_RNG_1_aiming_needs_firearms() -> None:
    """V-RNG-1: the shooter needs at least Firearms 1 to aim."""
    f = duel("firearms: 0, weapons: [heavy_revolver]")
    f.initiative(5, 5)
    f.declare("t", {"kind": "other"})
    assert refused(f, f.declare, "a", {"kind": "aim", "target": "t"}).rule == "V-RNG-1"


def test_V_RNG_1_aiming_is_the_whole_turn() -> None:
    """V-RNG-1: nothing else may be done while aiming: aim + shot is refused."""
    f = duel("weapons: [heavy_revolver]")
    f.initiative(5, 5)
    f.declare("t", {"kind": "other"})
    err = refused(f, f.declare, "a", {"kind": "aim", "target": "t"}, attack("shoot", "t"))
    assert err.rule == "V-RNG-1"


def test_V_RNG_1_doing_anything_else_loses_the_aim() -> None:
    """V-RNG-1: aim, then a turn doing something else: the shot has no bonus, and aiming
    again starts over at one turn."""
    f = duel("weapons: [heavy_revolver]")
    aim_turns(f, 1)
    begin(f, {"a": [{"kind": "other"}]})
    finish(f)
    assert rolled(shot(f, {"a": [attack("shoot", "t")]}, [2] * 5))[0] == 5
    finish(f)
    assert aim_turns(f, 1)[0].turns == 1


def test_V_RNG_1_a_dodge_before_the_shot_loses_the_aim() -> None:
    """V-RNG-1: dodging (one action of a multiple action) before the shot spends the focus."""
    f = duel("weapons: [heavy_revolver]", "dexterity: 3, firearms: 2, weapons: [heavy_revolver]")
    aim_turns(f, 1)
    begin(f, {"a": [{"kind": "dodge"}, attack("shoot", "t")], "t": [attack("shoot", "a")]})
    # t shoots at its rank and misses: a's dodge, with no success to oppose, is still spent.
    assert f.act("t", [2] * 5).one(DefenceRolled).defender == "a"
    # a's shot: Dex 3 + Firearms 2 − 3 (second of two actions), no aim.
    assert rolled(f.act("a", [2, 2]))[0] == 2


def test_V_RNG_1_reloading_before_the_shot_loses_the_aim() -> None:
    """V-RNG-1: aim, then reload and shoot (a multiple action): the reload breaks the aim."""
    f = duel("weapons: [heavy_revolver], ammo: {heavy_revolver: 3}")
    aim_turns(f, 1)
    begin(f, {"a": [{"kind": "reload"}, attack("shoot", "t")]})
    f.act("t")
    f.act("a")
    assert rolled(f.act("a", [2] * 2))[0] == 5 - 3


def test_V_RNG_1_the_aim_goes_to_one_single_shot() -> None:
    """V-RNG-1: "for a single shot": of two shots the first gets the aim, the second not."""
    f = duel("weapons: [heavy_revolver]")
    aim_turns(f, 1)
    begin(f, {"a": [attack("shoot", "t"), attack("shoot", "t")]})
    f.act("t")
    assert rolled(f.act("a", [2] * 4))[0] == 5 - 2 + 1
    assert rolled(f.act("a", [2] * 2))[0] == 5 - 3


def test_V_RNG_1_no_aim_bonus_for_a_burst() -> None:
    """V-RNG-1: a three-round burst is not a single shot: no aim dice, and the aim is spent."""
    f = duel("weapons: [small_smg]", head="era: modern")
    aim_turns(f, 1)
    assert rolled(shot(f, {"a": [attack("three_round_burst", "t")]}, [2] * 7))[0] == 7
    assert "aim" not in f["a"].conditions


def test_V_RNG_1_no_aiming_at_a_running_target() -> None:
    """V-RNG-1: a target that ran this turn (farther than a walk) cannot be aimed at."""
    f = scene(
        flow(SHOOTER, "weapons: [rifle]"),
        "id: t, side: y, position: [50, 0], wits: 9, dexterity: 3",
    )
    begin(f, {"a": [{"kind": "aim", "target": "t"}], "t": [{"kind": "run", "to": [65, 0]}]})
    ran = f.act("t")
    assert ran.one(ConditionSet).condition == "running"
    assert refused(f, f.act, "a").rule == "V-RNG-1"


def test_V_RNG_1_a_walking_target_can_be_aimed_at() -> None:
    """V-RNG-1: moving at a walk (7 m a turn or less) does not stop the aim."""
    f = scene(
        flow(SHOOTER, "weapons: [rifle]"),
        "id: t, side: y, position: [50, 0], wits: 9",
    )
    begin(f, {"a": [{"kind": "aim", "target": "t"}], "t": [{"kind": "move", "to": [55, 0]}]})
    assert not f.act("t").of(ConditionSet)
    assert f.act("a").one(Aimed).turns == 1


def test_V_RNG_1_a_target_that_starts_running_spoils_the_aim() -> None:
    """V-RNG-1: aimed at while walking, the target runs before the shot: no aim dice."""
    f = scene(
        flow(SHOOTER, "weapons: [rifle]"),
        "id: t, side: y, position: [50, 0], wits: 9",
    )
    begin(f, {"a": [{"kind": "aim", "target": "t"}]})
    finish(f)
    begin(f, {"a": [attack("shoot", "t")], "t": [{"kind": "run", "to": [70, 0]}]})
    f.act("t")
    assert rolled(f.act("a", [2] * 5))[0] == 5


def test_V_RNG_1_running_set_by_the_storyteller() -> None:
    """V-RNG-1: the game master may say a fighter runs (``running``) until cleared."""
    f = duel("weapons: [rifle]", metres=50)
    f.do("gm_condition", fighter="t", condition="running")
    f.initiative(5, 5)
    f.declare("t", {"kind": "other"})
    assert refused(f, f.declare, "a", {"kind": "aim", "target": "t"}).rule == "V-RNG-1"


# ------------------------------------------------------------------ V-MAN-5 blind, V-MAN-8 targeting


def test_V_MAN_5_blind_shooter_plain_shot_at_plus_two() -> None:
    """V-MAN-5: blinded, a plain shot is at +2 difficulty."""
    f = duel("weapons: [heavy_revolver], conditions: {blinded: true}")
    events = shot(f, {"a": [attack("shoot", "t")]}, [2] * 5)
    assert rolled(events) == (5, 8) and "V-MAN-5" in events.one(AttackRolled).rules


def test_V_MAN_5_blind_no_aim_and_no_called_shot() -> None:
    """V-MAN-5 (reading): precise ranged attacks are impossible blind: no aim, no targeting."""
    f = duel("weapons: [heavy_revolver]", head="darkness: true")
    f.initiative(5, 5)
    f.declare("t", {"kind": "other"})
    assert refused(f, f.declare, "a", {"kind": "aim", "target": "t"}).rule == "V-MAN-5"
    err = refused(f, f.declare, "a", attack("shoot", "t", targeting="small"))
    assert err.rule == "V-MAN-5"


def test_V_MAN_5_heightened_senses_cancel_the_blindness() -> None:
    """V-MAN-5: Heightened Senses (or Eyes of the Beast) cancel the penalty: aim and +0."""
    f = duel(
        "kind: vampire, powers: [heightened_senses], weapons: [heavy_revolver]",
        head="darkness: true",
    )
    aim_turns(f, 1)
    assert rolled(shot(f, {"a": [attack("shoot", "t")]}, [2] * 6)) == (6, 6)


def test_V_MAN_8_called_shots_difficulty_and_damage() -> None:
    """V-MAN-8: medium +1 (no damage change), small +2 and +1 damage, precise +3 and +2."""
    for size, difficulty, damage in (("medium", 7, 6), ("small", 8, 7), ("precise", 9, 8)):
        f = duel("weapons: [heavy_revolver]")
        events = shot(
            f, {"a": [attack("shoot", "t", targeting=size)]}, [10, 2, 2, 2, 2] + [2] * damage
        )
        assert rolled(events)[1] == difficulty, size
        assert events.one(DamageRolled).pool == damage, size


def test_V_MAN_8_a_called_shot_may_avoid_cover() -> None:
    """V-MAN-8: aimed at the head showing over the wall (``bypass_cover``): +2 for the head,
    no cover; without it the wall counts too."""
    f = duel("weapons: [heavy_revolver]", "cover: 2")
    plain = shot(f, {"a": [attack("shoot", "t", location="head")]}, [2] * 5)
    assert rolled(plain)[1] == 10
    g = duel("weapons: [heavy_revolver]", "cover: 2")
    aimed = shot(g, {"a": [attack("shoot", "t", location="head", bypass_cover=True)]}, [2] * 5)
    assert rolled(aimed)[1] == 8 and "V-MAN-8" in aimed.one(AttackRolled).rules


def test_V_MAN_8_a_called_shot_may_avoid_armour() -> None:
    """V-MAN-8: a vampire in a breastplate (3) soaks with Stamina 2 + 3; a shot at the head
    past the armour (``bypass_armour``), with Stamina alone; a limb cannot avoid it."""
    target = "kind: vampire, armour: breastplate"
    hit = [10, 2, 2, 2, 2] + [6, 2, 2, 2, 2, 2, 2]  # one success; damage 6 + 1 dice: one
    f = duel("weapons: [heavy_revolver]", target)
    events = shot(f, {"a": [attack("shoot", "t", location="head")]}, [*hit, 2, 2, 2, 2, 2])
    assert events.one(SoakRolled).pool == 5
    g = duel("weapons: [heavy_revolver]", target)
    plan = {"a": [attack("shoot", "t", location="head", bypass_armour=True)]}
    assert shot(g, plan, [*hit, 2, 2]).one(SoakRolled).pool == 2
    h = duel("weapons: [heavy_revolver]", target)
    h.initiative(5, 5)
    h.declare("t", {"kind": "other"})
    limb = attack("shoot", "t", targeting="medium", bypass_armour=True)
    assert refused(h, h.declare, "a", limb).rule == "V-MAN-8"


def test_V_MAN_8_unknown_called_shot_refused() -> None:
    """V-MAN-8: a target size the table does not know is refused."""
    f = duel("weapons: [heavy_revolver]")
    f.initiative(5, 5)
    f.declare("t", {"kind": "other"})
    assert refused(f, f.declare, "a", attack("shoot", "t", targeting="huge")).rule == "V-MAN-8"


# ------------------------------------------------------------------ V-RNG-2 spray

ZONE = (
    flow(SHOOTER, "weapons: [small_smg]"),
    "id: b, side: y, position: [10, 0], wits: 1",
    "id: c, side: y, position: [11, 0], wits: 1",
    "id: d, side: y, position: [12, 0], wits: 1",
)
SEVEN = [8] * 7 + [2] * 8
"""A spray roll of 15 dice (Dex 3 + Firearms 2 + 10) with 7 successes at difficulty 8."""


def spray(**params: Any) -> dict[str, Any]:
    return {"kind": "spray", "target": "b", "targets": ["c", "d"], **params}


def test_V_RNG_2_spray_shares_successes_evenly_leftovers_as_chosen() -> None:
    """V-RNG-2: 7 successes over 3 targets: 2 each, the leftover to the attacker's choice (c);
    each share adds to its target's damage (V-DMG-1: SMG 4 + share − 1); the clip is emptied."""
    f = scene(*ZONE, head="era: modern")
    events = shot(f, {"a": [spray(leftovers=["c"])]}, SEVEN + [2] * 5 + [2] * 6 + [2] * 5)
    assert rolled(events) == (15, 8)
    assert events.one(SprayShared).shares == (("b", 2), ("c", 3), ("d", 2))
    assert [d.pool for d in events.of(DamageRolled)] == [5, 6, 5]
    assert events.one(AmmoChanged).rounds == 0 and f["a"].ammo["small_smg"] == 0
    names = {fid: x.name for fid, x in f.state.fighters.items()}
    line = events.one(SprayShared).describe("en", names)
    assert "7 successes shared (B 2, C 3, D 2)" in line and "V-RNG-2" in line
    assert "Arrosage de A" in events.one(SprayShared).describe("fr", names)


def test_V_RNG_2_leftovers_default_to_the_order_named() -> None:
    """V-RNG-2: with no choice given, leftovers go to the targets in the order named."""
    assert share_out(8, ["b", "c", "d"]) == {"b": 3, "c": 3, "d": 2}
    assert share_out(8, ["b", "c", "d"], ["d", "d"]) == {"b": 2, "c": 2, "d": 4}


def test_V_RNG_2_fewer_successes_than_targets_one_each() -> None:
    """V-RNG-2: 2 successes for 3 targets: one per target until none remain (d first, as
    chosen, then b); c is missed."""
    f = scene(*ZONE, head="era: modern")
    events = shot(f, {"a": [spray(leftovers=["d", "d"])]}, [8, 8] + [2] * 13 + [2] * 4 + [2] * 4)
    assert dict(events.one(SprayShared).shares) == {"b": 1, "c": 0, "d": 1}
    assert [(d.target, d.pool) for d in events.of(DamageRolled)] == [("b", 4), ("d", 4)]
    assert [m.target for m in events.of(AttackMissed)] == ["c"]


def test_V_RNG_2_a_lone_target_takes_half_the_successes() -> None:
    """V-RNG-2 (reading): a lone target in the zone takes half the successes, rounded down:
    7 → 3, damage 4 + 2."""
    f = scene(*ZONE[:2], head="era: modern")
    events = shot(f, {"a": [{"kind": "spray", "target": "b"}]}, SEVEN + [2] * 6)
    shared = events.one(SprayShared)
    assert shared.lone and shared.shares == (("b", 3),)
    assert events.one(DamageRolled).pool == 6


def test_V_RNG_2_option_every_success_adds_a_die() -> None:
    """V-RNG-2 option ``auto_fire_every_success``: each success of the share adds a die (4 + 2)."""
    f = scene(*ZONE, head="era: modern\noptions: {auto_fire_every_success: true}")
    events = shot(f, {"a": [spray()]}, SEVEN + [2] * 7 + [2] * 6 + [2] * 6)
    assert [d.pool for d in events.of(DamageRolled)] == [7, 6, 6]


def test_V_RNG_2_dodging_a_spray_is_at_plus_one() -> None:
    """V-RNG-2: dodging a spray is at +1 difficulty; the dodge opposes that target's share."""
    zone = (*ZONE[:2], "id: c, side: y, position: [11, 0], wits: 1, dexterity: 3, dodge: 2")
    f = scene(*zone, head="era: modern")
    plan = {"a": [{"kind": "spray", "target": "b", "targets": ["c"]}], "c": [{"kind": "dodge"}]}
    # 7 successes: b 4, c 3; c dodges 5 dice at 7: 2 successes → 1 left, damage 4 dice.
    events = shot(f, plan, SEVEN + [2] * 7 + [7, 7, 2, 2, 2] + [2] * 4)
    dodge = events.one(DefenceRolled)
    assert (dodge.defender, dodge.difficulty, dodge.net) == ("c", 7, 1)
    assert [(d.target, d.pool) for d in events.of(DamageRolled)] == [("b", 7), ("c", 4)]


def test_V_RNG_2_the_zone_is_at_most_three_metres() -> None:
    """V-RNG-2: a spray covers at most 3 m: targets 4 m apart are refused."""
    far = (*ZONE[:3], "id: d, side: y, position: [14, 0], wits: 1")
    f = scene(*far, head="era: modern")
    begin(f, {"a": [spray()]})
    err = refused(f, f.act, "a", SEVEN)
    assert err.rule == "V-RNG-2" and f["a"].ammo["small_smg"] == 31


def test_V_RNG_2_needs_an_automatic_weapon_and_cannot_target() -> None:
    """V-RNG-2: a revolver cannot spray; a spray aims at no particular spot."""
    f = scene(flow(SHOOTER, "weapons: [heavy_revolver]"), *ZONE[1:])
    f.initiative(5, 5, 5, 5)
    for fid in ("b", "c", "d"):
        f.declare(fid, {"kind": "other"})
    assert refused(f, f.declare, "a", spray()).rule == "V-RNG-2"
    g = scene(*ZONE, head="era: modern")
    g.initiative(5, 5, 5, 5)
    for fid in ("b", "c", "d"):
        g.declare(fid, {"kind": "other"})
    assert refused(g, g.declare, "a", spray(targeting="small")).rule == "V-RNG-2"
    assert refused(g, g.declare, "a", spray(leftovers=["a"])).rule == "V-RNG-2"


# ------------------------------------------------------------------ V-RNG-3 cover, V-DEF-4


def test_V_RNG_3_cover_light_good_superior() -> None:
    """V-RNG-3: light +1, good +2, superior +3 to the shooter's difficulty."""
    for level, difficulty in ((0, 6), (1, 7), (2, 8), (3, 9)):
        f = duel("weapons: [heavy_revolver]", f"cover: {level}")
        assert rolled(shot(f, {"a": [attack("shoot", "t")]}, [2] * 5))[1] == difficulty


def test_V_RNG_3_shooting_from_cover_costs_its_penalty_less_one() -> None:
    """V-RNG-3: from light cover no penalty; from a wall +1; with only the head out +2."""
    for level, difficulty in ((1, 6), (2, 7), (3, 8)):
        f = duel(f"weapons: [heavy_revolver], cover: {level}")
        assert rolled(shot(f, {"a": [attack("shoot", "t")]}, [2] * 5))[1] == difficulty


def test_V_RNG_3_text_example_prone_shooter_against_man_behind_a_wall() -> None:
    """V-RNG-3, the text's example: the prone one shoots at +2 (+2 for the wall), the one behind
    the wall at +2 as well (+1 for the prone target, +1 for shooting from the wall)."""
    f = scene(
        "id: p, side: x, position: [0, 0], dexterity: 3, firearms: 2, wits: 5, "
        "weapons: [heavy_revolver], conditions: {prone: true}",
        "id: w, side: y, position: [20, 0], dexterity: 3, firearms: 2, wits: 1, "
        "weapons: [heavy_revolver], cover: 2",
    )
    begin(f, {"p": [attack("shoot", "w")], "w": [attack("shoot", "p")]})
    assert rolled(f.act("p", [2] * 5))[1] == 6 + 2
    assert rolled(f.act("w", [2] * 5))[1] == 6 + 2


def test_V_RNG_3_cover_from_the_storyteller_and_from_a_move() -> None:
    """V-RNG-3: cover set by the game master, or reached by a move naming it; a move that
    names none leaves the cover."""
    f = duel("weapons: [heavy_revolver]", "dexterity: 2")
    assert f.do("gm_cover", fighter="t", level=3).one(CoverTaken).level == 3
    f.do("gm_cover", fighter="t", level=0)
    begin(f, {"t": [{"kind": "move", "to": [12, 0], "cover": 2}]})
    f.act("a")
    assert f.act("t").one(CoverTaken).level == 2 and f["t"].cover == 2
    begin(f, {"t": [{"kind": "move", "to": [14, 0]}]})
    f.act("a")
    f.act("t")
    assert f["t"].cover == 0


def test_V_DEF_4_dodging_gunfire_drops_prone_then_light_cover() -> None:
    """V-DEF-4, V-RNG-3: with no cover named, the dodger drops prone: light cover (+1)
    for the next shot."""
    f = duel("weapons: [heavy_revolver]", "dexterity: 3, dodge: 2")
    plan = {"a": [attack("shoot", "t"), attack("shoot", "t")], "t": [{"kind": "dodge"}]}
    begin(f, plan)
    first = f.act("a", [2] * 3)  # a miss: no success to oppose, the dodge is still spent
    assert first.one(ConditionSet).condition == "prone" and f["t"].conditions["prone"]
    assert rolled(f.act("a", [2] * 2))[1] == 7


def test_V_DEF_4_dodging_gunfire_into_the_cover_named() -> None:
    """V-DEF-4: the dodge names the cover it dives behind (a wall, 2): later shots at +2."""
    f = duel("weapons: [heavy_revolver]", "dexterity: 3, dodge: 2")
    plan = {"a": [attack("shoot", "t"), attack("shoot", "t")], "t": [{"kind": "dodge", "cover": 2}]}
    begin(f, plan)
    assert f.act("a", [2] * 3).one(CoverTaken).level == 2
    assert rolled(f.act("a", [2] * 2))[1] == 8


# ------------------------------------------------------------------ V-RNG-4 two weapons

TWO_GUNS = "weapons: [heavy_revolver, light_revolver], firearms: 3"


def test_V_RNG_4_two_weapons_multiple_action_and_off_hand() -> None:
    """V-RNG-4: two guns are a multiple action (−2 then −3 dice on Dex 3 + Firearms 3);
    the off hand (the gun not in hand) shoots at +1; recoil adds nothing more (reading)."""
    f = duel(TWO_GUNS)
    begin(f, {"a": [attack("shoot", "t"), attack("shoot", "t", weapon="light_revolver")]})
    f.act("t")
    assert rolled(f.act("a", [2] * 4)) == (4, 6)
    off = f.act("a", [2] * 3)
    assert rolled(off) == (3, 7) and "V-RNG-4" in off.one(AttackRolled).rules
    assert (f["a"].ammo["heavy_revolver"], f["a"].ammo["light_revolver"]) == (5, 5)


def test_V_RNG_4_ambidextrous_has_no_off_hand() -> None:
    """V-RNG-4: an ambidextrous shooter suffers no off-hand penalty."""
    f = duel(TWO_GUNS + ", ambidextrous: true")
    begin(f, {"a": [attack("shoot", "t"), attack("shoot", "t", weapon="light_revolver")]})
    f.act("t")
    f.act("a", [2] * 4)
    assert rolled(f.act("a", [2] * 3)) == (3, 6)


def test_V_RNG_4_off_hand_named() -> None:
    """V-RNG-4: the player may say which shot is the off hand's (``off_hand``)."""
    f = duel(TWO_GUNS)
    plan = [
        attack("shoot", "t", off_hand=True),
        attack("shoot", "t", weapon="light_revolver", off_hand=False),
    ]
    begin(f, {"a": plan})
    f.act("t")
    assert rolled(f.act("a", [2] * 4))[1] == 7
    assert rolled(f.act("a", [2] * 3))[1] == 6


def test_V_RNG_4_each_weapon_limited_by_its_rate() -> None:
    """V-RNG-4: the heavy revolver (rate 2) fires at most twice, the light one (3) three times."""
    f = duel(TWO_GUNS + ", dexterity: 5")
    f.initiative(5, 5)
    f.declare("t", {"kind": "other"})
    light = attack("shoot", "t", weapon="light_revolver")
    err = refused(f, f.declare, "a", *[attack("shoot", "t")] * 3, light)
    assert err.rule == "V-RNG-4"
    f.declare("a", *[attack("shoot", "t")] * 2, light, light)


def test_V_RNG_4_two_hands_at_most_and_no_crew_served_gun() -> None:
    """V-RNG-4: three guns are refused; a crew-served machine gun is no second weapon."""
    f = duel("weapons: [heavy_revolver, light_revolver, derringer]")
    f.initiative(5, 5)
    f.declare("t", {"kind": "other"})
    shots = [attack("shoot", "t", weapon=w) for w in ("heavy_revolver", "light_revolver")]
    err = refused(f, f.declare, "a", *shots, attack("shoot", "t", weapon="derringer"))
    assert err.rule == "V-RNG-4"
    g = duel("weapons: [heavy_revolver, gatling_gun]")
    g.initiative(5, 5)
    g.declare("t", {"kind": "other"})
    err = refused(
        g, g.declare, "a", attack("shoot", "t"), attack("full_auto", "t", weapon="gatling_gun")
    )
    assert err.rule == "V-RNG-4"


# ------------------------------------------------------------------ V-RNG-6 burst, V-ERA-1


def test_V_RNG_6_three_round_burst_uses_three_rounds() -> None:
    """V-RNG-6: +2 dice, +1 difficulty, three rounds (31 → 28); damage from the weapon."""
    f = duel("weapons: [small_smg]", head="era: modern")
    events = shot(f, {"a": [attack("three_round_burst", "t")]}, [7, 2, 2, 2, 2, 2, 2] + [2] * 4)
    assert rolled(events) == (7, 7)
    assert events.one(AmmoChanged).rounds == 28 and events.one(DamageRolled).pool == 4


def test_V_RNG_6_burst_needs_three_rounds() -> None:
    """V-RNG-6: two rounds left are not a burst."""
    f = duel("weapons: [small_smg], ammo: {small_smg: 2}", head="era: modern")
    f.initiative(5, 5)
    f.declare("t", {"kind": "other"})
    assert refused(f, f.declare, "a", attack("three_round_burst", "t")).rule == "V-RNG-6"


def test_V_ERA_1_no_submachine_gun_in_1899() -> None:
    """V-ERA-1: in 1899 the hand-held submachine gun does not exist yet."""
    with pytest.raises(ConteurError) as err:
        duel("weapons: [small_smg]")
    assert err.value.rule == "V-ERA-1"


def test_V_ERA_1_V_RNG_6_no_burst_in_1899() -> None:
    """V-ERA-1, V-RNG-6: 1899's automatic weapons are machine guns with no burst option."""
    f = duel("weapons: [gatling_gun]", metres=50)
    f.initiative(5, 5)
    f.declare("t", {"kind": "other"})
    err = refused(f, f.declare, "a", attack("three_round_burst", "t"))
    assert err.rule == "V-RNG-6" and "1899" in err.message("en")
    assert refused(f, f.declare, "a", attack("shoot", "t")).rule == "V-ATK-1"


def test_V_ERA_1_machine_guns_spray_and_fire_full_auto_in_1899() -> None:
    """V-ERA-1: the Gatling gun (crew-served) sprays and fires full auto in 1899."""
    f = scene(
        flow(SHOOTER, "weapons: [gatling_gun]"),
        "id: b, side: y, position: [40, 0], wits: 1",
        "id: c, side: y, position: [41, 0], wits: 1",
    )
    plan = {"a": [{"kind": "spray", "target": "b", "targets": ["c"]}]}
    events = shot(f, plan, [2] * 15)
    assert rolled(events) == (15, 8) and f["a"].ammo["gatling_gun"] == 0
    g = duel("weapons: [gatling_gun]", metres=40)
    assert rolled(shot(g, {"a": [attack("full_auto", "t")]}, [2] * 15)) == (15, 8)


# ------------------------------------------------------------------ V-RNG-7 reload, ammunition


def test_ammunition_every_shot_spends_a_round_carried_in_and_out() -> None:
    """V-RNG-7, ammunition: the scenario's rounds (2) come in, a shot spends one, the fight
    ends with 1 (end state)."""
    f = scene(
        flow(SHOOTER, "weapons: [heavy_revolver], ammo: {colt: 2}"),
        "id: t, side: y, position: [10, 0], wits: 1",
    )
    events = shot(f, {"a": [attack("shoot", "t")]}, [2] * 5)
    changed = events.one(AmmoChanged)
    assert (changed.weapon, changed.rounds) == ("heavy_revolver", 1)
    assert f.encounter.end_state()["a"]["ammo"] == {"heavy_revolver": 1}
    assert f.encounter.rebuild().fighters["a"].ammo == {"heavy_revolver": 1}


def test_V_RNG_7_an_empty_clip_refuses_the_shot() -> None:
    """V-RNG-7: with the clip empty the shot is refused (reload first); reload then shoot
    is a multiple action: 6 rounds, one spent."""
    f = duel("weapons: [heavy_revolver], ammo: {heavy_revolver: 0}")
    f.initiative(5, 5)
    f.declare("t", {"kind": "other"})
    err = refused(f, f.declare, "a", attack("shoot", "t"))
    assert err.rule == "V-RNG-7" and "vide" in err.message("fr")
    f.declare("a", {"kind": "reload"}, attack("shoot", "t"))
    f.act("t")
    assert f.act("a").one(AmmoChanged).rounds == 6
    shot_events = f.act("a", [2] * 2)  # second of two actions: 5 − 3
    assert rolled(shot_events)[0] == 2 and f["a"].ammo["heavy_revolver"] == 5


def test_V_RNG_7_an_empty_clip_refuses_a_delayed_shot() -> None:
    """V-RNG-7: a delayed shot from an empty clip is refused when taken; nothing changes."""
    f = duel("weapons: [heavy_revolver], ammo: {heavy_revolver: 0}")
    begin(f, {"a": {"delay": True}})
    err = refused(f, f.act, "a", [2] * 5, kind="shoot", target="t")
    assert err.rule == "V-RNG-7" and f["a"].ammo["heavy_revolver"] == 0


def test_V_RNG_7_reloading_takes_the_turn() -> None:
    """V-RNG-7: a reload is the turn's action: the revolver is full again."""
    f = duel("weapons: [heavy_revolver], ammo: {heavy_revolver: 1}")
    begin(f, {"a": [{"kind": "reload"}]})
    assert f.act("a").one(AmmoChanged).rounds == 6


def test_V_RNG_7_a_chambered_round_stays() -> None:
    """V-RNG-7: a light pistol (17+1) reloaded with a round chambered holds 18, from empty 17."""
    for left, full in ((3, 18), (0, 17)):
        f = duel(f"weapons: [light_pistol], ammo: {{light_pistol: {left}}}", head="era: modern")
        begin(f, {"a": [{"kind": "reload"}]})
        assert f.act("a").one(AmmoChanged).rounds == full


def test_V_RNG_7_a_crossbow_reloads_in_five_turns() -> None:
    """V-RNG-7: slow weapons take their table's turns (a crossbow 5); the last loads it."""
    f = duel("weapons: [crossbow], ammo: {crossbow: 0}")
    for turn in range(1, 5):
        begin(f, {"a": [{"kind": "reload"}]})
        progress = f.act("a").one(ReloadProgress)
        assert (progress.turns, progress.needed) == (turn, 5)
        assert f"turn {turn} of 5" in progress.describe("en")
        assert f["a"].ammo["crossbow"] == 0
        finish(f)
    begin(f, {"a": [{"kind": "reload"}]})
    assert f.act("a").one(AmmoChanged).rounds == 1 and "reloading" not in f["a"].conditions


def test_V_RNG_7_reload_needs_a_weapon_with_a_clip() -> None:
    """V-RNG-7: nothing to reload with a knife alone."""
    f = duel("weapons: [knife]")
    f.initiative(5, 5)
    f.declare("t", {"kind": "other"})
    assert refused(f, f.declare, "a", {"kind": "reload"}).rule == "V-RNG-7"


# ------------------------------------------------------------------ V-RNG-8 full auto


def test_V_RNG_8_full_auto_empties_the_clip_into_one_damage_roll() -> None:
    """V-RNG-8: +10 dice, +2 difficulty, the whole clip; successes add to one damage roll as
    for a single bullet (V-DMG-1: 4 successes → 4 + 3 dice)."""
    f = duel("weapons: [small_smg]", head="era: modern")
    events = shot(f, {"a": [attack("full_auto", "t")]}, [8] * 4 + [2] * 11 + [2] * 7)
    assert rolled(events) == (15, 8)
    assert events.one(DamageRolled).pool == 7 and f["a"].ammo["small_smg"] == 0


def test_V_RNG_8_option_every_success_adds_a_die() -> None:
    """V-RNG-8 option ``auto_fire_every_success``: 4 successes → 4 + 4 dice."""
    f = duel("weapons: [small_smg]", head="era: modern\noptions: {auto_fire_every_success: true}")
    events = shot(f, {"a": [attack("full_auto", "t")]}, [8] * 4 + [2] * 11 + [2] * 8)
    assert events.one(DamageRolled).pool == 8


def test_V_RNG_8_only_with_the_clip_at_least_half_full() -> None:
    """V-RNG-8: a 30-round clip needs 15 rounds left: 14 is refused, 15 fires."""
    for rounds, allowed in ((14, False), (15, True)):
        f = duel(f"weapons: [small_smg], ammo: {{small_smg: {rounds}}}", head="era: modern")
        f.initiative(5, 5)
        f.declare("t", {"kind": "other"})
        if allowed:
            f.declare("a", attack("full_auto", "t"))
        else:
            assert refused(f, f.declare, "a", attack("full_auto", "t")).rule == "V-RNG-8"


def test_V_RNG_8_no_targeting_and_needs_an_automatic_weapon() -> None:
    """V-RNG-8: full auto cannot aim at a part of the body; a revolver cannot fire full auto."""
    f = duel("weapons: [small_smg]", head="era: modern")
    f.initiative(5, 5)
    f.declare("t", {"kind": "other"})
    err = refused(f, f.declare, "a", attack("full_auto", "t", location="head"))
    assert err.rule == "V-RNG-8"
    g = duel("weapons: [heavy_revolver]")
    g.initiative(5, 5)
    g.declare("t", {"kind": "other"})
    assert refused(g, g.declare, "a", attack("full_auto", "t")).rule == "V-RNG-8"


# ------------------------------------------------------------------ V-RNG-9 multiple shots


def test_V_RNG_9_multiple_shots_lose_dice_cumulatively() -> None:
    """V-RNG-9: three shots: the first loses 3 dice, then 4, then 5 (Dex 4 + Firearms 3)."""
    f = duel("dexterity: 4, firearms: 3, weapons: [light_revolver]", metres=5)
    begin(f, {"a": [attack("shoot", "t")] * 3})
    f.act("t")
    pools = [rolled(f.act("a", [2] * n))[0] for n in (4, 3, 2)]
    assert pools == [4, 3, 2] and f["a"].ammo["light_revolver"] == 3


def test_V_RNG_9_multiple_shots_word_and_single_shot_weapons() -> None:
    """V-RNG-9: ``multiple_shots`` names the shots of a multiple action; a rifle (rate 1)
    fires once a turn."""
    f = duel("weapons: [light_revolver]")
    begin(f, {"a": [attack("multiple_shots", "t")] * 2})
    f.act("t")
    assert rolled(f.act("a", [2] * 3))[0] == 3
    g = duel("weapons: [rifle]", metres=50)
    g.initiative(5, 5)
    g.declare("t", {"kind": "other"})
    assert refused(g, g.declare, "a", *[attack("shoot", "t")] * 2).rule == "V-RNG-9"
    assert refused(g, g.declare, "a", attack("multiple_shots", "t")).rule == "V-RNG-9"


def test_V_ATK_1_a_shot_needs_a_firearm_a_throw_a_thrown_weapon() -> None:
    """V-ATK-1: shooting a throwing knife, or throwing a revolver, is refused; the right
    weapon carried is taken."""
    f = duel("athletics: 2, weapons: [thrown_knife, heavy_revolver]")
    events = shot(f, {"a": [attack("shoot", "t")]}, [2] * 5)
    assert events.one(AmmoChanged).weapon == "heavy_revolver"
    g = duel("weapons: [heavy_revolver]")
    g.initiative(5, 5)
    g.declare("t", {"kind": "other"})
    throw = {"kind": "throw", "target": "t", "weapon": "heavy_revolver"}
    assert refused(g, g.declare, "a", throw).rule == "V-ATK-1"


def test_V_RNG_1_V_RNG_2_aim_spray_and_rounds_replay_from_the_log() -> None:
    """V-RNG-1, V-RNG-2: the events of aiming, spraying and reloading fold back into the same
    state from the stored log; undo gives the rounds back."""
    f = scene(*ZONE, head="era: modern")
    aim_turns(f, 1, target="b")
    shot(f, {"a": [spray(leftovers=["c"])]}, SEVEN + [2] * 5 + [2] * 6 + [2] * 5)
    replayed = Encounter.replay(f.encounter.scenario, f.encounter.log_dicts())
    for fid, fighter in f.state.fighters.items():
        again = replayed.state.fighters[fid]
        assert (again.ammo, again.conditions, again.health.boxes) == (
            fighter.ammo,
            fighter.conditions,
            fighter.health.boxes,
        )
    f.encounter.undo()
    assert f["a"].ammo["small_smg"] == 31 and f["a"].conditions["aim"]["turns"] == 1
