"""The FastAPI application: the game master's pages, the players' pages, live streams.

Security: the game master opens ``/?token=…`` (printed by ``conteur serve``: the
token opens one session, then stops working), or types the password in the login
form of any GM page (``POST /login``, so it never lands in a URL); when no password
has been chosen yet, the token's session first asks for one (``/password``). A valid
secret (checked against the stored hash, in a worker thread) opens a session, stored
(``sessions``: it survives restarts, the settings page lists and revokes them) and
kept in an HttpOnly cookie, and redirects to a path of this site only. Failed attempts
slow the next ones from the same address down (``throttle``). Every POST carries a
CSRF token (hidden field ``csrf`` or header ``X-CSRF-Token``) derived from the session
(or, on a player's page, from the player's token). A refused input answers with a
message in the reader's language and changes nothing; an undo names the seq
its page showed, and a stale one is refused (409) with the fresh state.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import hmac
import json
import re
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Mapping
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlencode

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from markupsafe import Markup
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Scope
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from conteur.dice import TypedDice
from conteur.engine.commands import Command, Param
from conteur.engine.hidden import mentioned, parse_line
from conteur.engine.inputs import safe_yaml
from conteur.engine.registry import available_rulesets, get_ruleset
from conteur.engine.sheetform import FormErrors, SheetForm, build_sheet, sheet_values
from conteur.engine.shown import SHOW
from conteur.engine.visibility import GM, Viewer
from conteur.i18n import ConteurError, Lang, parse_lang
from conteur.i18n import t as msg_of
from conteur.store import CharacterInfo, EncounterInfo, Participant, Store
from conteur.store.auth import MIN_PASSWORD

from . import rolls as table_rolls
from . import view
from .address import Hosting, SecureCookies
from .live import Notifier, campaign_key, listen_for_changes
from .login import TokenLogin, client_of, local_path, without_token
from .panels import CSRF_SLOT, LOG_SLOT, TOKEN_SLOT, Panels, Snapshot, table_viewer
from .qr import qr_svg
from .sessions import GmSessions, describe_agent, format_moment, idle_seconds
from .templating import package_templates
from .throttle import LoginThrottle
from .view import msg
from .warmup import warm_up

GM_COOKIE = "conteur_gm"
SESSION_COOKIE_SECONDS = 3600 * 24 * 365
"""The session cookie outlives the browser's closing (the stored session decides)."""
FROM_ENVIRONMENT = -1.0
"""``create_app``'s ``session_idle``: read ``CONTEUR_SESSION_IDLE`` (``idle_seconds``)."""
LANG_COOKIE = "conteur_lang"
CSRF_BYTES = CSRF_SLOT.encode()
TOKEN_BYTES = TOKEN_SLOT.encode()
PING_SECONDS = 15.0
POLL_SECONDS = 2.0
SWITCH_SECONDS = 0.001
MOVED = b"event: moved\ndata: {}\n\n"
"""What a table's or a player's stream says when the campaign's fight is another one now
(one opened, the one shown closed): the page loads the new one."""
OPTION = "opt_"
"""The prefix of the odds' options in a query (``opt_<name>=<value>``)."""


class NeedGm(Exception):
    """A game-master page asked without a valid session."""


class BadCsrf(Exception):
    """A POST without the right CSRF token."""


class NotFound(Exception):
    """An unknown player token, campaign or encounter."""


def campaign_flags(values: Mapping[str, str]) -> dict[str, bool]:
    """A campaign's settings from its form: players send their actions (``player_input``),
    players drag their own token on the map (``player_moves``)."""
    return {name: bool(values.get(name)) for name in ("player_input", "player_moves")}


