"""The split among the players and what practical experience buys (H-XP-4, H-XP-5)."""

from __future__ import annotations

from typing import Any

import pytest

from conteur.i18n import ConteurError
from conteur.rulesets.hunter.xp import Problem, Spending, award, check_spending
from conteur.rulesets.hunter.xp_session import parse_session

PLAYERS: list[dict[str, Any]] = [
    {"nom": "Alice", "chasseurs": ["margot"]},
    {"nom": "Bruno", "chasseurs": ["lucien"]},
]
TOTAL = 2 + 3  # two players, a monster killed


def checked(split: dict[str, Any], **fields: Any) -> tuple[list[Spending], list[Problem]]:
    session = parse_session(
        {"joueurs": PLAYERS, "ajustements": {"créature_tuée": True}, "partage": split, **fields}
    )
    total = award(session).total
    assert total == TOTAL
    return check_spending(session, total)


def problems(split: dict[str, Any], **fields: Any) -> list[Problem]:
    spending, whole = checked(split, **fields)
    return [p for s in spending for p in s.all_problems()] + whole


def only_problem(split: dict[str, Any], **fields: Any) -> Problem:
    (found,) = problems(split, **fields)
    return found


def bank(points: int) -> dict[str, Any]:
    return {"part": points, "en_banque": points}


def cost_of(purchase: dict[str, Any]) -> int | None:
    spending, _ = checked({"Alice": {"part": 5, "achats": [purchase]}, "Bruno": bank(0)})
    return spending[0].bought[0].cost


# ------------------------------------------------------------------ H-XP-4: the split


def test_H_XP_4_players_split_the_award_as_they_like() -> None:
    spending, whole = checked({"Alice": bank(4), "Bruno": bank(1)})
    assert whole == [] and all(s.ok for s in spending)
    assert [(s.player, s.share, s.bank_after) for s in spending] == [
        ("Alice", 4, 4),
        ("Bruno", 1, 1),
    ]


def test_H_XP_4_a_split_that_does_not_sum_to_the_award_is_refused() -> None:
    found = only_problem({"Alice": bank(4), "Bruno": bank(2)})
    assert (found.rule, found.key, found.player) == ("H-XP-4", "xp.refused.split_sum", None)
    assert found.message("fr") == "[H-XP-4] le partage donne 6 points, la séance en rapporte 5"
    assert found.message("en") == "[H-XP-4] the split hands out 6 points, the session earned 5"


def test_H_XP_4_a_game_master_hunter_may_receive_a_share() -> None:
    session = parse_session(
        {
            "joueurs": PLAYERS,
            "chasseurs_mj": ["abbe"],
            "partage": {"Alice": bank(1), "Bruno": bank(1), "abbe": bank(1)},
        }
    )
    assert check_spending(session, award(session).total) == (check_spending(session, 3)[0], [])


def test_H_XP_4_a_share_for_a_stranger_is_refused() -> None:
    found = only_problem({"Alice": bank(4), "Carole": bank(1)})
    assert (found.key, found.player) == ("xp.refused.unknown_player", "Carole")
    assert "Alice, Bruno" in found.message("en")


def test_H_XP_4_points_are_spent_at_once_or_banked() -> None:
    found = only_problem(
        {
            "Alice": {"part": 4, "achats": [{"achat": "volonté", "points": 1}], "en_banque": 1},
            "Bruno": bank(1),
        }
    )
    assert (found.rule, found.key, found.player) == ("H-XP-4", "xp.refused.unaccounted", "Alice")
    assert "4 points" in found.message("fr") and "1 dépensés, 1 en banque" in found.message("fr")
    assert "(1 spent, 1 banked)" in found.message("en")


def test_H_XP_4_reading_banked_points_buy_a_tactic() -> None:
    spending, whole = checked(
        {
            "Alice": {
                "part": 4,
                "en_banque": 4,
                "banque_avant": 6,
                "achats": [{"achat": "tactique", "trait": "Le filet", "coût": 6, "banque": True}],
            },
            "Bruno": bank(1),
        }
    )
    assert whole == [] and spending[0].ok
    assert (spending[0].spent_from_bank, spending[0].bank_after) == (6, 4)


def test_H_XP_4_reading_banked_points_train_a_new_member() -> None:
    found = problems(
        {
            "Alice": {
                "part": 4,
                "en_banque": 4,
                "banque_avant": 2,
                "achats": [{"achat": "entraînement", "coût": 2, "banque": True}],
            },
            "Bruno": bank(1),
        }
    )
    assert found == []


