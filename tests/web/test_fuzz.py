"""A bounded fuzz of the whole tracker: every route the app declares (read from the app), every
form field its pages show (read from the pages), with odd values, odd methods, odd headers,
with and without the GM's session or the right CSRF token — and never a server error (5xx).

A real server (uvicorn, in a thread) so the live streams can be opened and dropped like a
browser does; one SQLite database for the whole run (the fuzz's commands pile up in it).
A sweep tries every route once for sure, then Hypothesis draws the requests; their number
(``CONTEUR_FUZZ_EXAMPLES``, 300 by default) bounds the run to about 20 s.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote, urlsplit

import httpx
import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.routing import Mount

from conteur.store import Store, auth, open_store
from conteur.web import create_app
from conteur.web.demo import load_demo

FUZZ_EXAMPLES = int(os.environ.get("CONTEUR_FUZZ_EXAMPLES", "300"))
STREAM_READ_SECONDS = 0.1

ODD = [
    "",
    " ",
    "0",
    "1",
    "2",
    "-1",
    "--5",
    "+3",
    "1.5",
    "1e9",
    "nan",
    "inf",
    "9" * 30,
    "9" * 5000,
    "abc",
    "@@token@@",
    "@@csrf@@",
    "<@token@>",
    "<@csrf@>",
    "<script>alert(1)</script>",
    "\x00",
    "\t\n",
    "é",
    "ß" * 300,
    "../../etc/passwd",
    "//elsewhere.example",
    "/\\elsewhere.example",
    "%00",
    "%2F%2F",
    "{}",
    "[1, 2]",
    "nom: [",
    "!!python/object:os.system",
    "null",
    "true",
    "x" * 100_000,
]
"""Values that have broken web apps before: numbers that are not, markers, paths, YAML."""

TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
HEADER_TEXT = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=40).map(
    str.strip
)


def fuzz_value(known: list[str] | None = None, *, url: bool = False) -> st.SearchStrategy[str]:
    """A field's value: one the page offers, an odd one, or any text (in a URL: no longer
    than the server's limit for a request line)."""
    odd = [v for v in ODD if len(v) < 6000] if url else ODD
    options: list[st.SearchStrategy[str]] = [st.sampled_from(odd), TEXT]
    if known:
        options = [st.sampled_from(known), st.sampled_from(known), *options]
    return st.one_of(options)


# ------------------------------------------------------------------ what the pages show


