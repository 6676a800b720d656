"""One short fight per ruleset — vtm, hunter, western and the toy duel of ``tests/plugins`` —
for the tests that play a fight whatever the ruleset (``conteur play``, ``conteur odds
attack``, ``conteur simulate``, the tracker's pages).

Each fight is a shipped scenario with its script and the table's dice; ``attacker`` strikes
``target`` in it, and ``status`` is how the target stands at the end, as the ruleset's
roster says it (``Ruleset.roster``: the contract's view, never the ruleset's state). The
tracker's tests use ``sheets`` instead (a campaign's characters, pasted as a GM would)
with the command that starts the fight and the attack of the fighter due.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from conteur.dice.table import TableDice
from conteur.engine import Command, Encounter, Resolution
from conteur.engine.plan import next_roll
from conteur.engine.script import play_script, script_lines, start, typed_dice
from conteur.engine.views import Status

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Fight:
    """A ruleset's scripted fight, and a campaign's two fighters for the tracker."""

    scenario: Path
    """The scenario file; its script and dice files are beside it (``.txt``, ``.dice``)."""
    attacker: str
    target: str
    status: Status
    """The target's status in the roster once the script is played."""
    sheets: str
    """Two characters as a campaign file (a YAML list), as a game master pastes them."""
    begin: str
    """The command that starts the fight (the GM's, no actor)."""
    action: str
    """The command type of the due fighter's attack."""
    args: Callable[[str], dict[str, str]]
    """That attack's fields, against the other fighter."""
    declare: Callable[[str], dict[str, str]] | None = None
    """What each fighter declares first, when the ruleset has declarations."""

    @property
    def script(self) -> Path:
        return self.scenario.with_suffix(".txt")

    @property
    def dice(self) -> Path:
        return self.scenario.with_suffix(".dice")

    def played(self) -> Encounter:
        """The encounter once the whole script is played in-process (``play_script``)."""
        enc = start(self.scenario)
        _, error = play_script(enc, script_lines(self.script), typed_dice(self.dice), "fr")
        assert error is None, error
        return enc


FIGHTS = {
    "vtm": Fight(
        scenario=ROOT / "examples" / "saloon.yaml",
        attacker="ezechiel",
        target="jack",
        status="out",
        sheets="""
- {id: jack, nom: Jack Malone, type: mortel, Force: 3, Dextérité: 3, Vigueur: 3, Astuce: 3,
   Perception: 2, Athlétisme: 2, Bagarre: 3, Esquive: 2, Volonté: 4}
- {id: ezechiel, nom: Ézéchiel Crowe, type: vampire, Force: 4, Dextérité: 3, Vigueur: 3,
   Astuce: 3, Bagarre: 3, Esquive: 3, Puissance: 1, Volonté: 6, sang: 12}
""",
        begin="initiative",
        action="act",
        args=lambda other: {},
        declare=lambda other: {"kind": "punch", "target": other, "move_to": other},
    ),
    "hunter": Fight(
        scenario=ROOT / "examples" / "hunter" / "cellule.yaml",
        attacker="ana",
        target="bete",
        status="wounded",
        sheets="""
- {id: ana, nom: Ana, force: 2, dextérité: 3, vigueur: 2, astuce: 3, calme: 3,
   armes à feu: 3, arme: heavy_pistol}
- {id: bete, nom: la Bête, type: monstre, force: 5, dextérité: 3, vigueur: 4, astuce: 3,
   calme: 2, mains nues: 4, dégâts à mains nues: L}
""",
        begin="initiative",
        action="act",
        args=lambda other: {"kind": "attack", "target": other},
    ),
    "western": Fight(
        scenario=ROOT / "examples" / "western" / "duel.yaml",
        attacker="bill",
        target="jack",
        status="out",
        sheets="""
- id: bill
  nom: Bill Tanner
  caractéristiques: {FORCE: 12, RÉSISTANCE: 11, CONSTITUTION: 12, RAPIDITÉ: 15, RÉPUTATION: 6}
  compétences: {tir visé au pistolet: 56}
  armes: [colt_saa]
- id: jack
  name: Jack Malone
  characteristics: {STRENGTH: 13, RESISTANCE: 12, CONSTITUTION: 13, SPEED: 11, REPUTATION: 12}
  skills: {aimed pistol: 50}
  weapons: [schofield]
""",
        begin="round",
        action="attack",
        args=lambda other: {"target": other},
    ),
    "duel": Fight(
        scenario=ROOT / "tests" / "plugins" / "examples" / "duel.yaml",
        attacker="ana",
        target="bob",
        status="out",
        sheets="""
- {id: ana, name: Ana, attack: 2, guard: 1, health: 5}
- {id: bob, name: Bob, attack: 1, guard: 2, health: 5}
""",
        begin="begin",
        action="attack",
        args=lambda other: {"target": other},
    ),
}
"""The fights by ruleset name: every ruleset installed, the toy included."""


def table_rolls(
    enc: Encounter, command: Command, face: Callable[[int, int], int]
) -> list[list[int]]:
    """The rolls a table would make for ``command`` now: as many as the engine asks
    (``next_roll``), the ``n``-th die of ``sides`` showing ``face(sides, n)``."""
    rolls: list[list[int]] = []
    for n in range(100):
        needed = next_roll(enc, command, rolls)
        if needed is None:
            return rolls
        while len(rolls) <= needed.index:
            rolls.append([])
        rolls[needed.index] += [face(needed.sides, n + i) for i in range(needed.count)]
    raise AssertionError(f"{command}: the rolls asked never end")


def line(rolls: list[list[int]]) -> str:
    """Rolls as the dice form's one line."""
    return " ".join(str(f) for roll in rolls for f in roll)


def hitting_faces(enc: Encounter, command: Command, target: str) -> str:
    """Faces with which ``command`` changes ``target``'s health in the roster view, tried on
    a copy: the first die showing a face, every other die the same face, the lowest or the
    highest (each below its die's highest face: no reroll)."""
    before = enc.ruleset.roster(enc.state).row(target).health
    for first in range(1, 100):
        for rest in (first, 1, 99):

            def face(sides: int, n: int, first: int = first, rest: int = rest) -> int:
                return min(first if n == 0 else rest, max(sides - 1, 1))

            rolls = table_rolls(enc, command, face)
            work = copy.deepcopy(enc.state)
            enc.ruleset.resolve(Resolution(work, TableDice(rolls)), command)
            if enc.ruleset.roster(work).row(target).health != before:
                return line(rolls)
    raise AssertionError(f"{command}: no faces hit {target}")
