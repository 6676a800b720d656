"""A bounded fuzz of the commands ``tests/test_fuzz_inputs.py`` leaves out (issue 18, item
1): ``import``, ``xp``, ``db`` (init, upgrade, info, export, import), ``demo`` and ``serve``
(its options and environment only: the server itself is not started). Whatever a user
types or hands them ends in a result or in a clear refusal — exit code 0 or 2, never a
traceback — and a refused command changes nothing: no file appears in the folder it runs
in nor in the data folder, and a database keeps its campaigns.

The files are the shipped examples' (a Foundry actor, a Hunter session, a campaign backup)
spoilt by hypothesis: a value set anywhere, a key added, a key taken out.
"""

from __future__ import annotations

import copy
import json
import os
import re
import socket
from collections.abc import Iterator
from pathlib import Path
from socket import SOCK_STREAM
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from conteur.cli import app
from test_fuzz_inputs import EXAMPLES, FUZZ, keys, numbers, values

ROOT = Path(__file__).resolve().parent.parent
FOUNDRY = sorted((ROOT / "tests" / "vtm" / "foundry").glob("*.json"))
SESSION = ROOT / "examples" / "hunter" / "session-1.yaml"
JOURNAL = ROOT / "examples" / "hunter" / "session-1-journal.json"
runner = CliRunner()
PYTHON_ERROR = re.compile(r"\b[A-Z]\w*(Error|Exception)\b")
"""A Python exception's name (``KeyError: 'Nope'``), which no message may quote."""


@pytest.fixture
def place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder to run in, with conteur's data folder inside it and no database named by
    the environment: whatever a command writes by default is written there."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CONTEUR_DATA_DIR", str(tmp_path / "data"))
    for name in ("CONTEUR_DATABASE_URL", "CONTEUR_PUBLIC_URL", "CONTEUR_FORWARDED_ALLOW_IPS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("CONTEUR_SECRET_KEY", raising=False)
    yield tmp_path


def files(folder: Path) -> dict[str, int]:
    """Every file under ``folder`` and its size (what a refused command must not change)."""
    return {str(p.relative_to(folder)): p.stat().st_size for p in folder.rglob("*") if p.is_file()}


def answers(args: list[str], codes: tuple[int, ...] = (0, 2)) -> Any:
    """Run one command line: a result or a refusal, never a traceback; ``codes``: the exit
    statuses the command may end with (``xp`` says 1 for a split or purchase it refuses)."""
    result = runner.invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        args,
        repr(result.exception),
    )
    assert result.exit_code in codes, (args, result.output)
    assert "Traceback" not in result.output
    assert not PYTHON_ERROR.search(result.output), (args, result.output)  # words, not Python's
    if result.exit_code == 2:
        assert result.output.strip(), args  # a refusal says why
    return result


@st.composite
def spoilt(draw: st.DrawFn, data: Any) -> Any:
    """``data`` with up to three things changed at any depth: a key set to any value, a key
    added, a key taken out, a list item replaced."""
    data = copy.deepcopy(data)
    for _ in range(draw(st.integers(1, 3))):
        places: list[Any] = []
        todo = [data]
        while todo:
            node = todo.pop()
            if isinstance(node, dict | list):
                places.append(node)
                todo.extend(node.values() if isinstance(node, dict) else node)
        place = draw(st.sampled_from(places))
        if isinstance(place, list):
            if place:
                place[draw(st.integers(0, len(place) - 1))] = draw(values)
            continue
        how = draw(st.sampled_from(["set", "set", "drop", "add"]))
        if how == "drop" and place:
            place.pop(draw(st.sampled_from(sorted(place, key=str))))
        elif how == "set" and place:
            place[draw(st.sampled_from(sorted(place, key=str)))] = draw(values)
        else:
            place[draw(keys)] = draw(values)
    return data


