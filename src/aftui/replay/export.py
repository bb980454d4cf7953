"""Copy and export: what the user takes away when an error cannot be (or is not yet) replayed."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..api.models import EventSummary
from ..headless.output import event_record, ndjson


def event_json(value: Any, *, indent: int | None = 2) -> str:
    """JSON text of a payload (control characters escaped by json itself)."""
    return json.dumps(value, indent=indent, ensure_ascii=False, default=str)


def ndjson_lines(events: Iterable[EventSummary]) -> str:
    """One event summary per line, as the service sent it (the same lines as `aftui events --json`)."""
    return "".join(ndjson(event_record(e)) + "\n" for e in events)


def export_ndjson(events: list[EventSummary], directory: Path, stem: str, *, now: datetime | None = None) -> Path:
    """Write the events to `<directory>/<stem>-<UTC time>.ndjson` (mode 0600: payloads may hold personal data)."""
    directory.mkdir(parents=True, exist_ok=True)
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    safe_stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", stem)[:80] or "events"
    path = directory / f"{safe_stem}-{stamp}.ndjson"
    n = 1
    while path.exists():
        n += 1
        path = directory / f"{safe_stem}-{stamp}-{n}.ndjson"
    path.touch(mode=0o600)
    path.write_text(ndjson_lines(events), encoding="utf-8")
    return path
