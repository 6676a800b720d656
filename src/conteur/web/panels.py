"""The live part of the pages, built once per encounter state and shared by every view.

A command changes an encounter once, and then the game master's panel and
every player's panel show the new state. ``Panels.snapshot`` builds, for one
state (its last seq), one language and one audience (a ``Viewer``: the game
master, or the players of the table), what every such view shows: the roster,
the turn, the forms, the action in progress, and the log — each log entry
described once per language and audience and kept (the log is append-only),
the log and the turn rendered once. A view then renders only what is its own (a
player's character and forms, the CSRF token): cheap enough to send every view
its new panel in the live stream itself, with no request back.

An audience is what its readers may see (``audience``): every player of one table
sees the same events (a player character's dice are rolled in front of the table),
so their views share one snapshot; the game master's is another. A players'
snapshot holds the full roster rows of the table's characters only: an NPC's exact
health never reaches a player's template.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from markupsafe import Markup

from conteur.engine import CommandTemplate, Encounter
from conteur.engine.encounter import CommandEntry, UndoEntry, redoable
from conteur.engine.shown import SHOW
from conteur.engine.views import Roster, TurnView
from conteur.engine.visibility import DEFAULT_PRIVACY, GM, Privacy, Viewer, player
from conteur.i18n import ConteurError, Lang
from conteur.store import EncounterInfo, Store

from . import view
from .battlemap import MapView, map_view

Render = Callable[..., str]
"""``render(template, lang, **context)``: a template as HTML."""

KEEP_SNAPSHOTS = 32
KEEP_FORMS = 256
KEEP_LINES = 50_000
CSRF_SLOT = Markup("<@csrf@>")
TOKEN_SLOT = Markup("<@token@>")
"""Slots for the CSRF token and the player's link: markup (rendered as is) with a ``<`` that
user text, always HTML-escaped, cannot contain — a name or a note never fills a slot."""
LOG_SLOT = Markup('<ol class="log" reversed aria-live="polite" data-log-slot></ol>')
"""The log's place in a panel sent by the live stream: the page keeps its own log there and
adds the new entries (``Snapshot.news``), instead of receiving the whole log again."""
"""Stand-ins for what differs between views of the same forms (filled by ``forms_for``)."""


@dataclass
class Current:
    """The action in progress: who acts, what they declared, the attack and its odds."""

    actor: str
    name: str
    declared: list[str]
    """The lines of the actor's declaration this turn (the log's own words)."""
    target: str | None = None
    maneuver: str | None = None
    forms: list[view.Form] = field(default_factory=list)
    """The actor's action: its first command that rolls (its forms, one per way the ruleset
    offers it): roll, or type the table's dice."""


