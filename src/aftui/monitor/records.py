"""What the monitor watches (targets) and what it shows (records), without Textual.

A `Target` is one feed: a source's SSE stream, or a workflow's emitted events
or `$errors`, polled. A `Record` is one event as the monitor saw it: the
event summary, the target it came from and when it arrived. The texts the
UI needs (summary line, search text) are computed on first use and kept, so
an event that is never on screen or filtered costs nothing beyond its record.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Literal

from ..api.eventid import event_key
from ..api.rawevent import RawEvent
from ..journal.store import Gap
from ..masking import masked
from ..text import visible

if TYPE_CHECKING:
    from ..api.models import EventSummary

Kind = Literal["source", "events", "errors"]

# A gap's row: events aftui saw that the journal could not keep and the service no longer has.
GAP_CHANNEL = "(not kept)"

SUMMARY_LIMIT = 400  # characters of a row's summary: wider than any terminal, short enough to render fast
SEARCH_LIMIT = 64 * 1024  # characters of a payload a filter looks at


@dataclass(frozen=True)
class Target:
    """One feed: `kind` source (SSE), events or errors (polled) of `emitter_id`."""

    kind: Kind
    emitter_id: str
    name: str = ""

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.emitter_id}"

    @property
    def label(self) -> str:
        return (self.name or self.emitter_id) + self.kind_word

    @property
    def kind_word(self) -> str:
        """What the label adds to the emitter's name: a workflow's two feeds read alike without it."""
        return {"source": "", "events": " events", "errors": " $errors"}[self.kind]

    def same_feed(self, other: Target) -> bool:
        return self.key == other.key


class Record:
    """One event in the timeline. `n` counts arrivals: it orders records and names them for marks.

    A streamed event may come as a `RawEvent` (its text, not parsed): `event` parses it on first use,
    so what is never drawn, filtered or exported is never parsed.
    """

    __slots__ = (
        "_event",
        "_name",
        "_raw",
        "_search",
        "_summary",
        "backlog",
        "history",
        "n",
        "seen",
        "target",
        "time_ms",
    )

    def __init__(
        self,
        n: int,
        target: Target,
        event: EventSummary | RawEvent,
        seen: float,
        history: bool = False,
        backlog: bool = False,
    ) -> None:
        self.n = n
        self.target = target
        self.seen = seen  # wall-clock seconds when it arrived (or was read from the journal)
        self.history = history  # read from the journal when the monitor opened, not seen live
        # Read from what the service keeps as its feed opened: new here (journaled, shown), but not arriving now,
        # so not counted in the rate, where a backlog of 100 read at once looked like a spike.
        self.backlog = backlog
        # time_ms: what the timeline orders by. Made once per streamed event: _time_ms's call is spared a RawEvent.
        self._raw: RawEvent | None
        self._event: EventSummary | None
        if isinstance(event, RawEvent):
            self._raw, self._event = event, None
            self.time_ms = event.key[0]  # a RawEvent always has a key
        else:
            self._raw, self._event = None, event
            self.time_ms = _time_ms(event, seen)
        self._name: str | None = None
        self._summary: str | None = None
        self._search: str | None = None

    def __repr__(self) -> str:
        return f"Record(n={self.n}, target={self.target.key}, id={self.id!r})"

    @property
    def event(self) -> EventSummary:
        event = self._event
        if event is None:
            raw = self._raw
            assert raw is not None, "a record holds its event, parsed or raw"
            event = self._event = raw.parse()
            self._raw = None
        return event

    @property
    def id(self) -> str | None:
        return self._raw.id if self._raw is not None else self.event.id

    @property
    def emitter_id(self) -> str:
        return self.target.emitter_id

    @property
    def name(self) -> str:
        """The emitter's name: the target's, else (a workflow found by id only) the one its errors carry."""
        if self._name is None:
            name = self.target.name if self.target.name != self.target.emitter_id else ""
            if not name and self.target.kind == "errors":
                error = self.event.error()
                name = (error.original_context.workflow_name or "") if error else ""
            self._name = name or self.target.emitter_id
        return self._name

    @property
    def channel(self) -> str:
        return self.event.channel

    @property
    def is_gap(self) -> bool:
        """A row marking a hole in the journal, not an event (see `gap_event`)."""
        return self._raw is None and self.event.id is None and self.event.channel == GAP_CHANNEL

    @property
    def is_error(self) -> bool:
        return self.target.kind == "errors" or self.event.channel == "$errors"

    @property
    def summary(self) -> str:
        """One line: `✖ code: msg` for an error, else the payload as compact JSON (safe to print)."""
        if self._summary is None:
            self._summary = summary_of(self.event)
        return self._summary

    @property
    def search_text(self) -> str:
        """What `/` looks in: name, emitter id, channel and the payload's JSON."""
        if self._search is None:
            payload = _compact(self.event.event)[:SEARCH_LIMIT]
            self._search = f"{self.name}\n{self.emitter_id}\n{self.channel}\n{payload}"
        return self._search

    def replace_event(self, event: EventSummary) -> None:
        """The full event in place of its cut summary (fetched with expand=event)."""
        self._event, self._raw = event, None
        self._name = self._summary = self._search = None

    def clock(self) -> str:
        """The event's time as HH:MM:SS UTC (from its id or index time), or the arrival time."""
        return datetime.fromtimestamp(self.time_ms / 1000, tz=UTC).strftime("%H:%M:%S")

    def stamp(self) -> str:
        """The same time with its day, as the Errors and Events tabs show times: the timeline's rows leave the day
        out, and the journal's history spans days."""
        return datetime.fromtimestamp(self.time_ms / 1000, tz=UTC).strftime("%m-%d %H:%M:%S")

    def as_json(self) -> dict[str, Any]:
        """The event summary as the service sent it, with the emitter filled in where it was missing."""
        data = self.event.model_dump(mode="json", exclude_none=True)
        metadata = data.setdefault("metadata", {})
        metadata.setdefault("emitter_id", self.emitter_id)
        return data


