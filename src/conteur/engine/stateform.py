"""What a character carries out of a fight, as a form (``Ruleset.state_form``): the parts
every ruleset's state form shares (``conteur.engine.sheetform`` describes forms)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from conteur.i18n import Describable

from .sheetform import Choice, FormField, FormSection, SheetForm

MAX_COUNT = 999
"""The most a ``count_field`` takes (rounds left in a weapon, a counter)."""


def count_field(key: str, label: Describable, aliases: tuple[str, ...] = ()) -> FormField:
    """A number of things a character carries between fights (the rounds left in a weapon,
    a counter), from 0 to ``MAX_COUNT``, under ``key``."""
    return FormField(key, "number", label, 0, MAX_COUNT, aliases=aliases)


def health_field(label: Describable, marks: Iterable[Choice], size: int | None = None) -> FormField:
    """The health track (``state.health``): how many boxes bear each of ``marks``, out of
    ``size`` boxes when the track's length is known."""
    return FormField(
        "state.health", "marks", label, choices=tuple(marks), size=size, aliases=("health",)
    )


def fate_field(label: Describable, fates: Iterable[Choice]) -> FormField:
    """What became of the character (``state.fate``): one of ``fates``."""
    return FormField("state.fate", "choice", label, choices=tuple(fates), aliases=("fate",))


def side_field(label: Describable) -> FormField:
    """The side a character fights on (``state.side``; a refusal may name it ``side``)."""
    return FormField("state.side", "text", label, aliases=("side",))


def state_sheet_form(
    fields: Sequence[FormField], label: Describable, side_label: Describable
) -> SheetForm:
    """A character's written-back state as a form: one section, ``label``, of ``fields``
    and then the side it fights on (``side_field``)."""
    return SheetForm(sections=(FormSection("state", label, (*fields, side_field(side_label))),))


__all__ = [
    "MAX_COUNT",
    "count_field",
    "fate_field",
    "health_field",
    "side_field",
    "state_sheet_form",
]
