"""Every event type of every ruleset reads in French and in English (issue 15).

``tests/test_words.py`` reads the events the shipped examples emit; many types no example
reaches (an armour destroyed, a spray shared, a GM's override, a tie settled...). Here every
type ``Ruleset.event_types()`` names is rendered: from the examples' fights where one emits
it, else from an instance built below with the fields the rules give it (real combatants of
that ruleset's example, real table ids). Each is stamped as its ruleset stamps it
(``Ruleset.visibility``) and read by the game master (``describe``) and by a player who
may not see it (``veiled``), in both languages. A text fails when it has a catalogue id or
key, a raw identifier (a snake_case id, an enum's name, ``True``/``None``, a Python
container), a number Babel did not write, or a French form left in English.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import pytest

from conteur.engine import Encounter
from conteur.engine.events import Event
from conteur.engine.registry import get_ruleset
from conteur.engine.visibility import player
from conteur.i18n import LANGS, Lang
from test_words import EXAMPLES, played, problems

RULESETS = ("vtm", "hunter", "western", "duel")

Ids = tuple[str, str, str]
"""Three combatants of the ruleset's first example: who acts, whom at, a third."""

SAMPLES: dict[str, Callable[[Ids], dict[str, Any]]] = {
    # ---- vtm (and its pack house_ranged)
    "AbortFailed": lambda c: {"fighter": c[0], "rules": ("V-INI-6",)},
    "AmbushResolved": lambda c: {
        "attacker": c[0],
        "target": c[1],
        "outcome": "first_strike",
        "extra": 0,
        "rules": ("V-MAN-7",),
    },
    "ArmourDestroyed": lambda c: {"target": c[1], "armour": "kevlar_vest", "rules": ("V-ARM-3",)},
    "Burned": lambda c: {"target": c[1], "levels": 2, "soak": 3, "rules": ("V-DMG-5",)},
    "CarefulAimLost": lambda c: {"fighter": c[0], "rules": ("R-AIM-3",)},
    "CoverZoneDrawn": lambda c: {
        "zone": "z1",
        "points": ((0.0, 0.0), (2.5, 0.0), (2.5, 1.5)),
        "level": "good",
        "rules": ("V-RNG-3",),
    },
    "CoverZoneErased": lambda c: {"zone": "z1", "level": "good", "rules": ("V-RNG-3",)},
    "DefenceBarred": lambda c: {
        "defender": c[1],
        "kind": "parry",
        "attacker": c[0],
        "rules": ("V-DEF-5",),
    },
    "DisarmBotched": lambda c: {"attacker": c[0], "target": c[1], "rules": ("V-CC-6",)},
    "Disarmed": lambda c: {
        "attacker": c[0],
        "target": c[1],
        "weapon": "heavy_revolver",
        "successes": 3,
        "strength": 2,
        "rules": ("V-CC-6",),
    },
    "FeedingStarted": lambda c: {"fighter": c[0], "target": c[1], "rules": ("V-CC-9",)},
    "GmOverride": lambda c: {
        "fighter": c[0],
        "field": "willpower",
        "value": 4,
        "reason": "x",
    },
    "GrappleSqueezed": lambda c: {
        "attacker": c[0],
        "target": c[1],
        "pool": 3,
        "rules": ("V-CC-4",),
    },
    "HeadShotKill": lambda c: {"target": c[1], "damage": 4, "stamina": 3, "rules": ("R-CALL-2",)},
    "Healed": lambda c: {"target": c[1], "levels": 1, "damage_type": "lethal"},
    "LimbRolled": lambda c: {
        "target": c[1],
        "location": "arm",
        "pool": 3,
        "difficulty": 7,
        "successes": 1,
        "needed": 2,
        "rules": ("R-CALL-4",),
    },
    "ManeuverDefined": lambda c: {
        "maneuver": "headbutt",
        "spec": {"names": {"fr": "Coup de boule", "en": "Headbutt"}, "difficulty": 6},
        "rules": ("V-CC-0",),
    },
    "ModifierAdded": lambda c: {"fighter": c[0], "dice": -2, "difficulty": 1, "reason": "x"},
    "ModifiersUsed": lambda c: {"fighter": c[0]},
    "ReloadProgress": lambda c: {
        "fighter": c[0],
        "weapon": "double_barrel_shotgun",
        "turns": 1,
        "needed": 2,
        "rules": ("V-RNG-7",),
    },
    "SimultaneousRank": lambda c: {
        "cursor": 0,
        "fighters": (c[0], c[1]),
        "penalties": (0, -1),
        "rules": ("V-INI-5",),
    },
    "SprayShared": lambda c: {
        "attacker": c[0],
        "successes": 4,
        "shares": ((c[1], 3), (c[2], 1)),
        "rules": ("V-RNG-2",),
    },
    "WeaponChanged": lambda c: {"fighter": c[1], "weapon": None, "rules": ("V-CC-6",)},
    "WoundClosed": lambda c: {"fighter": c[0], "target": c[1], "rules": ("V-CC-9",)},
    # ---- hunter
    "HunterAllOut": lambda c: {"actor": c[0], "rules": ("H-ATK-5",)},
    "HunterAllyHit": lambda c: {"actor": c[0], "target": c[1], "rules": ("H-MEL-1",)},
    "HunterAmbushChecked": lambda c: {
        "actor": c[1],
        "successes": 0,
        "surprised": True,
        "rules": ("H-INI-4",),
    },
    "HunterCombatOver": lambda c: {"side": None},
    "HunterConsciousnessRolled": lambda c: {
        "actor": c[1],
        "successes": 2,
        "conscious": True,
        "rules": ("H-HLT-4",),
    },
    "HunterCoverChanged": lambda c: {"actor": c[0], "cover": "partial", "rules": ("H-COV-1",)},
    "HunterDelayed": lambda c: {"actor": c[0], "after": c[1], "rules": ("H-INI-3",)},
    "HunterDrawn": lambda c: {
        "actor": c[0],
        "weapon": "knife",
        "quick": True,
        "rules": ("H-DRAW-1",),
    },
    "HunterGrappleEnded": lambda c: {"actor": c[0], "target": c[1], "rules": ("H-GRP-2",)},
    "HunterPlaced": lambda c: {"actor": c[0], "x": 12.5, "y": 3.0, "yards": 4.5},
    "HunterRollOff": lambda c: {"actor": c[0], "face": 7, "rules": ("H-INI-2",)},
    "HunterShieldTakesShot": lambda c: {
        "actor": c[0],
        "target": c[1],
        "shield": c[2],
        "rules": ("H-GRP-4",),
    },
    "HunterShotHitsCover": lambda c: {"actor": c[0], "target": c[1], "rules": ("H-COV-3",)},
    "HunterXpReset": lambda c: {"actor": c[0], "exceptional_vs_monster": 1, "dramatic_failures": 2},
    "HunterZoneDrawn": lambda c: {
        "zone": "z1",
        "points": ((0.0, 0.0), (5.5, 0.0), (5.5, 2.0)),
        "level": "substantial",
        "rules": ("H-COV-1",),
    },
    "HunterZoneErased": lambda c: {"zone": "z1", "level": "substantial", "rules": ("H-COV-1",)},
    # ---- western
    "Bound": lambda c: {"fighter": c[2], "rules": ("W-KO-6",)},
    "Placed": lambda c: {"fighter": c[0], "x": 10.5, "y": 2.0, "metres": 3.5},
    "Ran": lambda c: {"fighter": c[0], "x": 14.0, "y": 2.5, "rules": ("W-MOV-2",)},
    "Reloaded": lambda c: {"fighter": c[0], "hand": "right", "rounds": 1, "rules": ("W-ARM-4",)},
    "StillUnconscious": lambda c: {"fighter": c[1], "left": 2, "rules": ("W-KO-4",)},
    "TieSettled": lambda c: {"fighter": c[1], "turn": 1, "at": 0},
}
"""An instance for each event type no shipped example emits, built from the fields the rules
give it (``c``: three combatant ids of the ruleset's first example)."""


