"""One text normalisation for every ruleset's lookups (issue 13, item 3)."""

from __future__ import annotations

import pytest

from conteur.i18n.spelling import bare, key_of, letters_of
from conteur.rulesets.hunter.sheet import normalize
from conteur.rulesets.vtm.traits import canonical_trait, normalize_key
from conteur.rulesets.western.tables import fold


@pytest.mark.parametrize(
    ("typed", "key", "letters"),
    [
        ("Armes à feu", "armes_a_feu", "armesafeu"),
        ("  ARMES-A-FEU ", "armes_a_feu", "armesafeu"),
        ("Œil de bœuf", "oeil_de_boeuf", "oeildeboeuf"),
        ("tir d'élite", "tir_d_elite", "tirdelite"),
        ("Dégainer  vite", "degainer_vite", "degainervite"),
        ("RÉSISTANCE", "resistance", "resistance"),
    ],
)
def test_a_spelling_folds_to_one_key(typed: str, key: str, letters: str) -> None:
    assert key_of(typed) == key
    assert letters_of(typed) == letters
    assert normalize(typed) == normalize_key(typed) == key  # hunter's and vtm's lookups
    assert fold(typed) == letters  # western's


def test_bare_keeps_the_signs() -> None:
    assert bare("Œil-de-Bœuf") == "oeil-de-boeuf"


def test_a_trait_typed_any_way_is_found() -> None:
    assert canonical_trait("Armes à feu") == canonical_trait("ARMES-A-FEU") == "firearms"
