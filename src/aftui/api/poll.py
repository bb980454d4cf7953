"""Incremental polling of event lists that have no stream: workflow events and `$errors`.

Each poll asks for the newest events and keeps those newer than the last it
handed out, compared by event id, so nothing is repeated across polls and
nothing retained is skipped. Failures back off; the next success resets.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING

from .errors import ApiError, AuthError, NotFoundError

if TYPE_CHECKING:
    from .models import EventSummary, Page

Fetch = Callable[..., Awaitable["Page[EventSummary]"]]  # a string: not built at import


class EventPoller:
    """`async for event in EventPoller(partial(client.list_workflow_errors, wf_id, expand=True)): ...`"""

    def __init__(
        self,
        fetch: Fetch,
        *,
        interval_s: float = 2.0,
        max_interval_s: float = 30.0,
        from_now: bool = True,
        on_error: Callable[[ApiError], None] | None = None,
    ) -> None:
        self._fetch = fetch
        self.interval_s = interval_s
        self.max_interval_s = max_interval_s
        self._from_now = from_now
        self._on_error = on_error
        self.last_key: tuple[int, int] | None = None
        self._primed = not from_now

    async def poll_once(self) -> list[EventSummary]:
        """New events since the last poll, oldest first.

        With `from_now`, the first poll only notes where the list stands.
        """
        page = await self._fetch(limit=100)
        fresh = [e for e in page.items if e.key is not None and (self.last_key is None or e.key > self.last_key)]
        fresh.sort(key=lambda e: e.key)  # type: ignore[arg-type, return-value]
        if fresh:
            self.last_key = fresh[-1].key
        if not self._primed:
            self._primed = True
            return []
        return fresh

    async def __aiter__(self) -> AsyncIterator[EventSummary]:
        delay = self.interval_s
        while True:
            try:
                for event in await self.poll_once():
                    yield event
                delay = self.interval_s
            except (AuthError, NotFoundError):
                raise
            except ApiError as exc:
                if self._on_error:
                    self._on_error(exc)
                delay = min(self.max_interval_s, delay * 2)
            await asyncio.sleep(delay)
