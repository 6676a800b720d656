"""The start cache (``conteur.runcache``): a command answers the same with the cache cold,
warm, damaged, unwritable or off, and a warm start takes what it compiles and parses from
the cache."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conteur import runcache

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "examples" / "simulation" / "4v4_1899.yaml"
ODDS_ATTACK = [
    "odds", "attack", str(SCENARIO), "--attacker", "abberline", "--target", "marius", "--json",
]  # fmt: skip

# A child that answers ``conteur odds attack --json`` through the console script's code and
# then prints, on stderr, what the cache gave: entries found, entries added (each a text
# compiled or parsed because the cache did not hold it).
CHILD = """
import sys
from conteur import runcache
from conteur.launch import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
runcache.save()
print(*runcache.counts(), file=sys.stderr)
"""


def _run(cache: str, args: list[str] = ODDS_ATTACK) -> tuple[str, tuple[int, int]]:
    env = {**os.environ, "CONTEUR_CACHE_DIR": cache, "CONTEUR_LANG": "fr"}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, *args],
        capture_output=True, text=True, env=env, timeout=120, check=True,
    )  # fmt: skip
    found, added = (int(n) for n in done.stderr.split()[-2:])
    return done.stdout, (found, added)


def _fresh_cache(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """This process's cache in ``folder``, as a process that has read nothing yet."""
    monkeypatch.setenv("CONTEUR_CACHE_DIR", str(folder))
    monkeypatch.setattr(runcache, "_store", runcache._Store())


def _files(folder: Path) -> list[Path]:
    return sorted(folder.glob("start-*.marshal"))


def test_a_warm_start_compiles_nothing_and_answers_what_a_cold_one_and_no_cache_do(
    tmp_path: Path,
) -> None:
    cold, (found, added) = _run(str(tmp_path))
    assert found < added and added > 500  # a first start compiles conteur's methods
    (file,) = _files(tmp_path)
    warm, (found, added) = _run(str(tmp_path))
    assert added == 0 and found > 500
    off, (found, added) = _run("off")
    assert (found, added) == (0, 0)  # off: nothing read or kept, dataclasses compiles as ever
    assert cold == warm == off
    assert json.loads(cold)["attacker"] == "abberline" and file.stat().st_size > 0


