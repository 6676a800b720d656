"""The practical experience award of a session, line by line (H-XP-1, H-XP-2, H-XP-3).

Each test states a session the way a game master writes its summary and checks
the text's numbers (``004``, "expérience pratique").
"""

from __future__ import annotations

from typing import Any

import pytest

from conteur.i18n import ConteurError
from conteur.rulesets.hunter.xp import Award, Line, award
from conteur.rulesets.hunter.xp_log import LogCount
from conteur.rulesets.hunter.xp_session import parse_session

TWO_PLAYERS: list[dict[str, Any]] = [
    {"nom": "Alice", "chasseurs": ["margot"]},
    {"nom": "Bruno", "chasseurs": ["lucien"]},
]


def session_award(logs: tuple[LogCount, ...] = (), **fields: Any) -> Award:
    raw: dict[str, Any] = {"joueurs": TWO_PLAYERS, **fields}
    return award(parse_session(raw), logs)


def line(result: Award, key: str) -> Line:
    (found,) = [x for x in result.lines if x.key == key]
    return found


# ------------------------------------------------------------------ H-XP-1


def test_H_XP_1_base_is_the_number_of_players() -> None:
    result = session_award()
    assert result.base.points == 2
    assert result.total == 2


def test_H_XP_1_game_master_hunters_count_in_the_base() -> None:
    result = session_award(chasseurs_mj=["abbe", "soeur_agathe"])
    assert (result.base.players, result.base.gm_hunters, result.base.points) == (2, 2, 4)
    assert result.total == 4


def test_H_XP_1_a_summary_needs_at_least_one_player() -> None:
    with pytest.raises(ConteurError) as caught:
        parse_session({"joueurs": []})
    assert "joueurs" in caught.value.message("fr")


def test_H_XP_1_a_hunter_named_twice_is_refused() -> None:
    with pytest.raises(ConteurError) as caught:
        parse_session({"joueurs": TWO_PLAYERS, "chasseurs_mj": ["margot"]})
    assert "chasseurs" in caught.value.message("fr") and "« margot » est nommé deux fois" in (
        caught.value.message("fr")
    )
    assert "'margot' is named twice" in caught.value.message("en")


def test_H_XP_1_a_player_named_twice_is_refused() -> None:
    with pytest.raises(ConteurError) as caught:
        parse_session({"joueurs": [{"nom": "Alice"}, {"nom": "Alice"}]})
    assert "« Alice » est nommé deux fois" in caught.value.message("fr")


# ------------------------------------------------------------------ H-XP-2: stated lines

STATED = [
    ("pouvoirs_nouveaux", True, "new_powers", +1),
    ("tactique_réussie", True, "tactic_succeeded", +1),
    ("vie_sauvée", True, "life_saved", +1),
    ("créature_chassée", True, "creature_driven_off", +1),
    ("créature_capturée", True, "creature_captured", +2),
    ("approche_créative", True, "creative_approach", +2),
    ("créature_tuée", True, "creature_killed", +3),
    ("passant_blessé", True, "bystander_hurt", -1),
    ("groupe_divisé", True, "infighting", -1),
    ("pouvoir_mental", True, "mind_power", -1),
    ("mise_en_danger", True, "endangering", -1),
    ("tactique_ratée", True, "tactic_failed", -1),
    ("passant_tué", True, "bystander_killed", -2),
    ("fuite_forcée", True, "forced_to_flee", -2),
]


@pytest.mark.parametrize(("word", "value", "key", "points"), STATED, ids=[s[2] for s in STATED])
def test_H_XP_2_each_stated_adjustment_has_the_texts_points(
    word: str, value: bool, key: str, points: int
) -> None:
    """H-XP-2: +1 new powers, tactic, life saved, driven off; +2 captured, creative; +3 killed;
    -1 bystander hurt, infighting, mind power, endangering, failed tactic; -2 bystander killed,
    forced to flee."""
    result = session_award(chasseurs_mj=["abbe"], ajustements={word: value})
    assert line(result, key).points == points
    assert line(result, key).rule == "H-XP-2"
    assert result.total == 3 + points


@pytest.mark.parametrize(("word", "value", "key", "points"), STATED, ids=[s[2] for s in STATED])
def test_H_XP_2_a_stated_no_adds_nothing(word: str, value: bool, key: str, points: int) -> None:
    result = session_award(ajustements={word: False})
    assert line(result, key).points == 0
    assert result.total == 2


def test_H_XP_2_tactic_never_used_in_the_field_adds_one_more() -> None:
    result = session_award(ajustements={"tactique_réussie": True, "tactique_inédite": True})
    assert line(result, "tactic_succeeded").points == 1
    assert line(result, "tactic_first_used").points == 1
    assert result.total == 2 + 2


def test_H_XP_2_a_first_use_without_a_successful_tactic_is_refused() -> None:
    with pytest.raises(ConteurError) as caught:
        session_award(ajustements={"tactique_inédite": True})
    assert caught.value.rule == "H-XP-2"
    assert "tactique_réussie" in caught.value.message("fr")
    assert "tactic_succeeded" in caught.value.message("en")