def _examples(ruleset: str) -> list[Encounter]:
    return [enc for enc in map(played, EXAMPLES) if enc.ruleset.name == ruleset]


def _abstract(cls: type[Event], types: tuple[type[Event], ...]) -> bool:
    """A base other types of the ruleset share that is registered as a type (one not declared
    with ``base=True``): never emitted."""
    return any(c is not cls and issubclass(c, cls) for c in types)


Rendered = tuple[tuple[Encounter, Event], ...]


@cache
def rendered(ruleset: str) -> dict[str, Rendered]:
    """Every event type of ``ruleset``: its instances, each with the encounter it is of."""
    encounters = _examples(ruleset)
    out: dict[str, list[tuple[Encounter, Event]]] = {}
    for enc in encounters:
        for entry in enc.log:
            for ev in getattr(entry, "events", ()):
                if "Note" in ev.type_name and hasattr(ev, "text"):
                    ev = dataclasses.replace(ev, text="x")  # the game master's own words
                out.setdefault(ev.type_name, []).append((enc, ev))
    base = max(encounters, key=lambda e: len(e.ruleset.names(e.state)))
    ids = (*base.ruleset.names(base.state), "", "")[:3]
    by_name = {c.type_name: c for c in get_ruleset(ruleset).event_types()}
    built = [
        (name, fields)
        for name, sample in SAMPLES.items()
        if name in by_name and name not in out
        for fields in [sample(ids)]
    ] + [(name, fields) for name, more in MORE.items() if name in by_name for fields in more(ids)]
    for name, fields in built:
        ev = by_name[name](**fields)
        seen = base.ruleset.visibility(ev, base.state)
        out.setdefault(name, []).append((base, dataclasses.replace(ev, seen=seen)))
    return {name: tuple(evs) for name, evs in out.items()}


