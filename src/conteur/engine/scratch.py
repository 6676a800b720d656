"""A fast deep copy of a rules state, for scratch runs (exact odds: one run per outcome).

``copy.deepcopy`` is general, and slow on the many small objects of a fight's
state: a function call and a memo entry per number and string, the reduce
protocol for each dataclass. ``scratch_copy`` copies the shapes a state is
made of directly, with the same result:

* atoms (``None``, numbers, strings) and frozen dataclasses (immutable by
  contract: declarations, health levels) are shared, as are tuples of them;
* lists, dicts, sets and mutable dataclasses are new objects, their contents
  copied the same way; a mutable dataclass is copied field by field (the
  fields hold the whole of its state), whatever its own ``__deepcopy__``;
* anything else goes through ``copy.deepcopy`` (an immutable sheet returns
  itself there).

A memo keeps a mutable object reached twice shared in the copy, as ``deepcopy`` does.
"""

from __future__ import annotations

import copy
from typing import Any, TypeVar

T = TypeVar("T")

_ATOMS = frozenset({type(None), bool, int, float, complex, str, bytes})


def scratch_copy(value: T) -> T:
    """A deep copy of ``value`` (a rules state, or any part of one)."""
    if type(value) in _ATOMS:
        return value
    return _copy(value, {})  # type: ignore[no-any-return]


def _copy(x: Any, memo: dict[int, Any]) -> Any:
    """Copy ``x``, which is not an atom."""
    found = memo.get(id(x))
    if found is not None:
        return found
    cls = type(x)
    atoms = _ATOMS
    if cls is dict:
        out_dict: dict[Any, Any] = {}
        memo[id(x)] = out_dict
        for k, v in x.items():
            out_dict[k if type(k) in atoms else _copy(k, memo)] = (
                v if type(v) in atoms else _copy(v, memo)
            )
        return out_dict
    if cls is list:
        out_list: list[Any] = []
        memo[id(x)] = out_list
        out_list.extend(v if type(v) in atoms else _copy(v, memo) for v in x)
        return out_list
    if cls is tuple:
        if all(type(v) in atoms for v in x):
            return x
        items = tuple(v if type(v) in atoms else _copy(v, memo) for v in x)
        return x if all(a is b for a, b in zip(items, x, strict=True)) else items
    if cls is set or cls is frozenset:
        return cls(v if type(v) in atoms else _copy(v, memo) for v in x)
    params = getattr(cls, "__dataclass_params__", None)
    if params is not None and hasattr(x, "__dict__"):
        if params.frozen:
            return x
        new = object.__new__(cls)
        memo[id(x)] = new
        fresh = new.__dict__
        for k, v in x.__dict__.items():
            fresh[k] = v if type(v) in atoms else _copy(v, memo)
        return new
    return copy.deepcopy(x, memo)
