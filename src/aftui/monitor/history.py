"""The monitor's history: what the journal holds of the watched emitters.

The service keeps the last 100 events of an emitter; the journal keeps what
aftui has seen for as long as its retention allows. Reads are blocking
SQLite calls: the monitor makes them on its own thread or a worker's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..journal.backend import EventJournal
from .records import Target

if TYPE_CHECKING:
    from ..api.models import EventSummary

ERRORS = "$errors"


def history_of(journal: EventJournal, targets: Sequence[Target], limit: int) -> list[tuple[Target, EventSummary]]:
    """Up to `limit` newest journaled events of each target, all of them oldest first."""
    found: list[tuple[Target, EventSummary]] = []
    for target in targets:
        if target.kind == "errors":
            events = journal.search("", emitter_id=target.emitter_id, channel=ERRORS, limit=limit)
        else:
            # Sources and workflows emit on any channel but $errors; ask for a little more to make up for those.
            events = [e for e in journal.recent(target.emitter_id, limit=limit * 2) if e.channel != ERRORS][:limit]
        found += [(target, event) for event in events]
    return _oldest_first(found)


def search_history(
    journal: EventJournal, targets: Sequence[Target], query: str, limit: int
) -> list[tuple[Target, EventSummary]]:
    """The newest `limit` journaled events of the watched emitters matching `query` (FTS5 syntax), oldest first."""
    by_emitter: dict[str, dict[bool, Target]] = {}
    for target in targets:
        by_emitter.setdefault(target.emitter_id, {})[target.kind == "errors"] = target
    found: list[tuple[Target, EventSummary]] = []
    for emitter_id, kinds in by_emitter.items():
        for event in journal.search(query, emitter_id=emitter_id, limit=limit):
            kind = kinds.get(event.channel == ERRORS)
            if kind is not None:
                found.append((kind, event))
    return _oldest_first(found)[-limit:]


def _oldest_first(found: list[tuple[Target, EventSummary]]) -> list[tuple[Target, EventSummary]]:
    return sorted(found, key=lambda pair: pair[1].key or (pair[1].indexed_at_ms or 0, 0))


def resume_points(journal: EventJournal, targets: Sequence[Target]) -> dict[str, str]:
    """The newest journaled event id of each target that has one, by target key: where its feed resumes."""
    found: dict[str, str] = {}
    for target in targets:
        last = journal.last_event_id(target.emitter_id, errors=target.kind == "errors")
        if last is not None:
            found[target.key] = last
    return found
