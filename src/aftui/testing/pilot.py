"""Driving the app through Textual's pilot: waiting on it, showing every tab of a detail, timing its loop."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any


async def wait_until(pilot: Any, predicate: Callable[[], bool], timeout: float = 20.0) -> bool:
    """Let the app run until `predicate()` holds; False after `timeout` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            return False
        await pilot.pause(0.05)
    return True


async def walk_tabs(pilot: Any, pause: float = 0.2, timeout: float = 60.0) -> None:
    """Show each tab of the detail on top in turn, long enough to be drawn, its lists loaded (or failed).

    It waits for the detail's tabs to be built whole (or its problem shown); not loaded by `timeout`, it raises."""
    from ..tui.widgets.paged_table import PagedTable

    screen = pilot.app.screen
    if not await wait_until(pilot, lambda: screen.built > 0 or bool(screen.query(".problem")), timeout):
        raise TimeoutError(f"the detail {screen.ident} was not loaded within {timeout:g} s")
    for _ in range(len(screen.query("Tab")) + 1):
        await pilot.press("right_square_bracket")
        await pilot.pause(pause)
        for table in screen.query(PagedTable):

            def loaded(table: PagedTable = table) -> bool:
                return table.pager.done or bool(table.query(".problem"))

            await wait_until(pilot, loaded)


async def watch_the_loop(stalls: list[float], tick: float = 0.002) -> None:
    """Record how late each short sleep wakes: the time the loop was busy with something else (a frame)."""
    while True:
        before = time.perf_counter()
        await asyncio.sleep(tick)
        stalls.append(max(0.0, (time.perf_counter() - before - tick) * 1000))
