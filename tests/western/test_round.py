"""The round and the order of combat (W-RND-1, W-RND-2, W-SPD-1..3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conteur.i18n import ConteurError
from conteur.rulesets.western.events import RoundEnded, RoundStarted, VolleyCounted
from conteur.rulesets.western.tables import default_tables

from .fight import Fight, gunman


def speed(fid: str, value: int, x: float = 0, **extra: object) -> dict[str, object]:
    return gunman(fid, x=x, characteristics={"RAPIDITÉ": value}, **extra)


def test_W_SPD_1_very_fast_revolver_fires_five() -> None:
    """W-SPD-1: a very fast character fires up to 5 revolver bullets in a round."""
    f = Fight(speed("bill", 22), speed("joe", 5, x=10))
    ev = f.round()
    shots = {v.fighter: v.shots for v in ev.of(VolleyCounted)}
    assert shots == {"bill": 5, "joe": 1}


def test_W_SPD_1_rifle_capped_at_three() -> None:
    """W-SPD-1: and 3 with a rifle, even at speed 24 with adjustments."""
    f = Fight(speed("bill", 24, weapons=["winchester_1873"], speed_bonus=6), speed("joe", 5, x=10))
    ev = f.round()
    assert {v.fighter: v.shots for v in ev.of(VolleyCounted)}["bill"] == 3


def test_W_SPD_1_adjustments_count() -> None:
    """W-SPD-1: combat speed is RAPIDITÉ with its adjustments (``speed_bonus``)."""
    f = Fight(speed("bill", 11, speed_bonus=2), speed("joe", 5, x=10))
    assert f.round().of(VolleyCounted)[0].speed == 13
    assert [s for s in f.state.slots if s[0] == "bill"] == [("bill", "main")] * 3


def test_W_SPD_1_default_table_shape() -> None:
    """W-SPD-1: at least four bands per weapon kind, never above the caps."""
    t = default_tables()
    for kind, bands in t.speed.items():
        assert len(bands) >= 4, kind
    assert max(b.shots for b in t.speed["revolver"]) == 5
    assert max(b.shots for b in t.speed["rifle"]) == 3


def test_W_SPD_2_fast_character_acts_first_and_again() -> None:
    """W-SPD-2: Bill (speed 14, 3 shots ranked 14, 9, 4) acts first and second, then Joe
    (speed 5, one shot), then Bill again (default ``order.delay`` 5)."""
    f = Fight(speed("bill", 14), speed("joe", 5, x=10))
    f.round()
    assert f.state.order == [["bill"], ["bill"], ["joe"], ["bill"]]
    with pytest.raises(ConteurError) as err:
        f.shoot("joe", "bill")
    assert err.value.key == "western.not_due"


def test_W_SPD_2_very_fast_shooter_fires_before_everyone() -> None:
    """W-SPD-2: « agir en premier, mais aussi en second, en troisième… avant tout le monde » —
    speed 22, five revolver shots (22, 17, 12, 7, 2): four of them before the speed-5
    shooter's only shot, the fifth after it."""
    f = Fight(speed("bill", 22), speed("joe", 5, x=10))
    f.round()
    assert [fid for fid, _ in f.state.slots] == ["bill"] * 4 + ["joe", "bill"]


def test_W_SPD_2_order_is_data_the_game_master_can_replace(tmp_path: Path) -> None:
    """W-SPD-2 (default as data): a tables file with ``order: {delay: 100}`` gives everyone's
    first shot before anyone's second; ``delay: 0`` the fastest one's whole volley first."""
    ranks = tmp_path / "ranks.yaml"
    ranks.write_text("order: {delay: 100}\n", encoding="utf-8")
    f = Fight(speed("bill", 14), speed("joe", 5, x=10), tables=str(ranks))
    f.round()
    assert [fid for fid, _ in f.state.slots] == ["bill", "joe", "bill", "bill"]
    volley = tmp_path / "volley.yaml"
    volley.write_text("order: {delay: 0}\n", encoding="utf-8")
    g = Fight(speed("bill", 8), speed("joe", 14, x=10), tables=str(volley))
    g.round()
    assert [fid for fid, _ in g.state.slots] == ["joe", "joe", "joe", "bill", "bill"]


