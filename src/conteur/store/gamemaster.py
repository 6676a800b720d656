"""The game master's secrets and sessions, and the server's signing key
(``GameMasterStore``).

Only hashes are stored: scrypt hashes of the game master's password and tokens
(``gm_secrets``; a token opens one session, once, even with logins racing), the SHA-256
of each session's random id (``gm_sessions``, revocable, expiring when idle).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from conteur.i18n import ConteurError

from . import auth
from .base import StoreBase, from_row
from .models import GmSecret, GmSession, ServerKey, now

TOKENS_RECOGNISED = 2
"""The latest game master's tokens a login recognises: the current one, and the one it
replaced (its link, met again, gets « already used » rather than « wrong »)."""

SEEN_EVERY = 60.0
"""Seconds between two notes of when a session was last seen."""


@dataclass(frozen=True)
class GmSessionInfo:
    """A game master's open session, as the settings page lists it."""

    id: int
    agent: str
    address: str
    created_at: datetime
    seen_at: datetime


class GameMasterStore(StoreBase):
    """The ``Store``'s game master: password, one-login tokens, sessions, signing key."""

    def has_gm_secret(self) -> bool:
        """Whether a game master's password or token has been set."""
        with self._read() as s:
            return s.scalar(select(func.count(GmSecret.id))) != 0

    def has_gm_password(self) -> bool:
        """Whether the game master has chosen a password (else the first visit asks for one)."""
        with self._read() as s:
            count = select(func.count(GmSecret.id)).where(GmSecret.kind == "password")
            return s.scalar(count) != 0

    def set_gm_password(self, password: str) -> None:
        """Set the game master's password (stored as a scrypt hash; replaces the previous one)."""
        if len(password) < auth.MIN_PASSWORD:
            raise ConteurError("store.gm.password_short", min=auth.MIN_PASSWORD)
        if len(password) > auth.MAX_PASSWORD:
            raise ConteurError("store.gm.password_long", max=auth.MAX_PASSWORD)
        hashed = auth.hash_secret(password)
        with self._write() as s:
            s.add(GmSecret(kind="password", hash=hashed))

    def new_gm_token(self) -> str:
        """A fresh game master's token, good for one login (only its hash is stored; it
        replaces the previous token)."""
        token = auth.new_token()
        hashed = auth.hash_secret(token)
        with self._write() as s:
            s.add(GmSecret(kind="token", hash=hashed))
        return token

    def _latest_secrets(self, s: Session) -> tuple[str | None, list[GmSecret]]:
        """The current password's hash, and the latest tokens (newest first)."""
        password = s.scalar(
            select(GmSecret.hash)
            .where(GmSecret.kind == "password")
            .order_by(GmSecret.id.desc())
            .limit(1)
        )
        tokens = s.scalars(
            select(GmSecret)
            .where(GmSecret.kind == "token")
            .order_by(GmSecret.id.desc())
            .limit(TOKENS_RECOGNISED)
        ).all()
        return password, list(tokens)

    def check_gm_secret(self, secret: str) -> bool:
        """Whether ``secret`` is the game master's current password or unused token (nothing
        is used up: ``gm_login`` is the login)."""
        if not secret or len(secret) > 1024:
            return False
        with self._read() as s:
            password, tokens = self._latest_secrets(s)
        hashes = [password] if password else []
        hashes += [t.hash for t in tokens[:1] if t.used_at is None]
        return any(auth.verify_secret(secret, h) for h in hashes)

    def check_gm_password(self, secret: str) -> bool:
        """Whether ``secret`` is the game master's current password."""
        if not secret or len(secret) > auth.MAX_PASSWORD:
            return False
        with self._read() as s:
            password, _ = self._latest_secrets(s)
        return password is not None and auth.verify_secret(secret, password)

    def gm_login(self, secret: str) -> str | None:
        """What ``secret`` is: ``"password"`` (the current one), ``"token"`` (the latest token,
        unused until now: this uses it up, once, even with logins racing), ``"used"`` (a token
        that has already opened a session, or one replaced since), or None."""
        if not secret or len(secret) > 1024:
            return None
        with self._read() as s:
            password, tokens = self._latest_secrets(s)
        if password and auth.verify_secret(secret, password):
            return "password"
        for n, token in enumerate(tokens):
            if not auth.verify_secret(secret, token.hash):
                continue
            if n > 0 or token.used_at is not None:
                return "used"
            with self._write() as s:
                done = s.execute(
                    update(GmSecret)
                    .where(GmSecret.id == token.id, GmSecret.used_at.is_(None))
                    .values(used_at=now())
                )
            return "token" if getattr(done, "rowcount", 0) == 1 else "used"
        return None

    # -------------------------------------------------------------- sessions

    def open_gm_session(self, nonce: str, *, agent: str = "", address: str = "") -> None:
        """Record a game master's session (only the SHA-256 of ``nonce``, its random id)."""
        with self._write() as s:
            s.add(GmSession(digest=auth.digest(nonce), agent=agent[:200], address=address[:100]))

    def gm_session_id(self, nonce: str, *, idle: float | None = None) -> int | None:
        """The id of the open (not revoked) session ``nonce`` names, else None; notes when it
        was last seen (at most once a minute). With ``idle`` (seconds), a session not seen
        for longer is revoked now (it expired) and None is returned."""
        digest = auth.digest(nonce)
        with self._read() as s:
            row = s.scalar(
                select(GmSession).where(GmSession.digest == digest, GmSession.revoked_at.is_(None))
            )
        if row is None:
            return None
        moment = now()
        if idle is not None and (moment - row.seen_at).total_seconds() > idle:
            self.revoke_gm_session(row.id)
            return None
        if (moment - row.seen_at).total_seconds() > SEEN_EVERY:
            with self._write() as s:
                s.execute(update(GmSession).where(GmSession.id == row.id).values(seen_at=moment))
        return row.id

    def list_gm_sessions(self) -> list[GmSessionInfo]:
        """The open sessions, the most recently seen first."""
        with self._read() as s:
            rows = s.scalars(
                select(GmSession)
                .where(GmSession.revoked_at.is_(None))
                .order_by(GmSession.seen_at.desc(), GmSession.id.desc())
            ).all()
            return [from_row(GmSessionInfo, r) for r in rows]

    def revoke_gm_session(self, session_id: int) -> bool:
        """Close a session for good (its cookie opens nothing any more); False if it was not
        open."""
        with self._write() as s:
            done = s.execute(
                update(GmSession)
                .where(GmSession.id == session_id, GmSession.revoked_at.is_(None))
                .values(revoked_at=now())
            )
        return getattr(done, "rowcount", 0) == 1

    def signing_key(self) -> bytes:
        """The server's signing key (sessions, CSRF tokens), made at the first call and kept in
        the database, so that a restart leaves the game master's pages valid."""
        with self._read() as s:
            value = s.scalar(select(ServerKey.value).where(ServerKey.purpose == "signing"))
        if value is None:
            try:
                with self._write() as s:
                    s.add(ServerKey(purpose="signing", value=secrets.token_hex(32)))
            except IntegrityError:  # another process made it first: theirs counts
                pass
            with self._read() as s:
                value = s.scalar(select(ServerKey.value).where(ServerKey.purpose == "signing"))
        assert value is not None
        return bytes.fromhex(value)
