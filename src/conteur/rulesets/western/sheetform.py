"""The western sheet as a form (``Ruleset.sheet_form``) and its written-back state: the
characteristics and skills of the tables with their French and English names, the
weapons (a revolver in the off hand), ambidexterity; after a fight the PV, reputation,
cartridges and fate."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from conteur.engine.sheetform import Choice, FormField, FormWords, SheetForm
from conteur.engine.stateform import count_field, fate_field, side_field, state_sheet_form
from conteur.i18n import Bilingual, Msg

from .state import FATES
from .tables import default_tables

WORDS = FormWords("western.form")
"""The sheet form's catalogue keys (``western.form.*``)."""

AMMO_LABELS = {"main": "western.form.state.ammo_main", "off": "western.form.state.ammo_off"}
"""The label of the cartridges left in each hand."""


def sheet_form(era: str | None = None) -> SheetForm:
    tables = default_tables()
    weapons = tuple(Choice(w.id, Bilingual(w.fr, w.en)) for w in tables.weapons)
    revolvers = (
        WORDS.none(),
        *(Choice(w.id, Bilingual(w.fr, w.en)) for w in tables.weapons if w.kind == "revolver"),
    )
    chars = tuple(
        FormField(
            f"characteristics.{c.id}",
            "number",
            Bilingual(c.fr, c.en),
            0,
            tables.characteristic_max,
            default=tables.characteristic_default,
            aliases=(c.fr, c.en),
        )
        for c in tables.characteristics
    )
    skills = tuple(
        FormField(f"skills.{s.id}", "number", Bilingual(s.fr, s.en), 0, 100, aliases=(s.fr, s.en))
        for s in tables.skills
    )

    return SheetForm(
        sections=(
            WORDS.section(
                "who",
                WORDS.field("name", "text", required=True),
                side_field(WORDS.label("side")),
            ),
            WORDS.section("characteristics", *chars),
            WORDS.section("skills", *skills),
            WORDS.section(
                "equipment",
                WORDS.field("weapons", "many", choices=weapons),
                WORDS.field("off_hand", "choice", choices=revolvers),
                WORDS.field("ambidextrous", "flag"),
            ),
        ),
    )


def state_form(state: Mapping[str, Any], era: str | None = None) -> SheetForm:
    fields: list[FormField] = [
        FormField("state.pv", "number", Msg("western.form.state.pv"), -100, 200, aliases=("pv",)),
        FormField(
            "state.reputation",
            "number",
            Msg("western.form.state.reputation"),
            0,
            99,
            aliases=("reputation",),
        ),
    ]
    ammo = state.get("ammo")
    if isinstance(ammo, Mapping):
        fields.extend(
            count_field(f"state.ammo.{hand}", Msg(AMMO_LABELS[hand]), (f"ammo.{hand}",))
            for hand in AMMO_LABELS
            if hand in ammo
        )
    fates = (Choice(f, Msg(f"western.form.fate.{f}")) for f in FATES)
    fields.append(fate_field(Msg("western.form.state.fate"), fates))
    return state_sheet_form(fields, Msg("western.form.state"), Msg("western.form.field.side"))


__all__ = ["sheet_form", "state_form"]
