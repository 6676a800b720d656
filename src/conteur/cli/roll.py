"""``conteur roll``: make one roll, by the program or from the table's dice.

``conteur roll expr`` is the plain ``NdX±M``; ``conteur roll <ruleset>`` is declared by
each ruleset (``conteur.cli_parts``) and built when asked for (``conteur.cli.rulesets``):
its command builds the request and hands it to ``run_roll``. Every command takes
``--seed S`` (the program rolls, reproducibly) or ``--dice 10,1,6,...`` (the faces
rolled at the table, in roll order), never both; with neither, the program rolls
with a fresh seed and reports it.
Typed-in faces that are too few, not numbers, impossible on the die, or left
over are refused with a message in the chosen language and exit code 2.
"""

from __future__ import annotations

import functools
import inspect
import types
import typing
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer

from conteur.i18n import ConteurError, Lang

from .chrome import ChromeCommand
from .common import (
    DiceOption,
    JsonOption,
    LangOption,
    SeedOption,
    console,
    dice_source,
    fail,
    help_text,
    print_json,
    resolve_lang,
)
from .rulesets import ruleset_group

if TYPE_CHECKING:
    from conteur.dice import Roll

roll_app = typer.Typer(
    cls=ruleset_group("roll"), help=help_text("cli.help.roll"), no_args_is_help=True
)


def run_roll(
    build: Callable[[], Roll[Any]],
    *,
    seed: int | None,
    dice: str | None,
    as_json: bool,
    lang: Lang,
    rules: Sequence[str] = (),
) -> None:
    """Build the request, roll it from the chosen source, and print the report.

    Every user error (bad request, bad or missing typed faces, faces left
    over, ``--seed`` with ``--dice``) is reported by ``fail`` (exit 2).
    """
    from conteur.dice import TypedDice

    from .render import record_json, render

    try:
        source, used_seed = dice_source(seed, dice)
        request = build()
        record = source.roll(request)
        if isinstance(source, TypedDice):
            source.check_all_used()
    except ConteurError as error:
        fail(error, lang, as_json)
    if as_json:
        print_json(record_json(record, lang, used_seed, rules))
    else:
        console().print(render(record, lang, used_seed, rules))


_SOURCE_OPTIONS = (
    ("seed", SeedOption, None),
    ("dice", DiceOption, None),
    ("as_json", JsonOption, False),
    ("lang", LangOption, None),
)
"""The options every roll command takes after its own: where the dice come from, the
output, the language."""


def _own_options(build: Callable[..., Any]) -> list[inspect.Parameter]:
    """``build``'s parameters, each annotation evaluated in ``build``'s module (text under
    ``from __future__ import annotations``); its return type, maybe a name imported for
    type checking only, is not read."""
    params = inspect.signature(build).parameters
    text = types.SimpleNamespace(__annotations__={n: p.annotation for n, p in params.items()})
    hints = typing.get_type_hints(text, build.__globals__, include_extras=True)
    return [p.replace(annotation=hints[n]) for n, p in params.items()]


def roll_command(build: Callable[..., Roll[Any]]) -> Callable[..., None]:
    """The command of a roll from ``build``, a function of the roll's own options that
    returns its request (checking them: a ``ConteurError`` it raises is reported as any
    refusal). The command takes those options, then ``--seed``, ``--dice``, ``--json`` and
    ``--lang``, and hands the request to ``run_roll``."""
    own = _own_options(build)
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    common = [inspect.Parameter(n, kind, default=d, annotation=a) for n, a, d in _SOURCE_OPTIONS]

    @functools.wraps(build)
    def command(**values: Any) -> None:
        seed, dice, as_json, lang = (values.pop(name) for name, _, _ in _SOURCE_OPTIONS)
        run_roll(
            lambda: build(**values), seed=seed, dice=dice, as_json=as_json, lang=resolve_lang(lang)
        )

    params = [*own, *common]
    command.__signature__ = inspect.Signature(params, return_annotation=None)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in params} | {"return": None}
    return command


@roll_app.command("expr", cls=ChromeCommand, help=help_text("cli.help.roll.expr"))
@roll_command
def roll_expr(
    expression: Annotated[str, typer.Argument(help=help_text("cli.help.expr"), metavar="NdX±M")],
) -> Roll[Any]:
    """A plain ``NdX±M`` roll: the sum of the faces plus the modifier."""
    from conteur.dice import Expr

    return Expr.parse(expression)
