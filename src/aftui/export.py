"""NDJSON: the one shape events leave aftui in, for pipes (`--json`) and for files (exports)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from .api.models import EventSummary
from .files import unused_path, write_private


def ndjson(record: Any) -> str:
    """One JSON line; ensure_ascii keeps every control character escaped for pipes and terminals alike."""
    return json.dumps(record, ensure_ascii=True, separators=(",", ":"), default=str)


def event_record(event: EventSummary, emitter: str | None = None) -> dict[str, Any]:
    """An event summary as the service sent it, with its emitter filled in when the summary lacks one."""
    record = event.model_dump(mode="json", exclude_none=True)
    if emitter and not record.get("metadata", {}).get("emitter_id"):
        record.setdefault("metadata", {})["emitter_id"] = emitter
    return record


def export_ndjson(records: Iterable[Any], folder: Path, stem: str, *, now: datetime | None = None) -> tuple[Path, int]:
    """Write one record a line to `<folder>/<stem>-<UTC time>.ndjson` (0600: payloads may hold personal data).

    The file appears whole or not at all; returns its path and the number of lines written.
    """
    safe_stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", stem)[:80] or "events"
    path = unused_path(folder, safe_stem, ".ndjson", now)
    count = 0

    def lines() -> Iterable[str]:
        nonlocal count
        for record in records:
            count += 1
            yield ndjson(record) + "\n"

    write_private(path, lines())
    return path, count