@dataclass
class Snapshot:
    """What every view of one audience shows of an encounter at one seq."""

    info: EncounterInfo
    seq: int
    lang: Lang
    viewer: Viewer
    """The audience (``audience``): the game master, or the players of the table."""
    player_input: bool
    privacy: Privacy
    """What the campaign shows its players (``conteur.engine.visibility.Privacy``)."""
    names: dict[str, str]
    roster: view.RosterView
    """The roster in this language: for players, the full rows of the table's characters
    only, and every combatant's public row."""
    sit: view.Situation
    items: list[view.LogItem]
    """The log, oldest first."""
    log_html: Markup
    turn_html: Markup
    forms: dict[str, list[view.Form]]
    """The forms by actor ("" for the game master's whole list)."""
    odds: bool
    """Whether the ruleset prices attacks (``attack_odds``)."""
    kinds: dict[str, list[str]]
    """The maneuvers each combatant could attack with (the ruleset's ``attack_kinds``): for
    players, the table's characters only."""
    current: Current | None = None
    hidden: frozenset[str] = frozenset()
    """The hidden combatants (``conteur.engine.hidden``), marked on the game master's page;
    always empty for players, whose snapshot holds nothing of them."""
    redo: bool = False
    """Whether the game master may redo (an undone command, no new one since)."""
    joining: view.Joining | None = None
    """The form bringing a combatant into the fight (the game master's, while one may)."""
    report: view.ReportView | None = None
    """The summary after the fight (the game master's, once the encounter is closed)."""
    ruleset: str = ""
    """The ruleset's name (its own labels are looked up first)."""
    battle_map: MapView | None = None
    """The battle map (``Ruleset.battle_map``): for players, without the hidden combatants."""
    player_moves: bool = False
    """Whether the campaign lets a player drag their own token on the map."""
    forms_html: dict[str, str] = field(default_factory=dict)
    """The forms rendered once: by actor (players), or ``turn``, ``tools``, ``current`` (GM),
    with ``CSRF_SLOT`` and ``TOKEN_SLOT`` to fill."""

    entries_html: list[Markup] = field(default_factory=list)
    """Each log entry's HTML, newest first (as ``items`` reversed)."""
    views: dict[Any, str] = field(default_factory=dict)
    """Panels already rendered from this snapshot, with their slots (one per character)."""
    messages: dict[Any, tuple[bytes, bytes, bytes]] = field(default_factory=dict)
    """The live streams' updates already encoded from this snapshot, by audience and the
    seq the view had (``app._stream``)."""

    @property
    def public(self) -> bool:
        """A players' snapshot (not the game master's)."""
        return not self.viewer.gm

    def forms_for(self, part: str, csrf: str, token: str = "") -> Markup:
        """The rendered forms of ``part`` for one view (its CSRF token, its link)."""
        html = self.forms_html.get(part, "")
        return Markup(html.replace(CSRF_SLOT, csrf).replace(TOKEN_SLOT, token))

    def news(self, seq: int) -> tuple[str, dict[int, str]]:
        """What a page at ``seq`` adds to its log: the new entries' HTML (newest first), and
        the older entries an undo among them marks (or, on the GM's page, a ``show`` marks
        shown), by the readers' numbers."""
        new: list[str] = []
        marks: dict[int, str] = {}
        by_seq: dict[int, tuple[int, Markup]] | None = None
        for item, html in zip(reversed(self.items), self.entries_html, strict=True):
            if item.seq <= seq:
                break
            new.append(html)
            changed = item.undo_of  # an entry an undo retracted, or (GM) one he showed
            if changed is None and not self.public:
                changed = item.show_of
            if changed is not None and changed <= seq:
                if by_seq is None:
                    pairs = zip(reversed(self.items), self.entries_html, strict=True)
                    by_seq = {i.seq: (i.number, h) for i, h in pairs}
                if changed in by_seq:
                    number, old = by_seq[changed]
                    marks[number] = old
        return "".join(new), marks

    def entries_since(self, seq: int) -> list[dict[str, Any]]:
        """The log entries after ``seq``, as the live stream sends them."""
        out = []
        for i in reversed(self.items):  # the newest last: read from the end
            if i.seq <= seq:
                break
            out.append({"seq": i.number, "lines": i.lines, "undo_of": i.undo_number})
        return out[::-1]

    @property
    def number(self) -> int:
        """The snapshot's seq in its readers' numbers (``LogItem.number``): the seq for the
        game master; for players, the number of the last entry they read (-1: none)."""
        if not self.public:
            return self.seq
        return self.items[-1].number if self.items else -1

    def seq_of(self, number: int) -> int:
        """The seq a view that showed ``number`` (its readers' numbers) had seen."""
        if not self.public or number < 0:
            return number
        if number >= len(self.items):
            return self.seq
        return self.items[number].seq

    def all_kinds(self) -> list[str]:
        """Every maneuver some combatant could attack with, in a stable order."""
        out: dict[str, None] = {}
        for kinds in self.kinds.values():
            out.update(dict.fromkeys(kinds))
        return list(out)


