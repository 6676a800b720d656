"""A file that is not UTF-8 text (a binary file, a spreadsheet saved by mistake) given where
conteur reads text — a scenario, a script, a dice file, a GM's vtm tables, a Hunter session
summary, a campaign backup, a Foundry actor — is refused in words, naming the file, in
French and in English (issue 18): exit code 2, never a traceback nor ``UnicodeDecodeError``."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from conteur.cli import app

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
BINARY = b"\xff\xfe\x00\x01PK\x03\x04"
WHY = {
    "fr": "erreur\u202f: {path}\u202f: ce n'est pas un texte en UTF-8 (octet illisible à la "
    "position {at})\n",
    "en": "error: {path}: not UTF-8 text (unreadable byte at position {at})\n",
}


def commands(tmp_path: Path, bad: Path) -> dict[str, list[str]]:
    saloon = ROOT / "examples" / "saloon.yaml"
    script = tmp_path / "script.txt"
    script.write_text("initiative\n", encoding="utf-8")
    data = yaml.safe_load(saloon.read_text(encoding="utf-8"))
    for entry in data["combatants"]:
        if isinstance(entry.get("sheet"), str):
            entry["sheet"] = str(ROOT / "examples" / entry["sheet"])
    data["tables"] = [str(bad)]
    tables = tmp_path / "avec-tables.yaml"
    tables.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'partie.db'}"
    return {
        "scenario": ["play", str(bad), "--script", str(script)],
        "script": ["play", str(saloon), "--script", str(bad)],
        "dice": ["play", str(saloon), "--script", str(script), "--dice", str(bad)],
        "tables": ["play", str(tables), "--script", str(script)],
        "xp": ["xp", "hunter", str(bad)],
        "backup": ["db", "import", str(bad), "--url", db],
        "foundry": ["import", "foundry", str(bad)],
    }


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize(
    "what", ["scenario", "script", "dice", "tables", "xp", "backup", "foundry"]
)
def test_a_file_that_is_not_utf8_text_is_refused_by_name(
    tmp_path: Path, what: str, lang: str
) -> None:
    bad = tmp_path / "fichier.yaml"
    bad.write_bytes(BINARY)
    result = runner.invoke(app, [*commands(tmp_path, bad)[what], "--lang", lang])
    assert result.exit_code == 2, result.output
    first = result.stderr.splitlines(keepends=True)[0]
    assert first == WHY[lang].format(path=bad, at=0)
    assert not (tmp_path / "partie.db").exists()
