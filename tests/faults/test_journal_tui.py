"""The journal's faults as the user sees them in the TUI: a read-only data dir said at start and in the monitor's status,
a full disk said at once (a notification and the status line) and gone from the status when space returns.

The faults are real (a tmpfs remounted read-only, a tmpfs filled by a file); the app runs under Textual's pilot.
"""

from __future__ import annotations

from pathlib import Path

import httpx

from aftui.emulator.server import ServerHandle
from aftui.monitor import Target
from aftui.tui.app import AftuiApp
from aftui.tui.run import demo_session
from aftui.tui.screens.monitor import MonitorScreen
from aftui.tui.widgets.status import StatusHeader

from .conftest import SIZE, monitor_on, until
from .journal_mounts import fill, free, remount, tmpfs


def status_line(screen: MonitorScreen) -> str:
    return str(screen.query_one("#monitor-status").render())


def header_of(app: AftuiApp) -> str:
    return app.screen.query_one(StatusHeader).render().plain


def notified(app: AftuiApp, words: str) -> bool:
    return any(words in str(n.message) for n in app._notifications)


def deploy(api: httpx.Client, info: dict) -> str:
    response = api.post(
        "/sources", json={"component_id": "http-new-requests", "name": "journal faults", "org_id": info["org_id"]}
    )
    assert response.status_code == 200, response.text
    return response.json()["data"]["id"]


async def test_a_read_only_data_dir_is_said_at_start_and_the_monitor_says_it_is_not_journaling(
    emulator: ServerHandle, api: httpx.Client, info: dict, tmp_path: Path
) -> None:
    source = deploy(api, info)
    with tmpfs(tmp_path / "data", "1m") as data:
        remount(data, read_only=True)
        session = demo_session(emulator.base_url, info, data=data)
        assert session.journal is None and session.journal_problem is not None
        app = AftuiApp(session)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: notified(app, f"Not journaling: the data dir {data} is read-only"))
            screen = await monitor_on(app, pilot, Target("source", source, "inbox"))
            await until(pilot, lambda: f"not journaling: the data dir {data} is read-only" in status_line(screen))
            response = httpx.post(
                f"{emulator.root_url}/_emulator/sources/{source}/inject", json={"count": 3, "wait": True}, timeout=10
            )
            assert response.is_success
            await until(pilot, lambda: sum(1 for r in screen.records if r.emitter_id == source) == 3)  # from memory
            assert notified(app, "the monitor shows events from memory only")


async def test_a_full_disk_is_said_at_once_and_the_status_clears_when_space_returns(
    emulator: ServerHandle, api: httpx.Client, info: dict, tmp_path: Path
) -> None:
    source = deploy(api, info)
    with tmpfs(tmp_path / "data", "4m") as data:
        app = AftuiApp(demo_session(emulator.base_url, info, data=data))
        async with app.run_test(size=SIZE) as pilot:
            screen = await monitor_on(app, pilot, Target("source", source, "inbox"))
            assert "journal" not in status_line(screen)
            filler = fill(data)
            response = httpx.post(
                f"{emulator.root_url}/_emulator/sources/{source}/inject",
                json={"count": 300, "size": 4000, "wait": True},  # 1.2 MB: more than any room SQLite kept
                timeout=30,
            )
            assert response.is_success
            await until(pilot, lambda: notified(app, "The journal cannot write: disk full"))
            await until(pilot, lambda: "journal: disk full since" in status_line(screen))
            assert "waiting" in status_line(screen)
            assert sum(1 for r in screen.records if r.emitter_id == source) == 300  # the monitor went on
            # The header says it too, on every screen: only the monitor's status line did.
            await until(pilot, lambda: "✖ journal: disk full since" in header_of(app))
            free(filler)
            await until(pilot, lambda: "journal:" not in status_line(screen))
            await until(pilot, lambda: "journal:" not in header_of(app))
            journal = app.session.journal
            assert journal is not None
            await until(pilot, lambda: journal.journal.count(source) == 300)