@dataclass
class _State:
    """What every audience and language share of one encounter state."""

    names: dict[str, str]
    roster: Roster
    turn: TurnView
    templates: list[CommandTemplate]
    dice: list[bool]
    """Whether each template's command may roll (``view.dice_of``): tried once per state."""
    odds: bool
    kinds: dict[str, list[str]]
    hidden: frozenset[str]


def audience(viewer: Viewer, hidden: frozenset[str] = frozenset()) -> Viewer:
    """The audience ``viewer`` belongs to: readers who see exactly the same events share it.

    The player of a character at the table sees what every player there sees (their
    own events are the table's), so all of them are the table's audience, whoever they
    play — but the player of a character that was ever ``hidden`` (its own phone shows it
    while the others' do not); the game master is one audience, any other viewer its own.
    """
    if viewer.gm:
        return GM
    if viewer.character in hidden:
        return viewer
    if viewer.character is not None and viewer.character in viewer.players:
        return Viewer(gm=False, character=None, players=viewer.players)
    return viewer


def table_viewer(info: EncounterInfo, character: str | None = None) -> Viewer:
    """The viewer of a player of ``info``'s table: the players are its combatants linked to
    the campaign's characters (the NPCs given inline are nobody's)."""
    return player(character, frozenset(info.characters))


