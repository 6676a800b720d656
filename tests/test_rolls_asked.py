"""Each roll asked in turn: ``RollAsk``, ``TableDice``/``RollNeeded``, ``next_roll``, and the
asks of every ruleset's roll sites, roll by roll, with the faces a table would throw."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conteur.dice import TypedDice
from conteur.dice.asks import RollAsk, added_to, auto_successes, difficulty
from conteur.dice.table import RollNeeded, TableDice
from conteur.engine import Command, EventList
from conteur.engine.plan import next_roll
from conteur.i18n import ConteurError, Msg
from conteur.rulesets.hunter.dice import HunterPool
from conteur.rulesets.hunter.events import HunterAttackRolled
from conteur.rulesets.vtm.asks import parts
from conteur.rulesets.vtm.dice import VtmPool
from conteur.rulesets.vtm.events import InitiativeRolled
from hunter.fight import Fight as HunterFight
from hunter.fight import sheet
from vtm.fight import Fight as VtmFight
from vtm.fight import attack
from western.fight import Fight as WesternFight
from western.fight import gunman

# ------------------------------------------------------------------ RollAsk


def test_describe_says_the_pool_its_parts_and_the_difficulty_in_both_languages() -> None:
    ask = RollAsk(
        who="jack",
        what=Msg("ask.what.attack", name="Jack"),
        breakdown=(
            (Msg("vtm.trait.dexterity"), 3),
            (Msg("vtm.trait.firearms"), 3),
            (Msg("word.aim"), 1),
            (Msg("word.wounds"), -1),
        ),
        detail=difficulty(6),
    )
    assert ask.count == 6
    assert ask.describe("fr") == (
        "Dextérité 3 + Armes à feu 3 + visée 1 − blessures 1 = 6 dés, difficulté 6"
    )
    assert (
        ask.describe("en") == "Dexterity 3 + Firearms 3 + aim 1 − wounds 1 = 6 dice, difficulty 6"
    )


def test_describe_one_die_an_automatic_success_and_a_bare_ask() -> None:
    one = RollAsk(
        who=None,
        what=Msg("ask.what.soak", name="Bill"),
        breakdown=((Msg("ask.part.soak"), 1), auto_successes(1, Msg("vtm.trait.willpower"))),
    )
    # One part that is the whole pool is said once, not « dés d'encaissement 1 = 1 dé ».
    assert one.describe("fr") == "dés d'encaissement (1 dé), 1 succès automatique (Volonté)"
    assert one.describe("en") == "soak dice (1 die), 1 automatic success (Willpower)"
    unnamed = RollAsk(who=None, what=Msg("ask.what.soak", name="Bill"), breakdown=parts((), 3))
    assert unnamed.describe("fr") == "3 dés"  # no named part: not « autres modificateurs 3 »
    assert unnamed.describe("en") == "3 dice"
    bare = RollAsk(who="mary", what=Msg("ask.what.initiative", name="Mary"))
    assert bare.describe("fr") == "initiative de Mary"
    assert bare.title("en") == "Mary's initiative"


# ------------------------------------------------------------------ TableDice


def test_a_roll_takes_its_own_list_and_asks_for_what_is_missing() -> None:
    dice = TableDice([[6, 2, 8], [1]])
    assert dice.roll(VtmPool(3, 6)).result.successes == 2
    ask = RollAsk(who="bill", what=Msg("ask.what.soak", name="Bill"))
    with pytest.raises(RollNeeded) as caught:
        dice.roll(VtmPool(3, 6), ask)
    need = caught.value
    assert (need.index, need.wave, need.count, need.sides) == (1, 0, 2, 10)
    assert need.ask is ask and need.faces_so_far == (1,)
    assert need.message("fr") == "Il faut le jet « encaissement de Bill » : 2 dés"
    assert need.message("en") == 'The roll "Bill\'s soak" is needed: 2 dice'
    assert isinstance(need, ConteurError)


def test_a_ten_again_pool_asks_its_rerolls_as_a_second_wave() -> None:
    pool = HunterPool(3)
    with pytest.raises(RollNeeded) as first:
        TableDice([[]]).roll(pool)
    assert (first.value.wave, first.value.count) == (0, 3)
    with pytest.raises(RollNeeded) as second:
        TableDice([[10, 3, 10]]).roll(pool)
    assert (second.value.wave, second.value.count) == (1, 2)
    assert "relance n° 1" in second.value.message("fr")
    with pytest.raises(RollNeeded) as third:
        TableDice([[10, 3, 10, 10, 2]]).roll(pool)
    assert (third.value.wave, third.value.count) == (2, 1)
    record = TableDice([[10, 3, 10, 10, 2, 4]]).roll(pool)
    assert record.result.successes == 3


def test_a_bad_face_or_too_many_faces_is_refused_naming_the_roll() -> None:
    ask = RollAsk(who="jack", what=Msg("ask.what.attack", name="Jack"))
    with pytest.raises(ConteurError) as bad:
        TableDice([[6, 11]]).roll(VtmPool(2, 6), ask)
    assert bad.value.key == "dice.table.bad_face"
    assert "attaque de Jack" in bad.value.message("fr") and "11" in bad.value.message("fr")
    with pytest.raises(ConteurError) as many:
        TableDice([[6, 6, 6]]).roll(VtmPool(2, 6), ask)
    assert many.value.key == "dice.table.too_many"
    assert many.value.message("en") == (
        'roll "Jack\'s attack": too many dice typed in (3), the roll uses only 2 dice'
    )


def test_a_roll_of_no_die_is_not_counted_and_a_zero_reads_ten() -> None:
    dice = TableDice([[0]])
    assert dice.roll(VtmPool(0, 6)).faces == ()
    assert dice.roll(VtmPool(1, 6)).faces == (10,)
    dice.check_all_used()
    with pytest.raises(ConteurError) as extra:
        TableDice([[1], [2]]).check_all_used()
    assert extra.value.key == "dice.table.extra_rolls"


# ------------------------------------------------------------------ next_roll, roll by roll


def asked_in_turn(encounter: Any, command: Command, faces: list[list[int]]) -> list[RollNeeded]:
    """Every roll ``command`` asks, feeding ``faces`` one list at a time; then it is complete."""
    asked: list[RollNeeded] = []
    rolls: list[list[int]] = []
    for answer in faces:
        need = next_roll(encounter, command, rolls)
        assert need is not None, f"no roll asked after {rolls}"
        asked.append(need)
        if need.wave:
            rolls[-1] = rolls[-1] + answer
        else:
            rolls.append(answer)
    assert next_roll(encounter, command, rolls) is None
    encounter.execute(command, TableDice(rolls))
    return asked


VTM_A = (
    "{id: a, name: Jack, side: x, position: [0, 0], wits: 5, dexterity: 3, brawl: 2, strength: 2}"
)
VTM_T = (
    "{id: t, name: Bill, side: y, position: [1, 0], wits: 1, dexterity: 3, brawl: 1, stamina: 1}"
)


def test_vtm_attack_with_a_block_is_asked_attack_block_damage_soak() -> None:
    f = VtmFight(f"combatants:\n  - {VTM_A}\n  - {VTM_T}\n")
    f.initiative(10, 1)
    f.declare("t", {"kind": "block"})
    f.declare("a", attack("punch", "t"))
    before = f.encounter.state
    plan = next_roll(f.encounter, Command("act", "a", {}), [])
    assert plan is not None and f.encounter.state is before
    asked = asked_in_turn(
        f.encounter, Command("act", "a", {}), [[6, 6, 6, 2, 2], [6, 2, 2, 2], [6, 6, 2], [2]]
    )
    got = [
        (n.index, n.ask and n.ask.who, n.count, n.ask and n.ask.what.describe("fr")) for n in asked
    ]
    assert got == [
        (0, "a", 5, "attaque de Jack"),
        (1, "t", 4, "blocage de Bill"),
        (2, "a", 3, "dégâts sur Bill"),
        (3, "t", 1, "encaissement de Bill"),
    ]
    lines = [n.ask.describe("fr") for n in asked if n.ask]
    assert lines == [
        "Dextérité 3 + Bagarre 2 = 5 dés, difficulté 6",
        "Dextérité 3 + Bagarre 1 = 4 dés, difficulté 6",
        "Force 2 + succès en plus 1 = 3 dés, difficulté 6",
        "Vigueur (1 dé), difficulté 6",
    ]
    assert asked[0].ask is not None and asked[0].ask.breakdown[0][1] == 3


def test_vtm_initiative_asks_one_roll_per_named_fighter() -> None:
    f = VtmFight(f"combatants:\n  - {VTM_A}\n  - {VTM_T}\n")
    asked = asked_in_turn(f.encounter, Command("initiative", None, {}), [[10], [1]])
    assert [(n.ask and n.ask.who, n.count) for n in asked] == [("a", 1), ("t", 1)]
    assert [n.ask.what.describe("en") for n in asked if n.ask] == [
        "Jack's initiative",
        "Bill's initiative",
    ]


def test_vtm_initiative_asks_say_the_rating_trait_by_trait_with_the_wound_penalty() -> None:
    """V-INI-1: each request names Dex + Wits with the fighter's numbers, then the d10; a
    wounded fighter's penalty comes off in words; the logged total is the sum said."""
    hurt = VTM_T.replace("stamina: 1}", "stamina: 1, health: [lethal, lethal]}")
    f = VtmFight(f"combatants:\n  - {VTM_A}\n  - {hurt}\n")
    command = Command("initiative", None, {})
    asked = asked_in_turn(f.encounter, command, [[7], [4]])
    assert [n.ask.describe("fr") for n in asked if n.ask] == [
        "1 dé, Dextérité 3 + Astuce 5 + 1D10",
        "1 dé, Dextérité 3 + Astuce 1 − blessures 1 + 1D10",
    ]
    assert [n.ask.describe("en") for n in asked if n.ask] == [
        "1 die, Dexterity 3 + Wits 5 + 1D10",
        "1 die, Dexterity 3 + Wits 1 − wounds 1 + 1D10",
    ]
    rolled = {
        e.fighter: e.total for e in EventList(f.encounter.log[-1].events).of(InitiativeRolled)
    }
    assert rolled == {"a": 3 + 5 + 7, "t": 3 + 1 - 1 + 4}


