"""The words of a vtm condition, for the roster and the log: ``vtm.cond.<key>`` (or the
words' ``word.<key>``) filled with the fighter it involves and its numbers."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from conteur.i18n import Bilingual, Msg, catalog, placeholders

TIMED_SUFFIX = "_turn"
"""A condition that lasts some turns is kept as ``<name>_turn`` = the last turn it holds
(``close.timed_conditions``: off balance after a tackle, V-CC-12)."""

OTHER_FIELDS = ("holder", "target", "fighter", "by", "opponent")
"""The fields of a condition's value that name the other fighter it involves."""


def condition_label(key: str) -> str | None:
    """The catalogue key of a condition's words: ``vtm.cond.<key>``, else the tables' or the
    words' ``word.<key>`` (a timed ``<name>_turn`` reads as ``<name>``); None: no words."""
    known = catalog()
    for candidate in (key.removesuffix(TIMED_SUFFIX), key):
        for label in (f"vtm.cond.{candidate}", f"word.{candidate}"):
            if label in known:
                return label
    return None


def other_of(value: Any, fighters: Collection[str]) -> str | None:
    """The fighter a condition's value names (``{"holder": "bob"}``, ``"bob"``), if any."""
    if isinstance(value, Mapping):
        for key in OTHER_FIELDS:
            if isinstance(value.get(key), str) and value[key] in fighters:
                return str(value[key])
        return None
    return value if isinstance(value, str) and value in fighters else None


def condition_params(
    key: str, value: Any, weapon: Callable[[str], Bilingual | Msg | str]
) -> dict[str, Any]:
    """The fields a condition's words need besides ``other`` (``weapon``: a weapon id's
    name)."""
    if key == "reloading" and isinstance(value, Mapping):
        return {"weapon": weapon(str(value.get("weapon", "")))}
    if key == "initiative_malus":
        return {"amount": abs(int(value or 0))}
    return {}


def condition_words(
    key: str,
    value: Any,
    names: Mapping[str, str],
    weapon: Callable[[str], Bilingual | Msg | str],
) -> Msg:
    """A condition in words, with the name of the fighter it involves (``names``: ids to
    names); one without words keeps its id (``vtm.cond.raw``)."""
    label = condition_label(key)
    if label is None:
        return Msg("vtm.cond.raw", name=key)
    other = other_of(value, names)
    params = condition_params(key, value, weapon)
    needed = placeholders(catalog()[label]["fr"]) - {*params, *(("other",) if other else ())}
    if needed or value is None or value is False:
        # cleared, or a value without what its words name (« tient {other} » with no one):
        # the condition's plain word (« visée », « rechargement »)
        plain = f"word.{key.removesuffix(TIMED_SUFFIX)}"
        return Msg(plain) if plain in catalog() else Msg("vtm.cond.raw", name=key)
    return Msg(label, other=names[other] if other else "", **params)
