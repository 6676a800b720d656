"""Canonical trait keys of the vtm ruleset and the spellings a user may type.

A *trait key* is a lower-case English identifier (``dexterity``, ``animal_ken``,
``fortitude``, ``willpower``). Users write traits in French or English, with or
without accents, in any case, with spaces, hyphens or underscores:
``Dextérité``, ``dexterite``, ``Armes à feu``, ``firearms``, ``Animal Ken`` all
name a key. The display name of a key in each language is the catalog message
``vtm.trait.<key>`` (``messages.yaml``); ``trait_label`` reads it. The package's
``__init__``, which Python runs before any of its modules, registers that catalog.
"""

from __future__ import annotations

import difflib
from functools import cache
from importlib import resources
from typing import Literal

from conteur.i18n import Lang, safe_yaml, t
from conteur.i18n.spelling import key_of

TraitKind = Literal["attribute", "ability", "discipline", "willpower"]

ATTRIBUTES: tuple[str, ...] = (
    "strength",
    "dexterity",
    "stamina",
    "charisma",
    "manipulation",
    "appearance",
    "perception",
    "intelligence",
    "wits",
)
"""The nine attributes, physical, social then mental."""

ABILITIES: tuple[str, ...] = (
    # talents
    "alertness",
    "athletics",
    "brawl",
    "dodge",
    "empathy",
    "expression",
    "intimidation",
    "leadership",
    "streetwise",
    "subterfuge",
    # skills
    "animal_ken",
    "crafts",
    "drive",
    "etiquette",
    "firearms",
    "larceny",
    "melee",
    "performance",
    "riding",
    "security",
    "stealth",
    "survival",
    # knowledges
    "academics",
    "computer",
    "finance",
    "investigation",
    "law",
    "linguistics",
    "medicine",
    "occult",
    "politics",
    "science",
    "technology",
)
"""Abilities of the Revised core, with the 2nd-edition Dodge, Security and Linguistics
and the Victorian-era Riding."""

DISCIPLINES: tuple[str, ...] = (
    "animalism",
    "auspex",
    "celerity",
    "chimerstry",
    "dementation",
    "dominate",
    "fortitude",
    "necromancy",
    "obfuscate",
    "obtenebration",
    "potence",
    "presence",
    "protean",
    "quietus",
    "serpentis",
    "thaumaturgy",
    "vicissitude",
)
"""Clan disciplines; Celerity, Fortitude and Potence change the combat rules."""

WILLPOWER = "willpower"

ALL_TRAITS: tuple[str, ...] = (*ATTRIBUTES, *ABILITIES, *DISCIPLINES, WILLPOWER)


@cache
def _extra_spellings() -> dict[str, tuple[str, ...]]:
    """Spellings beyond the English key and the two catalog labels (``data/spellings.yaml``)."""
    text = resources.files("conteur.rulesets.vtm").joinpath("data/spellings.yaml")
    raw = safe_yaml(text.read_text(encoding="utf-8")) or {}
    unknown = sorted(str(key) for key in raw if key not in ALL_TRAITS)
    if unknown:  # pragma: no cover - a developer error in the shipped file
        raise RuntimeError(f"data/spellings.yaml: no trait {', '.join(unknown)}")
    return {str(key): tuple(str(form) for form in forms) for key, forms in raw.items()}


def normalize_key(text: str) -> str:
    """A spelling reduced for comparison: no accents, lower case, words joined by ``_``.

    ``"Armes à feu"``, ``"armes-a-feu"`` and ``"ARMES_A_FEU"`` all give ``"armes_a_feu"``.
    """
    return key_of(text)


def trait_kind(key: str) -> TraitKind | None:
    """Whether the canonical ``key`` is an attribute, an ability, a discipline or Willpower."""
    if key in _KINDS:
        return _KINDS[key]
    return None


_KINDS: dict[str, TraitKind] = {
    **{k: "attribute" for k in ATTRIBUTES},
    **{k: "ability" for k in ABILITIES},
    **{k: "discipline" for k in DISCIPLINES},
    WILLPOWER: "willpower",
}


