"""The Health pane pinned at 80x24 and 120x36, on the demo data with a fixed clock (and the emulator's stopped).

Its own port (see test_snapshots.py for why ports are fixed). Update with
`pytest tests/tui/test_health_snapshots.py --snapshot-update` after looking at the pictures.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from tui_helpers import SIZES, idle, serve_fixed, settled, snapshot_app_factory, wait_for

from aftui.emulator.server import ServerHandle
from aftui.health import Alert
from aftui.testing.alerts import sample_alerts
from aftui.tui.app import AftuiApp
from aftui.tui.screens.alerts import AlertsScreen
from aftui.tui.screens.health import HealthPane

SNAPSHOT_PORT = 27871


@pytest.fixture(scope="module")
def fixed_emulator() -> Iterator[ServerHandle]:
    handle = serve_fixed(SNAPSHOT_PORT)
    yield handle
    handle.stop()


@pytest.fixture
def app(fixed_emulator: ServerHandle, tmp_path: Path) -> Callable[..., AftuiApp]:
    return snapshot_app_factory(fixed_emulator, tmp_path)


async def health_steady(pilot: Pilot) -> None:
    """Every feed answered, what they brought on the board, and a tick after that (the board redraws each second)."""
    app = pilot.app
    await wait_for(pilot, lambda: app.health is not None and app.health.live, timeout=20)
    pane = app.query_one(HealthPane)
    await wait_for(pilot, lambda: bool(pane.rows) and pane.rows[0].errors_24h > 0, timeout=10)
    await pilot.pause(1.5)


@pytest.mark.parametrize("size", SIZES)
def test_health_pane(snap_compare, app, size) -> None:
    assert snap_compare(app(start_pane="health"), terminal_size=size, run_before=settled(health_steady, wait=idle))


async def health_with_missed_alerts(pilot: Pilot) -> None:
    """Two alerts of the failing workflow, raised while the user was on another pane: its row marked `!`, the
    note and the line under the board saying them."""
    await health_steady(pilot)
    pane = pilot.app.query_one(HealthPane)
    row = pane.rows[0]
    at = row.last_error_ms or 0
    wf, name = row.subject.id, row.subject.label
    new = Alert(
        "new", wf, name, "fp-new", "TypeError: Cannot read properties of undefined (reading 'email')", 1, at - 60_000
    )
    spike = Alert("spike", wf, name, "fp-old", row.last_error, 9, at)
    pane.alerts_missed([new, spike])
    await pilot.pause(0.3)


@pytest.mark.parametrize("size", SIZES)
def test_health_pane_with_alerts_missed(snap_compare, app, size) -> None:
    assert snap_compare(
        app(start_pane="health"), terminal_size=size, run_before=settled(health_with_missed_alerts, wait=idle)
    )


async def alerts_listed(pilot: Pilot) -> None:
    """`!` over two alerts of the failing workflow (`sample_alerts`)."""
    await health_steady(pilot)
    app = pilot.app
    await sample_alerts(app)
    await pilot.press("exclamation_mark")
    await wait_for(pilot, lambda: isinstance(app.screen, AlertsScreen))
    await pilot.pause(0.3)


@pytest.mark.parametrize("size", SIZES)
def test_alerts_of_the_session(snap_compare, app, size) -> None:
    assert snap_compare(app(start_pane="health"), terminal_size=size, run_before=settled(alerts_listed, wait=idle))