def _conditions(c: Ids) -> list[dict[str, Any]]:
    """Every vtm condition set and cleared, with the value its rules give it."""
    from conteur.rulesets.vtm.conditions import VtmConditions
    from conteur.rulesets.vtm.packs import house_ranged  # noqa: F401  (its conditions)

    records = {
        "holding": {"target": c[1], "kind": "grapple", "turn": 2},
        "held_by": {"holder": c[0], "kind": "hold", "turn": 2},
        "aim": {
            "target": c[1],
            "weapon": "rifle",
            "turns": 2,
            "since": 1,
            "last": 2,
            "scope": False,
        },
        "reloading": {"weapon": "double_barrel_shotgun", "turns": 1},
        "set_up": {"maneuver": "grapple", "target": c[1], "turn": 2},
        "careful_shot": {"target": c[1], "weapon": "rifle", "rounds": 2, "last": 2},
        "suppressed": {"by": c[0], "weapon": "large_smg", "successes": 2, "turn": 2},
        "disarm_botched": c[1],
        "feeding": c[1],
        "fed_upon": c[0],
    }
    out = []
    for key in VtmConditions.kinds:
        value = records.get(key, 3 if key.endswith(("_turn", "_tried", "_malus", "_hit")) else True)
        out.append({"target": c[0], "condition": key, "value": value, "rules": ("V-DMG-7",)})
        out.append({"target": c[0], "condition": key, "value": None, "rules": ("V-DMG-7",)})
    return out


MORE: dict[str, Callable[[Ids], list[dict[str, Any]]]] = {
    "ConditionSet": _conditions,
    "WeaponChanged": lambda c: [{"fighter": c[0], "weapon": "heavy_revolver"}],
    "GmOverride": lambda c: [
        {"fighter": c[0], "field": "health", "value": ("bashing", "lethal", "aggravated")},
        {"fighter": c[0], "field": "ammo", "value": {"heavy_revolver": 6}},
        {"fighter": c[0], "field": "conditions", "value": {"dazed": True, "prone": None}},
        {"fighter": c[0], "field": "blood", "value": 7, "reason": ""},
    ],
}
"""More instances of types the examples emit, for the values they never show."""