@pytest.mark.parametrize(
    "purchase",
    [
        {"achat": "compétence", "trait": "Armes à feu", "de": 0, "à": 1},
        {"achat": "atout", "trait": "Contacts", "de": 0, "à": 1},
        {"achat": "dotation", "trait": "Arsenal avancé", "de": 0, "à": 1},
        {"achat": "spécialité", "trait": "Occultisme (goules)"},
        {"achat": "volonté", "points": 2},
    ],
    ids=["skill", "merit", "endowment", "specialty", "willpower"],
)
def test_H_XP_4_banked_points_cannot_raise_traits_or_regain_willpower(
    purchase: dict[str, Any],
) -> None:
    found = only_problem(
        {
            "Alice": {
                "part": 4,
                "en_banque": 4,
                "banque_avant": 10,
                "achats": [{**purchase, "banque": True}],
            },
            "Bruno": bank(1),
        }
    )
    assert (found.rule, found.key, found.player) == ("H-XP-4", "xp.refused.banked", "Alice")
    assert "ne paient que des tactiques ou un entraînement" in found.message("fr")
    assert "banked points only pay for tactics or training" in found.message("en")


def test_H_XP_4_the_bank_cannot_pay_more_than_it_holds() -> None:
    found = only_problem(
        {
            "Alice": {
                "part": 4,
                "en_banque": 4,
                "banque_avant": 3,
                "achats": [{"achat": "tactique", "coût": 5, "banque": True}],
            },
            "Bruno": bank(1),
        }
    )
    assert (found.rule, found.key) == ("H-XP-4", "xp.refused.overdrawn")
    assert "5 points taken from the bank, but it only holds 3" in found.message("en")


# ------------------------------------------------------------------ H-XP-5: what it buys


def test_H_XP_5_willpower_regained_costs_a_point_each() -> None:
    assert cost_of({"achat": "volonté", "points": 3}) == 3


def test_H_XP_5_skills_cost_new_dots_times_three() -> None:
    assert cost_of({"achat": "compétence", "de": 0, "à": 1}) == 3
    assert cost_of({"achat": "compétence", "de": 1, "à": 3}) == (2 + 3) * 3


def test_H_XP_5_a_specialty_costs_three() -> None:
    assert cost_of({"achat": "spécialité", "trait": "Bagarre (griffes)"}) == 3


def test_H_XP_5_merits_and_endowments_cost_new_dots_times_two() -> None:
    assert cost_of({"achat": "atout", "de": 1, "à": 2}) == 4
    assert cost_of({"achat": "dotation", "de": 0, "à": 2}) == (1 + 2) * 2


def test_H_XP_5_a_tactic_for_the_cell_costs_what_the_summary_states() -> None:
    assert cost_of({"achat": "tactic", "coût": 5}) == 5


def test_H_XP_5_spending_at_once_on_skills_and_willpower_is_valid() -> None:
    found = problems(
        {
            "Alice": {
                "part": 4,
                "achats": [
                    {"achat": "compétence", "trait": "Occultisme", "de": 0, "à": 1},
                    {"achat": "volonté", "points": 1},
                ],
            },
            "Bruno": bank(1),
        }
    )
    assert found == []


def test_H_XP_5_attributes_are_never_bought() -> None:
    found = only_problem(
        {
            "Alice": {"part": 3, "achats": [{"achat": "attribut", "trait": "Force", "coût": 3}]},
            "Bruno": bank(2),
        },
    )
    assert (found.rule, found.key, found.player) == ("H-XP-5", "xp.refused.attribute", "Alice")
    assert (
        found.message("fr")
        == "[H-XP-5] les attributs ne s'achètent pas avec l'expérience pratique (Force)"
    )
    assert (
        found.message("en")
        == "[H-XP-5] attributes are never bought with practical experience (Force)"
    )


def test_H_XP_5_a_stated_cost_that_is_not_the_tables_is_refused() -> None:
    found = only_problem(
        {
            "Alice": {"part": 4, "achats": [{"achat": "atout", "de": 1, "à": 2, "coût": 2}]},
            "Bruno": bank(1),
        }
    )
    assert (found.rule, found.key) == ("H-XP-5", "xp.refused.cost")
    assert "costs 4 points, not 2" in found.message("en")


@pytest.mark.parametrize(
    ("purchase", "key"),
    [
        ({"achat": "tactique"}, "xp.needs.cost"),
        ({"achat": "volonté"}, "xp.needs.points"),
        ({"achat": "compétence", "de": 2, "à": 2}, "xp.needs.dots"),
    ],
)
def test_H_XP_5_a_purchase_lacking_its_numbers_is_refused(
    purchase: dict[str, Any], key: str
) -> None:
    found = problems({"Alice": {"part": 0, "achats": [purchase]}, "Bruno": bank(5)})
    assert [p.key for p in found] == [key]


def test_H_XP_5_an_unknown_purchase_names_the_field_and_the_choices() -> None:
    with pytest.raises(ConteurError) as caught:
        checked({"Alice": {"part": 5, "achats": [{"achat": "discipline"}]}})
    fr, en = caught.value.message("fr"), caught.value.message("en")
    assert "partage.Alice.achats[1].achat" in fr and "« discipline »" in fr and "tactique" in fr
    assert "partage.Alice.achats[1].achat" in en and "'discipline'" in en


def test_H_XP_5_english_purchase_words_are_accepted() -> None:
    spending, whole = checked(
        {
            "Alice": {"share": 5, "purchases": [{"purchase": "Willpower", "points": 5}]},
            "Bruno": bank(0),
        }
    )
    assert whole == [] and spending[0].bought[0].cost == 5
