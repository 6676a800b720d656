#!/usr/bin/env python3
"""Write ``docs/events.md``: every event type of the shipped rulesets, from the code.

python scripts/events_doc.py          # rewrite docs/events.md
python scripts/events_doc.py --check  # fail when it is out of date
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from conteur.engine.protocol import protocol_document
from conteur.engine.registry import get_ruleset

DOC = Path(__file__).resolve().parent.parent / "docs" / "events.md"
SHIPPED = ("vtm", "hunter", "western")
"""The rulesets this project ships (a ruleset installed beside it documents its own)."""


def document() -> str:
    """The document as the code says it today."""
    return protocol_document(get_ruleset(name) for name in SHIPPED)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--check", action="store_true", help="fail when docs/events.md is stale")
    args = parser.parse_args(argv)
    text = document()
    if args.check:
        if not DOC.exists() or DOC.read_text(encoding="utf-8") != text:
            print("events_doc: docs/events.md is out of date: run scripts/events_doc.py")
            return 1
        return 0
    DOC.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
