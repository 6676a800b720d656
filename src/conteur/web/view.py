"""What the pages show, read from a live encounter: roster, initiative, phase, log, forms.

Nothing here knows a ruleset's internals: it reads the typed views the ruleset
builds (``roster``, ``turn_view``, ``names``), its ``legal_commands`` templates,
events' ``describe`` and ``veiled`` lines, and filters the log with the reader's
``Viewer`` (``conteur.engine.reading``). A ruleset that lands later shows up
without changes here.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field, replace
from typing import Any

from markupsafe import Markup, escape

from conteur.dice import DiceSource, SeededDice, TypedDice
from conteur.dice.marks import marked_faces
from conteur.engine import Encounter, Ruleset, registry
from conteur.engine.commands import SETTLE_TIE, Command, CommandTemplate, Param
from conteur.engine.encounter import CommandEntry, LogEntry, UndoEntry
from conteur.engine.joining import WITHDRAWN
from conteur.engine.npcs import Entry, find_archetype
from conteur.engine.odds import AttackOdds
from conteur.engine.plan import rolls_dice
from conteur.engine.reading import lines_of
from conteur.engine.shown import SECRET, Shown, showable, shown_events
from conteur.engine.views import HealthView, Roster, RosterRow, Status, TurnView
from conteur.engine.visibility import GM, Viewer
from conteur.i18n import ConteurError, Lang, catalog, signed, t


def msg(key: str, lang: Lang, **params: Any) -> str:
    """A message of the web catalog (``web.<key>``)."""
    return t(f"web.{key}", lang, **params)


def word(
    value: Any,
    lang: Lang,
    names: Mapping[str, str] | None = None,
    ruleset: str = "",
    param: str = "",
) -> str:
    """A choice shown to a reader: a fighter's name, a catalog word (the ruleset's own first:
    ``<ruleset>.choice.<param>.<value>`` for a value one parameter says its own way (the
    same value may mean two things in two parameters), then ``word.<ruleset>.<value>`` or
    ``<ruleset>.word.<value>``), or the value itself."""
    text = str(value)
    if names and text in names:
        return names[text]
    key = word_key(text, ruleset, param)
    return t(key, lang) if key is not None else text.replace("_", " ")


def word_key(value: Any, ruleset: str = "", param: str = "") -> str | None:
    """The catalogue key ``word`` says ``value`` with (see ``word``), or None when it has
    none and would show the value itself."""
    text = str(value)
    own: tuple[str, ...] = ()
    if ruleset:
        own = (f"word.{ruleset}.{text}", f"{ruleset}.word.{text}")
        if param:
            own = (f"{ruleset}.choice.{param}.{text}", *own)
    return next((k for k in (*own, f"word.{text}", f"web.choice.{text}") if k in catalog()), None)


def option_text(text: str) -> str:
    """A word as a list of choices shows it: its first letter a capital (« Empoignade »,
    « Couteau », « Selon la carte »), whatever case the sentence-making word has."""
    return text[:1].upper() + text[1:]


def ruleset_title(ruleset: str, lang: Lang) -> str:
    """The ruleset's title in ``lang`` (« Vampire : la Mascarade »), else its name."""
    title = registry.ruleset_title(ruleset)
    return title if isinstance(title, str) else title.describe(lang)


def era_title(ruleset: str, era: str, lang: Lang) -> str:
    """An era as the ruleset names it (``<ruleset>.era.<era>``: « nuits modernes »), else as
    written."""
    key = f"{ruleset}.era.{era}"
    return t(key, lang) if key in catalog() else era


def label(kind: str, value: str, lang: Lang, ruleset: str = "") -> str:
    """The label of a command, parameter or phase: the ruleset's own first
    (``<ruleset>.<kind>.<value>``: two games may name one command differently), then the
    web layer's (``web.<kind>.<value>``), then the generic one (``<kind>.<value>``), else
    the value made readable."""
    own = {"cmd": f"cmd.{value}", "param": f"param.{value}", "phase": f"phase.{value}"}
    first = (f"{ruleset}.{kind}.{value}",) if ruleset else ()
    for key in (*first, f"web.{kind}.{value}", own.get(kind, "")):
        if key in catalog():
            return t(key, lang)
    return value.replace("_", " ")


_RULE_ID = re.compile(r"\b[A-Z]-[A-Z]+-\d+\b")


