"""Vampire: la Mascarade, "Le Combat" (``000_2b289214c933fb00.txt``): the ``vtm`` ruleset.

Importing the package registers its message catalogs (``messages.yaml`` for
sheets and tables, ``messages-play.yaml`` for the fight) and the ruleset itself.
"""

import conteur.i18n
from conteur.engine.registry import register_ruleset

conteur.i18n.register_package_catalog("conteur.rulesets.vtm")
for _part in ("play", "close", "ranged", "defence"):
    conteur.i18n.register_package_catalog("conteur.rulesets.vtm", f"messages-{_part}.yaml")

from .ruleset import VtmRuleset  # noqa: E402

register_ruleset(VtmRuleset())

__all__ = ["VtmRuleset"]
