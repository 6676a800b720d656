"""WILD WEST 1873, "4 Les Combats (extraits)" (``003``): the ``western`` ruleset.

Importing the package registers its message catalog, the words of its default
tables (zones, weapons, skills, stealth modifiers) and the ruleset itself.
"""

import conteur.i18n

conteur.i18n.register_package_catalog("conteur.rulesets.western")

from .ruleset import WesternRuleset  # noqa: E402
from .words import register_words  # noqa: E402

register_words()

__all__ = ["WesternRuleset"]