def _text(draw: st.DrawFn, data: Any, fmt: str) -> str:
    """The text of a spoilt copy of ``data`` (or, once in a while, any text at all)."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.text(alphabet="[]{}:,- \n\"'ab1#&*!", max_size=80))
    bad = draw(spoilt(data))
    if fmt == "json":
        return json.dumps(bad, default=str, ensure_ascii=False)
    return yaml.safe_dump(bad, allow_unicode=True)


# ------------------------------------------------------------------ import, xp, demo


@FUZZ
@given(data=st.data())
def test_conteur_import_answers_or_refuses(place: Path, data: st.DataObject) -> None:
    source = json.loads(data.draw(st.sampled_from(FOUNDRY)).read_text(encoding="utf-8"))
    path = place / "acteur.json"
    path.write_text(_text(data.draw, source, "json"), encoding="utf-8")
    fmt = data.draw(st.sampled_from(["foundry", "foundry", "Foundry", "roll20", ""]))
    extra = data.draw(st.sampled_from([[], ["--ruleset", "vtm"], ["--ruleset", "x"], ["--json"]]))
    before = files(place)
    answers(["import", fmt, str(path), *extra, "--lang", data.draw(st.sampled_from(["fr", "en"]))])
    assert files(place) == before  # import only shows the sheet


@FUZZ
@given(data=st.data())
def test_conteur_xp_answers_or_refuses(place: Path, data: st.DataObject) -> None:
    session = yaml.safe_load(SESSION.read_text(encoding="utf-8"))
    (place / JOURNAL.name).write_text(JOURNAL.read_text(encoding="utf-8"), encoding="utf-8")
    path = place / "séance.yaml"
    path.write_text(_text(data.draw, session, "yaml"), encoding="utf-8")
    before = files(place)
    extra = data.draw(st.sampled_from([[], ["--json"], ["--lang", "en"]]))
    game = data.draw(st.sampled_from(["hunter", "hunter", "vtm"]))
    result = answers(["xp", game, str(path), *extra], codes=(0, 1, 2))
    if result.exit_code == 1:  # docs/hunter-xp.en.md: a refused split or purchase, said
        assert result.output.strip(), path
    assert files(place) == before


@settings(FUZZ, max_examples=max(1, EXAMPLES // 5))
@given(numbers)
def test_conteur_demo_answers_or_refuses(seed: str) -> None:
    answers(["demo", "--seed", seed])


# ------------------------------------------------------------------ db

URLS = ["garbage", "mysql://a@b/c", "sqlite:///", "postgresql://x@127.0.0.1:1/db", "sqlite:"]


@FUZZ
@given(data=st.data())
def test_conteur_db_init_upgrade_info_answer_or_refuse(place: Path, data: st.DataObject) -> None:
    url = data.draw(
        st.one_of(
            st.sampled_from(URLS),
            st.just(f"sqlite:///{place / 'partie.db'}"),
            st.just("sqlite:////proc/conteur/x.db"),
            st.text(max_size=12),
        )
    )
    verb = data.draw(st.sampled_from(["init", "upgrade", "info"]))
    extra = data.draw(
        st.sampled_from([[], ["--lang", "en"], ["--json"]] if verb == "info" else [[]])
    )
    before = files(place)
    result = answers(["db", verb, "--url", url, *extra] if url else ["db", verb, *extra])
    if result.exit_code == 2:
        assert files(place) == before


_BACKUP: dict[str, Any] = {}


def backup() -> dict[str, Any]:
    """A played campaign's backup (made once)."""
    if not _BACKUP:
        from conteur.store import open_store
        from store.test_backup import played

        source = open_store("sqlite:///:memory:")
        _BACKUP.update(json.loads(json.dumps(source.export_campaign(played(source)))))
        source.close()
    return _BACKUP


