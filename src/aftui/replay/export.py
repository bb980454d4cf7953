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

# What json.dumps leaves raw with ensure_ascii=False and a terminal would act on or hide:
# C1 controls, bidi overrides, zero-width characters, lone surrogates (C0 controls json escapes itself).
_INVISIBLE = re.compile(r"[\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb\ud800-\udfff]")


def event_json(value: Any, *, indent: int | None = 2) -> str:
    """JSON text of a payload, readable (non-ASCII kept) but with every invisible or reordering
    character written as a \\u escape: the same JSON value, safe to show and to edit."""
    text = json.dumps(value, indent=indent, ensure_ascii=False, default=str)
    return _INVISIBLE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


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
