"""Regenerate screenshots/ (SVG) from the demo: every pane and a detail of each.

    .venv/bin/python scripts/screenshots.py

The emulator runs with activity off and seed 1 and the TUI's clock is fixed,
so the pictures only change when the screens do.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from aftui.emulator.server import Options, serve_in_thread
from aftui.testing.alerts import sample_alerts
from aftui.tui.app import AftuiApp, pane_specs
from aftui.tui.run import demo_session

OUT = Path(__file__).resolve().parent.parent / "screenshots"
NOW = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
PORT = 27812


async def replay_editor(app: AftuiApp) -> None:
    """The replay editor on the demo's oldest failed order (no key path reaches it as directly)."""
    from aftui.tui.screens.replay import open_replay

    workflow = ORDER_WORKFLOW[0]
    errors = (await app.session.client.list_workflow_errors(workflow, expand=True, limit=100)).items
    oldest = min(errors, key=lambda e: e.key or (0, 0))
    open_replay(app, oldest, workflow, edit=True)


ORDER_WORKFLOW: list[str] = []  # set in main(): the demo's failing workflow


async def health_ready(app: AftuiApp) -> None:
    """The Health pane's feeds have all answered and its board shows the failing workflow (they run on a thread of their own)."""
    from aftui.tui.screens.health import HealthPane

    for _ in range(400):
        panes = app.query(HealthPane)
        if (
            app.health is not None
            and app.health.live
            and panes
            and panes.first().rows
            and panes.first().rows[0].errors_24h
        ):
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.5)  # a tick of the board after the last feed answered


# (file name, pane, steps after the pane is shown, size); a step is a key, "_" (settle), "~" (wait 2 s) or a coroutine function
SHOTS: list[tuple[str, str, tuple[Any, ...], tuple[int, int]]] = [
    ("health-80x24", "health", (health_ready,), (80, 24)),
    ("sources", "sources", (), (120, 36)),
    ("sources-80x24", "sources", (), (80, 24)),
    ("source-detail", "sources", ("down", "down", "down", "enter"), (120, 36)),
    ("source-events", "sources", ("down", "down", "down", "enter", "_", "right", "right", "right"), (120, 36)),
    ("keys", "sources", ("question_mark",), (120, 36)),
    ("palette", "sources", ("ctrl+p", "_", "d", "c", "underscore", *"msIpon2"), (120, 36)),  # "_" alone waits
    ("monitor", "sources", ("_", "m", "~", "_"), (120, 36)),
    ("monitor-80x24", "sources", ("_", "m", "~", "_"), (80, 24)),
    ("deploy-form", "sources", ("n", "_", *"schedule-every-interval", "enter", "_"), (120, 36)),
    ("subscription-form", "subscriptions", ("n", "_"), (120, 36)),
    ("webhook-form-80x24", "webhooks", ("n", "_"), (80, 24)),
    ("replay-editor", "workflows", ("_", replay_editor, "~", "_"), (120, 36)),
    ("alerts", "health", (health_ready, sample_alerts, "exclamation_mark", "_"), (120, 36)),
]


# keys that open a detail from a pane (None: the pane has no detail of its own)
DETAIL_KEYS: dict[str, tuple[Any, ...] | None] = {
    "health": (health_ready, "enter", "_"),
    "workspaces": None,
    "components": ("slash", *"new issue in github", "enter", "_", "enter"),
}


# steps before a pane's own picture
PANE_KEYS: dict[str, tuple[Any, ...]] = {"health": (health_ready,)}


def pane_shots() -> list[tuple[str, str, tuple[Any, ...], tuple[int, int]]]:
    shots = []
    for spec in pane_specs():
        if spec.id == "sources":
            continue
        shots.append((spec.id, spec.id, PANE_KEYS.get(spec.id, ()), (120, 36)))
        keys = DETAIL_KEYS.get(spec.id, ("enter",))
        if keys:
            shots.append((f"{spec.id}-detail", spec.id, keys, (120, 36)))
    return shots


async def settle(pilot: Pilot) -> None:
    app = pilot.app
    for _ in range(200):
        await pilot.pause(0.05)
        if all(w.is_finished for w in app.workers) and not any(w.loading for w in app.screen.query("*")):
            break
    await pilot.pause(0.2)
    for box in app.screen.query(Input):
        box.cursor_blink = False


async def shoot(base_url: str, info: dict, name: str, pane: str, keys: tuple[Any, ...], size: tuple[int, int]) -> Path:
    with tempfile.TemporaryDirectory() as data:
        session = demo_session(base_url, info, data=Path(data))
        session.now = lambda: NOW
        app = AftuiApp(session, start_pane=pane)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            for key in keys:
                if callable(key):
                    await key(app)
                elif key == "_":
                    await settle(pilot)
                elif key == "~":
                    await pilot.pause(2.0)  # feeds on the monitor's own thread: not a worker settle() can wait for
                else:
                    await pilot.press(key)
            await settle(pilot)
            path = OUT / f"{name}.svg"
            path.write_text(app.export_screenshot(title=f"aftui — {name}"))
            return path


async def main() -> None:
    OUT.mkdir(exist_ok=True)
    handle = serve_in_thread(Options(port=PORT, seed=1))
    try:
        info = handle.emulator.describe()
        ORDER_WORKFLOW.append(handle.emulator.demo.order_workflow_id or "")
        for name, pane, keys, size in [*SHOTS, *pane_shots()]:
            path = await shoot(handle.base_url, info, name, pane, keys, size)
            print(path.relative_to(OUT.parent), file=sys.stderr)
    finally:
        handle.stop()


if __name__ == "__main__":
    asyncio.run(main())
