"""Roll kinds by name: how a stored roll (``RollRecord.to_dict()``) is read back.

A roll request class has a ``kind`` (``"expr"``, or a ruleset's own: the name a stored
log holds); its record stores that name with the request's and the result's fields.
The generic kinds register here; a ruleset's kinds register when its dice module is
imported, and again when the ruleset is loaded (``Ruleset.roll_kinds``). A record of a
kind not yet registered first asks the *loaders* (the ruleset registry adds one that
loads every declared ruleset), so a log can be read before anything imported its dice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from conteur.i18n import ConteurError


@dataclass(frozen=True, slots=True)
class RollKind:
    """A kind of roll: its request class (with a ``kind`` name) and its result class."""

    request: type[Any]
    result: type[Any]

    @property
    def name(self) -> str:
        """The name stored in a record (``request.kind``)."""
        return str(self.request.kind)


_KINDS: dict[str, RollKind] = {}
_LOADERS: list[Callable[[str], None]] = []


def register_roll_kind(request: type[Any], result: type[Any]) -> RollKind:
    """Make records of ``request.kind`` readable (registering the same classes twice is a no-op).

    ``ValueError`` when another class already has that name: a stored record must say
    one thing only.
    """
    kind = RollKind(request, result)
    known = _KINDS.get(kind.name)
    if known is not None and known != kind:
        raise ValueError(
            f"roll kind {kind.name!r} is already {known.request.__qualname__}, "
            f"not {request.__qualname__}"
        )
    _KINDS[kind.name] = kind
    return kind


def add_kind_loader(loader: Callable[[str], None]) -> None:
    """Call ``loader(name)`` when a record names a kind not registered yet (it may register it)."""
    if loader not in _LOADERS:
        _LOADERS.append(loader)


def roll_kind(name: str) -> RollKind:
    """The kind called ``name`` (ConteurError ``dice.unknown_kind`` when nothing provides it)."""
    found = _KINDS.get(name)
    if found is None:
        for loader in list(_LOADERS):
            loader(name)
            found = _KINDS.get(name)
            if found is not None:
                break
        else:
            raise ConteurError("dice.unknown_kind", kind=name, known=", ".join(sorted(_KINDS)))
    return found


def roll_kinds() -> Mapping[str, RollKind]:
    """Every kind registered so far, by name (read-only view)."""
    return dict(_KINDS)


__all__ = ["RollKind", "add_kind_loader", "register_roll_kind", "roll_kind", "roll_kinds"]
