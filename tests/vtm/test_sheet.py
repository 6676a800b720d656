"""Character sheets: French/English traits, defaults, readable errors (fr and en)."""

from __future__ import annotations

from typing import Any

import pytest

from conteur.i18n import ConteurError
from conteur.rulesets.vtm.sheet import VtmSheet, load_sheet
from conteur.rulesets.vtm.tables import load_tables
from conteur.rulesets.vtm.traits import (
    ABILITIES,
    ALL_TRAITS,
    ATTRIBUTES,
    DISCIPLINES,
    canonical_power,
    canonical_trait,
    trait_label,
)


def sheet(**fields: Any) -> VtmSheet:
    return load_sheet({"name": "Lucien", "kind": "vampire", **fields}, "lucien.yaml")


def error_of(data: dict[str, Any], source: str = "lucien.yaml") -> ConteurError:
    with pytest.raises(ConteurError) as info:
        load_sheet(data, source)
    return info.value


# ---------------------------------------------------------------- spellings

FRENCH = {
    "Force": "strength",
    "Dextérité": "dexterity",
    "Dexterite": "dexterity",
    "DEXTÉRITÉ": "dexterity",
    "Vigueur": "stamina",
    "Charisme": "charisma",
    "Manipulation": "manipulation",
    "Apparence": "appearance",
    "Perception": "perception",
    "Intelligence": "intelligence",
    "Astuce": "wits",
    "Vigilance": "alertness",
    "Athlétisme": "athletics",
    "Bagarre": "brawl",
    "Esquive": "dodge",
    "Empathie": "empathy",
    "Expression": "expression",
    "Intimidation": "intimidation",
    "Commandement": "leadership",
    "Expérience de la rue": "streetwise",
    "experience-de-la-rue": "streetwise",
    "Subterfuge": "subterfuge",
    "Animaux": "animal_ken",
    "Artisanat": "crafts",
    "Conduite": "drive",
    "Étiquette": "etiquette",
    "Armes à feu": "firearms",
    "armes_a_feu": "firearms",
    "Mêlée": "melee",
    "Melee": "melee",
    "Représentation": "performance",
    "Sécurité": "security",
    "Furtivité": "stealth",
    "Survie": "survival",
    "Érudition": "academics",
    "Informatique": "computer",
    "Finances": "finance",
    "Investigation": "investigation",
    "Droit": "law",
    "Linguistique": "linguistics",
    "Médecine": "medicine",
    "Occultisme": "occult",
    "Politique": "politics",
    "Science": "science",
    "Célérité": "celerity",
    "Endurance": "fortitude",
    "Puissance": "potence",
    "Auspex": "auspex",
    "Occultation": "obfuscate",
    "Protéisme": "protean",
    "Vicissitude": "vicissitude",
    "Volonté": "willpower",
}


@pytest.mark.parametrize(("spelling", "key"), sorted(FRENCH.items()))
def test_french_trait_names(spelling: str, key: str) -> None:
    assert canonical_trait(spelling) == key


@pytest.mark.parametrize("key", ALL_TRAITS)
def test_english_keys_and_labels_name_themselves(key: str) -> None:
    assert canonical_trait(key) == key
    assert canonical_trait(key.upper()) == key
    assert canonical_trait(trait_label(key, "fr")) == key
    assert canonical_trait(trait_label(key, "en")) == key


@pytest.mark.parametrize(
    ("spelling", "key"),
    [
        ("WP", "willpower"),
        ("Astuce d'esprit", "wits"),
        ("vol", "larceny"),
        ("Exp. de la rue", "streetwise"),
    ],
)
def test_the_data_files_other_spellings_name_their_trait(spelling: str, key: str) -> None:
    """Abbreviations and other translations come from ``data/spellings.yaml``."""
    assert canonical_trait(spelling) == key


def test_required_traits_exist() -> None:
    assert len(ATTRIBUTES) == 9
    for key in ("alertness", "animal_ken", "firearms", "melee", "science", "streetwise"):
        assert key in ABILITIES
    for key in ("celerity", "fortitude", "potence", "auspex", "obfuscate", "protean"):
        assert key in DISCIPLINES


def test_trait_labels_in_both_languages() -> None:
    assert trait_label("dexterity", "fr") == "Dextérité"
    assert trait_label("dexterity", "en") == "Dexterity"
    assert trait_label("fortitude", "fr") == "Endurance"
    assert trait_label("potence", "fr") == "Puissance"
    assert trait_label("willpower", "fr") == "Volonté"
    assert trait_label("Bagarre", "en") == "Brawl"


def test_unknown_spelling_is_none() -> None:
    assert canonical_trait("Charme") is None


def test_power_spellings() -> None:
    assert canonical_power("Griffes de fauve") == "feral_claws"
    assert canonical_power("crocs") == "fangs"
    assert canonical_power("Nuée de corbeaux") == "nuee_de_corbeaux"


# ---------------------------------------------------------------- forms and defaults


