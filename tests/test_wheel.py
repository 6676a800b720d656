"""conteur installed as a tool: ``python -m build`` makes a wheel that works outside the tree.

The test builds the sdist and the wheel (``python -m build``, the wheel made from the sdist,
as ``pipx`` or ``uv tool`` would get it), checks that the wheel carries every file of the
package that is not Python (templates, static files, migrations, data tables, catalogues,
the demo's data), installs it with its dependencies into a fresh virtual environment in a
temporary folder (``pip install``, as a user would, from pip's cache or the index), and
there, far from the source tree:

* ``conteur serve --demo`` on a free port and an empty data folder: the printed link opens
  the game master's session and the demo's campaign and encounter pages answer 200;
* ``conteur play`` on two shipped examples copied out of the tree gives their golden logs.

It takes about a minute (most of it pip installing numpy, matplotlib and the web stack);
``-m "not wheel"`` leaves it out of a quick run. It skips only where ``build`` or ``venv``
cannot run, and never in CI (``CI`` set), where it fails instead.
"""

from __future__ import annotations

import configparser
import html
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import tomllib
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from conteur.web.demo import demo_data

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "conteur"
EXAMPLES = ("examples/saloon", "examples/western/duel")
"""Examples played by the installed ``conteur play`` (scenario, script, dice; golden log)."""

pytestmark = pytest.mark.wheel


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false")


def _cannot(reason: str) -> None:
    if _in_ci():
        pytest.fail(f"{reason} (required in CI)", pytrace=False)
    pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _clean_env(**extra: str) -> dict[str, str]:
    """The environment minus what points at the source tree or the test database."""
    drop = ("PYTHONPATH", "VIRTUAL_ENV", "CONTEUR_DATABASE_URL", "CONTEUR_DATA_DIR", "PYTHONHOME")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel ``python -m build`` makes of the source tree (sdist first, wheel from it)."""
    try:
        import build  # noqa: F401
    except ImportError:
        _cannot("the `build` package is not installed (it is in the dev extras)")
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
        env=_clean_env(),
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    wheels = list(out.glob("conteur-*.whl"))
    assert len(wheels) == 1, list(out.iterdir())
    return wheels[0]


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``bin`` folder of a fresh virtual environment with the wheel and its dependencies."""
    venv = tmp_path_factory.mktemp("venv") / "tool"
    made = subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(venv)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if made.returncode != 0:
        _cannot(f"python -m venv failed: {made.stderr.strip()[-500:]}")
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    # This environment's pip installs into the new one (``--python``: no pip of its own to
    # bootstrap), from pip's cache or the index; no byte-compiling of the dependencies.
    pip = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(bin_dir / "python"), "install"]
        + ["--quiet", "--no-compile", str(wheel)],
        capture_output=True,
        text=True,
        timeout=600,
        env=_clean_env(),
    )
    assert pip.returncode == 0, pip.stdout[-3000:] + pip.stderr[-3000:]
    return bin_dir


def test_the_wheel_carries_every_file_the_program_reads(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
    wanted = {
        "conteur/" + p.relative_to(PACKAGE).as_posix()
        for p in PACKAGE.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".pyo")
    }
    assert wanted - names == set()
    for part in ("web/templates/", "web/static/", "store/migrations/versions/", "i18n/"):
        assert any(n.startswith("conteur/" + part) for n in names), part
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    with zipfile.ZipFile(wheel) as z:
        text = z.read(entry_points).decode()
    shipped = configparser.ConfigParser(delimiters=("=",))
    shipped.optionxform = str  # type: ignore[assignment,method-assign]
    shipped.read_string(text)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = {"console_scripts": project["scripts"], **project["entry-points"]}
    # the command, and the rulesets with their part of the command line (found by group)
    assert {group: dict(shipped[group]) for group in declared} == declared
    assert shipped["console_scripts"]["conteur"] == "conteur.launch:main"
    assert {"conteur.rulesets", "conteur.cli"} <= set(declared)


@pytest.fixture
def served(installed: Path, tmp_path: Path) -> Iterator[tuple[str, int]]:
    """``conteur serve --demo`` from the installed tool: the link it printed, and its port."""
    port = _free_port()
    proc = subprocess.Popen(
        [str(installed / "conteur"), "serve", "--demo", "--port", str(port)],
        cwd=tmp_path,
        env=_clean_env(CONTEUR_DATA_DIR=str(tmp_path / "data")),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 60
        link, seen = "", []
        while time.monotonic() < deadline and not link:
            line = proc.stdout.readline()
            seen.append(line)
            found = re.search(r"(http://\S+\?token=\S+)", line)
            link = found.group(1) if found else ""
            if not line and proc.poll() is not None:
                break
        assert link, "".join(seen)
        yield link, port
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def test_the_installed_tool_serves_the_demo(served: tuple[str, int], installed: Path) -> None:
    import httpx

    link, port = served
    where = subprocess.run(
        [str(installed / "python"), "-c", "import conteur; print(conteur.__file__)"],
        capture_output=True,
        text=True,
        cwd=installed,
        env=_clean_env(),
    )
    assert str(ROOT) not in where.stdout and str(installed.parent) in where.stdout, where
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
        deadline = time.monotonic() + 30
        while True:
            try:
                home = client.get(link.split(f":{port}", 1)[1], follow_redirects=True)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        assert home.status_code == 200, home.text[:500]
        assert home.url.path == "/password"  # a first start: the link asks for a password
        home = client.get("/")  # the session it opened is good meanwhile
        assert home.status_code == 200, home.text[:500]
        demo = demo_data()  # what the shipped rulesets give (the toy of tests/plugins has none)
        assert html.escape(str(demo["campaign"])) in home.text
        campaign = client.get("/c/1")
        assert campaign.status_code == 200 and "/p/" in campaign.text
        encounter = client.get("/e/1")
        assert encounter.status_code == 200 and 'name="csrf"' in encounter.text
        assert html.escape(str(demo["encounter"])) in encounter.text
        for static in ("htmx.min.js", "pad.js", "pad.css"):
            asset = client.get(f"/static/{static}")
            assert asset.status_code == 200, static
            assert asset.content == (PACKAGE / "web" / "static" / static).read_bytes(), static


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_installed_tool_plays_a_shipped_example(
    example: str, installed: Path, tmp_path: Path
) -> None:
    """The example's files copied out of the tree, played with the table's dice: its golden."""
    for suffix in (".yaml", ".txt", ".dice"):
        target = tmp_path / (example + suffix)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / (example + suffix), target)
    args = [f"{example}.yaml", "--script", f"{example}.txt", "--dice", f"{example}.dice"]
    played = subprocess.run(
        [str(installed / "conteur"), "play", *args, "--json"],
        cwd=tmp_path,
        env=_clean_env(CONTEUR_DATA_DIR=str(tmp_path / "data")),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert played.returncode == 0, played.stdout[-2000:] + played.stderr[-2000:]
    golden = ROOT / "tests" / "golden" / (example.removeprefix("examples/") + ".json")
    assert json.loads(played.stdout) == json.loads(golden.read_text(encoding="utf-8"))
    text = subprocess.run(
        [str(installed / "conteur"), "play", *args],
        cwd=tmp_path,
        env=_clean_env(CONTEUR_DATA_DIR=str(tmp_path / "data")),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert text.returncode == 0 and text.stdout.strip(), text.stderr[-2000:]
