"""``conteur odds attack SCENARIO --attacker A --target T``: read and answered without Typer.

The console script (``conteur.launch``) reads the argument list itself
(``read_attack_args``) and answers with ``answer_attack``, the function the Typer app's
command (``conteur.cli.odds_attack``) runs too: one code path, with or without
``--json``. What only Click renders — ``--help``, a usage error — goes to the Typer app.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from conteur.i18n import ConteurError, Lang, t

from .plain import fail, name_values, print_json, resolve_lang

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

_VALUED = {"--attacker": "attacker", "--target": "target", "--maneuver": "maneuver"}


class AttackArgs(NamedTuple):
    """The arguments of ``conteur odds attack``, as the Typer command receives them."""

    scenario: Path
    attacker: str
    target: str
    maneuver: str | None
    param: list[str]
    lang: str | None
    as_json: bool


def read_attack_args(args: list[str]) -> AttackArgs | None:
    """The arguments of ``conteur odds attack ARGS``, or None for anything Click has to
    answer: ``--help``, an unknown option, a second argument, a value missing or that looks
    like an option, ``--attacker``/``--target``/the scenario missing. ``--opt value`` and
    ``--opt=value``; a repeated option keeps its last value (``--param`` adds one), as Click
    has it."""
    given: dict[str, str] = {}
    param: list[str] = []
    scenario: str | None = None
    as_json = False
    i = 0
    while i < len(args):
        token, sep, attached = args[i].partition("=")
        if token == "--json" and not sep:
            as_json = True
        elif token in _VALUED or token in ("--param", "--lang"):
            if sep:
                value = attached
            elif i + 1 < len(args) and not args[i + 1].startswith("-"):
                i += 1
                value = args[i]
            else:
                return None
            if token == "--param":
                param.append(value)
            else:
                given[token] = value
        elif args[i].startswith("-") or scenario is not None or not args[i]:
            return None
        else:
            scenario = args[i]
        i += 1
    if scenario is None or "--attacker" not in given or "--target" not in given:
        return None
    return AttackArgs(
        Path(scenario),
        given["--attacker"],
        given["--target"],
        given.get("--maneuver"),
        param,
        given.get("--lang"),
        as_json,
    )


def answer_attack(read: AttackArgs) -> None:
    """Print the exact odds of ``read.attacker`` attacking ``read.target`` in the scenario's
    starting state (JSON with ``--json``); a user error is reported and exits 2."""
    chosen = resolve_lang(read.lang)
    from conteur.engine import Encounter
    from conteur.engine.scenario import load_scenario

    try:
        data, base = load_scenario(read.scenario)
        encounter = Encounter.start(data, base, source=str(read.scenario))
        names = encounter.ruleset.names(encounter.state)
        for name in (read.attacker, read.target):
            if name not in names:
                raise ConteurError("odds.attack.unknown_fighter", name=name, known=", ".join(names))
        # ``--param NAME=VALUE`` (repeated): the action's parameters (a list stays ``a, b``)
        params = name_values(read.param, "odds.attack.bad_param")
        odds = encounter.ruleset.attack_odds(
            encounter.state, read.attacker, read.target, read.maneuver, params or None
        )
    except ConteurError as error:
        fail(error, chosen, read.as_json)
    answer = odds.to_dict()
    if read.as_json:
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


__all__ = ["SHOWN", "AttackArgs", "answer_attack", "read_attack_args"]
