"""Exact odds of one vtm attack, before anyone rolls.

Not a second copy of the rules: the attack's own code runs over every outcome
of its dice. The attack is drafted once (``draft_attack``, ``ready_defence``,
``strike_for``); the strike's stage rules (attack → defence → damage → soak,
the functions ``roll_strike`` calls) run over the exact distribution of each
roll (``strike.strike_odds``), once per distinct value and outcome. Then what
follows the dice in a fight (``attack.conclude_attack``: health track, armour,
knock-down, dazed, grapple...): when every after-dice hook of the attack is
declared ``hooks.outside_odds``, none is run and each levels value is read
straight from the stages (``_ends_read``: the track marked by ``HealthTrack.take``,
the fate, V-DMG-7); otherwise it runs once per group of outcomes that agree on
what it reads, on a fresh copy of the state, with the events of one path of the
group (``_ends_run``: the strike replayed down it as a fight plays it).
"""

from __future__ import annotations

import copy
import dataclasses
import math
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, fields
from functools import partial
from typing import Any

from conteur.dice import DiceSource, Dist, ForcedDice, explore
from conteur.engine import Event, Resolution
from conteur.engine.battlemap import inside
from conteur.engine.odds import AttackOdds, AttackQuery
from conteur.engine.scratch import scratch_copier

from . import equipment, hooks
from .actions import check_reach_now, move_first
from .attack import (
    after_hooks,
    conclude_attack,
    daze_threshold,
    dazes,
    draft_attack,
    fold_dice,
    multiple_penalty,
    run_after_hooks,
    strike_for,
)
from .conditions import Aiming, Dazed, KnockedDown
from .defence import ready_defence
from .entries import scenario_cover
from .events import DamageTaken
from .health import HealthTrack
from .health import fate as track_fate
from .hooks import AttackDraft
from .rulebook import rules_of
from .state import Action, Declaration, Fighter, VtmState
from .strike import (
    Defence,
    Rolled,
    Strike,
    StrikeEnd,
    StrikeOdds,
    StrikeOutcome,
    finish_strike,
    roll_attack,
    strike_odds,
)

KILLED = ("dead", "torpor", "final_death")


MERGED_AWAY = frozenset({"attack_successes", "net"})
"""Outcome fields the strike's stages merge (``Through``/``Dealt`` do not compare them):
an outcome's value is one of its merged paths', so nothing after the dice may read them."""


def _key(o: StrikeOutcome) -> tuple[Any, ...]:
    """What the code after the dice reads of an outcome (its events apply the same).

    The damage successes count only for a disarm (V-CC-6) and for the armour,
    already in ``armour_destroyed``; the net and attack successes only for the
    damage pool. A run that reads one of them anyway is caught (``_Watched``).
    """
    return (
        o.hit,
        o.botch,
        o.levels,
        o.damage_type,
        o.armour_destroyed,
        o.parried_onto_attacker,
        o.disarmed,
        o.damage if o.disarmed else None,
    )


class _ReadOutsideKey(Exception):
    """The code after the dice read an outcome field ``_key`` leaves out."""


@dataclass(frozen=True)
class _Watched(StrikeOutcome):
    """An outcome that refuses to be read beyond ``_key`` (for a run shared by a group)."""

    def __getattribute__(self, name: str) -> Any:
        if name in MERGED_AWAY:
            raise AssertionError(f"odds: the code after the dice reads StrikeOutcome.{name}")
        if name == "damage" and not object.__getattribute__(self, "disarmed"):
            raise _ReadOutsideKey(name)
        return object.__getattribute__(self, name)


@dataclass(frozen=True)
class _WatchedLevels(_Watched):
    """An outcome that also refuses its levels (for a run shared by hits of any levels)."""

    def __getattribute__(self, name: str) -> Any:
        if name == "levels":
            raise _ReadOutsideKey(name)
        return super().__getattribute__(name)


_OUTCOME_FIELDS = tuple(f.name for f in fields(StrikeOutcome))


def _watched(o: StrikeOutcome, *, levels: bool = False) -> StrikeOutcome:
    kind = _WatchedLevels if levels else _Watched
    return kind(**{name: getattr(o, name) for name in _OUTCOME_FIELDS})


