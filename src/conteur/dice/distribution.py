"""Exact discrete distributions over integers: ``Dist``.

A ``Dist`` is an immutable array of probabilities (numpy ``float64``) and an
integer *offset*: entry ``i`` is the probability of the outcome ``offset + i``.
Sums and differences of ``Dist`` objects are sums and differences of
*independent* random variables (convolutions); sums with plain ``int`` values
shift the outcomes.

A ``Dist`` usually has a total mass of 1. Two operations may leave less:
``trim`` (which drops a negligible tail on purpose) and ``mix`` with weights
that do not add up to 1. ``total()`` tells, and ``mean``/``variance`` are those
of the distribution renormalised to its total.

numpy is imported by the operations that compute with the array: a ``Dist`` made with
``from_mapping`` holds its probabilities as Python floats until one does (an attack's
odds, which only builds and reads them, load no numpy).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    FloatArray = npt.NDArray[np.float64]

R = TypeVar("R")

_OVERFULL = 1e-9
"""How far above 1 a total mass may go (rounding) before a ``Dist`` is refused."""


def _canonical(probs: FloatArray, offset: int) -> tuple[FloatArray, int]:
    """Strip the zero entries at both ends (one entry is always kept)."""
    import numpy as np

    nonzero = np.flatnonzero(probs)
    if len(nonzero) == 0:
        raise ValueError("a distribution needs some positive probability")
    first, last = int(nonzero[0]), int(nonzero[-1])
    if first == 0 and last == len(probs) - 1:
        return probs, offset
    return probs[first : last + 1], offset + first


class Dist:
    """An immutable probability distribution over a range of integers.

    Build one with ``point``, ``uniform``, ``die``, ``from_mapping``,
    ``from_array``, ``from_outcomes`` or ``mix``; combine them with ``+``,
    ``-`` (independent variables), ``max``/``min``, ``sum_of``; reshape with
    ``shift``, ``clamp``, ``map``, ``condition``, ``trim``; read them with
    ``prob``, ``at_least``, ``at_most``, ``mean``, ``variance``, ``items``,
    ``to_dict`` and ``total``.
    """

    __slots__ = ("_array", "_offset", "_values")

    _array: FloatArray | None
    _values: tuple[float, ...] | None
    """The probabilities as Python floats (a ``Dist`` of ``from_mapping``), or None."""
    _offset: int

    def __init__(self, probs: npt.ArrayLike, offset: int = 0, *, normalize: bool = False) -> None:
        """A distribution where ``probs[i]`` is the probability of ``offset + i``.

        Probabilities must be finite and non-negative, with a positive total
        of at most 1 (up to rounding); ``normalize=True`` divides them by
        their total instead.
        """
        import numpy as np

        arr = np.array(probs, dtype=np.float64, copy=True)
        if arr.ndim != 1:
            raise ValueError("probabilities must be a one-dimensional sequence")
        if not np.all(np.isfinite(arr)) or np.any(arr < 0.0):
            raise ValueError("probabilities must be finite and non-negative")
        total = float(arr.sum())
        if total <= 0.0:
            raise ValueError("a distribution needs some positive probability")
        if normalize:
            arr /= total
        elif total > 1.0 + _OVERFULL:
            raise ValueError(f"probabilities add up to {total!r}, more than 1")
        self._set(arr, int(offset))

    def _set(self, arr: FloatArray, offset: int) -> None:
        arr, offset = _canonical(arr, offset)
        self._hold(arr, offset)

    def _hold(self, arr: FloatArray, offset: int) -> None:
        """Keep ``arr`` (read-only from now on) as the probabilities from ``offset``."""
        arr.flags.writeable = False
        object.__setattr__(self, "_array", arr)
        object.__setattr__(self, "_values", None)
        object.__setattr__(self, "_offset", offset)

    @property
    def _p(self) -> FloatArray:
        """The read-only probability array (made from the floats when first asked for)."""
        arr = self._array
        if arr is None:
            import numpy as np

            arr = np.array(self._values, dtype=np.float64)
            arr.flags.writeable = False
            object.__setattr__(self, "_array", arr)
        return arr

    def _floats(self) -> Sequence[float]:
        """The probabilities as Python floats (the array read at once: ``tolist``)."""
        values = self._values
        return values if values is not None else self._p.tolist()

    def _size(self) -> int:
        values = self._values
        return len(values) if values is not None else len(self._p)

    @classmethod
    def _raw(cls, arr: FloatArray, offset: int) -> Dist:
        """Wrap an array already known to be valid (no copy, no checks)."""
        out = cls.__new__(cls)
        out._set(arr, offset)
        return out

    @classmethod
    def _stripped(cls, arr: FloatArray, offset: int) -> Dist:
        """Wrap an array known to be valid whose first and last entries are positive
        (``_raw`` without looking for zeros at the ends again)."""
        out = cls.__new__(cls)
        out._hold(arr, offset)
        return out

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Dist is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Dist is immutable")

    # ------------------------------------------------------------ constructors

    @classmethod
    def point(cls, outcome: int) -> Dist:
        """The outcome ``outcome`` with certainty."""
        import numpy as np

        return cls._raw(np.ones(1), outcome)

    @classmethod
    def uniform(cls, lo: int, hi: int) -> Dist:
        """Every integer from ``lo`` to ``hi`` (both included) equally likely."""
        import numpy as np

        if hi < lo:
            raise ValueError(f"empty range {lo}..{hi}")
        n = hi - lo + 1
        return cls._raw(np.full(n, 1.0 / n), lo)

    @classmethod
    def die(cls, sides: int) -> Dist:
        """One fair die with faces 1..``sides``."""
        return cls.uniform(1, sides)

    @classmethod
    def from_mapping(cls, mapping: Mapping[int, float], *, normalize: bool = False) -> Dist:
        """``{outcome: probability}``; outcomes not named have probability 0."""
        if not mapping:
            raise ValueError("a distribution needs at least one outcome")
        lo, hi = min(mapping), max(mapping)
        if normalize:
            import numpy as np

            arr = np.zeros(hi - lo + 1)
            for outcome, p in mapping.items():
                arr[outcome - lo] += p
            return cls(arr, lo, normalize=True)
        # The checks of ``__init__`` on the values themselves: an answer's few outcomes
        # are read many times a second (the odds), where numpy's checks cost the most; they
        # are kept as Python floats (numpy is not needed to build or read them).
        get = mapping.get  # 0.0 + p: a -0.0 reads as 0.0, as summed into a zero would
        probs = [0.0 + float(get(outcome, 0.0)) for outcome in range(lo, hi + 1)]
        total = sum(probs)
        if not (min(probs) >= 0.0 and total < math.inf):  # a NaN makes the total one
            raise ValueError("probabilities must be finite and non-negative")
        if total <= 0.0:
            raise ValueError("a distribution needs some positive probability")
        if total > 1.0 + _OVERFULL:
            raise ValueError(f"probabilities add up to {total!r}, more than 1")
        if probs[0] == 0.0 or probs[-1] == 0.0:  # outcomes named with probability 0
            first = next(i for i, q in enumerate(probs) if q != 0.0)
            last = len(probs) - next(i for i, q in enumerate(reversed(probs)) if q != 0.0)
            probs, lo = probs[first:last], lo + first
        out = cls.__new__(cls)
        object.__setattr__(out, "_array", None)
        object.__setattr__(out, "_values", tuple(probs))
        object.__setattr__(out, "_offset", lo)
        return out

    @classmethod
    def from_array(cls, probs: npt.ArrayLike, offset: int = 0, *, normalize: bool = False) -> Dist:
        """``probs[i]`` is the probability of ``offset + i`` (the array is copied)."""
        return cls(probs, offset, normalize=normalize)

    @classmethod
    def from_outcomes(cls, outcomes: Iterable[tuple[R, float]], key: Callable[[R], int]) -> Dist:
        """The distribution of ``key(result)`` over a roll's ``outcomes()`` list."""
        merged: dict[int, float] = {}
        for result, p in outcomes:
            k = key(result)
            merged[k] = merged.get(k, 0.0) + p
        return cls.from_mapping(merged)

    @classmethod
    def mix(cls, components: Iterable[tuple[float, Dist]]) -> Dist:
        """The mixture ``sum(weight * dist)``: pick a component with its weight, then roll it.

        Weights are used as given (not renormalised); with weights adding up to
        1 and components of total 1 the mixture has total 1.
        """
        import numpy as np

        parts = [(float(w), d) for w, d in components if w != 0.0]
        if not parts:
            raise ValueError("a mixture needs at least one component of positive weight")
        if any(w < 0.0 or not math.isfinite(w) for w, _ in parts):
            raise ValueError("mixture weights must be finite and non-negative")
        lo = min(d._offset for _, d in parts)
        hi = max(d.max_outcome for _, d in parts)
        arr = np.zeros(hi - lo + 1)
        for w, d in parts:
            start = d._offset - lo
            arr[start : start + len(d._p)] += w * d._p
        return cls(arr, lo)

    # ------------------------------------------------------------- inspection

    @property
    def min_outcome(self) -> int:
        """The smallest outcome with positive probability."""
        return self._offset

    @property
    def max_outcome(self) -> int:
        """The largest outcome with positive probability."""
        return self._offset + self._size() - 1

    @property
    def probs(self) -> FloatArray:
        """The read-only probability array, from ``min_outcome`` to ``max_outcome``."""
        return self._p

    def prob(self, outcome: int) -> float:
        """P(X = outcome)."""
        i = outcome - self._offset
        if not 0 <= i < self._size():
            return 0.0
        values = self._values
        return values[i] if values is not None else float(self._p[i])

    def at_least(self, outcome: int) -> float:
        """P(X >= outcome) (summed over the tail itself, so small tails stay accurate)."""
        i = max(0, outcome - self._offset)
        return float(self._p[i:].sum())

    def at_most(self, outcome: int) -> float:
        """P(X <= outcome)."""
        i = outcome - self._offset + 1
        return float(self._p[: max(0, i)].sum())

    def total(self) -> float:
        """The total mass (1 unless trimmed or mixed with partial weights)."""
        return float(self._p.sum())

    def _outcomes(self) -> npt.NDArray[np.int64]:
        import numpy as np

        return np.arange(self._offset, self._offset + len(self._p), dtype=np.int64)

    def mean(self) -> float:
        """The expectation (of the distribution renormalised to total 1)."""
        import numpy as np

        return float(np.dot(self._outcomes(), self._p)) / self.total()

    def variance(self) -> float:
        """The variance (of the distribution renormalised to total 1)."""
        import numpy as np

        centred = self._outcomes() - self.mean()
        return float(np.dot(centred * centred, self._p)) / self.total()

    def items(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` for every outcome of positive probability, ascending."""
        offset = self._offset
        return [(offset + i, p) for i, p in enumerate(self._floats()) if p > 0.0]

    def __iter__(self) -> Iterator[tuple[int, float]]:
        return iter(self.items())

    def to_dict(self) -> dict[int, float]:
        """``{outcome: probability}`` for every outcome of positive probability."""
        offset = self._offset  # ``items`` as a dict at once
        return {offset + i: p for i, p in enumerate(self._floats()) if p > 0.0}

    # -------------------------------------------------------------- reshaping

    def shift(self, k: int) -> Dist:
        """X + k."""
        return Dist._raw(self._p, self._offset + k)

    def clamp(self, lo: int | None = None, hi: int | None = None) -> Dist:
        """Outcomes below ``lo`` become ``lo``, above ``hi`` become ``hi`` (their mass moves)."""
        import numpy as np

        if lo is not None and hi is not None and hi < lo:
            raise ValueError(f"empty range {lo}..{hi}")
        if lo is not None and lo > self.max_outcome:
            return Dist._raw(np.array([self.total()]), lo)
        if hi is not None and hi < self._offset:
            return Dist._raw(np.array([self.total()]), hi)
        new_lo = self._offset if lo is None else max(lo, self._offset)
        new_hi = self.max_outcome if hi is None else min(hi, self.max_outcome)
        a, b = new_lo - self._offset, new_hi - self._offset
        arr = self._p[a : b + 1].copy()
        arr[0] += self._p[:a].sum()
        arr[-1] += self._p[b + 1 :].sum()
        return Dist._raw(arr, new_lo)

    def map(self, f: Callable[[int], int]) -> Dist:
        """The distribution of f(X) (outcomes sent to the same value add up)."""
        import numpy as np

        merged: dict[int, float] = {}
        for k, p in self.items():
            v = int(f(k))
            merged[v] = merged.get(v, 0.0) + p
        lo, hi = min(merged), max(merged)
        arr = np.zeros(hi - lo + 1)
        for v, p in merged.items():
            arr[v - lo] = p
        return Dist._raw(arr, lo)

    def condition(self, pred: Callable[[int], bool]) -> Dist:
        """X given pred(X): the outcomes kept, renormalised to total 1."""
        import numpy as np

        keep = np.array([bool(pred(int(k))) for k in self._outcomes()], dtype=bool)
        arr = np.where(keep, self._p, 0.0)
        mass = float(arr.sum())
        if mass <= 0.0:
            raise ValueError("the condition has probability 0")
        return Dist._raw(arr / mass, self._offset)

    def trim(self, eps: float) -> Dist:
        """Drop the outermost outcomes while the mass dropped at each end stays <= ``eps``.

        Not renormalised: ``total()`` shows what was dropped. At least one
        outcome is always kept.
        """
        import numpy as np

        if eps <= 0.0:
            return self
        head = np.cumsum(self._p)
        tail = np.cumsum(self._p[::-1])
        a = int(np.searchsorted(head, eps, side="right"))
        b = len(self._p) - int(np.searchsorted(tail, eps, side="right"))
        if a >= b:
            i = int(np.argmax(self._p))
            return Dist._raw(self._p[i : i + 1].copy(), self._offset + i)
        return Dist._raw(self._p[a:b].copy(), self._offset + a)

    # ------------------------------------------------------------- arithmetic

    def __add__(self, other: Dist | int) -> Dist:
        """X + Y for an independent ``Dist`` Y (convolution), or X + k for an int."""
        import numpy as np

        if isinstance(other, Dist):
            return Dist._raw(np.convolve(self._p, other._p), self._offset + other._offset)
        if isinstance(other, int | np.integer):
            return self.shift(int(other))
        return NotImplemented

    def __radd__(self, other: int) -> Dist:
        import numpy as np

        if isinstance(other, int | np.integer):
            return self.shift(int(other))
        return NotImplemented

    def __neg__(self) -> Dist:
        """-X."""
        return Dist._raw(self._p[::-1].copy(), -self.max_outcome)

    def __sub__(self, other: Dist | int) -> Dist:
        """X - Y for an independent ``Dist`` Y, or X - k for an int."""
        import numpy as np

        if isinstance(other, Dist):
            return self + (-other)
        if isinstance(other, int | np.integer):
            return self.shift(-int(other))
        return NotImplemented

    def __rsub__(self, other: int) -> Dist:
        import numpy as np

        if isinstance(other, int | np.integer):
            return (-self).shift(int(other))
        return NotImplemented

    def max(self, other: Dist) -> Dist:
        """max(X, Y) of independent X and Y."""
        import numpy as np

        lo = max(self._offset, other._offset)
        hi = max(self.max_outcome, other.max_outcome)
        cdf = self._cdf(lo, hi) * other._cdf(lo, hi)
        return Dist._raw(np.diff(cdf, prepend=0.0), lo)

    def min(self, other: Dist) -> Dist:
        """min(X, Y) of independent X and Y."""
        return -((-self).max(-other))

    def _cdf(self, lo: int, hi: int) -> FloatArray:
        """P(X <= k) for k in lo..hi."""
        import numpy as np

        cdf = np.cumsum(self._p)
        idx = np.arange(lo, hi + 1) - self._offset
        out = np.where(idx >= 0, cdf[np.clip(idx, 0, len(cdf) - 1)], 0.0)
        return np.asarray(out, dtype=np.float64)

    def sum_of(self, n: int) -> Dist:
        """X1 + ... + Xn of ``n`` independent copies of X (``n = 0`` gives the point 0)."""
        if n < 0:
            raise ValueError("the number of copies cannot be negative")
        result = Dist.point(0)
        base = self
        while n:
            if n & 1:
                result = result + base
            n >>= 1
            if n:
                base = base + base
        return result

    # ------------------------------------------------------------- comparison

    def isclose(self, other: Dist, atol: float = 1e-12) -> bool:
        """True when every outcome has the same probability within ``atol``."""
        import numpy as np

        lo = min(self._offset, other._offset)
        hi = max(self.max_outcome, other.max_outcome)
        a = np.zeros(hi - lo + 1)
        b = np.zeros(hi - lo + 1)
        a[self._offset - lo : self._offset - lo + len(self._p)] = self._p
        b[other._offset - lo : other._offset - lo + len(other._p)] = other._p
        return bool(np.all(np.abs(a - b) <= atol))

    def __eq__(self, other: object) -> bool:
        import numpy as np

        if not isinstance(other, Dist):
            return NotImplemented
        return self._offset == other._offset and np.array_equal(self._p, other._p)

    def __hash__(self) -> int:
        return hash((self._offset, self._p.tobytes()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}: {p:.6g}" for k, p in self.items()[:8])
        more = ", ..." if len(self.items()) > 8 else ""
        return f"Dist({{{shown}{more}}})"
