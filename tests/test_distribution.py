"""``Dist``: the algebra of independent integer random variables.

Property tests (Hypothesis, bounded examples) of the algebra, unit tests of
each operation on hand-computed cases, and a comparison with icepool, which
computes with exact fractions.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import icepool
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conteur.dice import Dist

TOL = 1e-12
PROPS = settings(max_examples=60, deadline=None)

weights = st.lists(
    st.floats(min_value=0.0, max_value=1.0, allow_nan=False, allow_infinity=False),
    min_size=1,
    max_size=7,
).filter(lambda w: sum(w) > 1e-3)


@st.composite
def dists(draw: st.DrawFn) -> Dist:
    return Dist.from_array(draw(weights), draw(st.integers(-6, 6)), normalize=True)


small_ints = st.integers(-10, 10)


def close(a: float, b: float, tol: float = TOL) -> bool:
    return abs(a - b) <= tol


# ------------------------------------------------------------------ algebra


@PROPS
@given(dists(), dists())
def test_addition_commutes(a: Dist, b: Dist) -> None:
    assert (a + b).isclose(b + a)


@PROPS
@given(dists(), dists(), dists())
def test_addition_associates(a: Dist, b: Dist, c: Dist) -> None:
    assert ((a + b) + c).isclose(a + (b + c))


@PROPS
@given(dists(), dists())
def test_mean_and_variance_add_up(a: Dist, b: Dist) -> None:
    s = a + b
    assert close(s.mean(), a.mean() + b.mean(), 1e-9)
    assert close(s.variance(), a.variance() + b.variance(), 1e-9)


@PROPS
@given(dists(), dists(), small_ints, st.integers(0, 4))
def test_total_stays_one(a: Dist, b: Dist, k: int, n: int) -> None:
    for d in (
        a + b,
        a - b,
        -a,
        a + k,
        k - a,
        a.clamp(k - 2, k + 2),
        a.map(lambda x: x * x),
        a.max(b),
        a.min(b),
        a.sum_of(n),
        Dist.mix([(0.25, a), (0.75, b)]),
        a.condition(lambda x: x != a.min_outcome) if a.min_outcome != a.max_outcome else a,
    ):
        assert close(d.total(), 1.0)


@PROPS
@given(dists(), dists())
def test_sub_is_add_of_neg(a: Dist, b: Dist) -> None:
    assert (a - b).isclose(a + (-b))
    negated = -a
    assert -negated == a


@PROPS
@given(dists(), small_ints, small_ints)
def test_shift_identities(a: Dist, j: int, k: int) -> None:
    assert a.shift(0) == a
    assert a.shift(j).shift(k) == a.shift(j + k)
    assert a + k == a.shift(k) == k + a
    assert a - k == a.shift(-k)
    assert (k - a) == (-a).shift(k)
    assert a + Dist.point(k) == a.shift(k)
    assert close(a.shift(k).mean(), a.mean() + k, 1e-9)
    assert close(a.shift(k).variance(), a.variance(), 1e-9)


@PROPS
@given(dists(), small_ints, st.integers(0, 6), small_ints)
def test_clamp_identities(a: Dist, lo: int, width: int, k: int) -> None:
    hi = lo + width
    c = a.clamp(lo, hi)
    assert lo <= c.min_outcome and c.max_outcome <= hi
    if lo == hi:
        assert c.isclose(Dist.point(lo))
    else:
        assert close(c.prob(lo), a.at_most(lo))
        assert close(c.prob(hi), a.at_least(hi))
    for x in range(lo + 1, hi):
        assert c.prob(x) == a.prob(x)
    # clamping commutes with shifting the bounds along
    assert c.shift(k).isclose(a.shift(k).clamp(lo + k, hi + k))
    # bounds outside the support change nothing; clamping twice is clamping once
    assert a.clamp(a.min_outcome - 1, a.max_outcome + 1) == a
    assert c.clamp(lo, hi) == c
    assert a.clamp(lo) == a.clamp(lo, None) and a.clamp(hi=hi) == a.clamp(None, hi)


@PROPS
@given(dists(), dists())
def test_max_and_min(a: Dist, b: Dist) -> None:
    mx, mn = a.max(b), a.min(b)
    lo = min(a.min_outcome, b.min_outcome)
    hi = max(a.max_outcome, b.max_outcome)
    for k in range(lo - 1, hi + 2):
        assert close(mx.at_most(k), a.at_most(k) * b.at_most(k))
        assert close(mn.at_least(k), a.at_least(k) * b.at_least(k))
    # max + min = a + b, so their means add up
    assert close(mx.mean() + mn.mean(), a.mean() + b.mean(), 1e-9)
    assert mx.isclose(b.max(a)) and mn.isclose(b.min(a))


@PROPS
@given(dists(), st.integers(0, 6))
def test_sum_of_is_repeated_addition(a: Dist, n: int) -> None:
    repeated = Dist.point(0)
    for _ in range(n):
        repeated = repeated + a
    assert a.sum_of(n).isclose(repeated)


@PROPS
@given(dists(), small_ints)
def test_tails_and_items(a: Dist, k: int) -> None:
    assert close(a.at_least(k) + a.at_most(k - 1), a.total())
    assert close(a.at_least(k), sum(p for x, p in a.items() if x >= k))
    assert a.to_dict() == dict(a.items())
    assert all(close(a.prob(x), p, 0.0) for x, p in a)
    assert a.map(lambda x: x) == a


@PROPS
@given(dists(), st.floats(0.0, 0.2))
def test_trim_drops_at_most_eps_per_end(a: Dist, eps: float) -> None:
    t = a.trim(eps)
    assert a.min_outcome <= t.min_outcome and t.max_outcome <= a.max_outcome
    assert a.at_most(t.min_outcome - 1) <= eps + TOL
    assert a.at_least(t.max_outcome + 1) <= eps + TOL
    for x, p in t:
        assert p == a.prob(x)


# ------------------------------------------------------------- unit cases


def test_constructors() -> None:
    assert Dist.point(3).items() == [(3, 1.0)]
    assert Dist.uniform(2, 4).to_dict() == {2: 1 / 3, 3: 1 / 3, 4: 1 / 3}
    assert Dist.die(6) == Dist.uniform(1, 6)
    m = Dist.from_mapping({-1: 0.25, 1: 0.75})
    assert m.items() == [(-1, 0.25), (1, 0.75)] and m.prob(0) == 0.0
    assert Dist.from_mapping({0: 2.0, 1: 2.0}, normalize=True).to_dict() == {0: 0.5, 1: 0.5}
    a = Dist.from_array([0.0, 0.5, 0.5, 0.0], offset=10)
    assert (a.min_outcome, a.max_outcome) == (11, 12)


@pytest.mark.parametrize(
    "bad",
    [[], [0.0, 0.0], [-0.1, 1.1], [float("nan")], [0.7, 0.7], [[0.5, 0.5]]],
)
def test_invalid_probabilities_are_refused(bad: list[float]) -> None:
    with pytest.raises(ValueError):
        Dist.from_array(bad)


def test_immutable() -> None:
    d = Dist.die(6)
    with pytest.raises(AttributeError):
        d._offset = 3  # type: ignore[misc]
    with pytest.raises(ValueError):
        d.probs[0] = 1.0


def test_mean_variance_of_a_d6() -> None:
    d = Dist.die(6)
    assert close(d.mean(), 3.5) and close(d.variance(), 35 / 12)


def test_clamp_moves_mass_to_the_bounds() -> None:
    c = Dist.die(6).clamp(2, 4)
    assert c.isclose(Dist.from_mapping({2: 2 / 6, 3: 1 / 6, 4: 3 / 6}))
    assert Dist.die(6).clamp(8, 9).isclose(Dist.point(8))
    assert Dist.die(6).clamp(-3, 0).isclose(Dist.point(0))
    with pytest.raises(ValueError):
        Dist.die(6).clamp(3, 2)


def test_map_and_condition() -> None:
    parity = Dist.die(6).map(lambda x: x % 2)
    assert parity.isclose(Dist.from_mapping({0: 0.5, 1: 0.5}))
    high = Dist.die(6).condition(lambda x: x >= 5)
    assert high.isclose(Dist.from_mapping({5: 0.5, 6: 0.5}))
    with pytest.raises(ValueError):
        Dist.die(6).condition(lambda x: x > 6)


def test_mix_and_trim() -> None:
    m = Dist.mix([(0.5, Dist.point(0)), (0.5, Dist.die(2))])
    assert m.isclose(Dist.from_mapping({0: 0.5, 1: 0.25, 2: 0.25}))
    assert close(Dist.mix([(0.5, Dist.point(1))]).total(), 0.5)
    t = Dist.from_array([1e-16, 0.5, 0.5 - 2e-16, 1e-16]).trim(1e-15)
    assert (t.min_outcome, t.max_outcome) == (1, 2)
    assert Dist.die(6).trim(0.0) == Dist.die(6)
    assert Dist.from_array([0.1, 0.8, 0.1]).trim(0.95) == Dist.from_array([0.8], 1)


def test_from_outcomes_reads_a_roll() -> None:
    from conteur.rulesets.vtm.dice import VtmPool

    d = Dist.from_outcomes(VtmPool(2, 6).outcomes(), key=lambda r: r.successes)
    # two dice at difficulty 6: 2 successes iff both >= 6
    assert close(d.prob(2), 0.25)
    assert close(d.total(), 1.0)


def test_hash_and_equality() -> None:
    assert hash(Dist.die(6)) == hash(Dist.uniform(1, 6))
    assert Dist.die(6) != Dist.die(6).shift(1)
    assert Dist.die(6) != "d6"


# ----------------------------------------------------------------- icepool


def _icepool_dict(die: icepool.Die) -> dict[int, Fraction]:
    return {int(k): Fraction(p) for k, p in zip(die.outcomes(), die.probabilities(), strict=True)}


def _agrees(d: Dist, die: icepool.Die) -> bool:
    want = _icepool_dict(die)
    keys = set(want) | set(d.to_dict())
    return all(abs(d.prob(k) - float(want.get(k, 0))) <= TOL for k in keys)


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        (lambda: Dist.die(6).sum_of(3), lambda: 3 @ icepool.d6),
        (lambda: Dist.die(10) - Dist.die(6), lambda: icepool.d10 - icepool.d6),
        (lambda: Dist.die(8).max(Dist.die(6)), lambda: icepool.highest(icepool.d8, icepool.d6)),
        (lambda: Dist.die(8).min(Dist.die(12)), lambda: icepool.lowest(icepool.d8, icepool.d12)),
        (lambda: Dist.die(20).clamp(5, 15), lambda: icepool.d20.clip(5, 15)),
        (
            lambda: (Dist.die(6) + Dist.die(4)).map(lambda x: x // 3),
            lambda: (icepool.d6 + icepool.d4).map(lambda x: x // 3),
        ),
        (lambda: -Dist.die(12) + 7, lambda: -icepool.d12 + 7),
        (lambda: Dist.die(10).sum_of(12), lambda: 12 @ icepool.d10),
    ],
    ids=["3d6", "d10-d6", "max(d8,d6)", "min(d8,d12)", "clamp", "map", "neg", "12d10"],
)
def test_agrees_with_icepool(ours: object, theirs: object) -> None:
    assert callable(ours) and callable(theirs)
    assert _agrees(ours(), theirs())


def test_vtm_step_die_agrees_with_icepool() -> None:
    """A vtm die at difficulty 6 as +1/0/-1, summed over 8 dice, as icepool computes it."""
    step = Dist.from_mapping({-1: 0.1, 0: 0.4, 1: 0.5})
    die = icepool.d10.map(lambda x: 1 if x >= 6 else (-1 if x == 1 else 0))
    assert _agrees(step.sum_of(8), 8 @ die)


def test_brute_force_two_dice() -> None:
    """2d6 by enumerating the 36 face pairs."""
    counts: dict[int, int] = {}
    for a, b in itertools.product(range(1, 7), repeat=2):
        counts[a + b] = counts.get(a + b, 0) + 1
    want = Dist.from_mapping({k: c / 36 for k, c in counts.items()})
    assert (Dist.die(6) + Dist.die(6)).isclose(want)
    assert np.isclose(want.total(), 1.0)


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.integers(-20, 20),
        st.one_of(st.just(0.0), st.floats(0.0, 1.0)),
        min_size=1,
        max_size=12,
    )
)
def test_from_mapping_is_the_array_constructor_on_the_same_values(raw: dict[int, float]) -> None:
    """``from_mapping`` checks and trims in plain Python (the odds build three answers a
    query): the same distribution, bit for bit, or the same refusal, as ``Dist(array)``."""
    total = sum(raw.values())
    mapping = {k: p / total / 2 for k, p in raw.items()} if total > 0 else raw
    lo, hi = min(mapping), max(mapping)
    arr = np.zeros(hi - lo + 1)
    for k, p in mapping.items():
        arr[k - lo] = p
    try:
        want = Dist(arr, lo)
    except ValueError as e:
        with pytest.raises(ValueError, match=str(e)):
            Dist.from_mapping(mapping)
        return
    got = Dist.from_mapping(mapping)
    assert got == want and got.items() == want.items()


@pytest.mark.parametrize(
    ("mapping", "message"),
    [
        ({0: float("nan")}, "finite and non-negative"),
        ({0: float("inf")}, "finite and non-negative"),
        ({0: -0.25, 1: 0.5}, "finite and non-negative"),
        ({0: 0.0, 3: 0.0}, "some positive probability"),
        ({0: 0.75, 1: 0.75}, "more than 1"),
    ],
)
def test_from_mapping_refuses_what_the_array_constructor_refuses(
    mapping: dict[int, float], message: str
) -> None:
    for build in (
        Dist.from_mapping,
        lambda m: Dist([m.get(k, 0.0) for k in range(min(m), max(m) + 1)], min(m)),
    ):
        with pytest.raises(ValueError, match=message):
            build(mapping)


# ------------------------------------------------------------------ floats or array


@PROPS
@given(dists(), dists(), small_ints)
def test_a_dist_of_floats_is_the_dist_of_its_array(a: Dist, b: Dist, k: int) -> None:
    # ``from_mapping`` keeps Python floats (no numpy); every reading and operation gives
    # what the same probabilities held in an array give.
    floats = Dist.from_mapping(a.to_dict())
    assert floats == a and hash(floats) == hash(a)
    assert floats.items() == a.items() and floats.to_dict() == a.to_dict()
    assert (floats.min_outcome, floats.max_outcome) == (a.min_outcome, a.max_outcome)
    assert [floats.prob(i) for i in range(-20, 20)] == [a.prob(i) for i in range(-20, 20)]
    assert floats.probs.tolist() == a.probs.tolist() and not floats.probs.flags.writeable
    assert (floats + b) == (a + b) and floats.max(b) == a.max(b)
    assert floats.at_least(k) == a.at_least(k) and floats.mean() == a.mean()
    assert repr(floats) == repr(a)
