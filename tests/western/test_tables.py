"""The default tables (shipped as data) and a game master's own files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from conteur.engine import Encounter
from conteur.i18n import ConteurError
from conteur.rulesets.western.tables import default_tables

from .fight import gunman

LIMBS = [
    f"{side}_{part}"
    for side in ("right", "left")
    for part in ("hand", "forearm", "arm", "foot", "shin", "thigh")
]


def test_W_LOC_2_default_table_covers_every_zone_and_sums_to_100() -> None:
    """W-LOC-2: head, neck, chest, abdomen and each side's six limb zones; 100 % in all."""
    t = default_tables()
    zones = {loc.id: loc for loc in t.locations}
    assert set(zones) == {"head", "neck", "chest", "abdomen", *LIMBS}
    assert sum(loc.high - loc.low + 1 for loc in t.locations) == 100
    assert all(loc.multiplier > 0 for loc in t.locations)


def test_W_CRIT_2_every_limb_has_a_ladder_and_the_hand_follows_the_text() -> None:
    """W-CRIT-2: hand → forearm at 30 %, → arm at 60 % (the text); every limb has a ladder."""
    t = default_tables()
    for limb in LIMBS:
        assert t.shifts.get(limb), limb
    for side in ("right", "left"):
        steps = [(s.to, s.margin) for s in t.shifts[f"{side}_hand"]]
        assert steps == [(f"{side}_forearm", 30), (f"{side}_arm", 60)]


def test_W_KO_1_default_stealth_modifiers() -> None:
    """W-KO-1: a dozen stealth modifiers, including the text's four."""
    t = default_tables()
    values = {m.id: m.value for m in t.stealth}
    assert len(values) >= 12
    assert (values["night"], values["silence"], values["few_hiding_places"]) == (-3, 2, 0)
    assert t.distance_modifier(15).value == 3


def test_W_RNG_1_a_dozen_period_weapons_with_range_and_damage() -> None:
    """W-RNG-1: weapons of 1873–1899 with maximum ranges, damage dice and reloading."""
    t = default_tables()
    firearms = [w for w in t.weapons if w.firearm]
    assert len(firearms) >= 10 and len(t.weapons) >= 12
    assert all(w.range > 0 and w.capacity for w in firearms)


def test_characteristics_include_the_ones_the_rules_read() -> None:
    ids = {c.id for c in default_tables().characteristics}
    assert {"force", "resistance", "rapidite", "reputation", "constitution"} <= ids


def scenario(tables: str | None = None) -> dict[str, object]:
    data: dict[str, object] = {
        "ruleset": "western",
        "combatants": [gunman("bill"), gunman("joe", x=10)],
    }
    if tables:
        data["tables"] = tables
    return data


def test_gm_file_replaces_a_section(tmp_path: Path) -> None:
    """A game master's file replaces the sections it names; the rest stay the defaults."""
    (tmp_path / "mine.yaml").write_text(
        "weapons:\n"
        "  - {id: peacemaker, fr: Pacificateur, en: Peacemaker, kind: revolver,"
        " skill: aimed_pistol, damage: 2D6, range: 60, capacity: 6}\n",
        encoding="utf-8",
    )
    data = scenario("mine.yaml")
    data["combatants"] = [
        gunman("bill", weapons=["peacemaker"]),
        gunman("joe", x=10, weapons=["peacemaker"]),
    ]
    enc = Encounter.start(data, tmp_path)
    assert enc.state.tables.weapon("Peacemaker").damage == "2D6"
    assert len(enc.state.tables.locations) == 16


def nnbsp(text: str) -> str:
    """French typography: a narrow no-break space before « : ; ? ! % » and inside « »."""
    text = re.sub(r" ([:;?!%])", "\u202f\\1", text)
    return text.replace("« ", "«\u202f").replace(" »", "\u202f»")


WEAPON = "{id: bad, fr: X, en: X, kind: revolver, skill: aimed_pistol, damage: 1D6, range: 5"
GM_FILES = [
    # the GM's file, the entry and field named (fr, en), the reason (fr, en)
    ("weapons:\n  - " + WEAPON.replace("1D6", "lots") + "}\n",
     "weapons n° 1 (bad) : champ « damage »", 'weapons #1 (bad): field "damage"',
     "« lots » n'est pas une expression de dés (comme 1D6+2)",
     '"lots" is not a dice expression (such as 1D6+2)'),
    ("weapons:\n  - " + WEAPON.replace("range: 5", "range: 0") + "}\n",
     "weapons n° 1 (bad) : champ « range »", 'weapons #1 (bad): field "range"',
     "doit valoir plus de 0 (reçu 0)", "must be more than 0 (got 0)"),
    ("weapons:\n  - " + WEAPON.replace("skill:", "skil:") + "}\n",
     "weapons n° 1 (bad) : champ « skil »", 'weapons #1 (bad): field "skil"',
     "champ inconnu ; vouliez-vous dire « skill » ?", 'unknown field; did you mean "skill"?'),
    ("weapons:\n  - " + WEAPON.replace("aimed_pistol", "lasso") + "}\n",
     "weapons n° 1 (bad) : champ « skill »", 'weapons #1 (bad): field "skill"',
     "compétence inconnue « lasso » (compétences : aimed_pistol, bow, brawl, instinctive_pistol,"
     " melee, rifle, shotgun, stealth, throwing, whip)",
     'unknown skill "lasso" (skills: aimed_pistol, bow, brawl, instinctive_pistol, melee, rifle,'
     " shotgun, stealth, throwing, whip)"),
    ("weapons:\n  - " + WEAPON.replace("revolver", "laser") + "}\n",
     "weapons n° 1 (bad) : champ « kind »", 'weapons #1 (bad): field "kind"',
     "« laser » n'est pas permis (choix : 'revolver', 'rifle', 'shotgun', 'bow', 'thrown',"
     " 'melee', 'fists', 'whip')",
     "\"laser\" is not allowed (choices: 'revolver', 'rifle', 'shotgun', 'bow', 'thrown',"
     " 'melee', 'fists', 'whip')"),
    ("weaponz: []\n", "en-tête : champ « weaponz »", 'top level: field "weaponz"',
     "champ inconnu ; vouliez-vous dire « weapons » ?", 'unknown field; did you mean "weapons"?'),
    ("characteristic_default: x\n", "en-tête : champ « characteristic_default »",
     'top level: field "characteristic_default"',
     "doit être un nombre entier (reçu « x »)", 'must be a whole number (got "x")'),
    ("speed:\n  revolver: [{min: 0, shots: 6}]\n  rifle: [{min: 0, shots: 1}]\n",
     "table « speed » : champ « revolver[1].shots »", 'table "speed": field "revolver[1].shots"',
     "6 tirs par tour, au plus 5 permis (W-SPD-1)", "6 shots per round, at most 5 allowed (W-SPD-1)"),
    ("speed:\n  rifle: [{min: 1, shots: 1}]\n", "table « speed » : champ « rifle »",
     'table "speed": field "rifle"',
     "la première tranche commence à 0", "the first band starts at 0"),
    ("shifts:\n  head: [{to: hat, margin: 2}]\n", "table « shifts » : champ « head[1].to »",
     'table "shifts": field "head[1].to"', "zone inconnue « hat » (zones : ",
     'unknown zone "hat" (zones: '),
]  # fmt: skip


