"""Checking a character before it is stored, and reading and writing character files.

A sheet is validated by its ruleset's ``load_sheet(data, source)`` (the
ruleset contract; a ruleset's own sheets accept French and English names).
The carried state is checked by the ruleset's ``check_combatant`` (by default,
starting a one-character encounter with it): whatever the ruleset refuses there
(an unknown health mark, an unknown weapon's ammunition) is refused here too.

Character files (YAML or JSON) hold one character or a list of them; each is
either a bare sheet or ``{sheet: {...}, state: {...}}`` (what ``export`` writes).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import yaml
from pydantic import BaseModel

from conteur.engine import get_ruleset
from conteur.engine.inputs import MAX_DEPTH, InputError, depth, with_file
from conteur.i18n import ConteurError, Msg

Format = Literal["yaml", "json"]
SheetLoader = Callable[[Mapping[str, Any], str], Any]

EXPORT_FORMAT = "conteur.character"
EXPORT_KEYS = frozenset({"format", "version", "ruleset", "sheet", "state"})

CAMPAIGN_ONLY = frozenset({"reputation", "experience", "fate", "notes"})
"""State keys kept between fights but not read by an encounter (counters, the fate of the last)."""


@dataclass(frozen=True)
class CheckedCharacter:
    """A sheet and state that passed the ruleset's checks, with the id and name they give."""

    slug: str
    name: str
    sheet: dict[str, Any]
    state: dict[str, Any]
    scenario_sheet: dict[str, Any]
    """The sheet as a scenario carries it (canonical keys when the loader gives them)."""


def sheet_loader(ruleset: str) -> SheetLoader:
    """The function that validates a sheet of ``ruleset`` (its ``load_sheet``)."""
    return get_ruleset(ruleset).load_sheet


def json_ready(value: Any, source: str) -> Any:
    """``value`` as plain JSON data (dates and other YAML types refused with a clear error)."""
    try:
        return json.loads(json.dumps(value, ensure_ascii=False))
    except (TypeError, ValueError) as exc:
        raise ConteurError("store.import.not_json", source=source, reason=str(exc)) from None


def scenario_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a character's carried state that an encounter starts from."""
    return {k: v for k, v in state.items() if k not in CAMPAIGN_ONLY}


def check_character(
    ruleset: str,
    sheet: Any,
    state: Any,
    source: str,
    *,
    era: str | None = None,
    packs: list[Any] | None = None,
    options: Mapping[str, Any] | None = None,
) -> CheckedCharacter:
    """Validate ``sheet`` and ``state`` for ``ruleset``; ConteurError naming the field otherwise."""
    if not isinstance(sheet, Mapping):
        raise ConteurError("store.import.not_mapping", source=source, value=_short(sheet))
    if state is None:
        state = {}
    if not isinstance(state, Mapping):
        raise ConteurError("store.character.state_not_mapping", source=source)
    sheet = json_ready(dict(sheet), source)
    state = json_ready(dict(state), source)
    _check_counters(state)
    loader = sheet_loader(ruleset)
    validated = loader(sheet, source)
    inline = canonical_sheet(validated, loader) or sheet
    slug = str(getattr(validated, "id", "") or sheet.get("id") or sheet.get("name") or "").strip()
    name = str(getattr(validated, "name", "") or sheet.get("name") or slug).strip()
    scenario: dict[str, Any] = {
        "ruleset": ruleset,
        "packs": list(packs or []),
        "options": dict(options or {}),
        "combatants": [{"id": slug or "character", "sheet": inline, **scenario_state(state)}],
    }
    if era:
        scenario["era"] = era
    try:
        with with_file(source):
            get_ruleset(ruleset).check_combatant(scenario)
    except InputError as error:
        if getattr(error.params["entry"], "key", "") != "input.entry.sheet":  # the state's
            error.params["entry"] = Msg("input.entry.character", id=slug or "character")
        raise  # it names the file, the entry and the field already
    except ConteurError as error:
        field = _field_of(error, state)
        if field is None:
            raise
        raise ConteurError(
            "store.character.state",
            source=source,
            field=field,
            reason=Msg(error.key, **error.params),
        ) from None
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        # A value of the wrong type the ruleset did not check itself ("beaucoup" for an int).
        field, value = _culprit(str(exc), state)
        raise ConteurError(
            "store.character.state",
            source=source,
            field=field,
            reason=Msg("store.character.bad_value", value=value),
        ) from None
    return CheckedCharacter(slug or _slugify(name), name or slug, sheet, state, inline)


def canonical_sheet(validated: Any, loader: SheetLoader | None) -> dict[str, Any] | None:
    """The validated sheet written back with its canonical keys, if it loads back the same.

    Scenarios carry this form rather than the sheet as the user wrote it: an
    encounter fills in keys (``kind``, ``name``) under their English names, which
    would clash with the same keys written in French. Inline weapons and armour
    (kept apart as ``custom_*`` by a pydantic sheet) go back inline. None when the
    sheet is no pydantic model or does not load back equal.
    """
    if loader is None or not isinstance(validated, BaseModel):
        return None
    data = validated.model_dump(mode="json", exclude_defaults=True)
    custom = {w.get("id"): w for w in data.pop("custom_weapons", []) if isinstance(w, dict)}
    if custom and isinstance(data.get("weapons"), list):
        data["weapons"] = [custom.get(w, w) for w in data["weapons"]]
    armour = data.pop("custom_armour", None)
    if armour:
        data["armour"] = armour
    try:
        same = loader(data, "<canonical>") == validated
    except ConteurError:
        same = False
    return data if same else None