def test_W_SPD_2_a_bad_order_entry_is_refused_naming_file_entry_and_field(
    tmp_path: Path,
) -> None:
    """W-SPD-2: the GM's order of combat is validated: a negative delay names the file, the
    table ``order`` and its field ``delay`` in French and English."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("order: {delay: -1}\n", encoding="utf-8")
    with pytest.raises(ConteurError) as err:
        Fight(speed("bill", 14), speed("joe", 5, x=10), tables=str(bad))
    assert (
        err.value.message("en")
        == f'{bad}: table "order": field "delay": must be at least 0 (got -1)'
    )
    assert err.value.message("fr") == (
        f"{bad}\u202f: table «\u202forder\u202f»\u202f: champ «\u202fdelay\u202f»\u202f: "
        "doit valoir au moins 0 (reçu -1)"
    )


def test_W_SPD_2_two_fast_shooters_interleave_by_speed() -> None:
    """W-SPD-2 (documented default): the faster one leads each rank."""
    f = Fight(speed("bill", 14), speed("joe", 17, x=10))
    f.round()
    assert [x[0] for x in f.state.slots] == ["joe", "bill", "joe", "bill", "joe", "bill", "joe"]


def test_W_SPD_3_off_hand_fires_one_fewer() -> None:
    """W-SPD-3: three shots in the main hand, two in the off hand."""
    f = Fight(speed("bill", 14, off_hand="colt_saa"), speed("joe", 5, x=10))
    ev = f.round()
    v = ev.of(VolleyCounted)[0]
    assert (v.shots, v.off_shots) == (3, 2)
    hands = [h for fid, h in f.state.slots if fid == "bill"]
    assert hands == ["main", "off", "main", "off", "main"]


def test_W_SPD_3_ambidextrous_is_exempt() -> None:
    """W-SPD-3: an ambidextrous character fires as many with both hands."""
    f = Fight(speed("bill", 14, off_hand="colt_saa", ambidextrous=True), speed("joe", 5, x=10))
    v = f.round().of(VolleyCounted)[0]
    assert (v.shots, v.off_shots) == (3, 3)


def test_W_SPD_3_one_main_shot_means_none_off() -> None:
    """W-SPD-3 (reading): when the main hand fires one bullet, the off hand fires none."""
    f = Fight(speed("bill", 3, off_hand="colt_saa"), speed("joe", 5, x=10))
    v = f.round().of(VolleyCounted)[0]
    assert (v.shots, v.off_shots) == (1, 0)


def test_W_SPD_3_off_hand_shot_uses_its_own_cartridges() -> None:
    """W-SPD-3: the off-hand shot empties the off-hand revolver."""
    f = Fight(speed("bill", 14, off_hand="colt_saa"), speed("joe", 5, x=10))
    f.round()
    assert f.state.slots[:2] == [("bill", "main"), ("bill", "off")]
    f.shoot("bill", "joe", 90)
    f.shoot("bill", "joe", 90)
    assert f["bill"].ammo == {"main": 5, "off": 5}


def test_W_RND_1_round_ends_when_every_shot_is_done() -> None:
    """W-RND-1: the round is the whole volley of everyone; then a new round starts."""
    f = Fight(speed("bill", 5), speed("joe", 5, x=10))
    f.round()
    f.do("pass", "bill")
    ev = f.do("pass", "joe")
    assert ev.of(RoundEnded) and f.state.phase == "end"
    assert f.round().one(RoundStarted).turn == 2


def test_W_RND_1_action_durations_shipped_as_data() -> None:
    """W-RND-1: the missing annex is a default table of action durations in rounds."""
    t = default_tables()
    rounds = {a.id: a.rounds for a in t.actions}
    assert len(rounds) >= 10 and rounds["shoot"] == 1 and rounds["mount"] == 1


def test_W_RND_2_attacked_by_surprise_cannot_act() -> None:
    """W-RND-2: attacked by surprise, Joe loses his shots this round, and only this round."""
    f = Fight(speed("bill", 14), speed("joe", 5, x=10))
    f.round()
    f.do("surprise", target="joe", surprise="attacked")
    assert ["joe"] not in f.state.order
    before = f.snapshot()
    with pytest.raises(ConteurError) as err:
        f.shoot("joe", "bill")
    assert err.value.key == "western.no_more_shots"
    assert f.state == before
    for _ in range(3):
        f.do("pass", "bill")
    f.round()
    assert ["joe"] in f.state.order


def test_W_RND_2_surprise_before_the_round() -> None:
    """W-RND-2: a surprise declared before the first round keeps Joe out of round 1."""
    f = Fight(speed("bill", 5), speed("joe", 5, x=10))
    f.do("surprise", target="joe", surprise="attacked")
    f.round()
    assert f.state.order == [["bill"]]


def test_W_RND_2_surprise_between_two_rounds_is_for_the_next_one() -> None:
    """W-RND-2: a surprise entered after round 1 has ended keeps Joe out of round 2 (it is
    not recorded for the round just over); he is back in round 3."""
    f = Fight(speed("bill", 5), speed("joe", 5, x=10))
    f.round()
    f.do("pass", "bill")
    f.do("pass", "joe")
    assert f.state.phase == "end"
    f.do("surprise", target="joe", surprise="attacked")
    f.round()
    assert f.state.turn == 2 and f.state.order == [["bill"]]
    f.do("pass", "bill")
    f.round()
    assert ["joe"] in f.state.order


def test_W_SKL_2_sudden_surprise_between_rounds_is_instinctive_next_round() -> None:
    """W-SKL-2, W-SKL-3: a sudden adversary announced between rounds 1 and 2: Bill's shots of
    round 2 are instinctive (40 %), not aimed."""
    from conteur.rulesets.western.events import ShotRolled

    f = Fight(speed("bill", 5), speed("joe", 5, x=10))
    f.round()
    f.do("pass", "bill")
    f.do("pass", "joe")
    f.do("surprise", target="bill", surprise="sudden")
    f.round()
    shot = f.shoot("bill", "joe", 90).one(ShotRolled)
    assert (shot.skill, shot.percent) == ("instinctive_pistol", 40)


def _bill_next(f: Fight) -> None:
    """The others let their shots go until Bill's comes."""
    while f.state.due() is not None and f.state.due()[0] != "bill":  # type: ignore[index]
        f.do("pass", f.state.due()[0])  # type: ignore[index]