def test_H_XP_2_minus_two_per_derangement() -> None:
    result = session_award(chasseurs_mj=["abbe", "agathe", "hugo"], ajustements={"dérangements": 2})
    assert (line(result, "derangements").count, line(result, "derangements").points) == (2, -4)
    assert result.total == 5 - 4


def test_H_XP_2_minus_three_per_dead_hunter() -> None:
    result = session_award(
        chasseurs_mj=["abbe", "agathe", "hugo"], ajustements={"chasseurs_morts": 1}
    )
    assert line(result, "dead_hunters").points == -3
    assert result.total == 2


def test_H_XP_2_dramatic_failures_outside_the_tracker_are_stated() -> None:
    """H-XP-2: +1 per dramatic failure of any kind, social or stealth rolls included."""
    result = session_award(ajustements={"échecs_critiques": 3})
    assert line(result, "dramatic_failures").points == 3
    assert result.total == 5


def test_H_XP_2_log_counts_add_to_what_the_summary_states() -> None:
    logs = (LogCount("a.json", 2, 1), LogCount("b.json", 1, 0))
    result = session_award(logs, ajustements={"échecs_critiques": 1, "succès_exceptionnels": 1})
    assert line(result, "exceptional_successes").points == 3 + 1
    assert line(result, "dramatic_failures").points == 1 + 1
    assert result.total == 2 + 4 + 2


def test_H_XP_2_reading_a_killed_bystander_replaces_the_hurt_one() -> None:
    """Reading: -2 for a killed bystander, not added to the -1 for a hurt one."""
    result = session_award(
        chasseurs_mj=["abbe"], ajustements={"passant_blessé": True, "passant_tué": True}
    )
    assert line(result, "bystander_hurt").points == 0
    assert line(result, "bystander_hurt").note is not None
    assert line(result, "bystander_killed").points == -2
    assert result.total == 1


def test_H_XP_2_fleeing_as_planned_costs_nothing() -> None:
    result = session_award(ajustements={"fuite_forcée": True}, fuite_prévue=True)
    assert line(result, "forced_to_flee").points == 0
    assert result.total == 2


def test_H_XP_2_reading_the_total_is_never_below_zero() -> None:
    result = session_award(ajustements={"chasseurs_morts": 2, "passant_tué": True})
    assert result.raw_total == 2 - 6 - 2
    assert result.total == 0


def test_H_XP_2_the_texts_whole_list_adds_up() -> None:
    """Every line of H-XP-2 at once: +1+1+1+1+1+2+2+3 -1-1-1-1-2-2 -2x1 -3x1 (hurt replaced)."""
    stated: dict[str, Any] = {word: True for word, *_ in STATED}
    stated.update({"tactique_inédite": True, "dérangements": 1, "chasseurs_morts": 1})
    logs = (LogCount("fight.json", 1, 1),)
    result = session_award(logs, chasseurs_mj=["a", "b", "c", "d", "e", "f"], ajustements=stated)
    assert result.base.points == 8
    gains = 1 + 1 + 1 + 1 + 1 + 1 + 1 + 2 + 2 + 3
    losses = 1 + 1 + 1 + 1 + 2 + 2 + 2 + 3
    assert result.raw_total == 8 + gains - losses


def test_H_XP_2_english_keys_are_accepted() -> None:
    result = award(
        parse_session(
            {
                "players": [{"name": "Alice", "hunters": ["margot"]}],
                "gm_hunters": ["abbe"],
                "adjustments": {"creature_killed": True, "bystander_hurt": True},
                "planned_flight": False,
            }
        )
    )
    assert result.total == 2 + 3 - 1


def test_H_XP_2_an_unknown_adjustment_is_named_with_a_suggestion() -> None:
    with pytest.raises(ConteurError) as caught:
        session_award(ajustements={"créature_tue": True})
    assert "ajustements.créature_tue" in caught.value.message("fr")
    assert "créature_tuée" in caught.value.message("fr")


def test_H_XP_2_an_adjustment_given_in_both_languages_is_refused() -> None:
    with pytest.raises(ConteurError) as caught:
        session_award(ajustements={"vie_sauvée": True, "life_saved": True})
    assert "« vie_sauvée » et « life_saved »" in caught.value.message("fr")


def test_H_XP_2_a_flag_must_be_yes_or_no() -> None:
    with pytest.raises(ConteurError) as caught:
        session_award(ajustements={"vie_sauvée": 2})
    assert "vie_sauvée" in caught.value.message("en")


# ------------------------------------------------------------------ H-XP-3


def test_H_XP_3_each_new_information_adds_a_point_by_default() -> None:
    result = session_award(
        informations=[
            {"texte": "Le sel l'arrête."},
            {"texte": "Il craint le feu.", "joueur": "Bruno"},
        ]
    )
    learned = [x for x in result.lines if x.rule == "H-XP-3"]
    assert [x.points for x in learned] == [1, 1]
    assert "Le sel l'arrête." in learned[0].label.describe("fr")
    assert result.total == 4


def test_H_XP_3_reading_the_game_master_sets_what_information_is_worth() -> None:
    result = session_award(informations=[{"texte": "Son vrai nom.", "points": 3}])
    assert result.total == 2 + 3
