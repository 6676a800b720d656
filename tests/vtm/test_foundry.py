"""Importing Foundry VTT actors (World of Darkness 20th system) as vtm sheets.

The actors under ``tests/vtm/foundry/`` are hand-written in Foundry's export format;
``template_trimmed.json`` is our trimmed rendition of the system's template.json
(source commit in its ``_comment``), from which the walk test builds actors.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from conteur.engine import Encounter, get_ruleset
from conteur.engine.characters import find_importer
from conteur.i18n import ConteurError
from conteur.rulesets.vtm.foundry import FOUNDRY_COMMIT, foundry_data, read_actor
from conteur.store import open_store

HERE = Path(__file__).parent / "foundry"


def actor(name: str) -> Any:
    return json.loads((HERE / f"{name}.json").read_text(encoding="utf-8"))


def unmapped_names(result: Any) -> set[str]:
    return {u.name for u in result.unmapped}


def test_the_format_is_found_through_the_contract() -> None:
    name, importer = find_importer("foundry")
    assert name == "vtm"
    assert importer(actor("mortal"), "mortal.json").sheet["name"] == "Martha Grey"
    with pytest.raises(ConteurError) as info:
        find_importer("roll20")
    assert info.value.key == "engine.import.unknown_format"
    assert "foundry (vtm)" in info.value.message("en")


def test_data_file_is_valid_and_names_the_commit() -> None:
    data = foundry_data()
    assert data.actor_types == {"Mortal": "mortal", "Vampire": "vampire", "PC": "mortal"}
    assert FOUNDRY_COMMIT in (
        Path(__file__).parents[2] / "src/conteur/rulesets/vtm/data/foundry.yaml"
    ).read_text(encoding="utf-8")


def test_mortal() -> None:
    r = read_actor(actor("mortal"), "mortal.json")
    assert r.sheet["kind"] == "mortal"
    assert r.sheet["attributes"]["dexterity"] == 3
    assert r.sheet["abilities"] == {
        "alertness": 2,
        "athletics": 1,
        "brawl": 1,
        "dodge": 2,
        "firearms": 1,
        "melee": 1,
        "medicine": 3,
    }
    assert r.sheet["willpower"] == 5
    assert "blood" not in r.sheet  # a mortal's sheet in Foundry shows no blood pool
    assert r.sheet["weapons"] == ["knife", "light_revolver"]  # "Revolver, Lt.": the alias table
    assert r.state == {"willpower": 4, "health": ["bashing", "bashing"]}
    assert {"medicine", "nature", "concept", "path"} <= unmapped_names(r)
    speciality = next(u for u in r.unmapped if u.field.endswith("medicine.speciality"))
    assert speciality.value == "Surgery"


def test_vampire_with_disciplines_weapons_and_armour() -> None:
    r = read_actor(actor("vampire"), "vampire.json")
    sheet = r.sheet
    assert sheet["kind"] == "vampire"
    assert sheet["disciplines"] == {"celerity": 2, "potence": 1, "presence": 2}
    assert sheet["weapons"] == ["sword", "heavy_revolver"]  # "Sabre", "Colt": table aliases
    assert sheet["armour"] == "leather_coat"
    assert sheet["blood"] == 13 and sheet["willpower"] == 6
    assert sheet["abilities"]["animal_ken"] == 1 and sheet["abilities"]["crafts"] == 1
    assert "powers" not in sheet  # the Bite is the Fangs every vampire has
    assert r.state == {
        "willpower": 5,
        "blood": 9,
        "health": ["aggravated", "lethal"],
        "conditions": {"dazed": True},
    }
    names = unmapped_names(r)
    assert {"generation", "clan", "sect", "sire", "Awe"} <= names
    assert "system.generation" in {u.field for u in r.unmapped}
    # The sheet and its state start a fight (the Storyteller's encounter of 1899).
    enc = Encounter.start(
        {"ruleset": "vtm", "combatants": [{"id": "lucien", "sheet": sheet, **r.state}]}
    )
    assert enc.state.fighters["lucien"].willpower == 5


def test_older_data_root() -> None:
    r = read_actor(actor("old_data_root"), "old_data_root.json")
    assert r.sheet["name"] == "Céleste"
    assert r.sheet["abilities"]["subterfuge"] == 3  # grouped under talent
    assert r.sheet["willpower"] == 4 and r.sheet["blood"] == 11  # at the root
    assert r.sheet["disciplines"] == {"celerity": 1, "auspex": 2}  # "Célérité": French names
    assert r.sheet["powers"] == ["heightened_senses"]
    assert r.sheet["weapons"] == ["derringer"]
    assert r.state == {"blood": 6, "health": ["bashing"]}
    fields = {u.field for u in r.unmapped}
    assert "data.generation" in fields and "data.clan" in fields
    assert not any(f.endswith(".max") or f.endswith(".roll") for f in fields)


def test_unknown_items_are_listed_never_dropped() -> None:
    r = read_actor(actor("unknown_items"), "unknown_items.json")
    assert r.sheet["weapons"] == ["knife", "heavy_pistol"]
    assert r.sheet["armour"] == "kevlar_vest"  # the one worn; the other is listed
    assert r.sheet["disciplines"] == {"dominate": 1}
    by_name = {u.name: u for u in r.unmapped}
    for name in (
        "Chainsaw",
        "Sacrificial Knife",
        "Raygun",
        "Tentacle",
        "Plate of Faith",
        "Obeah",
        "Command",
        "Allies",
        "Iron Will",
        "Holy Symbol",
        "Blessed",
        "awareness",
        "isignoringpain",
    ):
        assert name in by_name, name
    assert by_name["Chainsaw"].field == "items[0]"
    assert by_name["Obeah"].value == 2
    assert by_name["Blessed"].field == "effects[0]"
    # every item is either on the sheet or in unmapped
    items = actor("unknown_items")["items"]
    listed = {u.field for u in r.unmapped}
    for i in range(len(items)):
        assert f"items[{i}]" in listed or f"items[{i}]" in r.mapped


def test_a_weapon_whose_numbers_differ_is_noted() -> None:
    data = actor("mortal")
    data["items"][0]["system"]["damage"]["bonus"] = 3
    r = read_actor(data, "mortal.json")
    assert r.sheet["weapons"][0] == "knife"
    note = next(u for u in r.unmapped if u.field == "items[0].system.damage")
    assert "Couteau" in note.reason.describe("fr") and "Knife" in note.reason.describe("en")


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("data", "key", "field"),
    [
        ([1, 2], "vtm.foundry.not_actor", None),
        ({"name": "X", "items": []}, "vtm.foundry.not_actor", None),
        ({"name": "X", "type": "Werewolf", "system": {}}, "vtm.foundry.actor_type", None),
        (
            {
                "name": "X",
                "type": "Mortal",
                "system": {"attributes": {"strength": {"value": "lots"}}},
            },
            "vtm.foundry.bad_number",
            "system.attributes.strength.value",
        ),
        (
            {"name": "X", "type": "Mortal", "system": {"attributes": {"wits": {"value": 42}}}},
            "vtm.foundry.out_of_range",
            "system.attributes.wits.value",
        ),
        (
            {"name": "X", "type": "Mortal", "system": {}, "items": [{"type": "Armor"}]},
            "vtm.foundry.bad_item",
            "items[0]",
        ),
        ({"name": "", "type": "Mortal", "system": {}}, "vtm.foundry.bad_text", "name"),
    ],
)
def test_bad_input_names_the_file_and_the_field(data: Any, key: str, field: str | None) -> None:
    with pytest.raises(ConteurError) as info:
        read_actor(data, "hero.json")
    assert info.value.key == key
    for lang in ("fr", "en"):
        text = info.value.message(lang)  # type: ignore[arg-type]
        assert "hero.json" in text
        if field is not None:
            assert field in text


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    conteur = str(Path(sys.executable).parent / "conteur")
    return subprocess.run([conteur, *args], capture_output=True, text=True, check=False)


def test_cli_prints_an_importable_character_file(tmp_path: Path) -> None:
    out = run_cli("import", "foundry", str(HERE / "vampire.json"))
    assert out.returncode == 0, out.stderr
    assert "# Non importé (" in out.stdout and "system.clan (clan)" in out.stdout
    doc = yaml.safe_load(out.stdout)
    assert doc["format"] == "conteur.character" and doc["ruleset"] == "vtm"
    english = run_cli("import", "foundry", str(HERE / "vampire.json"), "--lang", "en")
    assert "# Not imported (" in english.stdout
    # The printed file goes into a store on SQLite as it is.
    store = open_store(f"sqlite:///{tmp_path / 'c.db'}")
    try:
        campaign = store.create_campaign("Paris 1899", "vtm", era="1899")
        (char,) = store.import_characters(campaign.id, out.stdout, "yaml", source="lucien.yaml")
        assert char.name == "Lucien Valois"
        assert char.state["blood"] == 9
    finally:
        store.close()


def test_cli_json_sheet_goes_into_a_store(tmp_path: Path) -> None:
    out = run_cli("import", "foundry", str(HERE / "unknown_items.json"), "--json", "--lang", "en")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == {"ruleset", "sheet", "state", "unmapped"}
    assert data["ruleset"] == "vtm"
    chainsaw = next(u for u in data["unmapped"] if u["name"] == "Chainsaw")
    assert chainsaw["field"] == "items[0]" and chainsaw["value"] == "Melee Weapon"
    assert chainsaw["reason"].startswith("no weapon of that name")
    store = open_store(f"sqlite:///{tmp_path / 'c.db'}")
    try:
        campaign = store.create_campaign("Today", "vtm", era="modern")
        char = store.add_character(campaign.id, data["sheet"], data["state"])
        assert char.name == "Brother Ezekiel"
        exported = yaml.safe_load(store.export_character(char.id))
        assert exported["sheet"]["weapons"] == ["knife", "heavy_pistol"]
    finally:
        store.close()


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("{not json", ["bad.json", "JSON"]),
        (
            '{"name": "X", "type": "Vampire", "system": {"generation": "old"}}',
            ["system.generation"],
        ),
        ('{"name": "X", "type": "Changeling", "system": {}}', ["Changeling", "Mortal"]),
        ("[]", ["bad.json"]),
    ],
)
def test_cli_bad_input_exit_2_without_traceback(
    tmp_path: Path, content: str, words: list[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    for lang in ("fr", "en"):
        out = run_cli("import", "foundry", str(path), "--lang", lang)
        assert out.returncode == 2
        assert "Traceback" not in out.stderr
        for word in words:
            assert word in out.stderr
    missing = run_cli("import", "foundry", str(tmp_path / "none.json"))
    assert missing.returncode == 2 and "none.json" in missing.stderr
    unknown = run_cli("import", "fantasy", str(path), "--json")
    assert unknown.returncode == 2 and json.loads(unknown.stdout)["error"] == (
        "engine.import.unknown_format"
    )


# ------------------------------------------------------------------ every field of the template


TEMPLATE = json.loads((HERE / "template_trimmed.json").read_text(encoding="utf-8"))


def _merge(into: dict[str, Any], more: dict[str, Any]) -> None:
    for key, value in more.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = copy.deepcopy(value)


def template_actor(actor_type: str) -> dict[str, Any]:
    system: dict[str, Any] = {}
    for name in TEMPLATE["Actor"][actor_type]["templates"]:
        _merge(system, TEMPLATE["Actor"]["templates"][name])
    return system


def filled(value: Any, path: str) -> Any:
    """Every leaf given a value other than the template's default."""
    if isinstance(value, dict):
        return {k: filled(v, f"{path}.{k}") for k, v in value.items()}
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value - 1 if value >= 5 else value + 1
    if isinstance(value, str):
        return "wod.era.victorian" if path.endswith("settings.era") else "x"
    return value