def test_flat_sheet_in_french_and_english() -> None:
    s = load_sheet(
        {"name": "Lucien", "kind": "vampire", "dexterity": 3, "Bagarre": 2, "Célérité": 2}
    )
    assert s.attributes["dexterity"] == 3
    assert s.abilities == {"brawl": 2}
    assert s.disciplines == {"celerity": 2}


def test_nested_sheet_equals_flat_sheet() -> None:
    flat = load_sheet({"nom": "Lucien", "type": "vampire", "Force": 3, "Mêlée": 2, "Endurance": 1})
    nested = load_sheet(
        {
            "name": "Lucien",
            "kind": "vampire",
            "attributs": {"strength": 3},
            "abilities": {"Mêlée": 2},
            "disciplines": {"fortitude": 1},
        }
    )
    assert flat == nested


def test_defaults() -> None:
    s = load_sheet({"name": "Bob", "kind": "mortel"})
    assert s.kind == "mortal"
    assert s.id == "bob"
    assert s.attributes == dict.fromkeys(ATTRIBUTES, 1)
    assert s.abilities == {} and s.disciplines == {}
    assert s.willpower == 5 and s.blood == 10
    assert s.powers == [] and s.weapons == [] and s.armour is None
    assert s.ambidextrous is False
    assert s.health_levels == list(load_tables().health.default_track)
    assert len(s.health_levels) == 7


@pytest.mark.parametrize(
    ("word", "kind"),
    [
        ("mortel", "mortal"),
        ("Mortal", "mortal"),
        ("vampire", "vampire"),
        ("surnaturel", "supernatural"),
        ("autre", "supernatural"),
        ("supernatural", "supernatural"),
    ],
)
def test_kind_words(word: str, kind: str) -> None:
    assert load_sheet({"name": "X", "kind": word}).kind == kind


def test_vampires_have_fangs() -> None:
    assert sheet().powers == ["fangs"]
    assert sheet(pouvoirs=["Griffes de fauve"]).powers == ["feral_claws", "fangs"]
    assert load_sheet({"name": "Bob", "kind": "mortal"}).powers == []
    assert sheet(powers=["feral_claws"]).has_power("Griffes de fauve")


def test_trait_lookup_and_initiative() -> None:
    s = sheet(dexterity=3, Astuce=2, brawl=2, Célérité=1, volonte=7)
    assert s.trait("dexterity") == 3
    assert s.trait("Dextérité") == 3
    assert s.trait("brawl") == 2
    assert s.trait("melee") == 0
    assert s.trait("celerity") == 1
    assert s.trait("potence") == 0
    assert s.trait("willpower") == 7
    assert s.trait("strength") == 1
    assert s.initiative_rating() == 5
    assert s.supernatural


def test_trait_lookup_of_a_non_trait_is_an_error() -> None:
    with pytest.raises(ConteurError) as info:
        sheet().trait("Dexterit")
    assert "Dextérité" in info.value.message("fr")
    assert "Dexterity" in info.value.message("en")


def test_weapons_and_armour_by_name_become_ids() -> None:
    s = sheet(armes=["Couteau", "colt"], armure="Manteau de cuir épais", ambidextre="oui")
    assert s.weapons == ["knife", "heavy_revolver"]
    assert s.armour == "leather_coat"
    assert s.ambidextrous is True
    tables = load_tables("1899")
    assert [w.id for w in s.resolve_weapons(tables)] == ["knife", "heavy_revolver"]
    armour = s.resolve_armour(tables)
    assert armour is not None and armour.rating == 1


def test_a_name_of_two_eras_stays_as_written() -> None:
    s = sheet(armes=["Fusil à pompe"])
    assert s.weapons == ["Fusil à pompe"]
    assert s.resolve_weapons(load_tables("1899"))[0].id == "pump_shotgun"
    assert s.resolve_weapons(load_tables("modern"))[0].id == "shotgun"


def test_inline_custom_weapon() -> None:
    rapier = {
        "id": "rapier",
        "name_fr": "Rapière",
        "name_en": "Rapier",
        "category": "melee",
        "damage": {"strength_plus": 2},
        "damage_type": "lethal",
    }
    s = sheet(weapons=["knife", rapier])
    assert s.weapons == ["knife", "rapier"]
    assert s.custom_weapons[0].damage.strength_plus == 2
    resolved = s.resolve_weapons(load_tables())
    assert [w.id for w in resolved] == ["knife", "rapier"]
    tables = load_tables().with_weapons(s.custom_weapons)
    assert tables.weapon("Rapière").id == "rapier"
    assert "rapier" not in load_tables().weapons


def test_extra_health_levels() -> None:
    s = sheet(santé=["Contusionné", "bruised", "Touché", "Invalide"])
    assert s.health_levels == ["bruised", "bruised", "hurt", "incapacitated"]


def test_sheet_is_frozen() -> None:
    s = sheet()
    with pytest.raises(ValueError):
        s.name = "Bob"  # type: ignore[misc]


