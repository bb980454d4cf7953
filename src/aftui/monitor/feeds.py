"""The feeds: a source's SSE stream, a workflow's events or `$errors` polled by id.

Each feed is a coroutine that runs until cancelled, hands every event it has
not handed out before to `deliver` (a list at a time: a chunk of the stream,
the new events of a poll), and reports its state (live, reconnecting
n and why, failed and why) to `report`. They run on the monitor's own thread
and event loop (see hub.py), never on the UI's.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, TypeAlias

from ..api import ApiError, Client, StreamState
from ..api.client import KEPT_EVENTS
from ..api.lateness import answered
from ..api.poll import EventPoller
from ..api.rawevent import RawEvent
from ..api.stream import FINAL
from .dedupe import FeedCursor
from .records import Target

if TYPE_CHECKING:
    from ..api.models import EventSummary

# Events of one target, in the order they came: a chunk of a stream, a poll's new events.
# (target, events, backlog): `backlog` for what the service kept from before the feed opened.
Deliver: TypeAlias = "Callable[[Target, list[EventSummary | RawEvent], bool], None]"  # a string: no model at import
Report = Callable[[Target, StreamState], None]

# A poll not answered in this long (or two intervals) makes its feed "reconnecting" until it is: with the
# service taking requests and answering none, the feed stayed "live" for the client's whole timeout, and
# Health said nothing of figures behind.
SLOW_POLL_S = 6.0
# A failing poll tries again at least this often, as a stream reconnects (`SourceStream.max_backoff_s`): at
# 30 s the header said "retrying" for most of a minute after the service was back.
POLL_BACKOFF_MOST_S = 10.0
INPUT_FIRST_S = 0.1  # the longest the feeds step back for a key press (Gate.hold): its frame is painted sooner
BACKFILL = KEPT_EVENTS  # what the service keeps per emitter: read to fill a gap the journal has


class Gate:
    """Lets the UI have the interpreter for a moment: a key press, and the frame it changes, come first.

    The feeds share the GIL with the UI's thread, and during a burst the UI waits its turn at every
    step of handling a key. A held gate makes the SSE feeds stop between two chunks of events (the network
    buffers what arrives meanwhile; nothing is lost) until it opens or the hold runs out. A hold for a
    key (`for_input`) also tells the UI's own periodic work (a take of new rows, Health's catch-up) to
    wait (`answering_input`), so that the key's frame does not carry a take's rows.
    """

    __slots__ = ("input_until", "until")

    def __init__(self) -> None:
        self.until = 0.0  # monotonic seconds; 0: open
        self.input_until = 0.0  # the same, for a key's hold

    def hold(self, seconds: float = INPUT_FIRST_S, *, for_input: bool = False) -> None:
        self.until = time.monotonic() + seconds
        if for_input:
            self.input_until = self.until

    def open(self) -> None:
        """The key's frame is painted: the feeds go on."""
        self.until = self.input_until = 0.0

    def let_go(self) -> None:
        """End a hold that was not a key's (a take's frame is painted); a key's hold, if on, stays."""
        self.until = self.input_until if self.answering_input else 0.0

    @property
    def answering_input(self) -> bool:
        """A key's hold is on: its answer is not painted yet (and the hold has not run out)."""
        return self.input_until > 0 and time.monotonic() < self.input_until

    def wait(self) -> None:
        """`passage` for a thread without an event loop (the journal writer's)."""
        while (left := self.until - time.monotonic()) > 0:
            time.sleep(min(left, 0.005))

    async def passage(self) -> None:
        """Return once the gate is open (or its hold ran out)."""
        # A deadline that keys keep pushing back, not a flag anyone sets: polling it is the point.
        while (left := self.until - time.monotonic()) > 0:  # noqa: ASYNC110
            await asyncio.sleep(min(left, 0.005))
        self.until = 0.0


async def source_feed(
    client: Client, target: Target, cursor: FeedCursor, deliver: Deliver, report: Report, gate: Gate | None = None
) -> None:
    """SSE of a source, resumed after the newest event already shown or journaled.

    The stream first reads the events the service keeps (all of them, with nothing known here) and
    does again after each reconnect: a service whose stream does not resume by Last-Event-ID, or a
    stream that had no id to give, still gives back what came while no stream was open.
    """
    # raw: events stay text until the UI draws them or the journal reads them (api/rawevent.py).
    # A held gate stops the stream before it parses the next chunk: what a key's frame would compete with.
    stream = client.stream_source(
        target.emitter_id,
        last_event_id=cursor.last_id,
        backfill=True,
        on_state=partial(report, target),
        raw=True,
        pause=gate,
    )
    try:
        # The hot loop of the monitor: a network chunk's events at a time.
        fresh_of = cursor.fresh_of
        async for streamed in stream.batches():
            fresh = fresh_of(streamed)
            if fresh:
                deliver(target, fresh, stream.backlog)
    except FINAL:
        return  # the stream has reported "failed" with the server's reason


async def poll_feed(
    client: Client,
    target: Target,
    cursor: FeedCursor,
    deliver: Deliver,
    report: Report,
    *,
    interval_s: float = 2.0,
    max_interval_s: float = POLL_BACKOFF_MOST_S,
) -> None:
    """A workflow's emitted events or `$errors`, polled by id; failures back off (doubling, capped) and say why."""
    lister = client.list_workflow_errors if target.kind == "errors" else client.list_workflow_events
    poller = EventPoller(partial(lister, target.emitter_id, expand=True), from_now=False)
    poller.last_key = cursor.last_key  # the retained events newer than what is shown come first
    failures = 0
    state: StreamState | None = None
    backlog = True  # the first poll gives what the service kept from before: not arriving now
    report(target, StreamState("connecting"))

    late_s = max(SLOW_POLL_S, 2 * interval_s)

    async def slow() -> None:  # the poll goes on: the feed says it is not live meanwhile
        nonlocal state
        state = StreamState("reconnecting", failures, f"no answer in {late_s:.0f} s")
        report(target, state)

    while True:
        try:
            events = await answered(poller.poll_once(), late_s, slow)
        except FINAL as error:
            report(target, StreamState("failed", failures, error.message))
            return
        except ApiError as error:
            failures += 1
            state = StreamState("reconnecting", failures, error.message, error.status)
            report(target, state)
            await asyncio.sleep(min(max_interval_s, interval_s * 2**failures))
            continue
        failures = 0
        fresh = cursor.fresh_of(events)
        if fresh:
            deliver(target, fresh, backlog)
        backlog = False
        # Live once what the poll brought is delivered: the UI takes from this thread at any moment, and a
        # take saying "live" without the service's kept errors showed an empty feed as caught up.
        if state is None or state.phase != "live":
            state = StreamState("live")
            report(target, state)
        await asyncio.sleep(interval_s)