def rule_ids(text: str, lang: Lang) -> Markup:
    """``text`` escaped, each rule id in it an ``<abbr>`` whose title is the rule's summary
    in ``lang`` (hover; a tap on touch screens): the log lines and the forms cite rules so."""
    from conteur.engine.rules import describe_rule

    def cite(m: re.Match[str]) -> str:
        summary = describe_rule(m.group(0), lang)
        if summary is None:
            return m.group(0)
        return f'<abbr class="rule" title="{escape(summary)}" tabindex="0">{m.group(0)}</abbr>'

    return Markup(_RULE_ID.sub(cite, str(escape(text))))


# ------------------------------------------------------------------ roster and turn


@dataclass(frozen=True)
class Cell:
    """A resource as a roster cell: its label and its value, in the page's language."""

    key: str
    label: str
    text: str


@dataclass(frozen=True)
class RowView:
    """A combatant in full, as the GM's roster and a player's own card show it."""

    id: str
    name: str
    side: str
    status: Status
    band: str
    """The word players read for its health (« indemne », « blessé »...)."""
    fate: str
    """Where it stands in words when it is not simply alive (« invalide »), else ""."""
    health: HealthView
    health_text: str
    penalty: int
    penalty_text: str
    """The wound penalty signed with a true minus (« −1 »), "" when there is none."""
    cells: tuple[str, ...]
    """One value per roster column, "" where the combatant has none."""
    extras: tuple[Cell, ...]
    """Its resources outside the columns (the rounds left in a weapon...)."""
    resources: tuple[Cell, ...]
    """Every resource of the combatant, columns included (a player's card lists them)."""
    conditions: tuple[str, ...]


@dataclass(frozen=True)
class PublicRow:
    """What a player reads of another combatant: its name and the word for how it stands,
    never its exact health."""

    id: str
    name: str
    side: str
    status: Status
    band: str


@dataclass(frozen=True)
class RosterView:
    """The roster in one language: the ruleset's column labels and a row per combatant."""

    columns: tuple[Cell, ...]
    rows: tuple[RowView, ...]
    public: tuple[PublicRow, ...]

    def renamed(self, names: Mapping[str, str]) -> RosterView:
        """The same roster with each combatant named as ``names`` says (``labelled``)."""
        return RosterView(
            self.columns,
            tuple(replace(r, name=names.get(r.id, r.name)) for r in self.rows),
            tuple(replace(p, name=names.get(p.id, p.name)) for p in self.public),
        )

    @property
    def has_extras(self) -> bool:
        return any(r.extras for r in self.rows)

    def only(self, ids: frozenset[str], hidden: frozenset[str] = frozenset()) -> RosterView:
        """The same roster with the full rows of ``ids`` only, and the public rows of every
        combatant but the ``hidden`` ones."""
        return RosterView(
            self.columns,
            tuple(r for r in self.rows if r.id in ids and r.id not in hidden),
            tuple(p for p in self.public if p.id not in hidden),
        )


def labelled(names: Mapping[str, str], players: frozenset[str], lang: Lang) -> dict[str, str]:
    """``names`` with every combatant no player plays read by a generic label, numbered in
    the roster's order: « Adversaire 1 », "Opponent 2" (``Privacy.npc_names``)."""
    out: dict[str, str] = {}
    n = 0
    for fid, name in names.items():
        if fid in players:
            out[fid] = name
        else:
            n += 1
            out[fid] = t("privacy.opponent", lang, n=n)
    return out


def fate_word(fate: str, lang: Lang, ruleset: str = "") -> str:
    """The ruleset's word for where a combatant stands (its ``<ruleset>.fate.<fate>``
    first), "" when it is simply alive."""
    if fate in ("", "alive"):
        return ""
    if ruleset and f"{ruleset}.fate.{fate}" in catalog():
        return t(f"{ruleset}.fate.{fate}", lang)
    return word(fate, lang, ruleset=ruleset)


def row_view(
    row: RosterRow, roster: Roster, lang: Lang, names: Mapping[str, str], ruleset: str = ""
) -> RowView:
    """One roster row in ``lang``: health as boxes or points, resources, conditions named."""
    resources = tuple(Cell(r.key, r.label.describe(lang), r.text(lang)) for r in row.resources)
    keys = [c.key for c in roster.columns]
    by_key = {c.key: c.text for c in resources}
    return RowView(
        id=row.id,
        name=row.name,
        side=row.side,
        status=row.status,
        band=t(row.band, lang),
        fate=fate_word(row.fate, lang, ruleset),
        health=row.health,
        health_text=row.health.text(lang),
        penalty=row.penalty,
        penalty_text=signed(row.penalty, lang) if row.penalty else "",
        cells=tuple(by_key.get(k, "") for k in keys),
        extras=tuple(c for c in resources if c.key not in keys),
        resources=resources,
        conditions=tuple(c.text(lang, names) for c in row.conditions),
    )