def test_a_damaged_cache_is_ignored_and_written_anew(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected, _ = _run("off")
    monkeypatch.setenv("CONTEUR_CACHE_DIR", str(tmp_path))
    path = runcache.cache_file()
    assert path is not None and path.parent == tmp_path
    path.write_bytes(b"\x00not a cache")
    answer, (found, added) = _run(str(tmp_path))
    assert answer == expected and found < added and added > 500  # nothing read from it
    _, (found, added) = _run(str(tmp_path))
    assert added == 0 and found > 500


def test_an_unwritable_cache_folder_leaves_the_answer_alone(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    expected, _ = _run("off")
    env = {**os.environ, "CONTEUR_CACHE_DIR": str(blocker / "cache"), "CONTEUR_LANG": "fr"}
    done = subprocess.run(
        [sys.executable, "-c", "from conteur.launch import main; main()", *ODDS_ATTACK],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert (done.returncode, done.stderr, done.stdout) == (0, "", expected)


def test_compiled_code_from_the_cache_is_the_code_compile_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fresh_cache(tmp_path, monkeypatch)
    source = "def __create_fn__():\n def f(self):\n  return self.x + 1\n return f\n"
    first = runcache.compiled(source)
    runcache.save()
    monkeypatch.setattr(runcache, "_store", runcache._Store())  # a new process, say
    again = runcache.compiled(source)
    assert runcache.counts() == (1, 0)
    fresh = compile(source, "<string>", "exec", dont_inherit=True)
    assert marshal.dumps(again) == marshal.dumps(first) == marshal.dumps(fresh)


def test_shipped_yaml_gives_a_fresh_copy_each_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fresh_cache(tmp_path, monkeypatch)
    import yaml

    text = "arme:\n  degats: [2, 3]\n  nom: épée\n"
    first = runcache.shipped_yaml(text, yaml.safe_load)
    first["arme"]["degats"].append(99)
    second = runcache.shipped_yaml(text, yaml.safe_load)
    assert second == {"arme": {"degats": [2, 3], "nom": "épée"}}
    assert runcache.counts() == (1, 1)
    dated = runcache.shipped_yaml("quand: 2026-12-03\n", yaml.safe_load)
    assert str(dated["quand"]) == "2026-12-03"  # a date marshal cannot keep: parsed, not kept
    assert runcache.counts() == (1, 1)


def test_a_file_past_its_size_keeps_only_what_the_run_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fresh_cache(tmp_path, monkeypatch)
    old = [f"def __create_fn__():\n return {n}\n" for n in range(50)]
    for source in old:
        runcache.compiled(source)
    runcache.save()
    monkeypatch.setattr(runcache, "_store", runcache._Store())
    monkeypatch.setattr(runcache, "MAX_BYTES", 2000)
    runcache.compiled(old[0])
    runcache.compiled("def __create_fn__():\n return 'new'\n")
    runcache.save()
    path = runcache.cache_file()
    assert path is not None
    kept = marshal.loads(path.read_bytes())["code"]
    assert set(kept) == {old[0], "def __create_fn__():\n return 'new'\n"}


def test_a_class_built_from_cached_methods_behaves_as_a_dataclass(tmp_path: Path) -> None:
    code = """
import dataclasses, sys, types
from conteur import runcache
runcache.install()
module = types.ModuleType("conteur._probe")
sys.modules["conteur._probe"] = module
exec('''
import dataclasses
@dataclasses.dataclass(frozen=True, order=True)
class Point:
    x: int
    y: int = 2
    tags: tuple[str, ...] = dataclasses.field(default=(), compare=False)
''', module.__dict__)
Point = module.Point
p = Point(1)
try:
    p.x = 3
    frozen = False
except dataclasses.FrozenInstanceError:
    frozen = True
runcache.save()
print(repr(p), p == Point(1, 2, ("a",)), hash(p) == hash(Point(1)), Point(1) < Point(2), frozen,
      runcache.counts())
"""
    env = {**os.environ, "CONTEUR_CACHE_DIR": str(tmp_path)}
    runs = [
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
        ).stdout.split(" (")
        for _ in range(2)
    ]
    assert runs[0][0] == runs[1][0] == "Point(x=1, y=2, tags=()) True True True True"
    _, added_cold = (int(n) for n in runs[0][1].strip(")\n").split(", "))
    found_warm, added_warm = (int(n) for n in runs[1][1].strip(")\n").split(", "))
    assert added_cold >= 6 and added_warm == 0 and found_warm >= 6


@pytest.mark.parametrize("module", ["conteur._probe_signature", "outside_probe"])
def test_the_methods_written_keep_the_annotations_dataclasses_gives_them(
    module: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the cache or not, a dataclass's ``__init__`` is compiled as ``dataclasses``
    compiles it: its annotations are the field types, not their names as text."""
    import inspect

    _fresh_cache(tmp_path, monkeypatch)
    runcache.install()
    import types

    probe_module = types.ModuleType(module)
    monkeypatch.setitem(sys.modules, module, probe_module)
    namespace = probe_module.__dict__
    source = (
        "import dataclasses\n"
        "@dataclasses.dataclass(frozen=True)\n"
        "class Probe:\n"
        "    x: int\n"
        "    y: str = 'a'\n"
    )
    exec(compile(source, module, "exec", dont_inherit=True), namespace)  # types, not text
    probe = namespace["Probe"]
    assert isinstance(probe, type)
    parameters = inspect.signature(probe).parameters
    assert (parameters["x"].annotation, parameters["y"].annotation) == (int, str)
    assert inspect.signature(vars(probe)["__init__"]).return_annotation is None
    found, added = runcache.counts()
    assert (found, added) == ((0, 6) if module.startswith("conteur.") else (0, 0))


def test_without_a_home_folder_there_is_no_cache_and_no_error() -> None:
    expected, _ = _run("off")
    env = {k: v for k, v in os.environ.items() if k not in ("HOME", "CONTEUR_CACHE_DIR")}
    code = (
        "import pathlib\n"
        "def no_home(): raise RuntimeError('Could not determine home directory.')\n"
        "pathlib.Path.home = staticmethod(no_home)\n"
        "from conteur import runcache\n"
        "from conteur.launch import main\n"
        "assert runcache.cache_file() is None\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *ODDS_ATTACK],
        capture_output=True, text=True, env={**env, "CONTEUR_LANG": "fr"}, timeout=120,
    )  # fmt: skip
    assert (done.returncode, done.stderr, done.stdout) == (0, "", expected)
