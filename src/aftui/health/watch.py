"""`HealthWatch`: the feeds behind the Health pane and the alerts, without Textual.

A tap of the session's `Monitor` (aftui.monitor) watches every subject: a
source's SSE stream, a workflow's emitted events and its `$errors`, polled.
The monitor screen taps the same Monitor, so a stream is read and journaled
once, whoever watches it. The journal fills the board at start
(`load_history`, blocking: call it off the UI's loop), so what was seen
before a restart still counts; the tap's own history read covers what the
journal got between that read and the feeds' start (the board counts an
event once). `take()` is called on the UI's
loop a few times a second: it moves what arrived into the board and returns
the alerts it raised.

The board lists its subjects (`know`) before anything else is made: the
feeds and the journal, whose modules the first screen does not need, are
asked for once its rows are drawn (`feeds`, `watch`).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..api import StreamState
from ..api.client import KEPT_EVENTS
from .alerts import Alert, AlertTracker
from .board import DAY_MS, MINUTE_MS, REPLAY, SPARK_MINUTES, HealthBoard, Subject, event_ms

if TYPE_CHECKING:
    from ..api.models import EventSummary
    from ..journal.backend import EventJournal, ReplayStore
    from ..monitor import Monitor, Record, Tap, Target

POLL_INTERVAL_S = 5.0  # the Health pane's `$errors` and events polls: live enough, cheap across many workflows
MONITOR_HISTORY = 50  # the monitor's own read of the journal per feed (the overlap with load_history)
COUNTED_AFTER_S = 10.0  # the board shows its figures this long after the start even if a feed has not answered


def targets_of(subject: Subject) -> list[Target]:
    """A source's stream; a workflow's events and `$errors`."""
    from ..monitor import Target  # the feeds' modules: imported once the board starts counting

    if subject.kind == "source":
        return [Target("source", subject.id, subject.name)]
    return [Target("events", subject.id, subject.name), Target("errors", subject.id, subject.name)]


@dataclass
class History:
    """What the journal holds of the subjects: errors of the last day, event times of the sparkline's span."""

    errors: dict[str, list[EventSummary]] = field(default_factory=dict)
    events: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    last_event: dict[str, int | None] = field(default_factory=dict)

    def fill(self, board: HealthBoard, add_error: Callable[[str, EventSummary], object] | None = None) -> None:
        """Put it on `board`: the errors oldest first (through `add_error` when given, which may do more than the
        board's own), the event times, the last events."""
        add = add_error or board.add_error
        for subject_id, errors in self.errors.items():
            for event in reversed(errors):  # `errors_since` gives them newest first
                add(subject_id, event)
        for subject_id, times in self.events.items():
            board.add_events(subject_id, times)
        for subject_id, last in self.last_event.items():
            board.note_last_event(subject_id, last)


SERVICE_KEEPS = KEPT_EVENTS  # a workflow's `$errors` the service keeps: its last 100, as of every emitter
OLDER_MOST = 5000  # the journal's older errors read at most


def errors_beyond_window(
    journal: EventJournal, workflow_id: str, kept: list[EventSummary], since_ms: int | None = None
) -> list[EventSummary]:
    """The workflow's errors the journal has and the service no longer keeps, newest first: none unless the
    service's window is full (`kept`, what it sent, holds SERVICE_KEEPS), none newer than its oldest, none
    before `since_ms` (by default a day before that oldest). A blocking read: call it off the UI's loop.

    In a flood Health counts the hour's errors from the journal, and those past the service's hundred could be
    neither seen nor replayed: the workflow stayed failing once every reachable error had been replayed."""
    if len(kept) < SERVICE_KEEPS:
        return []  # the service still has every error it was sent
    oldest = min((ms for ms in map(event_ms, kept) if ms is not None), default=None)
    if oldest is None:
        return []
    shown = {e.id for e in kept}
    found = journal.errors_since(workflow_id, oldest - DAY_MS if since_ms is None else since_ms, OLDER_MOST)
    older = [e for e in found if e.id not in shown and (event_ms(e) or 0) <= oldest]
    return sorted(older, key=lambda e: event_ms(e) or 0, reverse=True)


