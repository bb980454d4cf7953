"""`Client.stream_source` (aftui.api.stream.SourceStream) against the emulator over HTTP.

What the stream promises its reader: events as `EventSummary`, in order; a
dropped, silent or failing stream reconnects and resumes with Last-Event-ID,
losing nothing retained and repeating nothing; errors no reconnect can fix
end the stream with a typed error; the listener is told every state.

Every wait is bounded: the reader runs as a task, and each test waits for
what it expects with `asyncio.wait_for`, so a stream that never delivers
fails the test instead of hanging it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import aclosing
from typing import Any

import httpx
import pytest

from aftui.api.client import Client
from aftui.api.errors import AuthError, NetworkError, NotFoundError
from aftui.api.models import EventSummary, event_key
from aftui.api.rawevent import RawEvent
from aftui.api.sse import SseEvent
from aftui.api.stream import RAW_MAX, SourceStream, StreamState, parse_event
from aftui.emulator.server import ServerHandle

WAIT_S = 10.0  # the longest any single wait may take before the test fails


# --- helpers ---------------------------------------------------------------------------------


class Reader:
    """Reads a stream in a task of its own, recording events and states, so a test can wait for either."""

    def __init__(self, stream: SourceStream) -> None:
        self.stream = stream
        self.events: list[EventSummary] = []
        self.states: list[StreamState] = []
        stream.add_listener(self.states.append)
        self.task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Reader:
        self.task = asyncio.create_task(self._read())
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.task is not None
        self.task.cancel()
        try:
            await asyncio.wait_for(self.task, WAIT_S)
        except (asyncio.CancelledError, Exception):  # noqa: BLE001 - the test has already looked at what it needed
            pass

    async def _read(self) -> None:
        async for event in self.stream:
            self.events.append(event)

    async def until(self, predicate: Callable[[], bool], what: str, timeout: float = WAIT_S) -> None:
        """Wait until `predicate()` holds; fail (not hang) after `timeout`, or at once if the reader died."""

        async def poll() -> None:
            while not predicate():
                assert self.task is not None
                if self.task.done():
                    self.task.result()  # raises the reader's error, if any
                    raise AssertionError(f"the stream ended before {what}")
                await asyncio.sleep(0.005)

        try:
            await asyncio.wait_for(poll(), timeout)
        except TimeoutError:
            raise AssertionError(
                f"timed out waiting for {what}; states {self.phases()}, {len(self.events)} events"
            ) from None

    async def events_count(self, count: int) -> list[EventSummary]:
        await self.until(lambda: len(self.events) >= count, f"{count} events")
        return self.events

    async def live(self, connections: int = 1) -> None:
        await self.until(
            lambda: self.stream.connections >= connections and self.stream.state.phase == "live",
            f"live connection {connections}",
        )

    def phases(self) -> list[tuple[str, int]]:
        """The states as (phase, attempt); `live` and `connecting` carry attempt 0."""
        return [(s.phase, s.attempt) for s in self.states]

    @property
    def ids(self) -> list[str]:
        return [e.id or "" for e in self.events]


async def read_until_error(stream: SourceStream) -> list[EventSummary]:
    """Iterate a stream that is expected to fail; bounded."""
    got: list[EventSummary] = []

    async def run() -> None:
        async for event in stream:
            got.append(event)

    await asyncio.wait_for(run(), WAIT_S)
    return got


def deploy(api: httpx.Client, **extra: Any) -> str:
    response = api.post("/sources", json={"component_id": "http-new-requests", "name": "stream tests", **extra})
    assert response.status_code == 200, response.text
    return response.json()["data"]["id"]


def retained_ids(api: httpx.Client, source_id: str) -> list[str]:
    """The source's retained event ids (the last 100), oldest first."""
    data = api.get(f"/sources/{source_id}/event_summaries", params={"limit": 100}).json()["data"]
    return [e["id"] for e in reversed(data)]


# --- fixtures (here, not in a conftest: tests/api is shared) ---------------------------------


