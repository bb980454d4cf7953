"""What can go wrong talking to the service, as exceptions a caller can tell apart.

`ApiError` carries the status and the server's own message, dug out of
whatever body came back (JSON, an HTML error page, nothing at all). The
subclasses are the cases a caller handles differently: sign in again, say
"not found", show the message beside the named field, wait and retry.
"""

from __future__ import annotations

import html
import json
import re
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from . import jsontext


class ApiError(Exception):
    """A request the service refused or could not answer."""

    def __init__(
        self,
        message: str,
        *,
        status: int = 0,
        method: str = "",
        url: str = "",
        param: str | None = None,
        request_id: str | None = None,
        body: Any = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.method = method
        self.url = url
        self.param = param
        self.request_id = request_id
        self.body = body

    def __str__(self) -> str:
        where = f" ({self.method} {self.url})" if self.method else ""
        status = f"{self.status} " if self.status else ""
        return f"{status}{self.message}{where}"


class AuthError(ApiError):
    """401 or 403: the credential is wrong, revoked, expired, or not allowed here."""


class NotFoundError(ApiError):
    """404: the id is unknown, or not visible to this credential."""


class ValidationError(ApiError):
    """4xx for a bad or missing parameter; `param` names it when the server does."""


class RateLimitError(ApiError):
    """429: `retry_after` says how many seconds to wait."""

    def __init__(self, message: str, *, retry_after: float | None = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.retry_after = retry_after


class ServerError(ApiError):
    """5xx, or a success status with a body that is not what was promised."""


class NetworkError(ApiError):
    """No answer: the connection failed, dropped or timed out."""


def is_transient(error: BaseException) -> bool:
    """A failure that may pass by itself (no answer, a 5xx, rate limited): trying again later can work."""
    # By kind first: an error aftui raises itself has no status (0, as a dropped connection's), and "no
    # subscription … (it may have been deleted)" was tried again every few seconds.
    if isinstance(error, (AuthError, NotFoundError, ValidationError)):
        return False
    if isinstance(error, (NetworkError, RateLimitError, ServerError)):
        return True
    return isinstance(error, ApiError) and (error.status == 0 or error.status == 429 or error.status >= 500)


def with_status(error: ApiError) -> str:
    """ "HTTP 503: Service Unavailable": the status says a moment's outage where the message alone may not."""
    return f"HTTP {error.status}: {error.message}" if error.status else error.message


class ReadOnlyError(Exception):
    """A mutating call in a read-only profile; raised before anything is sent."""

    def __init__(self, action: str) -> None:
        super().__init__(f"{action} is not allowed: this profile is read-only")
        self.action = action


# --- reading an error response ---------------------------------------------------------------

_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.I | re.S)
_H1 = re.compile(r"<h1[^>]*>(.*?)</h1>", re.I | re.S)
_TAGS = re.compile(r"<[^>]+>")
MAX_MESSAGE = 500


def message_of(response: httpx.Response) -> tuple[str, str | None, Any]:
    """The server's message, the parameter it names, and the decoded body."""
    text = response.text if response.content else ""
    try:
        body: Any = jsontext.loads(text) if text.strip() else None
    except ValueError:
        body = text
    if isinstance(body, dict):
        return _from_json(body, response)
    if isinstance(body, str) and "<" in body:
        return _from_html(body) or _reason(response), None, body
    if isinstance(body, str) and body.strip():
        return _cap(body.strip()), None, body
    return _reason(response), None, body


def _from_json(body: dict[str, Any], response: httpx.Response) -> tuple[str, str | None, Any]:
    message = body.get("error") or body.get("message") or body.get("detail")
    if isinstance(message, dict):  # {"error": {"message": ...}}
        message = message.get("message") or json.dumps(message)
    if not message and isinstance(body.get("errors"), list) and body["errors"]:
        message = "; ".join(str(e.get("message", e)) if isinstance(e, dict) else str(e) for e in body["errors"])
    details = body.get("details")
    param = (details.get("param") if isinstance(details, dict) else None) or body.get("param")
    return _cap(str(message)) if message else _reason(response), str(param) if param else None, body


def _from_html(text: str) -> str | None:
    for pattern in (_H1, _TITLE):
        match = pattern.search(text)
        if match:
            words = " ".join(html.unescape(_TAGS.sub(" ", match.group(1))).split())
            if words:
                return _cap(words)
    return None


def _reason(response: httpx.Response) -> str:
    return response.reason_phrase or f"HTTP {response.status_code}"


def _cap(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


def retry_after_seconds(response: httpx.Response) -> float | None:
    """`Retry-After` as seconds (a number of seconds or an HTTP date)."""
    raw = response.headers.get("retry-after")
    if not raw:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def error_for(response: httpx.Response) -> ApiError:
    """The typed error for a non-2xx response."""
    message, param, body = message_of(response)
    request = response.request
    common: dict[str, Any] = {
        "status": response.status_code,
        "method": request.method,
        "url": str(request.url.copy_with(query=None)),
        "param": param,
        "request_id": response.headers.get("x-request-id"),
        "body": body,
    }
    status = response.status_code
    if status in (401, 403):
        return AuthError(message, **common)
    if status == 404:
        return NotFoundError(message, **common)
    if status == 429:
        return RateLimitError(message, retry_after=retry_after_seconds(response), **common)
    if 400 <= status < 500:
        return ValidationError(message, **common)
    return ServerError(message, **common)


def transport_message(exc: httpx.TransportError) -> str:
    """A failed exchange in plain words, for the user and the status line."""
    if isinstance(exc, httpx.ConnectError):
        return "cannot connect to the service"
    if isinstance(exc, httpx.RemoteProtocolError):
        return "the connection was dropped before the answer was complete"
    if isinstance(exc, httpx.ReadError):
        return "the connection broke while reading the answer"
    return f"network error ({type(exc).__name__})"
