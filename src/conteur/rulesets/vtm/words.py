"""Translations of the words events carry (``word.<value>``) that no catalog defines yet.

An event field such as ``kind: punch`` or ``condition: dazed`` shows in the log
through the catalog key ``word.punch``. Maneuver and condition names already
live in the tables (French and English), and a few more words in
``data/words.yaml``: ``register_words`` adds those the message catalogs leave
out, so the log reads "Bob agit : coup de poing" rather than "punch". A key a
catalog defines is never replaced.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources

from conteur.i18n import register_catalog_later, safe_yaml
from conteur.i18n import register_words as register_table_words

from .tables import Tables

_done: set[int] = set()


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def register_words(tables: Tables) -> None:
    """Register ``word.<id>`` for the tables' maneuvers, conditions, weapons and armour,
    and data/words.yaml; ``vtm.choice.id.<id>`` for the botch complications the game
    master picks from (``gm_complication``'s ``id``)."""
    if id(tables) in _done:
        return
    _done.add(id(tables))

    def fresh(known: Mapping[str, object]) -> dict[str, dict[str, str]]:
        missing: dict[str, dict[str, str]] = {}
        for m in tables.maneuvers.values():
            missing[f"word.{m.id}"] = {
                "fr": _lower_first(m.names.fr),
                "en": _lower_first(m.names.en),
            }
        for c in tables.conditions.values():
            missing[f"word.{c.id}"] = {
                "fr": _lower_first(c.names.fr),
                "en": _lower_first(c.names.en),
            }
        text = resources.files("conteur.rulesets.vtm").joinpath("data/words.yaml")
        for key, forms in (safe_yaml(text.read_text(encoding="utf-8")) or {}).items():
            missing.setdefault(str(key), {"fr": str(forms["fr"]), "en": str(forms["en"])})
        return {k: v for k, v in missing.items() if k not in known and "{" not in v["fr"] + v["en"]}

    register_catalog_later("conteur.rulesets.vtm/words (tables)", fresh)  # read in its turn
    gear = {w.id: (w.name_fr, w.name_en) for w in tables.weapons.values()}
    gear |= {a.id: (a.name_fr, a.name_en) for a in tables.armour.values()}
    register_table_words(f"conteur.rulesets.vtm/weapons and armour#{id(tables)}", gear)
    botches = {c.id: (c.name.fr, c.name.en) for c in tables.complications}
    register_table_words(
        f"conteur.rulesets.vtm/complications#{id(tables)}", botches, "vtm.choice.id."
    )
