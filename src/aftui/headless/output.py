"""Lines for people and NDJSON for pipes."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from ..api.models import EventSummary
from ..text import visible


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