def leaves(value: Any, path: str) -> list[str]:
    if isinstance(value, dict) and value:
        return [p for k, v in value.items() for p in leaves(v, f"{path}.{k}")]
    return [path]


@pytest.mark.parametrize("actor_type", ["Mortal", "Vampire"])
def test_every_field_of_the_template_is_mapped_or_listed(actor_type: str) -> None:
    system = filled(template_actor(actor_type), "system")
    system["newfield"] = 7  # a field this importer never heard of
    system["attributes"]["strength"]["newflag"] = 3
    data = {"name": "Template", "type": actor_type, "system": system}
    r = read_actor(data, "template.json")
    outcomes = {p: r.outcome(p) for p in leaves(system, "system")}
    lost = [p for p, o in outcomes.items() if o not in ("mapped", "unmapped", "ignored")]
    assert not lost, lost
    assert outcomes["system.newfield"] == "unmapped"
    assert outcomes["system.attributes.strength.newflag"] == "unmapped"
    for key in ("strength", "dexterity", "stamina", "perception", "wits"):
        assert outcomes[f"system.attributes.{key}.value"] == "mapped"
    for path in (
        "system.abilities.brawl.value",
        "system.abilities.animalken.value",
        "system.advantages.willpower.permanent",
        "system.advantages.willpower.temporary",
        "system.health.damage.bashing",
        "system.health.damage.aggravated",
        "system.health.bruised.value",
        "system.conditions.isstunned",
    ):
        assert outcomes[path] == "mapped", path
    assert outcomes["system.abilities.awareness.value"] == "unmapped"
    assert outcomes["system.abilities.brawl.speciality"] == "unmapped"
    assert outcomes["system.advantages.virtues.courage.permanent"] == "unmapped"
    # a Mortal's blood pool maps too here: the filling turned its hasbloodpool on
    assert outcomes["system.advantages.bloodpool.max"] == "mapped"
    if actor_type == "Vampire":
        assert outcomes["system.generation"] == "unmapped"
        assert outcomes["system.clan"] == "unmapped"
    # What was mapped is on the sheet, and the sheet loads.
    assert r.sheet["attributes"]["strength"] == 2
    assert r.sheet["abilities"]["animal_ken"] == 1
    get_ruleset("vtm").load_sheet(r.sheet, "template.json")


