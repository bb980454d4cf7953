"""The HTTP request a replay sends: rebuilt from an errored event's `original_event`.

An HTTP interface turns each request into an event shaped `{method, path,
query, headers, body, bodyRaw}` (what the emulator does, and what the real
service's HTTP events carry). Replaying sends that request again to the
endpoint's public URL: same method, path below the endpoint, query and body,
and only the headers that describe the content. Credentials, cookies,
signatures and what proxies or the transport add are left out: they belong
to the first delivery, and a replay must not pass them on (or fail on them).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urlencode

from ..masking import carries_credentials

REPLAY_HEADER = "x-aftui-replay"  # marks the request as a replay, with its id, so its outcome can be found

# Named outright: transport, proxies and the first delivery's identity (credentials: `masking.carries_credentials`).
_DROPPED = frozenset(
    {
        "host",
        "content-length",
        "connection",
        "keep-alive",
        "te",
        "trailer",
        "trailers",
        "transfer-encoding",
        "upgrade",
        "proxy-connection",
        "expect",
        "forwarded",
        "via",
        "x-real-ip",
        "true-client-ip",
        "accept-encoding",
        "content-encoding",
        REPLAY_HEADER,
    }
)
_DROPPED_PREFIXES = ("x-forwarded-", "cf-", "x-amzn-", "x-envoy-", "x-vercel-", "x-cloud-trace")


def is_safe_header(name: str) -> bool:
    """Whether a header of the original request may be sent again."""
    lowered = name.strip().lower()
    if not lowered or lowered in _DROPPED or lowered.startswith(_DROPPED_PREFIXES):
        return False
    return not carries_credentials(lowered)  # or a signature over the original bytes


def split_headers(headers: Any) -> tuple[dict[str, str], tuple[str, ...]]:
    """The headers to send again, and the names of those left out (sorted)."""
    if not isinstance(headers, dict):
        return {}, ()
    kept: dict[str, str] = {}
    dropped: set[str] = set()
    for name, value in headers.items():
        name = str(name)
        if (
            is_safe_header(name)
            and isinstance(value, (str, int, float))
            and "\n" not in str(value)
            and "\r" not in str(value)
        ):
            kept[name.lower()] = str(value)
        else:
            dropped.add(name.lower())
    return kept, tuple(sorted(dropped))


def is_http_event(event: Any) -> bool:
    """The shape an HTTP interface gives a request (not just a body)."""
    return (
        isinstance(event, dict)
        and isinstance(event.get("method"), str)
        and "headers" in event
        and ("body" in event or "bodyRaw" in event)
    )


_UNCHANGED: Any = object()


@dataclass(frozen=True)
class ReplayRequest:
    """What will be sent: `url` is the endpoint's URL with the original path under it."""

    method: str
    url: str
    query: dict[str, str] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None  # the payload as JSON (what the editor edits)
    raw: str | None = None  # the original bytes as text; sent as they were unless the body was edited
    dropped: tuple[str, ...] = ()
    edited: bool = False

    @property
    def full_url(self) -> str:
        return self.url + ("?" + urlencode(self.query) if self.query else "")

    def with_body(self, body: Any) -> ReplayRequest:
        """The same request carrying an edited payload."""
        return replace(self, body=body, raw=None, edited=True)

    def content(self) -> tuple[bytes | None, dict[str, str]]:
        """The bytes to send and the headers to send them with (content-type fitted to an edited body)."""
        headers = dict(self.headers)
        kind = headers.get("content-type", "")
        if self.raw is not None:
            return (self.raw.encode("utf-8") if self.raw else None), headers
        if self.body is None:
            return None, headers
        if isinstance(self.body, str):
            headers.setdefault("content-type", "text/plain; charset=utf-8")
            return self.body.encode("utf-8"), headers
        if kind.startswith("application/x-www-form-urlencoded") and isinstance(self.body, dict):
            return urlencode(
                {k: v if isinstance(v, str) else json.dumps(v) for k, v in self.body.items()}
            ).encode(), headers
        if "json" not in kind:
            headers["content-type"] = "application/json"
        return json.dumps(self.body, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), headers

    def size(self) -> int:
        content, _ = self.content()
        return len(content or b"")


def request_for(original_event: Any, endpoint_url: str) -> ReplayRequest:
    """The request to send to `endpoint_url` for an event an HTTP interface made.

    A request-shaped event is sent as it came; any other value (a source that
    emits only the body) is POSTed as a JSON body.
    """
    base = endpoint_url.rstrip("/")
    if not is_http_event(original_event):
        return ReplayRequest("POST", base + "/", headers={"content-type": "application/json"}, body=original_event)
    method = str(original_event.get("method") or "POST").upper()
    path = original_event.get("path")
    path = path if isinstance(path, str) and path.startswith("/") else "/"
    query = original_event.get("query")
    query = {str(k): str(v) for k, v in query.items()} if isinstance(query, dict) else {}
    headers, dropped = split_headers(original_event.get("headers"))
    raw = original_event.get("bodyRaw")
    body = original_event.get("body")
    return ReplayRequest(
        method=method,
        url=base + path,
        query=query,
        headers=headers,
        body=body,
        raw=raw if isinstance(raw, str) else None,
        dropped=dropped,
    )


def payload_of(original_event: Any) -> Any:
    """What the editor offers to change: the request's body, or the whole event when it is only a body."""
    if is_http_event(original_event):
        return original_event.get("body")
    return original_event