@pytest.fixture
def src(api: httpx.Client) -> str:
    """A fresh HTTP source of the demo user, with no events yet."""
    return deploy(api)


@pytest.fixture
async def control(emulator: ServerHandle) -> AsyncIterator[httpx.AsyncClient]:
    """The emulator's /_emulator controls, async so a test can use them while a stream is read."""
    async with httpx.AsyncClient(base_url=f"{emulator.root_url}/_emulator", timeout=WAIT_S) as client:
        yield client


@pytest.fixture
async def client(info: dict) -> AsyncIterator[Client]:
    async with Client(info["base_url"], api_key=info["api_key"]) as c:
        yield c


async def inject(control: httpx.AsyncClient, source_id: str, count: int, **extra: Any) -> dict:
    response = await control.post(f"/sources/{source_id}/inject", json={"count": count, "wait": True, **extra})
    assert response.is_success, response.text
    return response.json()


async def set_keepalive(control: httpx.AsyncClient, seconds: float) -> None:
    """The emulator's keepalive period; it applies to streams opened afterwards."""
    response = await control.post("/settings", json={"keepalive_s": seconds})
    assert response.json()["keepalive_s"] == seconds


async def drop(control: httpx.AsyncClient, source_id: str) -> int:
    return (await control.post("/sse/drop", json={"source_id": source_id})).json()["dropped"]


# --- events ----------------------------------------------------------------------------------


async def test_events_arrive_in_order_as_summaries(
    api: httpx.Client, client: Client, control: httpx.AsyncClient, src: str
) -> None:
    async with Reader(client.stream_source(src)) as reader:
        await reader.live()
        await inject(control, src, 5)
        events = await reader.events_count(5)
    assert all(isinstance(e, EventSummary) for e in events)
    assert reader.ids == retained_ids(api, src)
    assert [e.event["seq"] for e in events] == [0, 1, 2, 3, 4]
    assert {(e.metadata.emitter_id, e.channel) for e in events} == {(src, "default")}
    assert all(e.indexed_at_ms for e in events)
    assert reader.phases()[:2] == [("connecting", 0), ("live", 0)]
    assert reader.stream.last_event_id == events[-1].id


async def test_events_emitted_before_the_stream_opened_are_not_sent(
    api: httpx.Client, client: Client, control: httpx.AsyncClient, src: str
) -> None:
    await inject(control, src, 3)
    async with Reader(client.stream_source(src)) as reader:
        await reader.live()
        await inject(control, src, 2)
        await reader.events_count(2)
        await asyncio.sleep(0.2)  # room for a stray third event to show up
    assert reader.ids == retained_ids(api, src)[-2:]


async def test_resume_from_a_given_last_event_id_gives_only_later_events(
    api: httpx.Client, client: Client, control: httpx.AsyncClient, src: str
) -> None:
    await inject(control, src, 10)
    before = retained_ids(api, src)
    async with Reader(client.stream_source(src, last_event_id=before[3])) as reader:
        await reader.events_count(6)  # the retained events after the given one, replayed
        await inject(control, src, 1)  # then live ones
        await reader.events_count(7)
        await asyncio.sleep(0.2)
    assert reader.ids == before[4:] + retained_ids(api, src)[-1:]
    assert len(reader.events) == 7


# --- drops -----------------------------------------------------------------------------------


