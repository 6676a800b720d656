"""The command line's own words — its chrome — in the reader's language.

Typer and its copy of click write their usage line, help option, panel titles and usage
errors in English. Every command and group of ``conteur`` is built from ``ChromeCommand``
or ``ChromeGroup`` (``cls=``), which write them from the catalogue
(``messages-chrome.yaml``) instead:

* the help: the usage prefix, ``COMMANDE [ARGUMENTS]...``, the help option's text and the
  option types (``<entier>``; none for a flag) in ``CONTEUR_LANG``'s language, like the
  help texts themselves (built when the CLI loads);
* a usage error (unknown option or command, a value of the wrong type, a missing option
  or argument, an argument too many): caught where the command parses or runs
  (``make_context``, ``invoke``), said in the reader's language — the command's ``--lang``
  when it has one and it was given, else ``CONTEUR_LANG`` — with the usage line and the
  help hint, exit code 2. The message says what was expected, never the English text of
  click or pydantic.

Rich's panel titles and a few labels are module constants of ``typer.rich_utils``: only
``use_language`` sets them, when the language of what is printed is known (help or error),
so loading the CLI neither imports Rich nor pays for them. ``use_language`` imports
``typer.rich_utils`` through ``load_rich_utils``, which spares it ``rich.markdown`` and
``rich.traceback`` (see there).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, NoReturn

import typer
from typer._click import exceptions as errors
from typer.core import TyperCommand, TyperGroup

from conteur.i18n import (
    LANGS,
    Lang,
    catalog,
    env_lang,
    parse_lang,
    register_package_catalog,
    t,
)

if TYPE_CHECKING:
    from typer._click import Command, Context, HelpFormatter, Parameter

    _Base = Command
else:
    _Base = object

register_package_catalog("conteur.cli", "messages-chrome.yaml")

_shown: list[Lang] = []
"""The language ``use_language`` last set (help and errors of this process), if any."""


def shown_lang() -> Lang:
    """The language of the chrome being printed: ``use_language``'s, else ``CONTEUR_LANG``'s."""
    return _shown[-1] if _shown else env_lang()


DEFERRED = {"rich.markdown": "Markdown", "rich.traceback": "Traceback"}
"""The Rich classes ``typer.rich_utils`` imports by name when it loads and uses only in
modes conteur does not use: ``Markdown`` for a help in Markdown mode (conteur's is in
Rich markup mode, Typer's default), ``Traceback`` for Typer's pretty exceptions (turned
off). ``rich.markdown`` loads ``markdown_it`` and pygments, ``rich.traceback`` pygments:
together about as much as the rest of the help."""


class _Deferred(type):
    """The metaclass of a stand-in for a class of ``DEFERRED``: calling the stand-in, or
    reading one of its attributes (``Traceback.from_exception``), imports the real class
    and answers with it."""

    module: str
    name: str

    def real(cls) -> Any:
        return getattr(importlib.import_module(cls.module), cls.name)

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        return cls.real()(*args, **kwargs)

    def __getattr__(cls, attribute: str) -> Any:
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        return getattr(cls.real(), attribute)


def load_rich_utils() -> None:
    """Import ``typer.rich_utils`` (Typer's help and error renderer) without the modules of
    ``DEFERRED`` that are not loaded yet.

    While it loads, each of them is a stand-in module whose class is a ``_Deferred``
    stand-in; the stand-in modules are taken out of ``sys.modules`` right after, so that
    any later import of them (the stand-in classes' own, say) gets the real module.
    ``tests/test_startup.py`` checks that the help then loads neither ``markdown_it`` nor
    pygments, and that a Markdown help still renders as with the real class (it fails if
    Typer stops importing the classes this way, or renders them differently).
    """
    if "typer.rich_utils" in sys.modules:
        return
    stand_ins: dict[str, ModuleType] = {}
    for module, name in DEFERRED.items():
        if module not in sys.modules:
            stand_in = ModuleType(module)
            setattr(stand_in, name, _Deferred(name, (), {"module": module, "name": name}))
            stand_ins[module] = sys.modules[module] = stand_in
    try:
        importlib.import_module("typer.rich_utils")
    finally:
        for module, stand_in in stand_ins.items():
            if sys.modules.get(module) is stand_in:
                del sys.modules[module]


def use_language(lang: Lang) -> None:
    """Write the chrome in ``lang`` from now on: the usage line, and Typer's Rich panel
    titles and labels (module constants of ``typer.rich_utils``, set here and only here).
    Called once the language is known, when help or an error is about to be printed."""
    load_rich_utils()
    from typer import rich_utils

    _shown[:] = [lang]
    rich_utils.ARGUMENTS_PANEL_TITLE = t("cli.chrome.panel.arguments", lang)
    rich_utils.OPTIONS_PANEL_TITLE = t("cli.chrome.panel.options", lang)
    rich_utils.COMMANDS_PANEL_TITLE = t("cli.chrome.panel.commands", lang)
    rich_utils.ERRORS_PANEL_TITLE = t("cli.chrome.panel.error", lang)
    rich_utils.DEFAULT_STRING = t("cli.chrome.default", lang, value="{}")
    rich_utils.ENVVAR_STRING = t("cli.chrome.envvar", lang, value="{}")
    rich_utils.REQUIRED_LONG_STRING = t("cli.chrome.required", lang)
    rich_utils.DEPRECATED_STRING = t("cli.chrome.deprecated", lang)
    rich_utils.ABORTED_TEXT = t("cli.chrome.aborted", lang)
    rich_utils.RICH_HELP = t(
        "cli.chrome.try_help", lang, command_path="{command_path}", help_option="{help_option}"
    )


# ------------------------------------------------------------------ the messages


class NoSuchCommand(errors.UsageError):
    """``conteur <group> <name>`` where the group has no command ``name``."""

    def __init__(self, name: str, possibilities: Sequence[str], ctx: Context) -> None:
        super().__init__(f"No such command {name!r}.", ctx)
        self.name = name
        self.possibilities = list(possibilities)


class ExtraArguments(errors.UsageError):
    """Arguments left over once a command has read all it takes."""

    def __init__(self, extra: Sequence[str], ctx: Context) -> None:
        super().__init__(f"Got unexpected extra arguments ({' '.join(extra)})", ctx)
        self.extra = list(extra)


def _param_name(param: Parameter | None, hint: Any = None) -> str:
    """How the user wrote, or would write, ``param``: ``--pool``, ``SCENARIO``."""
    if isinstance(hint, str):
        return hint
    if param is None:
        return "?"
    if param.param_type_name == "option":
        return " / ".join(param.opts)
    return (param.metavar or param.name or "?").upper()


def _expected(param: Parameter | None, lang: Lang) -> str:
    """What ``param`` takes, said for an error: « un nombre entier »."""
    descriptor = getattr(param, "type_descriptor", None)
    annotation = getattr(descriptor, "annotation", None)
    if getattr(descriptor, "is_choice", False):
        choices = ", ".join(str(c) for c in getattr(descriptor, "choices", None) or ())
        return t("cli.chrome.expected.choice", lang, choices=choices)
    if getattr(descriptor, "is_path", False):
        return t("cli.chrome.expected.path", lang)
    if annotation is int or annotation is float:
        return t(f"cli.chrome.expected.{annotation.__name__}", lang)
    label = getattr(annotation, "__name__", None) or str(annotation)
    return t("cli.chrome.expected.other", lang, type=label)


def _bad_input(error: BaseException) -> str | None:
    """The value a type check refused, from pydantic's error (duck-typed: no import)."""
    details = getattr(error.__cause__, "errors", None)
    if not callable(details):
        return None
    try:
        found = details()
    except Exception:
        return None
    if found and isinstance(found[0], dict) and "input" in found[0]:
        return str(found[0]["input"])
    return None


def _suggested(message: str, possibilities: Sequence[str], lang: Lang) -> str:
    if not possibilities:
        return message
    quoted = ", ".join(sorted(possibilities))
    return t("cli.chrome.did_you_mean", lang, message=message, suggestions=quoted)


def describe(error: errors.ClickException, lang: Lang) -> str:
    """The message of a click error in ``lang``, from the catalogue."""
    if isinstance(error, NoSuchCommand):
        message = t("cli.chrome.no_such_command", lang, name=error.name)
        return _suggested(message, error.possibilities, lang)
    if isinstance(error, ExtraArguments):
        extra = " ".join(error.extra)
        return t("cli.chrome.extra_arguments", lang, count=len(error.extra), args=extra)
    if isinstance(error, errors.NoSuchOption):
        message = t("cli.chrome.no_such_option", lang, name=error.option_name)
        return _suggested(message, error.possibilities or (), lang)
    if isinstance(error, errors.MissingParameter):
        name = _param_name(error.param, error.param_hint)
        kind = error.param_type or getattr(error.param, "param_type_name", "option")
        key = "cli.chrome.missing_argument" if kind == "argument" else "cli.chrome.missing_option"
        return t(key, lang, name=name)
    if isinstance(error, errors.BadParameter):
        name = _param_name(error.param, error.param_hint)
        value = _bad_input(error)
        if value is None:
            return t("cli.chrome.bad_parameter", lang, name=name)
        expected = _expected(error.param, lang)
        return t("cli.chrome.bad_value", lang, name=name, value=value, expected=expected)
    if isinstance(error, errors.BadOptionUsage):
        ctx = error.ctx
        params = ctx.command.params if ctx is not None else []
        flag = any(error.option_name in p.opts and getattr(p, "is_flag", False) for p in params)
        key = "cli.chrome.takes_no_value" if flag else "cli.chrome.needs_value"
        return t(key, lang, name=error.option_name)
    if isinstance(error, errors.FileError):
        return t("cli.chrome.file_error", lang, name=error.ui_filename)
    if isinstance(error, errors.UsageError) and error.message == "Missing command.":
        return t("cli.chrome.missing_command", lang)
    return t("cli.chrome.bad_usage", lang)


def _is_option(param: Parameter) -> bool:
    return param.param_type_name == "option"


def _lang_of(command: Command, args: Sequence[str], params: dict[str, Any]) -> Lang:
    """The language of ``command``'s messages: its ``--lang`` (parsed, else read in
    ``args``) when it has one naming a known language, else ``CONTEUR_LANG``'s."""
    if not any(_is_option(p) and "--lang" in p.opts for p in command.params):
        return env_lang()
    value = params.get("lang")
    for i, token in enumerate(args):
        if token == "--lang" and i + 1 < len(args):
            value = args[i + 1]
        elif token.startswith("--lang="):
            value = token.partition("=")[2]
    if isinstance(value, str) and value.strip().lower().replace("-", "_").split("_")[0] in LANGS:
        return parse_lang(value)
    return env_lang()


def _label(text: str | None) -> Callable[[Context], str | None]:
    """A parameter's ``display_type_rich``: ``text`` whatever the context."""
    return lambda ctx: text


def name_params(command: Command, lang: Lang) -> None:
    """Name ``command``'s arguments (and the values of options given a name) in ``lang``:
    « SCÉNARIO », « FICHIER », « JEU »... from ``cli.chrome.metavar.<parameter>``, as the
    usage line, the help's panels and the usage errors show them."""
    known = catalog()
    for param in command.params:
        key = f"cli.chrome.metavar.{param.name}"
        if key in known:
            param.metavar = t(key, lang)


def report(error: errors.ClickException, lang: Lang) -> NoReturn:
    """Print ``error`` in ``lang`` — usage line, help hint, message — and exit (code 2)."""
    use_language(lang)
    ctx = error.ctx if isinstance(error, errors.UsageError) else None
    if ctx is not None:
        name_params(ctx.command, lang)
    shown = errors.UsageError(describe(error, lang), ctx)
    from typer import rich_utils

    rich_utils.rich_format_error(shown)
    raise typer.Exit(error.exit_code)


# ------------------------------------------------------------------ the classes


class _Chrome(_Base):
    """What ``ChromeCommand`` and ``ChromeGroup`` add to Typer's classes."""

    def _localize_types(self) -> None:
        """Label the parameters' types in ``CONTEUR_LANG``'s language (``<entier>``; none for a
        flag). Typer computes the label on the parameter it built, which takes no class: the
        label is set on the instance. The arguments' and values' names first
        (``name_params``): an option given a name shows it instead of its type."""
        lang = env_lang()
        name_params(self, lang)
        for param in self.params:
            if param.metavar is not None and _is_option(param):
                continue
            if getattr(param, "is_flag", False):
                setattr(param, "display_type_rich", _label(None))  # noqa: B010
                continue
            annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
            name = getattr(annotation, "__name__", "").lower()
            if name in ("int", "float", "str", "path"):
                label = f"<{t(f'cli.chrome.type.{name}', lang)}>"
                setattr(param, "display_type_rich", _label(label))  # noqa: B010

    def get_help_option(self, ctx: Context) -> Any:
        option = super().get_help_option(ctx)
        if option is not None:
            option.help = t("cli.chrome.help_option", env_lang())
            setattr(option, "display_type_rich", _label(None))  # noqa: B010
        return option

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        use_language(env_lang())
        name_params(self, env_lang())
        super().format_help(ctx, formatter)

    def format_usage(self, ctx: Context, formatter: HelpFormatter) -> None:
        name_params(self, shown_lang())
        pieces = self.collect_usage_pieces(ctx)
        prefix = t("cli.chrome.usage", shown_lang())
        formatter.write_usage(ctx.command_path, " ".join(pieces), prefix=prefix)

    def make_context(
        self, info_name: str | None, args: list[str], parent: Context | None = None, **extra: Any
    ) -> Context:
        given = list(args)  # the parser consumes ``args``
        try:
            return super().make_context(info_name, args, parent, **extra)
        except errors.NoArgsIsHelpError:
            raise
        except errors.ClickException as error:
            report(error, _lang_of(self, given, {}))

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except errors.UsageError as error:
            if error.ctx is None:  # the parser's errors (``--pool`` with no value) have none
                error.ctx = ctx
            raise

    def invoke(self, ctx: Context) -> Any:
        try:
            return super().invoke(ctx)
        except errors.NoArgsIsHelpError:
            raise
        except errors.ClickException as error:
            failed = getattr(error, "ctx", None) or ctx
            report(error, _lang_of(failed.command, [], failed.params))


class ChromeCommand(_Chrome, TyperCommand):
    """A Typer command whose chrome is in the reader's language."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._localize_types()

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        if ctx.allow_extra_args or ctx.resilient_parsing:
            return super().parse_args(ctx, args)
        ctx.allow_extra_args = True
        try:
            rest = super().parse_args(ctx, args)
        finally:
            ctx.allow_extra_args = False
        if rest:
            raise ExtraArguments(rest, ctx)
        return rest


class ChromeGroup(_Chrome, TyperGroup):
    """A Typer group whose chrome is in the reader's language."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.subcommand_metavar = t("cli.chrome.subcommand", env_lang())
        self._localize_types()

    def resolve_command(
        self, ctx: Context, args: list[str]
    ) -> tuple[str | None, Command | None, list[str]]:
        name = args[0]
        if not ctx.resilient_parsing and not name.startswith("-"):
            found = self.get_command(ctx, name)
            if found is None:
                from difflib import get_close_matches

                close = get_close_matches(name, self.list_commands(ctx))
                raise NoSuchCommand(name, close, ctx)
        return super().resolve_command(ctx, args)


__all__ = [
    "ChromeCommand",
    "ChromeGroup",
    "ExtraArguments",
    "NoSuchCommand",
    "describe",
    "load_rich_utils",
    "name_params",
    "report",
    "shown_lang",
    "use_language",
]
