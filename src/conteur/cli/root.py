"""The ``conteur`` Typer app (``conteur.cli.app``), French by default.

The root's commands and groups are declared here by reference (``ROOT_COMMANDS``) and
their modules imported only when one of them runs: ``conteur --help`` lists each with
its short help — a catalog key — without importing it, which spares the listing the
commands' modules and what they load. The rulesets' own commands (``conteur roll
<ruleset>``, ``conteur odds <ruleset>``, groups such as ``conteur xp``) are declared in
the entry-point group ``conteur.cli`` and loaded only when run or listed by ``--help``
(``conteur.cli.rulesets``).
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

import typer
from typer.core import TyperCommand, TyperGroup

import conteur.i18n
from conteur.cli_parts import all_parts, resolve

from .chrome import ChromeCommand, ChromeGroup
from .options import help_text, refuse_bad_env_lang
from .rulesets import BUILT, new_typer, no_options, ruleset_group

if TYPE_CHECKING:
    from typer._click import Command, Context, HelpFormatter


@dataclass(frozen=True)
class RootCommand:
    """A command or group of the root app, by reference: imported when it runs."""

    name: str
    target: str
    """``"module:attribute"``: the command's function, or the group's Typer app."""
    help: str
    """The catalog key of its help (a group's Typer app is built with the same)."""
    catalog: tuple[str, str] | None = None
    """The package catalog that holds ``help``, when its module registers it."""
    group: bool = False

    def help_text(self) -> str:
        """Its help, as Typer gives it to the command it builds."""
        if self.catalog is not None:
            conteur.i18n.register_package_catalog(*self.catalog)
        return inspect.cleandoc(help_text(self.help))

    def listed(self) -> Command:
        """What the root's help lists of it — its name and help — without its module."""
        return TyperCommand(self.name, help=self.help_text())

    def build(self) -> Command:
        """The command Typer builds from it (its module imported now), as a root app that
        registered it would have it: in an app of its own with the root's settings."""
        carrier = new_typer()
        carrier.callback()(no_options)
        found = resolve(self.target)
        if self.group:
            carrier.add_typer(found, name=self.name)
        else:
            help_ = help_text(self.help)
            carrier.command(self.name, cls=ChromeCommand, help=help_)(found)
        built = typer.main.get_command(carrier)
        assert isinstance(built, TyperGroup)
        return built.commands[self.name]


ROOT_COMMANDS = (
    RootCommand(
        "import",
        "conteur.cli.imports:import_command",
        "cli.help.import",
        ("conteur.cli", "messages-characters.yaml"),
    ),
    RootCommand(
        "npc",
        "conteur.cli.npc:npc_command",
        "cli.help.npc",
        ("conteur.cli", "messages-characters.yaml"),
    ),
    RootCommand(
        "simulate",
        "conteur.cli.simulate:simulate_command",
        "sim.help.simulate",
        ("conteur.sim", "messages.yaml"),
    ),
    RootCommand("demo", "conteur.cli.demo:demo", "cli.help.demo"),
    RootCommand("play", "conteur.cli.play:play", "cli.help.play"),
    RootCommand(
        "serve", "conteur.cli.serve:serve", "cli.help.serve", ("conteur.cli", "messages-serve.yaml")
    ),
    RootCommand(
        "db", "conteur.cli.db:db_app", "cli.help.db", ("conteur.cli", "messages-db.yaml"), True
    ),
    RootCommand("roll", "conteur.cli.roll:roll_app", "cli.help.roll", group=True),
    RootCommand("odds", "conteur.cli.odds_attack:odds_app", "odds.help.group", group=True),
)
"""The root's own commands and groups, in the order its help lists them."""


class RootGroup(ChromeGroup):
    """The ``conteur`` app: its own commands (``ROOT_COMMANDS``, built when first asked
    for), then the groups only rulesets have (``xp``).

    While it prints its help it lists the commands it has not built from their
    declaration (``RootCommand.listed``): the help shows only their names and help.
    """

    own: ClassVar[dict[str, RootCommand]] = {c.name: c for c in ROOT_COMMANDS}
    _listing: bool = False

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        refuse_bad_env_lang()  # before anything is read, ``--help`` included
        return super().parse_args(ctx, args)

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def _ruleset_groups(self) -> dict[str, str]:
        """Each group a ruleset declares that the app has not, with its help key."""
        out: dict[str, str] = {}
        for parts in all_parts().values():
            for group, key in parts.groups.items():
                if group not in self.own and group not in self.commands:
                    out.setdefault(group, key)
        return out

    def list_commands(self, ctx: Context) -> list[str]:
        own = [*self.own, *(n for n in super().list_commands(ctx) if n not in self.own)]
        return [*own, *self._ruleset_groups()]

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is not None:
            return found
        declared = self.own.get(cmd_name)
        if declared is not None and self._listing:
            return declared.listed()
        if declared is not None:
            found = declared.build()
            self.add_command(found, cmd_name)
        elif ("", cmd_name) in BUILT:
            found = BUILT["", cmd_name]
        else:
            key = self._ruleset_groups().get(cmd_name)
            if key is not None:
                group = ruleset_group(cmd_name)
                sub = new_typer(name=cmd_name, cls=group, help=help_text(key), no_args_is_help=True)
                sub.callback()(no_options)
                found = BUILT["", cmd_name] = typer.main.get_command(sub)
        return found


app = new_typer(cls=RootGroup, name="conteur", help=help_text("cli.help.app"), no_args_is_help=True)
app.callback()(no_options)  # a group, whatever it has built


def main() -> None:
    """Entry point of the ``conteur`` console script."""
    app()


__all__ = ["ROOT_COMMANDS", "RootCommand", "RootGroup", "app", "main", "typer"]
