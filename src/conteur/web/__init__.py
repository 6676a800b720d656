"""The live combat tracker in a browser: FastAPI, Jinja2 templates, htmx, server-sent events.

``create_app(store)`` builds the application; ``conteur serve`` runs it with
uvicorn. The game master's pages need the token printed at start; each player
opens ``/p/<token>`` (one token per character).
"""

from __future__ import annotations

import conteur.i18n

conteur.i18n.register_package_catalog("conteur.web")

from .app import create_app  # noqa: E402

__all__ = ["create_app"]
