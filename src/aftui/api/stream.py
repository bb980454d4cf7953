"""The live stream of a source's events (SSE), kept alive.

`SourceStream` yields events as they arrive and hides the network from its
reader: it reconnects with capped backoff, resumes with `Last-Event-ID`,
drops what it has already yielded so nothing is repeated, and treats a stream
that has gone silent (no byte, keepalive included, for twice the keepalive
period) as dead. Whoever listens is told its state: connecting, live,
reconnecting n, failed and why.

Given a way to read what the service keeps of the source (`catch_up`), it
loses nothing the service kept: it reads it before its first connection (to
know where "now" is, or to give what came after its `last_event_id`) and
after every reconnect, where the events of the gap are. A reconnect by
`Last-Event-ID` alone is not enough: a stream that has seen no event has no
id to give, and the spec does not say that the service resumes by it.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Sequence
from contextlib import aclosing, asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import httpx

from .auth import ApiKeyAuth, OAuthAuth
from .errors import (
    ApiError,
    AuthError,
    NetworkError,
    NotFoundError,
    RateLimitError,
    ValidationError,
    error_for,
    transport_message,
)
from .eventid import event_key
from .rawevent import RawEvent, other_event, summary_of_data, summary_validator
from .sse import NotAnEventStream, Pause, SseEvent, aiter_sse_chunks

if TYPE_CHECKING:
    from .models import EventSummary


@dataclass(frozen=True)
class Connection:
    """What a stream needs of the client that opens it: its pool, its root URL and its credentials.

    The client hands this down rather than itself, so the stream stays below the client.
    """

    http: httpx.AsyncClient
    root_url: str
    auth: ApiKeyAuth | OAuthAuth
    connect_timeout: float | None


@dataclass(frozen=True)
class StreamState:
    phase: str  # "connecting", "live", "reconnecting", "failed" or "closed"
    attempt: int = 0
    reason: str | None = None
    status: int = 0  # the HTTP status the service answered the last try with (0: none, or no answer)

    def __str__(self) -> str:
        if self.phase == "reconnecting":
            # attempt 0: a request not answered yet, before any failed ("reconnecting (no answer in 6 s)")
            return f"reconnecting {self.attempt or ''}".rstrip() + (f" ({self.reason})" if self.reason else "")
        if self.phase == "failed":
            return f"failed: {self.reason}"
        return self.phase


StateListener = Callable[[StreamState], None]
CatchUp = Callable[[], Awaitable[Sequence["EventSummary"]]]  # the events the service keeps of the source

RAW_MAX = 64 * 1024  # characters of data a RawEvent may hold; bigger events are parsed as they arrive

# Errors no reconnect can fix: the key, the source or the request is wrong.
FINAL = (AuthError, NotFoundError, ValidationError)


class SourceStream:
    """`async for event in client.stream_source(source_id): ...`"""

    def __init__(
        self,
        connection: Connection,
        source_id: str,
        *,
        last_event_id: str | None = None,
        on_state: StateListener | None = None,
        keepalive_s: float = 15.0,
        max_backoff_s: float = 10.0,
        max_attempts: int | None = None,
        raw: bool = False,
        pause: Pause | None = None,
        catch_up: CatchUp | None = None,
        backfill: bool = False,
    ) -> None:
        self.connection = connection
        self.source_id = source_id
        self.last_event_id = last_event_id
        self._last_key = event_key(last_event_id)
        self.keepalive_s = keepalive_s
        self.max_backoff_s = max_backoff_s
        self.max_attempts = max_attempts
        self.raw = raw  # yield RawEvent where the data can wait to be parsed (see rawevent.py)
        self.pause = pause  # held, the next network chunk waits before it is parsed (see aiter_sse_chunks)
        self.catch_up = catch_up
        # With no last_event_id: begin with what the service keeps (True), or from now (False).
        self.backfill = backfill
        # The batch just yielded is what the service kept from before the stream opened, not arrivals.
        self.backlog = False
        self.state = StreamState("connecting")
        self._listeners: list[StateListener] = [on_state] if on_state else []
        self.connections = 0  # how many times a connection went live, for tests and the header

    def add_listener(self, listener: StateListener) -> None:
        self._listeners.append(listener)

    def _set(self, state: StreamState) -> None:
        self.state = state
        for listener in self._listeners:
            listener(state)

    def __aiter__(self) -> AsyncIterator[EventSummary | RawEvent]:
        return self._each()

    def batches(self) -> AsyncGenerator[list[EventSummary | RawEvent]]:
        """The events a network chunk at a time, never an empty list: the monitor's way to read.

        A step of an async generator costs about as much as the rest of taking an event in; a chunk
        brings hundreds of events in a burst, and reading them a chunk at a time pays that step once.
        """
        return self._run()

    async def _each(self) -> AsyncIterator[EventSummary | RawEvent]:
        # Closed with this one, not when collected: a reader that stops closes the response at once.
        async with aclosing(self._run()) as batches:
            async for batch in batches:
                for event in batch:
                    yield event

    async def _run(self) -> AsyncGenerator[list[EventSummary | RawEvent]]:
        accept_all = self._accept_all_raw if self.raw else self._accept_all
        failures = 0
        placed = self.catch_up is None  # the stream knows where it stands in what the service keeps
        self._set(StreamState("connecting"))
        try:
            while True:
                opened_at: float | None = None
                retry_after: float | None = None
                try:
                    read_now = not placed
                    if read_now:
                        # Before the first connection: after it, "now" would already include events it streams.
                        kept = await self._kept(first=True)
                        placed = True
                        if kept:
                            self.backlog = True
                            yield kept
                            self.backlog = False
                    # The reader's loop runs here, right over the chunks' events: every generator layer
                    # between them costs time per event. When the reader stops, the response
                    # closes now (the context managers), not at GC.
                    async with self._open() as response, aclosing(aiter_sse_chunks(response, self.pause)) as chunks:
                        opened_at = time.monotonic()
                        if not read_now and self.catch_up is not None:
                            # After the connection: what came while none was open is kept by now, and
                            # what the service streams from here on is after it (or dropped as seen).
                            kept = await self._kept(first=False)
                            if kept:
                                # Events came on this connection, as if streamed: the next drop is a first
                                # failure again ("reconnecting 2" after a reconnect that had brought 40 back).
                                failures = 0
                                yield kept
                        async for messages in chunks:
                            events = accept_all(messages)
                            if events:
                                failures = 0
                                yield events
                    reason, status = "the service closed the stream", 0
                except FINAL as exc:
                    self._set(StreamState("failed", failures, exc.message))
                    raise
                except (ApiError, httpx.HTTPError) as exc:
                    reason, status = _reason(exc), exc.status if isinstance(exc, ApiError) else 0
                    retry_after = exc.retry_after if isinstance(exc, RateLimitError) else None
                if opened_at is not None and time.monotonic() - opened_at > self.keepalive_s:
                    failures = 0  # it was live a good while: a quiet stream cut by a proxy starts over
                failures += 1
                if self.max_attempts is not None and failures > self.max_attempts:
                    self._set(StreamState("failed", failures, reason))
                    raise NetworkError(f"the stream failed {failures} times; last: {reason}")
                self._set(StreamState("reconnecting", failures, reason, status))
                await asyncio.sleep(max(self._backoff(failures), min(retry_after or 0.0, self.max_backoff_s * 6)))
        finally:
            if self.state.phase != "failed":
                self._set(StreamState("closed"))

    async def _kept(self, *, first: bool) -> list[EventSummary | RawEvent]:
        """The events the service keeps that this stream has not given, oldest first; it then stands after them.

        Only events with an `<ms>-<seq>` id can be placed against what was given. Those without one are
        given only by a backfill, at the start: later, nothing says whether they were given already.
        """
        assert self.catch_up is not None
        kept = await self.catch_up()
        keyed = sorted((event for event in kept if event.key is not None), key=_key)
        if first and self.last_event_id is None and not self.backfill:
            if keyed:  # from now: stand after the newest, and give nothing
                self._last_key, self.last_event_id = keyed[-1].key, keyed[-1].id
            return []
        last_key = self._last_key
        fresh: list[EventSummary | RawEvent] = [event for event in keyed if last_key is None or _key(event) > last_key]
        if fresh:
            self._last_key, self.last_event_id = fresh[-1].key, fresh[-1].id
        if first and last_key is None:
            fresh[:0] = [event for event in kept if event.key is None]
        return fresh

    def _backoff(self, failures: int) -> float:
        """The first retry at once (a dropped stream usually just needs reopening), then capped growth."""
        if failures == 1:
            return 0.0
        return min(self.max_backoff_s, 0.25 * 2.0 ** (failures - 1)) * random.uniform(0.5, 1.0)

    @asynccontextmanager
    async def _open(self) -> AsyncIterator[httpx.Response]:
        """The stream's response, live (after at most one fresh OAuth token); closed on exit."""
        connection = self.connection
        http = connection.http
        url = f"{connection.root_url}/sources/{self.source_id}/sse"
        # httpx's read timeout is "no byte for this long": keepalives count, silence does not.
        timeout = httpx.Timeout(self.keepalive_s * 2, connect=connection.connect_timeout)
        for refresh in (False, True):
            headers = {
                "Authorization": await connection.auth.header(http),
                "Accept": "text/event-stream",
                "Cache-Control": "no-cache",
            }
            if self.last_event_id:
                headers["Last-Event-ID"] = self.last_event_id
            async with http.stream("GET", url, headers=headers, timeout=timeout) as response:
                if response.status_code == 401 and not refresh and connection.auth.invalidate():
                    continue  # an OAuth token that lapsed: one fresh token, then try again
                if response.status_code >= 400:
                    await response.aread()
                    raise error_for(response)
                self.connections += 1
                self._set(StreamState("live"))
                yield response
                return

    def _accept(self, sse: SseEvent) -> EventSummary | None:
        """The event, unless it is empty or one we already gave out.

        This runs for every event, so the common case (a summary with an `<ms>-<seq>` id, as
        the emulator sends) is written out here rather than in helpers: a Python call costs
        about as much as the rest of the bookkeeping. `parse_event` and `event_key` remain the
        definitions; the tests hold the two to the same answers.
        """
        text = sse.data
        if not text:
            return None
        event = None
        if text[0] == "{":
            # Parsed and validated in one pass of pydantic-core: under half the time of
            # json.loads then model_validate, and the same model. Only a summary's shape is
            # taken as one; anything else (JSON pydantic-core refuses included) goes the slow way.
            try:
                event = summary_validator()(text)  # cached: the validator, built at the first event
            except ValueError:
                pass
            else:
                given = event.__pydantic_fields_set__
                if not ("event" in given and ("id" in given or "metadata" in given)):
                    event = None
        if event is None:
            event = other_event(text, sse.id, sse.event, self.source_id)
        event_id = sse.id or event.id
        if event_id:
            ms, sep, seq = event_id.partition("-")  # event_key(), inlined
            if sep and event_id.isascii() and ms.isdigit() and seq.isdigit():
                key = (int(ms), int(seq))
                if self._last_key is not None and key <= self._last_key:
                    return None
                self._last_key = key
            self.last_event_id = event_id
        return event

    def _accept_all(self, messages: list[SseEvent]) -> list[EventSummary | RawEvent]:
        accept = self._accept
        return [event for sse in messages if (event := accept(sse)) is not None]

    def _accept_all_raw(self, messages: list[SseEvent]) -> list[EventSummary | RawEvent]:
        """As `_accept`, but an event with an `<ms>-<seq>` id whose data is a JSON object stays text.

        Not a big one: parsing it would then fall to whoever looks first, the UI's thread drawing its
        row, and a 10 MB payload costs a frame. It is parsed here, on the stream's thread. A chunk's
        events in one loop, the last key in a local: a call per event cost as much as the checks.
        """
        accepted: list[EventSummary | RawEvent] = []
        source_id, last_key, last_id = self.source_id, self._last_key, self.last_event_id
        for sse in messages:
            text = sse.data
            event_id = sse.id
            if text and event_id and text[0] == "{" and len(text) <= RAW_MAX:
                ms, sep, seq = event_id.partition("-")
                # 18 digits at most: SQLite's integers, where the journal keeps the key, stop at 2**63.
                if sep and event_id.isascii() and ms.isdigit() and seq.isdigit() and len(ms) <= 18 and len(seq) <= 18:
                    key = (int(ms), int(seq))
                    if last_key is None or key > last_key:
                        last_key, last_id = key, event_id
                        accepted.append(RawEvent(event_id, key, text, sse.event, source_id))
                    continue
            self._last_key, self.last_event_id = last_key, last_id  # the slow way reads and moves them
            event = self._accept(sse)
            last_key, last_id = self._last_key, self.last_event_id
            if event is not None:
                accepted.append(event)
        self._last_key, self.last_event_id = last_key, last_id
        return accepted


def _key(event: EventSummary) -> tuple[int, int]:
    return event.key or (0, 0)


def parse_event(sse: SseEvent, source_id: str) -> EventSummary:
    """A summary from the emulator's `data:`, or a bare payload as the real service may send it."""
    return summary_of_data(sse.data, sse.id, sse.event, source_id)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, ApiError):
        return exc.message
    if isinstance(exc, NotAnEventStream):
        return str(exc)
    if isinstance(exc, httpx.ReadTimeout):
        return "no data or keepalive for too long"
    if isinstance(exc, httpx.TransportError):
        return transport_message(exc)
    return type(exc).__name__