def _one_action_refused(f: Fight, call: str, *dice: int, **args: object) -> ConteurError:
    _bill_next(f)
    before = f.snapshot()
    with pytest.raises(ConteurError) as err:
        f.do(call, "bill", list(dice), **args)
    assert f.state == before
    assert err.value.key == "western.one_action" and err.value.rule == "W-RND-1"
    return err.value


def test_W_RND_1_no_reload_after_firing_in_the_same_round() -> None:
    """W-RND-1 (reading: the whole volley is the round's one simple action): Bill (3 shots)
    fires once, then may not spend his next shot reloading; he may pass or fire again."""
    f = Fight(speed("bill", 14), speed("joe", 5, x=10))
    f.round()
    f.shoot("bill", "joe", 90)
    err = _one_action_refused(f, "reload")
    assert "[W-RND-1]" in err.message("fr") and "recharger" in err.message("fr")
    assert "[W-RND-1]" in err.message("en") and "reload" in err.message("en")
    _bill_next(f)
    f.shoot("bill", "joe", 90)
    assert f["bill"].ammo["main"] == 4


def test_W_RND_1_no_firing_after_reloading_in_the_same_round() -> None:
    """W-RND-1: Bill spends his first shot reloading (2 cartridges): his other shots of the
    round may reload again, not fire; the next round he fires."""
    f = Fight(speed("bill", 14, ammo={"main": 2}), speed("joe", 5, x=10))
    f.round()
    f.do("reload", "bill")
    assert f["bill"].ammo["main"] == 4
    err = _one_action_refused(f, "attack", 90, target="joe")
    assert "tirer" in err.message("fr") and "shoot" in err.message("en")
    f.do("reload", "bill")
    _bill_next(f)
    f.do("pass", "bill")
    _bill_next(f)
    f.round()
    f.shoot("bill", "joe", 90)
    assert f["bill"].ammo["main"] == 5


def test_W_RND_1_no_running_after_firing_in_the_same_round() -> None:
    """W-RND-1: running is a simple action too: not after firing in the same round."""
    f = Fight(speed("bill", 14), speed("joe", 5, x=10))
    f.round()
    f.shoot("bill", "joe", 90)
    _one_action_refused(f, "run")


def test_unconscious_fighters_have_no_turn() -> None:
    f = Fight(speed("bill", 5), speed("joe", 5, x=10, helpless=True))
    f.do("knockout", "bill", [3, 1, 1, 1], target="joe")  # automatic: 1D6 = 3, 3D10 = 3
    assert f["joe"].fate == "unconscious"
    f.round()
    assert f.state.order == [["bill"]] and f["joe"].unconscious == 3
