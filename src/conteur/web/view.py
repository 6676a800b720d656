"""What the pages show, read from a live encounter: roster, initiative, phase, log, forms.

Nothing here knows a ruleset's internals: it reads the state's ``fighters``,
``turn``, ``phase`` and ``order`` when they exist, the ruleset's ``summary``,
``legal_commands`` templates and events' ``describe``. A ruleset that lands
later shows up without changes here.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from conteur.dice import DiceSource, SeededDice, TypedDice
from conteur.engine import Encounter
from conteur.engine.commands import Command, CommandTemplate, Param
from conteur.engine.encounter import CommandEntry, UndoEntry
from conteur.engine.scratch import scratch_copy
from conteur.i18n import ConteurError, Lang, catalog, t


def msg(key: str, lang: Lang, **params: Any) -> str:
    """A message of the web catalog (``web.<key>``)."""
    return t(f"web.{key}", lang, **params)


def names_of(state: Any) -> dict[str, str]:
    """Each combatant's display name by id."""
    fighters = getattr(state, "fighters", None) or {}
    return {str(fid): str(getattr(f, "name", fid)) for fid, f in fighters.items()}


def word(value: Any, lang: Lang, names: Mapping[str, str] | None = None) -> str:
    """A choice shown to a reader: a fighter's name, a catalog word, or the value itself."""
    text = str(value)
    if names and text in names:
        return names[text]
    for key in (f"word.{text}", f"web.choice.{text}"):
        if key in catalog():
            return t(key, lang)
    return text.replace("_", " ")


def label(kind: str, value: str, lang: Lang) -> str:
    """The label of a command, parameter or phase: the web layer's own word
    (``web.<kind>.<value>``), else the ruleset's (``<kind>.<value>``, so that a new
    ruleset labels its own commands), else the value made readable."""
    own = {"cmd": f"cmd.{value}", "param": f"param.{value}", "phase": f"phase.{value}"}
    for key in (f"web.{kind}.{value}", own.get(kind, "")):
        if key in catalog():
            return t(key, lang)
    return value.replace("_", " ")


# ------------------------------------------------------------------ roster and turn


def summaries(enc: Encounter) -> list[dict[str, Any]]:
    """The ruleset's summary of each combatant, or a bare one from its end state.

    A copy: the rows are kept with the snapshot of this state, and the live state, which a
    summary may share values with, changes in place with the next command.
    """
    fn = getattr(enc.ruleset, "summary", None)
    if callable(fn):
        return scratch_copy(list(fn(enc.state)))
    names = names_of(enc.state)
    rows = [{"id": k, "name": names.get(k, k), **v} for k, v in enc.end_state().items()]
    return scratch_copy(rows)


def public_status(entry: Mapping[str, Any], lang: Lang) -> str:
    """What players see of another combatant: unhurt, wounded or out of the fight."""
    fate = str(entry.get("fate", "alive"))
    if fate != "alive" or entry.get("level") in ("incapacitated",):
        return msg("status.out", lang)
    health = str(entry.get("health", ""))
    if "/" in health or "X" in health or "*" in health:
        return msg("status.wounded", lang)
    return msg("status.unhurt", lang)


def due_actors(enc: Encounter, templates: list[CommandTemplate] | None = None) -> list[str]:
    """Who is expected to declare or act now: the ruleset's ``due_actors(state)`` when it
    has one, else the actors of its declare/act templates."""
    own = getattr(enc.ruleset, "due_actors", None)
    if callable(own):
        return [str(a) for a in own(enc.state)]
    if templates is None:
        templates = enc.legal_commands()
    return [tp.actor for tp in templates if tp.actor and tp.type in ("declare", "act")]


@dataclass
class Situation:
    turn: int
    phase: str
    order: list[list[str]]
    due: list[str]


def situation(
    enc: Encounter, lang: Lang, templates: list[CommandTemplate] | None = None
) -> Situation:
    state = enc.state
    order = [list(rank) for rank in getattr(state, "order", []) or []]
    return Situation(
        int(getattr(state, "turn", 0) or 0),
        label("phase", str(getattr(state, "phase", "")), lang),
        order,
        due_actors(enc, templates),
    )


# ------------------------------------------------------------------ log


@dataclass
class LogItem:
    seq: int
    actor: str
    command: str
    lines: list[str]
    faces: list[str] = field(default_factory=list)
    """The faces rolled for each line (empty when it rolled nothing)."""
    undone: bool = False
    undo_of: int | None = None


EntryText = tuple[str, str, tuple[str, ...], tuple[str, ...]]
"""An entry as the log shows it: actor, command, lines, faces (the same for ever: the log
is append-only, so it is described once per language and audience)."""


def log_items(
    enc: Encounter,
    lang: Lang,
    *,
    public_only: bool = False,
    since: int = -1,
    cache: MutableMapping[tuple[Any, ...], EntryText] | None = None,
    key: Any = None,
) -> list[LogItem]:
    """The log as prose, newest last; undone commands are marked, hidden events left out.

    With a ``cache`` (and the encounter's ``key``, its id), each entry is described
    only the first time it is shown in that language to that audience.
    """
    names: dict[str, str] | None = None
    undone = {e.undoes for e in enc.log if isinstance(e, UndoEntry)}
    out: list[LogItem] = []
    for entry in enc.log:
        if entry.seq <= since:
            continue
        if isinstance(entry, UndoEntry):
            out.append(LogItem(entry.seq, "", "undo", [], [], undo_of=entry.undoes))
            continue
        assert isinstance(entry, CommandEntry)
        ckey = (key, entry.seq, lang, public_only)
        text = cache.get(ckey) if cache is not None else None
        if text is None:
            if names is None:
                names = names_of(enc.state)
            text = _entry_text(entry, lang, public_only, names)
            if cache is not None:
                cache[ckey] = text
        actor, command, lines, faces = text
        out.append(
            LogItem(
                entry.seq,
                actor,
                command,
                list(lines),
                list(faces),
                undone=entry.seq in undone,
            )
        )
    return out


