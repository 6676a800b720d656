"""After a fight: who attacked, hit, dealt and took how much, and each side's luck.

A ruleset reads its own events into ``Fact``s (``Ruleset.fight_facts``): an attack
(attacker, target), a hit, damage (target, amount in the ruleset's unit: levels,
points), and the rolls it made with whose they were and how good each result is
for the roller (``score``, higher is better). A hit, damage or roll with no actor
belongs to the attacker of the last attack of the same command (a damage roll, the
levels lost), so a ruleset need not carry the attacker in every event — or, when
its target is that attacker, to the one attacked (a defence striking back).

Luck is measured against the exact odds of each roll (``request.outcomes()``):
the *percentile* of its result is P(worse) + ½·P(as good), so a roll as likely to
be beaten as to beat is 50, and a side that rolled as the odds say averages about
50. The report also sums the scores (successes, totals) against their expectation,
kind of roll by kind of roll (``by_kind``: a pool's successes and a die's face do not
add up).
Only the commands in force count (an undone command is not part of the fight).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any, Literal

from conteur.dice import RollRecord
from conteur.dice.asks import ROLLS, number, plural
from conteur.i18n import Lang, percent, t

if TYPE_CHECKING:
    from .encounter import Encounter
    from .events import Event

FactKind = Literal["attack", "hit", "damage", "roll"]


@dataclass(frozen=True)
class Fact:
    """One thing the summary counts, read by a ruleset from one event."""

    kind: FactKind
    actor: str | None = None
    """Who did it (None: the attacker of the command's last attack)."""
    target: str | None = None
    amount: int = 0
    """Damage, in the ruleset's unit (levels, points)."""
    roll: RollRecord[Any] | None = None
    score: Callable[[Any], float] | None = None
    """How good a result of ``roll`` is for the one who rolled it (higher is better)."""


def result_score(result: Any) -> float:
    """How good ``result`` is for the one who rolled it (higher is better): the ``score``
    each kind of result says of itself (a pool's successes, a total, a margin...)."""
    return float(result.score)


def rolled(
    event: Event,
    actor: str | None,
    score: Callable[[Any], float] = result_score,
    target: str | None = None,
) -> tuple[Fact, ...]:
    """A roll fact for each roll of ``event``, all of them ``actor``'s (each result scored
    by ``score``: by default, as it scores itself), against ``target`` if one is named."""
    return tuple(Fact("roll", actor, target, roll=r, score=score) for r in event.rolls)


def attacked(event: Event, attacker: str, target: str, hit: bool = False) -> tuple[Fact, ...]:
    """An attack of ``attacker`` on ``target`` (and its hit, when the event says it hit),
    then the rolls of ``event``, all of them the attacker's."""
    hits = (Fact("hit", attacker, target),) if hit else ()
    return (Fact("attack", attacker, target), *hits, *rolled(event, attacker))


@dataclass(frozen=True)
class Luck:
    """One roll against its exact odds."""

    percentile: float
    """P(a worse result) + ½·P(as good a result), 0 to 1."""
    score: float
    expected: float


def luck_of(record: RollRecord[Any], score: Callable[[Any], float]) -> Luck:
    """Where ``record``'s result falls in the exact distribution of its request."""
    mine = score(record.result)
    total = below = same = mean = 0.0
    for result, p in record.request.outcomes():
        value = score(result)
        total += p
        mean += p * value
        if value < mine:
            below += p
        elif value == mine:
            same += p
    if total <= 0:
        return Luck(0.5, mine, mine)
    return Luck((below + same / 2) / total, mine, mean / total)


@dataclass
class Luckiness:
    """Rolls counted with their percentiles, and their scores summed by kind of roll (a
    pool's successes and an initiative die's face do not add up)."""

    rolls: int = 0
    percentiles: float = 0.0
    kinds: dict[str, list[float]] = field(default_factory=dict)
    """Kind of roll → [rolls, score, expected score]."""

    def add(self, kind: str, luck: Luck) -> None:
        self.rolls += 1
        self.percentiles += luck.percentile
        sums = self.kinds.setdefault(kind, [0, 0.0, 0.0])
        sums[0] += 1
        sums[1] += luck.score
        sums[2] += luck.expected

    @property
    def luck(self) -> float | None:
        """The average percentile (0 to 1), None without a roll."""
        return self.percentiles / self.rolls if self.rolls else None

    def to_dict(self) -> dict[str, Any]:
        """The tally's own fields (those a subclass adds), in order, then its luck
        (``luck_dict``)."""
        luck_fields = {f.name for f in fields(Luckiness)}
        own = {name: value for name, value in asdict(self).items() if name not in luck_fields}
        return {**own, **self.luck_dict()}

    def luck_dict(self) -> dict[str, Any]:
        luck = self.luck
        return {
            "rolls": self.rolls,
            "luck": None if luck is None else round(luck, 4),
            "by_kind": {
                k: {"rolls": int(n), "score": round(sc, 4), "expected": round(ex, 4)}
                for k, (n, sc, ex) in sorted(self.kinds.items())
            },
        }


@dataclass
class FighterTally(Luckiness):
    """One combatant's fight."""

    id: str = ""
    name: str = ""
    side: str = ""
    attacks: int = 0
    hits: int = 0
    dealt: int = 0
    taken: int = 0


@dataclass
class SideTally(Luckiness):
    """One side's luck."""

    side: str = ""
    fighters: list[str] = field(default_factory=list)


@dataclass
class FightReport:
    """The summary of a fight: each combatant's tally, then each side's luck."""

    fighters: list[FighterTally]
    sides: list[SideTally]

    def fighter(self, fid: str) -> FighterTally:
        return next(f for f in self.fighters if f.id == fid)

    def side(self, name: str) -> SideTally:
        return next(s for s in self.sides if s.side == name)

    def to_dict(self) -> dict[str, Any]:
        return {
            "fighters": [f.to_dict() for f in self.fighters],
            "sides": [s.to_dict() for s in self.sides],
        }


def fight_report(encounter: Encounter) -> FightReport:
    """The summary of ``encounter``'s commands in force."""
    ruleset = encounter.ruleset
    rows = ruleset.roster(encounter.state).rows
    fighters = {r.id: FighterTally(id=r.id, name=r.name, side=r.side) for r in rows}
    sides: dict[str, SideTally] = {}
    for r in rows:
        sides.setdefault(r.side, SideTally(side=r.side)).fighters.append(r.id)
    for entry in encounter.active():
        _count(entry.events, ruleset.fight_facts, fighters, sides)
    return FightReport(list(fighters.values()), list(sides.values()))


def _count(
    events: Sequence[Event],
    facts_of: Callable[[Event], Sequence[Fact]],
    fighters: dict[str, FighterTally],
    sides: dict[str, SideTally],
) -> None:
    """Add one command's facts (the last attack's attacker fills the facts with no actor)."""
    attacker: str | None = None
    attacked: str | None = None
    hit = False
    for event in events:
        for fact in facts_of(event):
            who = fact.actor
            if who is None:
                who = attacked if fact.target is not None and fact.target == attacker else attacker
            if fact.kind == "attack":
                attacker, attacked, hit = fact.actor, fact.target, False
                if who in fighters:
                    fighters[who].attacks += 1
            elif fact.kind == "hit":
                if not hit and who in fighters and who == attacker:
                    fighters[who].hits += 1
                hit = True
            elif fact.kind == "damage":
                if fact.target in fighters:
                    fighters[fact.target].taken += fact.amount
                if who in fighters and who != fact.target:
                    fighters[who].dealt += fact.amount
            elif fact.roll is not None and fact.score is not None and who in fighters:
                luck = luck_of(fact.roll, fact.score)
                kind = str(fact.roll.request.kind)
                fighters[who].add(kind, luck)
                sides[fighters[who].side].add(kind, luck)


def luck_text(luck: float | None, lang: Lang) -> str:
    """An average percentile as a percentage (« 62 % »), or a dash without a roll."""
    return "—" if luck is None else percent(luck, lang, digits=0)


def report_lines(report: FightReport, lang: Lang) -> list[str]:
    """The summary in prose, one line per fighter then one per side (``conteur play``)."""
    lines = []
    for f in report.fighters:
        lines.append(
            t(
                "engine.report.fighter",
                lang,
                fighter=f.name,
                attacks=plural(ATTACKS, f.attacks, lang),
                hits=plural(HITS, f.hits, lang),
                dealt=number(f.dealt, lang),
                taken=number(f.taken, lang),
                luck=luck_text(f.luck, lang),
                rolls=plural(ROLLS, f.rolls, lang),
            )
        )
    for s in report.sides:
        lines.append(
            t(
                "engine.report.side",
                lang,
                side=s.side,
                luck=luck_text(s.luck, lang),
                rolls=plural(ROLLS, s.rolls, lang),
            )
        )
    return lines


ATTACKS = ("engine.report.attacks.one", "engine.report.attacks.other")
HITS = ("engine.report.hits.one", "engine.report.hits.other")


__all__ = [
    "Fact",
    "FightReport",
    "FighterTally",
    "Luck",
    "SideTally",
    "fight_report",
    "luck_of",
    "report_lines",
    "result_score",
    "rolled",
]