def _band_key(row: RosterRow) -> str:
    """The word players read: the ruleset's band, or « retiré » for one taken out."""
    return f"word.{WITHDRAWN}" if row.fate == WITHDRAWN else row.band


def roster_view(
    roster: Roster, lang: Lang, names: Mapping[str, str], ruleset: str = ""
) -> RosterView:
    """The whole roster in ``lang`` (the words of ``ruleset`` first)."""
    return RosterView(
        columns=tuple(Cell(c.key, c.label.describe(lang), "") for c in roster.columns),
        rows=tuple(row_view(r, roster, lang, names, ruleset) for r in roster.rows),
        public=tuple(
            PublicRow(r.id, r.name, r.side, r.status, t(_band_key(r), lang)) for r in roster.rows
        ),
    )


@dataclass(frozen=True)
class Rank:
    """One rank of the initiative order: who acts there, and their total (None: unknown)."""

    ids: tuple[str, ...]
    total: int | None = None


@dataclass(frozen=True)
class Situation:
    """The turn as the pages show it: its number, the phase in words, who is due, the order."""

    turn: int
    phase: str
    order: tuple[Rank, ...]
    due: tuple[str, ...]
    over: bool = False


def situation(turn: TurnView, lang: Lang, ruleset: str = "") -> Situation:
    """The ruleset's ``TurnView`` in ``lang``."""
    return Situation(
        turn=turn.turn,
        phase=label("phase", turn.phase, lang, ruleset),
        order=tuple(Rank(s.ids, s.total) for s in turn.order),
        due=turn.due,
        over=turn.over,
    )


def without(sit: Situation, hidden: frozenset[str]) -> Situation:
    """The turn as a player reads it while ``hidden`` are hidden: no rank, no turn of theirs
    (an empty rank is dropped)."""
    order = tuple(
        Rank(tuple(i for i in r.ids if i not in hidden), r.total)
        for r in sit.order
        if any(i not in hidden for i in r.ids)
    )
    return replace(sit, order=order, due=tuple(i for i in sit.due if i not in hidden))


# ------------------------------------------------------------------ log


@dataclass
class LogItem:
    seq: int
    actor: str
    command: str
    lines: list[str]
    faces: list[str] = field(default_factory=list)
    """The faces rolled for each line (empty when it rolled nothing, or is veiled)."""
    undone: bool = False
    undo_of: int | None = None
    redo_of: int | None = None
    """The seq of the undone entry this one redid (a redo), or None."""
    dice: list[MarkedDice] = field(default_factory=list)
    """The same faces, die by die, each with its marking (success, failure, cancels...)."""
    showable: bool = False
    """A secret of the game master's, in force, not shown yet: his page offers « montrer »."""
    shown: bool = False
    """A secret of the game master's that he showed the players (``engine.shown``)."""
    show_of: int | None = None
    """The seq of the entry this one shows the players (a ``show``), or None."""
    number: int = -1
    """The number the reader sees (``data-seq``, the live stream's ids): the seq for the game
    master; for players, the entry's rank among the entries they read (``numbered``), so
    that no gap in the numbers tells of an entry kept from them."""
    undo_number: int | None = None
    """``undo_of`` in the reader's numbers."""

    def __post_init__(self) -> None:
        if self.number < 0:
            self.number = self.seq
        if self.undo_number is None:
            self.undo_number = self.undo_of


def numbered(items: list[LogItem], start: int = 0, known: Mapping[int, int] | None = None) -> None:
    """Number ``items`` (the entries a player reads, in order) from ``start``: each one's
    ``number`` its rank, an undo's ``undo_number`` the rank of what it undid (``known``: the
    ranks of earlier entries, by seq)."""
    ranks = dict(known or {})
    for i, item in enumerate(items, start=start):
        item.number = i
        ranks[item.seq] = i
        if item.undo_of is not None:
            item.undo_number = ranks.get(item.undo_of, -1)


MarkedDice = tuple[tuple[int, str], ...]
"""The faces of one line's rolls, each with its marking (``marked_faces``)."""

EntryText = tuple[str, str, tuple[str, ...], tuple[str, ...], tuple[MarkedDice, ...]]
"""An entry as the log shows it: actor, command, lines, faces (the same for ever: the log
is append-only, so it is described once per language and audience)."""

_HIDDEN = object()
"""In the entries' cache: a command of which that audience may see nothing."""