def test_hunter_initiative_asks_say_dexterity_and_composure_with_the_fighters_dots() -> None:
    """H-INI-1: d10 + Dexterity + Composure, each trait named with its dots."""
    f = HunterFight(sheet("a", name="Ana", dexterity=4, composure=1), sheet("b", name="Bo"))
    asked = asked_in_turn(f.encounter, Command("initiative", None, {}), [[9], [2]])
    assert [(n.ask and n.ask.who, n.count) for n in asked] == [("a", 1), ("b", 1)]
    assert [n.ask.describe("fr") for n in asked if n.ask] == [
        "1 dé, Dextérité 4 + Sang-froid 1 + 1D10",
        "1 dé, Dextérité 3 + Sang-froid 2 + 1D10",
    ]
    assert asked[0].ask is not None
    assert asked[0].ask.describe("en") == "1 die, Dexterity 4 + Composure 1 + 1D10"
    assert f["a"].initiative == 4 + 1 + 9 and f["b"].initiative == 3 + 2 + 2


def test_a_sum_said_before_a_die_keeps_a_zero_and_a_true_minus() -> None:
    ask = RollAsk(
        who="x",
        what=Msg("ask.what.initiative", name="X"),
        detail=added_to("1D10", ((Msg("vtm.trait.dexterity"), 0), (Msg("word.wounds"), -2))),
        dice=1,
    )
    assert ask.describe("fr") == "1 dé, Dextérité 0 − blessures 2 + 1D10"
    first = added_to("1D10", ((Msg("word.wounds"), -1),))
    assert first.describe("en") == "wounds \u22121 + 1D10"
    assert added_to("1D10", ()).describe("fr") == "1D10"


