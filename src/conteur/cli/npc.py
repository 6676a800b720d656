"""``conteur npc RULESET [ARCHETYPE]``: quick NPCs, from the bundled archetypes or numbers.

Generic: the ruleset gives its archetypes (``Ruleset.archetypes(era)``, our defaults)
and makes an NPC from numbers (``Ruleset.quick_npc(params, era)``, the parameters of
``quick_npc_params``). Without an archetype the command lists them with the
parameters; with one it prints its scenario entry (YAML to paste under
``combatants:``, or JSON); ``--param NAME=VALUE`` makes an NPC from numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer
import yaml

import conteur.i18n
from conteur.i18n import ConteurError, Lang, t

from .common import (
    JsonOption,
    LangOption,
    help_text,
    name_values,
    print_json,
)
from .plain import user_errors

if TYPE_CHECKING:
    from conteur.engine import Ruleset

conteur.i18n.register_package_catalog("conteur.cli", "messages-characters.yaml")

EraOption = Annotated[str | None, typer.Option("--era", help=help_text("cli.help.npc.era"))]
ParamOption = Annotated[
    list[str] | None, typer.Option("--param", help=help_text("cli.help.npc.param"))
]


def npc_command(
    ruleset: Annotated[str, typer.Argument(help=help_text("cli.help.npc.ruleset"))],
    archetype: Annotated[
        str | None, typer.Argument(help=help_text("cli.help.npc.archetype"))
    ] = None,
    era: EraOption = None,
    param: ParamOption = None,
    as_json: JsonOption = False,
    lang: LangOption = None,
) -> None:
    with user_errors(lang, as_json) as chosen:
        from conteur.engine import get_ruleset
        from conteur.engine.npcs import find_archetype, param_dict

        rules = get_ruleset(ruleset)
        eras = rules.eras()
        if era is not None and not eras:
            raise ConteurError("engine.npc.no_era", ruleset=rules.name)
        shown_era = era or (eras[0] if eras else None)
        if param:
            if archetype is not None:
                raise ConteurError("cli.npc.param_and_archetype")
            entry = rules.quick_npc(name_values(param, "cli.npc.bad_param"), era)
            _print_entry(entry, {"ruleset": rules.name, "era": shown_era}, as_json, None)
            return
        archetypes = rules.archetypes(era)
        if archetype is None:
            params = rules.quick_npc_params(era)
            if as_json:
                print_json(
                    {
                        "ruleset": rules.name,
                        "era": shown_era,
                        "archetypes": [a.to_dict(chosen) for a in archetypes],
                        "params": [param_dict(p) for p in params],
                    }
                )
            else:
                typer.echo(_listing(rules, shown_era, archetypes, params, chosen), nl=False)
            return
        found = find_archetype(archetypes, archetype)
    header = t(
        "cli.npc.header" if shown_era else "cli.npc.header_no_era",
        chosen,
        label=found.label.describe(chosen),
        id=found.id,
        ruleset=rules.name,
        era=shown_era or "",
    )
    info = {"ruleset": rules.name, "era": shown_era, "archetype": found.to_dict(chosen)}
    _print_entry(found.scenario_entry(lang=chosen), info, as_json, header)


def _print_entry(
    entry: dict[str, Any], info: dict[str, Any], as_json: bool, header: str | None
) -> None:
    if as_json:
        print_json({**info, "entry": entry})
        return
    body = str(yaml.safe_dump([entry], allow_unicode=True, sort_keys=False))
    typer.echo((header + "\n" if header else "") + body, nl=False)


def _listing(
    rules: Ruleset, era: str | None, archetypes: list[Any], params: Any, lang: Lang
) -> str:
    ruleset = rules.name
    if era:
        lines = [t("cli.npc.list_header", lang, ruleset=ruleset, era=era)]
    else:
        lines = [t("cli.npc.list_header_no_era", lang, ruleset=ruleset)]
    for a in archetypes:
        notes = a.notes.describe(lang) if a.notes is not None else ""
        lines.append(f"  {a.id:<12} {a.label.describe(lang)}" + (f" — {notes}" if notes else ""))
    if not archetypes:
        lines.append("  " + t("cli.npc.none", lang))
    if params:
        lines.append(t("cli.npc.params_header", lang))
        for p in params:
            label = rules.quick_npc_label(p.name, lang)
            if p.kind == "int":
                span = f"{p.min}–{p.max}"
            elif p.kind == "choice":
                shown = [str(c) or "—" for c in p.choices]
                span = ", ".join(shown[:8]) + (" …" if len(shown) > 8 else "")
            elif p.kind == "bool":
                span = t("cli.npc.yes_no", lang)
            else:
                span = t("cli.npc.text", lang)
            default = "" if p.default in (None, "") else t("cli.npc.default", lang, value=p.default)
            lines.append(f"  {p.name:<12} {label} ({span}){default}")
        number = next((p for p in params if p.kind == "int"), None)
        example = f" --param {number.name}={number.max}" if number is not None else ""
        lines.append(t("cli.npc.params_usage", lang, ruleset=ruleset, example=example))
    lines.append(t("cli.npc.defaults_note", lang))
    return "\n".join(lines) + "\n"