def log_items(
    enc: Encounter,
    lang: Lang,
    *,
    viewer: Viewer = GM,
    since: int = -1,
    cache: MutableMapping[tuple[Any, ...], EntryText | object] | None = None,
    key: Any = None,
    names: Mapping[str, str] | None = None,
) -> list[LogItem]:
    """The log as ``viewer`` reads it, newest last: each event it may see, the veiled line of
    those it may not; undone commands marked; a command of which it may see nothing (and the
    undo of it) left out.

    With a ``cache`` (and the encounter's ``key``, its id), each entry is described
    only the first time it is shown in that language to that audience (``viewer``: equal
    viewers read the same log). ``names``: the combatants' names as this reader reads them
    (the ruleset's own by default).
    """
    undone = {e.undoes for e in enc.log if isinstance(e, UndoEntry)}
    shown = {
        ev.seq
        for e in enc.log
        if isinstance(e, CommandEntry) and e.seq not in undone
        for ev in e.events
        if isinstance(ev, Shown)
    }
    out: list[LogItem] = []

    def text_of(entry: CommandEntry) -> EntryText | None:
        nonlocal names
        ckey = (key, entry.seq, lang, viewer)
        found = cache.get(ckey) if cache is not None else None
        if found is None:
            if names is None:
                names = enc.ruleset.names(enc.state)
            found = _entry_text(entry, lang, viewer, names, enc.ruleset.name, enc.log)
            if cache is not None:
                cache[ckey] = found
        return None if found is _HIDDEN else found  # type: ignore[return-value]

    for entry in enc.log:
        if entry.seq <= since:
            continue
        if isinstance(entry, UndoEntry):
            target = _entry_at(enc.log, entry.undoes)
            if isinstance(target, CommandEntry) and text_of(target) is None:
                continue  # the undo of a command this reader never read
            out.append(LogItem(entry.seq, "", "undo", [], [], undo_of=entry.undoes))
            continue
        assert isinstance(entry, CommandEntry)
        text = text_of(entry)
        if text is None:
            continue
        actor, command, lines, faces, dice = text
        out.append(
            LogItem(
                entry.seq,
                actor,
                command,
                list(lines),
                list(faces),
                undone=entry.seq in undone,
                redo_of=entry.redoes,
                dice=list(dice),
                showable=viewer.gm
                and entry.seq not in undone
                and entry.seq not in shown
                and showable(entry),
                shown=viewer.gm and entry.seq in shown,
                show_of=next((ev.seq for ev in entry.events if isinstance(ev, Shown)), None),
            )
        )
    return out


def _entry_at(log: list[LogEntry], seq: int) -> LogEntry | None:
    """The entry of ``seq`` (the log's index is its seq; searched when it is not)."""
    if 0 <= seq < len(log) and log[seq].seq == seq:
        return log[seq]
    return next((e for e in log if e.seq == seq), None)


def _entry_text(
    entry: CommandEntry,
    lang: Lang,
    viewer: Viewer,
    names: Mapping[str, str],
    ruleset: str = "",
    log: list[LogEntry] | None = None,
) -> EntryText | object:
    events = shown_events(entry, log or [])  # a ``show``: the shown entry's events, public
    shown, hidden = lines_of(events, viewer, lang, names)
    if hidden and not shown:
        return _HIDDEN
    lines = tuple(rule_ids(line.text, lang) for line in shown)
    faces = tuple(line.faces for line in shown)
    dice = tuple(
        ()
        if line.veiled or not line.faces
        else tuple(m for record in line.event.rolls for m in marked_faces(record))
        for line in shown
    )
    actor = names.get(entry.command.actor or "", "") if entry.command.actor else ""
    who = actor or msg("gm", lang)
    return who, label("cmd", entry.command.type, lang, ruleset), lines, faces, dice


# ------------------------------------------------------------------ forms


@dataclass
class Field:
    name: str
    kind: str
    label: str
    choices: list[tuple[str, str]] = field(default_factory=list)
    required: bool = True
    min: int | None = None
    max: int | None = None
    default: Any = None
    empty: str = "—"
    """What an optional choice left empty means, in words (``empty_choice``)."""


def choice_text(
    value: Any, lang: Lang, names: Mapping[str, str], ruleset: str = "", param: str = ""
) -> str:
    """One choice of a list: a combatant's name, or a side (``side``), as written; else its
    word (``word``) with a capital first letter (``option_text``)."""
    text = str(value)
    if text in names or param == "side":
        return names.get(text, text)
    return option_text(word(text, lang, None, ruleset, param))


