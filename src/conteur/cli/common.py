"""Shared pieces of the CLI: the root app, common options, dice sources, error reporting.

Help texts come from the message catalog, in the language of ``CONTEUR_LANG``
(French when unset): they are built once, when the CLI is imported. Rich and
the dice (numpy) are imported only by the commands that use them, so that
``conteur --help`` starts fast.
"""

from __future__ import annotations

import json
import random
import sys
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from conteur.i18n import LANGS, ConteurError, Lang, env_lang, parse_lang, t

from .rulesets import RootGroup

if TYPE_CHECKING:
    from rich.console import Console

    from conteur.dice import DiceSource


def help_text(key: str) -> str:
    """The help text ``key`` in the language of ``CONTEUR_LANG`` (French by default)."""
    return t(key, env_lang())


app = typer.Typer(
    cls=RootGroup,
    name="conteur",
    help=help_text("cli.help.app"),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

LangOption = Annotated[
    str | None,
    typer.Option("--lang", help=help_text("cli.help.lang")),
]
JsonOption = Annotated[bool, typer.Option("--json", help=help_text("cli.help.json"))]
SeedOption = Annotated[int | None, typer.Option("--seed", help=help_text("cli.help.seed"))]
DiceOption = Annotated[str | None, typer.Option("--dice", help=help_text("cli.help.dice"))]


def resolve_lang(option: str | None) -> Lang:
    """``--lang`` when given, else ``CONTEUR_LANG``, else French. A ``--lang`` that names
    neither French nor English (``fr``, ``en``, ``fr_FR``, ``en-GB``, any case) is refused —
    in ``CONTEUR_LANG``'s language — rather than read as French: exit code 2."""
    if not option:
        return env_lang()
    if option.strip().lower().replace("-", "_").split("_")[0] not in LANGS:
        fail(ConteurError("cli.lang_bad", value=option[:40], known=", ".join(LANGS)), env_lang())
    return parse_lang(option)


def fail(error: ConteurError, lang: Lang, as_json: bool = False) -> NoReturn:
    """Report a user error in ``lang`` (JSON on stdout with ``--json``) and exit 2."""
    if as_json:
        print_json(error.to_dict(lang))
    else:
        sys.stderr.write(t("cli.error", lang, message=error.message(lang)) + "\n")
    raise typer.Exit(2)


def print_json(data: Any) -> None:
    """Write ``data`` as JSON on stdout."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


def console() -> Console:
    """A Rich console on the current stdout (no automatic highlighting of numbers)."""
    from rich.console import Console

    return Console(file=sys.stdout, highlight=False, soft_wrap=False)


def new_seed() -> int:
    """A fresh seed, short enough to type back with ``--seed``."""
    return random.SystemRandom().randrange(1, 1_000_000)


def dice_source(seed: int | None, dice: str | None) -> tuple[DiceSource, int | None]:
    """The source named by ``--seed`` / ``--dice``, and the seed used (``None`` for typed dice).

    Neither option: the program rolls with a fresh seed, reported so the roll
    can be made again. Both: ``ConteurError('cli.seed_and_dice')``.
    """
    from conteur.dice import SeededDice, TypedDice

    if seed is not None and dice is not None:
        raise ConteurError("cli.seed_and_dice")
    if dice is not None:
        return TypedDice(dice), None
    used = new_seed() if seed is None else seed
    return SeededDice(used), used
