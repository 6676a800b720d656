"""H-XP-2 counters kept on each hunter during a fight, carried in from the sheet and out by
``end_state`` (so that the store accumulates them over a session's encounters)."""

from __future__ import annotations

import pytest

from conteur.i18n import ConteurError
from conteur.rulesets.hunter.events import HunterXpReset
from conteur.rulesets.hunter.summary import summary, summary_lines

from .fight import Fight, roll, sheet

MONSTER = {"kind": "monstre", "dexterity": 0, "stamina": 5}
FIVE_SUCCESSES = [8, 8, 9, 8, 9, 2, 3]  # Strength 5 + Brawl 2: seven dice, five successes
DRAMATIC = [1, 5, 7, 3, 2]  # Strength 3 + Brawl 2 against Defense 0: no success and a 1


def duel(attacker: dict[str, object], target: dict[str, object]) -> Fight:
    f = Fight(attacker, target)
    f.start(9, 1)
    return f


def counters(f: Fight, fid: str) -> dict[str, int]:
    return dict(f.encounter.end_state()[fid]["xp_counters"])


def test_H_XP_2_an_exceptional_success_directly_against_a_monster_counts() -> None:
    f = duel(sheet("a", strength=5), sheet("m", **MONSTER))
    assert roll(f.act("a", target="m", dice=FIVE_SUCCESSES)).exceptional
    assert counters(f, "a") == {"exceptional_vs_monster": 1, "dramatic_failures": 0}


def test_H_XP_2_an_exceptional_success_against_a_human_does_not_count() -> None:
    f = duel(sheet("a", strength=5), sheet("h", kind="passant", dexterity=0, stamina=5))
    assert roll(f.act("a", target="h", dice=FIVE_SUCCESSES)).exceptional
    assert counters(f, "a") == {"exceptional_vs_monster": 0, "dramatic_failures": 0}


def test_H_XP_2_a_hunters_dramatic_failure_counts_and_a_monsters_does_not() -> None:
    f = duel(sheet("a"), sheet("m", **MONSTER))
    assert roll(f.act("a", target="m", dice=DRAMATIC)).dramatic
    assert counters(f, "a") == {"exceptional_vs_monster": 0, "dramatic_failures": 1}
    assert "xp_counters" not in f.encounter.end_state()["m"]  # only hunters carry them
    assert roll(f.act("m", target="a", dice=[1, 2, 3])).dramatic  # 5 dice - Defense 2
    assert counters(f, "a")["dramatic_failures"] == 1


def test_H_XP_2_counters_start_from_the_sheet_french_or_english() -> None:
    carried = {"compteurs_xp": {"exceptionnels contre monstre": 2, "échecs dramatiques": 1}}
    f = duel(sheet("a", strength=5, **carried), sheet("m", **MONSTER))
    f.act("a", target="m", dice=FIVE_SUCCESSES)
    assert counters(f, "a") == {"exceptional_vs_monster": 3, "dramatic_failures": 1}
    g = Fight(sheet("a", xp_counters={"dramatic_failures": 4}), sheet("m", **MONSTER))
    assert counters(g, "a") == {"exceptional_vs_monster": 0, "dramatic_failures": 4}


@pytest.mark.parametrize(
    ("value", "field"),
    [
        ({"dramatic_failures": -1}, "dramatic_failures"),
        ({"dramatic_failures": "two"}, "dramatic_failures"),
        ({"botches": 1}, "xp_counters.botches"),
        (3, "xp_counters"),
    ],
)
def test_H_XP_2_a_bad_carried_counter_is_refused_naming_the_field(
    value: object, field: str
) -> None:
    with pytest.raises(ConteurError) as err:
        Fight(sheet("a", xp_counters=value), sheet("m", **MONSTER))
    assert err.value.params["field"] == field


def test_H_XP_2_an_undo_takes_the_counters_back() -> None:
    f = duel(sheet("a", strength=5), sheet("m", **MONSTER))
    f.act("a", target="m", dice=FIVE_SUCCESSES)
    assert counters(f, "a")["exceptional_vs_monster"] == 1
    f.encounter.undo()
    assert counters(f, "a")["exceptional_vs_monster"] == 0
    f.act("a", target="m", dice=DRAMATIC[:1] + [2, 3, 4, 5, 6, 7])
    assert counters(f, "a") == {"exceptional_vs_monster": 0, "dramatic_failures": 1}


def test_H_XP_2_the_summary_shows_the_counters_in_both_languages() -> None:
    f = duel(sheet("a", name="Ana"), sheet("m", **MONSTER))
    assert not any("XP" in line for line in summary_lines(f.state, "fr"))
    f.act("a", target="m", dice=DRAMATIC)
    assert summary(f.state)[0]["xp_counters"] == {
        "exceptional_vs_monster": 0,
        "dramatic_failures": 1,
    }
    assert "1 échec dramatique" in summary_lines(f.state, "fr")[0]
    assert "1 dramatic failure" in summary_lines(f.state, "en")[0]


def test_H_XP_2_the_gm_resets_a_hunters_counters_and_an_undo_brings_them_back() -> None:
    f = duel(sheet("a", xp_counters={"dramatic_failures": 3}), sheet("m", **MONSTER))
    ev = f.do("gm_xp_reset", fighter="a").one(HunterXpReset)
    assert ev.dramatic_failures == 3 and "H-XP-2" in ev.rules and "3" in ev.describe("fr")
    assert counters(f, "a") == {"exceptional_vs_monster": 0, "dramatic_failures": 0}
    f.encounter.undo()
    assert counters(f, "a")["dramatic_failures"] == 3


def test_H_XP_2_a_monster_has_no_counters_to_reset() -> None:
    f = duel(sheet("a"), sheet("m", **MONSTER))
    with pytest.raises(ConteurError) as err:
        f.do("gm_xp_reset", fighter="m")
    assert err.value.key == "hunter.gm.not_a_hunter" and err.value.rule == "H-XP-2"
    offered = [tp for tp in f.encounter.legal_commands() if tp.type == "gm_xp_reset"]
    assert offered[0].params[0].choices == ("a",)


@pytest.mark.parametrize("line", ["mj: xp-zéro a", "gm: xp-reset a"])
def test_H_XP_2_the_reset_in_the_script_language(line: str) -> None:
    f = duel(sheet("a"), sheet("m", **MONSTER))
    command = f.encounter.ruleset.parse_command(line, f.state)
    assert (command.type, command.actor, dict(command.args)) == (
        "gm_xp_reset",
        None,
        {"fighter": "a"},
    )
