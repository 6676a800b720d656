"""The rule catalogue: every rule id a ruleset implements, with its title and summary.

Each ruleset ships ``data/rules.yaml`` (an option pack too), mapping each rule id
(``V-DMG-4``, ``R-SHOT-1``, ...) to a title and a one-line summary in French and
English::

    V-DMG-4:
      fr: {title: "...", summary: "..."}
      en: {title: "...", summary: "..."}

Code, tests and docs cite these ids; ``load_rule_texts`` reads and checks one
file, a ruleset's ``rule_texts()`` gives its own, and ``describe_rule`` finds an
id across the rulesets of the registry.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, partial
from importlib import resources
from types import MappingProxyType
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError, field_validator
from pydantic_core import ErrorDetails

from conteur.i18n import ConteurError, Lang, Msg, env_lang, t

from .registry import available_rulesets, get_ruleset

RULE_ID = re.compile(r"^[A-Z]-[A-Z]+-\d+$")
"""How a rule id is written: a ruleset letter, a section, a number (``H-CHANCE-1``)."""


def rules_applied(*rules: tuple[str, bool]) -> tuple[str, ...]:
    """The ids of the rules that applied, in the order given: each ``(id, applied)``."""
    return tuple(rule for rule, applied in rules if applied)


@dataclass(frozen=True)
class RuleText:
    """One rule of the catalogue: its id, and its title and summary in each language."""

    id: str
    title_fr: str
    title_en: str
    summary_fr: str
    summary_en: str

    def title(self, lang: Lang | None = None) -> str:
        """The title in ``lang`` (default: ``CONTEUR_LANG``)."""
        return self.title_en if (lang or env_lang()) == "en" else self.title_fr

    def summary(self, lang: Lang | None = None) -> str:
        """The one-line summary in ``lang`` (default: ``CONTEUR_LANG``)."""
        return self.summary_en if (lang or env_lang()) == "en" else self.summary_fr

    def text(self, lang: Lang | None = None) -> tuple[str, str]:
        """``(title, summary)`` in ``lang``."""
        return self.title(lang), self.summary(lang)

    def describe(self, lang: Lang | None = None) -> str:
        """``V-DMG-4 — title: summary``, written the way ``lang`` writes it."""
        title, summary = self.text(lang)
        return t("rules.describe", lang, id=self.id, title=title, summary=summary)


# ---------------------------------------------------------------------------- the file


# defer_build: the validators are built when a catalogue is first read, not by every command
# that imports the rule kit (``conteur odds attack`` reads none).
class _Text(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, defer_build=True)

    title: str
    summary: str

    @field_validator("title", "summary")
    @classmethod
    def _one_line(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("rules.reason.empty")
        if "\n" in value.strip():
            raise ValueError("rules.reason.one_line")
        return value.strip()


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    fr: _Text
    en: _Text


_REASONS = {
    "missing": "rules.reason.missing",
    "extra_forbidden": "rules.reason.unknown_field",
    "string_type": "rules.reason.not_text",
    "model_type": "rules.reason.not_mapping",
    "model_attributes_type": "rules.reason.not_mapping",
    "dict_type": "rules.reason.not_mapping",
}


def _reason(error: ErrorDetails) -> Msg:
    kind = error["type"]
    if kind == "value_error":
        return Msg(str(error.get("ctx", {}).get("error", "rules.reason.empty")))
    if kind in _REASONS:
        return Msg(_REASONS[kind], value=_short(error.get("input")))
    return Msg("rules.reason.other", detail=error["msg"])


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


_SAFE_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser where it is installed (ten times faster), else the pure-Python one."""


class _UniqueKeyLoader(_SAFE_LOADER):  # type: ignore[misc,valid-type]
    """A safe YAML loader that refuses a key given twice (a rule id defined twice)."""


def _mapping(loader: _UniqueKeyLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    seen: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node)
        if key in seen:
            raise _DuplicateKey(str(key))
        seen[key] = loader.construct_object(value_node, deep=True)
    return seen


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def parse_rule_texts(text: str, source: str) -> dict[str, RuleText]:
    """The rules of one catalogue file's ``text``, in file order (ConteurError when bad).

    Errors name the file (``source``), the entry (the rule id) and the field
    (``fr.summary``): ``rules.unreadable`` for a file that is not YAML,
    ``rules.invalid`` for one that is not a catalogue.
    """
    invalid = partial(ConteurError, "rules.invalid", file=source)
    try:
        raw = yaml.load(text, Loader=_UniqueKeyLoader)
    except _DuplicateKey as dup:
        raise invalid(entry=dup.key, field="id", reason=Msg("rules.reason.duplicate")) from None
    except yaml.YAMLError as exc:
        raise ConteurError("rules.unreadable", file=source, detail=str(exc)) from None
    if not isinstance(raw, dict) or not raw:
        raise invalid(entry="-", field="-", reason=Msg("rules.reason.no_rules", value=_short(raw)))
    found: dict[str, RuleText] = {}
    for key, fields in raw.items():
        rule_id = str(key)
        if not RULE_ID.match(rule_id):
            raise invalid(entry=rule_id, field="id", reason=Msg("rules.reason.bad_id"))
        try:
            entry = _Entry.model_validate(fields)
        except ValidationError as exc:
            errors = exc.errors()
            # an unknown field first: a misspelt one is also reported missing
            error = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
            field = ".".join(str(part) for part in error["loc"]) or "-"
            raise invalid(entry=rule_id, field=field, reason=_reason(error)) from None
        found[rule_id] = RuleText(
            rule_id, entry.fr.title, entry.en.title, entry.fr.summary, entry.en.summary
        )
    return found


@cache
def _load(package: str, resource: str) -> Mapping[str, RuleText]:
    source = f"{package}/{resource}"
    try:
        text = resources.files(package).joinpath(resource).read_text(encoding="utf-8")
    except (OSError, ModuleNotFoundError) as exc:
        raise ConteurError("rules.unreadable", file=source, detail=str(exc)) from None
    return MappingProxyType(parse_rule_texts(text, source))


def load_rule_texts(package: str, resource: str = "data/rules.yaml") -> dict[str, RuleText]:
    """The rules of ``resource`` inside ``package``, in file order (read once, then cached)."""
    return dict(_load(package, resource))


# ------------------------------------------------------------------------ across rulesets


def all_rule_texts() -> dict[str, RuleText]:
    """Every rule of every ruleset the registry can load, ruleset by ruleset."""
    return dict(_rule_index(tuple(available_rulesets())))


@cache
def _rule_index(names: tuple[str, ...]) -> Mapping[str, RuleText]:
    """The rules of the rulesets ``names`` (read once per set of installed rulesets)."""
    found: dict[str, RuleText] = {}
    for name in names:
        found.update(get_ruleset(name).rule_texts())
    return MappingProxyType(found)


def describe_rule(rule_id: str, lang: Lang | None = None) -> str | None:
    """``V-DMG-4 — title: summary`` in ``lang``, or None when no ruleset knows the id."""
    text = _rule_index(tuple(available_rulesets())).get(rule_id)
    return text.describe(lang) if text is not None else None
