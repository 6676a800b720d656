"""The script language of vtm fights: what a game master writes by hand, one command per line.

::

    initiative
    bob: déclare tirer sur lucien avec le colt, visée tête
    lucien: declare punch bob then dodge, celerity 1
    lucien: agit
    bob: esquive avec un point de volonté
    mary: agit: tirer sur bob
    mj: dégâts bob 2 létaux
    annuler

A line is ``NAME: what`` (a fighter, by id or name), ``mj: what`` (the game
master), or a line of its own (``initiative``, ``annuler``). ``#`` starts a
comment. Words are French or English, in any case, with or without accents.

Everything the parser knows is data: the verbs, details and their words in
``data/script.yaml``, maneuvers and weapons in the tables, fighters in the
state. ``parse_line`` turns one line into an engine ``Command`` and never
changes the state; the engine checks the rules. ``annuler`` / ``undo`` gives
``Command("undo")``, carried out by the player (``Encounter.undo``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict

from conteur.engine import Command
from conteur.engine.grammar import (
    Grammar,
    Kind,
    Slot,
    SlotReader,
    Verb,
    add_slots,
    load_words,
    verbs_lexicon,
)
from conteur.engine.inputs import safe_yaml
from conteur.engine.lexicon import (
    NOTHING,
    Entry,
    Lexicon,
    Quoted,
    Tok,
    Vocabularies,
    add_names,
    name_forms,
    speaker,
    tokenize,
)
from conteur.engine.script import strip_comment
from conteur.i18n import ConteurError, Msg

from . import equipment
from .hooks import declared_kinds
from .packs import Misplaced, misplaced
from .state import DEFENSIVE, VtmState
from .tables import Tables
from .traits import canonical_trait, normalize_key

GENERAL_KINDS = ("move", "reload", "aim", "stand_up", "draw", "other")
"""Actions the engine takes that are not all maneuvers of the tables (actions.py)."""

NO_WEAPON: tuple[str, ...] = ("aucune", "aucune arme", "rien", "mains nues", "à mains nues")
NO_WEAPON += ("none", "nothing", "bare hands", "unarmed", "no weapon")
NO_COVER: tuple[str, ...] = ("aucun", "aucun couvert", "sans couvert", "à découvert", "none")
NO_COVER += ("no cover", "open", "in the open")


# --------------------------------------------------------------------------- the words (data)


class ScriptWords(BaseModel):
    """The whole vocabulary of ``data/script.yaml``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    gm: tuple[str, ...]
    fillers: tuple[str, ...]
    separators: tuple[str, ...]
    numbers: dict[int, tuple[str, ...]]
    lines: dict[str, Verb]
    verbs: dict[str, Verb]
    gm_verbs: dict[str, Verb]
    kinds: dict[str, tuple[str, ...]]
    defences: dict[str, tuple[str, ...]]
    action_params: dict[str, Slot]
    declaration_params: dict[str, Slot]
    defence_params: dict[str, Slot]
    ambush_params: dict[str, Slot]


@cache
def script_words() -> ScriptWords:
    """The shipped vocabulary, validated once (``InputError`` naming entry and field)."""
    return load_words(
        "conteur.rulesets.vtm",
        "data/script.yaml",
        ScriptWords,
        GRAMMAR.known_kinds(),
        GRAMMAR.bodies,
    )


# --------------------------------------------------------------------------- lexicons

PRIORITY = (
    "sep",
    "verb",
    "decl",
    "param",
    "value",
    "kind",
    "defence",
    "actor",
    "fighter",
    "weapon",
    "cover",
    "number",
    "filler",
    "kwvalue",
)
"""Which meaning wins when one phrase has several (longer phrases win first)."""


def _lexicon() -> Lexicon:
    return GRAMMAR.lexicon()


