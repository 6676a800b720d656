"""A database that cannot be opened is refused in words (issue 18: no Python error quoted):
``conteur db init|info|import`` and ``open_store`` name the URL, its password hidden, and
say why in the reader's language — not ``(psycopg.OperationalError) … Background on this
error at: https://sqlalche.me/…``."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from conteur.cli import app

runner = CliRunner()
NN = "\u202f"


def cases(tmp_path: Path) -> list[tuple[str, str, str, str]]:
    """(URL given, URL shown, why in French, why in English)."""
    junk = tmp_path / "notes.db"
    junk.write_text("pas une base\n" * 200, encoding="utf-8")
    return [
        ("postgresql://mj:secret@127.0.0.1:1/jeu", "postgresql+psycopg://mj:***@127.0.0.1:1/jeu",
         f"le serveur ne répond pas à cette adresse (connexion refusée{NN}; est-il démarré{NN}?)",
         "no server answers at that address (connection refused; is it running?)"),
        (f"sqlite:///{junk}", f"sqlite:///{junk}", "ce fichier n'est pas une base SQLite",
         "that file is not a SQLite database"),
        ("sqlite:////proc/conteur.db", "sqlite:////proc/conteur.db",
         "le fichier ne peut être ni ouvert ni créé à cet endroit",
         "the file cannot be opened or created there"),
    ]  # fmt: skip


@pytest.mark.parametrize("case", [0, 1, 2])
@pytest.mark.parametrize(
    "command", [["db", "init"], ["db", "info"], ["db", "export", "--campaign", "1"]]
)
def test_a_database_that_cannot_be_opened_is_refused_in_words(
    tmp_path: Path, command: list[str], case: int
) -> None:
    given, shown, fr, en = cases(tmp_path)[case]
    french = runner.invoke(app, [*command, "--url", given])
    english = runner.invoke(app, [*command, "--url", given, "--lang", "en"])
    assert (french.exit_code, french.stdout) == (2, "")
    assert french.stderr == (
        f"erreur{NN}: Impossible d'ouvrir la base de données {shown}{NN}: {fr}\n"
    )
    assert (english.exit_code, english.stderr) == (
        2,
        f"error: Cannot open the database {shown}: {en}\n",
    )
