"""Credentials in the payloads aftui shows: the values of headers that carry them, masked.

An HTTP trigger's event, and so a workflow error's `original_event`, holds the request's headers as the
service received them: a caller's cookie, bearer token or API key. aftui never sends them again (see
`replay.request`), and shows them masked wherever it draws a payload: the replay screen, the monitor's
lines and detail, a detail's JSON. Copying or exporting an event is asking for it: those keep the values.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit, urlunsplit

MASK = "****"
# Named outright, and anything whose name has one of the words.
CREDENTIAL_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie", "set-cookie"})
SECRET_WORDS = ("auth", "token", "secret", "signature", "api-key", "apikey", "session", "csrf", "password")
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
