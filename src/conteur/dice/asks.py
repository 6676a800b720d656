"""What a roll is for, said to the table before the dice are thrown.

A ruleset hands a ``RollAsk`` with each roll request (``DiceSource.roll(request,
ask)``): whose roll it is, what it is for, the parts of its pool, its difficulty
and why. Seeded and exact sources ignore it; ``TableDice`` names it when it asks
the table for that roll's faces (``RollNeeded``), and a reader shows
``describe(lang)`` next to the field where the faces are typed.

An ask may also be handed as a function of no argument returning it (``AskLike``):
only a source that reads asks calls it (``TableDice``, through ``ask_of``), so a
simulated fight's seeded dice do not pay for building asks nobody reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, TypeAlias

from conteur.i18n import Lang, Msg, env_lang, register_package_catalog, t
from conteur.i18n import signed as i18n_signed

register_package_catalog("conteur.dice", "messages-asks.yaml")


def number(value: int, lang: Lang | None = None) -> str:
    """An integer written the way ``lang`` writes it (Babel: ``1 234``, ``1,234``)."""
    from babel.numbers import format_decimal

    chosen = lang or env_lang()
    return str(format_decimal(value, locale="fr_FR" if chosen == "fr" else "en_US"))


DICE = ("ask.dice.one", "ask.dice.other")
"""« 1 dé » / « 3 dés »: the message keys of a number of dice (``plural``)."""
ROLLS = ("ask.rolls.one", "ask.rolls.other")
"""« 1 jet » / « 3 jets »: the message keys of a number of rolls."""


def signed(value: int, lang: Lang | None = None) -> str:
    """An integer with its sign, a true minus for a negative (« +1 », « −2 »): the i18n one."""
    return i18n_signed(value, lang)


def plural(keys: tuple[str, str], count: int, lang: Lang | None = None, /, **params: object) -> str:
    """The first of ``keys`` (singular) or the second, chosen by Babel's plural rule for ``count``.

    French says « 0 dé », « 1 dé », « 2 dés »; English "0 dice", "1 die", "2 dice".
    """
    from babel import Locale

    chosen = lang or env_lang()
    form = Locale.parse("fr_FR" if chosen == "fr" else "en_US").plural_form(count)
    key = keys[0] if form == "one" else keys[1]
    return t(key, chosen, count=number(count, chosen), **params)


@dataclass(frozen=True, kw_only=True)
class RollAsk:
    """One roll as the table is asked for it: whose, what for, the pool's parts, the rule.

    ``breakdown`` holds the pool's parts in order, each with its number of dice (a
    negative number takes dice off); a part worth 0 is a note said after the total,
    such as an automatic success (Willpower, Potence). ``dice`` is the number of dice
    actually thrown when it differs from the sum of the parts (a pool that cannot fall
    below one die, a chance die); None: the sum, never below 0.
    """

    who: str | None
    """The combatant whose roll it is (its id); None: the game master's."""
    what: Msg
    """What the roll is for (« attaque de Jack », « encaissement de Bill »)."""
    breakdown: tuple[tuple[Msg, int], ...] = ()
    detail: Msg | None = None
    """The difficulty and its reason, the again/rote/chance rule, the d100 percentage."""
    hidden: bool = False
    """A roll the game master keeps hidden: never asked on a player's phone, even its
    roller's (``conteur.engine.plan.next_roll`` sets it for the rolls of a hidden
    combatant's action and a hidden combatant's own rolls)."""
    dice: int | None = None

    @property
    def count(self) -> int | None:
        """The number of dice thrown as the breakdown says (None: no breakdown, no count)."""
        if self.dice is not None:
            return self.dice
        if not self.breakdown:
            return None
        return max(0, sum(value for _, value in self.breakdown))

    def describe(self, lang: Lang | None = None) -> str:
        """The whole line: « Dextérité 3 + Armes à feu 3 − blessures 1 = 5 dés, difficulté 6 ».

        Without a breakdown, what the roll is for and its detail.
        """
        chosen = lang or env_lang()
        parts: list[str] = []
        notes: list[str] = []
        for label, value in self.breakdown:
            name = label.describe(chosen)
            if value == 0:
                notes.append(name)
            else:
                parts.append(_term(not parts, name, value, chosen))
        pieces: list[str] = []
        count = self.count
        alone = self._alone()
        if alone is not None:
            # One part that is the whole pool: said once (« Vigueur (3 dés) », « 3 dés »).
            total = plural(DICE, count or 0, chosen)
            one = t("ask.single", chosen, part=alone.describe(chosen), total=total)
            pieces.append(total if _is_other(alone) else one)
        elif parts:
            total = plural(DICE, count or 0, chosen)
            added = sum(value for _, value in self.breakdown)
            if added == count:
                pieces.append(t("ask.sum", chosen, parts=" ".join(parts), total=total))
            else:  # a pool below its floor (a chance die, one die at least): both said
                line = " ".join(parts)
                pieces.append(
                    t("ask.sum.floor", chosen, parts=line, sum=_sum(added, chosen), total=total)
                )
        elif count is not None:
            pieces.append(plural(DICE, count, chosen))
        else:
            pieces.append(self.what.describe(chosen))
        pieces.extend(notes)
        if self.detail is not None:
            pieces.append(self.detail.describe(chosen))
        return t("ask.separator", chosen).join(pieces)

    def _alone(self) -> Msg | None:
        """The label of the breakdown's one part when it alone makes the dice thrown."""
        dice = [(label, value) for label, value in self.breakdown if value != 0]
        if len(dice) == 1 and dice[0][1] == self.count:
            return dice[0][0]
        return None

    def title(self, lang: Lang | None = None) -> str:
        """What the roll is for, capitalised for a heading (« Attaque de Jack »)."""
        text = self.what.describe(lang)
        return text[:1].upper() + text[1:]