class _TrackGuard:
    """Stands in for the target's health track while the hooks run for hits of many
    levels: it tells whether the track is spent (the same for all of them, so
    ``out_of_fight`` reads right); reading anything else of it means what follows
    depends on the levels (``_ReadOutsideKey``)."""

    __slots__ = ("spent",)

    def __init__(self, spent: bool) -> None:
        self.spent = spent

    def __getattr__(self, name: str) -> Any:
        raise _ReadOutsideKey(f"health.{name}")


def _tracks_in_turn(
    track: HealthTrack, damage_type: str, levels: Iterable[int]
) -> Iterator[tuple[int, HealthTrack]]:
    """The track after each number of levels of this damage, fewest first (``DamageTaken``'s
    fold, ``HealthTrack.take``, which marks level after level: taken in turn on one copy
    of the track, each yielded before the next levels are marked on it)."""
    work = HealthTrack(list(track.boxes), track.levels, track.past_track)
    done = 0
    for n in sorted(levels):
        work.take(n - done, damage_type)  # type: ignore[arg-type]
        done = n
        yield n, work


def _tracks_after(
    track: HealthTrack, damage_type: str, levels: Iterable[int]
) -> dict[int, HealthTrack]:
    """The track after each number of levels of this damage (``_tracks_in_turn``, copied)."""
    return {
        n: HealthTrack(list(work.boxes), work.levels, work.past_track)
        for n, work in _tracks_in_turn(track, damage_type, levels)
    }


def _damages(e: Event, target: str) -> bool:
    """The event marking the target's track (folded level by level in ``finish_levels``)."""
    return isinstance(e, DamageTaken) and e.target == target


def attack_odds(
    state: VtmState, attacker: str, action: Action, *, willpower: bool | None = None
) -> AttackOdds:
    """The exact odds of ``attacker`` carrying out ``action`` now."""
    a = state.fighters[attacker]
    assert action.target is not None
    target = state.fighters[action.target]
    if action.param("move_to") is None:
        equipment.check_reach(state, a, target, action)
    else:
        state = opened_with_move(state, a, action)
        a, target = state.fighters[attacker], state.fighters[action.target]
    penalty = multiple_penalty(state, a, action)
    decl = a.progress.declaration
    if willpower is None:
        willpower = bool(decl and decl.willpower and not a.progress.willpower_used)
    draft = draft_attack(state, a, target, action, penalty)
    share = _volley(draft)
    defence = ready_defence(Resolution(state, ForcedDice(())), draft)
    strike = strike_for(draft, defence, willpower)

    # The dice: the strike's own stages over the exact distribution of each roll.
    if all(h in hooks.OUTSIDE_ODDS for h in after_hooks(rules_of(state), draft.maneuver)):
        chain = strike_odds(strike, share, paths=False)
        totals = _ends_read(state, target, strike, chain)
    else:
        chain = strike_odds(strike, share)
        totals = _ends_run(state, attacker, target, draft, defence, strike, share, chain)
    return AttackOdds(
        attacker=attacker,
        target=target.id,
        maneuver=strike.maneuver,
        pool=strike.pool,
        difficulty=min(10, max(2, strike.difficulty)),
        modifiers=strike.modifiers,
        defence=defence.kind if defence else None,
        p_hit=sum(p for k, p in chain.net.items() if k > 0),
        successes=Dist.from_mapping(chain.net),
        damage=Dist.from_mapping(chain.damage),
        levels=Dist.from_mapping(chain.levels),
        p_incapacitated=totals["incap"],
        p_killed=totals["killed"],
        chances={
            "p_botch": totals["botch"],
            "p_armour_destroyed": totals["armour"],
            "p_knocked_down": totals["down"],
            "p_dazed": totals["dazed"],
        },
    )


