"""The rulesets' commands in the Typer app, loaded only when run or listed by ``--help``.

Each ruleset declares its command-line parts in the entry-point group ``conteur.cli``
(``conteur.cli_parts``). A group such as ``conteur roll`` is a ``RulesetGroup``: after
its own commands (``conteur roll expr``) it has one command per ruleset that declares
one in the group (``conteur roll <ruleset>``), built the first time it is asked for.
The root app (``conteur.cli.root``) adds the groups only rulesets have (``conteur xp``)
the same way. Listing
the entry points costs little; no ruleset is imported to start the CLI.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

import typer

from conteur.cli_parts import OddsCommand, all_parts, parts_of, resolve

from .chrome import ChromeCommand, ChromeGroup
from .odds_line import answer_odds
from .options import JsonOption, LangOption, help_text

if TYPE_CHECKING:
    # Typer's own copy of click (``TyperGroup``'s base); any click-like Command works.
    from typer._click import Command, Context


def new_typer(**settings: Any) -> typer.Typer:
    """A Typer app as conteur builds them (no shell completion, no Rich traceback), with
    ``settings`` (its name, group class, help...)."""
    return typer.Typer(add_completion=False, pretty_exceptions_enable=False, **settings)


BUILT: dict[tuple[str, str], Command | None] = {}
"""The commands built so far, by (group, name); the root's groups under the group ""."""


def ruleset_command(group: str, name: str) -> Command | None:
    """``conteur <group> <name>``: the command ruleset ``name`` declares in ``group``, or None."""
    parts = parts_of(name)
    if parts is None:
        return None
    function: Callable[..., Any]
    if group == "odds" and parts.odds is not None:
        function, key = odds_command(parts.odds), parts.odds.help
    elif group in parts.commands:
        ref = parts.commands[group]
        function, key = resolve(ref.target), ref.help
    else:
        return None
    single = new_typer()
    single.command(name, cls=ChromeCommand, help=help_text(key))(function)
    return typer.main.get_command(single)


class RulesetGroup(ChromeGroup):
    """A group whose commands are its own, then one per ruleset that declares one in it."""

    group: ClassVar[str] = ""

    def list_commands(self, ctx: Context) -> list[str]:
        own = super().list_commands(ctx)
        theirs = [n for n, p in all_parts().items() if self.group in p.groups_used()]
        return [*(n for n in theirs if n not in own), *own]

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is None:
            key = (self.group, cmd_name)
            if key not in BUILT:
                BUILT[key] = ruleset_command(self.group, cmd_name)
            found = BUILT[key]
        return found


def ruleset_group(group: str) -> type[RulesetGroup]:
    """The ``RulesetGroup`` class of ``group`` (Typer builds the group from a class)."""
    return type(f"RulesetGroup_{group}", (RulesetGroup,), {"group": group})


def no_options() -> None:
    """A group's callback that takes no option (Typer builds a group from it)."""


# ------------------------------------------------------------------ odds commands


def odds_command(spec: OddsCommand) -> Callable[..., None]:
    """The Typer command of a declared odds command: its options, ``--lang`` and ``--json``.

    It answers as the console script does (``conteur.cli.odds_line.answer_odds``); the app
    serves the command's ``--help`` and Click's usage errors.
    """

    def command(**values: Any) -> None:
        lang, as_json = values.pop("lang"), bool(values.pop("as_json"))
        answer_odds(spec, values, lang, as_json)

    params: list[inspect.Parameter] = []
    for option in spec.options:
        info = typer.Option(option.flag, help=help_text(option.help) if option.help else "")
        annotation: Any
        default: Any = option.value
        if option.kind == "flag":
            annotation = Annotated[bool, info]
        elif option.required:
            annotation, default = Annotated[int, info], inspect.Parameter.empty
        elif option.default is None:
            annotation = Annotated[int | None, info]
        else:
            annotation = Annotated[int, info]
        params.append(_keyword(option.name, annotation, default))
    params.append(_keyword("lang", LangOption, None))
    params.append(_keyword("as_json", JsonOption, False))
    command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in params}
    command.__doc__ = spec.help
    return command


def _keyword(name: str, annotation: Any, default: Any) -> inspect.Parameter:
    return inspect.Parameter(
        name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
    )


__all__ = [
    "BUILT",
    "RulesetGroup",
    "new_typer",
    "no_options",
    "odds_command",
    "ruleset_command",
    "ruleset_group",
]
