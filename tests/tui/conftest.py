"""Fixtures for driving the TUI against a real emulator."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from aftui.emulator.server import ServerHandle
from aftui.tui.app import AftuiApp
from aftui.tui.run import demo_session

# The emulator's frozen clock with activity off (2026-11-01T09:00:00Z).
FIXED_NOW = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def make_app(emulator: ServerHandle, info: dict, tmp_path: Path) -> Callable[..., AftuiApp]:
    """`make_app(start_pane="sources")`: the TUI on the demo emulator, its clock fixed."""

    def make(**kwargs: object) -> AftuiApp:
        session = demo_session(emulator.base_url, info, data=tmp_path / "data")
        session.now = lambda: FIXED_NOW
        return AftuiApp(session, **kwargs)  # type: ignore[arg-type]

    return make
