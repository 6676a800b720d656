"""The hunter sheet as a form (``Ruleset.sheet_form``) and its written-back state: the
nine traits the rules read as dots, the template (hunter, monster, bystander), Size, the
tables' weapons and armour, the merits; after a fight the track, ammunition, fate and
the H-XP-2 counters."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from conteur.engine.sheetform import Choice, FormField, FormWords, SheetForm
from conteur.engine.stateform import (
    count_field,
    fate_field,
    health_field,
    side_field,
    state_sheet_form,
)
from conteur.i18n import Bilingual, Msg

from .sheet import FIELDS, MERITS, TRAITS, XP_COUNTERS
from .tables import load_tables

KINDS = ("hunter", "monster", "bystander")
MARKS = (("*", "aggravated"), ("X", "lethal"), ("/", "bashing"))
FATES = ("alive", "unconscious", "incapacitated", "dead")
WORDS = FormWords("hunter.form")
"""The sheet form's catalogue keys (``hunter.form.*``)."""


def _aliases(key: str) -> tuple[str, ...]:
    return tuple({**TRAITS, **FIELDS}.get(key, ()))


def sheet_form(era: str | None = None) -> SheetForm:
    tables = load_tables()
    weapons = tuple(Choice(w.id, Bilingual(w.fr, w.en)) for w in tables.weapons.values())
    armour = (
        WORDS.none(),
        *(Choice(a.id, Bilingual(a.fr, a.en)) for a in tables.armour.values()),
    )
    merits = tuple(Choice(m, Msg(f"hunter.form.merit.{m}")) for m in dict.fromkeys(MERITS.values()))
    traits = tuple(
        FormField(k, "dots", Msg(f"hunter.form.trait.{k}"), 0, 5, default=0, aliases=_aliases(k))
        for k in TRAITS
    )

    def field(key: str, kind: Any, **more: Any) -> FormField:
        return WORDS.field(key, kind, aliases=_aliases(key), **more)

    return SheetForm(
        kind_key="kind",
        sections=(
            WORDS.section(
                "who",
                field("name", "text", required=True),
                field(
                    "kind",
                    "choice",
                    choices=tuple(Choice(k, Msg(f"hunter.form.kind.{k}")) for k in KINDS),
                    default="hunter",
                    required=True,
                ),
                side_field(WORDS.label("side")),
                field("size", "number", low=1, high=20, default=5),
            ),
            WORDS.section("traits", *traits),
            WORDS.section(
                "equipment",
                field("weapons", "many", choices=weapons),
                field("armour", "choice", choices=armour),
                field("merits", "many", choices=merits),
            ),
        ),
    )


def state_form(state: Mapping[str, Any], era: str | None = None) -> SheetForm:
    health = state.get("health")
    size = len([c for c in str(health) if c not in "[]"]) if isinstance(health, str) else None
    fields: list[FormField] = [
        health_field(
            Msg("hunter.form.state.health"), (Choice(m, Msg(f"word.{d}")) for m, d in MARKS), size
        ),
    ]
    ammo = state.get("ammo")
    if isinstance(ammo, Mapping):
        tables = load_tables()
        for weapon in ammo:
            w = tables.weapons.get(str(weapon))
            name = Bilingual(w.fr, w.en) if w is not None else Bilingual(weapon, weapon)
            label = Msg("hunter.form.state.ammo", weapon=name)
            fields.append(count_field(f"state.ammo.{weapon}", label, ("ammo",)))
    fates = (Choice(f, Msg(f"hunter.form.fate.{f}")) for f in FATES)
    fields.append(fate_field(Msg("hunter.form.state.fate"), fates))
    if isinstance(state.get("xp_counters"), Mapping):
        fields.extend(
            count_field(f"state.xp_counters.{c}", Msg(f"hunter.form.state.{c}"), (c, "xp_counters"))
            for c in XP_COUNTERS
        )
    return state_sheet_form(fields, Msg("hunter.form.state"), Msg("hunter.form.field.side"))


__all__ = ["sheet_form", "state_form"]
