"""Campaigns and characters: validated sheets (French or English), history, import/export, tokens."""

from __future__ import annotations

import json
import re

import pytest
from sqlalchemy import func, select

from conteur.i18n import ConteurError
from conteur.store import Store
from conteur.store.models import Character, CharacterVersion

from .helpers import ANN, BOB

TYPO_YAML = """\
- nom: Lucien
  type: vampire
  Dextérité: 3
  Bagarre: 2
- nom: Jack
  type: mortel
  Dextértié: 3
  Armes à feu: 2
"""


def counts(store: Store) -> tuple[int, int]:
    with store.engine.connect() as conn:
        chars = conn.scalar(select(func.count()).select_from(Character))
        versions = conn.scalar(select(func.count()).select_from(CharacterVersion))
    return int(chars or 0), int(versions or 0)


def test_campaign_settings_and_rules_are_checked(store: Store) -> None:
    campaign = store.create_campaign("Saloon", "vtm", era="1899", settings={"player_input": True})
    assert campaign.settings == {"player_input": True, "player_moves": False, "lang": "fr"}
    assert store.list_campaigns()[0].id == campaign.id
    for bad in ({"players": True}, {"player_input": "oui"}):
        with pytest.raises(ConteurError) as err:
            store.update_campaign(campaign.id, settings=bad)
        assert err.value.message("fr") != err.value.message("en")
    with pytest.raises(ConteurError):
        store.create_campaign("Autre", "vtm", packs=["no_such_pack"])
    with pytest.raises(ConteurError) as err:
        store.create_campaign("Autre", "no_such_game")
    assert err.value.key == "engine.unknown_ruleset"
    with pytest.raises(ConteurError):
        store.create_campaign("  ", "vtm")
    assert len(store.list_campaigns()) == 1
    changed = store.update_campaign(campaign.id, name="Saloon (1899)", settings={"lang": "en"})
    assert changed.name == "Saloon (1899)" and changed.settings["player_input"] is True


def test_a_sheet_in_french_or_english_is_validated_and_kept_as_written(store: Store) -> None:
    campaign = store.create_campaign("Saloon", "vtm")
    ann = store.add_character(campaign.id, ANN)
    bob = store.add_character(campaign.id, BOB, {"health": ["lethal"], "experience": 3})
    assert (ann.slug, ann.name, ann.sheet) == ("ann", "Ann", ANN)
    assert bob.state == {"health": ["lethal"], "experience": 3}
    assert [c.name for c in store.list_characters(campaign.id)] == ["Ann", "Bob"]
    with pytest.raises(ConteurError) as err:
        store.add_character(campaign.id, {**BOB, "dexterity": 2})
    assert err.value.key == "store.character.duplicate"
    assert counts(store) == (2, 2)


def test_editing_a_character_appends_a_version_with_its_reason(store: Store) -> None:
    campaign = store.create_campaign("Saloon", "vtm")
    bob = store.add_character(campaign.id, BOB)
    store.update_character(bob.id, sheet={**BOB, "brawl": 3}, reason="entraînement")
    store.update_character(bob.id, state={"health": ["bashing"], "willpower": 3})
    after = store.adjust_counters(bob.id, {"experience": 2, "reputation": -1})
    assert after.version == 4
    assert after.state == {"health": ["bashing"], "willpower": 3, "experience": 2, "reputation": -1}
    history = store.character_history(bob.id)
    assert [(v.version, v.reason) for v in history] == [
        (1, "created"),
        (2, "entraînement"),
        (3, "edited"),
        (4, "edited"),
    ]
    assert history[0].sheet == BOB and history[1].sheet["brawl"] == 3
    assert history[0].describe_reason("fr") == "création"
    assert history[1].describe_reason("en") == "entraînement"


@pytest.mark.parametrize(
    ("state", "field"),
    [
        ({"health": ["cassé"]}, "health"),
        ({"ammo": {"arquebuse": 3}}, "ammo"),
        ({"willpower": "beaucoup"}, "willpower"),
        ({"experience": "deux"}, "experience"),
    ],
)
def test_a_bad_state_is_refused_naming_the_field(
    store: Store, state: dict[str, object], field: str
) -> None:
    campaign = store.create_campaign("Saloon", "vtm")
    bob = store.add_character(campaign.id, BOB)
    with pytest.raises(ConteurError) as err:
        store.update_character(bob.id, state=state)
    for lang in ("fr", "en"):
        assert field in err.value.message(lang)  # type: ignore[arg-type]
    assert store.get_character(bob.id).version == 1
    assert counts(store) == (1, 1)


