"""Vampire: the Masquerade (Revised), "Le Combat": traits, sheets and table data.

Importing the package registers its message catalog (``messages.yaml``).
"""

import conteur.i18n

conteur.i18n.register_package_catalog("conteur.rulesets.vtm")