def _ends_read(
    state: VtmState, target: Fighter, strike: Strike, chain: StrikeOdds
) -> dict[str, float]:
    """What follows the dice when every after-dice hook is declared ``hooks.outside_odds``:
    none is run. Of the target, the dice's events then change only its track
    (``DamageTaken``: ``HealthTrack.take``, see ``_tracks_in_turn``) and its armour
    (``ArmourDestroyed``: the strike's ``p_armour_destroyed``), and V-DMG-7 follows
    (``dazes``): the fate and V-DMG-7 are read once per levels value (0 for every end
    without damage), on one shallow copy of the target given the track after that damage
    (one copy of the track, the levels marked on it in turn).
    No copy of the state, no replay, no end of the dice told apart beyond its levels."""
    down = bool(target.conditions.of(KnockedDown))
    dazed = bool(target.conditions.of(Dazed))
    hurt = copy.copy(target)
    kind = target.kind
    threshold = daze_threshold(state, target)
    incap = killed = p_dazed = 0.0
    lost = chain.levels
    for levels, track in _tracks_in_turn(target.health, strike.damage_type, lost):
        hurt.health = track
        p = lost[levels]
        end = track_fate(track, kind)  # ``Fighter.fate``
        if end != "alive":
            incap += p
            if end in KILLED:
                killed += p
        if dazed or dazes(state, hurt, levels, threshold):
            p_dazed += p
    return {
        "incap": incap,
        "killed": killed,
        "dazed": p_dazed,
        "botch": chain.p_botch,
        "armour": 0.0 if target.armour_destroyed else chain.p_armour_destroyed,
        "down": math.fsum(lost.values()) if down else 0.0,
    }


