"""One way to compare what a reader typed with the words the data holds: case, accents and
ligatures folded (``Œil`` and ``oeil``, ``Armes à feu`` and ``ARMES-A-FEU``), then either
the words joined by ``_`` (a key) or the letters and digits alone."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_LIGATURES = str.maketrans({"œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE", "ß": "ss"})
_NON_WORD = re.compile(r"[^0-9a-z]+")


@lru_cache(maxsize=16384)
def bare(text: str) -> str:
    """``text`` in lower case with no accents and no ligatures: ``Œil-de-Bœuf`` →
    ``oeil-de-boeuf``."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_LIGATURES))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


@lru_cache(maxsize=16384)
def key_of(text: str) -> str:
    """``text`` as a key: bare, each run of other signs as one ``_``, none at the ends
    (``"Armes à feu"``, ``"armes-a-feu"`` and ``" ARMES_A_FEU "`` give ``armes_a_feu``)."""
    return _NON_WORD.sub("_", bare(text)).strip("_")


def letters_of(text: str) -> str:
    """Only the letters and digits of ``text``, bare: ``RÉSISTANCE`` → ``resistance``,
    ``tir d'élite`` → ``tirdelite``."""
    return "".join(c for c in bare(text) if c.isalnum())
