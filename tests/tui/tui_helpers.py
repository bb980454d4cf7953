"""Helpers for pilot tests (imported as `from tui_helpers import wait_for`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime, timezone

# The emulator's frozen clock with activity off (2026-11-01T09:00:00Z).
FIXED_NOW = datetime(2026, 11, 1, 9, 0, tzinfo=timezone.utc)


async def wait_for(pilot, predicate: Callable[[], bool], timeout: float = 5.0) -> None:  # noqa: ANN001
    """Let the app run until `predicate()` holds; fail after `timeout` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError("timed out waiting for the app")
        await pilot.pause(0.05)
