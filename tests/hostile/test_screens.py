"""Every screen that shows hostile data, rendered to real terminal bytes: nothing in them attacks the terminal.

The app runs with `CapturingDriver`, which renders each frame as the
terminal would receive it. After a walk through the lists and details that
show the hostile source, its events (10 MB, 10,000 deep, invalid UTF-8),
the webhook, the workflow's `$errors`, the app and the Connect account, the
captured bytes must hold none of the data's escape sequences, and the
data's text must be there, made visible.
"""

from __future__ import annotations

from pathlib import Path

from aftui.api.models import EventSummary
from aftui.emulator import hostile as data
from aftui.emulator.server import ServerHandle
from aftui.testing.pilot import wait_until, walk_tabs
from aftui.testing.terminal import CapturingDriver, attacks, output_of
from aftui.tui.app import AftuiApp
from aftui.tui.opener import open_resource
from aftui.tui.run import demo_session
from aftui.tui.screens.detail import DetailScreen
from aftui.tui.screens.events import EventScreen
from aftui.tui.widgets.paged_table import PagedTable

SIZE = (120, 36)


async def _settle(pilot, predicate, timeout: float = 20.0) -> None:
    assert await wait_until(pilot, predicate, timeout), "timed out waiting for the app"


async def _open(app: AftuiApp, pilot, ident: str) -> DetailScreen:
    assert open_resource(app, ident)
    await _settle(pilot, lambda: isinstance(app.screen, DetailScreen) and app.screen.ident == ident)
    await walk_tabs(pilot)
    return app.screen  # type: ignore[return-value]


def _make_app(emulator: ServerHandle, info: dict, tmp_path: Path) -> AftuiApp:
    app = AftuiApp(demo_session(emulator.base_url, info, data=tmp_path / "data"), start_pane="sources")
    app.driver_class = CapturingDriver
    return app


async def test_lists_and_details_render_hostile_data_inertly(
    emulator: ServerHandle, info: dict, hostile: dict, tmp_path: Path
) -> None:
    app = _make_app(emulator, info, tmp_path)
    async with app.run_test(headless=False, size=SIZE) as pilot:
        for pane in ("sources", "webhooks", "connect", "accounts", "apps"):
            app.show_pane(pane)
            await pilot.pause(0.5)
        source = await _open(app, pilot, hostile["source_id"])
        await _settle(
            pilot,
            lambda: any(len(t.rows) == len(data.SAMPLES) + 3 for t in source.query(PagedTable) if t.noun == "events"),
        )
        events = [row for table in source.query(PagedTable) for row in table.rows if isinstance(row, EventSummary)]
        assert len(events) == len(data.SAMPLES) + 3
        for event in events:
            app.push_screen(
                EventScreen(event.id or "", ("hostile", "event"), record=event, source_id=hostile["source_id"])
            )
            await _settle(pilot, lambda e=event: isinstance(app.screen, EventScreen) and app.screen.record is not None)
            before = len(output_of(app))
            await walk_tabs(pilot)
            shown = app.screen.record
            if isinstance(shown.event, dict) and shown.event.get("kind") == "big":  # read in full, drawn capped
                assert "HUGE-xxx" in output_of(app)[before:], "the 10 MB event's JSON tab was drawn"
            app.pop_screen()
            await pilot.pause(0.1)
        app.pop_screen()
        for ident in (hostile["webhook_id"], hostile["workflow_id"], hostile["app_id"], hostile["account_id"]):
            await _open(app, pilot, ident)
            app.pop_screen()
        assert app.is_running
    output = output_of(app)
    assert len(output) > 100_000, "the capture holds the rendered frames"
    assert attacks(output) == []
    assert "\\e[31mCSI-RED" in output  # the escape is shown, as text
    assert "MARKUP-BOLD[/]" in output  # markup shown as written, not applied
    assert "HUGE-xxx" in output and "DEEP-BOTTOM" not in output  # 10 MB capped; 10,000 deep cut


def test_the_scan_catches_each_kind_of_smuggled_sequence() -> None:
    """The check above can fail: each raw sample, written as is, is reported."""
    for kind in ("ansi_csi", "osc_title", "osc52", "osc8", "controls", "bidi", "zero_width"):
        assert attacks("frame " + data.SAMPLES[kind] + " frame"), kind
    assert attacks("\u009b31m") == ["C1 control '\\x9b'"]
    assert attacks("plain \\e[31mCSI-RED text") == []


async def test_the_monitor_replay_editor_and_export_render_hostile_data_inertly(
    emulator: ServerHandle, info: dict, hostile: dict, tmp_path: Path
) -> None:
    """The monitor on the hostile source and workflow (every row drawn, each selected into the detail), an export of
    them all, and the replay screen and JSON editor on a hostile `$errors` event."""
    from aftui.api import Client
    from aftui.monitor import Target
    from aftui.tui.screens.monitor import MonitorScreen
    from aftui.tui.screens.replay import ReplayEditorScreen, ReplayScreen, open_replay

    app = _make_app(emulator, info, tmp_path)
    async with app.run_test(headless=False, size=SIZE) as pilot:
        targets = [
            Target("source", hostile["source_id"], "hostile"),
            Target("errors", hostile["workflow_id"], "orders"),
        ]
        app.push_screen(MonitorScreen(targets))
        await _settle(
            pilot,
            lambda: (
                isinstance(app.screen, MonitorScreen)
                and bool(app.screen.query("Timeline"))
                and len(app.screen.timeline.rows) >= len(data.SAMPLES) + 3
            ),
        )
        monitor = app.screen
        for _ in range(min(40, len(monitor.timeline.rows))):
            await pilot.press("up")
            await pilot.pause(0.15)
        for record in list(monitor.timeline.rows):
            monitor.timeline.marked.add(record.n)
        await pilot.press("x")
        exports = tmp_path / "data" / "exports"
        await _settle(pilot, lambda: exports.exists() and any(exports.glob("*.ndjson")))
        await pilot.press("escape")
        async with Client(emulator.base_url, api_key=info["api_key"]) as client:
            errors = (await client.list_workflow_errors(hostile["workflow_id"], limit=100, expand=True)).items
        error = next(e for e in errors if e.error() and e.error().error.msg == data.SAMPLES["ansi_csi"])
        open_replay(app, error, hostile["workflow_id"], edit=True)
        await _settle(
            pilot,
            lambda: (
                isinstance(app.screen, ReplayEditorScreen)
                or (isinstance(app.screen, ReplayScreen) and bool(app.screen.query("*")))
            ),
        )
        await pilot.pause(1.0)
        assert app.is_running
    exported = b"".join(p.read_bytes() for p in (tmp_path / "data" / "exports").glob("*.ndjson"))
    assert (
        b"CSI-RED" in exported
        and b"\x1b" not in exported
        and b"\xc2\x9b" not in exported
        and "\u202e".encode() not in exported
    )
    output = output_of(app)
    assert attacks(output) == []
    assert "\\e[31mCSI-RED" in output
    assert all(p.stat().st_mode & 0o777 == 0o600 for p in (tmp_path / "data" / "exports").glob("*.ndjson"))