def _ends_run(
    state: VtmState,
    attacker: str,
    target: Fighter,
    draft: AttackDraft,
    defence: Defence | None,
    strike: Strike,
    share: Callable[[int], int] | None,
    chain: StrikeOdds,
) -> dict[str, float]:
    """What follows the dice, run: ``conclude_attack`` (or its parts) once per group of ends
    that agree on what it reads, on a fresh copy of the state, with the events of one path
    of the group (the strike replayed down it as a fight plays it). For an attack with an
    after-dice hook not declared ``hooks.outside_odds``."""

    def replay(script: tuple[int, ...]) -> StrikeOutcome:
        """The outcome (and its events) of the strike down one path, as a fight plays it."""
        dice = ForcedDice(script)
        first = roll_attack(strike, dice)
        if share is not None and isinstance(first, Rolled):
            first = Rolled(share(first.successes), first.events)  # the target's share
        return finish_strike(strike, first, dice)

    fresh = scratch_copier(state)  # one fresh copy of the state per run

    def draft_on(work: VtmState) -> AttackDraft:
        d = object.__new__(AttackDraft)  # the same draft, read against the copy
        d.__dict__.update(draft.__dict__)
        d.state, d.attacker, d.target = work, work.fighters[attacker], work.fighters[target.id]
        d.notes, d.rules, d.flags = list(draft.notes), list(draft.rules), dict(draft.flags)
        return d

    def finish(outcome: StrikeOutcome, dice: DiceSource) -> tuple[str, bool, bool, bool]:
        """What follows one outcome of the dice, on a copy: the target's fate and state."""
        work = fresh()
        t = work.fighters[target.id]
        conclude_attack(Resolution(work, dice), draft_on(work), defence, outcome)
        return (
            t.fate,
            bool(t.conditions.of(KnockedDown)),
            bool(t.conditions.of(Dazed)),
            t.armour_destroyed and not target.armour_destroyed,
        )

    def finish_levels(
        outcome: StrikeOutcome, hits: tuple[tuple[int, HealthTrack], ...], dice: DiceSource
    ) -> tuple[bool, bool, tuple[tuple[str, bool], ...]]:
        """What follows hits that differ only in the levels lost, on one copy.

        ``hits``: each hit's levels and the target's track after its damage (all spent
        or none). conclude_attack's parts: the dice's events but the target's
        damage, then the after-attack hooks with the target's track out of reach but
        for whether it is spent (a hook that reads more of it, or the levels, raises
        ``_ReadOutsideKey``: the hits are then priced one by one); then for each hit,
        the target's fate with its track, and V-DMG-7 (``dazes``).
        """
        work = fresh()
        t = work.fighters[target.id]
        d = draft_on(work)
        ctx = Resolution(work, dice)
        fold_dice(ctx, d, defence, tuple(e for e in outcome.events if not _damages(e, t.id)))
        object.__setattr__(t, "health", _TrackGuard(hits[0][1].spent))
        try:
            run_after_hooks(ctx, d, outcome)
        finally:
            t.health = hits[0][1]
        down = bool(t.conditions.of(KnockedDown))
        dazed = bool(t.conditions.of(Dazed))
        broken = t.armour_destroyed and not target.armour_destroyed
        after: list[tuple[str, bool]] = []
        for levels, track in hits:
            t.health = track
            after.append((t.fate, dazed or dazes(work, t, levels)))
        return down, broken, tuple(after)

    totals = dict.fromkeys(("botch", "incap", "killed", "armour", "down", "dazed"), 0.0)

    def add(q: float, fate: str, down: bool, dazed: bool, broken: bool) -> None:
        totals["incap"] += q if fate != "alive" else 0.0
        totals["killed"] += q if fate in KILLED else 0.0
        totals["down"] += q if down else 0.0
        totals["dazed"] += q if dazed else 0.0
        totals["armour"] += q if broken else 0.0

    # Hits that differ only in the levels lost (the same armour's fate): what follows
    # runs once for all, the damage once per levels value.
    rest: list[StrikeEnd] = []
    hits: dict[tuple[bool, bool], list[tuple[int, StrikeEnd, HealthTrack]]] = {}
    tracks_after = _tracks_after(target.health, strike.damage_type, chain.levels)
    for key, e in chain.ends.items():
        if key[0] == "hit" and len(key) == 3:
            track = tracks_after[key[1]]
            hits.setdefault((key[2], track.spent), []).append((key[1], e, track))
        else:
            rest.append(e)
    for group in hits.values():
        same = [(levels, e) for levels, e, _ in group]
        total = math.fsum(e.p for _, e in same)
        tracks = tuple((levels, track) for levels, _, track in group)
        try:
            run = partial(finish_levels, _watched(replay(same[0][1].script), levels=True), tracks)
            branches = explore(run, (), 1.0)
        except _ReadOutsideKey:  # the hooks read the damage: each levels value on its own
            rest.extend(e for _, e in same)
            continue
        for _, (down, broken, after), q in branches:
            totals["down"] += q * total if down else 0.0
            totals["armour"] += q * total if broken else 0.0
            for (_, e), (fate, dazed) in zip(same, after, strict=True):
                add(q * e.p, fate, False, dazed, False)

    # The other ends (and hits whose hooks read the damage), once per group of outcomes
    # equal in what what follows reads (``_key``), on a copy of the state.
    groups: dict[tuple[Any, ...], list[tuple[StrikeEnd, StrikeOutcome]]] = {}
    for e in rest:
        outcome = replay(e.script)
        groups.setdefault(_key(outcome), []).append((e, outcome))
    for members in groups.values():
        total = math.fsum(e.p for e, _ in members)
        first = members[0][1]
        try:
            branches_one = explore(partial(finish, _watched(first)), (), total)
        except _ReadOutsideKey:  # it reads more: each damage value of the group on its own
            branches_one = [
                b
                for e, _ in members
                for p, script in e.members.values()
                for b in explore(partial(finish, replay(script)), (), p)
            ]
        totals["botch"] += total if first.botch else 0.0
        for _, (fate, down, dazed, broken), q in branches_one:
            add(q, fate, down, dazed, broken)
    return totals


def _volley(draft: AttackDraft) -> Callable[[int], int] | None:
    """A maneuver that rolls once for several targets (``volley_odds``): the draft takes the
    one roll's pool, difficulty and modifiers; the answer is the asked target's share."""
    price = rules_of(draft.state).at(hooks.volley_odds).get(equipment.maneuver_id(draft.maneuver))
    if price is None:
        return None
    lead, share = price(draft)
    draft.pool, draft.difficulty = lead.pool, lead.difficulty
    draft.notes, draft.rules = list(lead.notes), list(lead.rules)
    return share


def opened_with_move(state: VtmState, a: Fighter, action: Action) -> VtmState:
    """V-MAN-6: the state an attack with an opening move (``move_to``) strikes from: the act's
    own reach check (``actions.check_reach_now``: refused only when the move does not close
    the distance), then the move the act makes first (``actions.move_first``), on a copy."""
    check_reach_now(state, a, action)
    moved = copy.deepcopy(state)
    move_first(Resolution(moved, ForcedDice(())), moved.fighters[a.id], action)
    return moved


