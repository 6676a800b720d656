"""A fast deep copy of a rules state, for scratch runs (exact odds: one run per outcome).

``copy.deepcopy`` is general, and slow on the many small objects of a fight's
state: a function call and a memo entry per number and string, the reduce
protocol for each dataclass. Here the shapes a state is made of are copied
directly, with the same result:

* atoms (``None``, numbers, strings) and frozen dataclasses (immutable by
  contract: declarations, health levels) are shared, as are tuples of them;
* lists, dicts, sets and mutable dataclasses are new objects, their contents
  copied the same way; a mutable dataclass is copied field by field (the
  fields hold the whole of its state), whatever its own ``__deepcopy__``;
* anything else goes through ``copy.deepcopy`` (an immutable sheet returns
  itself there).

``scratch_copy(value)`` copies once. ``scratch_copier(value)`` studies
``value`` once and returns a function that makes a fresh copy of it each
time it is called — for code that needs many copies of a state that does not
change meanwhile (the odds of an attack run what follows the dice on one copy
per group of outcomes): a list or dict of atoms is then one C-level copy.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_ATOMS = frozenset({type(None), bool, int, float, complex, str, bytes})


def scratch_copy(value: T) -> T:
    """A deep copy of ``value`` (a rules state, or any part of one)."""
    if type(value) in _ATOMS:
        return value
    return _copy(value, {})  # type: ignore[no-any-return]


def scratch_copier(value: T) -> Callable[[], T]:
    """A function returning a fresh deep copy of ``value`` at each call.

    ``value`` must not change while the function is in use. A state in which
    one mutable object is reached twice is copied with ``scratch_copy`` each
    time (the plan below would copy it twice).
    """
    try:
        return _maker(_plan(value, set()))
    except _Shared:
        return lambda: scratch_copy(value)


class _Shared(Exception):
    """A mutable object is reached twice: the plan would break the sharing."""


Plan = tuple[bool, Any]
"""``(True, value)``: share ``value`` as it is; ``(False, make)``: ``make()`` builds a copy."""


def _maker(plan: Plan) -> Callable[[], Any]:
    shared, what = plan
    return (lambda: what) if shared else what


def _plan(x: Any, seen: set[int]) -> Plan:
    """How to rebuild ``x``."""
    cls = type(x)
    if cls in _ATOMS:
        return True, x
    params = getattr(cls, "__dataclass_params__", None)
    if params is not None and params.frozen and hasattr(x, "__dict__"):
        return True, x
    if cls is tuple:
        if all(type(v) in _ATOMS for v in x):  # the common case, without a plan per item
            return True, x
        plans = [_plan(v, seen) for v in x]
        if all(shared for shared, _ in plans):
            return True, x
        makers = [_maker(p) for p in plans]
        return False, lambda: tuple(make() for make in makers)
    if id(x) in seen:
        raise _Shared
    seen.add(id(x))
    if cls is dict:
        if any(type(k) not in _ATOMS for k in x):
            return False, lambda: scratch_copy(x)
        atoms = _ATOMS
        deep = [
            (k, plan)
            for k, v in x.items()
            if type(v) not in atoms and not (plan := _plan(v, seen))[0]
        ]
        if not deep:
            return False, x.copy
        items = [(k, make) for k, (_, make) in deep]

        def dict_copy() -> dict[Any, Any]:
            out: dict[Any, Any] = x.copy()
            for k, make in items:
                out[k] = make()
            return out

        return False, dict_copy
    if cls is list:
        if all(type(v) in _ATOMS for v in x):
            return False, x.copy
        plans = [_plan(v, seen) for v in x]
        if all(shared for shared, _ in plans):
            return False, x.copy
        makers = [_maker(p) for p in plans]
        return False, lambda: [make() for make in makers]
    if params is not None and hasattr(x, "__dict__"):
        fields = x.__dict__
        deep_fields = [
            (k, make)
            for k, v in fields.items()
            if type(v) not in _ATOMS
            for shared, make in [_plan(v, seen)]
            if not shared
        ]
        new = object.__new__

        def dataclass_copy() -> Any:
            out = new(cls)
            state = out.__dict__
            state.update(fields)
            for k, make in deep_fields:
                state[k] = make()
            return out

        return False, dataclass_copy
    if hasattr(x, "__deepcopy__") and x.__deepcopy__({}) is x:
        return True, x  # immutable by its own account (a sheet, the tables)
    return False, lambda: scratch_copy(x)


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
