"""Every file a session writes in the data dir is 0600, under a lax umask: the journal with its -wal and -shm,
the replay log in it, exports, the known workflows, the log.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import httpx

from aftui import logs
from aftui.emulator.server import ServerHandle
from aftui.journal.replays import ReplayLog
from aftui.monitor import Target
from aftui.tui.app import AftuiApp
from aftui.tui.run import demo_session

from .conftest import SIZE, monitor_on, until


def modes(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): oct(stat.S_IMODE(p.stat().st_mode)) for p in folder.rglob("*") if p.is_file()}


async def test_every_file_a_session_writes_is_0600_whatever_the_umask(
    emulator: ServerHandle, api: httpx.Client, info: dict, config_file: Path
) -> None:
    data = Path(os.environ["AFTUI_DATA_DIR"])
    response = api.post(
        "/sources", json={"component_id": "http-new-requests", "name": "private", "org_id": info["org_id"]}
    )
    source = response.json()["data"]["id"]
    old = os.umask(0)  # what a careless environment may hand aftui: files 0666 unless aftui sees to them
    try:
        with logs.configured(logging.INFO) as log_file:
            assert log_file is not None and log_file.parent == data
            logging.getLogger("aftui.tests").warning("a line, so the log file is written")
            app = AftuiApp(demo_session(emulator.base_url, info, data=data))
            async with app.run_test(size=SIZE) as pilot:
                screen = await monitor_on(app, pilot, Target("source", source, "private"))
                injected = httpx.post(
                    f"{emulator.root_url}/_emulator/sources/{source}/inject", json={"count": 3, "wait": True}
                )
                assert injected.is_success
                await until(pilot, lambda: len(screen.records) >= 3)
                journal = app.session.journal
                assert journal is not None
                await until(pilot, lambda: journal.journal.count(source) == 3)
                await pilot.press("x")  # export what is shown
                await until(pilot, lambda: any((data / "exports").glob("*.ndjson")))
                app.session.known.add(info["org_id"], "p_private", name="private", found="test")
                with ReplayLog(journal.journal.path) as replays:
                    replays.started(
                        "r1",
                        emitter_id="p_x",
                        event_id="1-0",
                        workflow_id="p_x",
                        method="POST",
                        target_url="u",
                        edited=False,
                    )
                while_open = modes(data)
    finally:
        os.umask(old)
    after = modes(data)
    names = set(while_open)
    assert {
        "journal.sqlite3",
        "journal.sqlite3-wal",
        "journal.sqlite3-shm",
        "aftui.log",
        "known_workflows.json",
    } <= names
    assert any(name.startswith("exports/") and name.endswith(".ndjson") for name in names)
    assert set(while_open.values()) == {"0o600"}, while_open
    assert set(after.values()) == {"0o600"}, after