def declared_move(state: VtmState, attacker: str, maneuver: str, target: str) -> Any:
    """The opening move (``move_to``, V-MAN-6) ``attacker`` declared with its attack
    ``maneuver`` on ``target`` still to come this turn, or None."""
    decl = state.fighters[attacker].progress.declaration
    if decl is None:
        return None
    for index, _ in state.fighters[attacker].progress.pending:
        if index < len(decl.actions):
            a = decl.actions[index]
            if a.kind == maneuver and a.target == target:
                return a.param("move_to")
    return None


def odds_for_scenario(state: VtmState, query: AttackQuery) -> AttackOdds:
    """Odds of the query's attacker attacking its target with its maneuver (default: its
    weapon's).

    ``params`` are the action's own (``targeting``, ``location``...) and, as a what-if
    on a copy of the state, ``target_cover`` (``none``, a cover id or 0–3,
    V-RNG-3), ``aim_turns`` (turns the shooter has aimed at the target, V-RNG-1) and
    ``actions`` (how many actions the attacker declared this turn, V-MAN-1).
    """
    attacker, target, maneuver = query.attacker, query.target, query.maneuver
    a = state.fighters[attacker]
    if maneuver is None:
        maneuver = default_maneuver(state, a)
    rest = dict(query.params)
    size = rest.get("targeting")
    if isinstance(size, str) and size.startswith("target_"):  # a form's choice: target_small
        rest["targeting"] = size.removeprefix("target_")
    what_if: dict[str, Any] = {
        k: rest.pop(k) for k in ("target_cover", "aim_turns", "actions") if k in rest
    }
    if what_if:
        state = _what_if(state, attacker, target, maneuver, what_if)
    if "move_to" not in rest:  # the attack as declared, its opening move with it (V-MAN-6)
        goal = declared_move(state, attacker, maneuver, target)
        if goal is not None:
            rest["move_to"] = goal
    action = Action(maneuver, target, None, tuple(sorted(rest.items())))
    return attack_odds(state, attacker, action)


def default_maneuver(state: VtmState, a: Any) -> str:
    """The attack a fighter makes with the weapon in hand (a punch without one)."""
    w = equipment.weapon_in_hand(state, a)
    if w is None:
        return "punch"
    return {"ranged": "shoot", "thrown": "throw"}.get(str(w.category), "weapon_strike")


def _what_if(
    state: VtmState, attacker: str, target: str, maneuver: str, what_if: Mapping[str, Any]
) -> VtmState:
    """A copy of the state with the target's cover, the aim or the declared actions set."""
    state = copy.deepcopy(state)
    a, t = state.fighters[attacker], state.fighters[target]
    if "target_cover" in what_if:
        cover = what_if["target_cover"]
        if isinstance(cover, str):  # a form's choice: cover_good
            cover = cover.removeprefix("cover_")
        t.cover = 0 if cover in (None, "none") else scenario_cover(cover, equipment.tables(state))
        # The cover asked for stands in for the map's zones around the target (a zone the
        # shooter shares still counts for both).
        state.zones = {
            k: z
            for k, z in state.zones.items()
            if not inside(t.position, z.points) or inside(a.position, z.points)
        }
    if "aim_turns" in what_if:
        turns = int(what_if["aim_turns"] or 0)
        a.conditions.drop(Aiming)
        w = equipment.weapon_in_hand(state, a)
        if turns > 0 and w is not None:
            a.conditions.put(
                Aiming(
                    target=target,
                    weapon=w.id,
                    turns=turns,
                    since=state.turn - turns,
                    last=state.turn - 1,
                    scope=False,
                )
            )
    if "actions" in what_if:
        n = max(1, int(what_if["actions"] or 1))
        decl = a.progress.declaration or Declaration()
        actions = (Action(maneuver, target),) * n
        a.progress.declaration = dataclasses.replace(decl, actions=actions, celerity=0)
        a.progress.acted = 0
    return state
