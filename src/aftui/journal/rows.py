"""Events to journal rows and back.

A row is (emitter_id, event_id, ms, seq, channel, indexed_at_ms, payload,
metadata, seen_at), the payload and metadata as compact JSON text. A
`RawEvent` (a streamed summary still in its text, see api/rawevent.py) is
read here with pydantic-core's `from_json` and its parts written back with
`to_json`: a third of the cost of validating it into an `EventSummary` and
dumping that, which matters at the monitor's tens of thousands of events a
second. Text that is not a plain summary (a payload alone, bad JSON, a field
of the wrong type, nesting past the parser's limit) goes the model's way, so
both paths store the same thing.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic_core import from_json, to_json

from ..api import jsontext
from ..api.models import EventMetadata, EventSummary, event_key
from ..api.rawevent import RawEvent

Row = tuple[Any, ...]

INT64 = 2**63
_METADATA_TEXT = ("emitter_id", "emit_id", "name")


def row_of(event: EventSummary | RawEvent, emitter_id: str | None, now: float) -> Row | None:
    """The row of `event`; None when it has no id or emitter to be kept by (it could not be deduplicated)."""
    if type(event) is RawEvent:
        emitter_id = emitter_id or event.emitter_id  # the stream's source, which the parsed event may not name
        row = _raw_row(event, emitter_id, now)
        if row is not None:
            return row
        event = event.parse()
    return _summary_row(event, emitter_id, now)  # type: ignore[arg-type] - parsed just above


def _summary_row(event: EventSummary, emitter_id: str | None, now: float) -> Row | None:
    emitter = emitter_id or event.metadata.emitter_id
    if not event.id or not emitter:
        return None
    key = event_key(event.id)
    ms, seq = key if key is not None else (event.indexed_at_ms or 0, 0)
    payload = json.dumps(event.event, ensure_ascii=False, separators=(",", ":"), default=str)
    metadata = _metadata_json(event.metadata, exclude_none=True).decode()
    return (emitter, event.id, ms, seq, event.channel, event.indexed_at_ms, payload, metadata, now)


# model_dump then json.dumps, in one pass of pydantic-core: the same compact UTF-8 text, 8x faster.
_metadata_json = EventMetadata.__pydantic_serializer__.to_json


def _raw_row(event: RawEvent, emitter_id: str, now: float) -> Row | None:
    """The row of a summary's text when it has exactly the summary's shape, else None (the model decides)."""
    try:
        summary = from_json(event.data)
    except ValueError:
        return None
    if type(summary) is not dict or summary.get("id") != event.id or "event" not in summary:
        return None
    indexed = summary.get("indexed_at_ms")
    if indexed is not None and not (type(indexed) is int and -INT64 <= indexed < INT64):
        return None
    metadata = summary.get("metadata")
    if metadata is None:
        metadata = {}
    elif type(metadata) is not dict or not _plain_metadata(metadata):
        return None
    try:
        payload = to_json(summary["event"]).decode()
        metadata_text = to_json({k: v for k, v in metadata.items() if v is not None}).decode()
    except ValueError:
        return None
    ms, seq = event.key
    channel = metadata.get("name") or "default"
    return (emitter_id, event.id, ms, seq, channel, indexed, payload, metadata_text, now)


def _plain_metadata(metadata: dict[str, Any]) -> bool:
    """The known fields have the types the model takes without converting (the rest are kept as they are)."""
    for name in _METADATA_TEXT:
        value = metadata.get(name)
        if value is not None and type(value) is not str:
            return False
    truncated = metadata.get("truncated")
    size = metadata.get("event_size")
    return (truncated is None or type(truncated) is bool) and (size is None or (type(size) is int and -INT64 <= size < INT64))


def summary_of_row(event_id: str, indexed_at_ms: int | None, payload: str | None, metadata: str | None, emitter_id: str) -> EventSummary:
    """The event a row holds. Deep payloads are cut as everywhere else (jsontext); bad metadata is dropped, not raised."""
    meta = _loads(metadata) if metadata else {}
    if not isinstance(meta, dict):
        meta = {}
    meta.setdefault("emitter_id", emitter_id)
    event = _loads(payload) if payload else None
    try:
        return EventSummary(id=event_id, indexed_at_ms=indexed_at_ms, event=event, metadata=meta)
    except ValueError:
        return EventSummary(id=event_id, event=event, metadata={"emitter_id": emitter_id})


def _loads(text: str) -> Any:
    try:
        return jsontext.loads(text)
    except ValueError:
        return text
