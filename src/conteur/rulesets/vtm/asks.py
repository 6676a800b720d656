"""What each vtm roll is for, said to the table (``conteur.dice.RollAsk``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from conteur.dice.asks import RollAsk, added_to, auto_successes, difficulty, label
from conteur.engine.events import modifier_label
from conteur.i18n import Lang, Msg, catalog

from .dice import VtmPool

if TYPE_CHECKING:
    from conteur.dice.rolls import RollRecord
    from conteur.engine import Resolution

    from .dice import VtmResult
    from .hooks import AttackDraft
    from .state import Fighter


class _Word:
    """A modifier's word (``word.<what>``, or the game master's reason as written)."""

    __slots__ = ("what",)

    def __init__(self, what: str) -> None:
        self.what = what

    def describe(self, lang: Lang | None = None) -> str:
        return modifier_label(self.what, lang)


def word(what: str) -> Msg:
    """A pool part's name: the trait (« Dextérité ») or the modifier's word (« visée »)."""
    key = f"vtm.trait.{what}"
    return Msg(key) if key in catalog() else label(_Word(what))


def parts(items: Iterable[tuple[str, int]], total: int) -> tuple[tuple[Msg, int], ...]:
    """The breakdown of a pool of ``total`` dice from its named parts (0s left out); what the
    parts do not account for is said as « autres modificateurs »."""
    out = [(word(what), amount) for what, amount in items if amount]
    rest = total - sum(amount for _, amount in out)
    if rest:
        out.append((Msg("ask.part.other"), rest))
    return tuple(out)


def willpower_note(auto: int) -> tuple[tuple[Msg, int], ...]:
    """Willpower's automatic success, said as such."""
    return (auto_successes(auto, Msg("vtm.trait.willpower")),) if auto else ()


def test_ask(
    who: str | None,
    name: str,
    test: Msg,
    pool: int,
    diff: int,
    items: Iterable[tuple[str, int]] = (),
    auto: int = 0,
    hidden: bool = False,
) -> RollAsk:
    """A plain vtm roll of ``name``'s: its pool's parts, Willpower, its difficulty."""
    return RollAsk(
        who=who,
        what=Msg("ask.what.test", test=test, name=name),
        breakdown=parts(items, pool) + willpower_note(auto),
        detail=difficulty(diff),
        hidden=hidden,
        dice=max(0, pool),
    )


def willpower_roll(ctx: Resolution, f: Fighter, test: Msg, diff: int) -> RollRecord[VtmResult]:
    """``f``'s roll of its Willpower rating at ``diff``, asked as ``test`` (an abort, V-MAN-3;
    a test against suppression...)."""
    willpower = f.sheet.willpower
    return ctx.dice.roll(
        VtmPool(willpower, diff),
        test_ask(f.id, f.name, test, willpower, diff, [("willpower", willpower)]),
    )


@dataclass(frozen=True, kw_only=True)
class StrikeAsks:
    """The asks of one attack's rolls: its attack and defence, and the names the damage and
    soak asks are said with (their pools are known only when they are rolled)."""

    attack: RollAsk
    defence: RollAsk | None
    attacker: str
    """The attacker's display name."""
    target: str
    """The target's display name."""
    soak: tuple[tuple[Msg, int], ...] = ()
    """The target's soak dice, part by part (Stamina, Fortitude, armour)."""


def initiative_ask(who: str, name: str, die: str, rating: Iterable[tuple[str, int]]) -> RollAsk:
    """A fighter's initiative: one d10 added to its rating (V-INI-1), said part by part
    (« Dextérité 3 + Astuce 2 − blessures 1 + 1D10 »)."""
    return RollAsk(
        who=who,
        what=Msg("ask.what.initiative", name=name),
        detail=added_to(die, tuple((word(what), value) for what, value in rating)),
        dice=1,
    )


def soak_ask(
    who: str, name: str, pool: int, breakdown: tuple[tuple[Msg, int], ...] = ()
) -> RollAsk:
    """A soak roll of ``who``'s (V-SOAK-1..3): never botches, difficulty 6."""
    parts = breakdown if sum(n for _, n in breakdown) == pool and breakdown else ()
    return RollAsk(
        who=who,
        what=Msg("ask.what.soak", name=name),
        breakdown=parts or ((Msg("ask.part.soak"), pool),),
        detail=difficulty(6),
    )


def attack_ask(lead: AttackDraft, auto: int) -> RollAsk:
    """An attack roll: the draft's pool with its parts and difficulty (``auto``: Willpower's
    success); one roll for several targets (a spray, a burst) is the lead draft's."""
    return RollAsk(
        who=lead.attacker.id,
        what=Msg("ask.what.attack", name=lead.attacker.name),
        breakdown=parts(lead.pool_parts, lead.pool) + willpower_note(auto),
        detail=difficulty(
            lead.difficulty, tuple((word(what), amount) for what, amount in lead.difficulty_parts)
        ),
        dice=max(0, lead.pool),
    )


__all__ = [
    "StrikeAsks",
    "attack_ask",
    "initiative_ask",
    "parts",
    "soak_ask",
    "test_ask",
    "willpower_note",
    "willpower_roll",
    "word",
]