def create_app(
    store: Store,
    *,
    secret: bytes | None = None,
    hosting: Hosting | None = None,
    session_idle: float | None = FROM_ENVIRONMENT,
    warm: bool = False,
) -> FastAPI:
    """The web app over ``store`` (the game master's token is set with ``store.new_gm_token``).

    ``secret`` signs the sessions and the CSRF tokens (default: the key the database keeps,
    ``Store.signing_key``, the same for every process and after a restart); ``hosting`` is
    the public address and the trusted proxies (``web.hosting``; default: links follow the
    request, a proxy on 127.0.0.1); ``session_idle``: the seconds a GM's session may stay
    unseen before it expires (None: never; default: ``CONTEUR_SESSION_IDLE``, in hours, else
    ``sessions.IDLE_HOURS``); ``warm``: before its first request the server compiles its
    templates, reads the rule catalogues and draws the open encounters (``web.warmup``: a
    restart does not make the first reader wait; tests' apps skip it).
    """

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Worker threads (commands, snapshots) hand the interpreter back to the event loop
        # often, so the live streams are not kept waiting behind them.
        previous = sys.getswitchinterval()
        sys.setswitchinterval(min(previous, SWITCH_SECONDS))
        # On PostgreSQL, other processes' commands wake this one's streams at once.
        listening = listen_for_changes(store, app.state.notifier, panels.forget)
        if warm:  # the first page after a start renders at its steady speed
            app.state.warmed = await run_in_threadpool(
                warm_up, store, lambda e: panels.snapshot(e, "fr", viewer=GM)
            )
        app.state.listener = listening[1] if listening else None
        try:
            yield
        finally:
            sys.setswitchinterval(previous)
            if listening is not None:
                listening[0].cancel()
            app.state.notifier.close()  # open streams end, so the server can stop

    app = FastAPI(
        title="conteur", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan
    )
    app.state.store = store
    app.state.notifier = Notifier()
    app.state.secret = secret or store.signing_key()
    app.state.hosting = hosting = hosting or Hosting()
    app.state.throttle = LoginThrottle()
    env = package_templates()
    notifier: Notifier = app.state.notifier
    key: bytes = app.state.secret
    throttle: LoginThrottle = app.state.throttle
    if session_idle is not None and session_idle < 0:
        session_idle = idle_seconds()
    sessions = app.state.sessions = GmSessions(store, key, idle=session_idle)

    from importlib import resources

    static = resources.files("conteur.web").joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    # -------------------------------------------------------------- helpers

    def lang_of(request: Request) -> Lang:
        """The reader's choice (cookie), else the table's language (players), else French."""
        default = getattr(request.state, "lang_default", None)
        return parse_lang(request.cookies.get(LANG_COOKIE) or default or "fr")

    def csrf_for(subject: str) -> str:
        return hmac.new(key, subject.encode("utf-8"), hashlib.sha256).hexdigest()

    async def gm_session(request: Request) -> str:
        """The GM's session cookie, when it names an open stored session (NeedGm otherwise);
        its stored id goes to ``request.state.gm_session_id``."""
        sid = request.cookies.get(GM_COOKIE, "")
        session_id = await sessions.check(sid)
        if session_id is None:
            raise NeedGm()
        request.state.gm_session_id = session_id
        request.state.gm_cookie = sid
        return sid

    async def form_of(request: Request, subject: str) -> dict[str, str]:
        try:
            form = await request.form()
        except Exception:  # a body that is not a form
            raise ConteurError("web.bad_form") from None
        values = {k: v for k, v in form.items() if isinstance(v, str)}
        sent = request.headers.get("x-csrf-token") or values.get("csrf", "")
        if not hmac.compare_digest(str(sent), csrf_for(subject)):
            raise BadCsrf()
        return values

    def render_fragment(name: str, lang: Lang, **context: Any) -> str:
        """A template in ``lang`` (no request needed: the live streams render panels too)."""

        def tr(k: str, **params: Any) -> str:
            return msg(k, lang, **params)

        return env.get_template(name).render(
            lang=lang, _=tr, word=lambda v, names=None: view.word(v, lang, names), **context
        )

    panels = Panels(store, render_fragment)
    app.state.panels = panels

    def render(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        lang = lang_of(request)
        here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        public_url = hosting.base(str(request.base_url))
        gm_cookie = getattr(request.state, "gm_cookie", None)
        logout = csrf_for(gm_cookie) if gm_cookie else None
        html = render_fragment(
            name,
            lang,
            here=here,
            request=request,
            public_url=public_url,
            logout_csrf=logout,
            **context,
        )
        return HTMLResponse(html, status_code=status)

    def error_response(request: Request, error: ConteurError, status: int = 400) -> HTMLResponse:
        lang = lang_of(request)
        text = error.message(lang)
        if request.headers.get("hx-request"):
            return render(request, "_message.html", status, message=text, kind="error")
        return render(request, "error.html", status, message=text)

    def int_id(raw: str) -> int:
        try:
            value = int(raw)
        except ValueError:
            raise NotFound() from None
        if value < 0 or value > 2**62:
            raise NotFound()
        return value

    async def call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return await run_in_threadpool(fn, *args, **kwargs)

    async def encounter_or_404(eid: int) -> Any:
        try:
            return await call(store.get_encounter, eid)
        except ConteurError:
            raise NotFound() from None

    async def campaign_or_404(cid: int) -> Any:
        try:
            return await call(store.get_campaign, cid)
        except ConteurError:
            raise NotFound() from None

    # -------------------------------------------------------------- errors

    @app.exception_handler(NeedGm)
    async def need_gm(request: Request, exc: NeedGm) -> Response:
        # After the login, back to the page asked for (a form sent without a session: home).
        target = "/"
        if request.method == "GET":
            target = without_token(request.url.path, request.url.query)
        return login_page(request, 401, None, target)

    @app.exception_handler(BadCsrf)
    async def bad_csrf(request: Request, exc: BadCsrf) -> Response:
        return error_response(request, ConteurError("web.bad_csrf"), 403)

    @app.exception_handler(NotFound)
    async def not_found(request: Request, exc: NotFound) -> Response:
        return error_response(request, ConteurError("web.not_found"), 404)

    @app.exception_handler(ConteurError)
    async def conteur_error(request: Request, exc: ConteurError) -> Response:
        return error_response(request, exc, 400)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> Response:
        return error_response(request, ConteurError("web.bad_form"), 400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404:
            return error_response(request, ConteurError("web.not_found"), 404)
        if exc.status_code == 405:
            return error_response(request, ConteurError("web.bad_method"), 405)
        return error_response(request, ConteurError("web.bad_form"), exc.status_code)

    # -------------------------------------------------------------- login and language

    async def open_session(scope: Scope, target: str) -> Response:
        """A new GM session (stored; its cookie), and a redirection to ``target`` (a local
        path) — first to the choice of a password when none has been chosen yet."""
        headers = dict(Request(scope).headers)
        sid = await sessions.open(agent=headers.get("user-agent", ""), address=client_of(scope))
        target = local_path(target)
        if not await call(store.has_gm_password):
            target = "/password?" + urlencode({"next": target})
        response: Response = RedirectResponse(target, status_code=303)
        response.set_cookie(
            GM_COOKIE, sid, httponly=True, samesite="lax", max_age=SESSION_COOKIE_SECONDS
        )
        return response

    async def check_login(client: str, secret: str) -> str | None:
        """What ``secret`` is (``Store.gm_login``: ``password``, ``token`` — used up now —,
        ``used`` or None), once ``client``'s delay has passed; ``wait``: too many attempts at
        once, refused unchecked. The scrypt checks run in a worker thread."""
        found: list[str | None] = []

        async def check() -> bool:
            kind = await call(store.gm_login, secret)
            found.append(kind)
            return kind in ("password", "token")

        ok = await throttle.attempt(client, check)
        if ok is None:
            return "wait"
        return found[0] if found else None

    def login_page(
        request: Request, status: int, error: str | None, target: str, used: bool = False
    ) -> Response:
        lang = lang_of(request)
        message = msg(error, lang) if error else None
        return render(
            request, "login.html", status, next=target, login_error=message, used_link=used
        )

    async def used_link_page(request: Request, target: str) -> Response:
        """A token link met again: it has opened its session; the password opens the next."""
        password = await call(store.has_gm_password)
        error = "login.used" if password else "login.used_no_password"
        return login_page(request, 410, error, target, used=True)

    async def login_with_token(token: str, scope: Scope) -> Response | None:
        """``GET /…?token=`` with the GM's token: a new session, and the page without the token
        (a used token: a page saying so; a wrong one: the page itself answers, the login form
        for a GM page)."""
        target = without_token(str(scope["path"]), scope["query_string"].decode("latin-1"))
        kind = await check_login(client_of(scope), token)
        if kind == "wait":
            return login_page(Request(scope), 429, "login.wait", target)
        if kind == "used":
            return await used_link_page(Request(scope), target)
        return await open_session(scope, target) if kind else None

    app.add_middleware(TokenLogin, login=login_with_token)

    @app.post("/login")
    async def login_form(request: Request) -> Response:
        """The login form (POST: the secret stays out of the URL and the history)."""
        try:
            form = await request.form()
        except Exception:  # a body that is not a form
            raise ConteurError("web.bad_form") from None
        secret, target = form.get("token", ""), form.get("next", "/")
        if not isinstance(secret, str) or not isinstance(target, str):
            raise ConteurError("web.bad_form")
        path, _, query = target.partition("?")
        target = local_path(without_token(path, query))
        kind = await check_login(client_of(request.scope), secret)
        if kind in ("password", "token"):
            return await open_session(request.scope, target)
        if kind == "used":
            return await used_link_page(request, target)
        wait = kind == "wait"
        return login_page(
            request, 429 if wait else 401, "login.wait" if wait else "login.wrong", target
        )

    # -------------------------------------------------------------- password and sessions

    def password_page(
        request: Request, sid: str, target: str, first: bool, status: int = 200, **extra: Any
    ) -> Response:
        return render(
            request,
            "password.html",
            status,
            csrf=csrf_for(sid),
            next=local_path(target),
            first=first,
            min_length=MIN_PASSWORD,
            **extra,
        )

    @app.get("/password", response_class=HTMLResponse)
    async def password_form(request: Request, next: str = "/") -> Response:
        """Choosing the GM's password (the first visit is sent here), or changing it."""
        sid = await gm_session(request)
        first = not await call(store.has_gm_password)
        return password_page(request, sid, next, first)

    @app.post("/password")
    async def password_set(request: Request) -> Response:
        sid = await gm_session(request)
        values = await form_of(request, sid)
        target = local_path(values.get("next", "/"))
        first = not await call(store.has_gm_password)
        password, confirm = values.get("password", ""), values.get("confirm", "")

        def refused(error: ConteurError, status: int = 422) -> Response:
            message = error.message(lang_of(request))
            return password_page(request, sid, target, first, status, message=message)

        if not first:  # changing it: the current one first (slowed down like a login)
            current = values.get("current", "")
            ok = await throttle.attempt(
                client_of(request.scope), lambda: call(store.check_gm_password, current)
            )
            if ok is None:
                return refused(ConteurError("web.login.wait"), 429)
            if not ok:
                return refused(ConteurError("web.password.current_wrong"), 403)
        if password != confirm:
            return refused(ConteurError("web.password.mismatch"))
        try:
            await call(store.set_gm_password, password)
        except ConteurError as error:
            return refused(error)
        return RedirectResponse(target if first else "/settings?changed=1", status_code=303)

    @app.get("/settings", response_class=HTMLResponse)
    async def settings_page(request: Request, changed: str = "") -> Response:
        """The GM's settings: the password, and the open sessions (each revocable)."""
        sid = await gm_session(request)
        lang = lang_of(request)
        items = await call(store.list_gm_sessions)
        return render(
            request,
            "settings.html",
            csrf=csrf_for(sid),
            sessions=items,
            current=request.state.gm_session_id,
            when=lambda moment: format_moment(moment, lang),
            device=describe_agent,
            changed=bool(changed),
            min_length=MIN_PASSWORD,
            first=not await call(store.has_gm_password),
            next="/settings",
        )

    @app.post("/settings/sessions/{session_id}/revoke")
    async def revoke_session(request: Request, session_id: str) -> Response:
        sid = await gm_session(request)
        await form_of(request, sid)
        if not await sessions.revoke(int_id(session_id)):
            raise NotFound()
        return RedirectResponse("/settings", status_code=303)

    @app.post("/logout")
    async def logout(request: Request) -> Response:
        """The game master leaves: this browser's session is revoked (its cookie opens
        nothing any more, here and after a restart) and the cookie goes."""
        sid = await gm_session(request)
        await form_of(request, sid)
        await sessions.revoke(request.state.gm_session_id)
        response = RedirectResponse("/", status_code=303)
        response.delete_cookie(GM_COOKIE, httponly=True, samesite="lax")
        return response

    @app.get("/lang/{choice}")
    async def set_lang(choice: str, next: str = "/") -> Response:
        response = RedirectResponse(local_path(next), status_code=303)
        response.set_cookie(
            LANG_COOKIE, parse_lang(choice), samesite="lax", max_age=3600 * 24 * 365
        )
        return response

    # -------------------------------------------------------------- campaigns

    @app.get("/", response_class=HTMLResponse)
    async def home(request: Request) -> Response:
        sid = await gm_session(request)
        campaigns = await call(store.list_campaigns)
        return render(
            request,
            "campaigns.html",
            campaigns=campaigns,
            csrf=csrf_for(sid),
            rulesets=available_rulesets(),
        )

    @app.post("/campaigns")
    async def create_campaign(request: Request) -> Response:
        sid = await gm_session(request)
        values = await form_of(request, sid)
        ruleset = values.get("ruleset", "")
        if ruleset not in available_rulesets():
            raise ConteurError("web.bad_choice", field="ruleset", value=ruleset)
        era = values.get("era", "").strip() or None
        campaign = await call(
            store.create_campaign,
            values.get("name", ""),
            ruleset,
            era=era,
            settings=campaign_flags(values),
        )
        return RedirectResponse(f"/c/{campaign.id}", status_code=303)

    @app.get("/c/{cid}", response_class=HTMLResponse)
    async def campaign_page(request: Request, cid: str) -> Response:
        sid = await gm_session(request)
        campaign = await campaign_or_404(int_id(cid))
        return await campaign_view(request, sid, campaign)

    async def campaign_view(
        request: Request,
        sid: str,
        campaign: Any,
        status: int = 200,
        **forms: Any,
    ) -> Response:
        """The campaign page; ``forms``: a refused form's values and errors, to show again."""
        characters = await call(store.list_characters, campaign.id)
        encounters = await call(store.list_encounters, campaign.id)
        table_token = await call(store.table_token, campaign.id)
        ruleset = get_ruleset(campaign.ruleset)
        lang = lang_of(request)
        archetypes, quick = view.npc_choices(ruleset, lang, campaign.era)
        context: dict[str, Any] = {
            "sheet_values": {},
            "sheet_errors": FormErrors(),
            "builder_error": "",
            "foundry_error": "",
            **forms,
        }
        return render(
            request,
            "campaign.html",
            status,
            campaign=campaign,
            characters=characters,
            encounters=encounters,
            table_token=table_token,
            csrf=csrf_for(sid),
            qr=qr_svg,
            sheet_form=ruleset.sheet_form(campaign.era),
            formats=sorted(ruleset.importers()),
            builder=view.Builder(archetypes, quick, NPC_ROWS),
            **context,
        )

    # -------------------------------------------------------------- sheet forms (issue 16)

    @app.post("/c/{cid}/sheet")
    async def sheet_from_form(request: Request, cid: str) -> Response:
        """A character from the sheet form: built from the ruleset's description, then checked
        exactly as an import is (``Store.add_character``); a refusal shown beside its field."""
        sid = await gm_session(request)
        campaign = await campaign_or_404(int_id(cid))
        await form_of(request, sid)
        form = await request.form()
        sheet_form = get_ruleset(campaign.ruleset).sheet_form(campaign.era)
        if sheet_form is None:
            raise NotFound()
        sent = {k: [str(v) for v in form.getlist(k)] for k in form}
        sheet = build_sheet(sheet_form, lambda name: sent.get(name, []))
        state = sheet.pop("state", {})
        lang = lang_of(request)
        try:
            char = await call(
                store.add_character,
                campaign.id,
                sheet,
                state,
                source=msg_of("web.sheet.source", lang),
            )
        except ConteurError as error:
            errors = FormErrors.of(sheet_form, error, lang)
            return await campaign_view(
                request, sid, campaign, 422, sheet_values=sent, sheet_errors=errors
            )
        return RedirectResponse(f"/characters/{char.id}", status_code=303)

    @app.post("/c/{cid}/import-file")
    async def import_file(request: Request, cid: str) -> Response:
        """A file of another program (``Ruleset.importers``: Foundry VTT's actor export) as a
        character; what could not be carried over is listed on the character's page."""
        sid = await gm_session(request)
        campaign = await campaign_or_404(int_id(cid))
        values = await form_of(request, sid)
        form = await request.form()
        upload = form.get("file")
        lang = lang_of(request)
        importers = get_ruleset(campaign.ruleset).importers()
        fmt = values.get("format", "")
        try:
            if fmt not in importers:
                raise ConteurError("web.bad_choice", field="format", value=fmt)
            if upload is None or isinstance(upload, str):
                raise ConteurError("web.missing", field="file")
            raw = await upload.read(MAX_UPLOAD + 1)
            name = str(upload.filename or "actor.json")
            if len(raw) > MAX_UPLOAD:
                raise ConteurError("web.too_long", field="file")
            try:
                data = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError):
                raise ConteurError("web.import.not_json", file=name) from None
            result = importers[fmt](data, name)
            char = await call(
                store.add_character, campaign.id, result.sheet, result.state, source=name
            )
        except ConteurError as error:
            return await campaign_view(
                request, sid, campaign, 422, foundry_error=error.message(lang)
            )
        unmapped = [u.to_dict(lang) for u in result.unmapped]
        return await character_view(request, sid, char, unmapped=unmapped)

    @app.post("/c/{cid}/settings")
    async def campaign_settings(request: Request, cid: str) -> Response:
        sid = await gm_session(request)
        campaign = await campaign_or_404(int_id(cid))
        values = await form_of(request, sid)
        await call(
            store.update_campaign,
            campaign.id,
            settings=campaign_flags(values),
        )
        panels.forget()
        return RedirectResponse(f"/c/{campaign.id}", status_code=303)

    @app.post("/c/{cid}/privacy")
    async def campaign_privacy(request: Request, cid: str) -> Response:
        """What the campaign's players see (``Privacy``): ally health, NPC names, NPC dice."""
        sid = await gm_session(request)
        campaign = await campaign_or_404(int_id(cid))
        values = await form_of(request, sid)
        chosen = {
            "ally_health": values.get("ally_health", "words"),
            "npc_names": values.get("npc_names", "names"),
            "npc_dice": view.checked(values.get("npc_dice")),
        }
        await call(store.set_privacy, campaign.id, chosen)
        panels.forget()
        for info in await call(store.list_encounters, campaign.id, "open"):
            notifier.notify(info.id)  # the open pages follow at once
        return RedirectResponse(f"/c/{campaign.id}", status_code=303)

    @app.post("/c/{cid}/characters")
    async def import_characters(request: Request, cid: str) -> Response:
        sid = await gm_session(request)
        campaign = await campaign_or_404(int_id(cid))
        values = await form_of(request, sid)
        fmt = values.get("format", "yaml")
        if fmt not in ("yaml", "json"):
            raise ConteurError("web.bad_choice", field="format", value=fmt)
        text = values.get("text", "")
        if not text.strip():
            raise ConteurError("web.missing", field="text")
        if len(text) > 200_000:
            raise ConteurError("web.too_long", field="text")
        await call(store.import_characters, campaign.id, text, fmt, source="formulaire")
        return RedirectResponse(f"/c/{campaign.id}", status_code=303)

    @app.get("/c/{cid}/export")
    async def export_characters(request: Request, cid: str, fmt: str = "yaml") -> Response:
        await gm_session(request)
        campaign = await campaign_or_404(int_id(cid))
        if fmt not in ("yaml", "json"):
            raise ConteurError("web.bad_choice", field="fmt", value=fmt)
        text = await call(store.export_characters, campaign.id, fmt)
        return _download(text, f"campaign-{campaign.id}.{fmt}", fmt)

    @app.get("/characters/{char_id}/export")
    async def export_character(request: Request, char_id: str, fmt: str = "yaml") -> Response:
        await gm_session(request)
        if fmt not in ("yaml", "json"):
            raise ConteurError("web.bad_choice", field="fmt", value=fmt)
        try:
            text = await call(store.export_character, int_id(char_id), fmt)
        except ConteurError:
            raise NotFound() from None
        return _download(text, f"character-{char_id}.{fmt}", fmt)

    async def character_or_404(char_id: str) -> CharacterInfo:
        try:
            char = await call(store.get_character, int_id(char_id))
        except ConteurError:
            raise NotFound() from None
        assert isinstance(char, CharacterInfo)
        return char

    @app.get("/characters/{char_id}", response_class=HTMLResponse)
    async def character_page(request: Request, char_id: str) -> Response:
        sid = await gm_session(request)
        char = await character_or_404(char_id)
        return await character_view(request, sid, char)

    async def character_view(
        request: Request, sid: str, char: CharacterInfo, status: int = 200, **extra: Any
    ) -> Response:
        """A character's page: its sheet, its written-back state in words and as a form."""
        history = await call(store.character_history, char.id)
        campaign = await campaign_or_404(char.campaign_id)
        state_form = get_ruleset(campaign.ruleset).state_form(char.state or {}, campaign.era)
        state_values = sheet_values(state_form, {"state": char.state or {}}) if state_form else {}
        sheet_form = editable_form(campaign, char)
        context: dict[str, Any] = {
            "state_values": state_values,
            "state_errors": FormErrors(),
            "unmapped": None,
            "sheet_form": sheet_form,
            "sheet_values": (
                sheet_values(sheet_form, {**char.sheet, "state": char.state or {}})
                if sheet_form
                else {}
            ),
            "sheet_errors": FormErrors(),
            **extra,
        }
        return render(
            request,
            "character.html",
            status,
            char=char,
            csrf=csrf_for(sid),
            qr=qr_svg,
            sheet_yaml=_yaml(char.sheet),
            state_yaml=_yaml(char.state) if char.state else "",
            state_form=state_form,
            history=list(reversed(history)),
            reason=lambda v: v.describe_reason(lang_of(request)),
            **context,
        )

    def editable_form(campaign: Any, char: CharacterInfo) -> SheetForm | None:
        """The ruleset's sheet form, when it gives back this very sheet (a sheet written in
        YAML with fields the form has not stays editable as YAML only)."""
        ruleset = get_ruleset(campaign.ruleset)
        form = ruleset.sheet_form(campaign.era)
        if form is None:
            return None
        values = sheet_values(form, {**char.sheet, "state": char.state or {}})
        built = build_sheet(form, lambda name: values.get(name, []))
        built.pop("state", None)
        if built == char.sheet:
            return form
        try:
            ours, theirs = ruleset.load_sheet(built), ruleset.load_sheet(char.sheet)
        except ConteurError:
            return None
        return form if isinstance(ours, BaseModel) and ours == theirs else None

    @app.post("/characters/{char_id}/sheet-form")
    async def character_sheet_form(request: Request, char_id: str) -> Response:
        """The sheet corrected through its form (checked as an import; side in the state)."""
        sid = await gm_session(request)
        char = await character_or_404(char_id)
        await form_of(request, sid)
        form = await request.form()
        campaign = await campaign_or_404(char.campaign_id)
        sheet_form = editable_form(campaign, char)
        if sheet_form is None:
            raise NotFound()
        sent = {k: [str(v) for v in form.getlist(k)] for k in form}
        sheet = build_sheet(sheet_form, lambda name: sent.get(name, []))
        side = sheet.pop("state", {}).get("side")
        state = {k: v for k, v in (char.state or {}).items() if k != "side"}
        if side:
            state["side"] = side
        try:
            await call(store.update_character, char.id, sheet=sheet, state=state, source=char.name)
        except ConteurError as error:
            errors = FormErrors.of(sheet_form, error, lang_of(request))
            return await character_view(
                request, sid, char, 422, sheet_values=sent, sheet_errors=errors
            )
        return RedirectResponse(f"/characters/{char.id}", status_code=303)

    @app.post("/characters/{char_id}/state")
    async def character_state(request: Request, char_id: str) -> Response:
        """The GM corrects the written-back state between fights (checked as an import)."""
        sid = await gm_session(request)
        char = await character_or_404(char_id)
        await form_of(request, sid)
        form = await request.form()
        campaign = await campaign_or_404(char.campaign_id)
        state_form = get_ruleset(campaign.ruleset).state_form(char.state or {}, campaign.era)
        if state_form is None:
            raise NotFound()
        sent = {k: [str(v) for v in form.getlist(k)] for k in form}
        edited = build_sheet(state_form, lambda name: sent.get(name, [])).get("state", {})
        kept = {k: v for k, v in (char.state or {}).items() if not state_form.field(f"state.{k}")}
        kept = {
            k: v
            for k, v in kept.items()
            if not any(f.key.startswith(f"state.{k}.") for f in state_form.fields())
        }
        try:
            await call(store.update_character, char.id, state={**kept, **edited}, source=char.name)
        except ConteurError as error:
            lang = lang_of(request)
            errors = FormErrors.of(state_form, error, lang)
            return await character_view(
                request, sid, char, 422, state_values=sent, state_errors=errors
            )
        return RedirectResponse(f"/characters/{char.id}", status_code=303)

    @app.post("/characters/{char_id}")
    async def character_edit(request: Request, char_id: str) -> Response:
        sid = await gm_session(request)
        char = await character_or_404(char_id)
        values = await form_of(request, sid)
        sheet = _parse_mapping(values.get("sheet", ""), "sheet")
        await call(store.update_character, char.id, sheet=sheet, source=char.name)
        return RedirectResponse(f"/characters/{char.id}", status_code=303)

    @app.post("/characters/{char_id}/token")
    async def character_token(request: Request, char_id: str) -> Response:
        sid = await gm_session(request)
        char = await character_or_404(char_id)
        await form_of(request, sid)
        await call(store.new_player_token, char.id)
        return RedirectResponse(f"/characters/{char.id}", status_code=303)

    @app.post("/c/{cid}/encounters")
    async def start_encounter(request: Request, cid: str) -> Response:
        sid = await gm_session(request)
        campaign = await campaign_or_404(int_id(cid))
        form = await request.form()
        values = await form_of(request, sid)
        chosen = [str(v) for v in form.getlist("characters")]
        characters = {str(c.id): c for c in await call(store.list_characters, campaign.id)}
        participants = []
        for raw in chosen:
            char = characters.get(raw)
            if char is None:
                raise ConteurError("web.bad_choice", field="characters", value=raw)
            side = values.get(f"side_{raw}", "").strip() or None
            extra = {"hidden": True} if values.get(f"hidden_{raw}") else {}
            participants.append(Participant(char.id, side=side, extra=extra))
        ruleset = get_ruleset(campaign.ruleset)
        lang = lang_of(request)
        npcs: list[dict[str, Any]] = []
        try:  # a refused NPC row: said on the page, the rows kept
            for row in range(1, NPC_ROWS + 1):
                prefix = f"npc{row}_"
                mine = {k[len(prefix) :]: v for k, v in values.items() if k.startswith(prefix)}
                if mine.get("who", "") == "":
                    continue
                entry = view.npc_entry(ruleset, mine, lang, campaign.era)
                taken = {str(n.get("id")) for n in npcs} | {c.slug for c in characters.values()}
                base, number = str(entry.get("id") or "npc"), 1
                while str(entry.get("id")) in taken:  # two thugs: thug, thug-2
                    number += 1
                    entry["id"] = f"{base}-{number}"
                npcs.append(entry)
        except ConteurError as error:
            return await campaign_view(
                request, sid, campaign, 422, builder_error=error.message(lang)
            )
        if not participants and not npcs:
            raise ConteurError("web.no_participant")
        info = await call(
            store.start_encounter, campaign.id, values.get("name", ""), participants, npcs=npcs
        )
        await follow_campaign(campaign.id)
        return RedirectResponse(f"/e/{info.id}", status_code=303)

    async def follow_campaign(campaign_id: int) -> None:
        """The campaign's fight changed (one opened or closed): its table's screen and its
        players' pages are woken, those waiting for a fight and those showing another."""
        notifier.notify(campaign_key(campaign_id))
        for other in await call(store.list_encounters, campaign_id, "open"):
            notifier.notify(other.id)

    # -------------------------------------------------------------- the encounter (GM)

    async def snapshot_or_404(
        eid: int, lang: Lang, *, viewer: Viewer, info: EncounterInfo | None = None
    ) -> Snapshot:
        if info is None:
            info = await encounter_or_404(eid)
        snap: Snapshot = await call(panels.snapshot, eid, lang, viewer=viewer, info=info)
        return snap

    def gm_context(
        snap: Snapshot, sid: str, *, streamed: bool = False, **extra: Any
    ) -> dict[str, Any]:
        return {
            "info": snap.info,
            "seq": snap.seq,
            "csrf": csrf_for(sid),
            "roster": snap.roster,
            "names": snap.names,
            "sit": snap.sit,
            "forms_html": snap.forms_for("turn", csrf_for(sid)),
            "tools_html": snap.forms_for("tools", csrf_for(sid)),
            "current_html": snap.forms_for("current", csrf_for(sid)),
            "turn_html": snap.turn_html,
            "log_html": LOG_SLOT if streamed else snap.log_html,
            "odds": snap.odds,
            "odds_kinds": snap.all_kinds(),
            "current": snap.current,
            "hidden": snap.hidden,
            "redo": snap.redo,
            "report": snap.report,
            "joining": snap.joining,
            "battle_map": snap.battle_map,
            **extra,
        }

    async def gm_panel(
        request: Request, eid: int, sid: str, info: EncounterInfo | None = None, **extra: Any
    ) -> dict[str, Any]:
        snap = await snapshot_or_404(eid, lang_of(request), viewer=GM, info=info)
        if snap.joining is not None:  # the campaign's characters as they are now
            extra.setdefault("joining", await call(panels.joining, eid, lang_of(request)))
        return gm_context(snap, sid, **extra)

    @app.get("/e/{eid}", response_class=HTMLResponse)
    async def encounter_page(request: Request, eid: str) -> Response:
        sid = await gm_session(request)
        context = await gm_panel(request, int_id(eid), sid)
        return render(request, "encounter.html", **context)

    @app.get("/e/{eid}/panel", response_class=HTMLResponse)
    async def encounter_panel(request: Request, eid: str) -> Response:
        sid = await gm_session(request)
        context = await gm_panel(request, int_id(eid), sid)
        return render(request, "_gm_panel.html", **context)

    async def after_command(
        request: Request, info: EncounterInfo, sid: str, action: Callable[[], Any]
    ) -> Response:
        """Run ``action`` (a store call); the refreshed panel, or the panel and the refusal."""
        lang = lang_of(request)
        try:
            await call(action)
        except ConteurError as error:
            context = await gm_panel(
                request, info.id, sid, info, message=error.message(lang), kind="error"
            )
            moved = error.key in ("store.encounter.moved", "store.encounter.moved_redo")
            status = 409 if moved else 422  # and the fresh state
            return render(request, "_gm_panel.html", status, **context)
        notifier.notify(info.id)
        await asyncio.sleep(0)  # the woken streams go first
        woken = ("v", notifier.version(info.id))
        building = [t for k, t in pending.items() if k[0] == info.id and k[3] == woken]
        if building:  # their snapshot before this answer's (both want the store's lock)
            await asyncio.wait(building)
        if request.headers.get("hx-request"):
            context = await gm_panel(request, info.id, sid, info)
            return render(request, "_gm_panel.html", **context)
        return RedirectResponse(f"/e/{info.id}", status_code=303)

    def seen_seq(values: dict[str, str]) -> int:
        """The seq the page showed (its ``seq`` field), which an undo must name: a stale tab's
        undo is refused rather than retracting what someone else just did."""
        raw = values.get("seq", "").strip()
        if not _EVENT_ID.fullmatch(raw):
            raise ConteurError("web.missing", field="seq")
        return int(raw)

    @app.post("/e/{eid}/command")
    async def encounter_command(request: Request, eid: str) -> Response:
        sid = await gm_session(request)
        info = await encounter_or_404(int_id(eid))
        values = await form_of(request, sid)

        def action() -> Any:
            # Read under the store's lock: another command may be changing the live state.
            command = store.read_encounter(info.id, lambda enc: view.command_from_form(enc, values))
            dice, exact = view.dice_from_form(values)
            return store.execute(info.id, command, dice, all_dice_used=exact)

        return await after_command(request, info, sid, action)

    # -------------------------------------------------------------- rolls at the table

    async def rolls_view(
        request: Request, info: EncounterInfo, *, me: str | None = None, gm: bool = True
    ) -> table_rolls.RollsView | None:
        request.state.rolls_at = time.time()
        return await rolls_now(info, lang_of(request), me=me, gm=gm)

    async def rolls_now(
        info: EncounterInfo, lang: Lang, *, me: str | None = None, gm: bool = True
    ) -> table_rolls.RollsView | None:
        campaign = await campaign_or_404(info.campaign_id)
        result: table_rolls.RollsView | None = await call(
            table_rolls.view_of,
            store,
            info.id,
            lang,
            player_input=bool(campaign.settings.get("player_input")),
            players=info.characters,
            me=me,
            gm=gm,
        )
        return result

    def rolls_box(
        rolls: table_rolls.RollsView | None,
        lang: Lang,
        url: str,
        csrf: str,
        status: int = 200,
        error: str | None = None,
        at: float = 0.0,
    ) -> dict[str, Any]:
        """What ``_rolls.html`` needs to show the waiting action's pad (filled). ``at``: when
        the pad was read (before reading it), so that a page shows no box older than the one
        it has: a stream's news read before a command's answer may come after it."""
        return {
            "rolls_at": f"{at:.6f}",
            "rolls": rolls,
            "rolls_url": url,
            "csrf": csrf,
            "rolls_error": error,
            "rolls_version": rolls.version if rolls else table_rolls.NONE_VERSION,
            "rolls_filled": True,
            "rolls_stale_text": msg_of("store.pending.stale", lang),
        }

    def pad_of(
        info: EncounterInfo, lang: Lang, url: str, csrf: str, *, me: str | None, gm: bool
    ) -> Callable[[], Awaitable[tuple[str, Callable[[], str]]]]:
        """A stream's reading of the pad its page shows: the version, and its box's HTML."""

        async def read() -> tuple[str, Callable[[], str]]:
            at = time.time()
            rolls = await rolls_now(info, lang, me=me, gm=gm)
            version = rolls.version if rolls else table_rolls.NONE_VERSION
            return version, lambda: render_fragment(
                "_rolls.html", lang, **rolls_box(rolls, lang, url, csrf, at=at)
            )

        return read

    def rolls_response(
        request: Request,
        rolls: table_rolls.RollsView | None,
        url: str,
        csrf: str,
        status: int = 200,
        error: str | None = None,
    ) -> Response:
        since = request.query_params.get("v")
        at = getattr(request.state, "rolls_at", 0.0)
        box = rolls_box(rolls, lang_of(request), url, csrf, status, error, at=at)
        if since is not None and since == box["rolls_version"] and status == 200 and not error:
            return Response(status_code=204)
        return render(request, "_rolls.html", status, **box)

    async def rolls_action(
        request: Request,
        info: EncounterInfo,
        url: str,
        csrf: str,
        work: Callable[[], Any],
        *,
        me: str | None = None,
        gm: bool = True,
    ) -> Response:
        error: str | None = None
        status = 200
        try:
            await call(work)
        except ConteurError as exc:
            error, status = exc.message(lang_of(request)), 422
            if exc.key in ("store.pending.moved", "store.pending.stale"):
                status = 409
                notifier.notify(info.id)  # a stale action was dropped: the pads show it
        else:
            notifier.notify(info.id)
        rolls = await rolls_view(request, info, me=me, gm=gm)
        return rolls_response(request, rolls, url, csrf, status, error)

    @app.post("/e/{eid}/rolls")
    async def rolls_begin(request: Request, eid: str) -> Response:
        """Start the action of a command form with the table's dice, one roll at a time."""
        sid = await gm_session(request)
        info = await encounter_or_404(int_id(eid))
        values = await form_of(request, sid)

        def action() -> Any:
            # Read under the store's lock: another command may be changing the live state.
            command = store.read_encounter(info.id, lambda enc: view.command_from_form(enc, values))
            return table_rolls.begin(store, info.id, command)

        return await after_command(request, info, sid, action)

    @app.get("/e/{eid}/rolls", response_class=HTMLResponse)
    async def rolls_get(request: Request, eid: str) -> Response:
        sid = await gm_session(request)
        info = await encounter_or_404(int_id(eid))
        rolls = await rolls_view(request, info)
        return rolls_response(request, rolls, f"/e/{info.id}/rolls", csrf_for(sid))

    @app.post("/e/{eid}/rolls/faces", response_class=HTMLResponse)
    async def rolls_faces(request: Request, eid: str) -> Response:
        sid = await gm_session(request)
        info = await encounter_or_404(int_id(eid))
        values = await form_of(request, sid)
        step = _step_of(values)
        raw = None if values.get("auto") else values.get("faces", "")

        def work() -> bool:
            return table_rolls.enter(store, info.id, raw, step=step)

        return await rolls_action(request, info, f"/e/{info.id}/rolls", csrf_for(sid), work)

    @app.post("/e/{eid}/rolls/cancel", response_class=HTMLResponse)
    async def rolls_cancel(request: Request, eid: str) -> Response:
        sid = await gm_session(request)
        info = await encounter_or_404(int_id(eid))
        await form_of(request, sid)
        return await rolls_action(
            request,
            info,
            f"/e/{info.id}/rolls",
            csrf_for(sid),
            lambda: table_rolls.cancel(store, info.id),
        )

    @app.post("/e/{eid}/script")
    async def encounter_script(request: Request, eid: str) -> Response:
        sid = await gm_session(request)
        info = await encounter_or_404(int_id(eid))
        values = await form_of(request, sid)

        def action() -> Any:
            line = values.get("line", "").strip()
            if not line:
                raise ConteurError("web.missing", field="line")
            if len(line) > 1000:
                raise ConteurError("web.too_long", field="line")
            lang = lang_of(request)
            command = store.read_encounter(info.id, lambda enc: parse_line(enc, line, lang))
            if command.type == "undo":
                return store.undo(info.id, seen=seen_seq(values))
            dice, exact = view.dice_from_form(values)
            return store.execute(info.id, command, dice, all_dice_used=exact)

        return await after_command(request, info, sid, action)

    async def seen_action(request: Request, eid: str, act: Callable[[int, int], Any]) -> Response:
        """An undo or a redo: ``act(encounter id, the seq the page showed)``."""
        sid = await gm_session(request)
        info = await encounter_or_404(int_id(eid))
        values = await form_of(request, sid)
        return await after_command(request, info, sid, lambda: act(info.id, seen_seq(values)))

    @app.post("/e/{eid}/undo")
    async def encounter_undo(request: Request, eid: str) -> Response:
        return await seen_action(request, eid, lambda e, seen: store.undo(e, seen=seen))

    @app.post("/e/{eid}/redo")
    async def encounter_redo(request: Request, eid: str) -> Response:
        return await seen_action(request, eid, lambda e, seen: store.redo(e, seen=seen))

    @app.post("/e/{eid}/join")
    async def encounter_join(request: Request, eid: str) -> Response:
        sid = await gm_session(request)
        info = await encounter_or_404(int_id(eid))
        values = await form_of(request, sid)

        hidden = view.checked(values.get("hidden"))

        def action() -> Any:
            who = values.get("who", "")
            side = values.get("side", "").strip() or None
            if who.startswith("c:") and who[2:].isdigit():
                extra = {"hidden": True} if hidden else {}
                joining = Participant(character_id=int(who[2:]), side=side, extra=extra)
                return store.add_combatant(info.id, participant=joining)
            lang = lang_of(request)

            def read(enc: Any) -> Any:  # under the store's lock: the live state is changing
                era = info.scenario.get("era")
                entry = view.npc_entry(enc.ruleset, values, lang, None if era is None else str(era))
                if "side" not in entry:  # an NPC with no side typed: the opponents'
                    entry["side"] = view.npc_side(enc, frozenset(info.characters))
                return entry

            entry = store.read_encounter(info.id, read)
            if hidden:
                entry["hidden"] = True
            return store.add_combatant(info.id, npc=entry)

        return await after_command(request, info, sid, action)

    @app.post("/e/{eid}/show")
    async def encounter_show(request: Request, eid: str) -> Response:
        """The GM shows the players a secret entry of his (``engine.shown``): logged, undone
        as any other command; the players' pages read it at once, live."""
        sid = await gm_session(request)
        info = await encounter_or_404(int_id(eid))
        values = await form_of(request, sid)
        raw = values.get("seq", "").strip()
        if not raw.isdigit() or len(raw) > 12:
            raise ConteurError("engine.show.which", seq=raw)
        command = Command(SHOW, None, {"seq": int(raw)})

        def action() -> Any:
            return store.execute(info.id, command, TypedDice(""))

        return await after_command(request, info, sid, action)

    @app.post("/e/{eid}/close")
    async def encounter_close(request: Request, eid: str) -> Response:
        sid = await gm_session(request)
        info = await encounter_or_404(int_id(eid))
        await form_of(request, sid)
        await call(store.close_encounter, info.id)
        panels.forget(info.id)
        notifier.notify(info.id)
        await follow_campaign(info.campaign_id)
        return RedirectResponse(f"/c/{info.campaign_id}", status_code=303)

    @app.get("/e/{eid}/odds", response_class=HTMLResponse)
    async def encounter_odds(
        request: Request, eid: str, attacker: str = "", target: str = "", maneuver: str = ""
    ) -> Response:
        await gm_session(request)
        info = await encounter_or_404(int_id(eid))
        return await odds_answer(
            request, info.id, attacker, target, maneuver, f"/e/{info.id}/odds", GM
        )

    async def odds_answer(
        request: Request,
        eid: int,
        attacker: str,
        target: str,
        maneuver: str,
        url: str,
        viewer: Viewer,
        labels: bool = False,
    ) -> Response:
        """The odds of one attack, with the options that change them (``opt_<name>``);
        ``labels``: the NPCs named by generic labels (``Privacy.npc_names``).

        ``viewer`` asks: the game master prices anyone's attack, a player only their own
        character's (never an NPC's, nor another player's)."""
        lang = lang_of(request)
        values = {k: v for k, v in request.query_params.items() if k.startswith(OPTION)}
        toggled = OPTION in values  # the options' own form was sent (else: as things stand)

        def work() -> tuple[Any, list[view.Field], dict[str, str]]:
            def read(enc: Any) -> tuple[Any, Any, list[Param], dict[str, Any], dict[str, str]]:
                names = enc.ruleset.names(enc.state)
                if attacker not in names or target not in names or attacker == target:
                    raise ConteurError("web.odds_pick")
                if not viewer.gm and (attacker != viewer.character or target in enc.hidden):
                    raise ConteurError("web.odds_pick")
                if not enc.ruleset.prices_attacks:
                    raise ConteurError("web.no_odds")
                if maneuver and maneuver not in view.attack_kinds(enc, attacker):
                    raise ConteurError("web.bad_choice", field="maneuver", value=maneuver)
                toggles = view.odds_toggles(enc, attacker, target, maneuver or None)
                chosen = view.params_from_form(toggles, values, OPTION) if toggled else {}
                # A copy taken under the store's lock: the live state changes in place with
                # each command, and the odds are priced after the lock is released.
                if labels:
                    names = view.labelled(names, viewer.players, lang)
                return enc, copy.deepcopy(enc.state), toggles, chosen, names

            enc, state, toggles, chosen, names = store.read_encounter(eid, read)
            try:
                answer = enc.ruleset.attack_odds(
                    state,
                    attacker,
                    target,
                    maneuver or None,
                    params=chosen or None,
                )
            except ConteurError:
                raise
            except Exception:  # the maneuver is not an attack for this ruleset
                raise ConteurError("web.no_odds") from None
            fields = [view.toggle_field(p, chosen, lang, names) for p in toggles]
            return answer, fields, names

        answer, fields, names = await call(work)
        return render(
            request,
            "_odds.html",
            odds=view.odds_view(answer, lang),
            attacker=names[attacker],
            target=names[target],
            toggles=fields,
            odds_url=url,
            picked={"attacker": attacker, "target": target, "maneuver": maneuver},
        )

    @app.get("/e/{eid}/stream")
    async def encounter_stream(
        request: Request, eid: str, since: int = -1, limit: int = 0, pad: int = 0
    ) -> Response:
        sid = await gm_session(request)
        info = await encounter_or_404(int_id(eid))
        lang = lang_of(request)
        url = f"/e/{info.id}/rolls"

        def panel(snap: Snapshot) -> str:
            return render_fragment("_gm_panel.html", lang, **gm_context(snap, sid, streamed=True))

        async def alive() -> bool:
            return await sessions.check(sid) is not None

        return _stream(
            request,
            info.id,
            since,
            limit,
            viewer=GM,
            panel=panel,
            audience=("gm", sid),
            alive=alive,
            pad=pad_of(info, lang, url, csrf_for(sid), me=None, gm=True) if pad else None,
        )

    # -------------------------------------------------------------- players

    async def player_of(token: str, request: Request | None = None) -> CharacterInfo:
        if not token or len(token) > 200:
            raise NotFound()
        char = await call(store.character_by_token, token)
        if char is None:
            raise NotFound()
        assert isinstance(char, CharacterInfo)
        if request is not None:  # the campaign's language, unless the reader chose one
            campaign = await call(store.get_campaign, char.campaign_id)
            request.state.lang_default = campaign.settings.get("lang")
            request.state.campaign = campaign
        return char

    async def player_encounter(char: CharacterInfo) -> tuple[Any, str | None]:
        """The open encounter the character is in (the latest), and its combatant id."""
        items = await call(store.list_encounters, char.campaign_id, "open")
        for info in sorted(items, key=lambda i: i.id, reverse=True):
            for cid, char_id in info.characters.items():
                if char_id == char.id:
                    return info, cid
        return None, None

    def player_panel_html(snap: Snapshot, char: CharacterInfo, me: str | None) -> str:
        """A player's panel, rendered once per character for each state, with ``CSRF_SLOT``
        and ``TOKEN_SLOT`` standing for the CSRF token and the link, which differ from one
        view to the next (each stream fills in its own: ``_stream``'s ``fill``)."""
        key = ("player", char.id, me)
        html = snap.views.get(key)
        if html is None:
            context = player_panel_context(snap, char, TOKEN_SLOT, me, csrf=CSRF_SLOT)
            context["log_html"] = LOG_SLOT  # the page keeps its log and adds the news
            html = render_fragment("_player_panel.html", snap.lang, **context)
            snap.views[key] = html
        return html

    def player_panel_context(
        snap: Snapshot | None,
        char: CharacterInfo,
        token: str,
        me: str | None,
        csrf: str | None = None,
        **extra: Any,
    ) -> dict[str, Any]:
        """What a player's panel shows: their own character in full, the others' status only."""
        context: dict[str, Any] = {
            "char": char,
            "token": token,
            "me": me,
            "csrf": csrf or csrf_for(f"player:{token}"),
            "info": snap.info if snap else None,
            "seq": snap.number if snap else -1,
            **extra,
        }
        if snap is None:
            return context
        roster = snap.roster  # a players' roster: no NPC's exact health in it
        context.update(
            mine=next((r for r in roster.rows if r.id == me), None),
            others=[r for r in roster.public if r.id != me],
            # The other players' characters in full, where the campaign shows allies' health.
            allies={r.id: r for r in roster.rows if r.id != me}
            if snap.privacy.ally_health == "exact"
            else {},
            names=snap.names,
            sit=snap.sit,
            turn_html=snap.turn_html,
            log_html=snap.log_html,
            forms=snap.forms.get(me or "", []) if snap.player_input else [],
            forms_html=snap.forms_for(me or "", context["csrf"], token)
            if snap.player_input
            else Markup(""),
            player_input=snap.player_input and me is not None,
            odds=snap.odds and me is not None,
            odds_kinds=snap.kinds.get(me or "", []),
            battle_map=snap.battle_map,
            player_moves=snap.player_moves and me is not None,
        )
        return context

    async def player_context(request: Request, token: str, **extra: Any) -> dict[str, Any]:
        char = await player_of(token, request)
        info, me = await player_encounter(char)
        snap = None
        if info is not None:
            viewer = table_viewer(info, me)
            snap = await snapshot_or_404(info.id, lang_of(request), viewer=viewer, info=info)
        context = player_panel_context(snap, char, token, me, **extra)
        context["campaign"] = request.state.campaign
        return context

    @app.get("/p/{token}", response_class=HTMLResponse)
    async def player_page(request: Request, token: str) -> Response:
        return render(request, "player.html", **await player_context(request, token))

    @app.get("/p/{token}/panel", response_class=HTMLResponse)
    async def player_panel(request: Request, token: str) -> Response:
        return render(request, "_player_panel.html", **await player_context(request, token))

    @app.get("/p/{token}/stream")
    async def player_stream(
        request: Request, token: str, since: int = -1, limit: int = 0, pad: int = 0, e: int = -1
    ) -> Response:
        """The player's live stream; ``pad``: with the pad's news (``rolls`` events); ``e``:
        the encounter the page shows (0: none), told ``moved`` when the player's fight is
        another one (the page loads it)."""
        char = await player_of(token, request)
        info, me = await player_encounter(char)

        async def follow() -> bool:
            now = (await player_encounter(char))[0]
            return (now.id if now is not None else 0) != shown

        shown = e if e >= 0 else (info.id if info is not None else 0)
        if info is None:
            return _waiting(request, char.campaign_id, follow)
        lang = lang_of(request)

        def panel(snap: Snapshot) -> str:
            return player_panel_html(snap, char, me)

        csrf = csrf_for(f"player:{token}").encode()
        link = token.encode()

        def fill(html: bytes) -> bytes:
            return html.replace(CSRF_BYTES, csrf).replace(TOKEN_BYTES, link)

        return _stream(
            request,
            info.id,
            since,
            limit,
            viewer=table_viewer(info, me),
            panel=panel,
            audience=("player", char.id, me),
            fill=fill,
            follow=follow,
            pad=pad_of(info, lang, f"/p/{token}/rolls", csrf.decode(), me=me, gm=False)
            if pad and me is not None
            else None,
        )

    @app.get("/p/{token}/odds", response_class=HTMLResponse)
    async def player_odds(
        request: Request, token: str, target: str = "", maneuver: str = ""
    ) -> Response:
        """The odds of the player's own attack (never another combatant's)."""
        char = await player_of(token, request)
        info, me = await player_encounter(char)
        if info is None or me is None:
            raise NotFound()
        viewer = table_viewer(info, me)
        url = f"/p/{token}/odds"
        labels = request.state.campaign.privacy.npc_names == "labels"
        return await odds_answer(request, info.id, me, target, maneuver, url, viewer, labels)

    @app.post("/p/{token}/move")
    async def player_move(request: Request, token: str) -> Response:
        """A player drags their own token: the map's ``place`` command for their character,
        when the campaign allows it, checked as any other command."""
        char = await player_of(token, request)
        lang = lang_of(request)
        values = await form_of(request, f"player:{token}")
        campaign = request.state.campaign
        info, me = await player_encounter(char)
        if info is None or me is None or not campaign.settings.get("player_moves"):
            raise ConteurError("web.player_no_moves")

        def action() -> Any:
            def read(enc: Any) -> Any:
                bmap = enc.ruleset.battle_map(enc.state, lang)
                if bmap is None or not bmap.place or me in enc.hidden:
                    raise ConteurError("web.player_no_moves")
                asked = {"type": bmap.place, "actor": "", "fighter": me, "to": values.get("to", "")}
                return view.command_from_form(enc, asked)

            command = store.read_encounter(info.id, read)
            dice, exact = view.dice_from_form({})
            return store.execute(info.id, command, dice, all_dice_used=exact)

        return await player_answer(request, token, info.id, action)

    async def player_answer(
        request: Request, token: str, eid: int, action: Callable[[], Any]
    ) -> Response:
        """A player's command run: their panel again, or with the refusal beside it (422)."""
        try:
            await call(action)
        except ConteurError as error:
            message = error.message(lang_of(request))
            context = await player_context(request, token, message=message, kind="error")
            return render(request, "_player_panel.html", 422, **context)
        notifier.notify(eid)
        return render(request, "_player_panel.html", **await player_context(request, token))

    @app.post("/p/{token}/command")
    async def player_command(request: Request, token: str) -> Response:
        char = await player_of(token, request)
        values = await form_of(request, f"player:{token}")
        campaign = request.state.campaign
        info, me = await player_encounter(char)
        if info is None or not campaign.settings.get("player_input"):
            raise ConteurError("web.player_watch_only")
        if values.get("actor") != me:
            raise ConteurError("web.not_legal", command=values.get("type", ""))

        def action() -> Any:
            # Read under the store's lock: another command may be changing the live state.
            def read(enc: Any) -> Any:
                command = view.command_from_form(enc, values)
                for name, value in command.args.items():  # refused as an unknown choice is
                    if mentioned(value, enc.hidden):
                        raise ConteurError("web.bad_choice", field=name, value=values.get(name))
                return command

            command = store.read_encounter(info.id, read)
            dice, exact = view.dice_from_form(values)
            return store.execute(info.id, command, dice, all_dice_used=exact)

        return await player_answer(request, token, info.id, action)

    async def player_rolls_info(request: Request, token: str) -> tuple[EncounterInfo, str, str]:
        char = await player_of(token, request)
        info, me = await player_encounter(char)
        if info is None or me is None:
            raise NotFound()
        return info, me, f"/p/{token}/rolls"

    @app.get("/p/{token}/rolls", response_class=HTMLResponse)
    async def player_rolls(request: Request, token: str) -> Response:
        """The roll the player is asked for, if any (never an NPC's, a hidden one, another's)."""
        info, me, url = await player_rolls_info(request, token)
        rolls = await rolls_view(request, info, me=me, gm=False)
        return rolls_response(request, rolls, url, csrf_for(f"player:{token}"))

    @app.post("/p/{token}/rolls/faces", response_class=HTMLResponse)
    async def player_rolls_faces(request: Request, token: str) -> Response:
        info, me, url = await player_rolls_info(request, token)
        values = await form_of(request, f"player:{token}")
        if not request.state.campaign.settings.get("player_input"):
            raise ConteurError("web.player_watch_only")
        step = _step_of(values)
        raw = None if values.get("auto") else values.get("faces", "")

        def work() -> bool:
            return table_rolls.enter(store, info.id, raw, step=step, who=me)

        return await rolls_action(
            request, info, url, csrf_for(f"player:{token}"), work, me=me, gm=False
        )

    # -------------------------------------------------------------- the table's screen

    async def table_of(token: str, request: Request) -> tuple[Any, EncounterInfo | None]:
        """The campaign of a table-screen link and its open encounter (the latest), if any."""
        if not token or len(token) > 200:
            raise NotFound()
        campaign = await call(store.campaign_by_table_token, token)
        if campaign is None:
            raise NotFound()
        request.state.lang_default = campaign.settings.get("lang")
        items = await call(store.list_encounters, campaign.id, "open")
        info = max(items, key=lambda i: i.id) if items else None
        return campaign, info

    def table_panel_context(snap: Snapshot | None, token: str) -> dict[str, Any]:
        """What the table's screen shows: the public view of the players' table (the same
        snapshot as theirs), every combatant's health as words, no secret, no hidden one."""
        if snap is None:
            return {"info": None, "seq": -1, "token": token}
        return {
            "info": snap.info,
            "seq": snap.number,
            "token": token,
            "sit": snap.sit,
            "names": snap.names,
            "others": snap.roster.public,
            "log_html": snap.log_html,
        }

    async def table_context(request: Request, token: str) -> dict[str, Any]:
        campaign, info = await table_of(token, request)
        snap = None
        if info is not None:
            viewer = table_viewer(info)
            snap = await snapshot_or_404(info.id, lang_of(request), viewer=viewer, info=info)
        return {"campaign": campaign, **table_panel_context(snap, token)}

    @app.get("/t/{token}", response_class=HTMLResponse)
    async def table_page(request: Request, token: str) -> Response:
        return render(request, "table.html", **await table_context(request, token))

    @app.get("/t/{token}/panel", response_class=HTMLResponse)
    async def table_panel(request: Request, token: str) -> Response:
        return render(request, "_table_panel.html", **await table_context(request, token))

    @app.get("/t/{token}/stream")
    async def table_stream(
        request: Request, token: str, since: int = -1, limit: int = 0, e: int = -1
    ) -> Response:
        """The table's screen's stream; ``e``: the encounter the page shows (0: none), told
        ``moved`` when the campaign's fight is another one (the page loads it)."""
        campaign, info = await table_of(token, request)

        async def follow() -> bool:
            now = (await table_of(token, request))[1]
            return (now.id if now is not None else 0) != shown

        shown = e if e >= 0 else (info.id if info is not None else 0)
        if info is None:
            return _waiting(request, campaign.id, follow)
        lang = lang_of(request)

        def panel(snap: Snapshot) -> str:
            key = ("table", token)
            html = snap.views.get(key)
            if html is None:
                context = table_panel_context(snap, token)
                context["log_html"] = LOG_SLOT  # the page keeps its log and adds the news
                html = render_fragment("_table_panel.html", lang, **context)
                snap.views[key] = html
            return html

        return _stream(
            request,
            info.id,
            since,
            limit,
            viewer=table_viewer(info),
            panel=panel,
            audience=("table", campaign.id),
            follow=follow,
        )

    @app.post("/c/{cid}/table")
    async def campaign_table_token(request: Request, cid: str) -> Response:
        """A new table-screen link for the campaign (the old one stops working)."""
        sid = await gm_session(request)
        campaign = await campaign_or_404(int_id(cid))
        await form_of(request, sid)
        await call(store.new_table_token, campaign.id)
        return RedirectResponse(f"/c/{campaign.id}", status_code=303)

    # -------------------------------------------------------------- live streams

    pending: dict[tuple[Any, ...], asyncio.Task[Snapshot | None]] = {}

    def _latest(eid: int, lang: Lang, viewer: Viewer, fresh: bool) -> Snapshot | None:
        try:
            return panels.snapshot(eid, lang, viewer=viewer, fresh=fresh)
        except ConteurError:
            return None

    async def latest(
        eid: int, lang: Lang, viewer: Viewer, when: tuple[Any, ...]
    ) -> Snapshot | None:
        """The encounter's snapshot, built once for every stream of the same audience woken
        by the same command (``when`` is the notifier's version) or polling in the same
        period."""
        key = (eid, lang, viewer, when)  # its audience is known once the encounter is read
        task = pending.get(key)
        if task is None:
            fresh = when[0] == "poll"  # woken by a command: its status and settings are known
            task = asyncio.get_running_loop().create_task(call(_latest, eid, lang, viewer, fresh))
            pending[key] = task
            while len(pending) > 256:
                pending.pop(next(iter(pending)))
        return await asyncio.shield(task)

    def update_message(
        snap: Snapshot, seen_seq: int, audience: Hashable, panel: Callable[[Snapshot], str]
    ) -> tuple[bytes, bytes, bytes]:
        """The update a view of ``audience`` at ``seen_seq`` receives, encoded once for every
        such view: the bytes before the panel, the panel (slots still to fill), the bytes after.

        The JSON is the one ``json.dumps`` gives of ``{"seq", "entries", "panel", "log",
        "marks"}`` (same keys, order and separators)."""
        key = ("message", audience, seen_seq)
        parts = snap.messages.get(key)
        if parts is None:
            log, marks = snap.news(seen_seq)
            entries = json.dumps(snap.entries_since(seen_seq))
            number = snap.number  # the readers' own numbers: no gap tells of a hidden entry
            head = f'id: {number}\nevent: update\ndata: {{"seq": {number}, '
            head += f'"public": {json.dumps(snap.public)}, "entries": {entries}, "panel": '
            tail = f', "log": {json.dumps(log)}, "marks": {json.dumps(marks)}}}\n\n'
            parts = (head.encode(), json.dumps(panel(snap)).encode(), tail.encode())
            snap.messages[key] = parts
        return parts

    def _stream(
        request: Request,
        eid: int,
        since: int,
        limit: int,
        *,
        viewer: Viewer,
        panel: Callable[[Snapshot], str],
        audience: Hashable,
        fill: Callable[[bytes], bytes] | None = None,
        alive: Callable[[], Awaitable[bool]] | None = None,
        follow: Callable[[], Awaitable[bool]] | None = None,
        pad: Callable[[], Awaitable[tuple[str, Callable[[], str]]]] | None = None,
    ) -> Response:
        """A view's live stream. Views of the same ``audience`` share each update's bytes;
        ``fill`` puts the view's own CSRF token and link into its panel's slots; the stream
        ends when ``alive`` says no (the GM's session revoked), and says ``moved`` then ends
        when ``follow`` says the page's fight is no longer the one to show. ``pad``: the dice
        pad's version and box, sent as a ``rolls`` event (no id: the ``Last-Event-ID`` stays
        the log's seq) whenever the version changes, and once when the stream opens."""
        lang = lang_of(request)
        start = _event_id(request.headers.get("last-event-id", ""), since)
        loop = asyncio.get_running_loop()

        async def events() -> AsyncIterator[bytes]:
            seen_seq = start if viewer.gm else None  # a player's page counts in its numbers
            last = b""  # the panel last sent, its seq taken out
            sent = 0
            woken = False  # the first read, and reads after a timeout, poll the database
            idle = 0.0
            shown_pad: str | None = None
            yield b"retry: 1000\n\n"
            while not notifier.closed:
                version = notifier.version(eid)
                # A poll in the same period shares its snapshot, unless a command came since.
                period = int(loop.time() / POLL_SECONDS)
                when = ("v", version) if woken else ("poll", period, version)
                snap = await latest(eid, lang, viewer, when)
                if snap is not None and seen_seq is None:
                    seen_seq = snap.seq_of(start)
                    if not snap.entries_since(seen_seq):
                        # Nothing new the page may read (the GM's notes, a hidden one's deeds
                        # since its entry): it shows this state, and no update tells more.
                        seen_seq = snap.seq
                        html = update_message(snap, seen_seq, audience, panel)[1]
                        last = html.replace(f'data-seq=\\"{snap.number}\\"'.encode(), b"")
                if seen_seq is None:
                    seen_seq = start
                if snap is not None and snap.seq > seen_seq:
                    head, html, tail = update_message(snap, seen_seq, audience, panel)
                    shown = html.replace(f'data-seq=\\"{snap.number}\\"'.encode(), b"")
                    if not viewer.gm and shown == last and not snap.entries_since(seen_seq):
                        # Nothing this view may see changed (a GM's note, a hidden one's
                        # deed): no update, which would tell that something happened.
                        seen_seq = snap.seq
                    else:
                        seen_seq, last = snap.seq, shown
                        yield b"".join((head, fill(html) if fill else html, tail))
                        sent += 1
                elif snap is not None and not last and not viewer.gm:  # what the page shows
                    html = update_message(snap, seen_seq, audience, panel)[1]
                    last = html.replace(f'data-seq=\\"{snap.number}\\"'.encode(), b"")
                if follow is not None and await follow():
                    yield MOVED
                    return
                if pad is not None:
                    pad_version, box = await pad()
                    # After any change, the box whatever its version: a roll asked and
                    # answered between two readings leaves the version this stream last read,
                    # while the page shows the box its own command returned (it ignores a box
                    # of the version it shows).
                    if pad_version != shown_pad or woken:
                        shown_pad = pad_version
                        yield b"event: rolls\ndata: " + json.dumps(box()).encode() + b"\n\n"
                        sent += 1
                if limit and sent >= limit:  # (``limit``: the tests' streams end)
                    return
                woken = await notifier.wait(eid, version, POLL_SECONDS)
                if alive is not None and not await alive():
                    return
                if not woken:
                    if await request.is_disconnected():
                        return
                    idle += POLL_SECONDS
                    if idle >= PING_SECONDS:  # a comment line keeps proxies from closing it
                        idle = 0.0
                        yield b": ping\n\n"

        return event_stream(events())

    def _waiting(
        request: Request, campaign_id: int, follow: Callable[[], Awaitable[bool]]
    ) -> Response:
        """The stream of a page that shows no fight (or a closed one): it waits for the
        campaign's next one, says ``moved`` when ``follow`` sees it, and ends."""

        async def events() -> AsyncIterator[bytes]:
            idle = 0.0
            yield b"retry: 1000\n\n"
            while not notifier.closed:
                version = notifier.version(campaign_key(campaign_id))
                if await follow():
                    yield MOVED
                    return
                if not await notifier.wait(campaign_key(campaign_id), version, POLL_SECONDS):
                    if await request.is_disconnected():
                        return
                    idle += POLL_SECONDS
                    if idle >= PING_SECONDS:
                        idle = 0.0
                        yield b": ping\n\n"

        return event_stream(events())

    def event_stream(events: AsyncIterator[bytes]) -> Response:
        return StreamingResponse(
            events,
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    # Outermost: the forwarded headers first (the client, the scheme), then cookies made
    # Secure over https — every cookie any route or middleware sets.
    app.add_middleware(SecureCookies, https=hosting.https if hosting.public_url else None)
    if hosting.trusted():
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=hosting.trusted())
    return app


_EVENT_ID = re.compile(r"-?[0-9]{1,18}")
_STEP = re.compile(r"[0-9]{1,9}")


def _step_of(values: dict[str, str]) -> int:
    """The step of the waiting action the pad showed (its ``step`` field)."""
    raw = values.get("step", "").strip()
    if not _STEP.fullmatch(raw):
        raise ConteurError("web.missing", field="step")
    return int(raw)


def _event_id(raw: str, default: int) -> int:
    """The seq a reconnecting stream's ``Last-Event-ID`` names, or ``default`` (the stream's
    ``since``) when the header is absent or not a plain seq (``--5``, ``abc``, 10**400...)."""
    raw = raw.strip()
    if not _EVENT_ID.fullmatch(raw):
        return default
    return max(int(raw), -1)


NPC_ROWS = 3
"""The encounter builder's rows for quick NPCs and archetypes."""
MAX_UPLOAD = 2_000_000
"""The largest file the campaign page imports (bytes)."""


def _download(text: str, filename: str, fmt: str) -> Response:
    media = "application/json" if fmt == "json" else "application/yaml"
    return Response(
        text,
        media_type=f"{media}; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


def _yaml(data: Any) -> str:
    import yaml

    return str(yaml.safe_dump(data, allow_unicode=True, sort_keys=False))


def _parse_mapping(text: str, field: str) -> dict[str, Any]:
    """A YAML (or JSON) mapping typed in a form (ConteurError naming the field otherwise)."""
    import yaml

    if not text.strip():
        raise ConteurError("web.missing", field=field)
    if len(text) > 100_000:
        raise ConteurError("web.too_long", field=field)
    try:
        data = safe_yaml(text)
    except yaml.YAMLError:
        raise ConteurError("web.bad_yaml", field=field) from None
    if not isinstance(data, dict):
        raise ConteurError("web.bad_yaml", field=field)
    return {str(k): v for k, v in data.items()}
