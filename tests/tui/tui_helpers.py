"""Helpers for pilot and snapshot tests (imported as `from tui_helpers import wait_for`)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Collection
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from textual.app import App
from textual.command import CommandList, CommandPalette
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Input

from aftui.emulator.server import Options, ServerHandle, serve_in_thread
from aftui.tui.app import AftuiApp
from aftui.tui.run import demo_session

# The emulator's frozen clock with activity off (2026-11-01T09:00:00Z).
FIXED_NOW = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)

# Every snapshot is taken at the smallest size the TUI must work at and at a roomy one.
SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 36), id="120x36")]

Step = Callable[[Pilot], Awaitable[None]]


async def wait_for(
    pilot: Pilot, predicate: Callable[[], bool], timeout: float = 5.0, says: Callable[[], object] | None = None
) -> None:
    """Let the app run until `predicate()` holds; fail after `timeout` seconds, with what `says()` tells of
    the app then (for a failure seen once on a busy machine, the state it was in)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError("timed out waiting for the app" + (f": {says()!r}" if says else ""))
        await pilot.pause(0.05)


async def palette_search(pilot: Pilot, *keys: str, timeout: float = 15.0) -> None:
    """Open the palette, type `keys`, and wait until its hits are in and have stopped changing: each provider
    answers in its own time, so enter after a fixed pause takes whatever came first on a busy machine."""
    app = pilot.app
    await pilot.press("ctrl+p")
    await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette), timeout)
    await pilot.press(*keys)

    def hits() -> int:
        found = app.screen.query(CommandList)
        return found.first().option_count if found else 0

    await wait_for(pilot, lambda: hits() > 0, timeout)
    loop = asyncio.get_running_loop()
    seen, since = hits(), loop.time()
    while loop.time() - since < 0.3:
        await pilot.pause(0.05)
        if hits() != seen:
            seen, since = hits(), loop.time()


def control(emulator: ServerHandle, what: str, body: dict) -> None:
    """POST to the emulator's control API (faults, settings; docs/emulator.md)."""
    httpx.post(f"{emulator.root_url}/_emulator/{what}", json=body).raise_for_status()


def inject(emulator: ServerHandle, fault: dict) -> None:
    """The next matching request fails as `fault` says (docs/emulator.md)."""
    control(emulator, "faults", fault)


def serve_fixed(port: int) -> ServerHandle:
    """The demo emulator (seed 1, clock stopped) on a fixed port, so the endpoint URLs on screen never move.

    Each snapshot file has a port of its own, so files run side by side do not collide; the caller stops it.
    The ports are below Linux's ephemeral range (32768-60999): there any connection's local port, a long SSE
    stream's included, could hold one and the server could not bind (seen: "Address already in use").
    """
    return serve_in_thread(Options(port=port, seed=1))


def snapshot_app_factory(emulator: ServerHandle, tmp_path: Path) -> Callable[..., AftuiApp]:
    """`make(start_pane=...)`: the TUI on `emulator`'s demo data, its clock fixed at FIXED_NOW."""

    def make(**kwargs: object) -> AftuiApp:
        session = demo_session(emulator.base_url, emulator.emulator.describe(), data=tmp_path / "data")
        session.now = lambda: FIXED_NOW
        return AftuiApp(session, **kwargs)  # type: ignore[arg-type]

    return make


def quiet(app: App, waiting: Collection[str] = ()) -> bool:
    """No worker running and no widget loading; workers in the `waiting` groups wait for an answer on purpose."""
    busy = [w for w in app.workers if not w.is_finished and w.group not in waiting]
    return not busy and not any(w.loading for w in app.screen.query("*"))


async def still(pilot: Pilot, blinking: tuple[type[Widget], ...] = (Input,)) -> None:
    """Let the screen settle and stop the cursors of `blinking` widgets, so the picture stays put."""
    await pilot.pause(0.2)
    for kind in blinking:
        for widget in pilot.app.screen.query(kind):
            widget.cursor_blink = False  # type: ignore[attr-defined]
    await pilot.pause()


async def idle(pilot: Pilot, timeout: float = 8, waiting: Collection[str] = ()) -> None:
    """No request in flight and nothing loading (see `quiet`); then the picture is steady, no cursor blinking."""
    await wait_for(pilot, lambda: quiet(pilot.app, waiting), timeout=timeout)
    await still(pilot)


def settled(*steps: Step, wait: Step = idle, after_each: bool = False) -> Step:
    """Run `steps`, then `wait` until the app is idle (after every step with `after_each`)."""

    async def run(pilot: Pilot) -> None:
        for step in steps:
            await step(pilot)
            if after_each:
                await wait(pilot)
        if not after_each:
            await wait(pilot)

    return run


def press(*keys: str, wait: Step | None = None) -> Step:
    """Press keys; "_" waits until the app is idle (as in snap_compare's own `press`); `wait`, if given, runs after every key."""

    async def run(pilot: Pilot) -> None:
        for key in keys:
            if key == "_":
                await idle(pilot)
                continue
            await pilot.press(key)
            if wait is not None:
                await wait(pilot)

    return run