def empty_choice(name: str, lang: Lang, ruleset: str = "", command: str = "") -> str:
    """The words of an optional choice left empty, as a list of choices shows them: the
    ruleset's for this command's parameter (``<ruleset>.empty.<command>.<name>``: a weapon
    left empty is the one in hand in a declaration, none in the GM's tool), else for the
    parameter (``<ruleset>.empty.<name>``: a range left to the map, « Selon la carte »),
    else the web layer's ``web.empty.<name>``, else a dash."""
    key = empty_key(name, ruleset, command)
    return option_text(t(key, lang)) if key is not None else "—"


_NUMBERED = re.compile(r"_\d+$")
"""A numbered parameter's number (``celerity_kind_2``): it reads its family's words."""


def empty_key(name: str, ruleset: str = "", command: str = "") -> str | None:
    """The catalogue key ``empty_choice`` says an empty ``name`` with, or None (a dash)."""
    names = dict.fromkeys((name, _NUMBERED.sub("", name)))
    keys = (
        *(f"{ruleset}.empty.{command}.{n}" for n in names if ruleset and command),
        *(f"{ruleset}.empty.{n}" for n in names if ruleset),
        f"web.empty.{name}",
    )
    return next((k for k in keys if k in catalog()), None)


@dataclass
class Form:
    type: str
    actor: str
    title: str
    rule: str
    fields: list[Field]
    actors: tuple[tuple[str, str], ...] = ()
    """When one form stands for the same command of several combatants (``merge_forms``):
    each one's id and name, chosen in the form (``actor`` is then empty)."""
    dice: bool = True
    """Whether the command may roll dice (``plan.rolls_dice``): else the form has no place
    for the table's dice."""

    @property
    def tool(self) -> bool:
        """A game master's tool (damage, modifier, note...) rather than a turn's step."""
        return not self.actor and not self.actors and bool(self.fields) and self.type != SETTLE_TIE


def _field(
    p: Param,
    lang: Lang,
    names: Mapping[str, str],
    prefix: str = "",
    ruleset: str = "",
    command: str = "",
) -> Field:
    empty = (
        empty_choice(p.name, lang, ruleset, command)
        if p.kind == "choice" and not p.required
        else "—"
    )
    choices = [
        (str(c), empty if c == "" else choice_text(c, lang, names, ruleset, p.name))
        for c in p.choices
    ]
    return Field(
        prefix + p.name,
        p.kind,
        label("param", p.name, lang, ruleset),
        choices,
        p.required,
        p.min,
        p.max,
        p.default,
        empty,
    )


def forms(
    enc: Encounter,
    lang: Lang,
    actor: str | None = None,
    templates: list[CommandTemplate] | None = None,
    names: Mapping[str, str] | None = None,
    dice: list[bool] | None = None,
) -> list[Form]:
    """One form per legal command template (of ``actor`` only, when given): a field per
    parameter the ruleset declares (a second action, for instance, is parameters of its own).
    ``templates`` and ``names``: the encounter's ``legal_commands()`` and the ruleset's
    ``names`` when the caller has them; ``dice``: whether each of those templates may roll
    (``dice_of``), when the caller has it."""
    if names is None:
        names = enc.ruleset.names(enc.state)
    if templates is None:
        templates = enc.legal_commands(actor)
    if dice is None:
        dice = dice_of(enc, templates)
    key = (enc.ruleset.name, tuple(sorted(names.items())))
    out = []
    for tp, rolls in zip(templates, dice, strict=True):
        if actor is not None and tp.actor != actor:
            continue
        form = _form(tp, lang, names, key)
        out.append(form if rolls else replace(form, dice=False))
    return out


def dice_of(enc: Encounter, templates: list[CommandTemplate]) -> list[bool]:
    """Whether each template's command may roll dice (``plan.rolls_dice``): its form's box."""
    return [rolls_dice(enc, tp) for tp in templates]


_FORMS: dict[tuple[Any, ...], Form] = {}
"""Forms already built: a template (frozen, so hashable) gives the same form in a language."""


def _form(tp: CommandTemplate, lang: Lang, names: Mapping[str, str], key: Any) -> Form:
    try:
        cache_key: tuple[Any, ...] | None = (tp, lang, key)
        found = _FORMS.get(cache_key)  # type: ignore[arg-type]
    except TypeError:  # a choice that cannot be hashed: build it each time
        cache_key, found = None, None
    if found is not None:
        return found
    ruleset = str(key[0]) if isinstance(key, tuple) and key else ""
    fields = [
        _field(p, lang, names, ruleset=ruleset, command=tp.type)
        for p in tp.params
        if not _fixed(p) and not _empty(p)
    ]
    who = names.get(tp.actor or "", "") if tp.actor else msg("gm", lang)
    title = f"{who} · {label('cmd', tp.type, lang, ruleset)}"
    rule = rule_ids(tp.rule, lang) if tp.rule else ""
    form = Form(tp.type, tp.actor or "", title, rule, fields)
    if cache_key is not None:
        if len(_FORMS) > 5000:
            _FORMS.clear()
        _FORMS[cache_key] = form
    return form


