"""Quick NPCs through the contract: every bundled archetype of every ruleset (and era)
starts in an encounter and takes one attack through the engine; NPCs from numbers too."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from conteur.dice import SeededDice
from conteur.engine import Encounter, available_rulesets, get_ruleset
from conteur.engine.npcs import Archetype, build_archetypes, check_params
from conteur.engine.script import play_script
from conteur.i18n import ConteurError

ATTACKER = {
    "vtm": {"id": "bruiser", "side": "a", "sheet": {"name": "Bruiser", "dexterity": 3, "brawl": 3}},
    "hunter": {"id": "bruiser", "side": "a", "strength": 3, "dexterity": 3, "brawl": 3},
    "western": {
        "id": "bruiser",
        "side": "a",
        "ready": True,
        "characteristics": {"rapidite": 24},
        "skills": {"aimed_pistol": 90},
        "weapons": ["colt_saa"],
    },
}
"""Who attacks the NPC, in each ruleset."""

SCRIPT = {
    "vtm": ["initiative", "bruiser: declare punch {npc}", "{npc}: declare dodge", "bruiser: act"],
    "hunter": ["initiative", "bruiser: attack {npc}", "{npc}: pass"],
    "western": ["round", "bruiser: shoot {npc}"],
}
ATTACK_EVENT = {"vtm": "AttackRolled", "hunter": "HunterAttackRolled", "western": "ShotRolled"}

RULESETS = ("vtm", "hunter", "western")


def cases() -> list[tuple[str, str | None, str]]:
    out: list[tuple[str, str | None, str]] = []
    for name in RULESETS:
        ruleset = get_ruleset(name)
        for era in ruleset.eras() or (None,):
            out.extend((name, era, a.id) for a in ruleset.archetypes(era))
    return out


def fight(name: str, era: str | None, npc: dict[str, Any]) -> Encounter:
    """One attack on ``npc`` by the ruleset's bruiser; the encounter after it."""
    npc = {**npc, "side": "b", "position": [1, 0]}
    scenario: dict[str, Any] = {"ruleset": name, "combatants": [ATTACKER[name], npc]}
    if era is not None:
        scenario["era"] = era
    enc = Encounter.start(scenario)
    lines = [(i + 1, line.format(npc=npc["id"])) for i, line in enumerate(SCRIPT[name])]
    _, stop = play_script(enc, lines, SeededDice(3), "fr")
    assert stop is None or stop[1] == lines[-1][1], stop and stop[2].message("en")
    attacks = [
        e
        for entry in enc.active()
        for e in entry.events
        if type(e).__name__ == ATTACK_EVENT[name] and e.to_dict().get("target") == npc["id"]
    ]
    assert attacks, f"{npc['id']} took no attack"
    return enc


def test_the_shipped_rulesets_have_archetypes() -> None:
    assert set(RULESETS) <= set(available_rulesets())
    ids = {name: {a.id for a in get_ruleset(name).archetypes()} for name in RULESETS}
    assert ids["vtm"] == {"thug", "policeman", "ghoul"}
    assert ids["western"] == {"cowboy", "sheriff", "outlaw"}
    assert {"thug", "cultist", "vampire", "werewolf", "zombie"} <= ids["hunter"]
    assert get_ruleset("vtm").eras() == ("1899", "modern")
    modern = {a.id: a for a in get_ruleset("vtm").archetypes("modern")}
    assert modern["policeman"].entry["sheet"]["armour"] == "kevlar_vest"


@pytest.mark.parametrize(("name", "era", "archetype"), cases())
def test_each_archetype_starts_and_takes_an_attack(
    name: str, era: str | None, archetype: str
) -> None:
    ruleset = get_ruleset(name)
    found = next(a for a in ruleset.archetypes(era) if a.id == archetype)
    assert found.default
    assert found.label.fr and found.label.en
    for lang in ("fr", "en"):
        entry = found.scenario_entry(lang=lang)  # type: ignore[arg-type]
        assert json.loads(json.dumps(entry)) == entry
    fight(name, era, found.scenario_entry(lang="en"))


@pytest.mark.parametrize("name", RULESETS)
def test_a_quick_npc_from_numbers_fights(name: str) -> None:
    ruleset = get_ruleset(name)
    params = ruleset.quick_npc_params()
    assert params and params[0].name == "name"
    for p in params:
        assert p.kind in ("text", "int", "choice", "bool")
        if p.kind == "int":
            assert p.min is not None and p.max is not None and p.min <= p.default <= p.max
    entry = ruleset.quick_npc({"name": "Grosse Brute"})
    assert entry["id"] == "grosse_brute"
    fight(name, None, entry)
    # the highest numbers and a weapon still make a fighter
    top = {p.name: p.max for p in params if p.kind == "int"}
    choices = {p.name: p.choices[-1] for p in params if p.kind == "choice"}
    fight(name, None, ruleset.quick_npc({"name": "Max", **top, **choices}))


def test_vtm_quick_npc_numbers() -> None:
    vtm = get_ruleset("vtm")
    entry = vtm.quick_npc(
        {"name": "Bob", "attack": "7", "damage": 5, "soak": 3, "health": 4, "weapon": "club"}
    )
    sheet = entry["sheet"]
    assert sheet["attributes"]["dexterity"] + sheet["abilities"]["melee"] == 7
    assert sheet["attributes"]["strength"] == 3  # club: Strength + 2 = 5 dice
    assert sheet["attributes"]["stamina"] == 3
    assert sheet["health_levels"] == ["bruised", "hurt", "injured", "incapacitated"]
    modern = vtm.quick_npc({"name": "Cop", "weapon": "light_pistol"}, "modern")
    assert modern["sheet"]["abilities"] == {"firearms": 2}


