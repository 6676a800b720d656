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

``declare_record`` makes a class being declared (an event, a condition) such a frozen
dataclass of keyword-only fields, as ``@dataclass(frozen=True, kw_only=True)`` and
``lean`` would, with ``__repr__``, ``__eq__`` and ``__hash__`` that read the class's field
names rather than being compiled for it: dataclasses compiles a method at a time with
``exec``, and a start declares about a hundred records (``conteur odds attack``). Their
results are those of the compiled ones, and so are the rules for a method the class
writes itself.

``found_once`` keeps what a look-up by name found in immutable tables, so that the
same name is looked up once.

``CachedReads`` is for immutable pydantic models that keep derived values in
``functools.cached_property`` (a sheet's ratings, a maneuver's effects by type): its
``model_copy`` drops those values from the copy, so that a copy with ``update=``
computes them again from its own fields.
"""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Callable, Mapping
from functools import cached_property
from inspect import Parameter, Signature, signature
from operator import attrgetter
from types import MethodType
from typing import Any, TypeVar

from conteur.runcache import compiled

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
                body.append(f"__lean_dict__[{name!r}] = _factory_{name}()")
            continue  # a plain default is read from the class, as dataclasses do
        param = name
        if has_factory:
            param = f"{name}=NO_VALUE"
            body.append(
                f"__lean_dict__[{name!r}] = _factory_{name}() if {name} is NO_VALUE else {name}"
            )
        else:
            if f.default is not dataclasses.MISSING:
                namespace[f"_default_{name}"] = f.default
                param = f"{name}=_default_{name}"
            body.append(f"__lean_dict__[{name!r}] = {name}")
        (keyword if f.kw_only else positional).append(param)
    if hasattr(cls, "__post_init__"):
        body.append("__lean_self__.__post_init__()")
    # The locals are dunder names, so that no field (``d``, ``self``) can shadow them.
    args = ["__lean_self__", *positional]
    if keyword:
        args += ["*", *keyword]
    lines = "\n    ".join(["__lean_dict__ = __lean_self__.__dict__", *body])
    source = f"def __init__({', '.join(args)}) -> None:\n    {lines}\n"
    # the same technique as dataclasses' own generated methods, compiled once between runs
    exec(compiled(source), namespace)
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


def declare_record(cls: type) -> None:
    """Make ``cls`` a frozen dataclass of keyword-only fields with a lean ``__init__`` and
    ``__repr__``, ``__eq__``, ``__hash__`` read from its fields (see the module's text).

    As dataclasses does, a ``__repr__`` or ``__eq__`` the class defines is kept, and so is
    a ``__hash__`` it defines (not the ``None`` Python puts beside its own ``__eq__``)."""
    own = cls.__dict__
    class_hash = own.get("__hash__", dataclasses.MISSING)
    explicit_hash = not (
        class_hash is dataclasses.MISSING or (class_hash is None and "__eq__" in own)
    )
    wrote_repr, wrote_eq = "__repr__" in own, "__eq__" in own
    lean_on_first_use(cls)
    # frozen: dataclasses still compiles __setattr__/__delattr__ (its check of the bases)
    dataclasses.dataclass(frozen=True, kw_only=True, init=False, repr=False, eq=False)(cls)
    fields = dataclasses.fields(cls)
    if not wrote_repr:
        _set_method(cls, _fields_repr(tuple(f.name for f in fields if f.repr)))
    if not wrote_eq:
        _set_method(cls, _fields_eq(_values_of(tuple(f.name for f in fields if f.compare))))
    if not explicit_hash:
        hashed = tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash))
        _set_method(cls, _fields_hash(_values_of(hashed)))


def _set_method(cls: type, method: Callable[..., Any]) -> None:
    method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
    setattr(cls, method.__name__, method)


def _values_of(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of the fields ``names`` of a record (as the compiled methods build it)."""
    if len(names) >= 2:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda record: (one(record),)
    return lambda record: ()


def _fields_repr(names: tuple[str, ...]) -> Callable[[Any], str]:
    @reprlib.recursive_repr()
    def __repr__(self: Any) -> str:
        shown = ", ".join([f"{name}={getattr(self, name)!r}" for name in names])
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _fields_eq(values: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return __eq__


def _fields_hash(values: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(values(self))

    return __hash__


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