async def test_forced_drops_lose_nothing_and_repeat_nothing(
    api: httpx.Client, client: Client, control: httpx.AsyncClient, src: str
) -> None:
    total = 200
    async with Reader(client.stream_source(src)) as reader:
        await reader.live()
        # Events keep coming (400 a second) while the stream is dropped twice and resumes.
        scheduled = await control.post(f"/sources/{src}/inject", json={"count": total, "rate": 400})
        assert scheduled.status_code == 202
        for at, connection in ((40, 1), (120, 2)):
            await reader.until(lambda at=at: len(reader.events) >= at, f"{at} events")
            await reader.live(connection)
            # The reconnect is held up 0.1 s, so ~40 events are emitted while no stream is open:
            # only Last-Event-ID brings them back (the source retains 100).
            held = await control.post("/faults", json={"path": f"/sources/{src}/sse", "delay": 0.1, "count": 1})
            assert held.is_success, held.text
            assert await drop(control, src) == 1
        await reader.events_count(total)
        await asyncio.sleep(0.2)  # room for a repeat to show up
    seqs = [e.event["seq"] for e in reader.events]
    assert seqs == list(range(total)), "every injected event, once, in order"
    assert len(set(reader.ids)) == total
    keys = [event_key(i) for i in reader.ids]
    assert keys == sorted(keys)
    # The emulator retains the last 100: they are exactly the last 100 received.
    assert reader.ids[-100:] == retained_ids(api, src)
    assert reader.stream.connections == 3
    phases = reader.phases()
    assert phases == [
        ("connecting", 0),
        ("live", 0),
        ("reconnecting", 1),
        ("live", 0),
        ("reconnecting", 1),
        ("live", 0),
        ("closed", 0),
    ]
    reasons = [s.reason for s in reader.states if s.phase == "reconnecting"]
    assert reasons == ["the service closed the stream"] * 2


async def test_a_stream_that_has_seen_no_event_loses_nothing_when_it_reconnects(
    api: httpx.Client, client: Client, control: httpx.AsyncClient, src: str
) -> None:
    # No event yet, so no Last-Event-ID to resume by: what comes while the stream is down must still arrive.
    await inject(control, src, 3)  # before the stream: not for it
    async with Reader(client.stream_source(src)) as reader:
        await reader.live()
        held = await control.post("/faults", json={"path": f"/sources/{src}/sse", "delay": 1.0, "count": 1})
        assert held.is_success, held.text
        assert await drop(control, src) == 1
        await inject(control, src, 5)  # while the reconnect is held up
        await reader.live(2)
        await inject(control, src, 2)
        await reader.events_count(7)
        await asyncio.sleep(0.2)  # room for a repeat, or one from before the stream, to show up
    assert reader.ids == retained_ids(api, src)[-7:]


async def test_a_stream_resuming_by_id_from_a_service_that_ignores_it_still_gets_the_gap(
    api: httpx.Client, client: Client, control: httpx.AsyncClient, src: str
) -> None:
    # The spec does not say that the service resumes by Last-Event-ID: a reconnect reads what it keeps too.
    async with Reader(client.stream_source(src)) as reader:
        await reader.live()
        await inject(control, src, 2)
        await reader.events_count(2)
        held = await control.post("/faults", json={"path": f"/sources/{src}/sse", "delay": 1.0, "count": 1})
        assert held.is_success, held.text
        reader.stream.last_event_id = None  # as if the service had not been told where to resume
        assert await drop(control, src) == 1
        await inject(control, src, 4)
        await reader.live(2)
        await reader.events_count(6)
        await asyncio.sleep(0.2)
    assert reader.ids == retained_ids(api, src)


# --- stalls and keepalives -------------------------------------------------------------------


async def test_a_silent_stream_is_reopened_and_still_delivers(
    api: httpx.Client, client: Client, control: httpx.AsyncClient, src: str
) -> None:
    await set_keepalive(control, 5)  # the service is silent for 5 s; the client gives up after 2 x 0.3 s
    async with Reader(client.stream_source(src, keepalive_s=0.3)) as reader:
        await reader.live()
        await inject(control, src, 1)
        await reader.events_count(1)
        await reader.until(lambda: any(s.phase == "reconnecting" for s in reader.states), "a reconnect after silence")
        await inject(control, src, 3)  # wherever the stream is now, Last-Event-ID brings these
        await reader.events_count(4)
        await asyncio.sleep(0.2)
    reconnect = next(s for s in reader.states if s.phase == "reconnecting")
    assert reconnect.attempt == 1
    assert reconnect.reason is not None and "no data" in reconnect.reason
    assert reader.ids == retained_ids(api, src)
    assert [e.event["seq"] for e in reader.events] == [0, 0, 1, 2]


