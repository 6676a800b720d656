"""Which tests run the rules: a pytest plugin behind the honest rules coverage.

A test *cites* a rule by naming its id (``test_V_DMG_4_...`` or its docstring);
``scripts/rules_coverage.py`` counts the citation only when the test also ran
the rules engine. This plugin, loaded by ``tests/conftest.py`` in every pytest
run, finds out which tests did:

* before collection, each *entry point* below is wrapped in a probe that
  counts its calls (a class attribute is replaced on the class; a module
  function is replaced in every ``conteur`` module that holds it, so that
  ``from conteur.rulesets.vtm.charts import vtm_chart`` gets the probe too);
* a test ran the engine when a probe fired while it was set up or called, or
  while one of the fixtures it uses was set up (a module-scoped fixture that
  plays a fight counts for every test that uses it), and the test passed;
* at the end of the session the verdicts are merged into
  ``.pytest_cache/engine-runs.json`` (``{"engine": [...], "plain": [...]}``
  of function-level test ids, ``tests/file.py::test_name``, parameters
  dropped: one engine-running parametrization is enough). A test run again
  replaces its old verdict; tests not run keep theirs.

The entry points are where rules turn input into outcomes: a command resolved
against a state (every ``Resolution``, made by ``Encounter.execute`` and by the
odds, which replay the rules over every branch of the dice), a roll read by
the dice rules (faces into successes, botches, criticals) or its exact
outcomes, the odds charts, the numpy batch of attacks, and hunter's practical
experience. Reading a fixture, a table or a golden file runs none of them.
"""

from __future__ import annotations

import functools
import importlib
import json
import re
import sys
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

import pytest

RECORD = Path(".pytest_cache") / "engine-runs.json"
"""Where the verdicts go, relative to the repository's root (pytest's rootdir)."""

ENTRY_POINTS: tuple[str, ...] = (
    # a command resolved by a ruleset (the tracker, the CLI, the odds' branches)
    "conteur.engine.encounter:Encounter.execute",
    "conteur.engine.ruleset:Resolution.__init__",
    # the dice rules: faces read into a result, or a roll's exact outcomes
    "conteur.rulesets.vtm.dice:VtmPool.roll",
    "conteur.rulesets.vtm.dice:VtmPool.read",
    "conteur.rulesets.vtm.dice:VtmPool.outcomes",
    "conteur.rulesets.hunter.dice:HunterPool.roll",
    "conteur.rulesets.hunter.dice:HunterPool.outcomes",
    "conteur.rulesets.western.dice:Percentile.roll",
    "conteur.rulesets.western.dice:Percentile.read",
    "conteur.rulesets.western.dice:Percentile.outcomes",
    "conteur.dice.rolls:Expr.roll",
    "conteur.dice.rolls:Expr.outcomes",
    # the odds charts and the numpy batch of attacks
    "conteur.rulesets.vtm.charts:vtm_chart",
    "conteur.rulesets.hunter.charts:hunter_chart",
    "conteur.rulesets.vtm.batch:roll_strikes",
    "conteur.rulesets.vtm.batch:roll_pool",
    # hunter's practical experience (H-XP): the award, the spending, the log counts
    "conteur.rulesets.hunter.xp:award",
    "conteur.rulesets.hunter.xp:check_spending",
    "conteur.rulesets.hunter.xp_log:count_log",
    "conteur.rulesets.hunter.xp_characters:count_characters",
)

_PARAMS = re.compile(r"\[.*\]$")


class _Calls:
    """How many times a probe fired since the session started."""

    count = 0


def _probe(original: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(original)
    def probe(*args: Any, **kwargs: Any) -> Any:
        _Calls.count += 1
        return original(*args, **kwargs)

    probe.__engine_probe__ = True  # type: ignore[attr-defined]
    return probe


def install() -> None:
    """Wrap every entry point (once; a second call changes nothing)."""
    for target in ENTRY_POINTS:
        module_name, _, qualname = target.partition(":")
        module = importlib.import_module(module_name)
        owner_name, _, name = qualname.rpartition(".")
        if owner_name:
            owner = getattr(module, owner_name)
            original = owner.__dict__[name]
            if not getattr(original, "__engine_probe__", False):
                setattr(owner, name, _probe(original))
            continue
        original = getattr(module, name)
        if getattr(original, "__engine_probe__", False):
            continue
        probe = _probe(original)
        for loaded in list(sys.modules.values()):
            if getattr(loaded, "__name__", "").startswith("conteur"):
                for attr, value in list(vars(loaded).items()):
                    if value is original:
                        setattr(loaded, attr, probe)


def function_id(nodeid: str) -> str:
    """``tests/a.py::test_x[fr]`` → ``tests/a.py::test_x`` (the id a citation names)."""
    return _PARAMS.sub("", nodeid)


def read_record(path: Path) -> dict[str, bool]:
    """``{test id: ran the engine}`` from a record file (empty when there is none)."""
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    verdicts = {test: False for test in data.get("plain", [])}
    verdicts.update({test: True for test in data.get("engine", [])})
    return verdicts


def write_record(path: Path, verdicts: dict[str, bool]) -> None:
    engine = sorted(t for t, ran in verdicts.items() if ran)
    plain = sorted(t for t, ran in verdicts.items() if not ran)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"engine": engine, "plain": plain}, indent=1) + "\n"
    path.write_text(text, encoding="utf-8")


class EngineRuns:
    """The plugin: counts probe calls per test and per fixture, writes the verdicts."""

    def __init__(self, root: Path) -> None:
        self.path = root / RECORD
        self.verdicts: dict[str, bool] = {}
        self._start: dict[str, int] = {}
        self._passed: dict[str, bool] = {}
        self._engine_fixtures: set[int] = set()

    @pytest.hookimpl(hookwrapper=True)
    def pytest_fixture_setup(self, fixturedef: Any) -> Generator[None, None, None]:
        before = _Calls.count
        yield
        if _Calls.count > before:
            self._engine_fixtures.add(id(fixturedef))

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        self._start[item.nodeid] = _Calls.count
        self._passed[item.nodeid] = True

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.failed or report.skipped:
            self._passed[report.nodeid] = False

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_teardown(self, item: pytest.Item) -> None:
        ran = _Calls.count > self._start.pop(item.nodeid, _Calls.count)
        info = getattr(item, "_fixtureinfo", None)
        if not ran and info is not None:
            ran = any(
                id(d) in self._engine_fixtures
                for defs in info.name2fixturedefs.values()
                for d in defs
            )
        # before the fixtures' teardown, after the call's report: its outcome is known here
        self.verdicts.setdefault(function_id(item.nodeid), False)
        if ran and self._passed.get(item.nodeid, False):
            self.verdicts[function_id(item.nodeid)] = True

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        if not self.verdicts:
            return
        merged = read_record(self.path)
        merged.update(self.verdicts)
        write_record(self.path, merged)
