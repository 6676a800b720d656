"""Knocking out (W-KO-1..5): stealth rolls, a heavy object, 1D20, 1D6 PV, 3D10 rounds."""

from __future__ import annotations

import pytest

from conteur.i18n import ConteurError
from conteur.rulesets.western.events import (
    Approached,
    KnockedOut,
    KnockOutHurt,
    KnockOutRolled,
    StealthNeeded,
    StealthRolled,
)

from .fight import Fight, gunman


def yard(guard_x: float = 15, **guard: object) -> Fight:
    """Bill (FORCE 12) and a guard (RÉSISTANCE 10) in a courtyard."""
    return Fight(gunman("bill"), gunman("guard", x=guard_x, **guard))


NIGHT = ["night", "silence", "few_hiding_places"]


def test_W_KO_1_bill_needs_two_stealth_rolls() -> None:
    """W-KO-1, the text's example: night −3, silence +2, few hiding places 0, 15 m +3 → 2."""
    f = yard()
    ev = f.do("approach", "bill", [10, 20], target="guard", modifiers=[*NIGHT, "distance_20m"])
    need = ev.one(StealthNeeded)
    assert need.needed == 2
    assert dict(need.modifiers) == {
        "night": -3,
        "silence": 2,
        "few_hiding_places": 0,
        "distance_20m": 3,
    }
    assert len(ev.of(StealthRolled)) == 2 and ev.one(Approached).success
    assert f["bill"].behind == "guard"


def test_W_KO_1_the_stealth_line_signs_its_modifiers_with_a_true_minus() -> None:
    """The night's −3 reads « −3 » (U+2212) in French and English, never ASCII « -3 »."""
    f = yard()
    ev = f.do("approach", "bill", [10, 20], target="guard", modifiers=[*NIGHT, "distance_20m"])
    line = ev.one(StealthNeeded)
    fr = line.describe("fr").split(" [", 1)[1].split("]", 1)[0]
    en = line.describe("en").split(" [", 1)[1].split("]", 1)[0]
    assert fr == "nuit \u22123, silence +2, peu de caches +0, 11 à 20 m +3"
    assert en == "night \u22123, silence +2, few hiding places +0, 11 to 20 m +3"


def test_W_KO_1_distance_read_from_positions() -> None:
    """W-KO-1: without a distance modifier, the distance between them picks the band (15 m: +3)."""
    f = yard()
    ev = f.do("approach", "bill", [10, 20], target="guard", modifiers=NIGHT)
    assert ev.one(StealthNeeded).needed == 2


def test_W_KO_1_at_least_one_roll() -> None:
    """W-KO-1 (reading): modifiers summing to 0 or less still need one stealth roll."""
    f = yard(guard_x=4)
    ev = f.do("approach", "bill", [10], target="guard", modifiers=["night", "victim_asleep"])
    assert ev.one(StealthNeeded).needed == 1


def test_W_KO_1_a_failed_roll_means_spotted() -> None:
    """W-KO-1 (reading): the first failed roll ends the approach; no knock-out then."""
    f = yard()
    ev = f.do("approach", "bill", [90], target="guard", modifiers=[*NIGHT, "distance_20m"])
    assert not ev.one(Approached).success and len(ev.of(StealthRolled)) == 1
    with pytest.raises(ConteurError) as err:
        f.do("knockout", "bill", [5, 3, 1, 1, 1], target="guard")
    assert err.value.key == "western.not_behind"


def test_W_KO_1_script_words_give_the_same_approach() -> None:
    """W-KO-1: ``approche garde : nuit, silence, peu de caches, 15 m``."""
    f = yard()
    cmd = f.encounter.ruleset.parse_command(
        "bill: approche guard : nuit, silence, peu de caches, 15 m", f.state
    )
    assert cmd.args["modifiers"] == [*NIGHT, "distance_20m"]


def test_W_KO_2_a_heavy_object_is_needed() -> None:
    """W-KO-2: a Bowie knife is not heavy enough; a revolver butt is."""
    f = yard(guard_x=1)
    f.do("approach", "bill", [10], target="guard", modifiers=["victim_asleep"])
    with pytest.raises(ConteurError) as err:
        f.do("knockout", "bill", [5, 3, 1, 1, 1], target="guard", weapon="bowie_knife")
    assert err.value.key == "western.not_heavy" and err.value.rule == "W-KO-2"
    ev = f.do("knockout", "bill", [5, 3, 1, 1, 1], target="guard", weapon="colt_saa")
    assert ev.one(KnockOutRolled).success


def behind(**guard: object) -> Fight:
    f = yard(guard_x=1, **guard)
    f.do("approach", "bill", [10], target="guard", modifiers=["victim_asleep"])
    return f