@dataclass
class Vocabulary:
    """The lexicons of one encounter (its fighters, tables and custom maneuvers)."""

    words: ScriptWords
    tables: Tables
    fighters: dict[str, str]
    actor: Lexicon
    lines: Lexicon
    verbs: Lexicon
    gm_verbs: Lexicon
    action: Lexicon
    declaration: Lexicon
    defence: Lexicon
    ambush: Lexicon
    cover: Lexicon
    slots: dict[str, Lexicon] = field(default_factory=dict)


def _fighter_forms(state: VtmState) -> dict[str, list[str]]:
    """Each fighter's id, name, and the words of its name that no one else has."""
    return name_forms({fid: f.name for fid, f in state.fighters.items()})


def _add_fighters(lex: Lexicon, forms: Mapping[str, list[str]], cat: str = "fighter") -> None:
    add_names(lex, forms, cat)


def _add_common(lex: Lexicon, words: ScriptWords) -> None:
    for filler in words.fillers:
        lex.add(filler, Entry("filler"))
    for value, phrases in words.numbers.items():
        lex.add_all(phrases, Entry("number", value=value))


def _add_weapons(lex: Lexicon, tables: Tables) -> None:
    for w in tables.weapons.values():
        for form in (w.id, w.name_fr, w.name_en, *w.aliases):
            lex.add(form, Entry("weapon", w.id))


def _add_kinds(lex: Lexicon, state: VtmState, words: ScriptWords, tables: Tables) -> None:
    """Maneuvers of the tables and the encounter, general actions, conjugated forms."""
    known = (
        set(tables.maneuvers) | set(state.custom_maneuvers) | set(GENERAL_KINDS) | declared_kinds()
    )
    full_defense = words.declaration_params.get("full_defense")
    for m in tables.maneuvers.values():
        forms = (m.id, m.names.fr, m.names.en, *m.words)
        if m.id == "full_defense" and full_defense is not None:
            lex.add_all(forms, Entry("decl", "full_defense", spec=full_defense))
        else:
            lex.add_all(forms, Entry("kind", m.id))
    for mid, spec in state.custom_maneuvers.items():
        names = spec.get("names") or {}
        custom = [mid, *[str(v) for v in names.values()], *[str(w) for w in spec.get("words", [])]]
        lex.add_all(custom, Entry("kind", mid))
    for kind, phrases in words.kinds.items():
        if kind in known:
            for phrase in phrases:
                if normalize_key(phrase) not in lex.entries or not any(
                    e.cat == "kind" for e in lex.entries[normalize_key(phrase)]
                ):
                    lex.add(phrase, Entry("kind", kind))


def _slot_lexicon(
    spec: Verb, forms: Mapping[str, list[str]], base: Lexicon, tables: Tables
) -> Lexicon:
    def weapons(lex: Lexicon) -> None:
        _add_weapons(lex, tables)
        lex.add_all(NO_WEAPON, Entry("weapon", "", None))

    adders: dict[str, Callable[[Lexicon], None]] = {
        "fighter": lambda lex: _add_fighters(lex, forms),
        "weapon": weapons,
        "cover": lambda lex: _add_cover(lex, tables),
    }
    return GRAMMAR.slot_lexicon(spec.slots, base, adders)


def _add_cover(lex: Lexicon, tables: Tables) -> None:
    for c in tables.cover.values():
        for form in (c.id, c.names.fr, c.names.en, *c.words):
            lex.add(form, Entry("cover", c.id, int(c.difficulty)))
    lex.add_all(NO_COVER, Entry("cover", "none", 0))