async def test_keepalives_keep_a_quiet_stream_live(client: Client, control: httpx.AsyncClient, src: str) -> None:
    await set_keepalive(control, 0.1)  # well inside the client's 2 x 0.3 s
    async with Reader(client.stream_source(src, keepalive_s=0.3)) as reader:
        await reader.live()
        await asyncio.sleep(1.5)
        assert reader.phases() == [("connecting", 0), ("live", 0)]
        assert reader.stream.connections == 1
        await inject(control, src, 1)
        await reader.events_count(1)
    assert reader.stream.connections == 1


# --- errors no reconnect can fix, and one it can ----------------------------------------------


async def test_an_unknown_source_fails_with_not_found(client: Client) -> None:
    stream = client.stream_source("dc_missing")
    states: list[StreamState] = []
    stream.add_listener(states.append)
    with pytest.raises(NotFoundError):
        await read_until_error(stream)
    assert [s.phase for s in states] == ["connecting", "failed"]
    assert stream.state.phase == "failed" and stream.state.reason
    assert stream.connections == 0


async def test_a_bad_key_fails_with_auth_error(info: dict, src: str) -> None:
    async with Client(info["base_url"], api_key="x" * 32) as client:
        stream = client.stream_source(src)
        with pytest.raises(AuthError):
            await read_until_error(stream)
    assert stream.state.phase == "failed"


async def test_a_revoked_oauth_token_is_refreshed_once_and_the_stream_goes_on(
    api: httpx.Client, info: dict, control: httpx.AsyncClient
) -> None:
    source = deploy(api, org_id=info["org_id"])  # the OAuth client's workspace
    async with Client(
        info["base_url"], client_id=info["oauth_client_id"], client_secret=info["oauth_client_secret"]
    ) as client:
        auth = client.auth
        async with Reader(client.stream_source(source)) as reader:
            await reader.live()
            await inject(control, source, 2)
            await reader.events_count(2)
            assert auth.fetches == 1
            # Revoked behind the client's back; the open stream was authorised already, so drop it.
            revoked = httpx.post(
                f"{info['base_url']}/oauth/revoke",
                json={
                    "token": auth.token,
                    "client_id": info["oauth_client_id"],
                    "client_secret": info["oauth_client_secret"],
                },
            )
            assert revoked.is_success, revoked.text
            assert await drop(control, source) == 1
            await reader.live(2)
            await inject(control, source, 2)
            await reader.events_count(4)
        assert auth.fetches == 2
    assert reader.phases() == [("connecting", 0), ("live", 0), ("reconnecting", 1), ("live", 0), ("closed", 0)]
    assert reader.ids == retained_ids(api, source)


async def test_faults_on_the_sse_path_are_retried_until_live(
    api: httpx.Client, client: Client, control: httpx.AsyncClient, src: str
) -> None:
    fault = await control.post("/faults", json={"path": f"/sources/{src}/sse", "status": 503, "count": 2})
    assert fault.is_success, fault.text
    async with Reader(client.stream_source(src)) as reader:
        await reader.live()
        await inject(control, src, 1)
        await reader.events_count(1)
    assert reader.phases()[:4] == [("connecting", 0), ("reconnecting", 1), ("reconnecting", 2), ("live", 0)]
    assert all("injected fault" in (s.reason or "") for s in reader.states if s.phase == "reconnecting")
    assert reader.ids == retained_ids(api, src)


async def test_max_attempts_bounds_the_reconnects(client: Client, control: httpx.AsyncClient, src: str) -> None:
    await control.post("/faults", json={"path": f"/sources/{src}/sse", "status": 503, "count": 10})
    stream = client.stream_source(src, max_attempts=2)
    states: list[StreamState] = []
    stream.add_listener(states.append)
    with pytest.raises(NetworkError):
        await read_until_error(stream)
    assert [(s.phase, s.attempt) for s in states] == [
        ("connecting", 0),
        ("reconnecting", 1),
        ("reconnecting", 2),
        ("failed", 3),
    ]
    assert stream.state.reason and "injected fault" in stream.state.reason
    assert stream.connections == 0


