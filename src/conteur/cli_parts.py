"""What a ruleset adds to the ``conteur`` command line, declared without loading it.

A ruleset declares one ``CliParts`` object in the entry-point group ``conteur.cli``,
under its own name (the name it has in ``conteur.rulesets``)::

    [project.entry-points."conteur.cli"]
    mygame = "mygame.cli:CLI"

The console script reads these declarations before anything else (``conteur.launch``),
and the Typer app lists them (``conteur.cli``): a declaration must be cheap to import —
no Typer, no pydantic, no numpy, and not the ruleset itself. Its commands are named by
reference (``"module:attribute"``) and imported only when they run, or when ``--help``
lists them.

* ``commands``: ``{group: CommandRef}`` — a Typer command function that becomes
  ``conteur <group> <ruleset>`` (``conteur roll mygame``, ``conteur xp mygame``);
* ``odds``: an ``OddsCommand``, ``conteur odds <ruleset>``, declared option by option:
  the console script reads and answers the command from it (``conteur.cli.odds_line``, no
  Typer loaded), and the Typer app builds its help from it;
* ``groups``: the help of a group no other part of conteur has (``{"xp": "xp.help.app"}``);
* ``reports``: ``{roll kind: "module:attribute"}``, the human and JSON report of one roll of
  that kind (``conteur.cli.render.RollReport``);
* ``demo``: ``"module:function"``, the ruleset's part of ``conteur demo``
  (``conteur.cli.demo.DemoPart``).

Help texts are catalog keys: the ruleset's package registers its catalogs when imported.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from conteur.entry_points import declared_entry_points, resolve

GROUP = "conteur.cli"
"""The entry-point group the command-line parts are declared in."""

CHART_POOL = 30
"""The default largest pool of an odds chart (``--max-pool``), as ``conteur.dice.odds``
has it (not imported here: it loads numpy)."""


@dataclass(frozen=True)
class CommandRef:
    """A Typer command function, by reference, and the catalog key of its help."""

    target: str
    """``"module:function"``."""
    help: str


@dataclass(frozen=True)
class OddsOption:
    """One option of an odds command: an integer (``--pool 6``) or a flag (``--rote``)."""

    name: str
    """The keyword argument the answer receives."""
    flag: str
    """How it is written (``--pool``)."""
    kind: Literal["int", "flag"] = "int"
    default: int | bool | None = None
    """The value when not given (a flag: False); None for an integer: "not given"."""
    help: str = ""
    """The catalog key of its help."""
    required: bool = False
    low: int | None = None
    """The smallest value the rules allow (None: no bound)."""
    high: int | None = None
    """The largest value the rules allow (None: no bound)."""

    @property
    def value(self) -> int | bool | None:
        """The value the answer receives when the option is not given."""
        return False if self.kind == "flag" and self.default is None else self.default


@dataclass(frozen=True)
class OddsCommand:
    """``conteur odds <ruleset>``: its options, its JSON answer and its human answer.

    Both answers receive every option by name (the declared default when not given).
    ``answer`` returns a JSON-ready dict (``--json``); ``show`` prints the human answer in
    the language given first. Both raise ``ConteurError`` for a user error (reported on
    stderr, or as JSON, exit code 2).
    ``--lang`` and ``--json`` are added to every odds command.
    """

    help: str
    options: tuple[OddsOption, ...]
    answer: str
    """``"module:function"``: ``(**options) -> dict``."""
    show: str
    """``"module:function"``: ``(lang, **options) -> None``."""

    def defaults(self) -> dict[str, Any]:
        """Every option's value when not given."""
        return {o.name: o.value for o in self.options}

    def check(self, values: Mapping[str, Any]) -> None:
        """Refuse a value outside the range its option declares (``check_range``)."""
        for o in self.options:
            value = values.get(o.name)
            if o.kind == "int" and isinstance(value, int):
                check_range(o.flag, value, o.low, o.high)


CHART_OPTIONS = (
    OddsOption("table", "--table", "flag", help="odds.help.table"),
    OddsOption("max_pool", "--max-pool", default=CHART_POOL, help="odds.help.max_pool"),
)
"""The options of an odds command that also draws a pool's chart (``--table``, up to
``--max-pool`` dice): the answer receives ``table`` and ``max_pool``."""


def check_range(flag: str, value: int, low: int | None = None, high: int | None = None) -> None:
    """Refuse an option's value outside ``low..high`` (``ConteurError`` ``cli.out_of_range``
    naming the option and its range in the reader's language, exit code 2)."""
    if (low is None or value >= low) and (high is None or value <= high):
        return
    from conteur.i18n import ConteurError

    if high is None:
        raise ConteurError("cli.below_min", option=flag, value=value, low=low)
    if low is None:
        raise ConteurError("cli.above_max", option=flag, value=value, high=high)
    raise ConteurError("cli.out_of_range", option=flag, value=value, low=low, high=high)


@dataclass(frozen=True)
class CliParts:
    """Everything a ruleset adds to the command line (see the module's documentation)."""

    commands: Mapping[str, CommandRef] = field(default_factory=dict)
    odds: OddsCommand | None = None
    groups: Mapping[str, str] = field(default_factory=dict)
    reports: Mapping[str, str] = field(default_factory=dict)
    demo: str | None = None

    def groups_used(self) -> set[str]:
        """The groups this ruleset has a command in (``odds`` when it declares one)."""
        return set(self.commands) | ({"odds"} if self.odds is not None else set())


_HAND: dict[str, CliParts] = {}


def register_cli_parts(name: str, parts: CliParts) -> None:
    """Add a ruleset's parts by hand (tests), as if declared in the entry-point group."""
    _HAND[name] = parts
    parts_of.cache_clear()
    declared_names.cache_clear()


@cache
def declared() -> dict[str, str]:
    """``{name: "module:attribute"}`` of the group's entry points, the first declaration of a
    name winning as ``importlib.metadata`` has it (nothing is imported; read without
    ``importlib.metadata``, which costs more than an odds answer: ``conteur.entry_points``).
    """
    return declared_entry_points(GROUP)


@cache
def parts_of(name: str) -> CliParts | None:
    """The parts declared under ``name``, or None (its module is imported now)."""
    if name in _HAND:
        return _HAND[name]
    target = declared().get(name)
    if target is None:
        return None
    loaded = resolve(target)
    if not isinstance(loaded, CliParts):
        raise TypeError(f"{GROUP} entry point {name!r} ({target}) is no CliParts")
    return loaded


@cache
def declared_names() -> tuple[str, ...]:
    """The names that declare command-line parts, sorted (nothing is imported)."""
    return tuple(sorted(set(declared()) | set(_HAND)))


def all_parts() -> dict[str, CliParts]:
    """Every declaration by name, in ``declared_names`` order (each module imported now)."""
    out: dict[str, CliParts] = {}
    for name in declared_names():
        parts = parts_of(name)
        if parts is not None:
            out[name] = parts
    return out


__all__ = [
    "CHART_OPTIONS",
    "CHART_POOL",
    "GROUP",
    "CliParts",
    "CommandRef",
    "OddsCommand",
    "OddsOption",
    "all_parts",
    "declared",
    "declared_names",
    "parts_of",
    "register_cli_parts",
    "resolve",
]
