"""What each hunter roll is for, said to the table (``conteur.dice.RollAsk``)."""

from __future__ import annotations

from collections.abc import Iterable

from conteur.dice.asks import RollAsk, added_to, label
from conteur.i18n import Msg, catalog


def word(what: str) -> Msg:
    """A pool part's name: the ``hunter.mod.*`` word (« Dextérité », « portée longue »)."""
    key = f"hunter.mod.{what}"
    return Msg(key) if key in catalog() else label(what.replace("_", " "))


def pool_detail(pool: int, again: int = 10, rote: bool = False) -> Msg:
    """The roll's rule: 8+ succeeds, the again-rule, rote; or the chance die (H-CHANCE-1)."""
    if pool <= 0:
        return Msg("hunter.ask.chance")
    return Msg("hunter.ask.rote" if rote else "hunter.ask.pool", again=again)


def pool_ask(
    who: str,
    what: Msg,
    items: Iterable[tuple[Msg, int]],
    pool: int,
    again: int = 10,
    rote: bool = False,
) -> RollAsk:
    """A hunter pool of ``pool`` dice from its parts (the chance die when 0 or less)."""
    return RollAsk(
        who=who,
        what=what,
        breakdown=tuple((name, amount) for name, amount in items if amount),
        detail=pool_detail(pool, again, rote),
        dice=max(1, pool),
    )


def trait_ask(who: str, name: str, test: Msg, traits: Iterable[tuple[str, int]]) -> RollAsk:
    """A roll of traits only (Stamina to stay conscious, Wits + Composure against an ambush)."""
    items = [(word(t), dots) for t, dots in traits]
    pool = sum(dots for _, dots in items)
    return pool_ask(who, Msg("ask.what.test", test=test, name=name), items, pool)


def initiative_ask(who: str, name: str, die: str, traits: Iterable[tuple[str, int]]) -> RollAsk:
    """Initiative: one d10 added to Dexterity + Composure (H-INI-1), said trait by trait
    (« Dextérité 3 + Sang-froid 2 + 1D10 »)."""
    return RollAsk(
        who=who,
        what=Msg("ask.what.initiative", name=name),
        detail=added_to(die, tuple((word(trait), dots) for trait, dots in traits)),
        dice=1,
    )


def roll_off_ask(who: str, name: str, base: int) -> RollAsk:
    """A roll-off of an initiative tie (H-INI-2): one d10, the higher wins."""
    return RollAsk(
        who=who,
        what=Msg("ask.what.initiative", name=name),
        detail=Msg("hunter.ask.roll_off", base=base),
        dice=1,
    )


__all__ = ["initiative_ask", "pool_ask", "pool_detail", "roll_off_ask", "trait_ask", "word"]
