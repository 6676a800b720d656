"""The engine, independent of any ruleset: commands, events, encounters, registry."""

from .commands import Command, CommandTemplate, Param
from .encounter import CommandEntry, Encounter, UndoEntry, entry_from_dict
from .events import Event, EventList, event_from_dict, event_types
from .registry import available_rulesets, get_ruleset, register_ruleset
from .ruleset import Resolution, Ruleset

__all__ = [
    "Command",
    "CommandEntry",
    "CommandTemplate",
    "Encounter",
    "Event",
    "EventList",
    "Param",
    "Resolution",
    "Ruleset",
    "UndoEntry",
    "available_rulesets",
    "entry_from_dict",
    "event_from_dict",
    "event_types",
    "get_ruleset",
    "register_ruleset",
]
