"""Telling the user without being asked: a new error group, or a spike in a known one.

Errors are grouped by the replay package's fingerprint (workflow, step, error
name, normalised message). What happened before aftui started watching (the
journal's history, the errors the service still keeps) makes the groups
known without a word: only errors timed after `since_ms` can raise an alert.
A spike is a known group whose errors in the last `window_ms` reach
`spike_min` and `spike_factor` times its usual count per window over the
hour before. A group alerts once as it starts to spike, not again while the
spike lasts (one incident read as several, each 5 minutes, their counts
overlapping), and at most once per window however it flaps at the edge.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal

from ..fingerprint import error_key
from .board import HOUR_MS, MINUTE_MS, error_line, event_ms

if TYPE_CHECKING:
    from ..api.models import EventSummary

AlertKind = Literal["new", "spike"]

WINDOW_MS = 5 * MINUTE_MS
SPIKE_MIN = 5
SPIKE_FACTOR = 3.0


@dataclass(frozen=True)
class Alert:
    kind: AlertKind
    workflow_id: str
    workflow_name: str
    fingerprint: str
    message: str  # the error's `Name: message`, safe to print and capped
    count: int  # errors of the group in the window (a spike) or 1 (new)
    at_ms: int

    @property
    def title(self) -> str:
        return "New error" if self.kind == "new" else "Error spike"

    @property
    def text(self) -> str:
        """One line for a notification: what failed, where, how often."""
        where = self.workflow_name or self.workflow_id
        if self.kind == "new":
            return f"{where}: {self.message}"
        # The count when it was told: "5 in 5 min" read as the whole spike, after 8 had come in that second.
        return f"{where}: {self.spike_words}: {self.message}"

    @property
    def spike_words(self) -> str:
        """`at least 5 errors in 5 min, at 12:01:05 UTC`: the count when it was told, not the spike's size."""
        clock = datetime.fromtimestamp(self.at_ms / 1000, tz=UTC).strftime("%H:%M:%S UTC")
        return f"at least {self.count} errors in {WINDOW_MS // MINUTE_MS} min, at {clock}"


@dataclass
class _Group:
    times: deque[int] = field(default_factory=deque)  # the last hour and a window, oldest first
    alerted_ms: int | None = None  # the last alert (new or spike)
    spiking: bool = False  # alerted, and no error since that fell short of a spike: the same incident


class AlertTracker:
    """`seen(workflow, event)` for each new `$errors` event; it returns the alert it raises, if any."""

    def __init__(
        self,
        since_ms: int,
        *,
        window_ms: int = WINDOW_MS,
        spike_min: int = SPIKE_MIN,
        spike_factor: float = SPIKE_FACTOR,
    ) -> None:
        self.since_ms = since_ms
        self.window_ms = window_ms
        self.spike_min = spike_min
        self.spike_factor = spike_factor
        self._groups: dict[str, _Group] = {}

    @property
    def groups(self) -> int:
        return len(self._groups)

    def since(self, fingerprint: str, at_ms: int) -> tuple[int, int | None]:
        """The group's errors after `at_ms` still held (those of the last hour and a window), and the newest of
        its errors held (None: none in that time): is what an alert told of still happening?"""
        group = self._groups.get(fingerprint)
        if group is None or not group.times:
            return 0, None
        return sum(1 for t in group.times if t > at_ms), group.times[-1]

    def seen(self, workflow_id: str, workflow_name: str, event: EventSummary) -> Alert | None:
        key = error_key(event, workflow_id=workflow_id)
        ms = event_ms(event)
        if key is None or ms is None:
            return None
        print_ = key.fingerprint
        group = self._groups.get(print_)
        live = ms > self.since_ms
        if group is None:
            group = self._groups[print_] = _Group()
            group.times.append(ms)
            if live:
                group.alerted_ms, group.spiking = ms, True  # no spike alert on the heels of the new one
                return Alert("new", workflow_id, workflow_name, print_, error_line(event), 1, ms)
            return None
        _insert(group.times, ms, keep_from=ms - HOUR_MS - self.window_ms)
        if live:
            return self._spike(group, workflow_id, workflow_name, print_, event, ms)
        return None

    def _spike(
        self, group: _Group, workflow_id: str, workflow_name: str, print_: str, event: EventSummary, ms: int
    ) -> Alert | None:
        start = ms - self.window_ms
        recent = sum(1 for t in group.times if start < t <= ms)
        before = sum(1 for t in group.times if start - HOUR_MS < t <= start)
        usual = before * self.window_ms / HOUR_MS
        if recent < self.spike_min or recent < self.spike_factor * usual:
            group.spiking = False  # the incident is over: the next spike is another
            return None
        if group.spiking or (group.alerted_ms is not None and ms - group.alerted_ms < self.window_ms):
            return None
        group.alerted_ms, group.spiking = ms, True
        return Alert("spike", workflow_id, workflow_name, print_, error_line(event), recent, ms)


class Unseen:
    """Alerts raised while the user was away from the Health pane: the header's count, and what Health marks
    once shown (`take`). The newest KEEP are kept: in an outage's storm the count goes on, the marks are of the
    latest."""

    KEEP = 100

    def __init__(self) -> None:
        self.count = 0
        self._recent: deque[Alert] = deque(maxlen=self.KEEP)

    def add(self, alerts: list[Alert]) -> None:
        self.count += len(alerts)
        self._recent.extend(alerts)

    def take(self) -> list[Alert]:
        """The alerts kept, oldest first; the count is back to 0."""
        taken = list(self._recent)
        self.count = 0
        self._recent.clear()
        return taken


class Fired:
    """The session's alerts of each workspace, the latest KEEP of each: `!` lists them. Kept by the App, not by
    the board: a workspace switch makes a new board, and going back found the alerts of the one left gone."""

    KEEP = 200

    def __init__(self) -> None:
        self._of: dict[str, deque[Alert]] = {}

    def add(self, workspace: str, alerts: list[Alert]) -> None:
        self._of.setdefault(workspace, deque(maxlen=self.KEEP)).extend(alerts)

    def of(self, workspace: str) -> list[Alert]:
        """The workspace's alerts, oldest first."""
        return list(self._of.get(workspace, ()))


def _insert(times: deque[int], ms: int, *, keep_from: int) -> None:
    """Add `ms` in order (errors mostly come in order) and drop what is older than `keep_from`."""
    if not times or ms >= times[-1]:
        times.append(ms)
    else:
        ordered = sorted([*times, ms])
        times.clear()
        times.extend(ordered)
    while times and times[0] < keep_from:
        times.popleft()
