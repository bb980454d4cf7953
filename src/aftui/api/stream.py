"""The live stream of a source's events (SSE), kept alive.

`SourceStream` yields events as they arrive and hides the network from its
reader: it reconnects with capped backoff, resumes with `Last-Event-ID` so
nothing retained is lost, drops what it has already yielded so nothing is
repeated, and treats a stream that has gone silent (no byte, keepalive
included, for twice the keepalive period) as dead. Whoever listens is told
its state: connecting, live, reconnecting n, failed and why.
"""

from __future__ import annotations

import asyncio
import json
import random
from contextlib import aclosing
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import httpx
from httpx_sse import EventSource, ServerSentEvent

from .errors import ApiError, AuthError, NetworkError, NotFoundError, ValidationError, error_for
from .models import EventSummary, event_key

if TYPE_CHECKING:
    from .client import Client


@dataclass(frozen=True)
class StreamState:
    phase: str  # "connecting", "live", "reconnecting", "failed" or "closed"
    attempt: int = 0
    reason: str | None = None

    def __str__(self) -> str:
        if self.phase == "reconnecting":
            return f"reconnecting {self.attempt}" + (f" ({self.reason})" if self.reason else "")
        if self.phase == "failed":
            return f"failed: {self.reason}"
        return self.phase


StateListener = Callable[[StreamState], None]

# Errors no reconnect can fix: the key, the source or the request is wrong.
FINAL = (AuthError, NotFoundError, ValidationError)


class SourceStream:
    """`async for event in client.stream_source(source_id): ...`"""

    def __init__(
        self,
        client: "Client",
        source_id: str,
        *,
        last_event_id: str | None = None,
        on_state: StateListener | None = None,
        keepalive_s: float = 15.0,
        max_backoff_s: float = 10.0,
        max_attempts: int | None = None,
    ) -> None:
        self.client = client
        self.source_id = source_id
        self.last_event_id = last_event_id
        self._last_key = event_key(last_event_id)
        self.keepalive_s = keepalive_s
        self.max_backoff_s = max_backoff_s
        self.max_attempts = max_attempts
        self.state = StreamState("connecting")
        self._listeners: list[StateListener] = [on_state] if on_state else []
        self.connections = 0  # how many times a connection went live, for tests and the header

    def add_listener(self, listener: StateListener) -> None:
        self._listeners.append(listener)

    def _set(self, state: StreamState) -> None:
        self.state = state
        for listener in self._listeners:
            listener(state)

    def __aiter__(self) -> AsyncIterator[EventSummary]:
        return self._run()

    async def _run(self) -> AsyncIterator[EventSummary]:
        failures = 0
        self._set(StreamState("connecting"))
        try:
            while True:
                try:
                    # aclosing: when our reader stops, the HTTP stream closes now, not at GC.
                    async with aclosing(self._connection()) as events:
                        async for event in events:
                            failures = 0
                            yield event
                    reason = "the service closed the stream"
                except FINAL as exc:
                    self._set(StreamState("failed", failures, exc.message))
                    raise
                except (ApiError, httpx.HTTPError) as exc:
                    reason = _reason(exc)
                failures += 1
                if self.max_attempts is not None and failures > self.max_attempts:
                    self._set(StreamState("failed", failures, reason))
                    raise NetworkError(f"the stream failed {failures} times; last: {reason}")
                self._set(StreamState("reconnecting", failures, reason))
                await asyncio.sleep(self._backoff(failures))
        finally:
            if self.state.phase != "failed":
                self._set(StreamState("closed"))

    def _backoff(self, failures: int) -> float:
        """The first retry at once (a dropped stream usually just needs reopening), then capped growth."""
        if failures == 1:
            return 0.0
        return min(self.max_backoff_s, 0.25 * 2 ** (failures - 1)) * random.uniform(0.5, 1.0)

    async def _connection(self) -> AsyncIterator[EventSummary]:
        client = self.client
        http = client._http  # noqa: SLF001 - the stream is the client's, sharing its pool
        url = f"{client.root_url}/sources/{self.source_id}/sse"
        # httpx's read timeout is "no byte for this long": keepalives count, silence does not.
        timeout = httpx.Timeout(self.keepalive_s * 2, connect=client.timeouts.connect)
        for refresh in (False, True):
            headers = {"Authorization": await client.auth.header(http), "Accept": "text/event-stream", "Cache-Control": "no-cache"}
            if self.last_event_id:
                headers["Last-Event-ID"] = self.last_event_id
            async with http.stream("GET", url, headers=headers, timeout=timeout) as response:
                if response.status_code == 401 and not refresh and client.auth.invalidate():
                    continue  # an OAuth token that lapsed: one fresh token, then try again
                if response.status_code >= 400:
                    await response.aread()
                    raise error_for(response)
                self.connections += 1
                self._set(StreamState("live"))
                async for sse in EventSource(response).aiter_sse():
                    event = self._accept(sse)
                    if event is not None:
                        yield event
                return

    def _accept(self, sse: ServerSentEvent) -> EventSummary | None:
        """The event, unless it is empty or one we already gave out."""
        if not sse.data:
            return None
        event = parse_event(sse, self.source_id)
        key = event_key(sse.id or event.id)
        if key is not None:
            if self._last_key is not None and key <= self._last_key:
                return None
            self._last_key = key
        if sse.id or event.id:
            self.last_event_id = sse.id or event.id
        return event


def parse_event(sse: ServerSentEvent, source_id: str) -> EventSummary:
    """A summary from the emulator's `data:`, or a bare payload as the real service may send it."""
    try:
        data: Any = json.loads(sse.data)
    except ValueError:
        data = sse.data
    if isinstance(data, dict) and "event" in data and ("id" in data or "metadata" in data):
        try:
            return EventSummary.model_validate(data)
        except ValueError:
            pass
    return EventSummary(id=sse.id or None, event=data, metadata={"emitter_id": source_id, "name": sse.event if sse.event != "message" else None})


def _reason(exc: BaseException) -> str:
    if isinstance(exc, ApiError):
        return exc.message
    if isinstance(exc, httpx.ReadTimeout):
        return "no data or keepalive for too long"
    if isinstance(exc, httpx.ConnectError):
        return "cannot connect"
    if isinstance(exc, httpx.RemoteProtocolError):
        return "the connection was dropped"
    return type(exc).__name__
