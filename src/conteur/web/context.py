"""What every route of the web app shares: the store, the live notifier, the templates, the
GM's sessions, the login throttle, the panels' snapshots; one ``AppContext`` kept on
``app.state.context``, handed to the routes by the ``Ctx`` dependency.

Its methods are the request helpers every page needs: the reader's language
(``lang_of``), the CSRF tokens (``csrf_for``, ``form_of``), the GM's session
(``gm_session``), rendering (``render``, ``render_fragment``, ``error_response``) and the
look-ups that answer 404 (``encounter_or_404``, ``campaign_or_404``, ...).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from collections.abc import Callable, Mapping
from typing import Annotated, Any, ParamSpec, TypeVar

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from conteur.engine import CommandEntry
from conteur.engine.commands import Command
from conteur.engine.visibility import Viewer
from conteur.i18n import ConteurError, Lang, parse_lang
from conteur.store import CampaignInfo, CharacterInfo, EncounterInfo, Store

from . import view
from .address import Hosting
from .live import Notifier, campaign_key
from .panels import Panels, Snapshot
from .sessions import GmSessions
from .templating import package_templates
from .throttle import LoginThrottle
from .view import msg

GM_COOKIE = "conteur_gm"
SESSION_COOKIE_SECONDS = 3600 * 24 * 365
"""The session cookie outlives the browser's closing (the stored session decides)."""
LANG_COOKIE = "conteur_lang"

P = ParamSpec("P")
T = TypeVar("T")


class NeedGm(Exception):
    """A game-master page asked without a valid session."""


class BadCsrf(Exception):
    """A POST without the right CSRF token."""


class NotFound(Exception):
    """An unknown player token, campaign or encounter."""


def int_id(raw: str) -> int:
    """A path's id (NotFound for anything but a plain, not too large, number)."""
    try:
        value = int(raw)
    except ValueError:
        raise NotFound() from None
    if value < 0 or value > 2**62:
        raise NotFound()
    return value


