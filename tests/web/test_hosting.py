"""Behind a reverse proxy: forwarded headers from trusted proxies only, the public address in
every absolute link, Secure cookies over https, sessions signed so that processes sharing
the key share them (``conteur.web.hosting``), through the app's test client."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import Request
from fastapi.testclient import TestClient

from conteur.i18n import ConteurError
from conteur.store import Store
from conteur.web import create_app
from conteur.web.hosting import Hosting, hosting_from, parse_public_url, secret_from_env

PROXY = ("127.0.0.1", 41000)
STRANGER = ("198.51.100.20", 41000)
FORWARDED = {"x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.7"}


def client_of(
    store: Store,
    hosting: Hosting | None = None,
    *,
    peer: tuple[str, int] = PROXY,
    base_url: str = "http://testserver",
    secret: bytes | None = None,
) -> TestClient:
    app = create_app(store, hosting=hosting, secret=secret)

    @app.get("/_peer")
    async def peer_route(request: Request) -> dict[str, str]:  # what the app believes
        assert request.client is not None
        return {"client": request.client.host, "scheme": request.url.scheme}

    return TestClient(app, client=peer, base_url=base_url)


def login(client: TestClient, token: str, headers: dict[str, str] | None = None) -> str:
    """Open a GM session; the Set-Cookie header of the login's answer. (The session is also
    kept as a plain cookie: a browser sends a Secure cookie back over https, which the test
    client does not know the proxy's forwarded requests are.)"""
    store = client.app.state.store  # type: ignore[attr-defined]
    token = store.new_gm_token()  # a token opens one session: a fresh one for each login
    r = client.get(f"/?token={token}", headers=headers or {}, follow_redirects=False)
    assert r.status_code == 303, r.text
    sid = r.cookies["conteur_gm"]
    client.cookies.clear()
    client.cookies.set("conteur_gm", sid)
    return r.headers["set-cookie"]


def player_links(html: str) -> list[str]:
    return re.findall(r'class="link" value="([^"]+)"', html)


@pytest.fixture
def tokens(store: Store) -> list[str]:
    return [c.token for c in store.list_characters(1)]


def test_a_trusted_proxy_s_forwarded_headers_count(
    store: Store, gm_token: str, tokens: list[str]
) -> None:
    with client_of(store) as client:  # the default: a proxy on 127.0.0.1
        seen = client.get("/_peer", headers=FORWARDED).json()
        assert seen == {"client": "203.0.113.7", "scheme": "https"}
        cookie = login(client, gm_token, FORWARDED)
        assert "secure" in cookie.lower() and "httponly" in cookie.lower()
        page = client.get("/c/1", headers=FORWARDED).text
    links = player_links(page)
    assert sorted(links) == sorted(f"https://testserver/p/{t}" for t in tokens)


def test_anyone_else_s_forwarded_headers_are_ignored(store: Store, gm_token: str) -> None:
    with client_of(store, peer=STRANGER) as client:
        seen = client.get("/_peer", headers=FORWARDED).json()
        assert seen == {"client": STRANGER[0], "scheme": "http"}
        cookie = login(client, gm_token, FORWARDED)
        assert "secure" not in cookie.lower()
        assert all(
            link.startswith("http://testserver/p/")
            for link in player_links(client.get("/c/1", headers=FORWARDED).text)
        )
    none = Hosting(forwarded_allow_ips="")
    with client_of(store, none) as client:  # no proxy trusted at all
        assert client.get("/_peer", headers=FORWARDED).json()["scheme"] == "http"
    anyone = Hosting(forwarded_allow_ips="*")
    with client_of(store, anyone, peer=STRANGER) as client:
        assert client.get("/_peer", headers=FORWARDED).json()["client"] == "203.0.113.7"
    network = Hosting(forwarded_allow_ips="10.0.0.1, 198.51.100.0/24")
    with client_of(store, network, peer=STRANGER) as client:
        assert client.get("/_peer", headers=FORWARDED).json()["scheme"] == "https"


def test_the_public_address_is_in_every_link_and_https_makes_cookies_secure(
    store: Store, gm_token: str, tokens: list[str]
) -> None:
    hosting = Hosting(public_url=parse_public_url("https://Jeu.Example.org/"))
    # Whatever the request says (here plain http, no proxy), the links are the public ones.
    with client_of(store, hosting, base_url="https://127.0.0.1:8000") as client:
        cookie = login(client, gm_token)
        assert "secure" in cookie.lower()
        page = client.get("/c/1")
        assert page.status_code == 200  # the Secure cookie came back over https
        char = store.list_characters(1)[0]
        one = client.get(f"/characters/{char.id}").text
        lang = client.get("/lang/en?next=/", follow_redirects=False)
        assert "secure" in lang.headers["set-cookie"].lower()
    assert sorted(player_links(page.text)) == sorted(
        f"https://jeu.example.org/p/{t}" for t in tokens
    )
    assert player_links(one) == [f"https://jeu.example.org/p/{char.token}"]
    plain = Hosting(public_url=parse_public_url("http://192.168.1.20:8080"))
    with client_of(store, plain) as client:
        cookie = login(client, gm_token, FORWARDED)  # the public address decides: http
        assert "secure" not in cookie.lower()
        links = player_links(client.get("/c/1").text)
    assert all(link.startswith("http://192.168.1.20:8080/p/") for link in links)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("https://jeu.example.org", "https://jeu.example.org"),
        ("https://jeu.example.org/", "https://jeu.example.org"),
        ("https://jeu.example.org:443", "https://jeu.example.org"),
        ("http://jeu.example.org:8080/", "http://jeu.example.org:8080"),
        ("  HTTPS://JEU.example.org ", "https://jeu.example.org"),
        ("http://[::1]:8000", "http://[::1]:8000"),
    ],
)
def test_public_addresses(raw: str, expected: str) -> None:
    assert parse_public_url(raw) == expected


