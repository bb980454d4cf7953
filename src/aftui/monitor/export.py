"""Exporting records as NDJSON: one event summary per line, as the service sent it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from ..headless.output import ndjson
from .records import Record


def export_path(directory: Path, now: datetime | None = None) -> Path:
    """`<directory>/exports/monitor-YYYYmmdd-HHMMSS.ndjson`, not yet existing."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    folder = directory / "exports"
    path = folder / f"monitor-{stamp}.ndjson"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"monitor-{stamp}-{n}.ndjson"
    return path


def write_ndjson(path: Path, records: Sequence[Record]) -> int:
    """Write the records' events, one JSON object a line (controls escaped); return the count."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    tmp.touch(mode=0o600)  # payloads may hold personal data: readable by the user only, like the journal
    with tmp.open("w", encoding="utf-8") as handle:
        for record in records:
            handle.write(ndjson(record.as_json()) + "\n")
    tmp.replace(path)  # a reader never sees half a file
    return len(records)