def form_without(form: Form, hidden: frozenset[str]) -> Form:
    """``form`` with no choice naming a ``hidden`` combatant (a player's target list)."""
    if not hidden or not any(v in hidden for f in form.fields for v, _ in f.choices):
        return form
    fields = [replace(f, choices=[c for c in f.choices if c[0] not in hidden]) for f in form.fields]
    return replace(form, fields=fields)


def merge_forms(
    forms: list[Form], lang: Lang, names: Mapping[str, str], ruleset: str = ""
) -> list[Form]:
    """The forms of one command type for several combatants as one form, its actor a choice
    (the ambushes of everyone before the initiative: one compact form, not one per fighter).

    The merged form has every field of theirs (by name, in order, the first one's kind and
    label), each choice field the union of their choices, a field some of them lack being
    optional (the command is checked against the chosen actor's own legal template when
    sent). A type with a single actor keeps its own form."""
    groups: dict[Any, list[Form]] = {}
    for f in forms:
        groups.setdefault(f.type if f.actor else id(f), []).append(f)
    out: list[Form] = []
    for f in forms:
        group = groups.pop(f.type if f.actor else id(f), None)
        if group is None:
            continue
        if len(group) == 1:
            out.append(f)
            continue
        fields: dict[str, Field] = {}
        for g in group:
            for x in g.fields:
                known = fields.get(x.name)
                if known is None:
                    fields[x.name] = replace(x, choices=list(x.choices))
                else:
                    known.choices = list(dict(known.choices + x.choices).items())
        for name, x in fields.items():
            if any(all(y.name != name for y in g.fields) for g in group):
                x.required = False
        actors = tuple((g.actor, names.get(g.actor, g.actor)) for g in group)
        title = label("cmd", f.type, lang, ruleset)
        dice = any(g.dice for g in group)
        out.append(Form(f.type, "", title, f.rule, list(fields.values()), actors, dice=dice))
    return out


def _fixed(p: Param) -> bool:
    """A number with a single possible value is no choice (Celerity 0..0): no field for it."""
    return p.kind == "int" and p.min is not None and p.min == p.max


def _empty(p: Param) -> bool:
    """An optional choice with nothing to choose (no weapon to name): no field for it."""
    return p.kind == "choice" and not p.choices and not p.required


def find_template(enc: Encounter, type_: str, actor: str | None) -> CommandTemplate:
    """The legal template of that type and actor now (ConteurError when there is none)."""
    for tp in enc.legal_commands(actor):
        if tp.type == type_ and (tp.actor or None) == (actor or None):
            return tp
    raise ConteurError("web.not_legal", command=type_)


def command_from_form(enc: Encounter, values: Mapping[str, str]) -> Command:
    """The command a form asks for, its values checked against the legal template.

    Each parameter of the template is read from the field of its name; an empty
    optional one is left out, an empty required one takes its default or is refused.
    """
    type_ = str(values.get("type", "")).strip()
    actor = str(values.get("actor", "")).strip() or None
    tp = find_template(enc, type_, actor)
    args = params_from_form(tp.params, values)
    if tp.actor is None and checked(values.get(SECRET)):  # the GM's alone (engine.shown)
        args[SECRET] = True
    return Command(tp.type, tp.actor, args)


def params_from_form(
    params: tuple[Param, ...] | list[Param], values: Mapping[str, str], prefix: str = ""
) -> dict[str, Any]:
    """The values of ``params`` read from a form's fields (``prefix`` + name), checked."""
    args: dict[str, Any] = {}
    for p in params:
        value = _value(p, values.get(prefix + p.name))
        if value is None:
            if p.required and p.kind != "bool":
                if p.default is None:
                    raise ConteurError("web.missing", field=p.name)
                args[p.name] = p.default
            continue
        args[p.name] = value
    return args


def _value(p: Param, raw: str | None) -> Any:
    """One form value read by its parameter (None when left empty)."""
    if p.kind == "bool":
        return raw is not None and raw not in ("", "0", "false", "off")
    if raw is None or str(raw).strip() == "":
        return None
    text = str(raw).strip()
    if p.kind == "choice":
        for c in p.choices:
            if str(c) == text:
                return c
        raise ConteurError("web.bad_choice", field=p.name, value=text)
    if p.kind == "int":
        try:
            number = int(text)
        except ValueError:
            raise ConteurError("web.bad_number", field=p.name, value=text) from None
        if (p.min is not None and number < p.min) or (p.max is not None and number > p.max):
            raise ConteurError(
                "web.out_of_range",
                field=p.name,
                value=number,
                low=p.min if p.min is not None else "",
                high=p.max if p.max is not None else "",
            )
        return number
    if len(text) > 500:
        raise ConteurError("web.too_long", field=p.name)
    return text


