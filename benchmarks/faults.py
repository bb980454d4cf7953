"""How aftui holds up, printed as one JSON line: faults survived, hostile inputs rendered safely, secrets leaked.

- faults: each fault the emulator injects (500, an HTML error page, 429 with
  Retry-After, malformed and empty bodies, a reset mid-body, an answer slower
  than the timeout, a 502 on a detail, a resource deleted while shown) is
  met by the TUI; "survived" means the app kept running, said what happened
  and loaded again by itself (or, for the deletion, said "not found").
- hostile inputs: each record of the hostile data set (its events: markup,
  CSI/OSC sequences, controls, bidi, zero-width, 10 MB, 10,000 deep,
  invalid UTF-8; its workflow errors; the source, webhook, app and Connect
  account) opened on screen; "rendered safely" means no escape sequence of
  the data reached the terminal bytes while it was shown.
- longest_frame_ms: the longest time the event loop was busy in one go while
  the hostile records were shown (target: under 250 ms). The emulator runs
  in a process of its own, as the service would: in-process (as `aftui demo`
  runs it) its own work serving 10 MB answers would be counted as the app's.
- secrets_leaked: demo keys, the OAuth secret and account credentials found
  in the terminal bytes or the logs (target: 0).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from aftui.api import Timeouts
from aftui.testing.pilot import wait_until as until
from aftui.testing.pilot import walk_tabs, watch_the_loop
from aftui.testing.terminal import CapturingDriver, attacks, output_of
from aftui.tui import retry
from aftui.tui.app import AftuiApp
from aftui.tui.opener import open_resource
from aftui.tui.run import demo_session
from aftui.tui.screens.detail import DetailScreen
from aftui.tui.screens.events import EventScreen
from aftui.tui.widgets.paged_table import PagedTable
from emulator import emulator

LIST_FAULTS: list[dict[str, Any]] = [
    {"status": 500},
    {"status": 503, "body": "html"},
    {"status": 429, "retry_after": 1},
    {"status": 200, "body": "malformed"},
    {"status": 200, "body": "empty"},
    {"drop": True},
    {"delay": 1.0},
]


class Logs(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


async def show(app: AftuiApp, pilot: Any, screen_check: Any) -> None:
    """Wait for the screen, then step through its tabs so each is drawn."""
    await until(pilot, screen_check)
    await walk_tabs(pilot)


async def hostile_walk(app: AftuiApp, pilot: Any, ids: dict[str, Any]) -> tuple[int, int]:
    tried = safe = 0

    async def step(action: Any) -> None:
        nonlocal tried, safe
        before = len(output_of(app))
        await action()
        tried += 1
        safe += not attacks(output_of(app)[before:])

    async def open_id(ident: str) -> None:
        open_resource(app, ident)
        await show(app, pilot, lambda: isinstance(app.screen, DetailScreen) and app.screen.ident == ident)

    await step(lambda: open_id(ids["source_id"]))
    events = [row for table in app.screen.query(PagedTable) for row in table.rows if hasattr(row, "indexed_at_ms")]
    for event in events:

        async def open_event(event: Any = event) -> None:
            app.push_screen(EventScreen(event.id or "", ("hostile", "event"), record=event, source_id=ids["source_id"]))
            await show(app, pilot, lambda: isinstance(app.screen, EventScreen) and app.screen.record is not None)
            app.pop_screen()

        await step(open_event)
    app.pop_screen()
    for key in ("webhook_id", "workflow_id", "app_id", "account_id"):
        await step(lambda key=key: open_id(ids[key]))
        app.pop_screen()
    return tried, safe


async def fault_round(app: AftuiApp, pilot: Any, root: httpx.Client, org_id: str, source_id: str) -> tuple[int, int]:
    injected = survived = 0
    app.session.client.timeouts = Timeouts(connect=2, read=2, total=0.5)
    app.show_pane("sources")
    await until(
        pilot,
        lambda: bool(app.query("#sources PagedTable")) and app.query_one("#sources PagedTable", PagedTable).pager.done,
    )
    table = app.query_one("#sources PagedTable", PagedTable)
    for fault in LIST_FAULTS:
        root.post(
            "/_emulator/faults", json={"path": f"/v1/orgs/{org_id}/sources", "count": 4, **fault}
        ).raise_for_status()
        injected += 1
        table.reload()
        said = await until(pilot, lambda: table.has_class("failed"))
        back = await until(pilot, lambda: not table.has_class("failed") and table.pager.done and bool(table.rows))
        survived += said and back and app.is_running
    root.post(
        "/_emulator/faults", json={"path": f"/v1/sources/{source_id}", "status": 502, "count": 4}
    ).raise_for_status()
    injected += 1
    open_resource(app, source_id)
    said = await until(pilot, lambda: bool(app.screen.query(".problem")))
    back = await until(pilot, lambda: isinstance(app.screen, DetailScreen) and bool(app.screen.query("TabbedContent")))
    survived += said and back
    root.delete(f"/v1/sources/{source_id}")
    injected += 1
    await pilot.press("r")
    said = await until(
        pilot,
        lambda: bool(app.screen.query(".problem")) and "not found" in str(app.screen.query_one(".problem").render()),
    )
    survived += said and app.is_running
    app.pop_screen()
    return injected, survived


def secrets_of(info: dict[str, Any]) -> set[str]:
    """The demo's keys, OAuth secret and every account credential (read once with include_credentials)."""
    found = {info["api_key"], info["paid_api_key"], info["oauth_client_secret"]}
    headers = {"Authorization": f"Bearer {info['api_key']}"}
    with httpx.Client(base_url=info["base_url"], headers=headers, timeout=30) as api:
        for org in api.get("/users/me").json()["data"].get("orgs", []):
            after = None
            while True:
                params = {
                    "include_credentials": "true",
                    "limit": 100,
                    "org_id": org["id"],
                    **({"after": after} if after else {}),
                }
                page = api.get("/accounts", params=params).json()
                for account in page.get("data", []):
                    found.update(str(v) for v in (account.get("credentials") or {}).values() if len(str(v)) >= 12)
                after = (page.get("page_info") or {}).get("end_cursor")
                if not after or not page.get("data"):
                    break
    return found


