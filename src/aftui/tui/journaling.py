"""Listed events go to the journal too, and the journal's older errors come back to the Errors tab.

The journal keeps every event aftui sees, streamed, polled or listed (the
Events and Errors tabs of details): a fetch wrapped so each page it returns
is queued for writing. Queuing is an append to the journal writer's buffer;
SQLite is written on the writer's thread. A workflow's Errors tab also shows
the journal's errors the service no longer keeps (`with_older_errors`), and
only the journal's while the service does not answer (`kept_errors`), as a
source's Events tab does (`kept_events`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from ..api.models import EventSummary, Page, PageInfo
from ..health.board import DAY_MS
from ..health.watch import OLDER_MOST, errors_beyond_window
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


def with_older_errors(session: Session, fetch: Fetch, workflow_id: str) -> Fetch:
    """`fetch` of a workflow's errors, with the journal's errors of the day before the service's oldest on the same
    first page when the service's window is full (`errors_beyond_window`): on the first page, so that the
    groups, which count what is loaded, and their `R` take them too."""

    async def fetch_with_older(**params: Any) -> Page[EventSummary]:
        page = await fetch(**params)
        writer = session.journal
        journal = writer.journal if writer is not None else None
        if journal is None or params.get("after"):
            return page
        try:
            older = await asyncio.to_thread(errors_beyond_window, journal, workflow_id, page.items)
        except journal.errors as error:
            log.warning("the journal's older errors of %s could not be read: %s", workflow_id, error)
            return page
        if not older:
            return page
        items = [*page.items, *older]  # newest first, as the service's
        info = page.page_info.model_copy(update={"end_cursor": None, "total_count": len(items), "count": len(items)})
        return Page[EventSummary](items=items, page_info=info)

    return fetch_with_older


def kept_errors_of_the_day(session: Session, workflow_id: str, limit: int = OLDER_MOST) -> list[EventSummary]:
    """The workflow's errors of the last day as the journal kept them, newest first (none without a journal).
    Blocking: call it off the UI's loop."""
    writer = session.journal
    if writer is None:
        return []
    journal = writer.journal
    try:
        return journal.errors_since(workflow_id, int(session.now().timestamp() * 1000) - DAY_MS, limit)
    except journal.errors as error:
        log.warning("the journal's errors of %s could not be read: %s", workflow_id, error)
        return []


def kept_errors(session: Session, workflow_id: str) -> Fetch:
    """A fetch of the workflow's errors from the journal alone, one page: the Errors tab while the service does
    not answer (an outage), where Health had counted errors that could not then be opened."""

    async def fetch_kept(**params: Any) -> Page[EventSummary]:
        items = [] if params.get("after") else await asyncio.to_thread(kept_errors_of_the_day, session, workflow_id)
        return Page[EventSummary](items=items, page_info=PageInfo(total_count=len(items), count=len(items)))

    return fetch_kept


def kept_events_of_the_day(session: Session, emitter_id: str, limit: int = 100) -> list[EventSummary]:
    """A source's events of the last day as the journal kept them, newest first, at most `limit` (as many as the
    service keeps, by default). Blocking: call it off the UI's loop."""
    writer = session.journal
    if writer is None:
        return []
    journal = writer.journal
    since_ms = int(session.now().timestamp() * 1000) - DAY_MS
    try:
        return [e for e in journal.recent(emitter_id, limit) if (e.indexed_at_ms or 0) >= since_ms]
    except journal.errors as error:
        log.warning("the journal's events of %s could not be read: %s", emitter_id, error)
        return []


def kept_events(session: Session, emitter_id: str) -> Fetch:
    """A fetch of a source's events from the journal alone, one page: its Events tab while the service does not
    answer."""

    async def fetch_kept(**params: Any) -> Page[EventSummary]:
        items = [] if params.get("after") else await asyncio.to_thread(kept_events_of_the_day, session, emitter_id)
        return Page[EventSummary](items=items, page_info=PageInfo(total_count=len(items), count=len(items)))

    return fetch_kept