class Panels:
    """Snapshots of the store's encounters, kept while they are recent.

    Everything is keyed by the encounter's last seq (its log only grows), and
    by its status and the campaign's ``player_input`` setting, which the app
    re-reads when told (``forget``) and at each poll of the database.
    """

    def __init__(self, store: Store, render: Render) -> None:
        self.store = store
        self.render = render
        self._lines: dict[tuple[Any, ...], view.EntryText | object] = {}
        self._html: dict[tuple[Any, ...], Markup] = {}
        self._states: dict[tuple[Any, ...], _State] = {}
        self._snapshots: dict[tuple[Any, ...], Snapshot] = {}
        self._infos: dict[int, tuple[EncounterInfo, bool, bool, Privacy]] = {}
        self._logs: dict[tuple[Any, ...], tuple[int, list[view.LogItem], list[Markup]]] = {}
        self._forms: dict[tuple[Any, ...], str] = {}
        """Rendered form lists, by language, action, submit label, forms and names."""
        self._lock = threading.Lock()

    def forget(self, eid: int | None = None) -> None:
        """The encounter's status or its campaign's settings changed (None: any encounter)."""
        with self._lock:
            if eid is None:
                self._infos.clear()
            else:
                self._infos.pop(eid, None)

    def _info(self, eid: int, fresh: bool) -> tuple[EncounterInfo, bool, bool, Privacy]:
        known = None if fresh else self._infos.get(eid)
        if known is None:
            info = self.store.get_encounter(eid)
            campaign = self.store.get_campaign(info.campaign_id)
            known = (
                info,
                bool(campaign.settings.get("player_input")),
                bool(campaign.settings.get("player_moves")),
                campaign.privacy,
            )
            with self._lock:
                self._infos[eid] = known
        return known

    def snapshot(
        self,
        eid: int,
        lang: Lang,
        *,
        viewer: Viewer,
        info: EncounterInfo | None = None,
        fresh: bool = True,
    ) -> Snapshot:
        """The encounter as it stands now, for that language and what ``viewer`` may see
        (blocking: run it in a worker thread). ``fresh=False`` trusts the status and
        settings read before (a command changes neither). ConteurError when the encounter
        is unknown."""
        known, player_input, player_moves, privacy = self._info(eid, fresh and info is None)
        info = info or known

        def build(enc: Encounter) -> Snapshot:
            seen = audience(viewer, enc.ever_hidden)
            if not seen.gm:  # what the campaign shows its players
                seen = replace(
                    seen, npc_dice=privacy.npc_dice, npc_labels=privacy.npc_names == "labels"
                )
            seq = len(enc.log) - 1
            key = (eid, seq, info.status, lang, seen, player_input, player_moves, privacy)
            with self._lock:
                found = self._snapshots.get(key)
            if found is not None:
                return found
            snap = self._build(enc, info, lang, seen, player_input, privacy)
            snap.player_moves = player_moves
            with self._lock:
                self._snapshots[key] = snap
                _trim(self._snapshots, KEEP_SNAPSHOTS)
                _trim(self._states, KEEP_SNAPSHOTS)
                if len(self._lines) > KEEP_LINES:
                    self._lines.clear()
                if len(self._html) > KEEP_LINES:
                    self._html.clear()
            return snap

        return self.store.read_encounter(eid, build)

    def _state(self, enc: Encounter, eid: int) -> _State:
        key = (eid, len(enc.log) - 1)
        found = self._states.get(key)
        if found is None:
            ruleset = enc.ruleset
            roster = ruleset.roster(enc.state)
            names = {r.id: r.name for r in roster.rows}
            odds = ruleset.prices_attacks
            templates = enc.legal_commands()
            found = _State(
                names=names,
                roster=roster,
                turn=ruleset.turn_view(enc.state),
                templates=templates,
                dice=view.dice_of(enc, templates),
                odds=odds,
                kinds={fid: view.attack_kinds(enc, fid) for fid in names} if odds else {},
                hidden=enc.hidden,
            )
            self._states[key] = found
        return found

    def _build(
        self,
        enc: Encounter,
        info: EncounterInfo,
        lang: Lang,
        seen: Viewer,
        player_input: bool,
        privacy: Privacy = DEFAULT_PRIVACY,
    ) -> Snapshot:
        st = self._state(enc, info.id)
        names = st.names
        if seen.npc_labels:  # the NPCs by generic labels: « Adversaire 1 »
            names = view.labelled(names, seen.players, lang)
        hidden = st.hidden - {seen.character} if seen.character else st.hidden
        sit = view.situation(st.turn, lang, enc.ruleset.name)
        roster = view.roster_view(st.roster, lang, names, enc.ruleset.name)
        if seen.npc_labels:
            roster = roster.renamed(names)
        kinds = st.kinds
        if not seen.gm:  # the players' own rows in full; the others' public rows only
            roster = roster.only(seen.players, hidden)
            kinds = {fid: k for fid, k in kinds.items() if fid in seen.players}
            if hidden:  # nothing of a hidden combatant: no name, no rank, no turn, no choice
                names = {fid: n for fid, n in names.items() if fid not in hidden}
                sit = view.without(sit, hidden)
        items, entries = self._log(enc, info.id, lang, seen, names if seen.npc_labels else None)
        forms: dict[str, list[view.Form]] = {}
        if info.status == "open" and (seen.gm or player_input):
            every = view.forms(enc, lang, templates=st.templates, names=names, dice=st.dice)
            if seen.gm:
                forms[""] = every
            elif player_input:
                for form in every:
                    if form.actor in info.characters:
                        form = view.form_without(form, hidden)
                        forms.setdefault(form.actor, []).append(form)
        snap = Snapshot(
            info=info,
            seq=len(enc.log) - 1,
            lang=lang,
            viewer=seen,
            player_input=player_input,
            privacy=privacy,
            names=names,
            roster=roster,
            sit=sit,
            items=items,
            log_html=Markup(""),
            turn_html=Markup(""),
            forms=forms,
            odds=st.odds,
            kinds=kinds,
            hidden=hidden if seen.gm else frozenset(),
            ruleset=enc.ruleset.name,
        )
        bmap = enc.ruleset.battle_map(enc.state, lang)
        if bmap is not None:
            rows = st.roster.rows
            snap.battle_map = map_view(
                bmap,
                lang,
                names,
                {r.id: r.side for r in rows},
                {r.id: r.status for r in rows},
                snap.hidden,
            )
        if seen.gm and info.status == "open":
            snap.current = current_action(enc, snap)
            snap.redo = can_redo(enc)
            snap.joining = self._joining(enc, info, lang)
        if seen.gm and info.status != "open":
            snap.report = view.report_view(enc, lang)
        self._render_forms(snap, lang)
        snap.entries_html = entries
        snap.log_html = Markup(self.render("_log.html", lang, entries=entries))
        snap.turn_html = Markup(
            self.render("_turn.html", lang, sit=sit, names=names, hidden=snap.hidden)
        )
        return snap

    def joining(self, eid: int, lang: Lang) -> view.Joining | None:
        """The joining form as it stands now (blocking): a snapshot keeps the one of its
        seq, but a character created since in the campaign is offered at once."""
        info = self.store.get_encounter(eid)
        if info.status != "open":
            return None
        return self.store.read_encounter(eid, lambda enc: self._joining(enc, info, lang))

    def _joining(self, enc: Encounter, info: EncounterInfo, lang: Lang) -> view.Joining | None:
        """The joining form's choices: the campaign's characters not in the fight now."""
        if enc.ruleset.join_rule(enc.state) is None:
            return None
        in_fight = set(enc.ruleset.names(enc.state))
        linked = self.store.get_encounter(info.id).characters
        playing = {char for cid, char in linked.items() if cid in in_fight}
        free = [
            (c.id, c.name)
            for c in self.store.list_characters(info.campaign_id)
            if c.id not in playing
        ]
        era = info.scenario.get("era")
        players = frozenset(linked)
        return view.joining(enc, lang, free, None if era is None else str(era), players)

    def _render_forms(self, snap: Snapshot, lang: Lang) -> None:
        def render(
            forms: list[view.Form], action: str, submit: str | None = None, level: int = 4
        ) -> str:
            """The forms' HTML, each titled by a heading of ``level`` (one below the part's
            heading: the headings' order is the page's outline)."""
            if not forms:
                return ""
            # Most commands (a note, damage...) leave the forms as they were: the same forms
            # (their full repr: every field, choice and default) give the same HTML.
            key = (lang, action, submit, level, repr(forms), tuple(snap.names.items()))
            html = self._forms.get(key)
            if html is None:
                html = self.render(
                    "_form_list.html",
                    lang,
                    forms=forms,
                    action=action,
                    names=snap.names,
                    csrf=CSRF_SLOT,
                    submit=submit,
                    level=level,
                )
                with self._lock:
                    self._forms[key] = html
                    _trim(self._forms, KEEP_FORMS)
            return html

        if snap.public:
            for actor, forms in snap.forms.items():
                snap.forms_html[actor] = render(forms, Markup(f"/p/{TOKEN_SLOT}/command"))
            return
        action = f"/e/{snap.info.id}/command"
        everything = snap.forms.get("", [])
        current = snap.current
        now = [
            f
            for f in everything
            if not f.tool and not (current and any(f is c for c in current.forms))
        ]
        if not snap.sit.due:  # before the initiative: one form per command, not per fighter
            now = view.merge_forms(now, lang, snap.names, snap.ruleset)
        snap.forms_html["turn"] = render(now, action, level=3)  # under the actions' h2
        snap.forms_html["tools"] = render([f for f in everything if f.tool], action, level=3)
        if current is not None:
            snap.forms_html["current"] = render(current.forms, action, view.msg("roll", lang))

    def _log(
        self,
        enc: Encounter,
        eid: int,
        lang: Lang,
        seen: Viewer,
        names: dict[str, str] | None = None,
    ) -> tuple[list[view.LogItem], list[Markup]]:
        """The log's items (oldest first) and their HTML (newest first) as ``seen`` reads it:
        the previous state's, and the new entries — all of it again only when an undo marks
        an older entry."""
        key = (eid, lang, seen)
        last = self._logs.get(key)
        seq = len(enc.log) - 1
        if last is not None and last[0] <= seq:
            since, items, entries = last
            new = enc.log[since + 1 :]
            if not any(isinstance(e, UndoEntry) or e.command.type == SHOW for e in new):
                more = view.log_items(
                    enc, lang, viewer=seen, since=since, cache=self._lines, key=eid, names=names
                )
                if not seen.gm:
                    view.numbered(more, len(items), {i.seq: i.number for i in items})
                items = items + more
                entries = [self._item_html(eid, i, lang, seen) for i in reversed(more)] + entries
                self._logs[key] = (seq, items, entries)
                return items, entries
        items = view.log_items(enc, lang, viewer=seen, cache=self._lines, key=eid, names=names)
        if not seen.gm:
            view.numbered(items)
        entries = [self._item_html(eid, i, lang, seen) for i in reversed(items)]
        self._logs[key] = (seq, items, entries)
        return items, entries

    def _item_html(self, eid: int, item: view.LogItem, lang: Lang, seen: Viewer) -> Markup:
        """One log entry as HTML, rendered once (it changes only when undone)."""
        key = (eid, item.seq, lang, seen, item.undone, item.showable, item.shown, item.number)
        found = self._html.get(key)
        if found is None:
            found = Markup(self.render("_log_item.html", lang, item=item, gm=seen.gm, eid=eid))
            self._html[key] = found
        return found


