"""Listed events go to the journal too, and the journal's older errors come back to the Errors tab.

The journal keeps every event aftui sees, streamed, polled or listed (the
Events and Errors tabs of details): a fetch wrapped so each page it returns
is queued for writing. Queuing is an append to the journal writer's buffer;
SQLite is written on the writer's thread. A workflow's Errors tab also shows
the journal's errors the service no longer keeps (`with_older_errors`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from ..api.models import EventSummary, Page
from ..health.board import event_ms
from .session import Session

log = logging.getLogger("aftui.tui")

Fetch = Callable[..., Awaitable[Page[EventSummary]]]


def journaled(session: Session, fetch: Fetch, emitter_id: str) -> Fetch:
    """`fetch`, with every event of every page it returns queued for the journal under `emitter_id`."""

    async def fetch_and_keep(**params: Any) -> Page[EventSummary]:
        page = await fetch(**params)
        session.journal_events(page.items, emitter_id)
        return page

    return fetch_and_keep


SERVICE_KEEPS = 100  # a workflow's `$errors` the service keeps: its last 100
OLDER_DAY_MS = 86_400_000  # how far back of the service's oldest the journal's errors are added: Health's day
OLDER_MOST = 5000


def with_older_errors(session: Session, fetch: Fetch, workflow_id: str) -> Fetch:
    """`fetch` of a workflow's errors, with the journal's errors of the day before the service's oldest on the same
    first page when the service's window is full (it keeps the last SERVICE_KEEPS).

    In a flood, Health counts the hour's errors from the journal, and those past the service's hundred could be
    neither seen nor replayed here (`y`, a group's `R`): the workflow stayed failing once every error had been
    replayed. On the first page, so that the groups, which count what is loaded, count them too."""

    async def fetch_with_older(**params: Any) -> Page[EventSummary]:
        page = await fetch(**params)
        writer = session.journal
        journal = writer.journal if writer is not None else None
        if journal is None or params.get("after") or len(page.items) < SERVICE_KEEPS:
            return page  # the service still has every error it was sent (or the journal is not open)
        times = [event_ms(e) for e in page.items]
        oldest = min((ms for ms in times if ms is not None), default=None)
        if oldest is None:
            return page
        try:
            found = await asyncio.to_thread(journal.errors_since, workflow_id, oldest - OLDER_DAY_MS, OLDER_MOST)
        except journal.errors as error:
            log.warning("the journal's older errors of %s could not be read: %s", workflow_id, error)
            return page
        shown = {e.id for e in page.items}
        older = [e for e in found if e.id not in shown and (event_ms(e) or 0) <= oldest]
        older.sort(key=lambda e: event_ms(e) or 0, reverse=True)  # newest first, as the service's
        items = [*page.items, *older]
        info = page.page_info.model_copy(update={"end_cursor": None, "total_count": len(items), "count": len(items)})
        return Page[EventSummary](items=items, page_info=info)

    return fetch_with_older