@pytest.mark.parametrize(("text", "fr_where", "en_where", "fr", "en"), GM_FILES)
def test_gm_file_error_names_the_entry_and_field_in_words(
    tmp_path: Path, text: str, fr_where: str, en_where: str, fr: str, en: str
) -> None:
    """A bad entry is refused naming the file, the entry (its section, number and id) and
    the field in words — not pydantic's dotted path —, with the reason in each language."""
    (tmp_path / "bad.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ConteurError) as err:
        Encounter.start(scenario("bad.yaml"), tmp_path)
    file = str(tmp_path / "bad.yaml")
    french, english = err.value.message("fr"), err.value.message("en")
    if fr.endswith("(zones : "):  # the zones listed: every one of the defaults
        zones = ", ".join(sorted(loc.id for loc in default_tables().locations))
        fr, en = f"{fr}{zones})", f"{en}{zones})"
    assert french == nnbsp(f"{file} : {fr_where} : {fr}")
    assert english == f"{file}: {en_where}: {en}"


def test_gm_location_table_must_sum_to_100(tmp_path: Path) -> None:
    zones = [loc.model_dump() for loc in default_tables().locations]
    (tmp_path / "whole.yaml").write_text(yaml.safe_dump({"locations": zones}), encoding="utf-8")
    enc = Encounter.start(scenario("whole.yaml"), tmp_path)  # the default zones: 1..100
    assert [loc.id for loc in enc.state.tables.locations] == [z["id"] for z in zones]
    zones[-1]["high"] = 99  # the left thigh stops short: 99 % in all
    (tmp_path / "loc.yaml").write_text(yaml.safe_dump({"locations": zones}), encoding="utf-8")
    with pytest.raises(ConteurError) as err:
        Encounter.start(scenario("loc.yaml"), tmp_path)
    assert err.value.message("en") == (
        f'{tmp_path / "loc.yaml"}: table "locations": '
        "the zones must cover 1 to 100, each number exactly once (100 % in all)"
    )
    assert err.value.message("fr") == nnbsp(
        f"{tmp_path / 'loc.yaml'} : table « locations » : "
        "les zones doivent couvrir 1 à 100, chaque nombre une seule fois (100 % en tout)"
    )


def test_unreadable_gm_file(tmp_path: Path) -> None:
    with pytest.raises(ConteurError) as err:
        Encounter.start(scenario("missing.yaml"), tmp_path)
    assert err.value.key == "western.tables.unreadable"


@pytest.mark.parametrize(
    ("field", "value", "key"),
    [
        ("weapons", ["laser"], "western.unknown_weapon"),
        ("skills", {"tir au laser": 50}, "western.unknown_skill"),
        ("characteristics", {"MANA": 3}, "western.unknown_characteristic"),
        ("characteristics", {"FORCE": 30}, "western.sheet.out_of_range"),
        ("off_hand", "winchester_1873", "western.sheet.off_hand"),
        ("hat", "stetson", "input.invalid"),
    ],
)
def test_sheet_errors_name_the_field(field: str, value: object, key: str) -> None:
    data = scenario()
    data["combatants"] = [{**gunman("bill"), field: value}]
    with pytest.raises(ConteurError) as err:
        Encounter.start(data)
    assert err.value.key == key
    assert err.value.message("fr") and err.value.message("en")


def test_sheet_in_french_and_english() -> None:
    fr = {
        "id": "bill",
        "nom": "Bill",
        "camp": "a",
        "caractéristiques": {"RÉSISTANCE": 14},
        "compétences": {"Tir visé au pistolet": 56},
        "armes": ["Colt Single Action Army"],
    }
    en = {
        "id": "joe",
        "name": "Joe",
        "side": "b",
        "characteristics": {"resistance": 14},
        "skills": {"aimed pistol": 56},
        "weapons": ["colt_saa"],
    }
    enc = Encounter.start({"ruleset": "western", "combatants": [fr, en]})
    a, b = enc.state.fighters["bill"], enc.state.fighters["joe"]
    assert (
        a.characteristics == b.characteristics and a.skills == b.skills and a.weapons == b.weapons
    )