class FormReader(HTMLParser):
    """The forms of a page: their target, their fields and the values the page offers."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[tuple[str, str, dict[str, list[str]]]] = []
        self._fields: dict[str, list[str]] | None = None
        self._select: str | None = None
        self._option: list[str] | None = None
        self._textarea: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            method = "post" if ("hx-post" in a or a.get("method") == "post") else "get"
            action = a.get("hx-post") or a.get("hx-get") or a.get("action") or ""
            self._fields = {}
            self.forms.append((method, action, self._fields))
        elif self._fields is None:
            return
        elif tag in ("input", "select", "textarea") and a.get("name"):
            values = self._fields.setdefault(a["name"], [])
            if tag == "input" and a.get("value"):
                values.append(a["value"])
            if tag == "select":
                self._select = a["name"]
            if tag == "textarea":
                self._textarea, self._text = a["name"], []
        elif tag == "option" and self._select:
            if "value" in a:
                self._fields[self._select].append(a["value"])
            else:
                self._option = []

    def handle_data(self, data: str) -> None:
        if self._option is not None:
            self._option.append(data)
        if self._textarea is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._fields is None:
            return
        if tag == "option" and self._option is not None and self._select:
            self._fields[self._select].append("".join(self._option).strip())
            self._option = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea" and self._textarea:
            self._fields[self._textarea].append("".join(self._text))
            self._textarea = None
        elif tag == "form":
            self._fields = None


@dataclass
class Route:
    """One route of the app: its path template, methods, path and query parameters, and the
    form fields (with the values offered) of every form its pages send to it."""

    path: str
    methods: list[str]
    path_params: list[str]
    query_params: list[str]
    regex: re.Pattern[str]
    fields: dict[str, list[str]] = field(default_factory=dict)


def routes_of(app: FastAPI) -> list[Route]:
    routes = []
    for route in app.routes:
        if isinstance(route, APIRoute):
            routes.append(
                Route(
                    route.path,
                    sorted(route.methods),
                    [p.name for p in route.dependant.path_params],
                    [p.name for p in route.dependant.query_params],
                    route.path_regex,
                )
            )
        elif isinstance(route, Mount):  # the static files
            routes.append(
                Route(f"{route.path}/{{path}}", ["GET"], ["path"], [], re.compile("^/static/"))
            )
    return routes


def learn_forms(routes: list[Route], html: str) -> None:
    reader = FormReader()
    reader.feed(html)
    for _method, action, fields in reader.forms:
        path = urlsplit(action).path
        for route in routes:
            if route.regex.match(path):
                for name, values in fields.items():
                    known = route.fields.setdefault(name, [])
                    known.extend(v for v in values if v not in known)
                break


# ------------------------------------------------------------------ the server


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def live_server(app: FastAPI) -> Iterator[str]:
    import uvicorn

    port = _free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="error", timeout_graceful_shutdown=1
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the web server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


@dataclass
class Table:
    """What the fuzz knows of the running tracker."""

    base: str
    app: FastAPI
    store: Store
    gm_token: str
    routes: list[Route]
    gm: httpx.Client
    anonymous: httpx.Client
    gm_csrf: str
    failures: list[str] = field(default_factory=list)

    def known(self, param: str) -> list[str]:
        """Values that name something real, for a path parameter."""
        if param == "token":
            return [c.token for c in self.store.list_characters(1) if c.token] or ["none"]
        if param in ("eid",):
            return ["1", "2", "3"]
        if param in ("cid",):
            return ["1", "2"]
        if param == "char_id":
            return [str(c.id) for c in self.store.list_characters(1)]
        if param == "choice":
            return ["fr", "en"]
        if param == "path":
            return ["htmx.min.js", "conteur.js", "style.css", "nope.js"]
        return []

    def player_csrf(self, token: str) -> str:
        key: bytes = self.app.state.secret
        return hmac.new(key, f"player:{token}".encode(), hashlib.sha256).hexdigest()


def csrf_in(html: str) -> str:
    match = re.search(r'name="csrf" value="([0-9a-f]+)"', html)
    assert match
    return match.group(1)


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Table]:
    store = open_store(f"sqlite:///{tmp_path / 'fuzz.db'}")
    load_demo(store)
    with monkeypatch.context() as m:  # a cheap hash: the fuzz sends many tokens to check
        hash_secret = auth.hash_secret
        m.setattr(auth, "hash_secret", lambda secret: hash_secret(secret, n=2**4))
        token = store.new_gm_token()
    app = create_app(store)
    app.state.throttle.base = app.state.throttle.cap = 0.01  # wrong tokens: no real waits
    routes = routes_of(app)
    with (
        live_server(app) as base,
        httpx.Client(base_url=base, timeout=10) as gm,
        httpx.Client(base_url=base, timeout=10) as anonymous,
    ):
        assert gm.get(f"/?token={token}").status_code == 303
        csrf = csrf_in(gm.get("/e/1").text)
        # More forms to learn from: a second encounter, a turn started, a declaration.
        chars = [str(c.id) for c in store.list_characters(1)]
        gm.post("/c/1/encounters", data={"csrf": csrf, "name": "Revanche", "characters": chars})
        gm.post("/campaigns", data={"csrf": csrf, "name": "Autre", "ruleset": "hunter"})
        gm.post(
            "/e/1/command",
            data={"csrf": csrf, "type": "initiative", "actor": "", "faces": "5 3 5 8"},
        )
        pages = ["/", "/c/1", "/c/2", "/characters/1", "/e/1", "/e/2", "/e/1/panel"]
        for page in pages:
            learn_forms(routes, gm.get(page).text)
        for char in store.list_characters(1):
            learn_forms(routes, anonymous.get(f"/p/{char.token}").text)
        learn_forms(routes, anonymous.get("/").text)  # the login form
        yield Table(base, app, store, token, routes, gm, anonymous, csrf)
    store.close()


# ------------------------------------------------------------------ the fuzz


def test_no_route_gives_a_server_error(table: Table) -> None:
    assert {"/e/{eid}/command", "/p/{token}/command", "/login", "/e/{eid}/stream"} <= {
        r.path for r in table.routes
    }
    command = next(r for r in table.routes if r.path == "/e/{eid}/command")
    assert {"type", "actor", "faces", "csrf"} <= set(command.fields)  # the forms were read
    upload = next(r for r in table.routes if r.path == "/c/{cid}/import-file")
    assert {"file", "format"} <= set(upload.fields)

    @settings(
        max_examples=FUZZ_EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.data())
    def probe(data: st.DataObject) -> None:
        route = data.draw(st.sampled_from(table.routes), label="route")
        method = data.draw(
            st.sampled_from(route.methods * 6 + ["GET", "POST", "PUT", "DELETE"]), label="method"
        )
        path = route.path
        values: dict[str, str] = {}
        for param in route.path_params:
            values[param] = data.draw(fuzz_value(table.known(param), url=True), label=param)
            path = path.replace(f"{{{param}}}", quote(values[param], safe=""))
        query = {
            name: data.draw(fuzz_value(url=True), label=name)
            for name in data.draw(
                st.lists(
                    st.sampled_from([*route.query_params, "token", "opt_", "next"]), max_size=4
                )
            )
        }
        player = values.get("token") if path.startswith("/p/") else None
        csrf = table.player_csrf(player) if player is not None else table.gm_csrf
        form: dict[str, str] = {}
        if method == "POST":
            names = list(route.fields) or ["name", "text"]
            for name in data.draw(st.lists(st.sampled_from(names), max_size=8, unique=True)):
                form[name] = data.draw(fuzz_value(route.fields.get(name)), label=name)
            form["csrf"] = data.draw(
                st.sampled_from([csrf, csrf, csrf, "", "0" * 64, table.gm_csrf]), label="csrf"
            )
        upload = None
        if "file" in form and data.draw(st.booleans(), label="as a file"):
            form.pop("file")  # a file part: any bytes, a binary file, a real actor spoilt
            upload = data.draw(UPLOADS, label="upload")
        headers: dict[str, str] = {}
        if data.draw(st.booleans(), label="htmx"):
            headers["hx-request"] = "true"
        if data.draw(st.integers(0, 4), label="odd headers") == 0:
            headers["last-event-id"] = data.draw(
                st.one_of(st.sampled_from(["--5", "abc", "9" * 40, "-1", "0", "3"]), HEADER_TEXT)
            )
            headers["x-csrf-token"] = data.draw(st.sampled_from([csrf, "bad"]))
            headers["accept-language"] = data.draw(HEADER_TEXT)
        client = table.gm if data.draw(st.integers(0, 3), label="as") else table.anonymous
        raw = None
        if method == "POST" and data.draw(st.integers(0, 9), label="raw body") == 0:
            raw = data.draw(st.binary(max_size=200))
            headers["content-type"] = data.draw(
                st.sampled_from(
                    [
                        "application/x-www-form-urlencoded",
                        "multipart/form-data; boundary=x",
                        "multipart/form-data",
                        "application/json",
                        "text/plain",
                    ]
                )
            )
        send(table, client, method, path, query, form, headers, raw, upload)

    sweep(table)  # every route once for sure, then Hypothesis's draws
    probe()
    assert not table.failures, "\n".join(table.failures[:20])


def sweep(table: Table) -> None:
    """Every route, every method it has, as the GM and as a stranger: with the values its
    pages offer, then a few odd ones — in its path, in its query, or in all its form fields
    and headers at once (closing the encounter last)."""
    variants = [(None, ""), *((v, w) for v in SWEEP for w in ("path", "query", "fields"))]
    for route in sorted(table.routes, key=lambda r: r.path.endswith("/close")):
        for odd, where in variants:
            values = {p: (table.known(p) or ["x"])[0] for p in route.path_params}
            if where == "path":
                values = dict.fromkeys(values, str(odd))
            path = route.path
            for param, value in values.items():
                path = path.replace(f"{{{param}}}", quote(value, safe=""))
            player = values.get("token") if path.startswith("/p/") else None
            csrf = table.player_csrf(player) if player is not None else table.gm_csrf
            query = {q: str(odd) if where == "query" else "1" for q in route.query_params}
            fields = str(odd) if where == "fields" else None
            form = {
                name: (known[0] if known else "") if fields is None else fields
                for name, known in route.fields.items()
            }
            form["csrf"] = csrf
            headers = {} if fields is None else {"last-event-id": fields, "hx-request": "true"}
            for method in route.methods:
                for client in (table.gm, table.anonymous):
                    body = form if method == "POST" else {}
                    send(table, client, method, path, query, body, headers)


FOUNDRY = sorted((Path(__file__).resolve().parent.parent / "vtm" / "foundry").glob("*.json"))
UPLOADS = st.one_of(
    st.binary(max_size=200),
    st.sampled_from([b"\xff\xfe\x00PK\x03\x04", b"{}", b"[" * 5000 + b"]" * 5000, b""]),
    st.sampled_from(FOUNDRY).map(lambda p: p.read_bytes()),
    st.sampled_from(FOUNDRY).map(lambda p: p.read_bytes().replace(b'"', b"'", 3)),
)
"""What a GM's upload may be: any bytes, a binary file, nesting, a Foundry actor (spoilt)."""