# ---------------------------------------------------------------- errors


def test_typo_names_the_field_and_suggests_in_both_languages() -> None:
    err = error_of({"name": "Lucien", "kind": "vampire", "Dexterit": 3})
    assert err.key == "input.invalid"
    fr, en = err.message("fr"), err.message("en")
    assert "lucien.yaml" in fr and "lucien.yaml" in en
    assert "« Dexterit »" in fr and '"Dexterit"' in en
    assert "vouliez-vous dire « Dextérité »" in fr
    assert 'did you mean "Dexterity"' in en


def test_typo_in_nested_section() -> None:
    err = error_of({"name": "Lucien", "kind": "vampire", "capacités": {"Bagare": 2}})
    assert "« Bagare »" in err.message("fr") and "Bagarre" in err.message("fr")
    assert '"Bagare"' in err.message("en") and "Brawl" in err.message("en")


def test_unknown_key_without_suggestion() -> None:
    err = error_of({"name": "Lucien", "kind": "vampire", "xyzzy": 2})
    assert "clé inconnue" in err.message("fr")
    assert "unknown key" in err.message("en")


def test_rating_out_of_range_names_the_trait() -> None:
    err = error_of({"name": "Lucien", "kind": "vampire", "dexterite": 12})
    assert err.message("fr") == (
        "lucien.yaml\u202f: fiche\u202f: champ «\u202fDextérité\u202f»\u202f: doit valoir au plus 10 (reçu 12)"
    )
    assert err.message("en") == 'lucien.yaml: sheet: field "Dexterity": must be at most 10 (got 12)'


@pytest.mark.parametrize(
    ("data", "fr_part", "en_part"),
    [
        ({"kind": "vampire"}, "« nom » : obligatoire", '"name": required'),
        ({"name": "X"}, "« type » : obligatoire", '"kind": required'),
        ({"name": "X", "kind": "zombie"}, "type de personnage inconnu", "unknown character kind"),
        ({"name": "X", "kind": "mortal", "Force": "trois"}, "« Force » : doit être", '"Strength"'),
        ({"name": "X", "kind": "mortal", "Force": True}, "nombre entier", "whole number"),
        ({"name": "X", "kind": "mortal", "volonté": 0}, "au moins 1", "at least 1"),
        ({"name": "X", "kind": "mortal", "Force": 2, "strength": 3}, "deux fois", "given twice"),
        ({"name": "X", "kind": "mortal", "attributs": 3}, "table de clés", "mapping"),
        ({"name": "X", "kind": "mortal", "ambidextre": "bof"}, "oui ou non", "yes or no"),
        (
            {"name": "X", "kind": "mortal", "pouvoirs": ["griffes de fauves"]},
            "Griffes de fauve",
            "Feral Claws",
        ),
        (
            {"name": "X", "kind": "mortal", "santé": ["Invalide", "Touché"]},
            "Invalide",
            "Incapacitated",
        ),
        ({"name": "X", "kind": "mortal", "santé": ["foo", "Invalide"]}, "« foo »", '"foo"'),
    ],
)
def test_invalid_sheets(data: dict[str, Any], fr_part: str, en_part: str) -> None:
    err = error_of(data)
    assert err.key == "input.invalid"
    assert fr_part in err.message("fr")
    assert en_part in err.message("en")


def test_inline_weapon_error_names_the_weapon_field() -> None:
    bad = {"id": "z", "category": "melee", "damage": {"dice": 3}, "damage_type": "lethal"}
    err = error_of({"name": "X", "kind": "mortal", "armes": [bad]})
    assert "« armes[1].damage »" in err.message("fr")
    assert '"weapons[1].damage"' in err.message("en")


def test_not_a_mapping() -> None:
    with pytest.raises(ConteurError) as info:
        load_sheet(["Lucien"], "x.yaml")  # type: ignore[arg-type]
    assert info.value.key == "input.invalid"
    assert info.value.message("en") == (
        "x.yaml: sheet: must be a mapping of keys to values (got \"['Lucien']\")"
    )


def test_ratings_read_what_each_section_holds() -> None:
    """``ratings`` (the fast path of ``trait``) gives every canonical key the rating its own
    section holds, and 0 for what the sheet does not name."""
    s = sheet(
        attributes={"dexterity": 4, "stamina": 3},
        abilities={"firearms": 2, "dodge": 5},
        disciplines={"potence": 2, "fortitude": 1},
        willpower=7,
    )
    expected = dict.fromkeys(ALL_TRAITS, 0)
    expected |= {key: s.attributes[key] for key in ATTRIBUTES}  # omitted attributes are 1
    expected |= {"firearms": 2, "dodge": 5, "potence": 2, "fortitude": 1, "willpower": 7}
    assert s.ratings == expected
    assert {key: s.trait(key) for key in ALL_TRAITS} == expected
    assert s.ratings["dexterity"] == 4 and s.ratings["wits"] == 1
