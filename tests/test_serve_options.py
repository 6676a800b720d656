"""``conteur serve``'s options and environment go through the strict input layer (issue
18): a port that is no port, a host that is no address or name (or one this machine does not
know), a port another program holds, a trusted proxy that is no address or network —
in an option or in ``CONTEUR_FORWARDED_ALLOW_IPS`` —, several workers on SQLite: each is
refused in words in French and in English, exit code 2, before the database is opened (no
file is left behind) and before any server starts."""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conteur.cli import app

runner = CliRunner()


def nnbsp(text: str) -> str:
    """French typography: a narrow no-break space before « : ; ? ! » and inside « »."""
    text = re.sub(r" ([:;?!])", "\u202f\\1", text)
    return text.replace("« ", "«\u202f").replace(" »", "\u202f»")


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The data folder (empty), no database, no proxy, no server started for real."""
    import uvicorn

    monkeypatch.setenv("CONTEUR_DATA_DIR", str(tmp_path))
    for name in ("CONTEUR_DATABASE_URL", "CONTEUR_FORWARDED_ALLOW_IPS", "CONTEUR_PUBLIC_URL"):
        monkeypatch.delenv(name, raising=False)

    def never(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the server started")

    monkeypatch.setattr(uvicorn, "run", never)
    yield tmp_path


@pytest.fixture
def taken() -> Iterator[int]:
    """A loopback port this test holds (listening), so the server's is taken."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        yield int(held.getsockname()[1])


