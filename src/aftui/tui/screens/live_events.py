"""`LiveEvents`: a list of events that stays current while it is on screen.

A workflow's Events and Errors tabs and a source's Events tab use it: after a
replay, the event the run emitted (or the error it failed with again) shows
up where the user is looking, without `r`. While the list is shown it asks
for the first page every `LIVE_S` seconds and puts the events it has not
listed, newer than its newest, on top (by event id, as `api/poll.py`'s
`EventPoller` keeps its place). The view keeps its place when they arrive,
and the status line says how many newer rows are above it.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from textual import work
from textual.widget import Widget

from ...api import ApiError
from ...api.models import EventSummary, Page
from ...text import visible
from ..focus import shown
from ..widgets.paged_table import PAGE_SIZE, Column, PagedTable

LIVE_S = 3.0  # how often a shown list asks for new events
MAX_LIVE = 1000  # events a list keeps as they come in (the service keeps 100)
# A live look unanswered this long is said, and another made in its place: in a hang the list showed no sign of
# being behind, under "live"; and a look held by a hang that has ended is answered only at its timeout.
UNANSWERED_S = 10.0

Fetch = Callable[..., Awaitable[Page[EventSummary]]]


class LiveEvents(PagedTable[EventSummary]):
    """Give it `fetch` as a `PagedTable`'s, and `peek`: a cheaper look at the first page (summaries only), read
    in full with `fetch` when it shows something new."""

    def __init__(
        self, fetch: Fetch, columns: list[Column[EventSummary]], *, peek: Fetch | None = None, **kwargs: Any
    ) -> None:
        super().__init__(fetch, columns, item_id=lambda e: e.id or "", **kwargs)
        self._peek = peek or fetch
        self.live_problem: str | None = None  # the last live look failed: why
        self._look: object | None = None  # the live look waiting for its answer
        self._look_started = 0.0  # when it was made (monotonic)
        self._unanswered_since: float | None = None  # the first of the looks made since the last answer

    def on_mount(self) -> None:  # PagedTable's own on_mount (the first load) runs as well
        self.set_interval(LIVE_S, self._tick)
        self.watch(self.table, "scroll_y", self._scrolled, init=False)

    def _tick(self) -> None:
        area = self.parent if isinstance(self.parent, Widget) else self
        if self.screen is not self.app.screen or not shown(area) or not self._listed():
            return
        now = time.monotonic()
        if self._look is not None:
            # One look at a time, for UNANSWERED_S: cancelled for the next every LIVE_S, a slow service's looks never
            # ended. Past that it is said, and the next look takes its place (`exclusive`).
            waited = now - (self._unanswered_since or self._look_started)
            if waited >= UNANSWERED_S:
                self._live_said(f"the service has not answered for {waited:.0f} s")
            if now - self._look_started < UNANSWERED_S:
                return
        self._poll()

    def _listed(self) -> bool:
        """The list is loaded (an empty one too) and not loading again, nor showing a failure to load."""
        return not self._loading and self._error is None and bool(self.pager.items or self.pager.done)

    @work(group="events-live", exclusive=True, exit_on_error=False)
    async def _poll(self) -> None:
        listed = self.pager.items  # a reload puts a new list in its place
        known = {e.id for e in listed}
        newest = max((e.key for e in listed if e.key is not None), default=None)

        def new(page: Page[EventSummary]) -> list[EventSummary]:
            return [
                e
                for e in page.items
                if e.id and e.id not in known and e.key is not None and (newest is None or e.key > newest)
            ]

        look = self._look = object()
        self._look_started = time.monotonic()
        if self._unanswered_since is None:
            self._unanswered_since = self._look_started
        try:
            page = await self._peek(limit=PAGE_SIZE)
            fresh = new(page)
            if fresh and self._peek is not self._fetch:
                page = await self._fetch(limit=PAGE_SIZE)  # the new ones in full (and journaled)
                fresh = new(page)
        except ApiError as error:
            self._unanswered_since = None
            self._live_said(error.message)
            return
        finally:
            if self._look is look:  # not taken over by the next look
                self._look = None
        self._unanswered_since = None
        self._live_said(None)
        if self.pager.items is not listed or self._loading:
            # r while this look waited for its answer: the list loaded again has them, and added on top they
            # were listed twice (a flood's hundred new errors, two hundred rows).
            return
        if not fresh:
            self.nothing_new()
            return
        fresh.sort(key=lambda e: e.key or (0, 0), reverse=True)
        self.pager.items[:0] = fresh
        self._measure(fresh, first=False)
        del self.pager.items[MAX_LIVE:]  # a night of events: the oldest go, as the service's own list drops them
        if page.total is not None:
            self.pager.total = max(page.total, len(self.pager.items))
        self._rebuild()

    def nothing_new(self) -> None:
        """A live look found no new event (a subclass reads what may have changed otherwise)."""

    def _live_said(self, problem: str | None) -> None:
        if problem != self.live_problem:
            self.live_problem = problem
            self.live_changed()

    def live_changed(self) -> None:
        """`live_problem` changed: said in the status line (a subclass may say it elsewhere)."""
        self.update_status()

    def status_parts(self) -> list[str]:
        problem = [f"✖ not updating: {visible(self.live_problem, 120)}"] if self.live_problem else []
        return self.newer_above() + problem

    def newer_above(self) -> list[str]:
        """Rows scrolled out of sight at the top: newer events, the list being newest first (unless sorted). The
        view keeps its place when events arrive, and a newcomer saw the count grow with none of them in sight."""
        above = int(self.table.scroll_y)
        if not above or self.sort_index is not None:
            return []
        return [f"↑ {above} newer above · home"]

    _said_above = 0

    def _scrolled(self) -> None:
        above = int(self.table.scroll_y)
        if above != self._said_above:  # a line's worth of scroll, not every frame of it
            self._said_above = above
            self.update_status()
