"""A request that is late: act once past a time, while it goes on.

The feeds' polls and the workflow detail both wait on a request that may hang for a minute (the client's own
timeout and tries). Each needs to act once it has waited long enough (say the feed is not live, show the
journal's copy) without giving the request up, and to cancel it when the caller is cancelled.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")


async def answered(request: Awaitable[T], late_s: float, on_late: Callable[[], Awaitable[None]]) -> T:
    """`request`'s answer; `on_late()` is awaited once if none came in `late_s` seconds, and the wait goes on.

    `on_late` may raise to give the request up. Whatever ends the wait (an answer, an error, `on_late` raising,
    the caller cancelled) cancels the request, a no-op once it is done: a left request would go on holding a
    connection and its tries.
    """
    task = asyncio.ensure_future(request)
    try:
        done, _ = await asyncio.wait({task}, timeout=late_s)
        if not done:
            await on_late()
        return await task
    finally:
        task.cancel()