def _build(state: VtmState) -> Vocabulary:
    words = script_words()
    tables = equipment.tables(state)
    forms = _fighter_forms(state)
    actor = _lexicon()
    _add_fighters(actor, forms, "actor")
    actor.add_all(words.gm, Entry("actor", "", surface="mj"))
    lines = verbs_lexicon([("lines", words.lines)])
    verbs = verbs_lexicon([("verbs", words.verbs)])
    # The game master may also write a line of its own after "mj:".
    lined = {"line:" + vid: spec for vid, spec in words.lines.items()}
    gm_verbs = verbs_lexicon([("gm_verbs", words.gm_verbs), ("lines", lined)])

    action = _lexicon()
    _add_common(action, words)
    _add_kinds(action, state, words, tables)
    for kind, phrases in words.defences.items():
        action.add_all(phrases, Entry("kind", kind))
    _add_fighters(action, forms)
    _add_weapons(action, tables)
    add_slots(action, words.action_params, "param")
    for sep in words.separators:
        action.add(sep, Entry("sep"))

    declaration = action.copy()
    add_slots(declaration, words.declaration_params, "decl")
    # Without "decl" entries, action words of a full defence must not read as an action.
    action.drop("decl")

    defence = _lexicon()
    _add_common(defence, words)
    for kind, phrases in words.defences.items():
        defence.add_all(phrases, Entry("defence", kind))
    add_slots(defence, words.defence_params, "param")
    defence.add_all(words.verbs["defend"].words if "defend" in words.verbs else (), Entry("filler"))

    ambush = action.copy()
    add_slots(ambush, words.ambush_params, "param")

    cover = _lexicon()
    _add_common(cover, words)
    _add_cover(cover, tables)

    vocab = Vocabulary(
        words,
        tables,
        {fid: f.name for fid, f in state.fighters.items()},
        actor,
        lines,
        verbs,
        gm_verbs,
        action,
        declaration,
        defence,
        ambush,
        cover,
    )
    common = _lexicon()
    _add_common(common, words)
    for group in (words.lines, words.verbs, words.gm_verbs):
        for vid, spec in group.items():
            vocab.slots[vid] = _slot_lexicon(spec, forms, common, tables)
    return vocab


_CACHE: Vocabularies[Vocabulary] = Vocabularies()


def vocabulary(state: VtmState) -> Vocabulary:
    """The lexicons for this state's fighters, tables and custom maneuvers (cached)."""
    tables = equipment.tables(state)
    key = (
        id(tables),
        tuple((fid, f.name) for fid, f in state.fighters.items()),
        tuple(sorted(state.custom_maneuvers)),
    )
    return _CACHE.get(key, tables, lambda: _build(state))


# --------------------------------------------------------------------------- reading a line


class _Reader(SlotReader):
    """Reads the tokens of one line in a context: the kit's slots, and vtm's actions."""

    def __init__(self, line: str, body: str, vocab: Vocabulary, state: VtmState) -> None:
        super().__init__(line, body, GRAMMAR, vocab.fighters.values())
        self.vocab = vocab
        self.state = state

    # ---- an action

    def action(self, lex: Lexicon, decl: dict[str, Any] | None) -> tuple[dict[str, Any], int]:
        """One action up to a separator: (its fields, how many times it is repeated)."""
        start = self.i
        kind: Entry | None = None
        kind_words = ""
        out: dict[str, Any] = {}
        params: dict[str, Any] = {}
        targets: list[str] = []
        weapons: list[str] = []
        repeat = 1
        while not self.done():
            tok = self.toks[self.i]
            if tok.type == "sep":
                if tok.raw == "+" and kind is None and not params and not targets:
                    self.i += 1
                    continue
                break
            if tok.type == "num":
                pair = self.read_position()  # "vers 10 0": two numbers are a position
                if pair is not None:
                    params["to"] = pair
                    continue
                self.pending.append(tok)
                self.i += 1
                continue
            if tok.type == "rep":
                repeat = int(tok.value)
                self.i += 1
                continue
            if tok.type == "pos":
                params["to"] = [float(tok.value[0]), float(tok.value[1])]
                self.i += 1
                continue
            if tok.type == "text":
                params["purpose"] = tok.value
                self.i += 1
                continue
            found = self.best(lex, _kind_free if kind is None else _not_kind)
            if found is None:
                other = self.best(lex, lambda e: e.cat == "kind")
                if other is not None and kind is not None:
                    raise self.error(
                        "vtm.script.two_actions",
                        first=kind_words,
                        second=self.body[tok.start : self.toks[self.i + other[0] - 1].end],
                    )
                raise self.unknown(tok, lex)
            n, e = found
            if e.cat == "kwvalue":
                raise self.unknown(tok, lex)
            words = self.body[tok.start : self.toks[self.i + n - 1].end]
            self.i += n
            if e.cat == "sep":
                self.i -= n
                break
            if e.cat == "kind":
                kind, kind_words = e, words
            elif e.cat == "fighter":
                targets.append(e.key)
            elif e.cat == "weapon":
                weapons.append(e.key)
            elif e.cat == "value":
                params[e.key] = e.value
            elif e.cat == "param":
                assert e.spec is not None
                params[e.key] = self.read_value(e.key, e.spec, lex, words)
            elif e.cat == "decl":
                assert e.spec is not None
                value = self.read_value(e.key, e.spec, lex, words)
                if e.key == "repeat":
                    repeat = int(value)
                elif decl is not None:
                    decl[e.key] = value
            elif e.cat == "number":
                self.pending.append(Tok("num", words, "", tok.start, tok.end, e.value))
        if self.pending:
            raise self.error("vtm.script.number", word=self.pending[0].raw)
        segment = ""
        if self.i > start:
            segment = self.body[self.toks[start].start : self.toks[self.i - 1].end]
        if kind is None:
            if params or targets or weapons:
                raise self.error("vtm.script.no_action", segment=segment)
            return {}, 0
        if len(set(weapons)) > 1:
            raise self.error("vtm.script.two_weapons", segment=segment)
        if weapons:
            out["weapon"] = weapons[0]
        out = {"kind": kind.key, **({"target": targets[0]} if targets else {}), **out, **params}
        if len(targets) > 1:
            out["targets"] = targets  # several targets (a spray, V-RNG-2)
        return out, repeat

    def separator(self) -> None:
        tok = self.peek()
        if tok is not None and tok.type == "sep":
            self.i += 1
            return
        found = self.best(self.vocab.action, lambda e: e.cat == "sep")
        if found is not None:
            self.i += found[0]