def _trim(cache: dict[Any, Any], size: int) -> None:
    while len(cache) > size:
        cache.pop(next(iter(cache)))


def can_redo(enc: Encounter) -> bool:
    """Whether ``redo`` would put a command back in force now."""
    try:
        redoable(enc.log)
    except ConteurError:
        return False
    return True


def current_action(enc: Encounter, snap: Snapshot) -> Current | None:
    """The action in progress: the first combatant due to act (an ``act`` command is legal
    for them), the lines of what they declared this turn, and the attack to price.

    Ruleset-neutral: the declaration is the actor's last ``declare`` command still in
    force since the last initiative; its attack is its ``kind``/``target`` arguments (or
    the first of its ``actions`` list) when the ruleset's ``attack_kinds`` lists the kind.
    """
    forms = snap.forms.get("", [])
    actor = _acting(forms, snap.sit.due)
    if actor is None:
        return None
    declared: list[str] = []
    target: str | None = None
    maneuver: str | None = None
    undone = {e.undoes for e in enc.log if isinstance(e, UndoEntry)}
    texts = {i.seq: i for i in snap.items}
    for entry in reversed(enc.log):
        if not isinstance(entry, CommandEntry) or entry.seq in undone:
            continue
        if entry.command.type == "initiative":
            break
        if entry.command.type == "declare" and entry.command.actor == actor:
            item = texts.get(entry.seq)
            declared = list(item.lines) if item else []
            kinds = snap.kinds.get(actor, [])
            for action in _actions(entry.command.args):
                if action.get("kind") in kinds and action.get("target") in snap.names:
                    maneuver, target = str(action["kind"]), str(action["target"])
                    break
            break
    rolling = [f for f in forms if f.actor == actor and f.dice]
    acts = [f for f in rolling if f.type == rolling[0].type] if rolling else []
    return Current(actor, snap.names.get(actor, actor), declared, target, maneuver, acts)


def _acting(forms: list[view.Form], due: tuple[str, ...]) -> str | None:
    """Who acts now: the first combatant the ruleset's turn view says is due (``TurnView.due``)
    with a command that rolls dice — its action; else the first with an ``act`` command (a
    fighter who waited, stepping in out of the order)."""
    rolling = {f.actor for f in forms if f.actor and f.dice}
    for fid in due:
        if fid in rolling:
            return fid
    return next((f.actor for f in forms if f.type == "act" and f.actor), None)


def _actions(args: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    listed = args.get("actions")
    if isinstance(listed, list):
        return [a for a in listed if isinstance(a, Mapping)]
    return [args] if args.get("kind") else []