def test_hunter_attack_asks_its_ten_again_as_a_second_wave_with_defense_in_the_breakdown() -> None:
    f = HunterFight(
        sheet("a", name="Ana", strength=3, brawl=2), sheet("b", name="Bo", dexterity=2, wits=2)
    )
    f.start(9, 1)
    command = Command("act", "a", {"kind": "attack", "target": "b"})
    asked = asked_in_turn(f.encounter, command, [[10, 3, 2], [8]])
    assert [(n.index, n.wave, n.count) for n in asked] == [(0, 0, 3), (0, 1, 1)]
    ask = asked[0].ask
    assert ask is not None and ask.who == "a"
    assert ask.describe("fr") == (
        "Force 3 + Mains nues 2 − Défense de Bo 2 = 3 dés, succès sur 8+, relance des 10"
    )


def test_hunter_chance_die_is_said_as_such() -> None:
    f = HunterFight(sheet("a", strength=1, brawl=0), sheet("b", dexterity=4, wits=4))
    f.start(9, 1)
    need = next_roll(f.encounter, Command("act", "a", {"kind": "attack", "target": "b"}), [])
    assert need is not None and need.ask is not None and need.count == 1
    # The parts come to −3: said, then the one die thrown (not « = 1 dé » after a −3 sum).
    assert need.ask.describe("fr") == (
        "Force 1 − Défense de b 4 = −3 → 1 dé, dé de chance : seul un 10 réussit (et se relance),"
        " un 1 est un échec dramatique"
    )
    assert need.ask.describe("en").startswith("Strength 1 − b's Defense 4 = −3 → 1 die, chance die")
    # The log line says the chance die too, not « -3 dés ».
    line = f.act("a", target="b", dice=[3]).one(HunterAttackRolled)
    assert line.describe("fr").startswith("a → b, mains nues : dé de chance (réserve −3) [")
    assert line.describe("en").startswith("a → b, unarmed: chance die (pool −3) [")