def load_history(journal: EventJournal, subjects: Iterable[Subject], now_ms: int) -> History:
    """Read the journal for the board (blocking reads, SQLite or PostgreSQL)."""
    history = History()
    for subject in subjects:
        if subject.kind == "workflow":
            history.errors[subject.id] = journal.errors_since(subject.id, now_ms - DAY_MS)
        history.events[subject.id] = journal.event_times(subject.id, (now_ms // MINUTE_MS - SPARK_MINUTES) * MINUTE_MS)
        history.last_event[subject.id] = journal.last_event_ms(subject.id)
    return history


def read_replays(log: ReplayStore, errors: dict[str, list[EventSummary]]) -> dict[str, dict[str, str]]:
    """Each error's replay kind (`HealthBoard.note_replays`), by workflow: blocking reads of the replay records
    (SQLite or the team's server), for a thread. `errors`: the board's `hour_errors()`."""
    from ..replay.states import read_states  # the replay package: once errors are there to read

    found: dict[str, dict[str, str]] = {}
    for subject_id, events in errors.items():
        states = read_states(log, subject_id, events)
        found[subject_id] = {i: REPLAY if s.is_replay else s.kind for i, s in states.items()}
    return found


class HealthWatch:
    def __init__(
        self,
        feeds: Callable[[], Monitor],
        *,
        now_ms: Callable[[], int] | None = None,
        poll_interval_s: float = POLL_INTERVAL_S,
    ) -> None:
        """`feeds`: the session's Monitor, asked for when first needed (`feeds`), not when the board is made."""
        self.now_ms = now_ms or (lambda: int(time.time() * 1000))
        self.board = HealthBoard()
        self.tracker = AlertTracker(self.now_ms())
        self._make_feeds = feeds
        self._feeds: Monitor | None = None
        self._tap: Tap | None = None
        self._poll_interval_s = poll_interval_s
        self._names: dict[str, str] = {}
        self.started = False
        # The figures can be read: see `take`. Before, a 0 would say healthy while the feeds were still bringing
        # what the service kept (a first start, every demo: no journal history yet).
        self.counted = False
        self._answered = False  # every feed had answered at the last take
        self._started_ms = 0
        self._pending: deque[Record] = deque()  # taken from the feeds, not yet on the board (take's limit)
        self.states: dict[str, StreamState] = {}  # each feed's state at the last take, by target key

    @property
    def feeds(self) -> Monitor:
        """The session's feeds, asked for the first time here."""
        if self._feeds is None:
            self._feeds = self._make_feeds()
        return self._feeds

    @property
    def monitor(self) -> Tap:
        """The board's tap of the feeds, made the first time it is asked for."""
        if self._tap is None:
            self._tap = self.feeds.tap(history=MONITOR_HISTORY, poll_interval_s=self._poll_interval_s)
        return self._tap

    @property
    def journal(self) -> EventJournal | None:
        """The journal, once open: `feeds.take_journal()` (on a thread) waits for one still being opened."""
        writer = self.feeds.writer
        return writer.journal if writer is not None else None

    def know(self, subjects: list[Subject]) -> None:
        """Put exactly `subjects` on the board, before anything is counted: the pane can list them at once."""
        for subject in subjects:
            self.board.know(subject)
            self._names[subject.id] = subject.name
        self.board.forget_all_but({s.id for s in subjects})

    def watch(self, subjects: list[Subject], history: History | None = None) -> None:
        """Report on exactly `subjects`, filled first with `history` (from `load_history`), and start their feeds."""
        self.know(subjects)
        if history is not None:
            self._apply(history)
        self.monitor.watch([t for s in subjects for t in targets_of(s)])
        if not self.started:
            self.started, self._started_ms = True, self.now_ms()

    def _apply(self, history: History) -> None:
        history.fill(self.board, self._error)  # through the alerts' tracker: it learns the groups known before

    def take(self, limit: int | None = None) -> list[Alert]:
        """Move what the feeds brought into the board, at most `limit` records; the alerts raised, oldest first.

        A burst brings tens of thousands of records a second, and folding them all at once held the UI's
        loop for up to 90 ms: with a limit, the rest waits for the next take (`behind` says so).
        """
        alerts: list[Alert] = []
        batch = self.monitor.take()
        self.states = {key: state for key, (_, state) in batch.states.items()}
        pending = self._pending
        pending.extend(batch.records)
        popleft = pending.popleft
        # Errors one at a time (each may raise an alert); other events gathered per subject and counted in one
        # call each: the board keeps the two apart, so the order between them does not matter.
        counted: dict[str, list[tuple[str | None, int | None]]] = {}
        for _ in range(len(pending) if limit is None else min(limit, len(pending))):
            record = popleft()
            if record.is_gap:
                continue
            target = record.target
            if target.kind == "errors" or (target.kind != "source" and record.channel == "$errors"):
                alert = self._error(target.emitter_id, record.event)
                if alert is not None:
                    alerts.append(alert)
            else:
                counted.setdefault(target.emitter_id, []).append((record.id, record.time_ms))
        for subject_id, events in counted.items():
            self.board.add_events(subject_id, events)
        self.board.prune(self.now_ms())
        self._count_when_answered()
        return alerts

    def _count_when_answered(self) -> None:
        """Counted from the take after every feed had answered (what it kept came before its answer, and reaches
        the tap within the hand-over's 50 ms), once nothing waits; or COUNTED_AFTER_S after the start, whatever
        a feed that never answers keeps back."""
        if self.counted:
            return
        answered = self._every_feed(lambda phase: phase != "connecting")
        late = self.now_ms() - self._started_ms >= COUNTED_AFTER_S * 1000
        self.counted = late or (self._answered and not self._pending)
        self._answered = answered

    @property
    def behind(self) -> bool:
        """Records taken from the feeds wait for the board (a take's limit left them)."""
        return bool(self._pending)

    def _error(self, subject_id: str, event: EventSummary) -> Alert | None:
        if not self.board.add_error(subject_id, event):
            return None
        return self.tracker.seen(subject_id, self._names.get(subject_id, ""), event)

    def unheard(self) -> set[str]:
        """The subjects with a feed not live at the last take (reconnecting, failed): whether they fail now is not
        known, and an `ok` of theirs is only what was heard before."""
        if self._tap is None:
            return set()
        states = self.states
        return {
            t.emitter_id
            for t in self._tap.targets
            if t.key in states and states[t.key].phase in ("reconnecting", "failed")
        }

    @property
    def live(self) -> bool:
        """Every feed has answered at least once (live now); False before the first take."""
        return self._tap is not None and bool(self._tap.targets) and self._every_feed(lambda phase: phase == "live")

    def _every_feed(self, says: Callable[[str], bool]) -> bool:
        """Each feed of the board's tap had, at the last take, a state whose phase `says` yes to."""
        if self._tap is None:
            return False
        return all(t.key in self.states and says(self.states[t.key].phase) for t in self._tap.targets)

    def close(self) -> None:
        if self._tap is not None:
            self._tap.close()
