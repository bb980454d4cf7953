"""Credentials in what aftui shows: the values of headers that carry them, and the tokens in URLs, masked.

An HTTP trigger's event, and so a workflow error's `original_event`, holds the request's headers as the
service received them: a caller's cookie, bearer token or API key. aftui never sends them again (see
`replay.request`), and shows them masked wherever it draws a payload: the replay screen, the monitor's
lines and detail, a detail's JSON. Copying or exporting an event is asking for it: those keep the values.

A webhook's URL often is its credential: Slack's and Discord's carry a token in the path, others one in
the query, and whoever holds the URL can post there. `url_secrets_masked` shows it with those parts masked.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit, urlunsplit

MASK = "****"
# Named outright, and anything whose name has one of the words.
CREDENTIAL_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie", "set-cookie"})
SECRET_WORDS = ("auth", "token", "secret", "signature", "api-key", "apikey", "session", "csrf", "password")
# Secrets shorter than this are masked entirely: showing 6 characters of an 8-character secret gives most away.
MASK_MIN_LENGTH = 12
# A URL's path segment or query value read as a token: 16 or more URL-safe characters, of which letters
# and digits run together (Slack's 24, an endpoint key) or mixed case and digits between separators
# (base64url), or 32 or more of any (a UUID). "order-notifications" and "hooks_2024_payments" are words.
_TOKEN = re.compile(r"[A-Za-z0-9_\-.~+=%]{16,}")
_SEPARATORS = re.compile(r"[-_.~]")
TOKEN_ALWAYS = 32
# Query parameters named for a key or a signature, whatever their value looks like.
_QUERY_SECRET_WORDS = ("key", "sig", "code", "pass")
DEPTH = 5  # levels looked through for `headers`: an error's event.original_event.headers, under a monitor record


def carries_credentials(name: str) -> bool:
    lowered = name.strip().lower()
    return lowered in CREDENTIAL_HEADERS or any(word in lowered for word in SECRET_WORDS)


def masked(value: Any, depth: int = DEPTH) -> Any:
    """`value` as shown: in each `headers` object within its first `depth` levels, the values of the headers
    that carry credentials masked. `value` itself when there is nothing to mask; a copy of what changed
    otherwise (the payload is never changed in place: it is what a replay sends, a copy copies)."""
    if depth <= 0:
        return value
    if isinstance(value, dict):
        changed: dict[str, Any] | None = None
        for key, child in value.items():
            shown = _masked_headers(child) if _is_headers(key, child) else masked(child, depth - 1)
            if shown is not child:
                changed = changed if changed is not None else dict(value)
                changed[key] = shown
        return changed if changed is not None else value
    if isinstance(value, list):
        items = [masked(child, depth - 1) for child in value]
        return items if any(a is not b for a, b in zip(items, value, strict=True)) else value
    return value


def _is_headers(key: Any, value: Any) -> bool:
    return isinstance(key, str) and key.lower() == "headers" and isinstance(value, dict)


def _masked_headers(headers: dict[Any, Any]) -> dict[Any, Any]:
    if not any(carries_credentials(str(name)) for name in headers):
        return headers
    return {name: MASK if carries_credentials(str(name)) else value for name, value in headers.items()}


def url_masked(url: str) -> str:
    """`url` with its password masked (a journal's: postgresql://user:secret@host/db), for logs, stats, the UI."""
    try:
        parts = urlsplit(url)
    except ValueError:  # not a URL (a bracket left open): nothing of it is shown
        return MASK
    user, at, where = parts.netloc.rpartition("@")
    if not at or ":" not in user:
        return url
    return urlunsplit(parts._replace(netloc=f"{user.partition(':')[0]}:{MASK}@{where}"))


def mask(secret: str) -> str:
    """`secret` shortened to be recognisable but not usable: "pd_a…9f", or "****" when short."""
    if len(secret) < MASK_MIN_LENGTH:
        return MASK
    return f"{secret[:4]}…{secret[-2:]}"


def looks_like_token(text: str) -> bool:
    if not _TOKEN.fullmatch(text):
        return False
    if len(text) >= TOKEN_ALWAYS:
        return True
    digits, lower, upper = (any(test(c) for c in text) for test in (str.isdigit, str.islower, str.isupper))
    if _SEPARATORS.search(text):
        return digits and lower and upper
    return digits and (lower or upper)


def url_secrets_masked(url: str) -> str:
    """`url` as shown: its password, its token-like path segments and the values of its secret query
    parameters masked ("https://hooks.slack.com/services/T04B/B06Q/9fQk…sD"). The scheme, host, port and
    the path's words stay, so two webhooks can still be told apart."""
    try:
        parts = urlsplit(url_masked(url))
    except ValueError:
        return MASK
    path = "/".join(mask(segment) if looks_like_token(segment) else segment for segment in parts.path.split("/"))
    query = "&".join(_query_pair_masked(pair) for pair in parts.query.split("&")) if parts.query else ""
    fragment = mask(parts.fragment) if looks_like_token(parts.fragment) else parts.fragment
    return urlunsplit(parts._replace(path=path, query=query, fragment=fragment))


def _query_pair_masked(pair: str) -> str:
    name, equals, value = pair.partition("=")
    lowered = name.lower()
    secret = carries_credentials(name) or any(word in lowered for word in _QUERY_SECRET_WORDS)
    return f"{name}{equals}{mask(value)}" if value and (secret or looks_like_token(value)) else pair
