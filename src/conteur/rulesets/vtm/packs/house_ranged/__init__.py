"""The ``house_ranged`` option pack: the table's own ranged combat (rules/001, R-* ids).

While an encounter lists it in ``packs``, its maneuvers (short and long
burst, shotgun spread, suppressive fire, called shot, careful shot) join the
encounter's tables, the core maneuvers they replace (three-round burst,
full auto, spray, aim) leave them, and its rules replace V-RNG-5, V-RNG-6,
V-RNG-8, V-RNG-2 and, for shots, V-MAN-8 and V-RNG-1: the handlers of those rules
leave the encounter's rulebook. The single shot is
vtm's ``shoot`` with the pack's difficulty by distance.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from types import MappingProxyType

import conteur.i18n

from ...tables import Maneuver, Tables, check_effects_read, maneuvers_of
from .. import OptionPack
from . import bursts, offers, shots, spread, suppression
from .common import PACK
from .conditions import CONDITIONS
from .config import pack_data

conteur.i18n.register_package_catalog(__name__)

RULE_MODULES = (bursts, offers, shots, spread, suppression)
"""The pack's rule modules, in the order their handlers run in an encounter."""


@cache
def pack_maneuvers() -> tuple[Maneuver, ...]:
    """The pack's maneuvers (``data/maneuvers.yaml``), validated like vtm's own."""
    text = resources.files(__name__).joinpath("data", "maneuvers.yaml").read_text("utf-8")
    return read_maneuvers(text, f"{PACK}/data/maneuvers.yaml")


def read_maneuvers(text: str, file: str) -> tuple[Maneuver, ...]:
    """A pack's maneuvers from the text of its file, read and checked as vtm reads its own
    tables (the strict input layer: file, entry, field named; only a ``maneuvers``
    section; every effect of a type some rule reads)."""
    found = tuple(m for m, _ in maneuvers_of(text, file).values())
    check_effects_read({m.id: (m, file) for m in found})
    return found


@cache
def adjust_tables(tables: Tables) -> Tables:
    """The tables with the pack's maneuvers in, and those it replaces out."""
    from dataclasses import replace

    removed = set(pack_data().removes)
    kept = {k: m for k, m in tables.maneuvers.items() if k not in removed}
    kept.update({m.id: m for m in pack_maneuvers()})
    return replace(tables, maneuvers=MappingProxyType(kept))


OPTION_PACK = OptionPack(
    name=PACK,
    replaces=pack_data().replaces,
    adjust_tables=adjust_tables,
    maneuvers=pack_maneuvers,
    stands_for=MappingProxyType(dict(pack_data().stands_for)),
    modules=RULE_MODULES,
    replaces_for_shots=pack_data().replaces_for_shots,
    conditions=CONDITIONS,
)
