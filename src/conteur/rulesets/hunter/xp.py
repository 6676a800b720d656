"""Practical experience after a hunter session ("expérience pratique", H-XP-1..H-XP-5).

``award(session, counts)`` reads like the text: the base is the number of
players, the game master's hunters included (H-XP-1); each adjustment of
H-XP-2 adds its points (exceptional successes and dramatic failures counted
from the encounters' logs, the rest stated by the game master); then each
new piece of information the players learned (H-XP-3). ``check_spending``
validates the split among the players and what each buys or banks (H-XP-4,
H-XP-5). ``session_report`` does both for a summary file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conteur.i18n import ConteurError, Lang, Msg, register_package_catalog, t

from .xp_log import LogCount, count_encounter
from .xp_session import (
    Purchase,
    PurchaseKind,
    Session,
    StatedAdjustments,
    load_session,
    read_adjustments,
    xp_table,
)

register_package_catalog("conteur.rulesets.hunter", "messages-xp.yaml")


@dataclass(frozen=True)
class Line:
    """One line of the breakdown: its rule, what it counts, how many times, and the points."""

    rule: str
    key: str
    count: int
    points: int
    label: Msg
    note: Msg | None = None

    def to_dict(self, lang: Lang) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "key": self.key,
            "label": self.label.describe(lang),
            "points": self.points,
            "count": self.count,
            "note": self.note.describe(lang) if self.note else None,
        }


@dataclass(frozen=True)
class Base:
    """H-XP-1: one point per player, the game master's hunters included."""

    players: int
    gm_hunters: int

    @property
    def points(self) -> int:
        return self.players + self.gm_hunters

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": "H-XP-1",
            "players": self.players,
            "gm_hunters": self.gm_hunters,
            "points": self.points,
        }


@dataclass(frozen=True)
class Award:
    """The session's practical experience, line by line."""

    base: Base
    lines: tuple[Line, ...]

    @property
    def raw_total(self) -> int:
        return self.base.points + sum(line.points for line in self.lines)

    @property
    def total(self) -> int:
        """The award, never below 0 (reading of H-XP-2)."""
        return max(0, self.raw_total)


def award(session: Session, logs: Sequence[LogCount] = ()) -> Award:
    """The practical experience of ``session``, the log counts included (H-XP-1..H-XP-3)."""
    stated = read_adjustments(session.adjustments, "ajustements")
    base = Base(len(session.players), len(session.gm_hunters))
    return Award(
        base, (*adjustment_lines(stated, session.planned_flight, logs), *information_lines(session))
    )


def adjustment_lines(
    stated: StatedAdjustments, planned_flight: bool, logs: Sequence[LogCount] = ()
) -> list[Line]:
    """Every H-XP-2 line, in the text's order, with its count and points."""
    counts = dict(stated.counts)
    counts["exceptional_successes"] = counts.get("exceptional_successes", 0) + sum(
        log.exceptional_successes for log in logs
    )
    counts["dramatic_failures"] = counts.get("dramatic_failures", 0) + sum(
        log.dramatic_failures for log in logs
    )
    if counts.get("tactic_first_used") and not counts.get("tactic_succeeded"):
        raise ConteurError("xp.first_use_needs_success", rule="H-XP-2")
    lines = []
    for adj in xp_table().adjustments:
        count = counts.get(adj.key, 0)
        note = None
        if adj.key == "bystander_hurt" and count and counts.get("bystander_killed"):
            count, note = 0, Msg("xp.note.replaced_by_killed")
        if adj.key == "forced_to_flee" and count and planned_flight:
            count, note = 0, Msg("xp.note.planned_flight")
        lines.append(
            Line("H-XP-2", adj.key, count, count * adj.points, Msg(f"xp.line.{adj.key}"), note)
        )
    return lines


def information_lines(session: Session) -> list[Line]:
    """H-XP-3: each new thing learned about monsters, worth what the game master sets."""
    default = xp_table().information_points
    return [
        Line(
            "H-XP-3",
            "information",
            1,
            default if info.points is None else info.points,
            Msg("xp.line.information", text=info.text),
        )
        for info in session.information
    ]


