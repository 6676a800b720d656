"""Outside ``src/conteur/rulesets/`` nothing names a ruleset: the seam holds.

A newcomer adds a game by writing its package and declaring it in the entry-point
groups ``conteur.rulesets`` (the ruleset) and ``conteur.cli`` (its command-line
parts); nothing else in conteur changes. So no module, template, script, static file
or catalogue of the package outside ``rulesets/`` may name a ruleset (``vtm``...) or
a command or maneuver only one ruleset has (``gm_heal``, ``knockout``...).

A ruleset's terms are its name and what its contract's ``Ruleset.vocabulary()`` gives
(its command types, the maneuvers of its tables in every era and option pack, the kinds
of its actions): the check reads no ruleset's internals. A term two rulesets share
(``act``, ``pass``, ``attack``) is generic. ``ALLOWED`` lists the few one-ruleset terms that are also plain words,
each with the sense it has outside the rulesets.

Words are compared as lower-case tokens: identifiers are split at underscores,
dashes, dots and camel case (``VtmPool`` is *vtm pool*, ``vtm_odds`` is *vtm odds*),
and a term of several tokens (``weapon_strike``) matches them in a row.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from conteur.engine.registry import available_rulesets, get_ruleset

SRC = Path(__file__).resolve().parents[1] / "src" / "conteur"
RULESETS = SRC / "rulesets"

ALLOWED = {
    # The engine's generic turn in two phases: ``Ruleset.turn_view``'s default (and the
    # tracker) read the actors of the ``declare``/``act`` templates.
    "declare",
    # The engine's own command (``Encounter.undo``), which a script language names too.
    "undo",
    # The engine's generic command for a tie the rules leave to the game master
    # (``conteur.engine.commands.SETTLE_TIE``), which one ruleset offers so far.
    "settle_tie",
    # Plain words in their plain sense, not the one game's command of that name:
    "run",  # running a command, a simulation, a server
    "delay",  # the login throttle's delay between attempts
    "draw",  # ``Draw`` gives a die its next face; a fight with no winner is a draw
    "escape",  # the simulator's escape distance; escaping text
    "round",  # Python's ``round()``
    "move",  # geometry: moving a position toward another
    "hold",  # fields, rows and options that hold values
    "block",  # Jinja's ``{% block %}``, CSS's ``display: block``
    "bind",  # SQL bind parameters (SQLAlchemy, Alembic)
    "release",  # the browser's Wake Lock API: ``wakeLock.release()``
    "abort",  # SQLite's ``RAISE(ABORT, ...)``
    "sweep",  # a parameter sweep: a simulation over a range of values (``--sweep``)
}

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_TOKEN = re.compile(r"[a-z0-9]+")


def tokens(text: str) -> list[str]:
    """``text`` as lower-case word tokens (``VtmPool.roll_strikes`` → vtm pool roll strikes)."""
    return _TOKEN.findall(_CAMEL.sub(" ", text).lower())


def terms_of(name: str) -> set[str]:
    """The commands and maneuvers of ruleset ``name``, as its contract gives them: its name
    and its ``vocabulary()`` (command types, the maneuvers of its tables, the kinds of its
    actions)."""
    return {name, *get_ruleset(name).vocabulary()}


@cache
def forbidden() -> dict[str, str]:
    """Each term that names one ruleset only, with that ruleset."""
    by_ruleset = {name: terms_of(name) for name in available_rulesets()}
    count = Counter(term for terms in by_ruleset.values() for term in terms)
    return {
        term: name
        for name, terms in by_ruleset.items()
        for term in terms
        if (count[term] == 1 or term == name) and term not in ALLOWED
    }


def scanned_files() -> list[Path]:
    """Every file of the package outside ``rulesets/`` (source, templates, static, catalogs)."""
    return sorted(
        p
        for p in SRC.rglob("*")
        if p.is_file()
        and RULESETS not in p.parents
        and "__pycache__" not in p.parts
        and not p.name.endswith(".min.js")  # a vendored library (htmx), not conteur's
    )


def test_the_terms_are_the_rulesets_own() -> None:
    terms = forbidden()
    for name in ("vtm", "hunter", "western"):
        assert terms[name] == name
    assert terms["gm_heal"] == "vtm" and terms["weapon_strike"] == "vtm"
    assert terms["overpower"] == "hunter" and terms["knockout"] == "western"
    assert "act" not in terms  # two rulesets have it: generic


def test_the_tokens_split_identifiers() -> None:
    assert tokens("from conteur.rulesets.vtm.dice import VtmPool") == [
        "from", "conteur", "rulesets", "vtm", "dice", "import", "vtm", "pool",
    ]  # fmt: skip
    assert tokens("hunter_chart(HTMLParser)") == ["hunter", "chart", "html", "parser"]


@pytest.mark.parametrize("path", scanned_files(), ids=lambda p: str(p.relative_to(SRC)))
def test_nothing_outside_the_rulesets_names_one(path: Path) -> None:
    terms = {tuple(term.split("_")): (term, name) for term, name in forbidden().items()}
    found = []
    text = path.read_text(encoding="utf-8", errors="replace")
    for number, line in enumerate(text.splitlines(), 1):
        words = tokens(line)
        for i in range(len(words)):
            for size in (1, 2, 3, 4):
                hit = terms.get(tuple(words[i : i + size]))
                if hit:
                    found.append(f"line {number}: {hit[0]!r} ({hit[1]}): {line.strip()[:100]}")
    assert not found, "\n".join(found)