@pytest.mark.parametrize(
    ("values", "key"),
    [
        ({}, "engine.npc.param_missing"),
        ({"name": "A", "attack": 11}, "engine.npc.param_range"),
        ({"name": "A", "attack": "many"}, "engine.npc.param_number"),
        ({"name": "A", "attack": True}, "engine.npc.param_number"),
        ({"name": "A", "weapon": "bazooka"}, "engine.npc.param_choice"),
        ({"name": "A", "colour": "red"}, "engine.npc.param_unknown"),
    ],
)
def test_quick_npc_params_are_checked(values: dict[str, Any], key: str) -> None:
    with pytest.raises(ConteurError) as info:
        get_ruleset("vtm").quick_npc(values)
    assert info.value.key == key
    assert info.value.message("fr") != info.value.message("en")


def test_a_weapon_of_another_era_is_no_choice() -> None:
    with pytest.raises(ConteurError) as info:
        get_ruleset("vtm").quick_npc({"name": "A", "weapon": "light_pistol"}, "1899")
    assert info.value.key == "engine.npc.param_choice"
    assert (
        check_params(get_ruleset("western").quick_npc_params(), {"name": "J", "ready": "oui"})[
            "ready"
        ]
        is True
    )


def check_vtm(entry: dict[str, Any], era: str | None) -> None:
    get_ruleset("vtm").new_state({"era": era, "combatants": [entry]})


@pytest.mark.parametrize(
    ("text", "entry", "field", "words"),
    [
        ("archetypes: 3", "-", "archetypes", []),
        ("archetypes: [{names: {fr: A, en: B}, entry: {}}]", "archetypes[1]", "id", []),
        ("archetypes: [{id: a, names: Voyou, entry: {}, colour: red}]", "a", "colour", []),
        ("archetypes: [{id: a, names: {fr: A}, entry: {}}]", "a", "names", []),
        ("archetypes: [{id: a, names: A, entry: {}, eras: [1066]}]", "a", "eras", ["1066"]),
        (
            "archetypes: [{id: a, names: A, entry: {sheet: {dexterity: 12}}}]",
            "a",
            "entry",
            ["Dextérité", "10"],
        ),
        (
            "archetypes: [{id: a, names: A, entry: {sheet: {weapons: [glock]}}}]",
            "a",
            "entry",
            ["light_pistol", "1899"],
        ),
        (
            "archetypes: [{id: a, names: A, entry: {}, by_era: {1899: {sheet: {brawl: x}}}}]",
            "a",
            "by_era.1899",
            [],
        ),
    ],
)
def test_archetype_files_are_validated(text: str, entry: str, field: str, words: list[str]) -> None:
    with pytest.raises(ConteurError) as info:
        build_archetypes(
            text, "mine.yaml", "1899", ("1899", "modern"), check_vtm, ("sheet", "name")
        )
    for lang in ("fr", "en"):
        message = info.value.message(lang)  # type: ignore[arg-type]
        assert "mine.yaml" in message and entry in message and field in message, message
        for word in words:
            assert word in info.value.message("fr"), info.value.message("fr")


def test_archetype_naming_follows_the_language() -> None:
    (a,) = build_archetypes(
        "archetypes: [{id: a, names: {fr: Voyou, en: Thug}, entry: {sheet: {brawl: 2}}}]",
        "mine.yaml",
        "1899",
        ("1899",),
        check_vtm,
        ("sheet", "name"),
    )
    assert isinstance(a, Archetype)
    assert a.scenario_entry(lang="fr") == {"id": "a", "sheet": {"name": "Voyou", "brawl": 2}}
    assert a.scenario_entry("b", lang="en")["sheet"]["name"] == "Thug"
    assert a.scenario_entry("b", lang="en")["id"] == "b"


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    conteur = str(Path(sys.executable).parent / "conteur")
    return subprocess.run([conteur, *args], capture_output=True, text=True, check=False)


def test_cli_npc() -> None:
    listing = run_cli("npc", "vtm")
    assert listing.returncode == 0, listing.stderr
    assert "thug" in listing.stdout and "Voyou" in listing.stdout and "par défaut" in listing.stdout
    english = run_cli("npc", "vtm", "--era", "modern", "--lang", "en", "--json")
    data = json.loads(english.stdout)
    assert data["era"] == "modern" and {a["id"] for a in data["archetypes"]} == {
        "thug",
        "policeman",
        "ghoul",
    }
    assert {p["name"] for p in data["params"]} >= {"attack", "damage", "soak", "health"}
    one = run_cli("npc", "vtm", "policeman", "--era", "modern")
    assert one.returncode == 0, one.stderr
    assert one.stdout.startswith("# Agent de police (policeman)")
    (entry,) = yaml.safe_load(one.stdout)
    assert entry["sheet"]["name"] == "Agent de police"
    fight("vtm", "modern", entry)
    made = run_cli("npc", "western", "--param", "name=Joe", "--param", "skill=55", "--json")
    assert json.loads(made.stdout)["entry"]["skills"]["aimed_pistol"] == 55
    hunter = run_cli("npc", "hunter", "Loup-garou", "--lang", "en")
    assert hunter.returncode == 0 and "Werewolf" in hunter.stdout
    for args, word in (
        (("npc", "vtm", "vampire"), "thug"),
        (("npc", "hunter", "--era", "1899"), "hunter"),
        (("npc", "vtm", "--era", "1066"), "1066"),
        (("npc", "vtm", "--param", "attack=99", "--param", "name=X"), "attack"),
        (("npc", "vtm", "--param", "attack"), "attack"),
        (("npc", "chess"), "chess"),
    ):
        out = run_cli(*args)
        assert out.returncode == 2, (args, out.stdout)
        assert word in out.stderr and "Traceback" not in out.stderr, out.stderr