def test_western_shot_asks_its_d100_then_its_location() -> None:
    f = WesternFight(gunman("bill", x=0), gunman("joe", x=10))
    f.round()
    command = Command("attack", "bill", {"target": "joe"})
    asked = asked_in_turn(f.encounter, command, [[30], [20], [5]])
    assert [(n.sides, n.ask and n.ask.who) for n in asked] == [
        (100, "bill"),
        (100, "bill"),
        (8, "bill"),
    ]
    assert [n.ask.what.describe("fr") for n in asked if n.ask] == [
        "tir de Bill",
        "localisation du coup sur Joe",
        "dégâts sur Joe",
    ]
    first = asked[0].ask
    assert first is not None
    assert first.describe("fr") == "1 dé, 1D100 sous 56 % (tir visé au pistolet 56 %)"
    assert first.describe("en") == "1 die, 1D100 under 56% (aimed pistol 56%)"


def test_western_aimed_shot_gives_its_percentage_part_by_part() -> None:
    f = WesternFight(gunman("bill", x=0), gunman("joe", x=10))
    f.round()
    need = next_roll(f.encounter, Command("attack", "bill", {"target": "joe", "zone": "head"}), [])
    assert need is not None and need.ask is not None
    assert (
        need.ask.describe("fr") == "1 dé, 1D100 sous 16 % (tir visé au pistolet 56 % − tête 40 %)"
    )
    assert need.ask.describe("en") == "1 die, 1D100 under 16% (aimed pistol 56% − head 40%)"


# ------------------------------------------------------------------ the same faces, flat or per roll

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p for p in (ROOT / "examples").rglob("*.dice") if p.with_suffix(".txt").exists())


class Recording(TypedDice):
    """Typed dice that also keep each roll's faces, one list per roll."""

    def __init__(self, faces: Any) -> None:
        super().__init__(faces)
        self.rolls: list[list[int]] = []

    def roll(self, request: Any, ask: RollAsk | None = None) -> Any:
        record = super().roll(request, ask)
        if record.faces:
            self.rolls.append(list(self.faces[self.position - len(record.faces) : self.position]))
        return record

    def reset(self, mark: object) -> None:
        super().reset(mark)
        while self.rolls and sum(map(len, self.rolls)) > self.position:
            self.rolls.pop()


@pytest.mark.parametrize("dice_file", EXAMPLES, ids=lambda p: p.stem)
def test_the_same_faces_flat_or_one_list_per_roll_give_the_same_fight(dice_file: Path) -> None:
    from conteur.engine.script import play_script, script_lines, start, typed_dice

    scenario = dice_file.with_suffix(".yaml")
    lines = script_lines(dice_file.with_suffix(".txt"))
    flat = typed_dice(dice_file)
    assert isinstance(flat, TypedDice)
    recording = Recording(flat.faces)
    first = start(scenario)
    play_script(first, lines, recording, "fr")
    second = start(scenario)
    table = TableDice(recording.rolls)
    play_script(second, lines, table, "fr")
    assert second.log_dicts() == first.log_dicts()
    assert len(table.asked) == len(recording.rolls)
    unasked = [record.request.describe("en") for record, ask in table.asked if ask is None]
    assert not unasked, "rolls made without a RollAsk"
    for _, ask in table.asked:
        assert ask is not None and ask.describe("fr") and ask.describe("en")


def test_vtm_willpower_success_and_the_difficultys_reason_are_said() -> None:
    shooter = (
        "{id: a, name: Jack, side: x, position: [0, 0], wits: 5, dexterity: 3, firearms: 3,"
        " willpower: 5, weapons: [light_revolver]}"
    )
    f = VtmFight(f"combatants:\n  - {shooter}\n  - {VTM_T}\n")
    f.initiative(10, 1)
    f.declare("t", {"kind": "dodge"})
    f.declare("a", attack("shoot", "t"), willpower=True)
    need = next_roll(f.encounter, Command("act", "a", {}), [])
    assert need is not None and need.ask is not None and need.count == 6
    assert need.ask.describe("fr") == (
        "Dextérité 3 + Armes à feu 3 = 6 dés, 1 succès automatique (Volonté),"
        " difficulté 4 : bout portant −2"
    )
    assert need.ask.describe("en") == (
        "Dexterity 3 + Firearms 3 = 6 dice, 1 automatic success (Willpower),"
        " difficulty 4: point blank −2"
    )
