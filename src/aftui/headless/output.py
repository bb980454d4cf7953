"""Lines for people and NDJSON for pipes."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from ..api.models import EventSummary
from ..text import visible


def ndjson(record: Any) -> str:
    """One JSON line; ensure_ascii keeps every control character escaped for pipes and terminals alike."""
    return json.dumps(record, ensure_ascii=True, separators=(",", ":"), default=str)


def event_record(event: EventSummary, emitter: str | None = None) -> dict[str, Any]:
    record = event.model_dump(mode="json", exclude_none=True)
    if emitter and not record.get("metadata", {}).get("emitter_id"):
        record.setdefault("metadata", {})["emitter_id"] = emitter
    return record


def event_line(event: EventSummary, *, width: int = 100, emitter: str | None = None) -> str:
    """`HH:MM:SS  id  emitter  channel  payload`, the payload as compact JSON clipped to the width."""
    when = (
        datetime.fromtimestamp(event.indexed_at_ms / 1000, tz=UTC).strftime("%H:%M:%S")
        if event.indexed_at_ms
        else "--:--:--"
    )
    who = event.metadata.emitter_id or emitter or "?"
    head = f"{when}  {visible(event.id or '-', 24)}  {visible(who, 16)}  {visible(event.channel, 16)}"
    payload = _summary(event)
    room = max(20, width - len(head) - 2)
    return f"{head}  {visible(payload, room)}"


def _summary(event: EventSummary) -> str:
    error = event.error()
    if error is not None:
        name = error.original_context.workflow_name or error.original_context.workflow_id or ""
        return f"ERROR {error.error.code or ''}: {error.error.msg or ''} [{name}]"
    payload = event.event
    text = (
        payload
        if isinstance(payload, str)
        else json.dumps(payload, ensure_ascii=False, separators=(",", ":"), default=str)
    )
    return f"(truncated) {text}" if event.truncated else text