# --------------------------------------------------------------------------- spending


@dataclass(frozen=True)
class Problem:
    """A refused split or purchase, with the rule it breaks."""

    rule: str
    key: str
    player: str | None
    params: Mapping[str, Any] = field(default_factory=dict)

    def message(self, lang: Lang) -> str:
        return f"[{self.rule}] " + t(self.key, lang, **self.params)

    def to_dict(self, lang: Lang) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "key": self.key,
            "player": self.player,
            "message": self.message(lang),
        }


@dataclass(frozen=True)
class Bought:
    """One purchase with its cost (None when it cannot be reckoned) and its problems."""

    purchase: Purchase
    kind: PurchaseKind
    cost: int | None
    problems: tuple[Problem, ...]

    def to_dict(self, lang: Lang) -> dict[str, Any]:
        return {
            "purchase": self.kind.key,
            "label": t(f"xp.buy.{self.kind.key}", lang),
            "trait": self.purchase.trait,
            "from": self.purchase.from_dots,
            "to": self.purchase.to_dots,
            "points": self.purchase.points,
            "cost": self.cost,
            "from_bank": self.purchase.from_bank,
            "rule": self.kind.rule,
            "ok": not self.problems,
        }


@dataclass(frozen=True)
class Spending:
    """A player's share, purchases and bank, and whether they follow H-XP-4/H-XP-5."""

    player: str
    share: int
    bank_before: int
    banked: int
    bought: tuple[Bought, ...]
    problems: tuple[Problem, ...]

    @property
    def spent_now(self) -> int:
        """Points of this session spent at once."""
        return sum(b.cost or 0 for b in self.bought if not b.purchase.from_bank)

    @property
    def spent_from_bank(self) -> int:
        return sum(b.cost or 0 for b in self.bought if b.purchase.from_bank)

    @property
    def bank_after(self) -> int:
        return self.bank_before - self.spent_from_bank + self.banked

    @property
    def ok(self) -> bool:
        return not self.problems and all(not b.problems for b in self.bought)

    def all_problems(self) -> list[Problem]:
        return [p for b in self.bought for p in b.problems] + list(self.problems)

    def to_dict(self, lang: Lang) -> dict[str, Any]:
        return {
            "player": self.player,
            "share": self.share,
            "purchases": [b.to_dict(lang) for b in self.bought],
            "spent": self.spent_now,
            "spent_from_bank": self.spent_from_bank,
            "banked": self.banked,
            "bank_before": self.bank_before,
            "bank_after": self.bank_after,
            "ok": self.ok,
        }


def purchase_cost(purchase: Purchase, kind: PurchaseKind) -> int | None:
    """The cost of one purchase by the table (None when the summary lacks what it needs)."""
    if kind.cost == "stated":
        return purchase.cost
    if kind.cost == "flat":
        return kind.rate
    if kind.cost == "per_point":
        return None if purchase.points is None else purchase.points * kind.rate
    start, end = purchase.from_dots, purchase.to_dots
    if start is None or end is None or end <= start:
        return None
    return sum(range(start + 1, end + 1)) * kind.rate


def check_purchase(player: str, purchase: Purchase) -> Bought:
    """Price one purchase and list what H-XP-4 and H-XP-5 refuse in it."""
    kind = xp_table().purchases[purchase.kind]
    cost = purchase_cost(purchase, kind)
    label = Msg(f"xp.buy.{kind.key}")
    if not kind.allowed:
        # Refused whatever it costs (H-XP-5); the stated cost, if any, still counts as spent.
        refused = Problem(
            "H-XP-5", "xp.refused.attribute", player, {"trait": purchase.trait or "-"}
        )
        return Bought(purchase, kind, cost if cost is not None else purchase.cost, (refused,))
    problems: list[Problem] = []
    if purchase.from_bank and not kind.banked:
        problems.append(Problem("H-XP-4", "xp.refused.banked", player, {"purchase": label}))
    if cost is None:
        needs = {
            "stated": "xp.needs.cost",
            "per_point": "xp.needs.points",
            "per_dot": "xp.needs.dots",
        }[kind.cost]
        problems.append(Problem(kind.rule, needs, player, {"purchase": label}))
    elif purchase.cost is not None and kind.cost != "stated" and purchase.cost != cost:
        problems.append(
            Problem(
                kind.rule,
                "xp.refused.cost",
                player,
                {"purchase": label, "stated": purchase.cost, "cost": cost},
            )
        )
    return Bought(purchase, kind, cost, tuple(problems))


