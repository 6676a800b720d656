"""Hunter, new World of Darkness (``004_951d1ab1e0a088a2.txt``): the ``hunter`` ruleset.

Importing the package registers its message catalog; the ruleset
itself is found through the entry-point group ``conteur.rulesets``.
"""

import conteur.i18n

conteur.i18n.register_package_catalog("conteur.rulesets.hunter")

from .ruleset import HunterRuleset  # noqa: E402
from .tables import load_tables  # noqa: E402


def _register_table_words() -> None:
    """Log lines name weapons and armour by the tables' names (``word.<id>``)."""
    tables = load_tables()
    words = {w.id: (w.fr, w.en) for w in tables.weapons.values()}
    words |= {a.id: (a.fr, a.en) for a in tables.armour.values()}
    conteur.i18n.register_words("conteur.rulesets.hunter/data (weapons, armour)", words)


_register_table_words()

__all__ = ["HunterRuleset"]
