"""`JournalWriter`: buffered, batched writes to a `Journal` from a background thread.

Callers (the TUI's stream consumers, on the UI thread or its event loop) only
append to an in-memory list under a lock; a daemon thread writes a batch every
`batch_size` events or `interval` seconds, whichever comes first. `close()`
writes what is left and joins the thread. A thread rather than an asyncio task
because sqlite3 calls block: a task would have to hop to a thread anyway.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Self

from ..api.models import EventSummary
from ..api.rawevent import RawEvent
from .store import Journal

__all__ = ["JournalWriter"]

log = logging.getLogger(__name__)

CHUNK = 1000  # events a transaction: short enough that a waiting key press is not kept long


class JournalWriter:
    def __init__(
        self,
        journal: Journal,
        *,
        batch_size: int = 500,
        interval: float = 0.5,
        max_rows: int | None = None,
        max_mb: float | None = None,
        prune_every: float = 60.0,
    ) -> None:
        self.journal = journal
        self.batch_size = max(1, batch_size)
        self.interval = interval
        self.max_rows, self.max_mb, self.prune_every = max_rows, max_mb, prune_every
        self.written = 0  # new rows stored so far
        self.last_error: BaseException | None = None
        self._last_logged: tuple[type[BaseException], str] | None = None
        self._buffer: list[tuple[str | None, list[EventSummary | RawEvent]]] = []
        self._pending = 0
        self._cond = threading.Condition()
        self._write_lock = threading.Lock()  # one batch at a time, in order
        self._closing = False
        # Called by the writer's thread between chunks; may wait. The monitor sets it so that a key
        # press is answered without the writer's CPU competing (see monitor.feeds.Gate).
        self.yield_to: Callable[[], None] | None = None
        self._last_prune = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="aftui-journal-writer", daemon=True)
        self._thread.start()

    @property
    def pending(self) -> int:
        """Events buffered and not yet written."""
        with self._cond:
            return self._pending

    def add(self, events: Iterable[EventSummary | RawEvent], emitter_id: str | None = None) -> None:
        """Buffer events for the next batch; never touches the disk."""
        batch = list(events)
        if not batch:
            return
        with self._cond:
            if self._closing:
                raise RuntimeError("journal writer is closed")
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

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _take(self) -> list[tuple[str | None, list[EventSummary | RawEvent]]]:
        with self._cond:
            taken, self._buffer, self._pending = self._buffer, [], 0
        return taken

    def _write(self, taken: list[tuple[str | None, list[EventSummary | RawEvent]]]) -> int:
        if not taken:
            return 0
        new = 0
        with self._write_lock:
            try:
                pause = self.yield_to if threading.current_thread() is self._thread else None
                for emitter_id, events in taken:
                    for start in range(0, len(events), CHUNK):
                        if pause is not None:
                            pause()
                        new += self.journal.add(events[start : start + CHUNK], emitter_id)
                self.written += new
                if (
                    self.max_rows is not None or self.max_mb is not None
                ) and time.monotonic() - self._last_prune >= self.prune_every:
                    self._last_prune = time.monotonic()
                    self.journal.prune(self.max_rows, self.max_mb)
            except Exception as error:  # noqa: BLE001 - a full disk must not kill the stream
                self._failed("write", error)
        return new

    def _index(self) -> None:
        with self._write_lock:
            try:
                self.journal.index_now()
            except Exception as error:  # noqa: BLE001 - as a failed write: said, not fatal
                self._failed("index update", error)

    def _failed(self, what: str, error: Exception) -> None:
        """Keep `error` for the UI, and log it unless it is the failure logged last.

        A full disk fails every batch, twice a second: the log gets it once, with its traceback, and
        again only after some other failure came between.
        """
        self.last_error = error
        failure = (type(error), str(error))
        if failure != self._last_logged:
            self._last_logged = failure
            log.error("journal %s failed: %s", what, error, exc_info=error)

    def _run(self) -> None:
        while True:
            with self._cond:
                deadline = time.monotonic() + self.interval
                while not self._closing and self._pending < self.batch_size:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        break
                    self._cond.wait(remaining)
                closing = self._closing
            taken = self._take()
            self._write(taken)
            if closing:
                return
            if not taken and self.journal.unindexed:  # the stream has quieted: the index catches up now
                self._index()
