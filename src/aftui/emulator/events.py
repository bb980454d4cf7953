"""Event storage: the last 100 events of each emitter, by channel family.

A source keeps its last 100 emitted events (every user channel together);
its `$logs` and a workflow's `$errors` are kept apart, 100 each, so a burst
of logs does not push real events out of the window.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .ids import EventIdClock, format_event_id
from .raw import RawJson, encode

KEPT = 100
TRUNCATE_AT = 1024
SPECIAL = ("$logs", "$errors")


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@dataclass(slots=True)
class StoredEvent:
    key: tuple[int, int]
    emitter_id: str
    channel: str
    event: Any
    emit_id: str
    _payload_json: str | None = None
    _frame: bytes | None = None

    @property
    def id(self) -> str:
        return format_event_id(self.key)

    def payload_json(self) -> str:
        if self._payload_json is None:
            self._payload_json = self.event.preview() if isinstance(self.event, RawJson) else dumps(self.event)
        return self._payload_json

    def summary(self, *, expand: bool = True) -> dict[str, Any]:
        metadata: dict[str, Any] = {"emitter_id": self.emitter_id, "emit_id": self.emit_id, "name": self.channel}
        event: Any = self.event
        if not expand:
            text = self.payload_json()
            if len(text) > TRUNCATE_AT:
                # The spec lets the service cut data over 1 KB; we keep a
                # prefix of the JSON text and say so in metadata.
                event = text[:TRUNCATE_AT]
                metadata["truncated"] = True
                metadata["event_size"] = len(text.encode())
        return {"id": self.id, "indexed_at_ms": self.key[0], "event": event, "metadata": metadata}

    def sse_frame(self) -> bytes:
        """The SSE frame, built once and shared by every subscriber."""
        if self._frame is None:
            # a placeholder `encode` swaps
            payload = dumps(self.event) if isinstance(self.event, RawJson) else self.payload_json()
            # %-formatting: JSON's own braces stay readable, where an f-string would double each one
            body = '{"id":"%s","indexed_at_ms":%d,"event":%s,"metadata":{"emitter_id":%s,"emit_id":%s,"name":%s}}' % (  # noqa: UP031
                self.id,
                self.key[0],
                payload,
                dumps(self.emitter_id),
                dumps(self.emit_id),
                dumps(self.channel),
            )
            self._frame = encode(f"id: {self.id}\ndata: {body}\n\n")
        return self._frame


@dataclass
class EventLog:
    """The retained events of one emitter."""

    ids: EventIdClock = field(default_factory=EventIdClock)
    buckets: dict[str, deque[StoredEvent]] = field(
        default_factory=lambda: {name: deque(maxlen=KEPT) for name in ("user", *SPECIAL)}
    )

    @staticmethod
    def bucket_of(channel: str) -> str:
        return channel if channel in SPECIAL else "user"

    def append(self, event: StoredEvent) -> None:
        self.buckets[self.bucket_of(event.channel)].append(event)

    def newest_first(self, channel: str | None = None) -> list[StoredEvent]:
        """Retained events; `channel` None means every user channel."""
        bucket = self.buckets[self.bucket_of(channel or "default")]
        events = reversed(bucket)
        if channel is not None and channel not in SPECIAL:
            return [e for e in events if e.channel == channel]
        return list(events)

    def after(self, key: tuple[int, int]) -> Iterator[StoredEvent]:
        """User-channel events newer than `key`, oldest first (SSE resume)."""
        return (e for e in self.buckets["user"] if e.key > key)

    def delete(self, start: tuple[int, int] | None, end: tuple[int, int] | None) -> int:
        """Remove user-channel events in the inclusive range; None is open-ended."""
        bucket = self.buckets["user"]
        keep = [e for e in bucket if (start is not None and e.key < start) or (end is not None and e.key > end)]
        removed = len(bucket) - len(keep)
        bucket.clear()
        bucket.extend(keep)
        return removed