@cache
def _spellings() -> dict[str, str]:
    """Every accepted spelling (normalised) and the key it names."""
    table: dict[str, str] = {}
    extra = _extra_spellings()
    for key in ALL_TRAITS:
        forms = {key, *extra.get(key, ())}
        forms |= {normalize_key(t(f"vtm.trait.{key}", lang)) for lang in ("fr", "en")}
        for form in forms:
            norm = normalize_key(form)
            other = table.setdefault(norm, key)
            if other != key:  # pragma: no cover - a developer error in the tables above
                raise RuntimeError(f"trait spelling {norm!r} names both {other} and {key}")
    return table


def trait_spellings() -> dict[str, str]:
    """Every accepted spelling (normalised) and the trait key it names (a copy)."""
    return dict(_spellings())


def canonical_trait(name: str) -> str | None:
    """The trait key ``name`` spells (French or English, any case, accents optional), or None."""
    return _spellings().get(normalize_key(name))


def trait_label(key: str, lang: Lang | None = None) -> str:
    """The display name of the trait ``key`` in ``lang`` (``Dextérité`` / ``Dexterity``)."""
    canonical = canonical_trait(key)
    if canonical is None:
        raise KeyError(f"no trait {key!r}")
    return t(f"vtm.trait.{canonical}", lang)


def suggest_trait(name: str, candidates: tuple[str, ...] = ALL_TRAITS) -> str | None:
    """The trait key (among ``candidates``) closest to the misspelled ``name``, if any is close."""
    table = {form: key for form, key in _spellings().items() if key in candidates}
    found = difflib.get_close_matches(normalize_key(name), list(table), n=1, cutoff=0.6)
    return table[found[0]] if found else None


POWERS: tuple[str, ...] = (
    "fangs",
    "feral_claws",
    "bone_claws",
    "natural_claws",
    "heightened_senses",
    "eyes_of_the_beast",
)
"""Powers the combat rules look at (claws, fangs, senses that cancel blindness).

A sheet may list other powers too: the rules ignore them, but a game master's
custom maneuver may require them (V-CC-0).
"""

_POWER_SPELLINGS: dict[str, tuple[str, ...]] = {
    "fangs": ("crocs", "fang", "croc"),
    "feral_claws": ("griffes_de_fauve", "griffes_du_fauve", "feral_claw"),
    "bone_claws": ("sculpture_des_os", "griffes_d_os", "griffes_osseuses", "bone_craft"),
    "natural_claws": ("griffes_naturelles", "griffes", "claws"),
    "heightened_senses": ("intensification_des_sens", "sens_accrus"),
    "eyes_of_the_beast": ("yeux_de_la_bete", "eyes_of_the_wolf"),
}


@cache
def _power_spellings() -> dict[str, str]:
    table: dict[str, str] = {}
    for key in POWERS:
        forms = {key, *_POWER_SPELLINGS.get(key, ())}
        forms |= {t(f"vtm.power.{key}", lang) for lang in ("fr", "en")}
        table.update({normalize_key(form): key for form in forms})
    return table


def canonical_power(name: str) -> str:
    """The power key of ``name`` (``Griffes de fauve`` → ``feral_claws``).

    A power the rules do not know keeps its normalised spelling (``"Nuée"`` → ``"nuee"``).
    """
    norm = normalize_key(name)
    return _power_spellings().get(norm, norm)


def suggest_power(name: str) -> str | None:
    """The known power closest to an unknown ``name``, when it looks like a misspelling."""
    norm = normalize_key(name)
    table = _power_spellings()
    if norm in table:
        return None
    found = difflib.get_close_matches(norm, list(table), n=1, cutoff=0.8)
    return table[found[0]] if found else None


def power_label(key: str, lang: Lang | None = None) -> str:
    """The display name of a known power (its key for a power the rules do not know)."""
    return t(f"vtm.power.{key}", lang) if key in POWERS else key


def trait_kind_label(kind: TraitKind, lang: Lang | None = None) -> str:
    """The display name of a kind of trait (attribut, capacité, discipline) in ``lang``."""
    return t(f"vtm.trait_kind.{kind}", lang)