# --- closing ---------------------------------------------------------------------------------


async def wait_for(predicate: Callable[[], bool], what: str) -> None:
    async def poll() -> None:
        while not predicate():
            await asyncio.sleep(0.005)

    try:
        await asyncio.wait_for(poll(), WAIT_S)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


async def test_breaking_out_closes_the_stream_and_its_connection(
    emulator: ServerHandle, client: Client, control: httpx.AsyncClient, src: str
) -> None:
    streams = emulator.emulator.runtime.streams
    stream = client.stream_source(src)

    async def first_event() -> EventSummary:
        async for event in stream:
            return event  # leaves the loop: the reader is done with the stream
        raise AssertionError("the stream ended")

    reader = asyncio.create_task(first_event())
    await wait_for(lambda: stream.state.phase == "live", "live")
    await wait_for(lambda: len(streams.get(src, ())) == 1, "the emulator to see the stream")
    await inject(control, src, 1)
    event = await asyncio.wait_for(reader, WAIT_S)
    assert event.event["seq"] == 0
    # Python closes an abandoned async generator from the event loop, a moment after the break.
    await wait_for(lambda: stream.state.phase == "closed", "state closed")
    await wait_for(lambda: not streams.get(src), "the emulator to see the connection close")


async def test_aclosing_the_iterator_closes_at_once(
    emulator: ServerHandle, client: Client, control: httpx.AsyncClient, src: str
) -> None:
    streams = emulator.emulator.runtime.streams
    stream = client.stream_source(src)

    async def first_event() -> EventSummary:
        async with aclosing(aiter(stream)) as events:
            async for event in events:
                return event
        raise AssertionError("the stream ended")

    reader = asyncio.create_task(first_event())
    await wait_for(lambda: stream.state.phase == "live", "live")
    await inject(control, src, 1)
    await asyncio.wait_for(reader, WAIT_S)
    assert stream.state.phase == "closed"  # no waiting: aclose ran before first_event returned
    await wait_for(lambda: not streams.get(src), "the emulator to see the connection close")


async def test_cancelling_the_reader_closes_the_stream(emulator: ServerHandle, client: Client, src: str) -> None:
    streams = emulator.emulator.runtime.streams
    async with Reader(client.stream_source(src)) as reader:
        await reader.live()
        await wait_for(lambda: len(streams.get(src, ())) == 1, "the emulator to see the stream")
    assert reader.phases()[-1] == ("closed", 0)
    await wait_for(lambda: not streams.get(src), "the emulator to see the connection close")


# --- the per-event fast path -----------------------------------------------------------------

# `SourceStream._accept` writes out, for speed, what `parse_event` and `event_key` define;
# these hold the two to the same answers on the shapes a stream may carry.
SUMMARY = '{"id": "1793523600000-7", "indexed_at_ms": 1793523600000, "event": {"seq": 7}, "metadata": {"emitter_id": "dc_x", "name": "default"}}'
DATA = [
    SUMMARY,
    '{"event": {"a": 1}, "id": "5-1"}',  # a summary without metadata
    '{"event": null, "metadata": {"name": "alerts", "extra": [1, 2]}}',  # a summary without id
    '{"event": 1, "metadata": "not an object"}',  # summary-shaped, but not a summary: a bare payload
    '{"a": 1, "b": [true, null]}',  # a bare payload object
    '{"event": 1e400, "id": "2-2"}',  # JSON that json.loads reads as infinity
    '{"event": "\\ud800", "id": "3-3"}',  # a lone surrogate escape
    '{"event": 123456789012345678901234567890, "id": "4-4"}',  # a big integer
    '{"event": {"a": 1}, "event": {"a": 2}, "id": "6-6"}',  # a repeated key: the last one wins
    '{"broken": ',  # not JSON at all
    "[1, 2, 3]",
    '"just a string"',
    "plain text",
    "42",
]
IDS = [
    "",
    "1793523600000-7",
    "1-0",
    "0-0",
    "12",
    "1-2-3",
    "-1",
    "1-",
    "a-1",
    "１-1",
    " 1-1",
    "1_0-1",
    "+1-1",
    "99999999999999999999-1",
]


