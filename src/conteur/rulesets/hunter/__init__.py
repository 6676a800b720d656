"""Hunter, new World of Darkness (``004_951d1ab1e0a088a2.txt``): the ``hunter`` ruleset.

Importing the package registers its message catalog; the ruleset
itself is found through the entry-point group ``conteur.rulesets``.
"""

import conteur.i18n

conteur.i18n.register_package_catalog("conteur.rulesets.hunter")

from .ruleset import HunterRuleset  # noqa: E402

__all__ = ["HunterRuleset"]
