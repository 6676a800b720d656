"""Reading a scenario file (YAML or JSON) into the mapping ``Encounter.start`` takes, and
checking its top-level keys (``check_scenario``: the generic ones and the ruleset's own)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from conteur.i18n import Msg

from .inputs import (
    TOP,
    InputError,
    Key,
    check_keys,
    entry_of,
    keys,
    read_data,
    short,
    unknown_key,
)

if TYPE_CHECKING:
    from .ruleset import Ruleset

RULESET = Key("ruleset", "règles", "ruleset", ("regles", "jeu"))
GENERIC_KEYS = keys(
    RULESET,
    Key("title", "titre", "title"),
    Key("combatants", "combattants", "combatants"),
    Key("sides", "camps", "sides"),
    "simulation",
    "options",
    Key("packs", "paquets", "packs"),
    Key("era", "époque", "era"),
)
"""Keys every scenario may have: the engine, the simulator and the store read them (a
ruleset with no packs or no eras refuses any it is given)."""


def load_scenario(path: Path | str) -> tuple[dict[str, Any], Path]:
    """The scenario in ``path`` and the folder its relative paths start from."""
    file = Path(path)
    data = read_data(file)
    if not isinstance(data, dict):
        raise InputError(Msg("input.reason.not_mapping", value=short(data)), file=str(file))
    return data, file.parent


def ruleset_name(scenario: Mapping[Any, Any]) -> object:
    """The value of the ``ruleset`` key under any of its spellings (None when absent)."""
    spellings = RULESET.spellings()
    from .inputs import normalize

    for key, value in scenario.items():
        if normalize(str(key)) in spellings:
            return value
    return None


def check_scenario(
    scenario: Mapping[Any, Any], ruleset: Ruleset[Any], file: str = ""
) -> dict[str, Any]:
    """The scenario with its top-level keys canonical; ``InputError`` naming the key when one
    is unknown (with the nearest one), or when ``combatants`` is not a list of mappings."""
    known = (*GENERIC_KEYS, *ruleset.scenario_keys())
    out = check_keys(scenario, known, entry=TOP, file=file)

    def refused(reason: Msg, index: int) -> InputError:
        """The error naming the top-level key ``GENERIC_KEYS[index]``."""
        return InputError(reason, file=file, entry=TOP, field=GENERIC_KEYS[index])

    combatants = out.get("combatants")
    if combatants is not None:
        if not isinstance(combatants, list):
            raise refused(Msg("input.reason.not_list", value=short(combatants)), 2)
        for i, raw in enumerate(combatants):
            if not isinstance(raw, Mapping):
                raise InputError(
                    Msg("input.reason.not_mapping", value=short(raw)),
                    file=file,
                    entry=entry_of(i, raw),
                )
    packs = out.get("packs")
    if packs:
        names = list(ruleset.pack_names())
        if not isinstance(packs, list):
            raise refused(Msg("input.reason.not_list", value=short(packs)), 6)
        for pack in packs:
            if str(pack) not in names:
                raise refused(
                    unknown_key(str(pack), [Key(n, n, n) for n in names])
                    if names
                    else Msg("input.reason.no_packs", ruleset=ruleset.title()),
                    6,
                )
    if out.get("era") is not None and not ruleset.eras():
        raise refused(Msg("input.reason.no_eras", ruleset=ruleset.title()), 7)
    return out
