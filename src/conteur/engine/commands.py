"""Commands: plain data naming who does what.

The same command comes from the CLI, a script line, a web form, a test or a
simulated tactic. ``args`` holds JSON-ready values only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from conteur.records import lean

SETTLE_TIE = "settle_tie"
"""A game master's command that settles a tie the rules leave to them (who goes first): a
ruleset offers it among ``legal_commands`` while such a tie is next, and readers show it
as a step of the turn, not as a tool."""


@lean
@dataclass(frozen=True)
class Command:
    """``type`` of command, the acting combatant (None for the game master), its arguments."""

    type: str
    actor: str | None = None
    args: dict[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        """An argument, or ``default``."""
        return self.args.get(key, default)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {"type": self.type, "actor": self.actor, "args": dict(self.args)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Command:
        """Read back ``to_dict``."""
        return cls(data["type"], data.get("actor"), dict(data.get("args") or {}))


@dataclass(frozen=True)
class Param:
    """One parameter of a command template: its name, kind and the legal choices or range."""

    name: str
    kind: str  # "choice", "int", "bool", "text", "position"
    choices: tuple[Any, ...] = ()
    min: int | None = None
    max: int | None = None
    required: bool = True
    default: Any = None


@dataclass(frozen=True)
class CommandTemplate:
    """A command a combatant may issue now, with the ranges of its parameters.

    Forms and tactics are built from templates; ``rule`` names the rule that
    makes it available.

    One legality: every value a template offers is accepted by the command, or refused
    only with one of the error keys in ``refusals``. Those are the refusals a template
    cannot rule out parameter by parameter, and states instead: a combination of values
    (a zone aimed at on a target that has none), dice still to roll, a turn not yet come.
    """

    type: str
    actor: str | None
    params: tuple[Param, ...] = ()
    rule: str | None = None
    label: str = ""
    refusals: frozenset[str] = frozenset()
    """The error keys the command may still be refused with, although every value is one
    the template offers (empty: none)."""
    dice: bool | None = None
    """Whether the command rolls dice: False, never, whatever values it is given (no form
    offers a dice box for it; ``tests/legality.py`` checks the claim); True, it may; None,
    the ruleset does not say (``engine.plan.rolls_dice`` finds out when nothing is left to
    choose, and otherwise counts it as one that may)."""

    def param(self, name: str) -> Param:
        """The parameter called ``name``."""
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)
