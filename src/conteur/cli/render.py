"""Roll reports for people (Rich) and for programs (JSON), in French or English.

A report shows every face, what each did (which dice succeeded, which 1s
cancelled which success, rerolls), the result, and the rule ids behind it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from conteur.dice import (
    Expr,
    ExprResult,
    HunterPool,
    HunterResult,
    Percentile,
    PercentileResult,
    RollRecord,
    VtmPool,
    VtmResult,
)
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


def notes_of(record: RollRecord[Any]) -> tuple[DieNote, ...]:
    """What each face of ``record`` did (empty for an enumerated record with no faces)."""
    if not record.faces:
        return ()
    notes: tuple[DieNote, ...] = record.request.notes(record.faces)
    return notes


def rules_of(record: RollRecord[Any], extra: Sequence[str] = ()) -> list[str]:
    """The checklist ids this roll applied (``extra``: the ones the caller chose, like V-DMG-4)."""
    req, res = record.request, record.result
    ids: list[str] = list(extra)
    if isinstance(req, HunterPool) and isinstance(res, HunterResult):
        if req.chance:
            ids.append("H-CHANCE-1")
        elif res.dramatic_failure:
            ids.append("H-FAIL-1")
        if res.exceptional:
            ids.append("H-EXC-1")
    elif isinstance(res, PercentileResult) and res.critical:
        ids.append("W-CRIT-1")
    return ids


def summary(record: RollRecord[Any], lang: Lang) -> str:
    """One line: the roll and its result (``7 dé(s) à difficulté 6 : 2 succès``)."""
    req, res = record.request, record.result
    result = res.describe(lang, req.skill) if isinstance(req, Percentile) else res.describe(lang)
    return t("cli.summary", lang, roll=req.describe(lang), result=result)


def record_json(
    record: RollRecord[Any], lang: Lang, seed: int | None = None, rules: Sequence[str] = ()
) -> dict[str, Any]:
    """``record.to_dict()`` plus a localized ``text``, each face's role, rule ids and source.

    The extra keys are ignored by ``record_from_dict``, so the output can be
    read back as a ``RollRecord``.
    """
    data = record.to_dict()
    req, res = record.request, record.result
    data["text"] = summary(record, lang)
    data["lang"] = lang
    if not isinstance(res, ExprResult):
        data["success"] = bool(res.success)
    data["dice"] = [note.to_dict() for note in notes_of(record)]
    data["rules"] = rules_of(record, rules)
    data["source"] = "typed" if seed is None else "seed"
    if seed is not None:
        data["seed"] = seed
    if isinstance(req, VtmPool):
        data["effective_difficulty"] = req.effective_difficulty
        data["clamped"] = req.clamped
        data["rolled_dice"] = req.rolled_dice
    if isinstance(res, HunterResult):
        data["exceptional"] = res.exceptional
    return data


# --------------------------------------------------------------------- human


def _faces(notes: Sequence[DieNote], sep: str = "  ") -> Text:
    out = Text()
    for i, note in enumerate(notes):
        if i:
            out.append(sep)
        out.append(str(note.face), style=STYLES[note.role])
    return out


def _listing(faces: Sequence[int], lang: Lang) -> str:
    if not faces:
        return t("cli.none", lang)
    return t("cli.count", lang, faces=", ".join(map(str, faces)), count=len(faces))


class _Report:
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


def render(
    record: RollRecord[Any], lang: Lang, seed: int | None = None, rules: Sequence[str] = ()
) -> RenderableType:
    """The human report of one roll."""
    req = record.request
    notes = notes_of(record)
    if isinstance(req, VtmPool):
        report = _vtm(req, record.result, notes, lang)
    elif isinstance(req, HunterPool):
        report = _hunter(req, record.result, notes, lang)
    elif isinstance(req, Percentile):
        report = _western(req, record.result, notes, lang)
    elif isinstance(req, Expr):
        report = _expr(req, record.result, notes, lang)
    else:  # pragma: no cover - every request kind is handled above
        raise TypeError(f"no report for {type(req).__name__}")
    source = t("cli.source.typed", lang) if seed is None else t("cli.source.seed", lang, seed=seed)
    report.rows.insert(0, (t("cli.label.source", lang), Text(source, style="dim")))
    ids = rules_of(record, rules)
    if ids:
        report.add(t("cli.label.rules", lang), ", ".join(ids), style="cyan")
    return report.renderable()


def _vtm(req: VtmPool, res: VtmResult, notes: Sequence[DieNote], lang: Lang) -> _Report:
    report = _Report(t("cli.title.vtm", lang, roll=req))
    if req.clamped:
        report.add(
            t("cli.label.difficulty", lang),
            t("result.clamped", lang, asked=req.difficulty, difficulty=req.effective_difficulty),
            style="yellow",
        )
    if req.rolled_dice != req.dice:
        report.add(t("cli.label.pool", lang), t("cli.vtm.min_one", lang, asked=req.dice))
    report.add(t("cli.label.dice", lang), _faces(notes) if notes else Text(t("cli.no_dice", lang)))
    hits = [n.face for n in notes if n.role in ("success", "cancelled")]
    report.add(t("cli.label.successes", lang), _listing(hits, lang), style="green")
    ones = [n for n in notes if n.face == 1]
    if ones:
        parts: list[str] = []
        if req.ones_cancel:
            cancelled = sorted(n.face for n in notes if n.role == "cancelled")
            parts = [t("cli.vtm.cancels", lang, face=face) for face in cancelled]
            left = sum(1 for n in ones if n.role == "one")
            if left:
                parts.append(t("cli.vtm.ones_left", lang, count=left))
        else:
            parts.append(t("cli.vtm.ones_no_cancel", lang, count=len(ones)))
        report.add(t("cli.label.ones", lang), t("cli.sep", lang).join(parts))
    if req.auto:
        report.add(t("cli.label.auto", lang), t("cli.vtm.auto", lang, count=req.auto))
    result = res.describe(lang)
    if res.botch:
        result += " (" + t("cli.vtm.botch_why", lang) + ")"
    elif not hits and ones and not req.can_botch and not req.auto:
        result += " (" + t("cli.vtm.no_botch", lang) + ")"
    report.add(t("cli.label.result", lang), result, style="bold red" if res.botch else "bold")
    return report


def _hunter(req: HunterPool, res: HunterResult, notes: Sequence[DieNote], lang: Lang) -> _Report:
    report = _Report(t("cli.title.hunter", lang, roll=req))
    if req.chance:
        report.add(t("cli.label.pool", lang), t("cli.hunter.chance", lang, dice=req.dice))
    originals = [n for n in notes if n.stage == "roll"]
    report.add(t("cli.label.dice", lang), _faces(originals))
    rerolls = [n for n in notes if n.stage == "rote"]
    if rerolls:
        replaced = [n for n in originals if n.role == "replaced"]
        pairs = Text()
        for i, (old, new) in enumerate(zip(replaced, rerolls, strict=True)):
            if i:
                pairs.append(", ")
            pairs.append(f"{old.face} → ")
            pairs.append(str(new.face), style=STYLES[new.role])
        report.add(t("cli.label.rote", lang), pairs)
    waves = sorted({n.wave for n in notes if n.stage == "again"})
    if waves:
        text = Text()
        for i, number in enumerate(waves):
            if i:
                text.append(t("cli.sep", lang))
            dice = [n for n in notes if n.stage == "again" and n.wave == number]
            text.append(t("cli.hunter.wave", lang, number=number, faces=""))
            text.append_text(_faces(dice, sep=", "))
        report.add(t("cli.label.again", lang, again=10 if req.chance else req.again), text)
    hits = [n.face for n in notes if n.role == "success"]
    report.add(t("cli.label.successes", lang), _listing(hits, lang), style="green")
    result = res.describe(lang)
    if res.dramatic_failure:
        why = "cli.hunter.chance_dramatic_why" if req.chance else "cli.hunter.dramatic_why"
        result += " (" + t(why, lang) + ")"
    style = "bold red" if res.dramatic_failure else "bold green" if res.exceptional else "bold"
    report.add(t("cli.label.result", lang), result, style=style)
    return report


def _western(
    req: Percentile, res: PercentileResult, notes: Sequence[DieNote], lang: Lang
) -> _Report:
    report = _Report(t("cli.title.western", lang, roll=req))
    report.add(t("cli.label.dice", lang), _faces(notes))
    if res.success:
        key = "cli.western.critical" if res.critical else "cli.western.not_critical"
        report.add(
            t("cli.label.critical", lang),
            t(key, lang, roll=res.roll, tenfold=res.roll * 10, skill=req.skill, margin=res.margin),
        )
    style = "bold green" if res.critical else "bold"
    report.add(t("cli.label.result", lang), res.describe(lang, req.skill), style=style)
    return report


def _expr(req: Expr, res: ExprResult, notes: Sequence[DieNote], lang: Lang) -> _Report:
    report = _Report(t("cli.title.expr", lang, roll=req))
    report.add(t("cli.label.dice", lang), _faces(notes, sep=" + "))
    if req.modifier:
        report.add(t("cli.label.modifier", lang), f"{req.modifier:+d}".replace("-", "−"))
    report.add(t("cli.label.result", lang), res.describe(lang), style="bold")
    return report