def _term(first: bool, name: str, value: int, lang: Lang) -> str:
    """One named number of a sum: « Dextérité 3 », « + Astuce 2 », « − blessures 1 » (a first
    one below zero with its true minus: « blessures −1 »)."""
    if first:
        return t("ask.part.first", lang, part=name, value=_sum(value, lang))
    key = "ask.part.plus" if value >= 0 else "ask.part.minus"
    return t(key, lang, part=name, value=number(abs(value), lang))


class _Terms:
    """Named numbers added up (« Dextérité 3 + Astuce 2 − blessures 1 »); a 0 is said too."""

    __slots__ = ("items",)

    def __init__(self, items: tuple[tuple[Msg, int], ...]) -> None:
        self.items = items

    def describe(self, lang: Lang | None = None) -> str:
        chosen = lang or env_lang()
        return " ".join(
            _term(i == 0, what.describe(chosen), value, chosen)
            for i, (what, value) in enumerate(self.items)
        )


def added_to(die: str, terms: tuple[tuple[Msg, int], ...]) -> Msg:
    """« Dextérité 3 + Astuce 2 + 1D10 » — a die whose face is added to named numbers (an
    initiative: the traits of its rating, its modifiers), each with its value; ``die`` is
    the roll's own spelling (``Expr.text``). Without terms: the die alone."""
    if not terms:
        return Msg("ask.detail.expr", expr=die)
    return Msg("ask.detail.added", terms=_Terms(terms), die=die)


def _sum(value: int, lang: Lang) -> str:
    """A pool's sum as the breakdown ends it: a true minus below zero (« −1 », « 0 »)."""
    return signed(value, lang) if value < 0 else number(value, lang)


def _is_other(label: Msg) -> bool:
    """Whether ``label`` is « autres modificateurs »: a pool without named parts."""
    return label.key == "ask.part.other"


class _Count:
    """A number of things said in a language, usable as a message field: ``unit`` names
    the message keys of its singular and plural (``plural``)."""

    __slots__ = ("count",)
    unit: ClassVar[tuple[str, str]]

    def __init__(self, count: int) -> None:
        self.count = count

    def describe(self, lang: Lang | None = None) -> str:
        return plural(self.unit, self.count, lang)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.count})"


class DiceCount(_Count):
    """A number of dice said in a language (« 1 dé », « 6 dés »)."""

    __slots__ = ()
    unit = DICE


class RollCount(_Count):
    """A number of rolls said in a language (« 1 jet », « 3 jets »)."""

    __slots__ = ()
    unit = ROLLS


def label(text: object) -> Msg:
    """A breakdown label from any text that says itself (a ``Msg``, a ``Bilingual``) or a str."""
    if isinstance(text, Msg):
        return text
    return Msg("ask.label", label=text)


def difficulty(value: int, reasons: tuple[tuple[Msg, int], ...] = ()) -> Msg:
    """« difficulté 7 : portée longue +1 » — the difficulty and what moved it."""
    if not reasons:
        return Msg("ask.difficulty", difficulty=value)
    return Msg("ask.difficulty.because", difficulty=value, reason=_Reasons(reasons))


class _Reasons:
    """The reasons of a difficulty, joined (« portée longue +1, couvert +2 »)."""

    __slots__ = ("items",)

    def __init__(self, items: tuple[tuple[Msg, int], ...]) -> None:
        self.items = items

    def describe(self, lang: Lang | None = None) -> str:
        return ", ".join(
            t("ask.part.difficulty_note", lang, label=what, value=signed(amount, lang))
            for what, amount in self.items
        )


def percent_detail(percent: int, parts: tuple[tuple[Msg, int], ...] = ()) -> Msg:
    """« 1D100 sous 40 % (Tir visé 50 % − tête 10 %) » — a d100 roll's chance and its parts
    (without parts: « 1D100 sous 40 % »)."""
    key = "ask.detail.percent.parts" if parts else "ask.detail.percent"
    return Msg(key, percent=percent, parts=_PercentParts(parts))


class _PercentParts(_Reasons):
    """The parts of a d100 chance, joined (« Tir visé 50 % − tête 10 % »)."""

    __slots__ = ()

    def describe(self, lang: Lang | None = None) -> str:
        shown = []
        for i, (what, amount) in enumerate(self.items):
            key = "ask.percent.first" if i == 0 else "ask.percent.plus"
            if i and amount < 0:
                key = "ask.percent.minus"
            value = number(abs(amount) if i else amount, lang)
            shown.append(t(key, lang, part=what, value=value))
        return " ".join(shown)


def auto_successes(count: int, source: Msg) -> tuple[Msg, int]:
    """A breakdown note for ``count`` automatic successes from ``source`` (not dice: worth 0)."""
    key = "ask.auto_success" if count == 1 else "ask.auto_successes"
    return (Msg(key, count=count, source=source), 0)


__all__ = [
    "DiceCount",
    "RollAsk",
    "RollCount",
    "added_to",
    "auto_successes",
    "difficulty",
    "label",
    "number",
    "percent_detail",
    "plural",
    "signed",
]


AskLike: TypeAlias = "RollAsk | Callable[[], RollAsk | None] | None"
"""What ``DiceSource.roll`` takes beside the request: an ask, a function building it only
when a source reads it, or none."""


def ask_of(ask: AskLike) -> RollAsk | None:
    """The ask ``ask`` stands for (a lazy ask built now)."""
    if ask is None or isinstance(ask, RollAsk):
        return ask
    return ask()
