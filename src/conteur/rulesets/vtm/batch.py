"""Large batches of one vtm attack, every die rolled with numpy (issue 8, item 3).

``roll_strikes(strike, n, rng)`` plays ``n`` independent copies of one
``Strike`` and returns a ``StrikeBatch`` of arrays, one entry per attack. It is
the same chain as ``conteur.rulesets.vtm.strike.roll_strike``, step by step and
option by option (each step below names its rule id), written over arrays
instead of one attack at a time: attack roll → defence → damage → armour →
soak → levels, and the parry's riposte. Every die of the chain is rolled — the
attack dice, the defence dice, the damage dice (as many as each attack's net
successes call for) and the soak dice; nothing is sampled from a precomputed
distribution, so the batch is an independent check of the exact odds.

How a die is rolled. The generator's raw 64-bit outputs (PCG64 by default)
are cut into bytes; a byte ``b`` in 0..249 is the face ``b // 25 + 1`` (25
bytes per face, so each face has probability exactly 1/10), and a byte
250..255 is no die: its pool rolls one more die in its place. The faces are
never materialised: "face >= difficulty" is ``b >= 25 × (difficulty − 1)``
and "face is a 1" is ``b < 25``. This costs about a byte of PCG64 output per
die, several times less than ``Generator.integers(1, 11, dtype=np.uint8)``,
which spends most of its time in its per-element bounded draw
(``benchmarks/batch.py`` measures both).

The dice are drawn as a (dice, attacks) byte block per pool, attacks in chunks
of ``CHUNK`` (the cost of each numpy call is spread over many attacks, and the
blocks stay in the second-level cache). A pool whose size varies from attack
to attack (the damage pool) is drawn as wide as the largest one in the chunk,
and the dice beyond each attack's own count are blanked before counting. A
roll that ``roll_strike`` would not make (the defence against an attack with
no success, the soak of no damage, the damage of a miss) may still be drawn
for the whole chunk and then ignored: the dice are independent, so ignoring
some changes nothing.

Same generator state, same ``n``: same arrays (the chunking is fixed).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .dice import VtmPool
from .strike import DAMAGE_DIFFICULTY, SOAK_DIFFICULTY, Strike

U8 = npt.NDArray[np.uint8]
I16 = npt.NDArray[np.int16]
Bools = npt.NDArray[np.bool_]

DIE_SPAN = 25
"""Bytes per face: the byte ``b`` (0..249) shows the face ``b // DIE_SPAN + 1``."""
REJECT = 10 * DIE_SPAN
"""Bytes from here (250..255) are no die: the pool rolls another in its place."""
ONE = DIE_SPAN
"""Bytes below this show a 1."""
BLANK = DIE_SPAN
"""A face-2 byte: neither a 1 nor a success at difficulty 6, put in place of the
dice an attack does not roll in a pool drawn wider than its own."""
MAX_AUTO = 10_000
"""The most automatic successes the batch accepts (it counts in 16-bit integers)."""
SPARE = 3
"""Bytes drawn beyond the need when a pool replaces its rejected bytes."""
CHUNK = 1 << 16
"""Attacks per chunk. Part of the reproducibility contract: do not change lightly."""

assert DAMAGE_DIFFICULTY > 2 and SOAK_DIFFICULTY > 2, "BLANK must not be a success"


def threshold(difficulty: int) -> int:
    """The lowest byte that succeeds against ``difficulty`` (clamped to 2..10, as ``VtmPool``)."""
    return DIE_SPAN * (min(10, max(2, difficulty)) - 1)


