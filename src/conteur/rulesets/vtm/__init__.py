"""Vampire: la Mascarade, "Le Combat" (``000_2b289214c933fb00.txt``): the ``vtm`` ruleset.

Importing the package registers its message catalogs (``messages.yaml`` for
sheets and tables, ``messages-play.yaml`` for the fight) and the ruleset itself.
"""

import conteur.i18n

conteur.i18n.register_package_catalog("conteur.rulesets.vtm")
for _part in ("play", "close", "ranged", "defence", "foundry", "npc"):
    conteur.i18n.register_package_catalog("conteur.rulesets.vtm", f"messages-{_part}.yaml")

from .ruleset import VtmRuleset  # noqa: E402

__all__ = ["VtmRuleset"]


def _register_maneuver_words() -> None:
    """Log lines name maneuvers by their table names (``word.<id>``), in French and English."""
    import yaml

    from .tables import load_tables

    words = {
        f"word.{m.id}": {"fr": m.names.fr, "en": m.names.en}
        for m in load_tables().maneuvers.values()
        if f"word.{m.id}" not in conteur.i18n.catalog()
    }
    conteur.i18n.register_catalog("conteur.rulesets.vtm/data/maneuvers.yaml", yaml.safe_dump(words))


_register_maneuver_words()