def dice_from_form(values: Mapping[str, str]) -> tuple[DiceSource, bool]:
    """The program's dice, or the faces the table typed (then every face must be used)."""
    faces = str(values.get("faces", "") or "").strip()
    if faces:
        if len(faces) > 2000:
            raise ConteurError("web.too_long", field="faces")
        return TypedDice(faces.replace(",", " ")), True
    return SeededDice(random.SystemRandom().randrange(2**63)), False


# ------------------------------------------------------------------ odds


@dataclass
class OddsView:
    p_hit: str
    expected: str
    p_out: str
    bars: list[tuple[str, float, str]]


def odds_view(answer: AttackOdds, lang: Lang) -> OddsView:
    """The odds of an attack in words and a bar per number of health levels lost."""
    from conteur.i18n import percent

    levels = dict(answer.levels.items())
    top = max(levels.values(), default=0.0) or 1.0
    bars = [
        (str(k), round(100 * v / top, 1), percent(v, lang))
        for k, v in sorted(levels.items())
        if v >= 0.0005 or k == 0
    ]
    expected = answer.expected_levels
    shown = f"{expected:.2f}".replace(".", ",") if lang == "fr" else f"{expected:.2f}"
    return OddsView(
        percent(answer.p_hit, lang),
        shown,
        percent(answer.p_incapacitated, lang),
        bars,
    )


# ------------------------------------------------------------------ the ruleset's odds


def attack_kinds(enc: Encounter, attacker: str) -> list[str]:
    """The maneuvers ``attacker`` could attack with now, each priced by ``attack_odds``
    (none when the ruleset prices no attack)."""
    if not enc.ruleset.prices_attacks:
        return []
    return [str(k) for k in enc.ruleset.attack_kinds(enc.state, attacker)]


def odds_toggles(enc: Encounter, attacker: str, target: str, maneuver: str | None) -> list[Param]:
    """The options of an attack that change its odds (cover, range...)."""
    return list(enc.ruleset.odds_toggles(enc.state, attacker, target, maneuver))


def toggle_field(
    p: Param, chosen: Mapping[str, Any], lang: Lang, names: Mapping[str, str], ruleset: str = ""
) -> Field:
    """The field of one odds option (``opt_<name>``), showing the value in use; an empty
    choice says what the odds then read (``<ruleset>.empty.odds.<name>``)."""
    f = _field(p, lang, names, "opt_", ruleset, "odds")
    f.required = False
    if p.name in chosen:
        f.default = chosen[p.name]
    return f


@dataclass(frozen=True)
class ReportRow:
    """One line of the summary after the fight, its numbers written for the reader."""

    name: str
    side: str
    cells: tuple[str, ...]
    """Attacks, hits, damage dealt, damage taken, rolls, luck (fighters); rolls, luck (sides)."""
    luck: float | None = None


@dataclass(frozen=True)
class ReportView:
    """The summary after the fight (``conteur.engine.report``) in the reader's language."""

    fighters: tuple[ReportRow, ...]
    sides: tuple[ReportRow, ...]


def report_view(enc: Encounter, lang: Lang) -> ReportView:
    """Each fighter's attacks, hits, damage dealt and taken, rolls and luck; each side's."""
    from conteur.dice.asks import number
    from conteur.engine.report import fight_report, luck_text

    report = fight_report(enc)
    fighters = tuple(
        ReportRow(
            f.name,
            f.side,
            (
                *(number(n, lang) for n in (f.attacks, f.hits, f.dealt, f.taken, f.rolls)),
                luck_text(f.luck, lang),
            ),
            f.luck,
        )
        for f in report.fighters
    )
    sides = tuple(
        ReportRow(s.side, s.side, (number(s.rolls, lang), luck_text(s.luck, lang)), s.luck)
        for s in report.sides
    )
    return ReportView(fighters, sides)


@dataclass(frozen=True)
class Builder:
    """The encounter builder's NPC rows: the archetypes and a quick NPC's fields (issue 16)."""

    archetypes: tuple[tuple[str, str], ...]
    quick: tuple[Field, ...]
    rows: int