def _reader(reader: SlotReader) -> _Reader:
    assert isinstance(reader, _Reader)
    return reader


def _read_cover(reader: SlotReader, spec: Slot, lex: Lexicon) -> Any:
    """A cover level: a number 0-3, or a word of the cover table."""
    tok = reader.peek()
    if tok is not None and tok.type == "num" and int(tok.value) in (0, 1, 2, 3):
        reader.i += 1
        return int(tok.value)
    return reader.take(_reader(reader).vocab.cover, lambda e: e.cat == "cover", _cover_value)


def _cover_value(e: Entry) -> Any:
    return e.value


def _cover_number(value: float) -> Any:
    return int(value) if value in (0, 1, 2, 3) else NOTHING


def _read_defence(reader: SlotReader, spec: Slot, lex: Lexicon) -> Any:
    return reader.take(lex, lambda e: e.key in DEFENSIVE and e.cat in ("kind", "defence"))


def _read_traits(reader: SlotReader, spec: Slot, lex: Lexicon) -> Any:
    """Trait names joined by ``+`` (``Dextérité + Athlétisme``)."""
    names: list[str] = []
    while not reader.done():
        trait = None
        for n in (3, 2, 1):
            toks = reader.toks[reader.i : reader.i + n]
            if len(toks) == n and all(t.type == "word" for t in toks):
                trait = canonical_trait("_".join(t.norm for t in toks))
                if trait is not None:
                    reader.i += n
                    break
        if trait is None:
            break
        names.append(trait)
        tok = reader.peek()
        if tok is not None and tok.type == "sep" and tok.raw == "+":
            reader.i += 1
        else:
            break
    return "+".join(names) if names else NOTHING


GRAMMAR = Grammar(
    "vtm.script",
    kinds={
        "weapon": Kind(fills=("weapon",), value=lambda e: e.key or None),
        "cover": Kind(fills=("cover",), value=_cover_value, read=_read_cover, number=_cover_number),
        "defence": Kind(read=_read_defence),
        "traits": Kind(read=_read_traits),
    },
    priority=PRIORITY,
)
"""vtm's grammar: the kit's slots, with the weapons, cover levels, defences and traits of
its tables (``engine.grammar``); the hooks are below."""


