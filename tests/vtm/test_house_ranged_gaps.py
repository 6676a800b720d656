"""The house_ranged pack (rules/001): a leg hit slows movement (R-CALL-5), suppression ends
with its turn (R-SUPP-2), the tracker offers only the maneuvers the weapon allows."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conteur.cli import app
from conteur.dice import distribution_of
from conteur.i18n import ConteurError
from conteur.rulesets.vtm.dice import VtmPool
from conteur.rulesets.vtm.events import (
    AttackRolled,
    ConditionSet,
    DamageRolled,
    RollMade,
    TurnEnded,
)

from .fight import Fight, attack
from .test_house_ranged import PACK, called, hits, pinned_then_b
from .test_house_ranged_odds import SCENARIO, odds
from .test_ranged import begin, duel, finish, shot

# ------------------------------------------------------------------ R-CALL-5: movement


def leg_hit_target() -> Fight:
    """t (Dex 1, Athletics 1) hit in the leg for 1 level, fails its roll and falls."""
    f, plan = called("leg", "dexterity: 1, athletics: 1")
    shot(f, plan, hits(1) + [8, 2, 2, 2, 2, 2] + [2, 2])
    assert f["t"].conditions["leg_hit"] == 2 and f["t"].conditions.get("knocked_down")
    finish(f)
    return f


def test_R_CALL_5_leg_hit_standing_up_between_turns_at_plus_two() -> None:
    """R-CALL-5: +2 difficulty on movement actions: standing up between turns (Dex 1 +
    Athletics 1, difficulty 6) rolls at 8; two 7s fail where they would stand a fighter up."""
    f = leg_hit_target()
    events = f.do("get_up", "t", [7, 7])
    roll = events.one(RollMade)
    assert (roll.purpose, roll.pool, roll.difficulty, roll.successes) == ("get_up", 2, 8, 0)
    assert "R-CALL-5" in roll.rules
    assert f["t"].conditions.get("knocked_down")


def test_R_CALL_5_leg_hit_a_jump_rolls_at_plus_two() -> None:
    """R-CALL-5: a jump (an action rolled for the purpose ``jump``) at difficulty 6 + 2 = 8; a
    roll that is no movement (``alarm``) keeps its difficulty."""
    f, plan = called("leg", "dexterity: 3, athletics: 2")
    shot(f, plan, hits(1) + [8, 2, 2, 2, 2, 2] + [8, 8, 8, 8, 8])
    assert f["t"].conditions["leg_hit"] == 2 and not f["t"].conditions.get("knocked_down")
    finish(f)
    jump = {"kind": "other", "traits": "dexterity+athletics", "purpose": "jump"}
    begin(f, {"t": [jump]})
    f.act("a")
    roll = f.act("t", [8, 7, 7, 7, 7]).one(RollMade)
    assert (roll.difficulty, roll.successes) == (8, 1) and "R-CALL-5" in roll.rules
    finish(f)
    alarm = {"kind": "other", "traits": "dexterity+athletics", "purpose": "alarm"}
    begin(f, {"t": [alarm]})
    f.act("a")
    roll = f.act("t", [2, 2, 2, 2, 2]).one(RollMade)
    assert roll.difficulty == 6 and "R-CALL-5" not in roll.rules


def test_R_CALL_5_french_purpose_and_no_pack_no_penalty() -> None:
    """R-CALL-5: ``sauter`` is a jump too; without the pack a ``leg_hit`` condition changes
    nothing (the rule is the pack's)."""
    for head, difficulty in ((PACK, 8), ("", 6)):
        f = duel("", "dexterity: 2, athletics: 1, conditions: {leg_hit: 2}", head=head)
        jump = {"kind": "other", "traits": "dexterity+athletics", "purpose": "sauter"}
        begin(f, {"t": [jump]})
        f.act("a")
        assert f.act("t", [2, 2, 2]).one(RollMade).difficulty == difficulty


# ------------------------------------------------------------------ R-SUPP-2: it ends


def test_R_SUPP_2_pinned_down_cleared_as_the_turn_ends() -> None:
    """R-SUPP-2 (reading): pinned down for the turn of the fire; as the turn ends an event
    citing R-SUPP-2 clears it, and the summary no longer shows it."""
    f = pinned_then_b({"kind": "other"}, [8, 2, 2, 2])
    assert "suppressed" in f["b"].conditions
    lines = " ".join(f.encounter.ruleset.summary_lines(f.state, "en"))
    assert "pinned" in lines.lower()
    events = f.act("b")
    cleared = [e for e in events.of(ConditionSet) if e.condition == "suppressed"]
    assert events.of(TurnEnded) and len(cleared) == 1
    assert cleared[0].rules == ("R-SUPP-2",) and cleared[0].value is None
    assert "suppressed" not in f["b"].conditions
    lines = " ".join(f.encounter.ruleset.summary_lines(f.state, "en"))
    assert "pinned" not in lines.lower()


# ------------------------------------------------------------------ what the tracker offers


def offered(weapons: str, head: str = "era: modern\npacks: [house_ranged]") -> set[str]:
    """The maneuvers the declaration form offers ``a`` carrying ``weapons``."""
    f = duel(f"weapons: [{weapons}]", metres=12, head=head)
    f.initiative(5, 5)
    f.declare("t", {"kind": "other"})
    declare = next(c for c in f.encounter.legal_commands("a") if c.type == "declare")
    kind = next(p for p in declare.params if p.name == "kind")
    return set(kind.choices or ())


PACK_MANEUVERS = {"short_burst", "long_burst", "shotgun_spread", "suppressive_fire", "called_shot"}


@pytest.mark.parametrize(
    ("weapons", "wanted"),
    [
        # R-SUPP-1: any firearm; R-CALL-1: a ranged weapon; no burst with a single-shot rifle.
        ("rifle", {"suppressive_fire", "called_shot"}),
        # R-BURST-1: a short burst from a semi-automatic pistol, not a long one (R-BURST-2).
        ("heavy_pistol", {"short_burst", "suppressive_fire", "called_shot"}),
        # R-BURST-2: an automatic weapon fires both bursts.
        ("small_smg", {"short_burst", "long_burst", "suppressive_fire", "called_shot"}),
        # R-SPREAD-1: a smooth bore loaded with buckshot spreads; single shot: no burst.
        ("double_barrel_shotgun", {"shotgun_spread", "suppressive_fire", "called_shot"}),
        # a semi-automatic shotgun: spread and short burst.
        ("semi_auto_shotgun", PACK_MANEUVERS - {"long_burst"}),
        # a knife only: none of the pack's firearm maneuvers.
        ("knife", set()),
        # several weapons carried: what any of them can fire (``weapon`` picks it).
        ("rifle, small_smg", PACK_MANEUVERS - {"shotgun_spread"}),
    ],
)
def test_R_BURST_R_SPREAD_R_SUPP_offered_only_with_a_weapon_that_can_fire_them(
    weapons: str, wanted: set[str]
) -> None:
    """R-BURST-1 (semi-automatic or automatic), R-BURST-2 (automatic), R-SPREAD-1 (smooth bore
    with shot or buckshot), R-SUPP-1 (any firearm): ``legal_commands`` offers a pack maneuver
    only when a weapon the fighter holds or carries can fire it."""
    assert offered(weapons) & PACK_MANEUVERS == wanted


def test_R_BURST_1_a_wrong_cadence_still_refused_when_declared() -> None:
    """R-BURST-2: declared anyway (a script), a long burst from a semi-automatic pistol is
    refused with the rule's id, the state unchanged."""
    f = duel("weapons: [heavy_pistol]", metres=12, head="era: modern\npacks: [house_ranged]")
    f.initiative(5, 5)
    f.declare("t", {"kind": "other"})
    before = repr(f["a"].progress)
    with pytest.raises(ConteurError) as err:
        f.declare("a", attack("long_burst", "t"))
    assert err.value.rule == "R-BURST-2" and repr(f["a"].progress) == before


# ------------------------------------------------------------------ the odds


def roll_of(pool: int, difficulty: int) -> dict[int, float]:
    """Successes of one roll (at least 0), every face enumerated."""
    return distribution_of(
        lambda dice: max(0, dice.roll(VtmPool(pool, difficulty)).result.successes)
    )


def test_R_BURST_1_odds_price_the_split_among_the_named_targets() -> None:
    """R-BURST-1: the odds of a short burst at t (12 m) and u (35 m) roll 5 + 3 = 8 dice at the
    harder difficulty (u: 8, + 1 = 9), and t gets its share: evenly, t first, so
    ceil(n / 2) of n successes; split all to u, t is never hit."""
    alone = odds("short_burst", "small_smg")
    assert (alone.pool, alone.difficulty) == (8, 7)
    both = odds("short_burst", "small_smg", targets=["u"])
    assert (both.pool, both.difficulty) == (8, 9)
    wanted: dict[int, float] = {}
    for n, p in roll_of(8, 9).items():
        wanted[-(-n // 2)] = wanted.get(-(-n // 2), 0.0) + p
    for k, p in wanted.items():
        assert math.isclose(both.successes.prob(k), p, abs_tol=1e-12)
    to_u = odds("short_burst", "small_smg", targets=["u"], split=["u"])
    assert to_u.p_hit == 0 and to_u.expected_levels == 0
    mostly_t = odds("short_burst", "small_smg", targets=["u"], split=["t", "t", "u"])
    assert mostly_t.expected_levels > both.expected_levels


def test_R_AIM_1_R_CALL_1_odds_take_the_rounds_and_the_spot_as_params() -> None:
    """R-AIM-1: a careful shot priced after 1 round (−1: 6 − 1 = 5 at 12 m) or 2 (−2: 4);
    R-CALL-2: the spot is a param (head: 2 more damage dice than the torso)."""
    assert odds("careful_shot", "rifle").difficulty == 5
    assert odds("careful_shot", "rifle", careful_rounds=2).difficulty == 4
    head, torso = odds("called_shot", "rifle", location="head"), odds("called_shot", "rifle")
    assert head.difficulty == torso.difficulty == 8
    assert head.damage.max_outcome == torso.damage.max_outcome + 2


def test_R_SPREAD_2_odds_reach_the_41_to_80_m_band_whatever_the_shotguns_range() -> None:
    """R-SPREAD-2 (reading): the text gives a spread a 41–80 m band (difficulty 8) whatever the
    gun's own range (a double-barrel: 20 m, 40 m at most): the odds price it, as play does;
    past 80 m, or past 40 m sawed off (R-SPREAD-3), refused with the rule's id."""
    o = odds("shotgun_spread", "double_barrel_shotgun", target="far")
    assert (o.pool, o.difficulty) == (5, 8) and 0 < o.p_hit < 1
    with pytest.raises(ConteurError) as err:
        odds("shotgun_spread", "sawed_off_shotgun", target="far")
    assert err.value.rule == "R-SPREAD-3"
    with pytest.raises(ConteurError) as err:
        odds("shoot", "double_barrel_shotgun", target="far")  # a single shot keeps V-GEN-2
    assert err.value.rule == "V-GEN-2"


def test_R_SPREAD_2_play_at_60_m_with_a_double_barrel() -> None:
    """R-SPREAD-2: the same 60 m spread in play: difficulty 8, no base damage (one success
    rolls no damage die)."""
    f = duel("weapons: [double_barrel_shotgun]", metres=60, head="era: modern\n" + PACK)
    events = shot(f, {"a": [attack("shotgun_spread", "t")]}, hits(1))
    rolled = events.one(AttackRolled)
    assert (rolled.pool, rolled.difficulty) == (5, 8)
    assert events.one(DamageRolled).pool == 0


def test_R_BURST_1_cli_odds_take_the_targets_and_split_as_params(tmp_path: Path) -> None:
    """R-BURST-1: ``conteur odds attack --param targets=u --param split=u`` prices t's share
    (none of the successes: never hit); a ``--param`` without ``=`` is refused."""
    path = tmp_path / "pack.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    args = ["odds", "attack", str(path), "--attacker", "a", "--target", "t", "--json"]
    burst = [*args, "--maneuver", "short_burst", "--param", "targets=u"]
    shared = CliRunner().invoke(app, burst)
    assert shared.exit_code == 0, shared.output
    assert (json.loads(shared.stdout)["difficulty"], json.loads(shared.stdout)["p_hit"] > 0) == (
        9,
        True,
    )
    none = CliRunner().invoke(app, [*burst, "--param", "split=u"])
    assert json.loads(none.stdout)["p_hit"] == 0
    assert CliRunner().invoke(app, [*burst, "--param", "split"]).exit_code != 0