@dataclass(frozen=True)
class Joining:
    """The form that brings a combatant into the fight under way (``Ruleset.join_rule``)."""

    rule: str
    characters: tuple[tuple[int, str], ...]
    """The campaign's characters not in the fight: (id, name)."""
    archetypes: tuple[tuple[str, str], ...]
    """The ruleset's bundled opponents: (id, label in the reader's language)."""
    quick: tuple[Field, ...]
    """The numbers of a quick NPC (``quick_npc_params``), each field named ``npc_<name>``."""
    sides: tuple[str, ...]
    npc_side: str = ""
    """The side an NPC joins when none is typed: the opponents' (``npc_side``)."""


def checked(raw: str | None) -> bool:
    """Whether a form's checkbox was ticked."""
    return raw is not None and raw.strip() not in ("", "0", "false", "off")


def npc_side(enc: Encounter, players: frozenset[str]) -> str:
    """The opponents' side, where an NPC joins by default: the side of most combatants no
    player plays, among the sides with no player's character ("" when there is none)."""
    rows = enc.ruleset.roster(enc.state).rows
    theirs = {r.side for r in rows if r.id in players}
    counts: dict[str, int] = {}
    for r in rows:
        if r.id not in players and r.side not in theirs:
            counts[r.side] = counts.get(r.side, 0) + 1
    if counts:
        return max(counts, key=lambda side: counts[side])
    return next((r.side for r in rows if r.id not in players), "")


def joining(
    enc: Encounter,
    lang: Lang,
    characters: list[tuple[int, str]],
    era: str | None,
    players: frozenset[str] = frozenset(),
) -> Joining | None:
    """What the joining form offers now, or None when nobody may join."""
    ruleset = enc.ruleset
    rule = ruleset.join_rule(enc.state)
    if rule is None:
        return None
    archetypes, quick = npc_choices(ruleset, lang, era)
    return Joining(
        rule=rule,
        characters=tuple(characters),
        archetypes=archetypes,
        quick=quick,
        sides=tuple(dict.fromkeys(r.side for r in ruleset.roster(enc.state).rows)),
        npc_side=npc_side(enc, players),
    )


def npc_choices(
    ruleset: Ruleset, lang: Lang, era: str | None, prefix: str = "npc_"
) -> tuple[tuple[tuple[str, str], ...], tuple[Field, ...]]:
    """The ruleset's archetypes of ``era`` (id, label) and the fields of a quick NPC (each
    named ``<prefix><name>``): what the joining form and the encounter builder offer."""
    quick = tuple(
        replace(
            _field(p, lang, {}, prefix, ruleset.name, "npc"),
            label=ruleset.quick_npc_label(p.name, lang),
        )
        for p in ruleset.quick_npc_params(era)
    )
    archetypes = tuple((a.id, a.label.describe(lang)) for a in ruleset.archetypes(era))
    return archetypes, quick


def npc_entry(ruleset: Ruleset, values: Mapping[str, str], lang: Lang, era: str | None) -> Entry:
    """The scenario entry of the NPC a joining form (or a row of the encounter builder)
    asks for: an archetype (``who`` = ``a:<id>``) or a quick NPC (``q``, its numbers in
    ``npc_<name>``), with the name and side typed (ConteurError naming the field otherwise)."""
    who = values.get("who", "")
    name = values.get("name", "").strip()
    if who.startswith("a:"):
        arch = find_archetype(ruleset.archetypes(era), who[2:])
        entry = arch.scenario_entry(_slug(name) if name else None, lang)
        if name:
            entry = _named(entry, arch.name_path, name)
    elif who == "q":
        params = {
            p.name: values[f"npc_{p.name}"]
            for p in ruleset.quick_npc_params(era)
            if values.get(f"npc_{p.name}", "") != ""
        }
        if name and any(p.name == "name" for p in ruleset.quick_npc_params(era)):
            params["name"] = name
        entry = ruleset.quick_npc(params, era)
    else:
        raise ConteurError("web.bad_choice", field="who", value=who)
    side = values.get("side", "").strip()
    if side:
        entry["side"] = side
    return entry


def _named(entry: Entry, path: tuple[str, ...], name: str) -> Entry:
    """``entry`` with ``name`` at ``path``, replacing what was there."""
    if len(path) > 1:
        child = entry.get(path[0])
        inner = dict(child) if isinstance(child, Mapping) else {}
        return {**entry, path[0]: _named(inner, path[1:], name)}
    return {**entry, path[0]: name}


def _slug(text: str) -> str:
    """An id from a name: lower case letters and digits joined by ``-``."""
    import unicodedata

    bare = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return "-".join(
        part for part in "".join(c if c.isalnum() else " " for c in bare.lower()).split()
    )