async def call(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``fn`` run in a worker thread (the store's calls: the event loop stays free)."""
    return await run_in_threadpool(fn, *args, **kwargs)


async def read_form(request: Request) -> FormData:
    """The request's form (a body that is not one: ``web.bad_form``)."""
    try:
        return await request.form()
    except Exception:  # a body that is not a form
        raise ConteurError("web.bad_form") from None


class AppContext:
    """The state of one app (``create_app``) and the helpers its routes share."""

    def __init__(
        self,
        store: Store,
        *,
        secret: bytes,
        hosting: Hosting,
        session_idle: float | None,
    ) -> None:
        self.store = store
        self.notifier = Notifier()
        self.secret = secret
        self.hosting = hosting
        self.throttle = LoginThrottle()
        self.sessions = GmSessions(store, secret, idle=session_idle)
        self.env = package_templates()
        self.panels = Panels(store, self.render_fragment)
        self.pending: dict[tuple[Any, ...], asyncio.Task[Snapshot | None]] = {}
        """The snapshots being built for the live streams (``streams.latest``), by
        encounter, language, viewer and notifier version."""

    # ---------------------------------------------------------------- requests

    def lang_of(self, request: Request) -> Lang:
        """The reader's choice (cookie), else the table's language (players), else French."""
        default = getattr(request.state, "lang_default", None)
        return parse_lang(request.cookies.get(LANG_COOKIE) or default or "fr")

    def csrf_for(self, subject: str) -> str:
        return hmac.new(self.secret, subject.encode("utf-8"), hashlib.sha256).hexdigest()

    async def gm_session(self, request: Request) -> str:
        """The GM's session cookie, when it names an open stored session (NeedGm otherwise);
        its stored id goes to ``request.state.gm_session_id``."""
        sid = request.cookies.get(GM_COOKIE, "")
        session_id = await self.sessions.check(sid)
        if session_id is None:
            raise NeedGm()
        request.state.gm_session_id = session_id
        request.state.gm_cookie = sid
        return sid

    def gm_csrf(self, request: Request) -> str | None:
        """The CSRF token of the GM's forms, once ``gm_session`` has found the session (None
        before, or on a player's page)."""
        gm_cookie = getattr(request.state, "gm_cookie", None)
        return self.csrf_for(gm_cookie) if gm_cookie else None

    async def form_of(self, request: Request, subject: str) -> dict[str, str]:
        """The form's text fields, once its CSRF token (made for ``subject``) is checked."""
        form = await read_form(request)
        values = {k: v for k, v in form.items() if isinstance(v, str)}
        sent = request.headers.get("x-csrf-token") or values.get("csrf", "")
        if not hmac.compare_digest(str(sent), self.csrf_for(subject)):
            raise BadCsrf()
        return values

    # ---------------------------------------------------------------- rendering

    def render_fragment(self, name: str, lang: Lang, **context: Any) -> str:
        """A template in ``lang`` (no request needed: the live streams render panels too)."""

        def tr(k: str, **params: Any) -> str:
            return msg(k, lang, **params)

        return self.env.get_template(name).render(
            lang=lang,
            _=tr,
            word=lambda v, names=None, ruleset="", param="": view.word(
                v, lang, names, ruleset, param
            ),
            option=view.option_text,
            ruleset_title=lambda ruleset: view.ruleset_title(ruleset, lang),
            era_title=lambda ruleset, era: view.era_title(ruleset, era, lang),
            **context,
        )

    def render(
        self, request: Request, name: str, status: int = 200, **context: Any
    ) -> HTMLResponse:
        lang = self.lang_of(request)
        here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        public_url = self.hosting.base(str(request.base_url))
        logout = self.gm_csrf(request)
        html = self.render_fragment(
            name,
            lang,
            here=here,
            request=request,
            public_url=public_url,
            logout_csrf=logout,
            **context,
        )
        return HTMLResponse(html, status_code=status)

    def error_response(
        self, request: Request, error: ConteurError, status: int = 400
    ) -> HTMLResponse:
        lang = self.lang_of(request)
        text = error.message(lang)
        if request.headers.get("hx-request"):
            return self.render(request, "_message.html", status, message=text, kind="error")
        return self.render(request, "error.html", status, message=text)

    # ---------------------------------------------------------------- look-ups

    async def encounter_or_404(self, eid: int) -> EncounterInfo:
        try:
            return await call(self.store.get_encounter, eid)
        except ConteurError:
            raise NotFound() from None

    async def campaign_or_404(self, cid: int) -> CampaignInfo:
        try:
            return await call(self.store.get_campaign, cid)
        except ConteurError:
            raise NotFound() from None

    async def character_or_404(self, char_id: str) -> CharacterInfo:
        try:
            return await call(self.store.get_character, int_id(char_id))
        except ConteurError:
            raise NotFound() from None

    async def gm_encounter(
        self, request: Request, eid: str
    ) -> tuple[str, EncounterInfo, dict[str, str]]:
        """A GM's form on an encounter: the session, the encounter (404), the form (CSRF
        checked)."""
        sid = await self.gm_session(request)
        info = await self.encounter_or_404(int_id(eid))
        values = await self.form_of(request, sid)
        return sid, info, values

    async def snapshot_or_404(
        self, eid: int, lang: Lang, *, viewer: Viewer, info: EncounterInfo | None = None
    ) -> Snapshot:
        if info is None:
            info = await self.encounter_or_404(eid)
        return await call(self.panels.snapshot, eid, lang, viewer=viewer, info=info)

    async def follow_campaign(self, campaign_id: int) -> None:
        """The campaign's fight changed (one opened or closed): its table's screen and its
        players' pages are woken, those waiting for a fight and those showing another."""
        self.notifier.notify(campaign_key(campaign_id))
        for other in await call(self.store.list_encounters, campaign_id, "open"):
            self.notifier.notify(other.id)


def form_command(store: Store, eid: int, values: Mapping[str, str]) -> Command:
    """The command a form sends, read under the store's lock (another command may be
    changing the live state)."""
    return store.read_encounter(eid, lambda enc: view.command_from_form(enc, values))


def execute(store: Store, eid: int, command: Command, values: Mapping[str, str]) -> CommandEntry:
    """``command`` run with the dice its form typed (none: the program rolls them)."""
    dice, exact = view.dice_from_form(values)
    return store.execute(eid, command, dice, all_dice_used=exact)


def app_context(request: Request) -> AppContext:
    """The dependency that hands a route its app's context."""
    context: AppContext = request.app.state.context
    return context


Ctx = Annotated[AppContext, Depends(app_context)]
"""A route's parameter for its app's context (``ctx: Ctx``)."""
