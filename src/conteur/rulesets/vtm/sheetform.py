"""The vtm sheet as a form (``Ruleset.sheet_form``) and its written-back state
(``Ruleset.state_form``): traits as dots with their French and English names, the kind
(a ghoul is a mortal with a blood pool and disciplines), the era's weapons and armour."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

import yaml

from conteur.engine.sheetform import Choice, FormField, FormSection, SheetForm
from conteur.engine.stateform import (
    count_field,
    fate_field,
    health_field,
    side_field,
    state_sheet_form,
)
from conteur.i18n import Bilingual, Msg

from .tables import DEFAULT_ERA, load_tables
from .traits import ABILITIES, ATTRIBUTES, DISCIPLINES, POWERS

KINDS = ("mortal", "ghoul", "vampire", "supernatural")
BLOODED = ("ghoul", "vampire", "supernatural")
DAMAGE = ("bashing", "lethal", "aggravated")


@cache
def _ability_eras() -> dict[str, tuple[str, ...]]:
    """``data/abilities.yaml``: the eras of the abilities that exist only in some."""
    ref = resources.files("conteur.rulesets.vtm").joinpath("data/abilities.yaml")
    data = yaml.safe_load(ref.read_text(encoding="utf-8")) or {}
    return {str(k): tuple(str(e) for e in v) for k, v in (data.get("eras") or {}).items()}


def era_abilities(era: str) -> tuple[str, ...]:
    """The abilities a sheet of ``era`` may have (those of another era only left out)."""
    eras = _ability_eras()
    return tuple(a for a in ABILITIES if a not in eras or era in eras[a])


def _kind_choices() -> tuple[Choice, ...]:
    return tuple(
        Choice(k, Msg(f"vtm.form.kind.{k}"), "mortal" if k == "ghoul" else None) for k in KINDS
    )


def _dots(section: str, keys: tuple[str, ...], high: int, default: int) -> tuple[FormField, ...]:
    return tuple(
        FormField(
            f"{section}.{k}", "dots", Msg(f"vtm.trait.{k}"), low=0, high=high, default=default
        )
        for k in keys
    )


def sheet_form(era: str | None = None) -> SheetForm:
    """A vtm sheet of ``era`` (the default era when None)."""
    tables = load_tables(era or DEFAULT_ERA)
    weapons = tuple(Choice(w.id, Bilingual(w.name_fr, w.name_en)) for w in tables.weapons.values())
    armour = (
        Choice("", Msg("vtm.form.no_armour")),
        *(Choice(a.id, Bilingual(a.name_fr, a.name_en)) for a in tables.armour.values()),
    )
    field = Msg
    return SheetForm(
        kind_key="kind",
        sections=(
            FormSection(
                "who",
                Msg("vtm.form.who"),
                (
                    FormField("name", "text", field("vtm.sheet.field.name"), required=True),
                    FormField(
                        "kind",
                        "choice",
                        field("vtm.sheet.field.kind"),
                        choices=_kind_choices(),
                        default="mortal",
                        required=True,
                    ),
                    side_field(Msg("vtm.form.side")),
                ),
            ),
            FormSection(
                "attributes",
                field("vtm.sheet.field.attributes"),
                _dots("attributes", ATTRIBUTES, 10, 1),
            ),
            FormSection(
                "abilities",
                field("vtm.sheet.field.abilities"),
                _dots("abilities", era_abilities(tables.era), 5, 0),
            ),
            FormSection(
                "disciplines",
                field("vtm.sheet.field.disciplines"),
                _dots("disciplines", DISCIPLINES, 10, 0),
                kinds=BLOODED,
            ),
            FormSection(
                "advantages",
                Msg("vtm.form.advantages"),
                (
                    FormField(
                        "willpower", "dots", field("vtm.sheet.field.willpower"), 1, 10, default=5
                    ),
                    FormField(
                        "blood",
                        "number",
                        field("vtm.sheet.field.blood"),
                        0,
                        100,
                        default=10,
                        kinds=BLOODED,
                    ),
                    FormField(
                        "powers",
                        "many",
                        field("vtm.sheet.field.powers"),
                        choices=tuple(Choice(p, Msg(f"vtm.power.{p}")) for p in POWERS),
                    ),
                ),
            ),
            FormSection(
                "equipment",
                Msg("vtm.form.equipment"),
                (
                    FormField("weapons", "many", field("vtm.sheet.field.weapons"), choices=weapons),
                    FormField("armour", "choice", field("vtm.sheet.field.armour"), choices=armour),
                    FormField("ambidextrous", "flag", field("vtm.sheet.field.ambidextrous")),
                ),
            ),
        ),
    )


def state_form(state: Mapping[str, Any], era: str | None = None) -> SheetForm:
    """What a vtm character carries between fights: wounds, Willpower, blood, rounds left."""
    fields: list[FormField] = [
        health_field(Msg("vtm.form.state.health"), (Choice(d, Msg(f"word.{d}")) for d in DAMAGE)),
        FormField("state.willpower", "number", Msg("vtm.sheet.field.willpower"), 0, 10),
        FormField("state.blood", "number", Msg("vtm.sheet.field.blood"), 0, 100),
    ]
    ammo = state.get("ammo")
    if isinstance(ammo, Mapping):
        tables = load_tables(era or DEFAULT_ERA)
        for weapon in ammo:
            w = tables.weapons.get(str(weapon))
            name = Bilingual(w.name_fr, w.name_en) if w is not None else Bilingual(weapon, weapon)
            label = Msg("vtm.form.state.ammo", weapon=name)
            fields.append(count_field(f"state.ammo.{weapon}", label, (str(weapon),)))
    fates = (
        Choice(f, Msg(f"vtm.form.fate.{f}"))
        for f in ("alive", "incapacitated", "torpor", "dead", "final_death")
    )
    fields.append(fate_field(Msg("vtm.form.state.fate"), fates))
    return state_sheet_form(fields, Msg("vtm.form.state"), Msg("vtm.form.side"))


__all__ = ["sheet_form", "state_form"]
