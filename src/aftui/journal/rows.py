"""Events to journal rows and back.

A row is (emitter_id, event_id, ms, seq, channel, indexed_at_ms, payload,
metadata, seen_at), the payload and metadata as JSON text. A `RawEvent` (a
streamed summary still in its text, see api/rawevent.py) is read here with
msgspec, which checks the summary's shape with strict types and hands back
the payload's and metadata's JSON text as it came, without building objects:
1.5 us an event against 14 us for validating it into an `EventSummary` and
dumping that, which matters at the monitor's tens of thousands of events a
second. Text that is not a plain summary (a payload alone, bad JSON, a field
of the wrong type or null metadata, nesting past the decoder's limit) goes
the model's way, so both paths store the same thing.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from functools import cache
from typing import TYPE_CHECKING, Any

import msgspec

from ..api import jsontext
from ..api.eventid import event_key
from ..api.rawevent import RawEvent

if TYPE_CHECKING:
    from ..api.models import EventSummary

Row = tuple[Any, ...]

INT64 = 2**63


def rows_of(events: Iterable[EventSummary | RawEvent], emitter_id: str | None, now: float) -> list[Row]:
    """The rows of `events`, leaving out those with no id or emitter to be kept by (they could not be deduplicated).

    One loop, no call per event beyond the row's own: the writer makes tens of thousands a second.
    """
    rows: list[Row] = []
    for event in events:
        if isinstance(event, RawEvent):
            emitter = emitter_id or event.emitter_id  # the stream's source, which the parsed event may not name
            row = _raw_row(event, emitter, now) or _summary_row(event.parse(), emitter, now)
        else:
            row = _summary_row(event, emitter_id, now)
        if row is not None:
            rows.append(row)
    return rows


def _summary_row(event: EventSummary, emitter_id: str | None, now: float) -> Row | None:
    emitter = emitter_id or event.metadata.emitter_id
    if not event.id or not emitter:
        return None
    key = event_key(event.id)
    ms, seq = key if key is not None else (event.indexed_at_ms or 0, 0)
    payload = json.dumps(event.event, ensure_ascii=False, separators=(",", ":"), default=str)
    metadata = _metadata_json()(event.metadata, exclude_none=True).decode()
    return (emitter, event.id, ms, seq, event.channel, event.indexed_at_ms, payload, metadata, now)


@cache
def _metadata_json() -> Callable[..., bytes]:
    """model_dump then json.dumps, in one pass of pydantic-core: the same compact UTF-8 text, 8x faster.
    Built on first use: at import it built the model at every start."""
    from ..api.models import EventMetadata  # here: pydantic is not imported before the first screen

    return EventMetadata.__pydantic_serializer__.to_json


class _Summary(msgspec.Struct, gc=False):
    """A summary's shape, as msgspec checks it: strict types (no converting), unknown fields passed over.

    `gc=False` (as `_Metadata`): they hold only text and numbers, so the collector need not track them,
    and made without that they cost a tenth less."""

    id: str
    event: msgspec.Raw  # the payload's JSON text, checked but not built into objects
    indexed_at_ms: int | None = None
    metadata: msgspec.Raw = msgspec.Raw()


class _Metadata(msgspec.Struct, gc=False):
    emitter_id: str | None = None
    emit_id: str | None = None
    name: str | None = None
    truncated: bool | None = None
    event_size: int | None = None


_read_summary = msgspec.json.Decoder(_Summary).decode
_read_metadata = msgspec.json.Decoder(_Metadata).decode


def _raw_row(event: RawEvent, emitter_id: str, now: float) -> Row | None:
    """The row of a summary's text when it has exactly the summary's shape, else None (the model decides)."""
    try:
        summary = _read_summary(event.data)
        metadata_raw = summary.metadata
        metadata = _read_metadata(metadata_raw) if metadata_raw else _NO_METADATA
    except (ValueError, RecursionError):  # msgspec's errors are ValueErrors; depth past its limit is not
        return None
    indexed, size = summary.indexed_at_ms, metadata.event_size
    # SQLite's integers stop at 2**63 (written out: a helper's call is a cost at every event)
    if summary.id != event.id or (indexed is not None and not -INT64 <= indexed < INT64):
        return None
    if size is not None and not -INT64 <= size < INT64:
        return None
    ms, seq = event.key
    # str(raw, "utf-8") reads the Raw's buffer as it is; bytes(raw).decode() copied it first
    metadata_text = str(metadata_raw, "utf-8") if metadata_raw else "{}"
    return (
        emitter_id,
        event.id,
        ms,
        seq,
        metadata.name or "default",
        indexed,
        str(summary.event, "utf-8"),
        metadata_text,
        now,
    )


_NO_METADATA = _Metadata()


def summary_of_row(
    event_id: str, indexed_at_ms: int | None, payload: str | None, metadata: str | None, emitter_id: str
) -> EventSummary:
    """The event a row holds. Deep payloads are cut as everywhere else (jsontext); bad metadata is dropped, not raised."""
    from ..api.models import EventMetadata, EventSummary  # here: pydantic is not imported before the first screen

    meta = _loads(metadata) if metadata else {}
    if not isinstance(meta, dict):
        meta = {}
    meta.setdefault("emitter_id", emitter_id)
    event = _loads(payload) if payload else None
    try:
        return EventSummary.model_validate(
            {"id": event_id, "indexed_at_ms": indexed_at_ms, "event": event, "metadata": meta}
        )
    except ValueError:
        return EventSummary(id=event_id, event=event, metadata=EventMetadata(emitter_id=emitter_id))


def _loads(text: str) -> Any:
    try:
        return jsontext.loads(text)
    except ValueError:
        return text
