"""What a ruleset provides to the engine."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from conteur.dice import DiceSource
from conteur.i18n import Lang

from .commands import Command, CommandTemplate
from .events import Event


class Resolution:
    """The working context of one command: the encounter's live state, the dice, the events.

    ``emit`` folds an event into the state at once, so later steps of the same
    command see its effect; rule code changes the state only this way. When the
    command fails half-way, the encounter restores the state from its events
    in force (nothing is copied before a command).
    """

    def __init__(self, state: Any, dice: DiceSource) -> None:
        self.state = state
        self.dice = dice
        self.events: list[Event] = []

    def emit(self, event: Event) -> Event:
        """Record ``event`` and fold it into the state."""
        event.apply(self.state)
        self.events.append(event)
        return event


class Ruleset(Protocol):
    """A game system: its state, how commands resolve, what is legal, how scripts read.

    Optional methods, which the tracker (``conteur.web``) uses when a ruleset has them
    and does without otherwise (it reads them with ``getattr``):

    - ``summary(state) -> list[dict]``: where each combatant stands, JSON-ready (``id``,
      ``name``, ``health``, ``fate``...), for the roster.
    - ``attack_kinds(state, attacker) -> list[str]``: the maneuvers ``attacker`` could
      attack with now, each of which ``attack_odds`` prices (the odds form's choices).
    - ``odds_toggles(state, attacker, target, maneuver) -> list[Param]``: the options of
      that attack which change its odds (cover, aim, a called shot, several actions...),
      each with its default as things stand; the values the reader picks are passed as
      ``attack_odds(..., params={name: value})``.
    - ``due_actors(state) -> list[str]``: who is expected to act now, when the ruleset's
      turn is not told by ``declare``/``act`` templates (western's order of shots).

    A command's parameters are all the tracker knows of it: a form gets one field per
    ``Param`` of a ``legal_commands`` template (a second action is parameters of its
    own, e.g. ``then_kind``), and the command is ``Command(type, actor, {name: value})``.
    """

    name: str

    def new_state(self, scenario: Mapping[str, Any], base_dir: Path | None = None) -> Any:
        """The state at the start of an encounter described by ``scenario``."""
        ...

    def resolve(self, ctx: Resolution, command: Command) -> None:
        """Check ``command`` against ``ctx.state`` and emit its events (ConteurError if illegal)."""
        ...

    def legal_commands(self, state: Any, actor: str | None = None) -> list[CommandTemplate]:
        """The commands ``actor`` (or anyone, when None) may issue now."""
        ...

    def parse_command(self, line: str, state: Any, lang: Lang | None = None) -> Command:
        """Read one line of the script language (French or English words)."""
        ...

    def end_state(self, state: Any) -> dict[str, dict[str, Any]]:
        """What each character carries out of the encounter (wounds, Willpower, ammunition...)."""
        ...

    def attack_odds(
        self,
        state: Any,
        attacker: str,
        target: str,
        maneuver: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> Any:
        """The exact odds of one attack now; the answer has ``to_dict()`` (JSON-ready)."""
        ...
