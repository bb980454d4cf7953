"""The health board: per workflow and source, how many errors lately, the last one, and how busy it is.

It is fed events one at a time (from the journal at start, then from the
live feeds) and answers `rows(now_ms)`: one `HealthRow` per subject, sorted
by what needs attention first. An event is counted once, whichever way it
came (the journal's history and a feed's first poll overlap), by its id.
Whether the last hour's errors were replayed is told to it (`note_replays`,
from the journal's replay records): a workflow whose every error of the hour
was replayed ok is `fixed`, not `failing`, until an error comes after that.
Times are the service's (an event id's `<ms>`), so the windows are the same
on every machine watching the same workspace.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from ..fingerprint import name_and_message
from ..starts import unsendable_start_of
from ..text import visible

if TYPE_CHECKING:
    from ..api.models import EventSummary

SubjectKind = Literal["workflow", "source"]

MINUTE_MS = 60_000
HOUR_MS = 60 * MINUTE_MS
DAY_MS = 24 * HOUR_MS
SPARK_MINUTES = 15  # the sparkline's width: events per minute over the last quarter of an hour
MESSAGE_LIMIT = 200  # characters of the last error's message kept for the row
STATE_RANK = {"failing": 0, "fixed": 1, "errors": 2, "ok": 3}
REPLAY = "replay"  # an error's replay kind when it is what a replay of another error led to (not an original)
# The hour's errors kept whole to look their replays up, per subject, the newest: a storm of errors is when
# this board is read, and it must not hold (nor ask the journal about) every one. Those left out count as not
# replayed, so such a workflow reads failing, never fixed by a guess.
HOUR_ERRORS_KEPT = 500
EVENT_IDS = 5_000  # event ids remembered per subject (5,000 to 10,000) to count each once; errors keep theirs 24 h
BARS = " ▁▂▃▄▅▆▇█"


@dataclass(frozen=True)
class Subject:
    """A workflow or a source the board reports on."""

    kind: SubjectKind
    id: str
    name: str = ""

    @property
    def label(self) -> str:
        return self.name or self.id


@dataclass(frozen=True)
class HealthRow:
    """What the Health pane shows of one subject at one moment."""

    subject: Subject
    errors_1h: int
    errors_24h: int
    last_error_ms: int | None
    last_error: str  # `Name: message` on one line, control characters visible, capped
    last_event_ms: int | None
    per_minute: tuple[int, ...]  # events per minute, oldest first, SPARK_MINUTES of them
    # The hour's errors that are not what a replay led to, and how many of them were replayed ok (at the last
    # read of the replay records; an error not read yet counts as not replayed).
    originals_1h: int = 0
    replayed_ok_1h: int = 0
    first_error_ms: int | None = None  # the oldest error of the last 24 hours: "since when"
    # The hour's errors, not replayed ok, newer than the newest one that was: what fails still, once a fix went in.
    after_replayed_ok: int = 0
    # Of the hour's originals, those whose run aftui cannot send again, and what started them ("a timer").
    unsendable_1h: int = 0
    unsendable_by: str = ""
    # The workflow's switch as last read (None: not read): off, no run comes to say whether it is fixed.
    active: bool | None = None

    @property
    def state(self) -> str:
        """`failing` (errors in the last hour not all replayed ok), `fixed` (all were), `errors` (in the last
        day), or `ok`."""
        if self.errors_1h:
            return "fixed" if self.fixed else "failing"
        if self.errors_24h:
            return "errors"
        return "ok"

    @property
    def fixed(self) -> bool:
        """Every error of the last hour was replayed ok (those a replay led to were replayed in turn)."""
        return self.originals_1h > 0 and self.replayed_ok_1h == self.originals_1h

    @property
    def attention(self) -> tuple[int, int, int, str, str]:
        """The sort key: failing first (most errors in the hour, then the newest), then fixed, then last day's, then
        the rest by name."""
        rank = STATE_RANK[self.state]
        newest = -(self.last_error_ms or 0) if rank < STATE_RANK["ok"] else 0
        return (rank, -self.errors_1h, newest, self.subject.label.casefold(), self.subject.id)


def sparkline(counts: tuple[int, ...] | list[int]) -> str:
    """One bar character per count, scaled to the largest (a blank for none, the lowest bar for any)."""
    top = max(counts, default=0)
    if top <= 0:
        return BARS[0] * len(counts)
    steps = len(BARS) - 1
    return "".join(BARS[0] if n <= 0 else BARS[max(1, round(n * steps / top))] for n in counts)


@dataclass
class _State:
    subject: Subject
    errors: dict[str, int] = field(default_factory=dict)  # error id -> ms, the last 24 hours
    last_error_ms: int | None = None
    last_error: str = ""
    last_event_ms: int | None = None
    minutes: dict[int, int] = field(default_factory=dict)  # minute number -> events in it
    hour_errors: dict[str, EventSummary] = field(default_factory=dict)  # the last hour's, to read their replays
    replays: dict[str, str] = field(default_factory=dict)  # error id -> its replay state's kind, or REPLAY
    # error id -> what started its run, when it cannot be sent again; kept as long as the error (a day)
    unsendable: dict[str, str] = field(default_factory=dict)
    # The ids counted lately, in two generations: when the newer holds EVENT_IDS it becomes the older and
    # the older is dropped. Two set lookups an event, where an ordered dict's bookkeeping cost three times that.
    event_ids: set[str] = field(default_factory=set)
    older_ids: set[str] = field(default_factory=set)
    active: bool | None = None  # as last read (`set_active`)


class HealthBoard:
    """`add_error` / `add_event` as they arrive, `rows(now_ms)` to show them. Not thread-safe: one owner."""

    def __init__(self) -> None:
        self._states: dict[str, _State] = {}

    def know(self, subject: Subject) -> None:
        """A subject to report on, even with nothing seen of it yet (its name updated if it had none)."""
        state = self._states.get(subject.id)
        if state is None:
            self._states[subject.id] = _State(subject)
        elif subject.name and not state.subject.name:
            state.subject = subject

    def set_active(self, subject_id: str, active: bool | None) -> None:
        """The subject's switch as read from the service (or just turned by the user)."""
        state = self._states.get(subject_id)
        if state is not None:
            state.active = active

    def forget_all_but(self, ids: set[str]) -> None:
        """Drop subjects no longer watched (another workspace, a forgotten workflow)."""
        for ident in [i for i in self._states if i not in ids]:
            del self._states[ident]

    def subjects(self) -> list[Subject]:
        return [s.subject for s in self._states.values()]

    def add_error(self, subject_id: str, event: EventSummary) -> bool:
        """Count a `$errors` event of `subject_id`; False when it was counted already or has no time."""
        state = self._states.get(subject_id)
        ms = event_ms(event)
        if state is None or ms is None:
            return False
        ident = event.id or f"@{ms}"
        if ident in state.errors:
            return False
        state.errors[ident] = ms
        state.hour_errors[ident] = event
        started = unsendable_start_of(event)
        if started is not None:
            state.unsendable[ident] = started
        if len(state.hour_errors) > HOUR_ERRORS_KEPT:  # the oldest goes, whatever order they came in
            del state.hour_errors[min(state.hour_errors, key=lambda i: state.errors.get(i, 0))]
        if not state.subject.name:  # a workflow known by id only: its errors name it
            error = event.error()
            name = error.original_context.workflow_name if error is not None else None
            if name:
                state.subject = Subject(state.subject.kind, state.subject.id, name)
        if state.last_error_ms is None or ms >= state.last_error_ms:
            state.last_error_ms = ms
            state.last_error = error_line(event)
        return True

    def add_event(self, subject_id: str, event_id: str | None, ms: int | None) -> bool:
        """Count an event (not an error) of `subject_id` in its minute; False when counted already."""
        return self.add_events(subject_id, ((event_id, ms),)) == 1

    def add_events(self, subject_id: str, events: Iterable[tuple[str | None, int | None]]) -> int:
        """Count events (id, ms) of `subject_id`, none an error; how many were new.

        One call for a run of a subject's events: a burst brings tens of thousands a second, and a call
        per event was most of the UI thread's share of it.
        """
        state = self._states.get(subject_id)
        if state is None:
            return 0
        ids, older, minutes, last = state.event_ids, state.older_ids, state.minutes, state.last_event_ms
        counted = 0
        for event_id, ms in events:
            if ms is None:
                continue
            if event_id:
                if event_id in ids or event_id in older:
                    continue
                ids.add(event_id)
                if len(ids) >= EVENT_IDS:
                    state.older_ids, older = ids, ids
                    state.event_ids = ids = set()
            minute = ms // MINUTE_MS
            minutes[minute] = minutes.get(minute, 0) + 1
            if last is None or ms > last:
                last = ms
            counted += 1
        state.last_event_ms = last
        return counted

    def note_last_event(self, subject_id: str, ms: int | None) -> None:
        """The newest event known from elsewhere (the journal), when it is newer than what was counted."""
        state = self._states.get(subject_id)
        if state is not None and ms is not None and (state.last_event_ms is None or ms > state.last_event_ms):
            state.last_event_ms = ms

    def prune(self, now_ms: int) -> None:
        """Forget errors older than a day and minutes older than the sparkline."""
        day_ago, first_minute = now_ms - DAY_MS, now_ms // MINUTE_MS - SPARK_MINUTES
        for state in self._states.values():
            old = [i for i, ms in state.errors.items() if ms < day_ago]
            for ident in old:
                del state.errors[ident]
                state.unsendable.pop(ident, None)
            hour_ago = now_ms - HOUR_MS
            for ident in [i for i, e in state.hour_errors.items() if state.errors.get(i, 0) <= hour_ago]:
                del state.hour_errors[ident]
                state.replays.pop(ident, None)
            for minute in [m for m in state.minutes if m < first_minute]:
                del state.minutes[minute]

    def hour_errors(self) -> dict[str, list[EventSummary]]:
        """The last hour's errors of each subject that has some (as of the last `prune`): whose replays to read."""
        return {i: list(s.hour_errors.values()) for i, s in self._states.items() if s.hour_errors}

    def note_replays(self, subject_id: str, kinds: dict[str, str]) -> None:
        """The replay state's kind of these errors (`replay_states`), or REPLAY for one a replay led to."""
        state = self._states.get(subject_id)
        if state is not None:
            state.replays.update((i, k) for i, k in kinds.items() if i in state.hour_errors)

    def row(self, subject_id: str, now_ms: int) -> HealthRow | None:
        state = self._states.get(subject_id)
        return None if state is None else _row(state, now_ms)

    def rows(self, now_ms: int) -> list[HealthRow]:
        """Every subject, what needs attention first."""
        return sorted((_row(s, now_ms) for s in self._states.values()), key=lambda r: r.attention)


