"""docs/events.md: generated from the code, up to date, and true of the fights played.

The document's "seen by" column comes from each ruleset's ``audiences`` table; the tests
below play every shipped example through the CLI and check that each event it emits was
stamped as the table says (a type the table calls the game master's is GM-only, an owned
type is owned by the combatant its field names), so the document cannot say one thing
while the rules do another.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from typer.testing import CliRunner

from conteur.cli import app
from conteur.engine.events import event_from_dict
from conteur.engine.protocol import json_kind, protocol_document
from conteur.engine.registry import get_ruleset
from conteur.engine.visibility import GM_ONLY, PUBLIC, Visibility, owned_by

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("events_doc", ROOT / "scripts" / "events_doc.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docs_events_md_is_what_the_code_says() -> None:
    script = _script()
    on_disk = (ROOT / "docs" / "events.md").read_text(encoding="utf-8")
    assert on_disk == script.document(), "docs/events.md is stale: run scripts/events_doc.py"


@pytest.mark.parametrize("name", ["vtm", "hunter", "western"])
def test_every_type_the_table_names_is_an_event_type_of_the_ruleset(name: str) -> None:
    ruleset = get_ruleset(name)
    audiences = ruleset.audiences()
    types = {cls.type_name for cls in ruleset.event_types()}
    named = {*audiences.gm, *audiences.owned, *audiences.decided}
    assert named - types == set()
    for type_name, owner_field in audiences.owned.items():
        cls = next(c for c in ruleset.event_types() if c.type_name == type_name)
        assert owner_field in cls.__dataclass_fields__, (type_name, owner_field)


def test_the_document_lists_every_type_with_its_fields() -> None:
    text = _script().document()
    for name in ("vtm", "hunter", "western"):
        assert f"## `{name}`" in text
        for cls in get_ruleset(name).event_types():
            rows = [line for line in text.splitlines() if line.startswith(f"| `{cls.type_name}`")]
            assert len(rows) == 1, cls.type_name
    row = next(line for line in text.splitlines() if line.startswith("| `AttackRolled` "))
    assert row.endswith("| owned by `attacker` |")
    assert "`pool`: integer" in row.split(" | ")[2].split("<br>")


def test_json_kinds() -> None:
    assert json_kind("str") == "string"
    assert json_kind("str | None") == "string or null"
    assert json_kind("tuple[tuple[str, int], ...]") == "array"
    assert json_kind("dict[str, Any]") == "object"
    assert json_kind("Any") == "any"


def test_a_ruleset_installed_beside_documents_its_own_events() -> None:
    duel = get_ruleset("duel")
    text = protocol_document([duel])
    assert text.count("\n| `") == len(duel.event_types()) > 0
    assert "## `duel`" in text


def _examples() -> list[Path]:
    found = [*EXAMPLES.glob("*.yaml"), *EXAMPLES.glob("*/*.yaml")]
    return sorted(
        p for p in found if p.with_suffix(".txt").exists() and p.with_suffix(".dice").exists()
    )


def _played(path: Path) -> dict[str, Any]:
    args = ["play", str(path), "--script", str(path.with_suffix(".txt"))]
    args += ["--dice", str(path.with_suffix(".dice")), "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def _expected(name: str, event: Any) -> Visibility | None:
    """What the table alone says of ``event`` (None: decided by the ruleset or by default)."""
    audiences = get_ruleset(name).audiences()
    if not event.public or event.type_name in audiences.gm:
        return GM_ONLY
    owner_field = audiences.owned.get(event.type_name)
    if owner_field is not None:
        return owned_by(getattr(event, owner_field))
    return None


@pytest.mark.parametrize("path", _examples(), ids=lambda p: p.relative_to(EXAMPLES).as_posix())
def test_the_fights_played_stamp_what_the_document_says(path: Path) -> None:
    fight = _played(path)
    name = fight["ruleset"]
    fallback_public = not get_ruleset(name).audiences().fallback
    checked = 0
    for entry in fight["log"]:
        for data in entry.get("events", []):
            event = event_from_dict(data)
            expected = _expected(name, event)
            undecided = event.type_name not in get_ruleset(name).audiences().decided
            if expected is None and undecided and (fallback_public or not event.rolls):
                expected = PUBLIC  # vtm's fallback: public unless it carries dice
            if expected is not None:
                assert event.seen == expected, (event.type_name, event.seen, expected)
                checked += 1
    assert checked > 0


@pytest.mark.parametrize("name", ["vtm", "hunter", "western"])
def test_every_event_type_says_what_it_records_in_its_own_words(name: str) -> None:
    """A type without a docstring would be documented by its generated signature."""
    unsaid = [
        cls.type_name
        for cls in get_ruleset(name).event_types()
        if not (cls.__dict__.get("__doc__") or "").strip()
        or cls.__dict__["__doc__"].startswith(f"{cls.__name__}(")
    ]
    assert unsaid == []