RAW = [
    (re.compile(r"(?<![\w-])[a-z]+(?:_[a-z0-9]+)+(?![\w-])"), "a snake_case id"),
    (re.compile(r"\b[A-Z][A-Za-z]+\.[A-Z][A-Z_]+\b"), "an enum's name"),
    (re.compile(r"\b(?:True|False|None)\b"), "a Python literal"),
    (re.compile(r"[(\[{]\s*['\"(\[]|['\"]\s*[,:]\s*['\"\d]"), "a Python container"),
    (re.compile(r"(?<![\w.,])\d+[.,]\d{3,}(?![\w])|(?<![\w.,])\d+[.,]0(?![\d])"), "a raw float"),
    (re.compile(r"(?<![\w.,\u202f])\d{5,}(?![\w])"), "an ungrouped number"),
    (re.compile(r"\s{2,}|\s[,)]"), "a blank where a word should be"),
]


def raw_problems(text: str, lang: Lang, names: list[str]) -> list[str]:
    """What ``problems`` does not look for: raw identifiers, raw numbers, French left in
    English (``names``, the combatants' names, are taken out first)."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "#")
    text = re.sub(r"\([A-Z]-[A-Z]+-\d+[a-z]?(?:, [A-Z]-[A-Z]+-\d+[a-z]?)*\)", "", text)
    found = [what for pattern, what in RAW if pattern.search(text)]
    if lang == "en" and re.search("[«»\u202féèàùçœ]", text):
        found.append("a French form in English")
    if lang == "fr" and re.search(r"\(-?\d+(?:,\d+)?, -?\d", text):
        found.append("a point whose decimal comma reads as its separator")
    return found


def texts(ruleset: str, lang: Lang) -> Iterator[tuple[str, str, list[str]]]:
    spectator = player(None)
    for name, events in sorted(rendered(ruleset).items()):
        for enc, ev in events:
            names = enc.ruleset.names(enc.state)
            yield f"{name} (GM)", ev.describe(lang, names), list(names.values())
            veiled = ev.veiled(lang, names)
            if not spectator.sees(ev.seen) and veiled is not None:
                yield f"{name} (player)", veiled, list(names.values())


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_event_type_is_rendered(ruleset: str) -> None:
    """No type left out: one the examples never emit needs its instance in ``SAMPLES``."""
    types = get_ruleset(ruleset).event_types()
    wanted = {c.type_name for c in types if not _abstract(c, types)}
    assert wanted - set(rendered(ruleset)) == set()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_event_type_reads_in_the_readers_language(ruleset: str, lang: Lang) -> None:
    bad = []
    for where, text, names in texts(ruleset, lang):
        found = problems(text, lang) + raw_problems(text, lang, names)
        if found:
            bad.append(f"{where}: {text!r}: {', '.join(found)}")
    assert not bad, f"{len(bad)} texts are wrong in {lang}:\n" + "\n".join(bad)


def test_the_checks_catch_what_they_look_for() -> None:
    """Each check fails on the text it is for (a check that cannot fail checks nothing)."""
    assert raw_problems("Ann tient : heavy_revolver", "fr", []) == ["a snake_case id"]
    assert raw_problems("Ann : Status.OUT", "fr", []) == ["an enum's name"]
    assert raw_problems("surpris : True", "fr", []) == ["a Python literal"]
    assert raw_problems("parts (('ann', 3),)", "en", []) == ["a Python container"]
    assert raw_problems("à 3.0 m", "fr", []) == ["a raw float"]
    assert raw_problems("2 niveaux « aggravés »", "en", []) == ["a French form in English"]
    assert raw_problems("Ann : fin de « vise \u202f»", "fr", []) == [
        "a blank where a word should be"
    ]
    assert raw_problems("Ann en (12,5, 3)", "fr", []) == [
        "a point whose decimal comma reads as its separator"
    ]
    assert raw_problems("Ann Lee hits (V-DMG-4, V-DMG-5)", "en", ["Ann Lee"]) == []


def test_rendered_events_come_from_the_fights_first() -> None:
    """An instance built here only stands for a type no example emits."""
    reached = {
        ev.type_name
        for path in EXAMPLES
        for entry in played(path).log
        for ev in getattr(entry, "events", ())
    }
    assert reached & set(SAMPLES) == set(), "an example emits it now: drop its sample"
