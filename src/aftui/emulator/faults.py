"""Injected faults: the next N requests to a path fail in a chosen way.

A fault answers with a status (optionally with `Retry-After`, an HTML page
or malformed JSON as the body), waits before answering, or drops the
connection in the middle of the body. Controls under `/_emulator/` are
never faulted, so a test can always clear what it set.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Receive, Scope, Send

from .errors import bad_request

BODIES = ("json", "html", "malformed", "empty")
MAX_DELAY_S = 600
_ids = itertools.count(1)


class InjectedDrop(Exception):
    """Raised to make the server cut the connection mid-body."""


@dataclass
class Fault:
    path: str
    count: int = 1
    method: str | None = None
    status: int | None = None
    delay: float = 0.0
    drop: bool = False
    body: str = "json"
    retry_after: int | None = None
    id: int = field(default_factory=lambda: next(_ids))

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> Fault:
        path = params.get("path")
        if not isinstance(path, str) or not path.startswith("/"):
            raise bad_request("path is required and must start with /", param="path")
        fault = cls(path=path.rstrip("/") or "/")
        try:
            fault.count = int(params.get("count", 1))
            fault.method = str(params["method"]).upper() if params.get("method") else None
            fault.status = int(params["status"]) if params.get("status") is not None else None
            fault.delay = float(params.get("delay", 0))
            fault.retry_after = int(params["retry_after"]) if params.get("retry_after") is not None else None
        except (TypeError, ValueError, OverflowError):  # OverflowError: int() of an infinite JSON number
            raise bad_request("count, status, delay and retry_after must be numbers", param="fault") from None
        fault.drop = params.get("drop") in (True, "true", "1")
        fault.body = str(params.get("body", "json"))
        if fault.body not in BODIES:
            raise bad_request(f"body must be one of {', '.join(BODIES)}", param="body")
        if fault.status is not None and not 100 <= fault.status <= 599:
            raise bad_request("status must be from 100 to 599", param="status")
        if fault.count < 1:
            raise bad_request("count must be at least 1", param="count")
        if not 0 <= fault.delay <= MAX_DELAY_S:  # also refuses NaN
            raise bad_request(f"delay must be from 0 to {MAX_DELAY_S} seconds", param="delay")
        if fault.status is None and not fault.drop and not fault.delay and fault.body == "json":
            raise bad_request("a fault needs a status, a delay, drop, or a body", param="status")
        return fault

    def matches(self, method: str, path: str) -> bool:
        return (self.method is None or self.method == method) and (
            path == self.path or path.startswith(self.path + "/")
        )

    def describe(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


class Faults:
    def __init__(self) -> None:
        self._faults: list[Fault] = []

    def add(self, fault: Fault) -> None:
        self._faults.append(fault)

    def clear(self) -> None:
        self._faults.clear()

    def active(self) -> list[Fault]:
        return list(self._faults)

    def take(self, method: str, path: str) -> Fault | None:
        for fault in self._faults:
            if fault.matches(method, path):
                fault.count -= 1
                if fault.count <= 0:
                    self._faults.remove(fault)
                return fault
        return None


_HTML = b"<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>"


class FaultMiddleware:
    def __init__(self, app: ASGIApp, faults: Faults) -> None:
        self.app = app
        self.faults = faults

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith("/_emulator") or not self.faults._faults:
            await self.app(scope, receive, send)
            return
        fault = self.faults.take(scope["method"], scope["path"])
        if fault is None:
            await self.app(scope, receive, send)
            return
        if fault.delay:
            await asyncio.sleep(fault.delay)
        if fault.drop:
            await _drop(send)
        if fault.status is None and fault.body == "json":
            await self.app(scope, receive, send)
            return
        await _answer(send, fault)


async def _drop(send: Send) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", b"application/json"), (b"content-length", b"4096")],
        }
    )
    await send({"type": "http.response.body", "body": b'{"data": [{"id": "dc_', "more_body": True})
    raise InjectedDrop("connection dropped by an injected fault")


async def _answer(send: Send, fault: Fault) -> None:
    status = fault.status or 200
    headers = [(b"content-type", b"application/json")]
    if fault.body == "html":
        body, headers = _HTML, [(b"content-type", b"text/html")]
    elif fault.body == "malformed":
        body = b'{"data": [{"id": "dc_x", "name": '
    elif fault.body == "empty":
        body = b""
    else:
        body = b'{"error": "Throttled"}' if status == 429 else b'{"error": "injected fault: the service failed"}'
    if fault.retry_after is not None:
        headers.append((b"retry-after", str(fault.retry_after).encode()))
    headers.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


# Not failures of the emulator, and each a traceback of twenty lines in the demo's log (helper walks found
# it full of them): a fault's dropped connection, a client gone before its answer (a request that timed out
# under a delay fault), and a request cut short by the shutdown (the demo quit while a delay held requests).
_UNREMARKABLE: tuple[type[BaseException], ...] = (InjectedDrop, ClientDisconnect, asyncio.CancelledError)


class _HideUnremarkable(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, _UNREMARKABLE)


def quiet_unremarkable() -> None:
    """uvicorn's "Exception in ASGI application" left out for `_UNREMARKABLE`; its one-line notes stay."""
    server = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, _HideUnremarkable) for f in server.filters):  # once, however many servers start
        server.addFilter(_HideUnremarkable())
