"""Option packs of the vtm ruleset, found by name: each is a sub-package exposing ``OPTION_PACK``.

A pack is switched on per encounter (the scenario's ``packs: [...]``, which the
tracker fills from the campaign). Its rule modules declare their handlers at
import; an encounter that lists the pack composes them into its rulebook
(``rulebook.compose``), less the core handlers the pack replaces, with its condition
kinds, and one that does not leaves them out; its ``adjust_tables`` adds its maneuvers to the
encounter's tables and takes out those it replaces.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING

from conteur.engine.conditions import Condition
from conteur.i18n import ConteurError, Msg

from ..rulebook import Source
from ..tables import Maneuver, Tables, load_tables
from ..traits import normalize_key

if TYPE_CHECKING:
    from ..state import VtmState


def _no_maneuvers() -> tuple[Maneuver, ...]:
    return ()


@dataclass(frozen=True)
class OptionPack:
    """One option pack: its name, the rule ids it replaces, and how it changes the tables.

    ``maneuvers`` gives the pack's own maneuvers; ``stands_for`` maps each of
    them to the core maneuver it replaces, so that a maneuver written on the
    side not in play (the pack's while it is off, a replaced core one while it
    is on) is refused naming the rule that replaces it.
    """

    name: str
    replaces: tuple[str, ...]
    adjust_tables: Callable[[Tables], Tables]
    maneuvers: Callable[[], tuple[Maneuver, ...]] = _no_maneuvers
    stands_for: Mapping[str, str] = field(default_factory=dict)
    modules: tuple[ModuleType, ...] = ()
    """Its rule modules, in the order their handlers run in an encounter."""
    replaces_for_shots: tuple[str, ...] = ()
    """Rule ids it replaces for ranged attacks only (the core's close ones stay)."""
    conditions: tuple[type[Condition], ...] = ()
    """Its own condition kinds, read by the fighters of an encounter that plays it."""

    def source(self) -> Source:
        """The pack's rules as a source of an encounter's rulebook."""
        return Source(
            self.name,
            tuple(m.__name__ for m in self.modules),
            self.replaces,
            self.replaces_for_shots,
            self.conditions,
        )


@dataclass(frozen=True)
class Misplaced:
    """A maneuver not in play at this table because of an option pack.

    ``on``: the pack is on and ``maneuver`` is a core maneuver it replaces with
    ``other``; otherwise ``maneuver`` is the pack's, and ``other`` the core
    maneuver in play in its place (None when there is none).
    """

    pack: str
    maneuver: Maneuver
    other: Maneuver | None
    on: bool

    def forms(self) -> tuple[str, ...]:
        m = self.maneuver
        return (m.id, m.names.fr, m.names.en, *m.words)

    def error(self, ref: str) -> ConteurError:
        """The refusal of ``ref``, naming the rule that replaces it (French and English)."""
        m, other = self.maneuver, self.other
        refused = {"ref": ref, "maneuver": m.names, "maneuver_rule": m.rule, "pack": self.pack}
        if self.on and other is not None:
            return ConteurError(
                "vtm.maneuver.replaced_by_pack",
                rule=other.rule,
                replacement=other.names,
                replacement_rule=other.rule,
                **refused,
            )
        instead = (
            Msg("vtm.maneuver.pack_off_instead", core=other.names, core_rule=other.rule)
            if other is not None
            else ""
        )
        rule = other.rule if other is not None else m.rule
        return ConteurError("vtm.maneuver.pack_off", rule=rule, instead=instead, **refused)


@cache
def packs() -> dict[str, OptionPack]:
    """Every option pack shipped, by name (found once)."""
    return discover()


def misplaced(state: VtmState) -> list[Misplaced]:
    """The maneuvers an option pack keeps out of this encounter's tables (V-CC-0 aside)."""
    current = state.tables_ref.tables.maneuvers
    out: list[Misplaced] = []
    for pack in packs().values():
        if pack.name in state.packs:
            base = load_tables(state.era).maneuvers
            for pid, cid in pack.stands_for.items():
                if cid in base and cid not in current and pid in current:
                    out.append(Misplaced(pack.name, base[cid], current[pid], True))
        else:
            for pm in pack.maneuvers():
                if pm.id not in current:
                    core = current.get(pack.stands_for.get(pm.id, ""))
                    out.append(Misplaced(pack.name, pm, core, False))
    return out


def find_misplaced(state: VtmState, word: str) -> Misplaced | None:
    """The maneuver not in play that ``word`` names (its id, a name or one of its words)."""
    key = normalize_key(word)
    for found in misplaced(state):
        if key in {normalize_key(form) for form in found.forms()}:
            return found
    return None


def discover() -> dict[str, OptionPack]:
    """Every option pack shipped in this package, by name."""
    found: dict[str, OptionPack] = {}
    for info in pkgutil.iter_modules(__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        pack = getattr(module, "OPTION_PACK", None)
        if isinstance(pack, OptionPack):
            found[pack.name] = pack
    return found


__all__ = ["Misplaced", "OptionPack", "discover", "find_misplaced", "misplaced", "packs"]