def check_spending(session: Session, total: int) -> tuple[list[Spending], list[Problem]]:
    """Each player's spending, and the problems of the split as a whole (H-XP-4, H-XP-5)."""
    if not session.split:
        return [], []
    problems: list[Problem] = []
    recipients = [p.name for p in session.players] + list(session.gm_hunters)
    shared = sum(s.share for s in session.split.values())
    if shared != total:
        problems.append(
            Problem("H-XP-4", "xp.refused.split_sum", None, {"shared": shared, "total": total})
        )
    spendings = []
    for player, share in session.split.items():
        own: list[Problem] = []
        if player not in recipients:
            own.append(
                Problem(
                    "H-XP-4", "xp.refused.unknown_player", player, {"known": ", ".join(recipients)}
                )
            )
        bought = tuple(check_purchase(player, p) for p in share.purchases)
        spent_now = sum(b.cost or 0 for b in bought if not b.purchase.from_bank)
        from_bank = sum(b.cost or 0 for b in bought if b.purchase.from_bank)
        if spent_now + share.banked != share.share:
            own.append(
                Problem(
                    "H-XP-4",
                    "xp.refused.unaccounted",
                    player,
                    {"share": share.share, "spent": spent_now, "banked": share.banked},
                )
            )
        if from_bank > share.bank_before:
            own.append(
                Problem(
                    "H-XP-4",
                    "xp.refused.overdrawn",
                    player,
                    {"spent": from_bank, "bank": share.bank_before},
                )
            )
        spendings.append(
            Spending(player, share.share, share.bank_before, share.banked, bought, tuple(own))
        )
    return spendings, problems


# --------------------------------------------------------------------------- the report


@dataclass(frozen=True)
class XpReport:
    """Everything ``conteur xp hunter`` shows: award, log counts, split and verdicts."""

    session: Session
    award: Award
    logs: tuple[LogCount, ...]
    spending: tuple[Spending, ...]
    split_problems: tuple[Problem, ...]

    def problems(self) -> list[Problem]:
        return [p for s in self.spending for p in s.all_problems()] + list(self.split_problems)

    def to_dict(self, lang: Lang) -> dict[str, Any]:
        return {
            "title": self.session.title,
            "base": self.award.base.to_dict(),
            "lines": [line.to_dict(lang) for line in self.award.lines],
            "raw_total": self.award.raw_total,
            "total": self.award.total,
            "encounters": [log.to_dict() for log in self.logs],
            "split": [{"player": s.player, "points": s.share} for s in self.spending],
            "spending": [s.to_dict(lang) for s in self.spending],
            "errors": [p.to_dict(lang) for p in self.problems()],
        }


def report_for(session: Session, base_dir: Path) -> XpReport:
    """Count the logs, compute the award and check the spending of a parsed summary."""
    hunters = session.hunters()
    logs = tuple(count_encounter(ref, hunters, base_dir) for ref in session.encounters)
    result = award(session, logs)
    spending, problems = check_spending(session, result.total)
    return XpReport(session, result, logs, tuple(spending), tuple(problems))


def session_report(path: Path) -> XpReport:
    """The report of the summary file at ``path`` (logs and scenarios relative to it)."""
    return report_for(load_session(path), path.parent)


def lines_shown(lines: Iterable[Line]) -> list[Line]:
    """The lines worth printing: those that count something or carry a note."""
    return [line for line in lines if line.count or line.note is not None]
