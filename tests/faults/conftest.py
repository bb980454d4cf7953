"""Faults injected into a real emulator while the TUI runs against it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from aftui.emulator.server import ServerHandle
from aftui.monitor import Target
from aftui.testing.pilot import wait_until
from aftui.tui import retry
from aftui.tui.app import AftuiApp
from aftui.tui.run import demo_session
from aftui.tui.screens.monitor import MonitorScreen, open_monitor

SIZE = (120, 36)


@pytest.fixture(autouse=True)
def quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    """The TUI's own retries every 0.2 s, not 2 s, 4 s, 8 s...: the tests wait for recovery, not for the clock."""
    monkeypatch.setattr(retry, "FIRST_S", 0.2)
    monkeypatch.setattr(retry, "MOST_S", 0.5)


@pytest.fixture
def make_app(emulator: ServerHandle, info: dict, tmp_path: Path) -> Callable[..., AftuiApp]:
    def make(**kwargs: object) -> AftuiApp:
        return AftuiApp(demo_session(emulator.base_url, info, data=tmp_path / "data"), **kwargs)  # type: ignore[arg-type]

    return make


@pytest.fixture
def inject(root: httpx.Client) -> Callable[..., None]:
    """`inject(path, status=500, count=3, ...)`: the next `count` requests under `path` fail that way."""

    def add(path: str, **fault: object) -> None:
        root.post("/_emulator/faults", json={"path": path, **fault}).raise_for_status()

    return add


async def until(pilot, predicate: Callable[[], bool], timeout: float = 20.0) -> None:
    assert await wait_until(pilot, predicate, timeout), "timed out waiting for the app"


async def monitor_on(app: AftuiApp, pilot: Any, target: Target) -> MonitorScreen:
    open_monitor(app, [target])
    await until(pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.last is not None)
    screen = app.screen
    assert isinstance(screen, MonitorScreen)
    await until(
        pilot,
        lambda: (
            screen.last is not None
            and target.key in screen.last.states
            and screen.last.states[target.key][1].phase == "live"
        ),
    )
    return screen
