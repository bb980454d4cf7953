"""The first screen builds no model and opens no journal: pydantic and the models (about 80 ms of a start), the
journal and the feeds (SQLite, the store, the writer, the monitor: about 25 ms), and Textual's TextArea (3 ms)
wait until Health's rows are on screen. In a process of its own, since this one has long imported them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from aftui.emulator.server import ServerHandle

SCRIPT = """
import asyncio, json, sys
from pathlib import Path

from aftui.tui.app import AftuiApp
from aftui.tui.run import demo_session
from aftui.tui.screens.health import HealthPane

info, data, names = json.loads(sys.argv[1]), Path(sys.argv[2]), json.loads(sys.argv[3])
LATER = ("pydantic", "sqlite3", "aftui.journal.store", "aftui.monitor.hub", "textual.widgets._text_area")
imported = [name for name in LATER if name in sys.modules]
first_rows = []
show = HealthPane._show

def spy(self, rows, now_ms, **kwargs):
    if rows and not first_rows:
        first_rows.append(([name for name in LATER if name in sys.modules], len(rows)))
    show(self, rows, now_ms, **kwargs)

HealthPane._show = spy

async def main():
    session = demo_session(info["base_url"], info, data=data)
    for workflow_id, name in names.items():  # named on an earlier start: none is asked for
        session.known.add(info["org_id"], workflow_id, name=name, found="test")
    app = AftuiApp(session, start_pane="health")
    async with app.run_test(size=(120, 36)) as pilot:
        for _ in range(200):
            if session.user is not None:
                break
            await pilot.pause(0.05)
        for _ in range(200):
            if session.journal_ready and app.health is not None and app.health.started:
                break
            await pilot.pause(0.05)
        said = {"imported": imported, "first_rows": first_rows, "user": session.user is not None}
        print(json.dumps(said | {"journal": session.journal is not None, "counting": app.health.started}))

asyncio.run(main())
"""


def test_health_draws_its_first_rows_before_any_model_is_built_or_the_journal_opened(
    emulator: ServerHandle, info: dict, tmp_path: Path
) -> None:
    names = {w.id: w.name for w in emulator.emulator.store.workflows.values()}
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(info), str(tmp_path / "data"), json.dumps(names)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    said = json.loads(run.stdout.strip().splitlines()[-1])
    assert said["imported"] == []  # not by the TUI's modules
    [(imported_then, rows)] = said["first_rows"]
    assert rows > 20 and imported_then == []  # the demo's sources and workflows, drawn from the JSON
    assert said["user"] is True  # and the user is read once they are
    assert said["journal"] is True and said["counting"] is True  # the journal opened, the board counting
