"""``conteur odds``'s group and ``conteur odds attack``: the exact odds of a whole attack in a
scenario, for any ruleset."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from conteur.i18n import ConteurError, Lang, t

from .chrome import ChromeCommand
from .common import (
    JsonOption,
    LangOption,
    fail,
    help_text,
    name_values,
    print_json,
    resolve_lang,
)
from .rulesets import ruleset_group

odds_app = typer.Typer(
    cls=ruleset_group("odds"), help=help_text("odds.help.group"), no_args_is_help=True
)
"""``conteur odds``: ``attack`` here, then one command per ruleset that declares one."""

SHOWN = (
    "p_hit",
    "p_critical",
    "p_botch",
    "expected_levels",
    "p_incapacitated",
    "p_killed",
    "p_armour_destroyed",
    "p_knocked_down",
    "p_dazed",
)


@odds_app.command("attack", cls=ChromeCommand, help=help_text("odds.help.attack"))
def attack_command(
    scenario: Annotated[Path, typer.Argument(help="SCENARIO.yaml")],
    attacker: Annotated[str, typer.Option("--attacker")],
    target: Annotated[str, typer.Option("--target")],
    maneuver: Annotated[str | None, typer.Option("--maneuver")] = None,
    param: Annotated[list[str] | None, typer.Option("--param", help="NAME=VALUE")] = None,
    lang: LangOption = None,
    as_json: JsonOption = False,
) -> None:
    """Exact odds of ``attacker`` attacking ``target`` in the scenario's starting state."""
    chosen = resolve_lang(lang)
    from conteur.engine import Encounter
    from conteur.engine.scenario import load_scenario

    try:
        data, base = load_scenario(scenario)
        encounter = Encounter.start(data, base, source=str(scenario))
        names = encounter.ruleset.names(encounter.state)
        for name in (attacker, target):
            if name not in names:
                raise ConteurError("odds.attack.unknown_fighter", name=name, known=", ".join(names))
        # ``--param NAME=VALUE`` (repeated): the action's parameters (a list stays ``a, b``)
        params = name_values(param or [], "odds.attack.bad_param")
        odds = encounter.ruleset.attack_odds(
            encounter.state, attacker, target, maneuver, params or None
        )
    except ConteurError as error:
        fail(error, chosen, as_json)
    answer = odds.to_dict()
    if as_json:
        print_json(answer)
        return
    _print(answer, chosen, names)


def _print(answer: dict[str, Any], lang: Lang, names: dict[str, str]) -> None:
    from babel.numbers import format_decimal
    from rich.console import Console
    from rich.table import Table

    from conteur.engine.events import Modifiers
    from conteur.i18n import Msg, catalog, percent

    maneuver = answer.get("maneuver", "")
    if f"word.{maneuver}" in catalog():
        maneuver = Msg(f"word.{maneuver}").describe(lang)
    console = Console()
    console.print(
        t(
            "odds.attack.title",
            lang,
            attacker=names.get(answer["attacker"], answer["attacker"]),
            target=names.get(answer["target"], answer["target"]),
            maneuver=maneuver,
        )
    )
    details = Modifiers(tuple((w, int(a)) for w, a in answer.get("modifiers", []))).describe(lang)
    roll = answer.get("roll")
    if isinstance(roll, dict) and str(roll.get("key", "")) in catalog():
        # The ruleset says how its roll reads (a d100 skill has no pool nor difficulty);
        # a parameter that is a catalog key (or ``word.<value>``) is said in ``lang``.
        params = {k: _said(v, lang) for k, v in dict(roll.get("params", {})).items()}
        console.print(t(str(roll["key"]), lang, details=details, **params))
    else:
        console.print(
            t(
                "odds.attack.pool",
                lang,
                pool=answer["pool"],
                difficulty=answer["difficulty"],
                details=details,
            )
        )
    table = Table(show_header=False)
    for key in SHOWN:
        if key not in answer:
            continue
        value = answer[key]
        text = (
            format_decimal(round(float(value), 2), locale=lang)
            if key == "expected_levels"
            else percent(float(value), lang)
        )
        table.add_row(t(f"odds.attack.{key}", lang), text)
    console.print(table)
    levels = Table(t("odds.attack.levels", lang), "%")
    for k, p in answer.get("levels", {}).items():
        if p >= 5e-5:
            levels.add_row(str(k), percent(float(p), lang))
    console.print(levels)


def _said(value: Any, lang: Lang) -> Any:
    """``value`` in ``lang`` when it names a catalog message or word, else as it is."""
    from conteur.i18n import catalog

    for key in (str(value), f"word.{value}"):
        if key in catalog():
            return t(key, lang)
    return value
