"""An SSE drop while the monitor watches: it says so, reconnects by itself, and loses or repeats nothing."""

from __future__ import annotations

import httpx

from aftui.monitor import Target
from aftui.tui.screens.monitor import MonitorScreen

from .conftest import SIZE, until


def _deploy(api: httpx.Client, info: dict, name: str) -> str:
    return api.post(
        "/sources", json={"component_id": "http-new-requests", "name": name, "org_id": info["org_id"]}
    ).json()["data"]["id"]


async def test_an_sse_drop_loses_no_event_and_repeats_none(
    make_app, api: httpx.Client, root: httpx.Client, info: dict
) -> None:
    source = _deploy(api, info, "drop probe")
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(MonitorScreen([Target("source", source, "drop probe")]))
        await until(pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.last is not None
                    and any(s.phase == "live" for _, s in app.screen.last.states.values()))  # fmt: skip
        monitor = app.screen
        root.post(f"/_emulator/sources/{source}/inject", json={"count": 300, "wait": True}).raise_for_status()
        await until(pilot, lambda: len(monitor.timeline.rows) >= 300)
        assert root.post("/_emulator/sse/drop", json={"source_id": source}).json()["dropped"] >= 1
        # Emitted while the stream is down: within the service's 100-event window, so Last-Event-ID brings them back.
        root.post(f"/_emulator/sources/{source}/inject", json={"count": 80, "wait": True}).raise_for_status()
        await until(pilot, lambda: len(monitor.timeline.rows) >= 380)
        await pilot.pause(0.5)  # a repeat would arrive now
        ids = [r.event.id for r in monitor.timeline.rows]
        assert len(ids) == len(set(ids)) == 380
        phases = {s.phase for _, s in monitor.last.states.values()}
        assert phases == {"live"}
        app.session.journal.flush()
        assert app.session.journal.journal.count(source) == 380
