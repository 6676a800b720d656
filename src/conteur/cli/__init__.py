"""The ``conteur`` command line (Typer + Rich), French by default.

The Typer app is built in ``conteur.cli.root`` and loaded on first use of ``app`` or
``main``: importing a module of this package (the typer-free ``plain`` and ``odds``
that the odds commands print with, say) does not load Typer. The console script
(``conteur.launch``) answers ``conteur odds <ruleset>`` without the app at all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import typer

    from .root import app, main

__all__ = ["app", "main", "typer"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import root

        return getattr(root, name)
    raise AttributeError(f"module 'conteur.cli' has no attribute {name!r}")