def test_import_with_a_typo_names_the_field_in_both_languages_and_changes_nothing(
    store: Store,
) -> None:
    campaign = store.create_campaign("Saloon", "vtm")
    store.add_character(campaign.id, BOB)
    before = counts(store)
    with pytest.raises(ConteurError) as err:
        store.import_characters(campaign.id, TYPO_YAML, "yaml", source="bande.yaml")
    fr, en = err.value.message("fr"), err.value.message("en")
    assert "Dextértié" in fr and "Dextértié" in en
    assert "Dextérité" in fr and "Dexterity" in en  # the suggestion, in each language
    assert "bande.yaml[2]" in fr and "bande.yaml[2]" in en
    assert fr != en
    assert counts(store) == before  # Lucien, valid, was not imported either


@pytest.mark.parametrize(
    ("text", "fmt", "key"),
    [
        ("nom: [Lucien", "yaml", "store.import.bad_yaml"),
        ('{"nom": "Lucien",', "json", "store.import.bad_json"),
        ("- 3\n- 4\n", "yaml", "store.import.not_mapping"),
        ("", "yaml", "store.import.empty"),
        ("nom: Lucien", "toml", "store.import.format"),
        (
            '{"format": "conteur.character", "ruleset": "hunter", "sheet": {}}',
            "json",
            "store.import.ruleset",
        ),
        (
            '{"sheet": {"nom": "Lucien", "type": "vampire"}, "sante": []}',
            "json",
            "store.import.field",
        ),
    ],
)
def test_unreadable_imports_are_refused(store: Store, text: str, fmt: str, key: str) -> None:
    campaign = store.create_campaign("Saloon", "vtm")
    with pytest.raises(ConteurError) as err:
        store.import_characters(campaign.id, text, fmt, source="f")
    assert err.value.key == key
    assert err.value.message("fr") and err.value.message("en")
    assert counts(store) == (0, 0)


def test_export_then_import_gives_the_same_characters(store: Store) -> None:
    first = store.create_campaign("Saloon", "vtm")
    store.add_character(first.id, ANN, {"health": ["bashing"], "experience": 2})
    store.add_character(first.id, BOB)
    for fmt in ("yaml", "json"):
        text = store.export_characters(first.id, fmt)
        if fmt == "json":
            json.loads(text)
        other = store.create_campaign(f"Copie {fmt}", "vtm")
        imported = store.import_characters(other.id, text, fmt)
        assert [(c.name, c.sheet, c.state) for c in imported] == [
            (c.name, c.sheet, c.state) for c in store.list_characters(first.id)
        ]
        assert all(v.reason == "imported" for c in imported for v in store.character_history(c.id))
    one = store.export_character(store.list_characters(first.id)[0].id, "json")
    assert json.loads(one)["format"] == "conteur.character"


def test_player_tokens_are_unguessable_and_unique(store: Store) -> None:
    campaign = store.create_campaign("Saloon", "vtm")
    chars = [
        store.add_character(campaign.id, {"name": f"Pistolero {i}", "kind": "mortal"})
        for i in range(20)
    ]
    tokens = [c.token for c in chars]
    assert len(set(tokens)) == len(tokens)
    for token in tokens:
        assert re.fullmatch(r"[A-Za-z0-9_-]{43}", token)  # 256 random bits, URL-safe
    assert store.character_by_token(tokens[3]) == store.get_character(chars[3].id)
    assert store.character_by_token(tokens[3][:-1]) is None
    assert store.character_by_token("") is None
    fresh = store.new_player_token(chars[3].id)
    assert fresh != tokens[3] and store.character_by_token(tokens[3]) is None
    assert store.character_by_token(fresh) is not None


def test_the_gm_secret_is_stored_hashed(store: Store) -> None:
    assert not store.has_gm_secret()
    with pytest.raises(ConteurError):
        store.set_gm_password("court")
    store.set_gm_password("le conteur est là")
    token = store.new_gm_token()
    assert store.has_gm_secret()
    assert store.check_gm_secret("le conteur est là") and store.check_gm_secret(token)
    assert not store.check_gm_secret("le conteur est la") and not store.check_gm_secret("")
    store.set_gm_password("un autre mot de passe")
    assert not store.check_gm_secret("le conteur est là")
    with store.engine.connect() as conn:
        stored = " ".join(conn.exec_driver_sql("SELECT hash FROM gm_secrets").scalars())
    assert "conteur" not in stored and token not in stored and stored.startswith("scrypt$")


def test_unknown_ids_are_clear_errors(store: Store) -> None:
    for call, key in [
        (lambda: store.get_campaign(99), "store.campaign.unknown"),
        (lambda: store.get_character(99), "store.character.unknown"),
        (lambda: store.get_encounter(99), "store.encounter.unknown"),
        (lambda: store.events_since(99, -1), "store.encounter.unknown"),
    ]:
        with pytest.raises(ConteurError) as err:
            call()
        assert err.value.key == key


def test_values_json_cannot_hold_are_refused(store: Store) -> None:
    campaign = store.create_campaign("Saloon", "vtm")
    with pytest.raises(ConteurError) as err:
        store.import_characters(campaign.id, "nom: Lucien\ntype: vampire\nné: 1850-05-01\n", "yaml")
    assert err.value.key == "store.import.not_json"
    assert counts(store) == (0, 0)
