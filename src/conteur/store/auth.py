"""Secrets: player tokens, and the game master's password or token stored as a scrypt hash.

Only the hash of a game master's secret is stored
(``scrypt$<n>$<r>$<p>$<salt>$<hash>``, salt and hash in URL-safe base64);
checking compares in constant time.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

TOKEN_BYTES = 32
"""Player and game-master tokens: 32 random bytes (256 bits), URL-safe."""
SCRYPT_N = 2**14
SCRYPT_R = 8
SCRYPT_P = 1
SCRYPT_LEN = 32
MIN_PASSWORD = 8
MAX_PASSWORD = 1024


def new_token() -> str:
    """A fresh unguessable token (``secrets.token_urlsafe``, 43 characters)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def digest(secret: str) -> str:
    """The SHA-256 of a random secret, in hex (a session id: 192 random bits need no scrypt)."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def hash_secret(secret: str, *, n: int = SCRYPT_N, r: int = SCRYPT_R, p: int = SCRYPT_P) -> str:
    """The storable scrypt hash of ``secret`` with a fresh random salt."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(
        secret.encode("utf-8"), salt=salt, n=n, r=r, p=p, dklen=SCRYPT_LEN, maxmem=64 * 1024 * 1024
    )
    return f"scrypt${n}${r}${p}${_b64(salt)}${_b64(digest)}"


def verify_secret(secret: str, stored: str) -> bool:
    """Whether ``secret`` matches the ``stored`` hash (False for a malformed hash)."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        expected = _unb64(digest)
        actual = hashlib.scrypt(
            secret.encode("utf-8"),
            salt=_unb64(salt),
            n=int(n),
            r=int(r),
            p=int(p),
            dklen=len(expected),
            maxmem=64 * 1024 * 1024,
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(actual, expected)