CASES = [
    (["--port", "-5"], {},
     "--port : -5 n'est pas un port (de 1 à 65535).", "--port: -5 is not a port (1 to 65535)."),
    (["--port", "0"], {},
     "--port : 0 n'est pas un port (de 1 à 65535).", "--port: 0 is not a port (1 to 65535)."),
    (["--host", "jeu de rôle"], {},
     "--host : « jeu de rôle » n'est ni une adresse ni un nom de machine (par exemple "
     "127.0.0.1, 0.0.0.0 ou jeu.local).",
     '--host: "jeu de rôle" is neither an address nor a host name (for example 127.0.0.1, '
     "0.0.0.0 or game.local)."),
    (["--host", "127.0.0.l"], {},
     "--host : « 127.0.0.l » n'est pas un nom que cette machine connaît (vérifiez "
     "l'orthographe, ou donnez une adresse comme 127.0.0.1 ou 0.0.0.0).",
     '--host: "127.0.0.l" is not a name this machine knows (check the spelling, or give an '
     "address such as 127.0.0.1 or 0.0.0.0)."),
    (["--forwarded-allow-ips", "127.0.0.1, 10.0.0.l"], {},
     "--forwarded-allow-ips : « 10.0.0.l » n'est ni une adresse ni un réseau (par exemple "
     "127.0.0.1, 10.0.0.0/8, ou * pour tous).",
     '--forwarded-allow-ips: "10.0.0.l" is neither an address nor a network (for example '
     "127.0.0.1, 10.0.0.0/8, or * for any)."),
    ([], {"CONTEUR_FORWARDED_ALLOW_IPS": "proxy"},
     "CONTEUR_FORWARDED_ALLOW_IPS : « proxy » n'est ni une adresse ni un réseau (par exemple "
     "127.0.0.1, 10.0.0.0/8, ou * pour tous).",
     'CONTEUR_FORWARDED_ALLOW_IPS: "proxy" is neither an address nor a network (for example '
     "127.0.0.1, 10.0.0.0/8, or * for any)."),
    (["--workers", "2"], {},
     "Plusieurs processus (--workers 2) demandent PostgreSQL (CONTEUR_DATABASE_URL) : avec "
     "SQLite, les vues en direct d'un processus ne verraient les commandes des autres qu'avec "
     "plusieurs secondes de retard. Lancez un seul processus, ou passez à PostgreSQL.",
     "Several processes (--workers 2) need PostgreSQL (CONTEUR_DATABASE_URL): with SQLite a "
     "process's live views would see the others' commands only seconds later. Run one "
     "process, or move to PostgreSQL."),
]  # fmt: skip


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize(("args", "env", "fr", "en"), CASES)
def test_a_bad_option_or_variable_is_refused_before_anything_is_made(
    data: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    env: dict[str, str],
    fr: str,
    en: str,
    lang: str,
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    result = runner.invoke(app, ["serve", *args, "--lang", lang])
    assert result.exit_code == 2, result.output
    want = nnbsp(f"erreur : {fr}") if lang == "fr" else f"error: {en}"
    assert (result.stdout, result.stderr) == ("", want + "\n")
    assert list(data.iterdir()) == []  # no database made


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_port_another_program_holds_is_named(data: Path, taken: int, lang: str) -> None:
    result = runner.invoke(app, ["serve", "--port", str(taken), "--lang", lang])
    assert result.exit_code == 2
    if lang == "fr":
        want = nnbsp(
            f"erreur : Impossible d'écouter sur 127.0.0.1, port {taken} : un autre programme "
            "l'occupe déjà (un autre conteur serve ? essayez --port 8001)."
        )
    else:
        want = (
            f"error: Cannot listen on 127.0.0.1, port {taken}: another program already uses "
            "it (another conteur serve? try --port 8001)."
        )
    assert result.stderr == want + "\n"
    assert list(data.iterdir()) == []


def test_good_options_reach_the_server(data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same checks let good options through, as the server will be given them."""
    import uvicorn

    started: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.append(options))
    monkeypatch.setenv("CONTEUR_FORWARDED_ALLOW_IPS", "10.0.0.0/8, 127.0.0.1")
    result = runner.invoke(app, ["serve", "--host", "[::1]", "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert [(o["host"], o["port"]) for o in started] == [("::1", 8123)]


@pytest.mark.parametrize(
    ("env", "want"),
    [
        (
            {},
            "erreur\u202f: --lang\u202f: «\u202fde\u202f» n'est pas une langue de conteur (fr, en)\n",
        ),
        (
            {"CONTEUR_LANG": "en"},
            'error: --lang: "de" is not one of conteur\'s languages (fr, en)\n',
        ),
    ],
)
@pytest.mark.parametrize(
    "command",
    [["serve"], ["roll", "vtm", "--pool", "2", "--seed", "1"], ["db", "info"], ["demo"]],
)
def test_a_language_conteur_does_not_speak_is_refused(
    data: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: list[str],
    env: dict[str, str],
    want: str,
) -> None:
    """``--lang de`` was read as French without a word; now it is refused (in the
    language ``CONTEUR_LANG`` names) before anything runs."""
    monkeypatch.delenv("CONTEUR_LANG", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    result = runner.invoke(app, [*command, "--lang", "de"])
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", want)
    assert list(data.iterdir()) == []


def env_lang_refused(value: str) -> str:
    """The refusal of ``CONTEUR_LANG=value``: French, then English (the language is unknown)."""
    return (
        nnbsp(
            f"erreur : CONTEUR_LANG : « {value} » n'est pas une langue de conteur (fr, en) ; "
            "choisissez-en une, ou retirez la variable"
        )
        + f'\nerror: CONTEUR_LANG: "{value}" is not one of conteur\'s languages (fr, en); '
        "choose one, or unset the variable\n"
    )


@pytest.mark.parametrize("value", ["de", "xx", "Deutsch"])
@pytest.mark.parametrize(
    "command",
    [
        ["--help"],
        ["serve"],
        ["serve", "--lang", "en"],
        ["roll", "vtm", "--pool", "2", "--seed", "1"],
        ["db", "info"],
        ["demo"],
        ["xp", "hunter", "--help"],
    ],
)
def test_a_conteur_lang_conteur_does_not_speak_is_refused_in_both_languages(
    data: Path, monkeypatch: pytest.MonkeyPatch, command: list[str], value: str
) -> None:
    """``CONTEUR_LANG=de`` was read as French without a word; now every command (``--help``
    too, and even with ``--lang``) refuses it in French and in English, exit code 2, before
    the database is opened or a server started."""
    monkeypatch.setenv("CONTEUR_LANG", value)
    result = runner.invoke(app, command)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", env_lang_refused(value))
    assert list(data.iterdir()) == []


@pytest.mark.parametrize("argv", [["odds", "vtm", "--pool", "3", "--json"], ["--help"]])
def test_the_console_script_refuses_a_bad_conteur_lang_on_its_fast_path_too(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    """``conteur odds … --json`` answers without the Typer app (``conteur.launch``): it
    refuses ``CONTEUR_LANG=de`` the same way."""
    from conteur.launch import main

    monkeypatch.setenv("CONTEUR_LANG", "de")
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert capsys.readouterr() == ("", env_lang_refused("de"))


def test_a_server_process_refuses_a_bad_conteur_lang_before_opening_the_database(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A server process built by uvicorn's ``--factory`` (``app_from_env``, what ``serve
    --workers`` starts) refuses it as ``conteur serve`` does, and opens no database."""
    from conteur.web.hosting import app_from_env

    monkeypatch.setenv("CONTEUR_LANG", "xx")
    with pytest.raises(SystemExit) as stopped:
        app_from_env()
    assert stopped.value.code == 2
    assert capsys.readouterr() == ("", env_lang_refused("xx"))
    assert list(data.iterdir()) == []


@pytest.mark.parametrize(("value", "word"), [("en", "error:"), ("EN", "error:"),
    ("en-GB", "error:"), ("fr_FR", "erreur\u202f:"), ("", "erreur\u202f:"), ("  ", "erreur\u202f:")])  # fmt: skip
def test_a_conteur_lang_conteur_speaks_still_chooses_the_language(
    monkeypatch: pytest.MonkeyPatch, value: str, word: str
) -> None:
    monkeypatch.setenv("CONTEUR_LANG", value)
    result = runner.invoke(app, ["roll", "vtm", "--pool", "-1"])
    assert result.exit_code == 2
    assert result.stderr.split("\n")[0].startswith(word + " "), result.stderr
    assert result.stderr.count("\n") == 1  # one language only