def bare_stream() -> SourceStream:
    return SourceStream(None, "dc_x")  # type: ignore[arg-type] - _accept never touches the client


@pytest.mark.parametrize("data", DATA)
@pytest.mark.parametrize("sse_id", ["", "9-9"])
def test_the_fast_path_reads_every_shape_as_parse_event_does(data: str, sse_id: str) -> None:
    sse = SseEvent(data=data, id=sse_id)
    accepted = bare_stream()._accept(sse)
    expected = parse_event(sse, "dc_x")
    assert accepted is not None
    assert type(accepted) is type(expected)
    assert accepted.model_dump() == expected.model_dump()
    assert accepted.model_fields_set == expected.model_fields_set


@pytest.mark.parametrize("event_id", IDS)
def test_the_fast_path_orders_ids_as_event_key_does(event_id: str) -> None:
    stream = bare_stream()
    assert stream._accept(SseEvent(data='{"event": 1}', id=event_id)) is not None
    assert stream._last_key == event_key(event_id)
    assert stream.last_event_id == (event_id or None)


def test_an_event_at_or_before_the_last_one_is_not_given_twice() -> None:
    stream = bare_stream()
    given = [
        stream._accept(SseEvent(data=SUMMARY.replace("1793523600000-7", i), id=i))
        for i in ("5-1", "5-2", "5-2", "4-9", "5-10", "x", "5-3")
    ]
    assert [e.id if e else None for e in given] == ["5-1", "5-2", None, None, "5-10", "x", None]
    assert stream.last_event_id == "x" and stream._last_key == (5, 10)
    # an id given at the start counts as already seen
    resumed = SourceStream(None, "dc_x", last_event_id="5-2")  # type: ignore[arg-type]
    assert resumed._accept(SseEvent(data=SUMMARY, id="5-2")) is None
    assert resumed._accept(SseEvent(data=SUMMARY, id="5-3")) is not None


# --- raw mode: the monitor's events stay text until looked at --------------------------------------


def accept_raw(stream: SourceStream, sse: SseEvent) -> EventSummary | RawEvent | None:
    """What a raw stream gives of one event: the chunk of it alone."""
    accepted = stream._accept_all_raw([sse])
    return accepted[0] if accepted else None


@pytest.mark.parametrize("data", DATA)
@pytest.mark.parametrize("sse_id", ["", "9-9", "x"])
def test_a_raw_event_parses_to_what_parse_event_gives(data: str, sse_id: str) -> None:
    sse = SseEvent(data=data, id=sse_id)
    accepted = accept_raw(SourceStream(None, "dc_x", raw=True), sse)  # type: ignore[arg-type]
    expected = parse_event(sse, "dc_x")
    assert accepted is not None
    kept_as_text = isinstance(accepted, RawEvent)
    assert kept_as_text == (sse_id == "9-9" and data.startswith("{"))
    parsed = accepted.parse() if isinstance(accepted, RawEvent) else accepted
    assert parsed.model_dump() == expected.model_dump()
    assert parsed.model_fields_set == expected.model_fields_set


@pytest.mark.parametrize("event_id", IDS)
def test_raw_mode_orders_ids_as_event_key_does(event_id: str) -> None:
    stream = SourceStream(None, "dc_x", raw=True)  # type: ignore[arg-type]
    assert accept_raw(stream, SseEvent(data='{"event": 1}', id=event_id)) is not None
    assert stream._last_key == event_key(event_id)
    assert stream.last_event_id == (event_id or None)


