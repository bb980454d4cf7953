"""Just enough JWT (HS256) for the emulator's OAuth access tokens."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from typing import Any


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign(claims: dict[str, Any], secret: bytes) -> str:
    header = _b64(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    payload = _b64(json.dumps(claims, separators=(",", ":"), sort_keys=True).encode())
    signing_input = f"{header}.{payload}".encode("ascii")
    signature = _b64(hmac.new(secret, signing_input, hashlib.sha256).digest())
    return f"{header}.{payload}.{signature}"


def verify(token: str, secret: bytes) -> dict[str, Any] | None:
    """The claims of a token signed with `secret`, or None. Expiry is the caller's check."""
    parts = token.split(".")
    if len(parts) != 3 or not token.isascii():  # a header may carry any latin-1 text
        return None
    header, payload, signature = parts
    expected = _b64(hmac.new(secret, f"{header}.{payload}".encode("ascii"), hashlib.sha256).digest())
    if not hmac.compare_digest(expected, signature):
        return None
    try:
        claims = json.loads(_unb64(payload))
    except (ValueError, UnicodeDecodeError):
        return None
    return claims if isinstance(claims, dict) else None