class ByteDice:
    """Raw random bytes from a numpy generator's bit generator (PCG64's 64-bit outputs).

    ``bytes_drawn`` counts the bytes handed out: one per die drawn, including
    the bytes rejected (250..255) and the dice drawn for a whole chunk and
    then blanked or ignored.
    """

    def __init__(self, rng: np.random.Generator) -> None:
        self._raw: Callable[[int], npt.NDArray[np.uint64]] = rng.bit_generator.random_raw
        self.bytes_drawn = 0

    def block(self, rows: int, cols: int) -> U8:
        """A C-contiguous (rows, cols) array of independent uniform bytes (0..255)."""
        size = rows * cols
        if size <= 0:
            return np.zeros((max(rows, 0), cols), dtype=np.uint8)
        self.bytes_drawn += size
        raw = self._raw((size + 7) // 8)
        return raw.view(np.uint8)[:size].reshape(rows, cols)


def _tally(block: U8, low: int) -> tuple[U8, U8, U8]:
    """Per attack (column): dice >= ``low``, dice showing a 1, and bytes that are no die."""

    def count(mask: Bools) -> U8:
        # One mask at a time, counted at once: the block's temporaries stay in cache.
        counted: U8 = mask.view(np.uint8).sum(axis=0, dtype=np.uint8)
        return counted

    rejected = count(block >= REJECT)
    hits = count(block >= low)
    hits -= rejected  # a rejected byte (250..255) also passed ">= low"
    return hits, count(block < ONE), rejected


def _blank(block: U8, first: int, counts: npt.NDArray[Any]) -> None:
    """Turn into ``BLANK`` the dice of rows ``first``.. beyond each column's own count.

    ``block`` holds rows ``first``.. of a pool; only for difficulties above 2
    (a blank must be neither a success, nor a 1, nor a rejected byte).
    """
    rows = np.arange(first, first + block.shape[0], dtype=counts.dtype)[:, None]
    active = (rows < counts).view(np.uint8)
    block *= active
    active ^= 1
    active *= BLANK
    block |= active


def roll_pool(
    dice: ByteDice,
    rows: int,
    cols: int,
    low: int,
    counts: npt.NDArray[Any] | None = None,
    fewest: int = 0,
) -> tuple[U8, U8]:
    """Successes and 1s of ``cols`` pools of d10 (one pool per column), every die rolled.

    Each pool has ``rows`` dice or, when ``counts`` is given, ``counts[c]``
    dice (at most ``rows``, at least ``fewest``: the rows beyond ``fewest`` are
    blanked where a pool is smaller). A die is a byte: 0..249 shows the face
    ``b // 25 + 1``, so it succeeds when ``b >= low`` (``threshold``) and shows
    a 1 when ``b < 25``; a byte 250..255 is no die, and its pool rolls one more
    die in its place, until every pool has all its dice.
    """
    block = dice.block(rows, cols)
    if counts is not None and rows > fewest:
        assert low > BLANK
        _blank(block[fewest:], fewest, counts)
    hits, ones, rejected = _tally(block, low)
    # Pools that drew rejected bytes roll that many dice more: SPARE bytes more
    # than they need, of which they keep the first valid ones (one round, almost
    # always; a pool still short goes round again).
    where = np.flatnonzero(rejected != 0)  # (on a bool array: six times faster)
    again = rejected[where]
    while where.size:
        block = dice.block(int(again.max()) + SPARE, where.size)
        valid = block < REJECT
        taken = valid.view(np.uint8).copy()  # valid bytes so far, row by row
        for row in range(1, taken.shape[0]):
            taken[row] += taken[row - 1]  # (np.cumsum along axis 0 is ten times slower)
        valid &= taken <= again
        hits[where] += ((block >= low) & valid).view(np.uint8).sum(axis=0, dtype=np.uint8)
        ones[where] += ((block < ONE) & valid).view(np.uint8).sum(axis=0, dtype=np.uint8)
        short = again - np.minimum(again, taken[-1])
        keep = np.flatnonzero(short != 0)
        where, again = where[keep], short[keep]
    return hits, ones


def _net(hits: U8, ones: U8) -> U8:
    """Successes left after each 1 cancels one (never below zero)."""
    return hits - np.minimum(hits, ones)


@dataclass(frozen=True)
class _Plan:
    """The numbers of a ``Strike`` the batch needs, checked as ``roll_strike`` would."""

    attack_dice: int
    attack_low: int
    auto: int
    defence: bool
    defence_dice: int
    defence_low: int
    damage: bool
    damage_base: int
    damage_low: int
    damage_auto: int
    ones_cancel: bool
    armour: int
    soak: int
    soak_low: int
    halve: bool
    riposte: bool
    riposte_dice: int
    riposte_soak: int

    @classmethod
    def of(cls, s: Strike) -> _Plan:
        # The requests roll_strike makes; building them raises the same errors
        # (a pool over MAX_POOL, negative automatic successes).
        attack = VtmPool(s.pool, s.difficulty, auto=s.auto_successes)
        defence = VtmPool(s.defence.pool, s.defence.difficulty) if s.defence else None
        VtmPool(1, DAMAGE_DIFFICULTY, auto=s.damage_auto)
        soak = VtmPool(max(s.soak, 0), SOAK_DIFFICULTY)
        r = s.defence.riposte if s.defence else None
        if r is not None:
            VtmPool(max(r.soak, 0), SOAK_DIFFICULTY)
        if max(s.auto_successes, s.damage_auto) > MAX_AUTO:
            # Not a rule: the batch counts in 16-bit integers.
            raise ValueError(f"the batch takes at most {MAX_AUTO} automatic successes")
        return cls(
            attack_dice=attack.rolled_dice,
            attack_low=threshold(s.difficulty),
            auto=s.auto_successes,
            defence=defence is not None,
            defence_dice=defence.rolled_dice if defence else 0,
            defence_low=threshold(defence.difficulty) if defence else 0,
            damage=not s.no_damage,
            damage_base=s.damage_dice + s.extra_damage_dice - (0 if s.every_success_adds else 1),
            damage_low=threshold(DAMAGE_DIFFICULTY),
            damage_auto=s.damage_auto,
            ones_cancel=s.damage_ones_cancel,
            armour=s.armour_rating,
            soak=soak.rolled_dice,
            soak_low=threshold(SOAK_DIFFICULTY),
            halve=s.halve_bashing and s.damage_type == "bashing",
            riposte=r is not None,
            riposte_dice=r.damage_dice if r else 0,
            riposte_soak=max(r.soak, 0) if r else 0,
        )


@dataclass(frozen=True, eq=False)
class StrikeBatch:
    """``n`` attacks of one ``Strike``: one array entry per attack (as ``StrikeOutcome``)."""

    strike: Strike
    attack_successes: I16
    """Successes of the attack roll, automatic ones included (V-ATK-5)."""
    botch: Bools
    defence_successes: I16
    """Successes of the defence roll (0 when there is no defence or it was not rolled)."""
    net: I16
    """Net successes after the defence; 0 for a miss or a botch (as ``StrikeOutcome.net``)."""
    hit: Bools
    damage: I16
    """Damage successes before soak (0 for a miss, or a hit that does no damage)."""
    soak: I16
    """Soak successes (0 when the soak was not rolled)."""
    levels: I16
    """Health levels the target loses."""
    armour_destroyed: Bools
    riposte_levels: I16
    """Levels the attacker loses to a parry's riposte (V-DEF-5; ``parried_onto_attacker``)."""
    bytes_drawn: int
    """Random bytes the batch used: one per die drawn, rejected bytes included, and
    the dice drawn for a whole chunk and then ignored."""

    def __len__(self) -> int:
        return int(self.hit.shape[0])

    @property
    def n(self) -> int:
        return len(self)

    def share(self, name: str) -> float:
        """Share of attacks in which an array is not zero (false): ``share("hit")``, the
        hits; ``share("riposte_levels")``, the attacks a riposte costs at least one level."""
        a: npt.NDArray[Any] = getattr(self, name)
        return float(np.count_nonzero(a)) / len(self) if len(self) else 0.0

    @property
    def mean_levels(self) -> float:
        return float(self.levels.mean(dtype=np.float64)) if len(self) else 0.0

    def counts(self, name: str = "levels") -> npt.NDArray[np.int64]:
        """How many attacks gave each value (0, 1, 2, ...) of an integer array."""
        a = getattr(self, name)
        return np.bincount(np.asarray(a, dtype=np.int64), minlength=1)

    def histogram(self, name: str = "levels") -> dict[int, float]:
        """``{value: share of attacks}`` of an integer array (``levels``, ``net``, ...)."""
        counts = self.counts(name)
        return {k: int(c) / len(self) for k, c in enumerate(counts) if c}

    def levels_histogram(self) -> dict[int, float]:
        """``{health levels lost: share of attacks}``."""
        return self.histogram("levels")

    def summary_counts(self, with_damage: bool = False) -> dict[tuple[Any, ...], int]:
        """How many attacks gave each ``StrikeOutcome.summary()`` (``+ (damage,)`` if asked).

        The keys are exactly those of ``distribution_of(lambda d: roll_strike(s, d).summary())``,
        so the batch can be compared outcome by outcome with the exact odds.
        """
        typed = self.hit & (not self.strike.no_damage)
        fields: list[npt.NDArray[Any]] = [
            self.hit,
            self.net,
            self.levels,
            typed,
            self.armour_destroyed,
            self.botch,
            self.riposte_levels,
        ]
        if with_damage:
            fields.append(self.damage)
        key = np.zeros(len(self), dtype=np.int64)
        radix: list[int] = []
        for f in fields:
            r = int(f.max()) + 1 if len(self) else 1
            radix.append(r)
            key = key * r + f.astype(np.int64)
        values, counts = np.unique(key, return_counts=True)
        out: dict[tuple[Any, ...], int] = {}
        for v, c in zip(values.tolist(), counts.tolist(), strict=True):
            parts: list[int] = []
            for r in reversed(radix):
                v, part = divmod(v, r)
                parts.append(part)
            hit, net, levels, typed_, broken, botch, parried, *damage = reversed(parts)
            kind = self.strike.damage_type if typed_ else "bashing"
            summary = (bool(hit), net, levels, kind, bool(broken), bool(botch), parried)
            out[(*summary, *damage)] = c
        return out


def roll_strikes(strike: Strike, n: int, rng: np.random.Generator) -> StrikeBatch:
    """Roll ``n`` independent attacks of ``strike``, every die drawn from ``rng``."""
    if n < 0:
        raise ValueError("n must be >= 0")
    plan = _Plan.of(strike)
    dice = ByteDice(rng)
    arrays: dict[str, npt.NDArray[Any]] = {
        name: np.zeros(n, dtype=np.bool_ if name in _FLAGS else np.int16)
        for name in (*_COUNTS, *_FLAGS)
    }
    for start in range(0, n, CHUNK):
        stop = min(n, start + CHUNK)
        _roll_chunk(plan, dice, stop - start, {k: v[start:stop] for k, v in arrays.items()})
    return StrikeBatch(strike=strike, bytes_drawn=dice.bytes_drawn, **arrays)


_COUNTS = (
    "attack_successes",
    "defence_successes",
    "net",
    "damage",
    "soak",
    "levels",
    "riposte_levels",
)
_FLAGS = ("botch", "hit", "armour_destroyed")


def _roll_chunk(p: _Plan, dice: ByteDice, m: int, out: dict[str, npt.NDArray[Any]]) -> None:
    """Roll ``m`` attacks into the ``out`` slices: the chain of ``roll_strike``, over arrays."""
    # V-ATK-5: the attack roll; each 1 cancels a success; automatic successes
    # are added after the 1s; no success and at least one 1 is a botch (never
    # with an automatic success); a botch, or no success, misses.
    hits, ones = roll_pool(dice, p.attack_dice, m, p.attack_low)
    successes: npt.NDArray[Any] = _net(hits, ones)
    if p.auto:
        successes = successes.astype(np.int16) + np.int16(p.auto)
    else:
        out["botch"][:] = (hits == 0) & (ones > 0)
    out["attack_successes"][:] = successes

    # V-DEF-2: a resisted roll, made only against an attack with successes (a
    # botch has none); only the difference counts; a tie misses.
    riposte = None
    if p.defence:
        opposed = _net(*roll_pool(dice, p.defence_dice, m, p.defence_low))
        opposed *= successes > 0
        out["defence_successes"][:] = opposed
        hit = successes > opposed
        net = (successes - opposed) * hit  # uint8 may wrap on a miss: times 0
        if p.riposte:
            # V-DEF-5: the parry has more successes than the attack (rolled below).
            riposte = np.flatnonzero(opposed > successes)
            extra = (opposed[riposte] - successes[riposte]).astype(np.int16)
    else:
        hit = successes > 0
        net = successes
    out["hit"][:] = hit
    out["net"][:] = net

    if p.damage and hit.any():
        # V-DMG-1: each success beyond the first adds a damage die (each success
        # of the difference with the table option, V-DEF-2), plus targeting's
        # dice; V-DMG-4: never below one die, never a botch, 1s cancel only
        # with the table option; Potence's automatic successes are added.
        counts = np.maximum(net.astype(np.int16) + np.int16(p.damage_base), np.int16(1))
        counts *= hit
        widest = int(counts.max())
        VtmPool(widest, DAMAGE_DIFFICULTY)  # roll_strike refuses a pool over MAX_POOL
        fewest = min(max(p.damage_base + 1, 1), widest)  # every hit rolls at least this many
        hits, ones = roll_pool(dice, widest, m, p.damage_low, counts, fewest)
        dealt: npt.NDArray[Any] = _net(hits, ones) if p.ones_cancel else hits
        if p.damage_auto:
            dealt = dealt.astype(np.int16) + np.int16(p.damage_auto)
        dealt *= hit
        out["damage"][:] = dealt

        # V-ARM-3: armour breaks when one attack's damage reaches twice its rating.
        if p.armour > 0:
            out["armour_destroyed"][:] = dealt >= 2 * p.armour

        # V-SOAK-3: reflexive, difficulty 6, never botches; rolled only against
        # damage; 1s cancel only with the table option.
        levels = dealt
        if p.soak > 0:
            hits, ones = roll_pool(dice, p.soak, m, p.soak_low)
            soaked = _net(hits, ones) if p.ones_cancel else hits
            soaked *= dealt > 0
            out["soak"][:] = soaked
            levels = dealt - np.minimum(dealt, soaked)
        # V-DMG-6: a vampire halves bashing damage after soak, rounding down.
        if p.halve:
            levels = levels >> 1
        out["levels"][:] = levels

    if riposte is not None and riposte.size:
        _riposte(p, dice, riposte, extra, out["riposte_levels"])


def _riposte(p: _Plan, dice: ByteDice, rows: npt.NDArray[np.intp], extra: I16, out: I16) -> None:
    """V-DEF-5: the parrying weapon's damage plus the parry's extra successes, on
    the attacker; V-DMG-4: min one die, never a botch, 1s cancel only with the
    option; V-SOAK-3: the attacker soaks it; no halving."""
    counts = np.maximum(extra + np.int16(p.riposte_dice), np.int16(1))
    widest = int(counts.max())
    VtmPool(widest, DAMAGE_DIFFICULTY)
    fewest = min(max(p.riposte_dice + 1, 1), widest)
    hits, ones = roll_pool(dice, widest, rows.size, p.damage_low, counts, fewest)
    dealt = _net(hits, ones) if p.ones_cancel else hits
    if p.riposte_soak > 0:
        hits, ones = roll_pool(dice, p.riposte_soak, rows.size, p.soak_low)
        soaked = _net(hits, ones) if p.ones_cancel else hits
        soaked *= dealt > 0
        dealt = dealt - np.minimum(dealt, soaked)
    out[rows] = dealt
