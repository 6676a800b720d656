"""Lean records: frozen dataclasses whose ``__init__`` costs what a plain class's does.

A frozen dataclass's generated ``__init__`` sets each field with
``object.__setattr__(self, name, value)`` (its own ``__setattr__`` refuses): a
function call per field. A simulated fight builds over a thousand such records
(events, actions, rolls, commands), and those calls were the largest single cost
left once commands stopped copying the state. ``lean_init(cls)`` writes an
``__init__`` with the same signature — positional and keyword-only fields, defaults,
default factories, ``__post_init__`` — that stores the fields straight into the
new instance's ``__dict__``. Nothing else changes: the record stays frozen
(assignment still raises), hashable and equal field by field, ``fields``,
``replace``, ``repr`` and pickling work as before.

``lean`` is the class decorator (above ``@dataclass(frozen=True)``); the engine's
``Event`` gives every event class its lean ``__init__`` by itself. Not for slotted
dataclasses (no ``__dict__``), ``InitVar`` fields, or classes with their own
``__init__``.

``found_once`` keeps what a look-up by name found in immutable tables, so that the
same name is looked up once.

``CachedReads`` is for immutable pydantic models that keep derived values in
``functools.cached_property`` (a sheet's ratings, a maneuver's effects by type): its
``model_copy`` drops those values from the copy, so that a copy with ``update=``
computes them again from its own fields.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from functools import cached_property
from inspect import Parameter, Signature, signature
from types import MethodType
from typing import Any, TypeVar

T = TypeVar("T", bound=type)
V = TypeVar("V")


class _NoValue:
    """The default of a field with a default factory (the factory is called instead)."""

    def __repr__(self) -> str:
        return "<factory>"


NO_VALUE: Any = _NoValue()


def lean_init(cls: type) -> Callable[..., None]:
    """An ``__init__`` for the frozen dataclass ``cls`` storing fields into ``__dict__``."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" in cls.__dict__:
        raise TypeError(f"lean_init: {cls.__qualname__} is not a frozen dataclass with a __dict__")
    positional: list[str] = []
    keyword: list[str] = []
    body: list[str] = []
    namespace: dict[str, Any] = {"NO_VALUE": NO_VALUE}
    fields = dataclasses.fields(cls)  # the real fields, in order (no ClassVar, no InitVar)
    real = {f.name for f in fields}
    for name, f in getattr(cls, "__dataclass_fields__", {}).items():
        if name not in real and "InitVar" in str(f.type):
            raise TypeError(f"lean_init: {cls.__qualname__}.{name} is an InitVar")
    for f in fields:
        name = f.name
        has_factory = f.default_factory is not dataclasses.MISSING
        if has_factory:
            namespace[f"_factory_{name}"] = f.default_factory
        if not f.init:
            if has_factory:
                body.append(f"d[{name!r}] = _factory_{name}()")
            continue  # a plain default is read from the class, as dataclasses do
        param = name
        if has_factory:
            param = f"{name}=NO_VALUE"
            body.append(f"d[{name!r}] = _factory_{name}() if {name} is NO_VALUE else {name}")
        else:
            if f.default is not dataclasses.MISSING:
                namespace[f"_default_{name}"] = f.default
                param = f"{name}=_default_{name}"
            body.append(f"d[{name!r}] = {name}")
        (keyword if f.kw_only else positional).append(param)
    if hasattr(cls, "__post_init__"):
        body.append("self.__post_init__()")
    args = ["self", *positional]
    if keyword:
        args += ["*", *keyword]
    lines = "\n    ".join(["d = self.__dict__", *body])
    source = f"def __init__({', '.join(args)}) -> None:\n    {lines}\n"
    exec(source, namespace)  # the same technique as dataclasses' own generated methods
    init: Callable[..., None] = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__annotations__ = {f.name: f.type for f in fields if f.init} | {"return": None}
    return init


def lean(cls: T) -> T:
    """Give the frozen dataclass ``cls`` a lean ``__init__`` (see the module's text)."""
    cls.__init__ = lean_init(cls)  # type: ignore[misc]
    return cls


def lean_on_first_use(cls: type) -> None:
    """Give ``cls`` an ``__init__`` that installs its lean one at the first instance.

    For a base class's ``__init_subclass__``: the subclass is not a dataclass yet when
    it runs, and ``@dataclass`` keeps an ``__init__`` the class already has. Nothing is
    done when the class defines its own ``__init__``. Until then ``inspect.signature``
    reads the dataclass's own signature, so a class without a docstring gets the one
    ``@dataclass`` writes from it (``Name(field: 'type' = default, ...)``), as before.
    """
    if "__init__" not in cls.__dict__:
        cls.__init__ = _FirstInit(cls)  # type: ignore[misc]


class _FirstInit:
    """The placeholder ``__init__`` of ``lean_on_first_use`` (a method descriptor)."""

    def __init__(self, owner: type) -> None:
        self.owner = owner
        self.__qualname__ = f"{owner.__qualname__}.__init__"

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        return MethodType(self, instance)

    def __call__(self, instance: Any, *args: Any, **kwargs: Any) -> None:
        cls = self.owner
        if "__dataclass_fields__" not in cls.__dict__:  # not a dataclass: its parent's __init__
            del cls.__init__  # type: ignore[misc]
            cls.__init__(instance, *args, **kwargs)  # type: ignore[misc]
            return
        init = lean_init(cls)
        cls.__init__ = init  # type: ignore[misc]
        init(instance, *args, **kwargs)

    @property
    def __signature__(self) -> Signature:
        cls = self.owner
        if "__dataclass_fields__" not in cls.__dict__:
            return Signature([Parameter("self", Parameter.POSITIONAL_ONLY)])
        return signature(lean_init(cls))


class CachedReads:
    """Mixin for a frozen pydantic model with ``cached_property`` reads (see the module's text)."""

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Any:
        copied = super().model_copy(update=update, deep=deep)  # type: ignore[misc]
        for cls in type(self).__mro__:
            for name, value in vars(cls).items():
                if isinstance(value, cached_property):
                    copied.__dict__.pop(name, None)
        return copied


def found_once(found: dict[str, V], ref: str, look: Callable[[str], V]) -> V:
    """What ``look`` finds for ``ref``, kept in ``found`` by that reference: tables that never
    change look a name up once. A reference that is no string is looked up every time."""
    if not isinstance(ref, str):
        return look(ref)
    hit = found.get(ref)
    if hit is None:
        hit = found[ref] = look(ref)
    return hit
