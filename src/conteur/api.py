"""The public Python API: what the CLI does, for scripts and notebooks.

    import conteur
    scenario = conteur.Scenario.load("examples/fusillade.yaml")
    odds = scenario.attack_odds("nini", "gaspard")
    odds.to_dict()      # what ``conteur odds attack ... --json`` prints
    conteur.simulate("examples/simulation/4v4_1899.yaml", runs=200, seed=1)
                        # what ``conteur simulate ... --json --no-plot`` prints
    conteur.sweep("examples/simulation/4v4_1899.yaml", "abberline*=1..3", runs=200, seed=1)
                        # what ``conteur simulate ... --sweep SPEC --json --no-plot`` prints

Kept stable: these names and their arguments change only by gaining optional ones.
Errors are ``conteur.i18n.ConteurError`` (``message(lang)`` in French or English).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conteur.engine import Encounter
from conteur.engine.odds import AttackOdds
from conteur.i18n import ConteurError

Odds = AttackOdds
"""The exact odds of one attack (``conteur.engine.odds.AttackOdds``); ``to_dict()`` is
``conteur odds attack --json``'s object."""


@dataclass(frozen=True)
class Scenario:
    """A scenario file read and started: its data, where its files are, its first state."""

    path: Path
    data: Mapping[str, Any]
    encounter: Encounter

    @classmethod
    def load(cls, path: str | Path) -> Scenario:
        """Read and start the scenario at ``path`` (ConteurError naming what is wrong)."""
        from conteur.engine.scenario import load_scenario

        data, base = load_scenario(Path(path))
        return cls(Path(path), data, Encounter.start(data, base, source=str(path)))

    @property
    def ruleset(self) -> str:
        """The name of the ruleset the scenario plays."""
        return self.encounter.ruleset.name

    @property
    def combatants(self) -> list[str]:
        """The combatants' ids, in the scenario's order."""
        return list(self.encounter.ruleset.names(self.encounter.state))

    def attack_odds(
        self, attacker: str, target: str, maneuver: str | None = None, **params: Any
    ) -> Odds:
        """The exact odds of ``attacker`` attacking ``target`` now, as
        ``conteur odds attack SCENARIO --attacker A --target T [--maneuver M]
        [--param NAME=VALUE ...]`` computes them (values as the CLI writes them)."""
        known = self.combatants
        for name in (attacker, target):
            if name not in known:
                raise ConteurError("odds.attack.unknown_fighter", name=name, known=", ".join(known))
        answer: Odds = self.encounter.ruleset.attack_odds(
            self.encounter.state, attacker, target, maneuver, dict(params) or None
        )
        return answer


def simulate(
    path: str | Path,
    *,
    runs: int = 1000,
    seed: int | None = None,
    workers: int | None = 1,
    tactics: Mapping[str, str] | None = None,
    max_turns: int | None = None,
    dask: str | None = None,
    sweep: str | None = None,
) -> dict[str, Any]:
    """Fight the scenario at ``path`` ``runs`` times with the real rules; the result is what
    ``conteur simulate PATH --runs N [--seed S] [--workers K] --json --no-plot`` prints.
    With ``sweep`` (a spec, as ``--sweep SPEC``), ``runs`` times for each of its values:
    see ``sweep``.

    The same seed gives the same result whatever the number of workers."""
    from conteur.sim.encounters import simulate as run
    from conteur.sim.sweep import sweep as run_sweep

    common: dict[str, Any] = {
        "seed": seed,
        "workers": workers if workers is not None else 1,
        "tactics": dict(tactics or {}),
        "max_turns": max_turns,
        "dask": dask,
    }
    result = (
        run(Path(path), runs, **common)
        if sweep is None
        else run_sweep(Path(path), sweep, runs, **common)
    )
    data = result.to_dict()
    data["plot"] = []
    return data


def sweep(path: str | Path, spec: str, *, runs: int = 1000, **options: Any) -> dict[str, Any]:
    """``simulate(path, sweep=spec, ...)``: the scenario at ``path`` simulated ``runs`` times
    for each value of ``spec`` (``"abberline*=1..4"``: copies of a combatant;
    ``"marius.celerite=0..3"``: one of its traits; ``"OPTION=non,oui"``: an option of the
    scenario), what ``conteur simulate PATH --sweep SPEC --runs N ... --json --no-plot``
    prints: each value's win rates with their 95 % intervals, its whole simulation
    (``points[i]["result"]``), and the value where the fight is closest to even
    (``closest``). ``options``: ``simulate``'s (``seed``, ``workers``, ``tactics``,
    ``max_turns``, ``dask``)."""
    return simulate(path, runs=runs, sweep=spec, **options)


__all__ = ["Odds", "Scenario", "simulate", "sweep"]