def test_raw_mode_gives_each_event_once() -> None:
    stream = SourceStream(None, "dc_x", raw=True)  # type: ignore[arg-type]
    given = [accept_raw(stream, SseEvent(data=SUMMARY, id=i)) for i in ("5-1", "5-2", "5-2", "4-9", "5-10", "5-3")]
    assert [e.id if e else None for e in given] == ["5-1", "5-2", None, None, "5-10", None]
    raw = given[0]
    assert isinstance(raw, RawEvent) and raw.key == (5, 1) and raw.emitter_id == "dc_x"
    assert raw.parse() is raw.parse()  # parsed once


def test_a_chunk_is_taken_as_its_events_one_by_one_across_the_fast_and_the_slow_way() -> None:
    """A chunk mixes summaries kept as text with events parsed at once (a bare payload, an id of another form):
    what each way gives out, and where it leaves the last key, is what the other goes on from."""
    sent = [
        ("5-1", SUMMARY),
        ("5-2", "plain text"),  # the slow way, with a key: the fast way's next one must be past it
        ("5-2", SUMMARY),
        ("5-3", SUMMARY),
        ("x", SUMMARY),  # an id of another form: the slow way (the summary's own id), the key stays
        ("5-3", "plain text"),
        ("4-0", SUMMARY),
        ("6-0", SUMMARY),
    ]
    stream = SourceStream(None, "dc_x", raw=True)  # type: ignore[arg-type]
    given = stream._accept_all_raw([SseEvent(data=data, id=i) for i, data in sent])
    assert [(e.id, type(e).__name__) for e in given] == [
        ("5-1", "RawEvent"),
        ("5-2", "EventSummary"),
        ("5-3", "RawEvent"),
        ("1793523600000-7", "EventSummary"),
        ("6-0", "RawEvent"),
    ]
    assert stream._last_key == (6, 0) and stream.last_event_id == "6-0"


async def test_a_raw_stream_reads_the_emulator_as_the_parsed_one_does(
    client: Client, control: httpx.AsyncClient, src: str
) -> None:
    async with Reader(client.stream_source(src, raw=True)) as reader:
        await reader.live()
        await inject(control, src, 3, channel="alerts")
        events = await reader.events_count(3)
    assert all(isinstance(e, RawEvent) for e in events)
    parsed = [e.parse() for e in events]  # type: ignore[union-attr]
    assert [(e.event["seq"], e.channel, e.metadata.emitter_id) for e in parsed] == [
        (i, "alerts", src) for i in range(3)
    ]
    assert [e.id for e in parsed] == reader.ids


async def test_batches_give_every_event_once_in_order_a_chunk_at_a_time(
    api: httpx.Client, client: Client, control: httpx.AsyncClient, src: str
) -> None:
    stream = client.stream_source(src, raw=True)
    batches: list[list[EventSummary | RawEvent]] = []

    async def read() -> None:
        async with aclosing(stream.batches()) as chunks:
            async for batch in chunks:
                batches.append(batch)
                if sum(map(len, batches)) >= 100:
                    return

    reader = asyncio.create_task(read())
    await wait_for(lambda: stream.state.phase == "live", "live")
    await inject(control, src, 100)  # the service keeps 100: all of them, to compare with
    await asyncio.wait_for(reader, WAIT_S)
    assert all(isinstance(batch, list) and batch for batch in batches), "never an empty batch"
    assert [e.id for batch in batches for e in batch] == retained_ids(api, src)
    assert stream.state.phase == "closed"


def test_raw_mode_parses_a_big_event_as_it_arrives() -> None:
    stream = SourceStream(None, "dc_x", raw=True)  # type: ignore[arg-type]
    big = '{"id":"5-1","event":"' + "x" * RAW_MAX + '","metadata":{"name":"big"}}'
    event = accept_raw(stream, SseEvent(data=big, id="5-1"))
    assert isinstance(event, EventSummary) and event.channel == "big"
    assert isinstance(accept_raw(stream, SseEvent(data=SUMMARY, id="5-2")), RawEvent)