def _kind_free(e: Entry) -> bool:
    return True


def _not_kind(e: Entry) -> bool:
    return e.cat != "kind"


@GRAMMAR.hook("willpower_sign")
def _willpower_sign(reader: SlotReader, args: dict[str, Any]) -> dict[str, Any]:
    """``mj: volonté bob 1`` / ``-1`` / ``dépense 1``: spend; ``+1`` / ``regagne 1``: restore."""
    delta = int(args.pop("delta", 1))
    direction = args.pop("direction", None)
    sign = reader.signs.get("delta", "")
    restore = direction == "restore" or (direction is None and sign == "+")
    args["amount"] = -abs(delta) if restore else abs(delta)
    return args


@GRAMMAR.hook("complication_ref")
def _complication_ref(reader: SlotReader, args: dict[str, Any]) -> dict[str, Any]:
    """A complication of the table named by its id or its text; otherwise the text typed."""
    text = str(args.get("text", ""))
    key = normalize_key(text)
    for c in equipment.tables(_reader(reader).state).complications:
        if key in (normalize_key(c.id), normalize_key(c.text.fr), normalize_key(c.text.en)):
            args.pop("text", None)
            args["id"] = c.id
    return args


# --------------------------------------------------------------------------- the line


def parse_line(line: str, state: VtmState) -> Command:
    """The engine command one script line asks for (ConteurError naming the problem).

    Reads the words only: whether the command is legal now is the engine's
    business. ``annuler`` / ``undo`` gives ``Command("undo")``.
    """
    text = strip_comment(line).strip()
    if not text:
        raise ConteurError("vtm.script.empty", line=line.strip())
    vocab = vocabulary(state)
    head, colon, rest = text.partition(":")
    reader = _Reader(line, text, vocab, state)
    found = reader.best(vocab.lines, lambda e: e.cat == "verb")
    if colon and (found is None or _is_actor(head, vocab)):
        actor = _actor(text, head, vocab)
        return _after_actor(line, actor, rest, vocab, state)
    if found is not None:
        reader.i += found[0]
        return _verb(reader, "lines", found[1].key, None)
    found = reader.best(vocab.actor, lambda e: e.cat == "actor")
    if found is not None and found[0] < len(reader.toks):
        body_start = reader.toks[found[0]].start
        return _after_actor(line, found[1].key or None, text[body_start:], vocab, state)
    raise ConteurError("vtm.script.unknown_command", line=line.strip())


def _is_actor(head: str, vocab: Vocabulary) -> bool:
    return speaker(head, vocab.actor, "actor") is not None


def _actor(line: str, head: str, vocab: Vocabulary) -> str | None:
    """The fighter id before the colon, or None for the game master."""
    found = speaker(head, vocab.actor, "actor")
    if found is not None:
        return found.key or None
    close = vocab.actor.suggestions(head)
    fighters = Quoted(vocab.fighters.values())
    if close:
        raise ConteurError(
            "vtm.script.unknown_actor_suggest",
            line=line.strip(),
            word=head.strip(),
            fighters=fighters,
            suggestions=Quoted(close),
        )
    raise ConteurError(
        "vtm.script.unknown_actor", line=line.strip(), word=head.strip(), fighters=fighters
    )


def _verb(reader: _Reader, group: str, vid: str, actor: str | None) -> Command:
    """The command verb ``vid`` of ``group`` (``lines``, ``verbs``, ``gm_verbs``) makes of
    the rest of the line: its slots, or one of the bodies below (``engine.grammar``)."""
    spec: Verb = getattr(reader.vocab.words, group)[vid]
    return reader.command(vid, spec, reader.vocab.slots[vid], actor)


def _after_actor(
    line: str, actor: str | None, body: str, vocab: Vocabulary, state: VtmState
) -> Command:
    try:
        return _actor_line(line, actor, body, vocab, state)
    except ConteurError as err:
        if actor is None or not err.key.startswith("vtm.script."):
            raise
        misplaced = _misplaced_maneuver(body, vocab, state)
        if misplaced is None:
            raise
        raise misplaced from None