def test_W_KO_3_roll_at_or_under_force_plus_ten_minus_resistance() -> None:
    """W-KO-3: FORCE 12 + 10 − RÉSISTANCE 10 = 12: 12 knocks out, 13 does not."""
    f = behind()
    ev = f.do("knockout", "bill", [12, 3, 4, 5, 6], target="guard")
    ko = ev.one(KnockOutRolled)
    assert (ko.threshold, ko.face, ko.success) == (12, 12, True)
    g = behind()
    assert not g.do("knockout", "bill", [13, 3], target="guard").one(KnockOutRolled).success


def test_W_KO_3_option_strictly_under() -> None:
    """W-KO-3 (option): "sous" read as strictly under: 12 fails against 12."""
    f = Fight(gunman("bill"), gunman("guard", x=1), options={"ko_strictly_under": True})
    f.do("approach", "bill", [10], target="guard", modifiers=["victim_asleep"])
    assert not f.do("knockout", "bill", [12, 3], target="guard").one(KnockOutRolled).success


def test_W_KO_4_failure_still_costs_1d6() -> None:
    """W-KO-4: missed, the victim still loses 1D6 PV and stays awake."""
    f = behind()
    pv = f["guard"].pv
    ev = f.do("knockout", "bill", [18, 4], target="guard")
    assert ev.one(KnockOutHurt).pv_lost == 4 and f["guard"].pv == pv - 4
    assert not ev.of(KnockedOut) and f["guard"].fate == "alive"


def _play_out(f: Fight) -> None:
    """Every shot of the round let go."""
    while f.state.phase == "round":
        f.do("pass", f.state.due()[0])  # type: ignore[index]


def test_W_KO_4_success_unconscious_for_3d10_rounds() -> None:
    """W-KO-4: success: 1D6 PV and 3D10 = 4 rounds unconscious: rounds 1 to 4 spent out,
    one round off the count at the end of each, back in round 5."""
    f = behind()
    ev = f.do("knockout", "bill", [2, 3, 1, 1, 2], target="guard")
    assert ev.one(KnockedOut).rounds == 4 and f["guard"].fate == "unconscious"
    for turn, left in ((1, 3), (2, 2), (3, 1), (4, 0)):
        f.round()
        assert f.state.turn == turn and f["guard"].fate == "unconscious"
        assert all(fid != "guard" for fid, _ in f.state.slots)
        _play_out(f)
        assert f["guard"].unconscious == left
    f.round()
    assert f["guard"].fate == "alive" and any(fid == "guard" for fid, _ in f.state.slots)


def test_W_KO_4_three_rounds_before_the_fight_back_in_round_4() -> None:
    """W-KO-4: knocked out before the fight for 3D10 = 1 + 1 + 1 = 3 rounds: out in rounds
    1, 2 and 3, back (and shooting) in round 4."""
    f = behind()
    f.do("knockout", "bill", [2, 3, 1, 1, 1], target="guard")  # 1D20 2, 1D6 3, 3D10 3
    for _ in range(3):
        f.round()
        assert [fid for fid, _ in f.state.slots] == ["bill", "bill"]
        _play_out(f)
    f.round()
    assert f.state.turn == 4 and f["guard"].fate == "alive"
    assert "guard" in [fid for fid, _ in f.state.slots]


def test_W_KO_4_knocked_out_during_a_round_counts_that_round() -> None:
    """W-KO-4: a knock-out during round 1 for 3 rounds: the rest of round 1, rounds 2 and 3;
    back in round 4."""
    f = yard(guard_x=1)
    f.round()
    f.do("approach", "bill", [10], target="guard", modifiers=["victim_asleep"])
    f.do("knockout", "bill", [2, 3, 1, 1, 1], target="guard")
    assert all(fid != "guard" for fid, _ in f.state.slots[f.state.done :])
    _play_out(f)
    for _ in range(2):
        f.round()
        assert "guard" not in [fid for fid, _ in f.state.slots]
        _play_out(f)
    f.round()
    assert f["guard"].fate == "alive" and "guard" in [fid for fid, _ in f.state.slots]


def test_W_KO_5_helpless_victim_is_knocked_out_automatically() -> None:
    """W-KO-5: a tied prisoner: no approach, no 1D20; still 1D6 PV and 3D10 rounds (reading)."""
    f = yard(guard_x=1)
    f.do("bind", target="guard")
    ev = f.do("knockout", "bill", [2, 5, 5, 5], target="guard")
    ko = ev.one(KnockOutRolled)
    assert ko.automatic and ko.success and "W-KO-5" in ko.rules
    assert ev.one(KnockOutHurt).pv_lost == 2 and ev.one(KnockedOut).rounds == 15