SWEEP = ["", "--5", "9" * 5000, "<@csrf@> é"]
"""The odd values of the sweep (values a header can carry too)."""


def send(
    table: Table,
    client: httpx.Client,
    method: str,
    path: str,
    query: dict[str, str],
    form: dict[str, str],
    headers: dict[str, str],
    raw: bytes | None = None,
    upload: bytes | None = None,
) -> None:
    """One request; a server error (or a stream broken off) is noted in ``table.failures``."""
    request = client.build_request(
        method,
        path,
        params=query,
        data=None if raw is not None else (form or None),
        content=raw,
        files=None if upload is None or raw is not None else {"file": ("acteur.json", upload)},
        headers={k: v.encode() for k, v in headers.items()},  # bytes: any UTF-8 too
    )
    try:
        response = client.send(request, stream=True)
    except httpx.HTTPError as error:
        table.failures.append(f"{method} {path} {query} {form}: {error!r}")
        return
    try:
        status = response.status_code
        if response.headers.get("content-type", "").startswith("text/event-stream"):
            # The headers came; the body's reads (read from this dict when the body starts)
            # wait briefly: nothing more comes until something changes.
            request.extensions["timeout"]["read"] = STREAM_READ_SECONDS
            read_a_little(response)
        else:
            response.read()
    except httpx.ReadTimeout:
        pass
    except httpx.HTTPError as error:  # the server broke the stream off
        table.failures.append(f"{method} {path} {query}: {error!r}")
    finally:
        response.close()
    if status >= 500:
        table.failures.append(f"{status} {method} {path} {query} {form} {headers}")


def read_a_little(response: httpx.Response) -> None:
    """A live stream: its first lines (the retry, and an update when one is due), then drop it
    as a closed tab would (its read timeout is short: nothing more comes until a change)."""
    for n, _chunk in enumerate(response.iter_bytes()):
        if n >= 2:
            break