def test_template_items_map_or_are_listed() -> None:
    items_tpl = TEMPLATE["Item"]

    def item(itype: str, name: str, **system: Any) -> dict[str, Any]:
        body: dict[str, Any] = {}
        for part in items_tpl[itype]["templates"]:
            _merge(body, items_tpl["templates"][part])
        _merge(body, {k: v for k, v in items_tpl[itype].items() if k != "templates"})
        _merge(body, system)
        return {"name": name, "type": itype, "system": body}

    data = {
        "name": "Armed",
        "type": "Mortal",
        "system": template_actor("Mortal"),
        "items": [
            item(
                "Melee Weapon",
                "Knife",
                damage={"attribute": "strength", "bonus": 1, "type": "lethal"},
            ),
            item("Ranged Weapon", "Heavy Revolver", damage={"bonus": 6, "type": "lethal"}),
            item("Armor", "Kevlar Vest", soak={"bashing": 3, "lethal": 3}),
            item("Power", "Fortitude", type="wod.types.discipline", value=2),
            item("Power", "Ogham", type="wod.types.discipline", value=1),
            item("Melee Weapon", "Lightsaber"),
        ],
    }
    r = read_actor(data, "armed.json")
    assert r.sheet["weapons"] == ["knife", "heavy_revolver"]
    assert r.sheet["armour"] == "kevlar_vest"
    assert r.sheet["disciplines"] == {"fortitude": 2}
    assert {u.name for u in r.unmapped if u.field.startswith("items")} == {"Ogham", "Lightsaber"}


def test_pc_actor_type_reads_its_items() -> None:
    """Foundry v7's generic PC actor: the kind from its splat, abilities, Willpower and the
    blood pool from its items; what has no counterpart listed."""
    r = read_actor(actor("pc_vampire"), "pc_vampire.json")
    assert r.sheet["kind"] == "vampire"
    assert r.sheet["attributes"] == {"strength": 2, "dexterity": 4, "wits": 3}
    assert r.sheet["abilities"] == {"brawl": 2, "firearms": 3}
    assert r.sheet["willpower"] == 6 and r.sheet["blood"] == 12
    assert r.sheet["disciplines"] == {"celerity": 2}
    assert r.sheet["weapons"] == ["heavy_pistol"]
    assert r.state == {"willpower": 4, "blood": 7, "health": ["lethal"]}
    assert {"Awareness", "Resources", "concept"} <= unmapped_names(r)
    ghoul = actor("pc_vampire")
    ghoul["system"]["settings"]["splat"] = "werewolf"
    with pytest.raises(ConteurError) as info:
        read_actor(ghoul, "pc.json")
    assert info.value.key == "vtm.foundry.actor_type" and "werewolf" in info.value.message("en")