def _check_counters(state: Mapping[str, Any]) -> None:
    for key in ("reputation", "experience"):
        value = state.get(key)
        if value is None:
            continue
        counters = value.values() if isinstance(value, Mapping) else [value]
        for count in counters:
            if isinstance(count, bool) or not isinstance(count, int):
                raise ConteurError("store.character.counter", field=key, value=_short(count))


def _field_of(error: ConteurError, state: Mapping[str, Any]) -> str | None:
    """The state field an encounter's refusal is about, or None when it is not about the state."""
    if error.key.endswith(".health") and "health" in state:
        return "health"
    values = [str(v) for v in error.params.values() if isinstance(v, str | int) and str(v)]
    for key, value in state.items():
        if key in CAMPAIGN_ONLY:
            continue
        text = json.dumps(value, ensure_ascii=False)
        if key in error.key or any(v in text for v in values):
            return str(key)
    return None


def _culprit(message: str, state: Mapping[str, Any]) -> tuple[str, str]:
    """The state field (and its value) a bare Python error message is about, as best we can."""
    for key, value in state.items():
        if key in CAMPAIGN_ONLY:
            continue
        leaves = (
            value.values()
            if isinstance(value, Mapping)
            else (value if isinstance(value, list) else [value])
        )
        for leaf in leaves:
            if str(leaf) and str(leaf) in message:
                return str(key), _short(leaf)
    return "-", _short(message)


def _slugify(name: str) -> str:
    return re.sub(r"[^a-z0-9_]+", "_", name.lower()).strip("_") or "character"


def _short(value: Any) -> str:
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= 60 else text[:57] + "..."


# ------------------------------------------------------------------ files


def parse_format(value: str | None, source: str = "") -> Format:
    """``yaml`` or ``json`` from a format name or a file name (YAML when unknown and no name)."""
    if value is None:
        lowered = source.lower()
        return "json" if lowered.endswith(".json") else "yaml"
    lowered = value.lower().lstrip(".")
    if lowered in ("yaml", "yml"):
        return "yaml"
    if lowered == "json":
        return "json"
    raise ConteurError("store.import.format", value=value)


@dataclass(frozen=True)
class FileCharacter:
    """One character read from a file: where it is, its sheet, state and ruleset (if named)."""

    source: str
    sheet: Any
    state: Any
    ruleset: str | None = None


def parse_character_file(text: str, fmt: Format, source: str) -> list[FileCharacter]:
    """The characters of a file; ConteurError when unreadable."""
    try:
        if fmt == "json":
            try:
                data = json.loads(text)
            except json.JSONDecodeError as exc:
                raise ConteurError(
                    "store.import.bad_json", source=source, line=exc.lineno, column=exc.colno
                ) from None
        else:
            try:
                data = yaml.safe_load(text)
            except yaml.YAMLError as exc:
                if "nesting depth" in str(exc):
                    raise RecursionError from None
                mark = getattr(exc, "problem_mark", None)
                line = mark.line + 1 if mark is not None else 0
                raise ConteurError("store.import.bad_yaml", source=source, line=line) from None
    except RecursionError:
        data = None
        nested = MAX_DEPTH + 1
    else:
        nested = depth(data)
    if nested > MAX_DEPTH:
        raise InputError(Msg("input.reason.too_deep", limit=MAX_DEPTH), file=source)
    if isinstance(data, Mapping) and isinstance(data.get("characters"), list):
        data = data["characters"]
    items = data if isinstance(data, list) else [data]
    if not items or data is None:
        raise ConteurError("store.import.empty", source=source)
    out: list[FileCharacter] = []
    for i, item in enumerate(items):
        where = f"{source}[{i + 1}]" if isinstance(data, list) else source
        if not isinstance(item, Mapping):
            raise ConteurError("store.import.not_mapping", source=where, value=_short(item))
        if item.get("format") == EXPORT_FORMAT or "sheet" in item:
            unknown = sorted(set(map(str, item)) - EXPORT_KEYS)
            if unknown:
                raise ConteurError(
                    "store.import.field",
                    source=where,
                    field=unknown[0],
                    known=", ".join(sorted(EXPORT_KEYS)),
                )
            ruleset = item.get("ruleset")
            out.append(
                FileCharacter(
                    where, item.get("sheet"), item.get("state"), str(ruleset) if ruleset else None
                )
            )
        else:
            out.append(FileCharacter(where, item, None))
    return out


def dump_characters(items: list[dict[str, Any]], fmt: Format) -> str:
    """Characters written as YAML or JSON (one mapping, or a list when several)."""
    data: Any = items[0] if len(items) == 1 else {"characters": items}
    if fmt == "json":
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    return str(yaml.safe_dump(data, allow_unicode=True, sort_keys=False))