def _misplaced_maneuver(body: str, vocab: Vocabulary, state: VtmState) -> ConteurError | None:
    """A line not understood that names a maneuver an option pack keeps out of play (the
    pack's while it is off, a core one it replaces while it is on): the refusal naming
    the rule that replaces it."""
    lex = _lexicon()
    found: dict[str, Misplaced] = {}
    for i, m in enumerate(misplaced(state)):
        found[str(i)] = m
        for form in m.forms():
            known = vocab.action.entries.get(normalize_key(form), [])
            if not any(e.cat == "kind" for e in known):
                lex.add(form, Entry("kind", str(i)))
    toks = tokenize(body)
    for i in range(len(toks)):
        for n, entries in lex.matches(toks, i):
            ref = " ".join(t.raw for t in toks[i : i + n])
            return found[entries[0].key].error(ref)
    return None


def _actor_line(
    line: str, actor: str | None, body: str, vocab: Vocabulary, state: VtmState
) -> Command:
    reader = _Reader(line, body, vocab, state)
    if actor is None:
        reader.verbs = vocab.gm_verbs
        return _gm_command(reader)
    reader.verbs = vocab.verbs
    found = reader.best(vocab.verbs, lambda e: e.cat == "verb")
    implicit = reader.best(vocab.declaration, lambda e: e.cat != "filler")
    if found is not None and (implicit is None or found[0] >= implicit[0]):
        reader.i += found[0]
        vid = found[1].key
        return _verb(reader, "verbs", vid, actor)
    if reader.done():
        return Command("act", actor, {})
    if state.phase in ("resolution", "end_of_turn") and _reads_as_defence(reader):
        return _verb(reader, "verbs", "defend", actor)
    if state.phase in ("setup", "declaration"):
        return _verb(reader, "verbs", "declare", actor)
    try:
        return _verb(reader, "verbs", "act", actor)
    except ConteurError:
        # Words of a declaration (a delay, a full defence) out of the declaration stage:
        # read them as one, and let the engine say it is not the time to declare.
        reader.i, reader.pending = 0, []
        try:
            return _verb(reader, "verbs", "declare", actor)
        except ConteurError:
            pass
        raise


def _reads_as_defence(reader: _Reader) -> bool:
    """Whether the words are a block, dodge or parry (and how to abort for it)."""
    mark = reader.i
    try:
        _defence(reader)
    except ConteurError:
        return False
    finally:
        reader.i = mark
    return True


def _gm_command(reader: _Reader) -> Command:
    words = reader.vocab.words
    known = Quoted(spec.words[0] for spec in words.gm_verbs.values())
    if reader.done():
        raise reader.error("vtm.script.gm_what", known=known)
    keys = ("vtm.script.unknown_gm_verb", "vtm.script.unknown_gm_verb_suggest")
    vid = reader.verb(reader.vocab.gm_verbs, keys, known=known)[1].key
    if vid.startswith("line:"):
        return _verb(reader, "lines", vid[5:], None)
    return _verb(reader, "gm_verbs", vid, None)


def _newcomer(reader: _Reader) -> dict[str, Any]:
    """``mj: renfort {id: cid, side: b, dexterity: 2, weapons: [knife]}``: a combatant joins
    (its scenario entry, in YAML's flow style)."""
    text = reader.rest().strip()
    try:
        entry = yaml.safe_load(text) if text else None
    except yaml.YAMLError as exc:
        raise reader.error("vtm.script.bad_newcomer", detail=str(exc).splitlines()[0]) from None
    if not isinstance(entry, dict):
        raise reader.error("vtm.script.bad_newcomer", detail=text or "—")
    return {"combatant": entry}


