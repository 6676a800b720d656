"""``conteur import FORMAT FILE``: a character from another program's file, as a sheet.

Generic: the format is looked up among the rulesets' importers
(``Ruleset.importers()``); the ruleset that reads it makes the sheet. The sheet is
printed as a character file (YAML, what ``conteur.store`` imports, with what did not
map listed after it as comments), or with ``--json`` as ``{ruleset, sheet, state,
unmapped}``. Bad input is a bilingual error naming the file and the field, exit code 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
import yaml

import conteur.i18n
from conteur.i18n import ConteurError, Lang, os_reason, t

from .common import JsonOption, LangOption, help_text, print_json
from .plain import user_errors

conteur.i18n.register_package_catalog("conteur.cli", "messages-characters.yaml")

RulesetOption = Annotated[
    str | None, typer.Option("--ruleset", help=help_text("cli.help.import.ruleset"))
]


def import_command(
    fmt: Annotated[str, typer.Argument(help=help_text("cli.help.import.format"))],
    file: Annotated[Path, typer.Argument(help=help_text("cli.help.import.file"))],
    as_json: JsonOption = False,
    lang: LangOption = None,
    ruleset: RulesetOption = None,
) -> None:
    with user_errors(lang, as_json) as chosen:
        from conteur.engine.characters import find_importer

        _, importer = find_importer(fmt, ruleset)
        data = _read_json(file)
        try:
            result = importer(data, str(file))
        except (TypeError, ValueError, KeyError, AttributeError, IndexError) as exc:
            raise ConteurError("cli.import.failed", path=str(file), reason=str(exc)) from None
    if as_json:
        print_json(result.to_dict(chosen))
        return
    typer.echo(_as_yaml(result, fmt, str(file), chosen), nl=False)


def _read_json(path: Path) -> Any:
    from conteur.engine.inputs import not_utf8

    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConteurError("cli.import.no_file", path=str(path), reason=os_reason(exc)) from None
    except UnicodeDecodeError as exc:
        raise not_utf8(path, exc) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConteurError(
            "cli.import.bad_json", path=str(path), line=exc.lineno, column=exc.colno
        ) from None


def _as_yaml(result: Any, fmt: str, source: str, lang: Lang) -> str:
    """The character file (what ``conteur.store`` imports), then what did not map."""
    from conteur.store.sheets import EXPORT_FORMAT

    doc: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "version": 1,
        "ruleset": result.ruleset,
        "sheet": result.sheet,
    }
    if result.state:
        doc["state"] = result.state
    lines = [t("cli.import.header", lang, format=fmt, ruleset=result.ruleset, file=source)]
    body = str(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False))
    lines.extend(body.rstrip("\n").splitlines())
    if result.unmapped:
        lines.append(t("cli.import.unmapped", lang, count=len(result.unmapped)))
        for u in result.unmapped:
            value = json.dumps(u.value, ensure_ascii=False)
            lines.append(
                "#   - "
                + t("cli.import.unmapped_line", lang, field=u.field, name=u.name, value=value)
                + " — "
                + u.reason.describe(lang)
            )
    else:
        lines.append(t("cli.import.all_mapped", lang))
    return "\n".join(lines) + "\n"