async def measure() -> dict[str, Any]:
    retry.FIRST_S, retry.MOST_S = 0.2, 0.5  # recovery is counted, not waited for at human pace
    logs = Logs()
    logging.getLogger().addHandler(logs)
    logging.getLogger().setLevel(logging.DEBUG)
    with emulator("--hostile") as info:
        headers = {"Authorization": f"Bearer {info['api_key']}"}
        ids = httpx.post(f"{info['root_url']}/_emulator/hostile", headers=headers, timeout=30).json()
        app = AftuiApp(demo_session(info["base_url"], info, data=Path(tempfile.mkdtemp())), start_pane="sources")
        app.driver_class = CapturingDriver
        stalls: list[float] = []
        with httpx.Client(base_url=info["root_url"], headers=headers) as root:
            async with app.run_test(headless=False, size=(120, 36)) as pilot:
                await until(
                    pilot,
                    lambda: (
                        bool(app.query("#sources PagedTable"))
                        and app.query_one("#sources PagedTable", PagedTable).pager.done
                    ),
                )
                ticker = asyncio.create_task(watch_the_loop(stalls))
                tried, safe = await hostile_walk(app, pilot, ids)
                ticker.cancel()
                sources = root.get(f"/v1/orgs/{info['org_id']}/sources", params={"limit": 100}).json()["data"]
                victim = next(s["id"] for s in sources if s["id"] != ids["source_id"])
                injected, survived = await fault_round(app, pilot, root, info["org_id"], victim)
        secrets = secrets_of(info)
    logging.getLogger().removeHandler(logs)
    seen = output_of(app) + "\n".join(logs.lines)
    leaked = sorted(s[:4] + "…" for s in secrets if s in seen)
    return {
        "figure": "faults_hostile_secrets",
        "faults_injected": injected,
        "faults_survived": survived,
        "hostile_inputs_tried": tried,
        "hostile_inputs_rendered_safely": safe,
        "longest_frame_ms": round(max(stalls), 1) if stalls else None,
        "secrets_leaked": len(leaked),
        "targets": {
            "faults_survived": "= faults_injected",
            "rendered_safely": "= tried",
            "longest_frame_ms": "< 250",
            "secrets_leaked": "0",
        },
    }


def main() -> None:
    print(json.dumps(asyncio.run(measure())), flush=True)


if __name__ == "__main__":
    main()