def _row(state: _State, now_ms: int) -> HealthRow:
    hour_ago, day_ago = now_ms - HOUR_MS, now_ms - DAY_MS
    times = state.errors.values()
    this_minute = now_ms // MINUTE_MS
    per_minute = tuple(state.minutes.get(m, 0) for m in range(this_minute - SPARK_MINUTES + 1, this_minute + 1))
    # The replay kind of each error of the hour: as many as the hour's errors.
    hour = [(ms, state.replays.get(i, "never")) for i, ms in state.errors.items() if ms > hour_ago]
    kinds = [kind for _, kind in hour]
    originals = [kind for kind in kinds if kind != REPLAY]
    unsendable = [state.unsendable[i] for i, ms in state.errors.items() if ms > hour_ago and i in state.unsendable]
    newest_ok = max((ms for ms, kind in hour if kind == "succeeded"), default=None)
    after_ok = (
        0 if newest_ok is None else sum(1 for ms, kind in hour if ms > newest_ok and kind not in ("succeeded", REPLAY))
    )
    return HealthRow(
        subject=state.subject,
        errors_1h=len(kinds),
        errors_24h=sum(1 for ms in times if ms > day_ago),
        last_error_ms=state.last_error_ms,
        last_error=state.last_error,
        last_event_ms=state.last_event_ms,
        per_minute=per_minute,
        originals_1h=len(originals),
        replayed_ok_1h=originals.count("succeeded"),
        first_error_ms=min((ms for ms in times if ms > day_ago), default=None),
        after_replayed_ok=after_ok,
        unsendable_1h=len(unsendable),
        unsendable_by=max(set(unsendable), key=unsendable.count, default=""),
        active=state.active,
    )


