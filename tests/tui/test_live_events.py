"""Event lists that stay current while shown: a workflow's Events tab and a source's.

After a replay the question is "is it fixed?": the event the run emitted shows in the workflow's Events tab
without `r`. Driven against the demo emulator over HTTP (orders posted to the order workflow's endpoint,
events injected into a source through the emulator's control API).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import httpx
import pytest
from rich.console import Console
from textual.widgets import Static
from tui_helpers import control, inject, wait_for

from aftui.emulator.server import ServerHandle
from aftui.tui.screens.live_events import LIVE_S, LiveEvents


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "aftui-data"
    monkeypatch.setenv("AFTUI_DATA_DIR", str(directory))
    return directory


def api(emulator: ServerHandle) -> httpx.Client:
    return httpx.Client(
        base_url=emulator.base_url, headers={"Authorization": f"Bearer {emulator.emulator.demo.api_key}"}, timeout=10
    )


def status_of(table: LiveEvents) -> str:
    console = Console(width=300, file=io.StringIO(), record=True, color_system=None)
    console.print(table.query_one(".status", Static).content)
    return console.export_text()


async def events_tab(app: Any, pilot: Any, ident: str, tabs_before: int) -> LiveEvents:
    """The detail of `ident` on its Events tab (`tabs_before` tabs along), loaded."""
    app.open_id(ident)
    await wait_for(pilot, lambda: bool(app.screen.query("#events")), timeout=10)
    table = app.screen.query_one("#events", LiveEvents)
    await pilot.press(*"]" * tabs_before)
    await wait_for(pilot, lambda: table.pager.done or bool(table.pager.items), timeout=10)
    return table


async def test_the_event_a_run_emits_comes_in_on_top_of_the_workflows_events_tab(make_app, emulator) -> None:
    """A fixed order, sent again, makes a run that emits: on call that is the answer to "is it fixed?"."""
    demo = emulator.emulator.demo
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await events_tab(app, pilot, demo.order_workflow_id, tabs_before=3)
        before = len(table.rows)
        assert before > 0
        cursor = table.current
        httpx.post(
            f"{emulator.root_url}/e/{demo.order_endpoint_key}/",
            json={"order_id": "ord_fixed1", "sku": "SKU-1001", "quantity": 1, "customer_email": "a@example.com"},
            timeout=10,
        ).raise_for_status()
        with api(emulator) as client:
            [emitted] = client.get(f"/workflows/{demo.order_workflow_id}/event_summaries", params={"limit": 1}).json()[
                "data"
            ]
        await wait_for(pilot, lambda: len(table.rows) == before + 1, timeout=2 * LIVE_S + 5)
        assert table.rows[0].id == emitted["id"]
        assert table.current is cursor  # the highlighted event stays highlighted
        await pilot.pause(LIVE_S + 0.5)
        assert len(table.rows) == before + 1  # looked again: listed once


async def test_an_empty_events_tab_fills_as_events_arrive_and_stops_looking_when_hidden(make_app, emulator) -> None:
    """A source just deployed has no events: the tab said "none" and stayed so, where the monitor showed them."""
    info = emulator.emulator.describe()
    with api(emulator) as client:
        created = client.post(
            "/sources", json={"component_id": "http-new-requests", "name": "fresh inbox", "org_id": info["org_id"]}
        )
        created.raise_for_status()
        source_id = created.json()["data"]["id"]
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await events_tab(app, pilot, source_id, tabs_before=3)
        assert table.rows == []
        control(emulator, f"sources/{source_id}/inject", {"count": 2, "rate": 0, "wait": True})
        await wait_for(pilot, lambda: len(table.rows) == 2, timeout=2 * LIVE_S + 5)
        keys = [e.key for e in table.rows]
        assert keys == sorted(keys, reverse=True)  # newest first
        await pilot.press("[")  # another tab: no more looks
        await pilot.pause(0.1)
        control(emulator, f"sources/{source_id}/inject", {"count": 1, "rate": 0, "wait": True})
        await pilot.pause(LIVE_S + 1)
        assert len(table.rows) == 2
        await pilot.press("]")
        await wait_for(pilot, lambda: len(table.rows) == 3, timeout=2 * LIVE_S + 5)


async def test_a_look_that_fails_is_said_in_the_lists_line_until_one_works(make_app, emulator) -> None:
    demo = emulator.emulator.demo
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await events_tab(app, pilot, demo.order_workflow_id, tabs_before=3)
        path = f"/v1/workflows/{demo.order_workflow_id}/event_summaries"
        inject(emulator, {"path": path, "status": 400, "count": 1})  # not retried, as a 5xx is
        await wait_for(pilot, lambda: "✖ not updating:" in status_of(table), timeout=2 * LIVE_S + 5)
        await wait_for(pilot, lambda: "not updating" not in status_of(table), timeout=2 * LIVE_S + 5)
        assert not table.has_class("failed") and table.rows  # the list stayed as it was, under the line


def test_an_events_overview_shows_what_it_emitted_masked_and_cut() -> None:
    """The payload had been only in the JSON tab: to see what a replayed run emitted took a tab and a fold."""
    from types import SimpleNamespace

    from aftui.api.models import EventSummary
    from aftui.tui.screens.events import ORIGINAL_SHOWN, EventScreen

    event = EventSummary.model_validate(
        {"id": "1-0", "event": {"order_id": "ord_1", "headers": {"x-api-key": "sk_live_1"}, "note": "x" * 5000}}
    )
    rows = dict(EventScreen.overview_rows(SimpleNamespace(record=event)))  # type: ignore[arg-type]
    payload = rows["Payload"].plain
    assert payload.startswith('{"order_id": "ord_1", "headers": {"x-api-key": "****"}')
    assert len(payload) == ORIGINAL_SHOWN + 1 and payload.endswith("…")


async def test_a_look_the_service_does_not_answer_is_said_and_another_takes_its_place(
    make_app, emulator, monkeypatch
) -> None:
    """In a hang the list said nothing of it, under "live": each look was cancelled by the next, three seconds on,
    and none failed. One look at a time; unanswered past UNANSWERED_S, the list's line says so, and the next look
    takes its place: the service back, the list is current again without waiting out the held look's timeout."""
    from aftui.tui.screens import live_events

    monkeypatch.setattr(live_events, "UNANSWERED_S", 2.0)
    demo = emulator.emulator.demo
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await events_tab(app, pilot, demo.order_workflow_id, tabs_before=3)
        path = f"/v1/workflows/{demo.order_workflow_id}/event_summaries"
        inject(emulator, {"path": path, "count": 2, "delay": 60})  # two looks held, as in a hang
        await wait_for(
            pilot, lambda: "✖ not updating: the service has not answered for" in status_of(table), timeout=3 * LIVE_S
        )
        # The third look, made in the place of the second held one, is answered: not the held ones' timeout.
        await wait_for(pilot, lambda: "not updating" not in status_of(table), timeout=3 * LIVE_S + 5)
