"""Reading a scenario file (YAML or JSON) into the mapping ``Encounter.start`` takes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from conteur.i18n import ConteurError


def load_scenario(path: Path | str) -> tuple[dict[str, Any], Path]:
    """The scenario in ``path`` and the folder its relative paths start from."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConteurError(
            "scenario.unreadable", path=str(file), reason=exc.strerror or ""
        ) from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 0
        raise ConteurError("scenario.bad_yaml", path=str(file), line=line) from None
    if not isinstance(data, dict):
        raise ConteurError("scenario.not_mapping", path=str(file))
    return data, file.parent
