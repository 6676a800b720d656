"""Answers kept on a state while it stands: what rule code computed from it, asked again.

A simulated fight asks the same questions of the same state several times — whether an
action is still valid when the tactic picks it and again when the command takes it. The
state changes only by folding events (the rulesets' contract), so an answer computed from
it stays true until the next event is folded: ``answers(state)`` is a dict kept in the
state's own ``__dict__``, and every fold drops it (``forget``: ``Resolution.emit``,
``fold``, ``Encounter.replay`` and ``catch_up``; a restore replaces the whole ``__dict__``).

A copy of the state never carries them: ``copy.copy`` (a state with a fighter moved, to
read distances from) shares the ``__dict__``'s values, so the answers name the state they
belong to (``owner``, its ``id``) and a copy finds none of its own; ``deepcopy`` and
pickling give an empty set.
"""

from __future__ import annotations

from typing import Any

KEY = "_answers"
"""The key of the answers in the state's ``__dict__`` (not a dataclass field: states
compare equal with or without them)."""


class Answers(dict[Any, Any]):
    """The answers kept for the state whose ``id`` is ``owner``."""

    __slots__ = ("owner",)

    def __init__(self, owner: int = 0) -> None:
        super().__init__()
        self.owner = owner

    def __copy__(self) -> Answers:
        return Answers()

    def __deepcopy__(self, memo: dict[int, Any]) -> Answers:
        return Answers()

    def __reduce__(self) -> tuple[type[Answers], tuple[()]]:
        return Answers, ()


def answers(state: Any) -> Answers:
    """The answers kept for ``state`` as it stands now (a new, empty set after a fold)."""
    fields = state.__dict__
    found: Answers | None = fields.get(KEY)
    if found is None or found.owner != id(state):
        found = fields[KEY] = Answers(id(state))
    return found


def forget(state: Any) -> None:
    """Drop the answers kept for ``state`` (an event is about to be folded into it)."""
    fields = getattr(state, "__dict__", None)
    if fields is not None:
        fields.pop(KEY, None)
