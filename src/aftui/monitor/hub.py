"""`Monitor`: the feeds on a thread of their own, handing the UI batches.

The UI's event loop only calls `take()` a few times a second and gets the
records that arrived since, the state of each feed and the events-per-second
history. Reading the network, parsing JSON, deduplicating and queueing
journal writes all happen on the monitor's thread (its own asyncio loop and
its own client, see twin.py); the journal's SQLite writes on the
JournalWriter's thread. Every buffer is bounded: the inbox keeps at most
`inbox_cap` records between two takes (older ones are journaled all the
same, and counted as `overflow`).

Several readers share one Monitor through taps (tap.py): a target is read
and journaled once however many taps want it. `watch` and `take` on the
Monitor itself are those of a tap of its own, for a reader that is alone.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..api import ApiError, Client, StreamState
from ..api.eventid import event_key
from ..api.rawevent import RawEvent
from ..journal.backend import EventJournal
from ..journal.opening import JournalOpening
from ..journal.store import Gap
from ..journal.writer import JournalStatus, JournalWriter
from ..priority import lower_this_thread
from .dedupe import FeedCursor
from .feeds import BACKFILL, Gate, poll_feed, source_feed
from .history import history_of, resume_points, search_history
from .records import Record, Target, gap_event
from .tap import Batch, Tap
from .twin import twin

if TYPE_CHECKING:
    from ..api.models import EventSummary

log = logging.getLogger(__name__)

HAND_OVER_S = 0.05  # how often new records are handed to the UI's inbox and the journal writer


def _state_of(status: JournalStatus | None) -> str | None:
    return status.state if status is not None else None


class Monitor:
    def __init__(
        self,
        client: Client,
        *,
        writer: JournalWriter | None = None,
        journal_problem: str | None = None,
        opening: JournalOpening | None = None,
        history: int = 200,
        inbox_cap: int = 20_000,
        poll_interval_s: float = 2.0,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self._client = client
        self.writer = writer
        # Why there is no journal (the writer is None), as open_journal said it: shown, not journaled.
        self.journal_problem = journal_problem
        # A journal not open yet (the session's, at start; its open begins here if nobody began it): `writer`
        # and `journal_problem` come from it once it is open. The feeds wait for it on the monitor's thread
        # (`take_journal`), the UI never.
        self._opening = opening
        self._journal_was: JournalStatus | None = None  # the state last seen, to tell the user of a change once
        self._refilling: set[asyncio.Task[None]] = set()
        self.history = history
        self.inbox_cap = inbox_cap
        self.poll_interval_s = poll_interval_s
        self._wall = wall
        self._clock = clock
        self._lock = threading.Lock()
        self._taps: list[Tap] = []
        self._own: Tap | None = None  # the tap behind the Monitor's own watch and take
        self._states: dict[str, tuple[Target, StreamState]] = {}
        self._n = 0
        self._found_n = -1
        self._applying: asyncio.Lock | None = None  # one change of the watched set at a time
        # Owned by the monitor's thread once it runs:
        self._cursors: dict[str, FeedCursor] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._targets: dict[str, Target] = {}
        self._to_journal: defaultdict[str, list[EventSummary | RawEvent]] = defaultdict(list)
        self._arrived: list[Record] = []  # since the last hand-over; the monitor's thread only, so no lock per event
        self._live = 0  # live (not history) records among them
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._wanted: list[Target] = []
        self._thread: threading.Thread | None = None
        self._client_in_thread: Client | None = None
        self._closed = False
        self.gate = Gate()  # the UI holds it while it answers a key (see MonitorScreen)
        if writer is not None:
            writer.yield_to = self.gate.wait

    def take_journal(self) -> None:
        """Wait for a journal still being opened and take its writer; at once when there is none to wait for.

        Blocking: called on the monitor's thread before the feeds start, and by readers of the journal on
        threads of their own (Health's history, a search). Called again, it sets the same writer.
        """
        if self._opening is None:
            return
        opened = self._opening.result()
        with self._lock:
            if self.writer is None and opened.writer is not None:
                opened.writer.yield_to = self.gate.wait
            self.writer, self.journal_problem = opened.writer, opened.problem

    # --- the UI's side ------------------------------------------------------------------------------

    def tap(
        self,
        *,
        history: int | None = None,
        clock: Callable[[], float] | None = None,
        poll_interval_s: float | None = None,
    ) -> Tap:
        """A reader of this Monitor: it watches targets of its own and takes only what they bring.

        `history`: events per target it is shown from the journal when it joins (the Monitor's by default);
        `clock`: its rate's; `poll_interval_s`: how often it wants workflows polled (the shortest wanted wins).
        """
        tap = Tap(
            self,
            history=self.history if history is None else history,
            clock=clock or self._clock,
            poll_interval_s=poll_interval_s,
        )
        with self._lock:
            self._taps.append(tap)
        return tap

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def targets(self) -> list[Target]:
        return self._own_tap().targets

    def watch(self, targets: Sequence[Target]) -> None:
        """Watch exactly `targets` (starting the thread the first time); feeds no longer wanted stop."""
        self._own_tap().watch(targets)

    def take(self) -> Batch:
        """What arrived since the last take."""
        return self._own_tap().take()

    def search(self, query: str, limit: int = 500) -> list[Record]:
        """The journal's events of the watched emitters matching `query` (FTS5), oldest first. Blocking: call off the UI loop."""
        return self._own_tap().search(query, limit)

    def _own_tap(self) -> Tap:
        with self._lock:
            own = self._own
        if own is None:
            own = self._own = self.tap()
        return own

    def retarget(self, tap: Tap, wanted: list[Target]) -> None:
        """`tap` now wants exactly `wanted`: the feeds follow what all taps want (starting the thread the first time)."""
        with self._lock:
            if self._closed or tap.closed:
                return
            keys = frozenset(t.key for t in wanted)
            tap.joining |= keys - tap.keys
            tap.wanted, tap.keys = wanted, keys
            self._wanted = self._union()
            loop = self._loop
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="aftui-monitor", daemon=True)
                self._thread.start()
                return
        self._reapply(loop)

    def drop(self, tap: Tap) -> None:
        """`tap` reads no more: feeds no other tap wants stop."""
        with self._lock:
            if tap.closed:
                return
            tap.closed = True
            if tap in self._taps:
                self._taps.remove(tap)
            if self._closed:
                return
            self._wanted = self._union()
            loop = self._loop
        self._reapply(loop)

    def _union(self) -> list[Target]:
        return list(dict.fromkeys(t for tap in self._taps for t in tap.wanted))

    def _reapply(self, loop: asyncio.AbstractEventLoop | None) -> None:
        if loop is None:
            return  # the thread has not started its loop yet: it reads what is wanted when it does
        try:
            asyncio.run_coroutine_threadsafe(self._apply(), loop)
        except RuntimeError:
            pass  # the thread is ending

    def take_for(self, tap: Tap) -> Batch:
        """What arrived for `tap` since its last take."""
        journal = self.journal_status()
        self._note_journal(journal)
        with self._lock:
            records, tap.inbox = tap.inbox, []
            errors, tap.errors = tap.errors, []
            gaps, tap.gaps = tap.gaps, []
            keys = tap.keys
            states = {key: pair for key, pair in self._states.items() if key in keys}
            rates = tap.rate.history()
            return Batch(
                records, states, rates, tap.total, tap.overflow, errors, journal, gaps, watched_s=tap.rate.watched_s
            )

    @property
    def fetching_back(self) -> int:
        """Gaps of the journal whose events are being fetched back from the service now."""
        return len(self._refilling)

    def journal_status(self) -> JournalStatus:
        """The journal writer's state, or `off` with the reason there is none."""
        if self.writer is not None:
            return self.writer.status()
        if self._opening is not None and not self._opening.done:
            return JournalStatus("ok")  # being opened: nothing to tell yet
        return JournalStatus.off(self.journal_problem or "the journal could not be opened")

    def search_for(self, targets: list[Target], query: str, limit: int) -> list[Record]:
        """The journal's events of `targets` matching `query` (FTS5), oldest first, numbered below zero."""
        self.take_journal()
        if self.writer is None:
            return []
        found = search_history(self.writer.journal, targets, query, limit)
        now = self._wall()
        with self._lock:  # numbers below zero, never reused: marks on one search's results stay theirs
            first, self._found_n = self._found_n, self._found_n - len(found)
        return [Record(first - i, target, event, now, history=True) for i, (target, event) in enumerate(found)]

    def close(self) -> None:
        """Stop every feed, hand what is queued to the journal writer, and end the thread."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            for tap in self._taps:
                tap.closed = True
            loop, stop, thread = self._loop, self._stop, self._thread
        self.gate.open()
        if self.writer is not None and self.writer.yield_to == self.gate.wait:
            self.writer.yield_to = None
        if loop is not None and stop is not None:
            try:
                loop.call_soon_threadsafe(stop.set)
            except RuntimeError:
                pass  # the loop has already ended
        if thread is not None:
            thread.join(timeout=10)

    # --- the monitor's thread ------------------------------------------------------------------------

    def _run(self) -> None:
        lower_this_thread()  # a burst's work; keys first
        try:
            asyncio.run(self._main())
        except Exception:
            log.exception("the monitor's thread failed")

    async def _main(self) -> None:
        client = twin(self._client)
        stop = asyncio.Event()
        with self._lock:
            self._loop, self._stop = asyncio.get_running_loop(), stop
            closed = self._closed
        journaling = asyncio.create_task(self._hand_over_loop())
        self._client_in_thread = client
        try:
            if not closed:
                # The journal first: each feed resumes after the newest event it holds.
                await asyncio.to_thread(self.take_journal)
                await self._apply()
                await stop.wait()
        finally:
            for task in self._tasks.values():
                task.cancel()
            await asyncio.gather(*self._tasks.values(), return_exceptions=True)
            journaling.cancel()
            self._hand_over()
            self._journal_now()
            await client.aclose()
            with self._lock:
                self._loop = None

    async def _apply(self) -> None:
        if self._applying is None:
            self._applying = asyncio.Lock()
        async with self._applying:  # a second change waits: else a feed still reading its history could start twice
            with self._lock:
                wanted = list(self._wanted)
                joins = [(tap, [t for t in tap.wanted if t.key in tap.joining]) for tap in self._taps if tap.joining]
            running = set(self._tasks)
            await self._apply_now(wanted)
            for tap, targets in joins:
                await self._join(tap, [t for t in targets if t.key in running])

    async def _apply_now(self, wanted: list[Target]) -> None:
        keys = {t.key for t in wanted}
        for key in [k for k in self._tasks if k not in keys]:
            self._tasks.pop(key).cancel()
            self._targets.pop(key, None)
            with self._lock:
                self._states.pop(key, None)
        new = [t for t in wanted if t.key not in self._tasks]
        for target in wanted:
            self._targets[target.key] = target
        if not new:
            return
        await self._from_journal([t for t in new if t.key not in self._cursors])
        client = self._client_in_thread
        assert client is not None
        with self._lock:  # the shortest interval a tap asks for; the Monitor's own for a tap that asks none
            asked = [tap.poll_interval_s or self.poll_interval_s for tap in self._taps if tap.wanted]
        interval = min(asked, default=self.poll_interval_s)
        for target in new:
            cursor = self._cursors.setdefault(target.key, FeedCursor())
            if target.kind == "source":
                feed = source_feed(client, target, cursor, self._deliver, self._report, self.gate)
            else:
                feed = poll_feed(client, target, cursor, self._deliver, self._report, interval_s=interval)
            self._tasks[target.key] = asyncio.create_task(feed, name=f"monitor {target.key}")

    async def _join(self, tap: Tap, targets: list[Target]) -> None:
        """`tap` joined feeds that were running already: it is shown their history from the journal.

        What other taps were handed before it joined is written first: in a burst the writer is behind, and
        those events would be in neither its history nor what it is handed. What was handed to it since it
        joined is left out of the history (the journal may have written it by now).
        """
        found: list[tuple[Target, EventSummary]] = []
        gaps: list[Gap] = []
        if self.writer is not None and targets and tap.history > 0:
            journal = self.writer.journal
            self._journal_now()
            try:
                await asyncio.to_thread(self.writer.flush)
                found = await asyncio.to_thread(history_of, journal, targets, tap.history)
                gaps = await asyncio.to_thread(_gaps_of, journal, targets)
            except Exception as error:  # noqa: BLE001 - a damaged journal must not stop live events
                with self._lock:
                    tap.errors.append(f"journal history unavailable: {error}")
        self._hand_over()  # so that every id handed to the tap until now is known
        now = self._wall()
        with self._lock:
            seen = tap.joined_ids
            records = [Record(0, t, e, now, history=True) for t, e in found if e.id not in seen]
            by_emitter = {t.emitter_id: t for t in targets}
            records += [Record(0, by_emitter[g.emitter_id], gap_event(g, now), now, history=True) for g in gaps]
            for record in records:
                record.n, self._n = self._n, self._n + 1
            tap.inbox.extend(records)
            tap.joining.difference_update(t.key for t in tap.wanted)
            if not tap.joining:
                tap.joined_ids = set()

    async def _from_journal(self, targets: list[Target]) -> None:
        """The journal's newest events of new feeds, oldest first, and where each feed resumes: after its newest journaled event.

        A feed resumes from the journal even when no history is shown: after a crash or a kill,
        what the service still keeps past the last journaled event is read back, none of it twice.
        """
        if self.writer is None or not targets:
            return
        journal = self.writer.journal
        try:
            found = await asyncio.to_thread(history_of, journal, targets, self.history) if self.history > 0 else []
            points = await asyncio.to_thread(resume_points, journal, targets)
        except Exception as error:  # noqa: BLE001 - a damaged journal must not stop live events
            with self._lock:
                self._tell(f"journal history unavailable: {error}")
            return
        for target, event in found:
            if self._cursors.setdefault(target.key, FeedCursor()).fresh(event):
                self._deliver(target, [event], history=True)
        for key, event_id in points.items():
            self._cursors.setdefault(key, FeedCursor()).resume_from(event_id)
        if self.history > 0:
            for gap in await asyncio.to_thread(_gaps_of, journal, targets):
                self._mark_gap(gap, history=True)

    def _deliver(
        self, target: Target, events: list[EventSummary | RawEvent], backlog: bool = False, history: bool = False
    ) -> None:
        """Called for every chunk of a stream: kept short, and lock-free (the hand-over takes the lock, 20 times a second)."""
        n, seen = self._n, self._wall()  # a chunk's events arrived together
        self._arrived.extend([Record(n + i, target, event, seen, history, backlog) for i, event in enumerate(events)])
        self._n = n + len(events)
        if not history:
            if not backlog:
                self._live += len(events)
            if self.writer is not None:
                self._to_journal[target.emitter_id].extend(events)

    def _mark_gap(self, gap: Gap, history: bool = False) -> None:
        """A row where the journal has a hole: shown like an event of its emitter, never journaled."""
        target = next((t for t in self._targets.values() if t.emitter_id == gap.emitter_id), None)
        if target is not None:
            now = self._wall()
            self._arrived.append(Record(self._n, target, gap_event(gap, now), now, history))
            self._n += 1

    def _hand_over(self) -> None:
        """Move what arrived to each tap's inbox (bounded) and count it for their rates."""
        arrived, self._arrived = self._arrived, []
        live, self._live = self._live, 0
        with self._lock:
            every = {t.key for t in self._wanted}
            for tap in self._taps:
                tap.receive(arrived, tap.keys >= every, live, self.inbox_cap)

    def _tell(self, problem: str, emitter_id: str | None = None) -> None:
        """A problem for the user, told by every tap (that watches `emitter_id`, if given). Under the lock."""
        for tap in self._taps:
            if emitter_id is None or tap.wants_emitter(emitter_id):
                tap.errors.append(problem)

    def _report(self, target: Target, state: StreamState) -> None:
        # What the feed delivered before this state goes to the taps with it: a take that says "live" shows
        # what came before (the service's kept errors, a backfill). Same thread as `_deliver`, and rare.
        self._hand_over()
        with self._lock:
            if target.key in self._targets or state.phase != "closed":
                self._states[target.key] = (target, state)

    async def _hand_over_loop(self) -> None:
        while True:
            await asyncio.sleep(HAND_OVER_S)
            self._hand_over()
            self._journal_now()
            self._watch_journal()

    # --- the journal's faults ----------------------------------------------------------------------------

    def _watch_journal(self) -> None:
        """Tell the user when the journal starts failing (once), and fetch back what it could not keep."""
        self._note_journal(self.journal_status())
        if self.writer is None:
            return
        for gap in self.writer.gaps_to_fetch():
            task = asyncio.create_task(self._fetch_back(gap), name=f"journal gap {gap.emitter_id}")
            self._refilling.add(task)
            task.add_done_callback(self._refilling.discard)

    def _note_journal(self, now: JournalStatus) -> None:
        """Say a change of the journal's state once: no journal at all, or the first failure of a spell.

        Called by whoever sees the state first (the monitor's thread every 50 ms, or `take`), so the
        batch that first shows a failure also says it.
        """
        with self._lock:
            was, self._journal_was = self._journal_was, now
            if now.state == _state_of(was):
                return
            if now.state == "off":
                self._tell(f"{now.text()}: the monitor shows events from memory only")
            elif now.state == "failing":
                self._tell(
                    f"The journal cannot write: {now.why}. Events are kept in memory and written when it can "
                    f"({now.waiting:,} waiting); the monitor goes on."
                )
            elif was is not None and was.state == "failing":
                log.info("journal writing again")

    async def _fetch_back(self, gap: Gap) -> None:
        """The events of a gap the service still keeps go to the journal; what it no longer has stays a gap, said."""
        writer, client = self.writer, self._client_in_thread
        if writer is None or client is None:
            return
        low, high = event_key(gap.from_id), event_key(gap.to_id)
        found: dict[str, EventSummary] = {}
        for target in [t for t in self._targets.values() if t.emitter_id == gap.emitter_id]:
            try:
                if target.kind == "source":
                    page = await client.list_source_events(gap.emitter_id, limit=BACKFILL, expand=True)
                elif target.kind == "errors":
                    page = await client.list_workflow_errors(gap.emitter_id, limit=BACKFILL, expand=True)
                else:
                    page = await client.list_workflow_events(gap.emitter_id, limit=BACKFILL, expand=True)
            except ApiError as error:
                log.warning("journal gap of %s: the service's events could not be read: %s", gap.emitter_id, error)
                continue
            for event in page.items:
                key = event.key
                if event.id and key is not None and low is not None and high is not None and low <= key <= high:
                    found[event.id] = event
        if found:
            try:
                writer.add(sorted(found.values(), key=lambda e: e.key or (0, 0)), gap.emitter_id)
            except RuntimeError:
                return  # closed: the app is exiting
        await asyncio.to_thread(writer.settle, gap, len(found))
        missing = gap.count - len(found)
        log.info("journal gap of %s: %s fetched back, %s missing", gap.emitter_id, len(found), max(0, missing))
        if missing > 0:
            left = Gap(gap.emitter_id, gap.from_id, gap.to_id, missing, gap.reason, gap.recorded_at, gap.id)
            with self._lock:
                for tap in self._taps:
                    if tap.wants_emitter(left.emitter_id):
                        tap.gaps.append(left)
                self._tell(f"Journal: {left.text}; the service no longer has them.", left.emitter_id)
            self._mark_gap(left)

    def _journal_now(self) -> None:
        if self.writer is None or not self._to_journal:
            return
        queued, self._to_journal = self._to_journal, defaultdict(list)
        for emitter_id, events in queued.items():
            try:
                self.writer.add(events, emitter_id)
            except RuntimeError:  # the writer was closed (the app is exiting): nothing more to keep
                return


def _gaps_of(journal: EventJournal, targets: Sequence[Target]) -> list[Gap]:
    """The holes the journal recorded in what the targets emitted, so the history shows them where they are."""
    emitters = {t.emitter_id for t in targets}
    return [gap for emitter in sorted(emitters) for gap in journal.gaps(emitter)]
