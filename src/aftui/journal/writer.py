"""`JournalWriter`: buffered, batched writes to a `Journal` from a background thread, that survive the disk.

Callers (the monitor's thread, the TUI's listings, headless commands) only append to an in-memory
list under a lock; a daemon thread writes a batch every `batch_size` events or `interval` seconds,
whichever comes first. `close()` writes what is left and joins the thread. A thread rather than an
asyncio task because the journal's calls block (SQLite's, PostgreSQL's): a task would have to hop to a thread anyway.

When a write fails (a full disk, another aftui holding the lock past the busy timeout, a file made
read-only under us) nothing is thrown away: the events that were not stored wait in memory and the
thread tries again by itself, a quarter of a second after the failure and then less and less often
(every 2 s at most), until a write goes through. Each chunk is one transaction, so a failure stores
none of a chunk and damages nothing stored before it. Memory is bounded: past `max_waiting` events
waiting, newer events are not kept, only counted, per emitter, with their first and last ids (a
`Gap`); when writing works again the gaps are written to the journal's `gaps` table and handed to
whoever can fetch them back from the service while it still keeps them (the monitor). The
writer's state (`status()`: ok or failing since when and why, events waiting, events lost) is
what the UI shows.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Self, TypeAlias

from ..api.rawevent import RawEvent
from ..priority import lower_this_thread
from .backend import EventJournal
from .dbfile import why
from .store import Gap

if TYPE_CHECKING:
    from ..api.models import EventSummary

__all__ = ["JournalStatus", "JournalWriter"]

log = logging.getLogger(__name__)

CHUNK = 1000  # events a transaction: short enough that a waiting key press is not kept long
MAX_WAITING = 200_000  # events kept in memory while writes fail; newer ones are counted in a gap
RETRY_FIRST_S = 0.25
RETRY_MOST_S = 2.0

Event: TypeAlias = "EventSummary | RawEvent"  # a string: the models are not imported to write events
Batch = tuple[str | None, list[Event]]


@dataclass(frozen=True)
class JournalStatus:
    """What the journal is doing, for the UI: `ok`, `failing` (since, why) or `off` (never opened: why)."""

    state: str  # "ok", "failing" or "off"
    why: str | None = None
    since: float | None = None  # wall-clock seconds of the first failure of this spell
    waiting: int = 0  # events in memory, not stored yet
    lost: int = 0  # events seen and not kept (past the bound), not fetched back (yet)
    gaps: tuple[Gap, ...] = ()  # the runs of those events, by emitter

    @classmethod
    def off(cls, why: str) -> JournalStatus:
        return cls("off", why)

    @property
    def ok(self) -> bool:
        return self.state == "ok"

    def text(self, clock: Callable[[float], datetime] = datetime.fromtimestamp) -> str:
        """One line for a header: "journal: disk full since 14:02, 3,120 waiting"; "" when all is well."""
        if self.state == "off":
            return f"not journaling: {self.why}"
        parts: list[str] = []
        if self.state == "failing":
            since = f" since {clock(self.since):%H:%M}" if self.since is not None else ""
            parts.append(f"{self.why}{since}")
        if self.waiting:
            parts.append(f"{self.waiting:,} waiting")
        if self.lost:
            parts.append(f"{self.lost:,} not kept")
        return "journal: " + ", ".join(parts) if parts else ""


class _Dropping:
    """A run of events of one emitter that were not kept, while it lasts."""

    __slots__ = ("count", "first", "last")

    def __init__(self, first: str | None) -> None:
        self.first, self.last, self.count = first, first, 0


class JournalWriter:
    def __init__(
        self,
        journal: EventJournal,
        *,
        batch_size: int = 500,
        interval: float = 0.5,
        max_rows: int | None = None,
        max_mb: float | None = None,
        max_age_s: float | None = None,
        prune_every: float = 60.0,
        max_waiting: int = MAX_WAITING,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.journal = journal
        self.batch_size = max(1, batch_size)
        self.interval = interval
        self.max_rows, self.max_mb, self.prune_every = max_rows, max_mb, prune_every
        self.max_age_s = max_age_s
        self.max_waiting = max(1, max_waiting)
        self._wall = wall
        self.written = 0  # new rows stored so far
        self.last_error: BaseException | None = None
        self._last_logged: tuple[str, type[BaseException], str] | None = None
        self._buffer: list[Batch] = []
        self._pending = 0
        self._retry: list[Batch] = []  # what a failed write left, written first next time
        self._retrying = 0
        self._failing_since: float | None = None  # wall clock
        self._why: str | None = None
        self._retry_s = RETRY_FIRST_S
        self._dropping: dict[str, _Dropping] = {}  # runs of not-kept events still growing, by emitter
        self._gaps: list[Gap] = []  # runs that ended, not yet in the journal
        self._lost = 0
        self._written_gaps: list[Gap] = []  # in the journal (with ids), for the monitor to fetch back
        self._cond = threading.Condition()
        self._write_lock = threading.Lock()  # one batch at a time, in order
        self._closing = False
        # Called by the writer's thread between chunks; may wait. The monitor sets it so that a key
        # press is answered without the writer's CPU competing (see monitor.feeds.Gate).
        self.yield_to: Callable[[], None] | None = None
        self._last_prune = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="aftui-journal-writer", daemon=True)
        self._thread.start()

    # --- what callers see ---------------------------------------------------------------------------

    @property
    def pending(self) -> int:
        """Events buffered and not yet written (those a failed write left included)."""
        with self._cond:
            return self._pending + self._retrying

    def status(self) -> JournalStatus:
        """The writer's state now; cheap (a lock and a few fields), so the monitor asks 20 times a second."""
        with self._cond:
            gaps = (*self._gaps, *(_gap(e, d, self._why) for e, d in self._dropping.items()), *self._written_gaps)
            return JournalStatus(
                "failing" if self._failing_since is not None else "ok",
                self._why,
                self._failing_since,
                self._pending + self._retrying,
                self._lost,
                gaps,
            )

    def gaps_to_fetch(self) -> list[Gap]:
        """The gaps written to the journal since the last call: whoever can fetch their events back does, then `settle`s each."""
        with self._cond:
            gaps, self._written_gaps = self._written_gaps, []
        return gaps

    def settle(self, gap: Gap, fetched: int) -> None:
        """`fetched` of the gap's events were fetched back (and added): the journal's gap row keeps what is still missing."""
        left = max(0, gap.count - fetched)
        if gap.id is not None:
            with self._write_lock:
                try:
                    self.journal.settle_gap(gap.id, left)
                except self.journal.errors as error:
                    self._failed("gap update", error)
        with self._cond:  # after the row: whoever sees the count fall finds the journal saying the same
            self._lost -= min(gap.count, fetched)

    def add(self, events: Iterable[Event], emitter_id: str | None = None) -> None:
        """Buffer events for the next batch; never touches the disk. Past `max_waiting`, events are counted, not kept."""
        batch = list(events)
        if not batch:
            return
        with self._cond:
            if self._closing:
                raise RuntimeError("journal writer is closed")
            room = self.max_waiting - self._pending - self._retrying
            if room < len(batch):
                kept, dropped = batch[: max(0, room)], batch[max(0, room) :]
                self._drop(dropped, emitter_id)
                batch = kept
                if not batch:
                    return
            elif self._dropping:
                self._close_runs(batch, emitter_id)
            self._buffer.append((emitter_id, batch))
            self._pending += len(batch)
            if self._pending >= self.batch_size:
                self._cond.notify()

    def flush(self) -> int:
        """Write what is buffered now, in the calling thread; return how many were new."""
        return self._write(self._take())

    def close(self) -> None:
        """Stop the thread and write everything still buffered. Safe to call twice."""
        with self._cond:
            if self._closing:
                return
            self._closing = True
            self._cond.notify()
        self._thread.join()
        self.flush()
        left = self.pending
        if left:
            log.error("journal: %s events could not be written before exit (%s)", left, self._why)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- keeping count of what is not kept ------------------------------------------------------------

    def _drop(self, events: list[Event], emitter_id: str | None) -> None:
        """Count `events` (newer than everything kept) in their emitters' running gaps. Under the lock."""
        for event in events:
            emitter = emitter_id or _emitter_of(event)
            if emitter is None:
                continue  # no emitter: it could not have been journaled at all
            run = self._dropping.get(emitter)
            if run is None:
                run = self._dropping[emitter] = _Dropping(event.id)
            run.last = event.id or run.last
            run.count += 1
            self._lost += 1

    def _close_runs(self, kept: list[Event], emitter_id: str | None) -> None:
        """An emitter whose events are kept again ends its run of dropped ones: a gap, to be written. Under the lock."""
        for emitter in {emitter_id} if emitter_id else {_emitter_of(e) for e in kept}:
            run = self._dropping.pop(emitter, None) if emitter else None
            if run is not None and emitter is not None:
                self._gaps.append(_gap(emitter, run, self._why))

    # --- the writing side --------------------------------------------------------------------------------

    def _take(self) -> list[Batch]:
        with self._cond:
            taken, self._buffer, self._pending = self._buffer, [], 0
        return taken

    def _write(self, taken: list[Batch]) -> int:
        new = 0
        with self._write_lock:
            with self._cond:
                # What is tried again still waits (`_retrying`, in the status) until it is stored.
                work, self._retry = self._retry + taken, []
            if not work and self._failing_since is None and not self._gaps and not self._dropping:
                return 0
            pause = self.yield_to if threading.current_thread() is self._thread else None
            for index, (emitter_id, events) in enumerate(work):
                for start in range(0, len(events), CHUNK):
                    if pause is not None:
                        pause()
                    try:
                        new += self.journal.add(events[start : start + CHUNK], emitter_id)
                    except self.journal.errors as error:
                        # Nothing of this chunk was stored (one transaction): it and the rest wait.
                        left = [(emitter_id, events[start:]), *work[index + 1 :]]
                        with self._cond:
                            self._retry = left
                            self._retrying = sum(len(batch) for _, batch in left)
                        self.written += new
                        self._failing(error)
                        return new
                    except Exception as error:  # a bug of ours in one chunk must not stop the rest: said, skipped
                        chunk = len(events[start : start + CHUNK])
                        log.exception("journal: %s events could not be made into rows; they are not kept", chunk)
                        self.last_error = error
            self.written += new
            with self._cond:
                self._retrying = 0  # all of it is stored
            if not self._write_gaps():
                return new
            if self._failing_since is not None:
                self._recovered()
            if (
                self.max_rows is not None or self.max_mb is not None or self.max_age_s is not None
            ) and time.monotonic() - self._last_prune >= self.prune_every:
                self._last_prune = time.monotonic()
                try:
                    self.journal.prune(self.max_rows, self.max_mb, self.max_age_s)
                except self.journal.errors as error:
                    self._failed("prune", error)
        return new

    def _write_gaps(self) -> bool:
        """Write the gaps that ended (and, while nothing waits, the runs still open); False when that failed."""
        with self._cond:
            if self._retrying == 0 and self._pending == 0:
                for emitter, run in self._dropping.items():  # everything waiting is stored: the runs end here
                    self._gaps.append(_gap(emitter, run, self._why))
                self._dropping.clear()
            gaps, self._gaps = self._gaps, []
        if not gaps:
            return True
        try:
            written = self.journal.add_gaps(gaps)
        except self.journal.errors as error:
            with self._cond:
                self._gaps = gaps + self._gaps
            self._failing(error)
            return False
        log.warning(
            "journal: %s events were seen and not kept (%s)",
            sum(g.count for g in gaps),
            "; ".join(f"{g.emitter_id} {g.from_id}..{g.to_id}: {g.count}" for g in gaps),
        )
        with self._cond:
            self._written_gaps += written
        return True

    def _failing(self, error: BaseException) -> None:
        """A write failed: say so (once per distinct failure in the log), and wait before the next try."""
        with self._cond:
            if self._failing_since is None:
                self._failing_since = self._wall()
                self._retry_s = RETRY_FIRST_S
            self._why = why(error)
        self._failed("write", error)

    def _recovered(self) -> None:
        with self._cond:
            since, self._failing_since = self._failing_since, None
            what, self._why = self._why, None
            self._retry_s = RETRY_FIRST_S
        self._last_logged = None
        log.warning("journal: writing again after %.1f s of %s", self._wall() - (since or self._wall()), what)

    def _index(self) -> None:
        with self._write_lock:
            try:
                self.journal.index_now()
            except self.journal.errors as error:  # as a failed write: said, not fatal
                self._failed("index update", error)

    def _failed(self, what: str, error: BaseException) -> None:
        """Keep `error` for the UI, and log it unless it is the failure logged last.

        A full disk fails every try: the log gets it once, with its traceback, and again only after
        some other failure came between, or writing worked again.
        """
        self.last_error = error
        # By what failed too: a full disk met first by the search index's catch-up must not hide that the
        # writes then fail the same way (the log said only "index update failed", and never "write").
        failure = (what, type(error), str(error))
        if failure != self._last_logged:
            self._last_logged = failure
            log.error("journal %s failed: %s", what, error, exc_info=error)

    def _run(self) -> None:
        lower_this_thread()  # a burst's writes; keys first
        while True:
            with self._cond:
                failing = self._failing_since is not None
                wait = self._retry_s if failing else self.interval
                deadline = time.monotonic() + wait
                while not self._closing and (failing or self._pending < self.batch_size):
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        break
                    self._cond.wait(remaining)
                closing = self._closing
                if failing:
                    self._retry_s = min(RETRY_MOST_S, self._retry_s * 2)
            taken = self._take()
            self._write(taken)
            if closing:
                return
            if not taken and self.journal.unindexed and self._failing_since is None:
                self._index()  # the stream has quieted: the index catches up now


def _emitter_of(event: Event) -> str | None:
    if isinstance(event, RawEvent):
        return event.emitter_id
    return event.metadata.emitter_id


def _gap(emitter: str, run: _Dropping, reason: str | None) -> Gap:
    return Gap(emitter, run.first, run.last, run.count, reason or "the journal fell behind", 0.0)