def _one_action(reader: SlotReader, ambush: bool) -> dict[str, Any]:
    """One action and nothing after it: an action now, or an ambush's (V-MAN-7, which
    must name one and may say how a tie is defended)."""
    r = _reader(reader)
    lex = r.vocab.ambush if ambush else r.vocab.action
    action, _ = r.action(lex, {} if ambush else None)
    _finish(r, lex)
    if ambush and not action:
        raise r.error("vtm.script.no_action", segment=r.body.strip())
    return action


GRAMMAR.bodies.update(
    declaration=lambda r: _declaration(_reader(r)),
    act=lambda r: _one_action(r, ambush=False),
    defence=lambda r: _defence(_reader(r)),
    ambush=lambda r: _one_action(r, ambush=True),
    maneuver=lambda r: _maneuver(_reader(r)),
    newcomer=lambda r: _newcomer(_reader(r)),
)
"""vtm's verbs whose rest is no slots (``body:`` in data/script.yaml)."""


def _finish(reader: _Reader, lex: Lexicon) -> None:
    tok = reader.peek()
    if tok is not None:
        raise reader.unknown(tok, lex)


def _declaration(reader: _Reader) -> dict[str, Any]:
    """Actions joined by puis/then/+, with Celerity, Willpower, delay or full defence (V-INI-3)."""
    decl: dict[str, Any] = {}
    actions: list[dict[str, Any]] = []
    while not reader.done():
        mark = reader.i
        action, repeat = reader.action(reader.vocab.declaration, decl)
        actions.extend(dict(action) for _ in range(repeat))
        reader.separator()
        if reader.i == mark:
            raise reader.unknown(reader.toks[reader.i], reader.vocab.declaration)
    args: dict[str, Any] = {"actions": actions}
    if decl.get("celerity"):
        args["celerity"] = int(decl["celerity"])
    if decl.get("willpower"):
        args["willpower"] = True
    if decl.get("delay"):
        args["delay"] = True
    if decl.get("full_defense"):
        args["full_defense"] = decl["full_defense"]
    return args


def _defence(reader: _Reader) -> dict[str, Any]:
    """A block, dodge or parry announced now, perhaps by aborting (V-DEF-1, V-MAN-3)."""
    lex = reader.vocab.defence
    args: dict[str, Any] = {}
    while not reader.done():
        tok = reader.toks[reader.i]
        found = reader.best(lex, lambda e: True) if tok.type == "word" else None
        if found is None or found[1].cat == "kwvalue":
            raise reader.unknown(tok, lex)
        n, e = found
        words = reader.body[tok.start : reader.toks[reader.i + n - 1].end]
        reader.i += n
        if e.cat == "defence":
            if "kind" in args and args["kind"] != e.key:
                raise reader.error("vtm.script.two_actions", first=args["kind"], second=words)
            args["kind"] = e.key
        elif e.cat == "value":
            args[e.key] = e.value
        elif e.cat == "param":
            assert e.spec is not None
            args[e.key] = reader.read_value(e.key, e.spec, lex, words)
    args.setdefault("kind", "dodge")
    return {"kind": args.pop("kind"), **args}


def _maneuver(reader: _Reader) -> dict[str, Any]:
    """``mj: manœuvre coup de boule {traits: [[strength, brawl]], difficulty: 1}`` (V-CC-0)."""
    text = reader.rest()
    name, brace, spec_text = text.partition("{")
    name = name.strip().strip('"«»“” ')
    spec: Any = {}
    if brace:
        try:
            spec = safe_yaml("{" + spec_text)
        except yaml.YAMLError as exc:
            raise reader.error("vtm.script.bad_spec", detail=str(exc).splitlines()[0]) from None
        if not isinstance(spec, dict):
            raise reader.error("vtm.script.bad_spec", detail=str(spec))
    if not name:
        raise reader.error("vtm.script.missing", expected=Msg("vtm.script.expect.name"))
    mid = normalize_key(name)
    spec = dict(spec)
    spec.setdefault("names", {"fr": name, "en": name})
    words: list[Any] = list(spec.get("words") or [])
    if name not in words:
        words.append(name)
    spec["words"] = words
    return {"id": mid, "spec": spec}
