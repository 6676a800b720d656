"""The end of a hunter fight: when one side has no fighter left able to fight, the phase is
"over" (the text states no rule for it: bookkeeping); the GM's commands and undo still work."""

from __future__ import annotations

import pytest

from conteur.i18n import ConteurError
from conteur.rulesets.hunter.events import HunterCombatOver

from .fight import Fight, sheet


def fight(*extra: dict[str, object]) -> Fight:
    f = Fight(sheet("a", side="cell"), sheet("b", side="cell"), sheet("m", kind="monstre"), *extra)
    f.start(9, 8, *range(1, 2 + len(extra)))
    return f


def types(f: Fight, actor: str | None = None) -> set[str]:
    return {tp.type for tp in f.encounter.legal_commands(actor)}


def test_the_fight_is_over_when_the_last_monster_is_down() -> None:
    f = fight()
    assert f.state.phase == "resolution"
    events = f.do("gm_damage", fighter="m", amount=7, damage_type="lethal")
    over = events.one(HunterCombatOver)
    assert over.side == "cell" and f.state.phase == "over"
    assert "cell" in over.describe("en") and "combat terminé" in over.describe("fr")
    assert types(f) == {"gm_cover", "gm_place", "gm_zone", "gm_damage", "gm_xp_reset"}
    assert not types(f, "a")


def test_one_hunter_down_does_not_end_the_fight() -> None:
    f = fight()
    assert not f.do("gm_damage", fighter="a", amount=7, damage_type="lethal").of(HunterCombatOver)
    assert f.state.phase == "resolution"


def test_a_bystander_still_standing_does_not_keep_the_fight_going() -> None:
    f = fight(sheet("kid", kind="passant"))
    f.do("gm_damage", fighter="m", amount=7, damage_type="lethal")
    assert f.state.phase == "over"


def test_after_the_end_gm_commands_work_initiative_is_refused_and_undo_reopens() -> None:
    f = fight()
    f.do("gm_damage", fighter="m", amount=7, damage_type="lethal")
    f.do("gm_cover", fighter="a", cover="partial")
    assert f["a"].cover == "partial"
    with pytest.raises(ConteurError) as err:
        f.do("initiative")
    assert err.value.key == "hunter.turn.over"
    f.encounter.undo()
    f.encounter.undo()
    assert f.state.phase == "resolution" and f["m"].able
    assert "act" in types(f, "a")


def test_a_fight_with_a_single_side_never_ends_by_itself() -> None:
    f = Fight(sheet("a", side="cell"), sheet("b", side="cell"))
    f.start(9, 8)
    f.do("gm_damage", fighter="a", amount=7, damage_type="lethal")
    assert f.state.phase == "resolution"
