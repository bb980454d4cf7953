"""Listed events go to the journal too: a fetch wrapped so each page it returns is queued for writing.

The journal keeps every event aftui sees, streamed, polled or listed (the
Events and Errors tabs of details). Queuing is an append to the journal
writer's buffer; SQLite is written on the writer's thread.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..api.models import EventSummary, Page
from .session import Session

Fetch = Callable[..., Awaitable[Page[EventSummary]]]


def journaled(session: Session, fetch: Fetch, emitter_id: str) -> Fetch:
    """`fetch`, with every event of every page it returns queued for the journal under `emitter_id`."""

    async def fetch_and_keep(**params: Any) -> Page[EventSummary]:
        page = await fetch(**params)
        session.journal_events(page.items, emitter_id)
        return page

    return fetch_and_keep