@pytest.mark.parametrize(
    "raw",
    [
        "jeu.example.org",
        "ftp://jeu.example.org",
        "https://jeu.example.org/conteur",
        "https://jeu.example.org/?x=1",
        "https://user:pw@jeu.example.org",
        "https://jeu.example.org:99999",
        "https://",
    ],
)
def test_an_unusable_public_address_is_refused_in_both_languages(raw: str) -> None:
    with pytest.raises(ConteurError) as caught:
        parse_public_url(raw)
    assert raw in caught.value.message("fr") and "Adresse publique" in caught.value.message("fr")
    assert raw in caught.value.message("en") and "Public address" in caught.value.message("en")


def test_options_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CONTEUR_PUBLIC_URL", raising=False)
    monkeypatch.delenv("CONTEUR_FORWARDED_ALLOW_IPS", raising=False)
    assert hosting_from(None, None) == Hosting(None, "127.0.0.1")
    monkeypatch.setenv("CONTEUR_PUBLIC_URL", "https://jeu.example.org/")
    monkeypatch.setenv("CONTEUR_FORWARDED_ALLOW_IPS", "10.0.0.2")
    assert hosting_from(None, None) == Hosting("https://jeu.example.org", "10.0.0.2")
    # an option wins over the environment
    assert hosting_from("http://a.example", "") == Hosting("http://a.example", "")
    monkeypatch.setenv("CONTEUR_SECRET_KEY", "short")
    with pytest.raises(ConteurError) as caught:
        secret_from_env()
    assert "CONTEUR_SECRET_KEY" in caught.value.message("fr")
    monkeypatch.setenv("CONTEUR_SECRET_KEY", "x" * 40)
    assert secret_from_env() == secret_from_env() and len(secret_from_env() or b"") == 32


@pytest.fixture
def two_apps(store: Store) -> Iterator[tuple[TestClient, TestClient, TestClient]]:
    """Two apps on one store with the same key (as two processes), and one with another."""
    key = b"k" * 32
    with (
        client_of(store, secret=key) as one,
        client_of(store, secret=key) as two,
        client_of(store, secret=b"o" * 32) as other,
    ):
        yield one, two, other


def test_a_session_opened_in_one_process_is_valid_in_another_with_the_same_key(
    two_apps: tuple[TestClient, TestClient, TestClient], gm_token: str
) -> None:
    one, two, other = two_apps
    login(one, gm_token)
    sid = one.cookies.get("conteur_gm")
    assert sid
    two.cookies.set("conteur_gm", sid)
    other.cookies.set("conteur_gm", sid)
    page = two.get("/e/1")
    assert page.status_code == 200
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page.text)
    assert csrf is not None
    # the CSRF token of one process's page is good in the other
    r = one.post("/e/1/script", data={"csrf": csrf.group(1), "line": "mj: note ok"})
    assert r.status_code in (200, 303), r.text
    assert other.get("/e/1").status_code == 401  # another key: not a session there
    nonce, mac = sid.split(".")
    forged = f"{nonce}.{'1' if mac[0] == '0' else '0'}{mac[1:]}"
    two.cookies.set("conteur_gm", forged)
    assert two.get("/e/1").status_code == 401
    for junk in ("no-dot-at-all", "."):
        two.cookies.set("conteur_gm", junk)
        assert two.get("/e/1").status_code == 401
    two.cookies.clear()
    raw = f"conteur_gm={nonce}.é{mac[1:]}".encode("latin-1")  # not ASCII: still just refused
    assert two.get("/e/1", headers={"cookie": raw}).status_code == 401  # type: ignore[dict-item]


def test_several_processes_need_postgresql(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from conteur.cli import app

    monkeypatch.delenv("CONTEUR_DATABASE_URL", raising=False)
    monkeypatch.setenv("CONTEUR_DATA_DIR", str(tmp_path))
    runner = CliRunner()
    fr = runner.invoke(app, ["serve", "--workers", "2"])
    assert fr.exit_code == 2 and "PostgreSQL" in fr.output and "--workers 2" in fr.output
    en = runner.invoke(app, ["serve", "--workers", "0", "--lang", "en"])
    assert en.exit_code == 2 and "not a number of processes" in en.output
    bad = runner.invoke(app, ["serve", "--public-url", "https://x.example/jeu", "--lang", "en"])
    assert bad.exit_code == 2 and "https://x.example/jeu" in bad.output
