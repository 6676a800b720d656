"""Roll reports for people (Rich) and for programs (JSON), in French or English.

A report shows every face, what each did (which dice succeeded, which 1s
cancelled which success, rerolls), the result, and the rule ids behind it.
What a kind of roll shows is its ``RollReport``: the plain ``NdX±M`` one is here,
a ruleset declares its own (``conteur.cli_parts.CliParts.reports``), loaded when a
roll of that kind is first reported.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from conteur.dice import Expr, ExprResult, RollRecord
from conteur.dice.rolls import DieNote, DieRole
from conteur.i18n import Lang, t

STYLES: dict[DieRole, str] = {
    "success": "bold green",
    "cancelled": "yellow strike",
    "cancels": "bold red",
    "one": "red",
    "failure": "dim",
    "replaced": "dim strike",
    "counted": "bold",
}


class Report:
    """A titled two-column grid: label, value."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.rows: list[tuple[str, Text]] = []

    def add(self, label: str, value: str | Text, style: str = "") -> None:
        self.rows.append((label, value if isinstance(value, Text) else Text(value, style=style)))

    def renderable(self) -> RenderableType:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", no_wrap=True)
        grid.add_column()
        for label, value in self.rows:
            grid.add_row(label, value)
        return Group(Text(self.title, style="bold underline"), grid)


class RollReport(Protocol):
    """What the reports show of one kind of roll."""

    def rules(self, record: RollRecord[Any]) -> list[str]:
        """The checklist ids the roll applied by itself (a chance die, a critical...)."""
        ...

    def fields(self, record: RollRecord[Any]) -> dict[str, Any]:
        """Extra keys of its JSON report (after the common ones)."""
        ...

    def report(self, record: RollRecord[Any], notes: Sequence[DieNote], lang: Lang) -> Report:
        """Its human report: title, faces, what they did, the result."""
        ...


def faces(notes: Sequence[DieNote], sep: str = "  ") -> Text:
    """The faces, each styled by what it did."""
    out = Text()
    for i, note in enumerate(notes):
        if i:
            out.append(sep)
        out.append(str(note.face), style=STYLES[note.role])
    return out


def listing(values: Sequence[int], lang: Lang) -> str:
    """``6, 8 (2)`` — or "none"."""
    if not values:
        return t("cli.none", lang)
    return t("cli.count", lang, faces=", ".join(map(str, values)), count=len(values))


class ExprReport:
    """A plain ``NdX±M``: the faces added up, the modifier, the total."""

    def rules(self, record: RollRecord[Any]) -> list[str]:
        return []

    def fields(self, record: RollRecord[Any]) -> dict[str, Any]:
        return {}

    def report(self, record: RollRecord[Any], notes: Sequence[DieNote], lang: Lang) -> Report:
        req: Expr = record.request
        res: ExprResult = record.result
        report = Report(t("cli.title.expr", lang, roll=req))
        report.add(t("cli.label.dice", lang), faces(notes, sep=" + "))
        if req.modifier:
            report.add(t("cli.label.modifier", lang), f"{req.modifier:+d}".replace("-", "−"))
        report.add(t("cli.label.result", lang), res.describe(lang), style="bold")
        return report


_REPORTS: dict[str, RollReport] = {Expr.kind: ExprReport()}


def report_of(kind: str) -> RollReport:
    """The report of roll kind ``kind`` (the rulesets' declarations are read the first time)."""
    found = _REPORTS.get(kind)
    if found is None:
        from conteur.cli_parts import all_parts, resolve

        for parts in all_parts().values():
            if kind in parts.reports:
                found = _REPORTS[kind] = resolve(parts.reports[kind])
                break
        else:  # pragma: no cover - every declared kind has a report
            raise TypeError(f"no report for rolls of kind {kind!r}")
    return found


def notes_of(record: RollRecord[Any]) -> tuple[DieNote, ...]:
    """What each face of ``record`` did (empty for an enumerated record with no faces)."""
    if not record.faces:
        return ()
    notes: tuple[DieNote, ...] = record.request.notes(record.faces)
    return notes


def rules_of(record: RollRecord[Any], extra: Sequence[str] = ()) -> list[str]:
    """The checklist ids this roll applied (``extra``: the ones the caller chose, like a
    damage roll's)."""
    return [*extra, *report_of(record.request.kind).rules(record)]


def summary(record: RollRecord[Any], lang: Lang) -> str:
    """One line: the roll and its result (``7 dé(s) à difficulté 6 : 2 succès``)."""
    req, res = record.request, record.result
    return t("cli.summary", lang, roll=req.describe(lang), result=res.describe(lang))


def record_json(
    record: RollRecord[Any], lang: Lang, seed: int | None = None, rules: Sequence[str] = ()
) -> dict[str, Any]:
    """``record.to_dict()`` plus a localized ``text``, each face's role, rule ids and source.

    The extra keys are ignored by ``record_from_dict``, so the output can be
    read back as a ``RollRecord``.
    """
    data = record.to_dict()
    res = record.result
    data["text"] = summary(record, lang)
    data["lang"] = lang
    if not isinstance(res, ExprResult):
        data["success"] = bool(res.success)
    data["dice"] = [note.to_dict() for note in notes_of(record)]
    data["rules"] = rules_of(record, rules)
    data["source"] = "typed" if seed is None else "seed"
    if seed is not None:
        data["seed"] = seed
    data.update(report_of(record.request.kind).fields(record))
    return data


def render(
    record: RollRecord[Any], lang: Lang, seed: int | None = None, rules: Sequence[str] = ()
) -> RenderableType:
    """The human report of one roll."""
    report = report_of(record.request.kind).report(record, notes_of(record), lang)
    source = t("cli.source.typed", lang) if seed is None else t("cli.source.seed", lang, seed=seed)
    report.rows.insert(0, (t("cli.label.source", lang), Text(source, style="dim")))
    ids = rules_of(record, rules)
    if ids:
        report.add(t("cli.label.rules", lang), ", ".join(ids), style="cyan")
    return report.renderable()