def event_ms(event: EventSummary) -> int | None:
    """When the service indexed an event: its id's time, else its index time."""
    key = event.key
    if key is not None:
        return key[0]
    return event.indexed_at_ms


def error_line(event: EventSummary) -> str:
    """`Name: message` of a `$errors` event on one line, safe to print and capped."""
    error = event.error()
    if error is None:
        return visible(event.event if isinstance(event.event, str) else "(an error of an unknown shape)", MESSAGE_LIMIT)
    name, message = name_and_message(error)
    return visible(f"{name}: {message}", MESSAGE_LIMIT)


def age_words(ms: int, now_ms: int) -> str:
    """How long ago in two units where one would round a lot away, for sentences: `12s`, `4m`, `1h 57m`,
    `2d 3h`. Health's line said "errors since 20:06:56 (1h ago" of an hour and 57 minutes."""
    seconds = max(0, (now_ms - ms) // 1000)
    if seconds < 3600:
        return age(ms, now_ms)
    minutes = seconds // 60
    if minutes < 24 * 60:
        return f"{minutes // 60}h {minutes % 60}m" if minutes % 60 else f"{minutes // 60}h"
    hours = minutes // 60
    return f"{hours // 24}d {hours % 24}h" if hours % 24 else f"{hours // 24}d"


def age(ms: int | None, now_ms: int) -> str:
    """How long ago, in the largest unit that fits: `12s`, `4m`, `3h`, `2d`; `—` for never."""
    if ms is None:
        return "—"
    seconds = max(0, (now_ms - ms) // 1000)
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m"
    if seconds < 86400:
        return f"{seconds // 3600}h"
    return f"{seconds // 86400}d"
