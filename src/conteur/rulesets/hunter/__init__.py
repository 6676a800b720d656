"""Hunter, new World of Darkness (``004_951d1ab1e0a088a2.txt``): the ``hunter`` ruleset.

Importing the package registers its message catalog and the ruleset.
"""

import conteur.i18n
from conteur.engine.registry import register_ruleset

conteur.i18n.register_package_catalog("conteur.rulesets.hunter")

from .ruleset import HunterRuleset  # noqa: E402

register_ruleset(HunterRuleset())

__all__ = ["HunterRuleset"]