def _time_ms(event: EventSummary | RawEvent, seen: float) -> int:
    """When the service indexed the event: its id's time, else its index time, else when it was seen."""
    key = event.key
    if key is not None:
        return key[0]
    indexed = None if isinstance(event, RawEvent) else event.indexed_at_ms  # a RawEvent always has a key
    return indexed or int(seen * 1000)


def gap_event(gap: Gap, seen: float) -> EventSummary:
    """A gap as a row of the timeline: placed at its last event's time, saying how many are missing and why.

    It has no id (nothing from the service has), so it is never taken for an event: not journaled,
    not exported, not replayed.
    """
    from ..api.models import EventMetadata, EventSummary  # here: no model is imported before the first screen

    last = event_key(gap.to_id)
    return EventSummary(
        id=None,
        indexed_at_ms=last[0] if last else int(seen * 1000),
        event={"not_kept": gap.count, "from_id": gap.from_id, "to_id": gap.to_id, "reason": gap.reason},
        metadata=EventMetadata(emitter_id=gap.emitter_id, name=GAP_CHANNEL),
    )


def summary_of(event: EventSummary) -> str:
    if event.id is None and event.channel == GAP_CHANNEL and isinstance(event.event, dict):
        gap = event.event
        count = gap.get("not_kept")
        span = f"{gap.get('from_id')} to {gap.get('to_id')}"
        line = f"⋯ {count:,} event{'s' * (count != 1)} not in the journal ({span}): {gap.get('reason') or 'unknown'}"
        return visible(line, SUMMARY_LIMIT)
    error = event.error()
    if error is not None:
        from ..replay.states import replay_id_of  # here: it imports the models, which an error has loaded already

        workflow = error.original_context.workflow_name or ""
        # ↻: the error of a replay that failed again (its request carried aftui's replay header), as the Errors tab
        # tags it: after a replay, a new row is told from a new failure at a glance.
        mark = "↻ replay failed · " if replay_id_of(event) else ""
        line = f"✖ {mark}{error.error.code or 'Error'}: {error.error.msg or ''}" + (
            f"  [{workflow}]" if workflow else ""
        )
        return visible(line, SUMMARY_LIMIT)
    payload = event.event
    text = payload if isinstance(payload, str) else _compact(masked(payload))
    if event.truncated:
        size = event.metadata.event_size
        text = (f"[cut, {size:,} B] " if size else "[cut] ") + text
    return visible(text, SUMMARY_LIMIT)


def _compact(payload: Any) -> str:
    try:
        return json.dumps(payload, ensure_ascii=False, separators=(",", ":"), default=str)
    except (RecursionError, ValueError):
        return "(not JSON)"