def _entry_text(
    entry: CommandEntry, lang: Lang, public_only: bool, names: Mapping[str, str]
) -> EntryText:
    shown = [ev for ev in entry.events if not type(ev).quiet and (ev.public or not public_only)]
    lines = tuple(ev.describe(lang, names) for ev in shown)
    faces = tuple(" ".join(str(f) for r in ev.rolls for f in r.faces) for ev in shown)
    actor = names.get(entry.command.actor or "", "") if entry.command.actor else ""
    return actor or msg("gm", lang), label("cmd", entry.command.type, lang), lines, faces


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


@dataclass
class Form:
    type: str
    actor: str
    title: str
    rule: str
    fields: list[Field]

    @property
    def tool(self) -> bool:
        """A game master's tool (damage, modifier, note...) rather than a turn's step."""
        return not self.actor and bool(self.fields)


def _field(p: Param, lang: Lang, names: Mapping[str, str], prefix: str = "") -> Field:
    choices = [(str(c), word(c, lang, names)) for c in p.choices]
    return Field(
        prefix + p.name,
        p.kind,
        label("param", p.name, lang),
        choices,
        p.required,
        p.min,
        p.max,
        p.default,
    )


def forms(
    enc: Encounter,
    lang: Lang,
    actor: str | None = None,
    templates: list[CommandTemplate] | None = None,
) -> list[Form]:
    """One form per legal command template (of ``actor`` only, when given): a field per
    parameter the ruleset declares (a second action, for instance, is parameters of its own).
    ``templates``: the encounter's ``legal_commands()`` when the caller has them."""
    names = names_of(enc.state)
    key = tuple(sorted(names.items()))
    out = []
    for tp in enc.legal_commands(actor) if templates is None else templates:
        if actor is not None and tp.actor != actor:
            continue
        out.append(_form(tp, lang, names, key))
    return out


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
    fields = [_field(p, lang, names) for p in tp.params if not _fixed(p)]
    who = names.get(tp.actor or "", "") if tp.actor else msg("gm", lang)
    title = f"{who} · {label('cmd', tp.type, lang)}"
    form = Form(tp.type, tp.actor or "", title, tp.rule or "", fields)
    if cache_key is not None:
        if len(_FORMS) > 5000:
            _FORMS.clear()
        _FORMS[cache_key] = form
    return form


def _fixed(p: Param) -> bool:
    """A number with a single possible value is no choice (Celerity 0..0): no field for it."""
    return p.kind == "int" and p.min is not None and p.min == p.max


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
    return Command(tp.type, tp.actor, params_from_form(tp.params, values))


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


def odds_view(answer: Any, lang: Lang) -> OddsView:
    """The odds of an attack in words and a bar per number of health levels lost."""
    from conteur.i18n import percent

    data = answer.to_dict() if hasattr(answer, "to_dict") else dict(answer)
    levels = {int(k): float(v) for k, v in (data.get("levels") or {}).items()}
    top = max(levels.values(), default=0.0) or 1.0
    bars = [
        (str(k), round(100 * v / top, 1), percent(v, lang))
        for k, v in sorted(levels.items())
        if v >= 0.0005 or k == 0
    ]
    expected = float(data.get("expected_levels", 0.0))
    shown = f"{expected:.2f}".replace(".", ",") if lang == "fr" else f"{expected:.2f}"
    return OddsView(
        percent(float(data.get("p_hit", 0.0)), lang),
        shown,
        percent(float(data.get("p_incapacitated", 0.0)), lang),
        bars,
    )


# ------------------------------------------------------------------ the ruleset's optional methods


def attack_kinds(enc: Encounter, attacker: str) -> list[str]:
    """The maneuvers ``attacker`` could attack with now, each priced by ``attack_odds``
    (the ruleset's optional ``attack_kinds(state, attacker)``; none without it)."""
    fn = getattr(enc.ruleset, "attack_kinds", None)
    if not callable(fn):
        return []
    return [str(k) for k in fn(enc.state, attacker)]


def odds_toggles(enc: Encounter, attacker: str, target: str, maneuver: str | None) -> list[Param]:
    """The options of an attack that change its odds (cover, aim, a called shot...): the
    ruleset's optional ``odds_toggles(state, attacker, target, maneuver)``; none without it."""
    fn = getattr(enc.ruleset, "odds_toggles", None)
    if not callable(fn):
        return []
    return list(fn(enc.state, attacker, target, maneuver))


def toggle_field(
    p: Param, chosen: Mapping[str, Any], lang: Lang, names: Mapping[str, str]
) -> Field:
    """The field of one odds option (``opt_<name>``), showing the value in use."""
    f = _field(p, lang, names, "opt_")
    f.required = False
    if p.name in chosen:
        f.default = chosen[p.name]
    return f
