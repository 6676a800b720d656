"""The house_ranged pack's data files go through the strict input layer (issue 18): a
spoilt ``pack.yaml`` or ``maneuvers.yaml`` is refused naming the file, the entry and the
field, with the reason (and the nearest key for a misspelt one) in French and English —
never a traceback nor pydantic's own English. The shipped files read as they always did.

Each case spoils one line of the shipped text and compares the whole message.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest

from conteur.i18n import ConteurError
from conteur.rulesets.vtm.packs.house_ranged import pack_maneuvers, read_maneuvers
from conteur.rulesets.vtm.packs.house_ranged.config import PACK_FILE, pack_data, read_pack_data

DATA = resources.files("conteur.rulesets.vtm.packs.house_ranged").joinpath("data")
PACK = DATA.joinpath("pack.yaml").read_text("utf-8")
MANEUVERS = DATA.joinpath("maneuvers.yaml").read_text("utf-8")
M_FILE = "house_ranged/data/maneuvers.yaml"


def nnbsp(text: str) -> str:
    """French typography: a narrow no-break space before « : ; ? ! » and inside « »."""
    text = re.sub(r" ([:;?!])", "\u202f\\1", text)
    return text.replace("« ", "«\u202f").replace(" »", "\u202f»")


def spoil(text: str, old: str, new: str) -> str:
    assert old in text, old  # the case still spoils the shipped file
    return text.replace(old, new, 1)


def test_the_shipped_files_read_through_the_layer() -> None:
    assert read_pack_data(PACK) == pack_data()
    assert read_maneuvers(MANEUVERS, M_FILE) == pack_maneuvers()
    assert [b.difficulty for b in pack_data().shot_bands] == [4, 5, 6]


def _pack(text: str) -> Any:
    return read_pack_data(text)


def _maneuvers(text: str) -> Any:
    return read_maneuvers(text, M_FILE)


CASES: list[tuple[Callable[[str], Any], str, str, str, str, str]] = [
    # reader, the text spoilt, then the whole message in French and in English
    (_pack, PACK, "shot_bands:", "shot_band:",
     f"{PACK_FILE} : en-tête : champ « shot_band » : champ inconnu ; vouliez-vous dire "
     "« shot_bands » ?",
     f'{PACK_FILE}: top level: field "shot_band": unknown field; did you mean "shot_bands"?'),
    (_pack, PACK, "{max_metres: 3, difficulty: 4}", "{max_metres: 3, difficulty: 11}",
     f"{PACK_FILE} : shot_bands n° 1 : champ « difficulty » : doit valoir au plus 10 (reçu 11)",
     f'{PACK_FILE}: shot_bands #1: field "difficulty": must be at most 10 (got 11)'),
    (_pack, PACK, "{max_metres: 3, difficulty: 4}", "{max_metres: 0, difficulty: 4}",
     f"{PACK_FILE} : shot_bands n° 1 : champ « max_metres » : doit valoir plus de 0 (reçu 0)",
     f'{PACK_FILE}: shot_bands #1: field "max_metres": must be more than 0 (got 0)'),
    (_pack, PACK, "short_burst: three_round_burst", "short_burst: [x]",
     f"{PACK_FILE} : table « stands_for » : champ « short_burst » : doit être un texte "
     "(reçu « ['x'] »)",
     f'{PACK_FILE}: table "stands_for": field "short_burst": must be text (got "[\'x\']")'),
    (_pack, PACK, "replaces: [", "replaces: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
     f"{PACK_FILE} : pas du YAML valide (ligne 8)", f"{PACK_FILE}: not valid YAML (line 8)"),
    (_maneuvers, MANEUVERS, "accuracy: 3", "accurcy: 3",
     f"fichier {M_FILE}, entrée « short_burst », champ « accurcy » : champ inconnu ; "
     "vouliez-vous dire « accuracy » ?",
     f'file {M_FILE}, entry "short_burst", field "accurcy": unknown field; did you mean '
     '"accuracy"?'),
    (_maneuvers, MANEUVERS, "maneuvers:", "maneuvres:",
     f"fichier {M_FILE}, entrée « - », champ « maneuvres » : section inconnue « maneuvres » "
     "(sections : maneuvers)",
     f'file {M_FILE}, entry "-", field "maneuvres": unknown section "maneuvres" '
     "(sections: maneuvers)"),
    (_maneuvers, MANEUVERS, "difficulty: 1\n", "difficulty: oui\n",
     f"fichier {M_FILE}, entrée « short_burst », champ « difficulty » : doit être un nombre "
     "entier (reçu « oui »)",
     f'file {M_FILE}, entry "short_burst", field "difficulty": must be a whole number '
     '(got "oui")'),
]  # fmt: skip


@pytest.mark.parametrize(("read", "text", "old", "new", "fr", "en"), CASES)
def test_a_spoilt_pack_file_is_refused_by_name(
    read: Callable[[str], Any], text: str, old: str, new: str, fr: str, en: str
) -> None:
    with pytest.raises(ConteurError) as caught:
        read(spoil(text, old, new))
    assert caught.value.message("fr") == nnbsp(fr)
    assert caught.value.message("en") == en


def test_a_pack_file_nested_too_deep_is_refused_not_a_crash() -> None:
    for read, file in ((_pack, PACK_FILE), (_maneuvers, M_FILE)):
        with pytest.raises(ConteurError) as caught:
            read("maneuvers: " + "[" * 5000 + "]" * 5000)
        assert caught.value.message("en") == (
            f"{file}: lists or mappings nested more than 40 levels deep"
        )
        assert caught.value.message("fr") == nnbsp(
            f"{file} : listes ou tables imbriquées sur plus de 40 niveaux"
        )