@settings(FUZZ, max_examples=max(1, EXAMPLES // 2))
@given(data=st.data())
def test_conteur_db_import_restores_whole_or_changes_nothing(
    place: Path, data: st.DataObject
) -> None:
    from conteur.store import open_store

    url = f"sqlite:///{place / 'partie.db'}"
    path = place / "sauvegarde.json"
    path.write_text(_text(data.draw, backup(), "json"), encoding="utf-8")
    store = open_store(url)
    before = store.counts()
    store.close()
    lang = data.draw(st.sampled_from(["fr", "en"]))
    result = answers(["db", "import", str(path), "--url", url, "--lang", lang])
    store = open_store(url)
    after = store.counts()
    store.close()
    if result.exit_code == 2:
        assert after == before
    else:
        assert after["campaigns"] == before["campaigns"] + 1


@settings(FUZZ, max_examples=max(1, EXAMPLES // 2))
@given(data=st.data())
def test_a_backup_log_that_does_not_replay_is_refused_naming_its_entry(
    place: Path, data: st.DataObject
) -> None:
    """One entry of one encounter's log spoilt (an event's type or field, the command, an
    undo's target): the import plays, or is refused naming the file, that encounter and an
    entry of its log from the spoilt one on — in words, never a Python error."""
    from conteur.store import open_store

    bad = copy.deepcopy(backup())
    which = data.draw(st.integers(0, len(bad["encounters"]) - 1))
    encounter = bad["encounters"][which]
    n = data.draw(st.integers(0, len(encounter["log"]) - 1))
    encounter["log"][n]["entry"] = data.draw(spoilt(encounter["log"][n]["entry"]))
    path = place / "sauvegarde.json"
    path.write_text(json.dumps(bad, default=str, ensure_ascii=False), encoding="utf-8")
    url = f"sqlite:///{place / 'partie.db'}"
    store = open_store(url)
    before = store.counts()
    store.close()
    result = answers(["db", "import", str(path), "--url", url, "--lang", "en"])
    store = open_store(url)
    after = store.counts()
    store.close()
    if result.exit_code == 0:
        assert after["campaigns"] == before["campaigns"] + 1
        return
    assert after == before
    head = f'error: {path}: encounter #{which + 1} ({encounter["name"]}): field "'
    assert result.stderr.startswith(head), result.stderr
    field = result.stderr[len(head) :].split('"')[0]
    found = re.fullmatch(r"log\[(\d+)\](\..+)?", field)
    assert found and int(found.group(1)) >= n + 1, result.stderr


@FUZZ
@given(data=st.data())
def test_conteur_db_export_answers_or_refuses(place: Path, data: st.DataObject) -> None:
    from conteur.store import open_store

    url = f"sqlite:///{place / 'partie.db'}"
    if not (place / "partie.db").exists():
        store = open_store(url)
        store.import_campaign(backup(), "sauvegarde.json")
        store.close()
    output = data.draw(st.sampled_from([[], ["-o", "sortie.json"], ["-o", "/proc/x/y.json"]]))
    before = files(place)
    result = answers(["db", "export", "--campaign", data.draw(numbers), "--url", url, *output])
    if result.exit_code == 2:
        assert files(place) == before


# ------------------------------------------------------------------ serve

HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]", "foo bar", "127.0.0.l", "", "-x", "a" * 300]
PORTS = ["8000", "0", "-5", "65536", "70000", "x", "1e3", "8765"]
PROXIES = ["127.0.0.1", "*", "10.0.0.0/8, 127.0.0.1", "127.0.0.l", "nope", "10.0.0.0/33", ""]
PUBLIC = ["https://jeu.example.org", "http://a", "https://x.example/jeu", "ftp://a", "nope"]


@FUZZ
@given(data=st.data())
def test_conteur_serve_options_answer_or_refuse(
    place: Path, data: st.DataObject, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The options and variables of ``conteur serve``, up to where the server would start
    (``uvicorn.run`` records its call instead): a refusal leaves no database behind."""
    import uvicorn

    started: list[dict[str, Any]] = []

    def run(app: Any, **options: Any) -> None:
        """Where the server would start: it could listen where it is told to."""
        started.append(options)
        info = socket.getaddrinfo(options["host"] or None, options["port"], type=SOCK_STREAM)
        with socket.socket(info[0][0], info[0][1]) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(info[0][4])

    monkeypatch.setattr(uvicorn, "run", run)
    args = ["serve"]
    for flag, choices in (
        ("--host", HOSTS),
        ("--port", PORTS),
        ("--workers", ["1", "0", "2", "65", "x"]),
        ("--public-url", PUBLIC),
        ("--forwarded-allow-ips", PROXIES),
    ):
        if data.draw(st.booleans()):
            args += [flag, data.draw(st.one_of(st.sampled_from(choices), st.text(max_size=6)))]
    env = data.draw(st.sampled_from([None, *PROXIES]))
    if env is None:
        monkeypatch.delenv("CONTEUR_FORWARDED_ALLOW_IPS", raising=False)
    else:
        monkeypatch.setenv("CONTEUR_FORWARDED_ALLOW_IPS", env)
    if data.draw(st.booleans()):
        args.append("--demo")
    args += data.draw(st.sampled_from([[], ["--lang", "en"]]))
    lang = data.draw(st.sampled_from([None, None, "en", "fr_FR", "de", "xx"]))
    if lang is None:
        monkeypatch.delenv("CONTEUR_LANG", raising=False)
    else:
        monkeypatch.setenv("CONTEUR_LANG", lang)
    database = place / "data" / "conteur.db"
    existed = database.exists()
    result = answers(args)
    if lang in ("de", "xx"):  # refused first, in both languages, whatever the options
        assert result.exit_code == 2 and result.stderr.count("CONTEUR_LANG") == 2
    if result.exit_code == 2:
        assert database.exists() == existed and not started
    else:
        assert len(started) == 1
    for name in ("CONTEUR_DATABASE_URL", "CONTEUR_PUBLIC_URL", "CONTEUR_LAN_URL"):
        os.environ.pop(name, None)  # several workers would have set them for their processes
