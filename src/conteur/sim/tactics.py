"""Tactics: named, simple policies that play a side of a simulated encounter.

A tactic turns the state of a fight into the commands a player would give —
the very ``Command`` objects the CLI, a script or the web tracker send — so a
simulated fight goes through the real rules code. It has three moments:

* ``declare(state, fighter)``: the fighter's declaration for this turn;
* ``act(state, fighter)``: its declared action is due: carry it out (``act``)
  or give it up (``pass``) when it no longer makes sense (the target fell, it
  is out of reach);
* ``react(state, fighter)``: a command outside its turn to act, or None —
  between turns (getting up), or just before it is attacked (a defence, by
  aborting its action). The referee checks it against the legal commands
  before running it.

and one question: ``fleeing(state, fighter)``, whether the fighter is running
away — a fleeing fighter far enough from every enemy has left the fight.

Tactics are looked up by ruleset and name (``make_tactic(ruleset, "nearest")``);
a ruleset gives its own by name (``Ruleset.tactics()``, usually from its own
``sim`` module). A side of a scenario names its tactic and options::

    sides:
      chasseurs: {tactic: weakest}
      vampires: {tactic: flee, at: 2}

and ``conteur simulate --tactic chasseurs=nearest`` overrides the name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from conteur.engine import Command
from conteur.i18n import ConteurError, register_package_catalog

register_package_catalog("conteur.sim")


class Tactic(Protocol):
    """A policy for the fighters of one side."""

    def declare(self, state: Any, fighter: Any) -> Command:
        """The fighter's declaration for this turn."""
        ...

    def act(self, state: Any, fighter: Any) -> Command:
        """What the fighter does when its declared action is due (``act`` or ``pass``)."""
        ...

    def react(self, state: Any, fighter: Any) -> Command | None:
        """A command outside its turn to act (between turns, or about to be attacked), or None."""
        ...

    def fleeing(self, state: Any, fighter: Any) -> bool:
        """Whether the fighter is running away: once out of reach, it has left the fight."""
        ...


class PlainTactic:
    """What a tactic does when it has nothing else to say: it keeps its side's options,
    declares what it would do when due (``act``), reacts to nothing and never flees. A
    ruleset's tactic inherits it, writes ``act``, and overrides what it does otherwise."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.options = dict(options)

    def declare(self, state: Any, fighter: Any) -> Command:
        """What it would do when due (``act``)."""
        return self.act(state, fighter)

    def act(self, state: Any, fighter: Any) -> Command:
        """What the fighter does when its action is due (each tactic says)."""
        raise NotImplementedError

    def react(self, state: Any, fighter: Any) -> Command | None:
        """Nothing outside its turn."""
        return None

    def fleeing(self, state: Any, fighter: Any) -> bool:
        """Never."""
        return False


TacticFactory = Callable[[Mapping[str, Any]], Tactic]
"""Builds a tactic from a side's options (the ``sides`` entry without ``tactic``)."""


def _load(ruleset: str) -> Mapping[str, TacticFactory]:
    """The tactics of ``ruleset``, by name (the ruleset is loaded the first time)."""
    from conteur.engine.registry import get_ruleset

    return get_ruleset(ruleset).tactics()


def tactic_names(ruleset: str) -> list[str]:
    """The tactics available for ``ruleset``, sorted."""
    return sorted(_load(ruleset))


def tactic_summaries(ruleset: str) -> dict[str, str]:
    """Each tactic's name and the first line of its documentation."""
    return {
        name: (factory.__doc__ or "").strip().split("\n")[0]
        for name, factory in sorted(_load(ruleset).items())
    }


def make_tactic(ruleset: str, name: str, options: Mapping[str, Any] | None = None) -> Tactic:
    """The tactic ``name`` of ``ruleset`` with a side's options (ConteurError when unknown)."""
    known = _load(ruleset)
    if name not in known:
        raise ConteurError(
            "sim.tactic.unknown", name=name, ruleset=ruleset, known=", ".join(sorted(known))
        )
    return known[name](dict(options or {}))


def parse_tactic_option(text: str) -> tuple[str, str]:
    """``side=name`` from ``--tactic`` (ConteurError ``sim.tactic.format`` otherwise)."""
    side, sep, name = text.partition("=")
    if not sep or not side.strip() or not name.strip():
        raise ConteurError("sim.tactic.format", value=text)
    return side.strip(), name.strip()


def side_tactics(
    scenario: Mapping[str, Any],
    sides: list[str],
    overrides: Mapping[str, str] | None = None,
    default: str = "nearest",
) -> dict[str, tuple[str, dict[str, Any]]]:
    """Each side's tactic name and options: ``overrides`` (the command line), then the
    scenario's ``sides`` key, then ``default``. An override or entry naming no side of
    the scenario is an error (``sim.tactic.unknown_side``)."""
    raw = scenario.get("sides") or {}
    if not isinstance(raw, Mapping):
        raise ConteurError("sim.sides.not_mapping")
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    for side in list(raw) + list(overrides or {}):
        if str(side) not in sides:
            raise ConteurError("sim.tactic.unknown_side", side=str(side), known=", ".join(sides))
    for side in sides:
        entry = raw.get(side) or {}
        if isinstance(entry, str):
            entry = {"tactic": entry}
        if not isinstance(entry, Mapping):
            raise ConteurError("sim.sides.not_mapping")
        options = {str(k): v for k, v in entry.items() if k != "tactic"}
        name = str((overrides or {}).get(side) or entry.get("tactic") or default)
        out[side] = (name, options)
    return out


__all__ = [
    "Tactic",
    "TacticFactory",
    "make_tactic",
    "parse_tactic_option",
    "side_tactics",
    "tactic_names",
    "tactic_summaries",
]
