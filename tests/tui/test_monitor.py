"""The live monitor screen, driven against the demo emulator: what arrives, filters, pause, history, export, replay keys."""

from __future__ import annotations

import asyncio
import gc
import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.drivers.headless_driver import HeadlessDriver
from textual.drivers.linux_driver import LinuxDriver
from textual.message import Message
from textual.screen import Screen
from textual.widgets import SelectionList
from tui_helpers import wait_for

from aftui.api.models import EventSummary, WorkflowError
from aftui.emulator.server import ServerHandle
from aftui.journal.store import Gap, Journal
from aftui.monitor import Matcher, Record, Target
from aftui.monitor.feeds import Gate
from aftui.replay import BulkSummary, Outcome, ReplayPlan, ReplayResult
from aftui.tui import collector
from aftui.tui.app import AftuiApp
from aftui.tui.inputdriver import input_first
from aftui.tui.screens import replay as replay_screens
from aftui.tui.screens.monitor import TAKE_EVERY_S, MonitorScreen, open_monitor
from aftui.tui.screens.sources import SourceScreen
from aftui.tui.screens.watch import WatchScreen
from aftui.tui.widgets.timeline import Timeline


def deploy(api: httpx.Client, name: str, org_id: str | None = None) -> str:
    response = api.post(
        "/sources", json={"component_id": "http-new-requests", "name": name, **({"org_id": org_id} if org_id else {})}
    )
    assert response.status_code == 200, response.text
    return response.json()["data"]["id"]


async def test_a_bursts_records_are_kept_out_of_the_collectors_way_once_it_ends(
    make_app: Callable[..., AftuiApp], src: str, emulator: ServerHandle, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The collection before a freeze walks the take's records: in a burst it waits for a take without one."""
    from aftui.tui.screens import monitor

    kept: list[int] = []
    takes: list[tuple[int, int]] = []  # after each take: (records shown, records kept)
    take = monitor.MonitorScreen._take

    def counted_take(self: monitor.MonitorScreen) -> None:
        take(self)
        takes.append((len(self.query_one(Timeline).rows), sum(kept)))

    monkeypatch.setattr(monitor, "BURST_TAKE", 5)  # a burst: 5 records a take, for the test
    monkeypatch.setattr(monitor, "rows_kept", kept.append)
    monkeypatch.setattr(monitor.MonitorScreen, "_take", counted_take)
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await monitor_on(app, pilot, [Target("source", src, "inbox")])
        kept.clear()
        inject(emulator, src, 40)
        await wait_for(pilot, lambda: bool(takes) and takes[-1] == (40, 40), timeout=10)
        shown_at = next(n for n, (shown, _) in enumerate(takes) if shown == 40)
        assert takes[shown_at][1] < 40  # the take that brought the burst's last records kept them not
        assert takes[shown_at + 1] == (40, 40)  # the next, quiet, did


def inject(emulator: ServerHandle, source_id: str, count: int, **extra: Any) -> None:
    response = httpx.post(
        f"{emulator.root_url}/_emulator/sources/{source_id}/inject",
        json={"count": count, "wait": True, **extra},
        timeout=30,
    )
    assert response.is_success, response.text


def fail_an_order(emulator: ServerHandle, order_id: str) -> None:
    """An order without customer_email: the demo's order workflow throws, one more `$errors` event."""
    key = emulator.emulator.demo.order_endpoint_key
    httpx.post(f"{emulator.root_url}/e/{key}", json={"order_id": order_id, "sku": "SKU-1", "quantity": 1}, timeout=30)


async def monitor_on(app: AftuiApp, pilot: Any, targets: list[Target]) -> MonitorScreen:
    open_monitor(app, targets)
    await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.last is not None, timeout=10)
    screen: MonitorScreen = app.screen  # type: ignore[assignment]
    await wait_for(
        pilot,
        lambda: (
            len(screen.last.states) == len(targets) and all(s.phase == "live" for _, s in screen.last.states.values())
        ),
        timeout=10,
    )
    return screen


def rows(screen: MonitorScreen) -> list[Any]:
    return [r.event.event for r in screen.query_one(Timeline).rows]


async def monitor_with(app: AftuiApp, pilot: Any, emulator: ServerHandle, src: str, count: int) -> MonitorScreen:
    """The monitor on `src`, `count` events injected and shown, its events focused."""
    screen = await monitor_on(app, pilot, [Target("source", src, "inbox")])
    inject(emulator, src, count)
    await wait_for(pilot, lambda: len(rows(screen)) == count)
    screen.query_one(Timeline).focus()
    return screen


@pytest.fixture
def src(api: httpx.Client, info: dict) -> str:
    """A fresh HTTP source in the session's workspace, with no events yet."""
    return deploy(api, "Monitor inbox", info["org_id"])


async def test_m_watches_every_source_and_events_arrive_and_are_journaled(
    make_app: Callable[..., AftuiApp], emulator: ServerHandle, src: str
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.query("#sources PagedTable")))
        await pilot.press("m")
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, MonitorScreen) and app.screen.monitor is not None and app.screen.monitor.targets
            ),
            timeout=10,
        )
        screen: MonitorScreen = app.screen  # type: ignore[assignment]
        assert src in {t.emitter_id for t in screen.monitor.targets}
        errors = {t.emitter_id for t in screen.monitor.targets if t.kind == "errors"}
        assert emulator.emulator.demo.order_workflow_id in errors, (
            "workflows named by the workspace's subscriptions: their $errors"
        )
        assert {t.kind for t in screen.monitor.targets} == {"source", "errors"}
        await wait_for(
            pilot,
            lambda: (
                screen.last is not None
                and screen.last.states.get(f"source:{src}", (None, None))[1] is not None
                and screen.last.states[f"source:{src}"][1].phase == "live"
            ),
            timeout=15,
        )
        inject(emulator, src, 5)
        await wait_for(pilot, lambda: sum(1 for r in screen.records if r.emitter_id == src) == 5)
        mine = [r for r in screen.query_one(Timeline).rows if r.emitter_id == src]
        assert [r.event.event["seq"] for r in mine] == [0, 1, 2, 3, 4]
        assert screen.query_one(Timeline).rows[-1] is mine[-1], "newest at the bottom"
        assert {r.name for r in mine} == {"Monitor inbox"}
        journal = app.session.journal
        await wait_for(pilot, lambda: journal.journal.count(src) == 5)
        await pilot.press("m")  # already open: nothing more
        assert sum(isinstance(s, MonitorScreen) for s in app.screen_stack) == 1


async def test_following_stops_on_moving_and_resumes_on_end(
    make_app: Callable[..., AftuiApp], emulator: ServerHandle, src: str
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await monitor_on(app, pilot, [Target("source", src, "inbox")])
        timeline = screen.query_one(Timeline)
        inject(emulator, src, 10)
        await wait_for(pilot, lambda: len(timeline.rows) == 10)
        assert timeline.following and timeline.cursor == 9
        await pilot.press("up", "up")
        assert not timeline.following and timeline.cursor == 7
        inject(emulator, src, 3)
        await wait_for(pilot, lambda: len(timeline.rows) == 13)
        assert timeline.cursor == 7 and timeline.current.event.event["seq"] == 7, "the selection stays put"
        await pilot.pause(0.3)
        assert screen.query_one("#monitor-json").data_value["event"]["seq"] == 7, "the detail shows the selected event"
        await pilot.press("end")
        assert timeline.following and timeline.cursor == 12
        await pilot.press("f")
        assert not timeline.following


async def test_pause_counts_what_waits_and_resume_shows_it(
    make_app: Callable[..., AftuiApp], emulator: ServerHandle, src: str
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await monitor_on(app, pilot, [Target("source", src, "inbox")])
        inject(emulator, src, 2)
        await wait_for(pilot, lambda: len(rows(screen)) == 2)
        await pilot.press("p")
        inject(emulator, src, 7)
        await wait_for(pilot, lambda: screen.waiting_total == 7)
        assert len(rows(screen)) == 2, "nothing moves while paused"
        status = str(screen.query_one("#monitor-status").render())
        assert "PAUSED" in status and "7 waiting" in status and "filter" not in status
        screen.action_errors_only()  # none of them is an error: a resume would add none, and the count says so
        status = str(screen.query_one("#monitor-status").render())
        assert "7 waiting (0 pass the filter)" in status
        inject(emulator, src, 1)
        await wait_for(pilot, lambda: screen.waiting_total == 8)
        assert screen.waiting_shown == 0
        screen.action_errors_only()
        assert screen.waiting_shown == 8 and "filter" not in str(screen.query_one("#monitor-status").render())
        await pilot.press("p")
        assert [e["seq"] for e in rows(screen)] == [0, 1, *range(7), 0]  # each injection counts from 0
        assert screen.waiting_total == 0 and "PAUSED" not in str(screen.query_one("#monitor-status").render())


async def test_pause_and_resume_on_an_empty_monitor(make_app: Callable[..., AftuiApp], src: str) -> None:
    """No row shown and nothing waiting: `p` twice pauses and resumes, and the app goes on."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await monitor_on(app, pilot, [Target("source", src, "inbox")])
        assert rows(screen) == [] and screen.waiting_total == 0
        await pilot.press("p")
        assert "PAUSED" in str(screen.query_one("#monitor-status").render())
        await pilot.press("p")
        await pilot.pause()
        assert app.is_running and app.screen is screen
        assert rows(screen) == [] and "PAUSED" not in str(screen.query_one("#monitor-status").render())


async def test_while_the_monitor_is_open_full_collections_are_its_own(
    make_app: Callable[..., AftuiApp], src: str
) -> None:
    """The interpreter makes no full collection while the monitor is open (its thread would, in a burst, with
    the GIL held while a key waits); the monitor makes them after its takes, and gives them back on close."""
    before = gc.get_threshold()
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await monitor_on(app, pilot, [Target("source", src, "inbox")])
        assert gc.get_threshold()[2] == collector.HELD_THRESHOLD
        full: list[str] = []

        def seen(phase: str, info: dict[str, int]) -> None:
            if phase == "start" and info["generation"] == 2:
                full.append(threading.current_thread().name)

        gc.callbacks.append(seen)
        try:
            collector._last_full -= collector.COLLECT_EVERY_S  # as if none was made for that long
            await wait_for(pilot, lambda: bool(full), 5)
        finally:
            gc.callbacks.remove(seen)
        assert set(full) == {threading.main_thread().name}
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is not screen)
        assert gc.get_threshold() == before


async def test_filter_by_text_and_regex_with_highlights(
    make_app: Callable[..., AftuiApp], emulator: ServerHandle, api: httpx.Client, src: str
) -> None:
    other = deploy(api, "Billing feed")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await monitor_on(app, pilot, [Target("source", src, "inbox"), Target("source", other, "Billing feed")])
        inject(emulator, src, 12)
        inject(emulator, other, 3, channel="invoices")
        await wait_for(pilot, lambda: len(rows(screen)) == 15)
        await pilot.press("slash", *"INVOICES")
        await wait_for(pilot, lambda: len(rows(screen)) == 3)
        assert {r.channel for r in screen.query_one(Timeline).rows} == {"invoices"}, (
            "plain text matches the channel, any case"
        )
        await pilot.press("enter")
        assert screen.focused is screen.query_one(Timeline)
        # The match is highlighted in the row as drawn.
        strip = screen.query_one(Timeline).render_line(0)
        match_style = screen.query_one(Timeline).get_component_rich_style("timeline--match", partial=True)
        assert any(
            seg.text.lower() == "invoices" and seg.style and seg.style.bgcolor == match_style.bgcolor for seg in strip
        )
        await pilot.press("escape")  # clears the filter
        await wait_for(pilot, lambda: len(rows(screen)) == 15)
        await pilot.press("slash", *'/"seq":1[01]\\b/', "enter")
        await wait_for(pilot, lambda: len(rows(screen)) == 2)
        assert [e["seq"] for e in rows(screen)] == [10, 11]
        await pilot.press("slash", *"billing", "enter")  # the box reopens with the filter selected: typing replaces it
        await wait_for(pilot, lambda: len(rows(screen)) == 3)
        assert {r.emitter_id for r in screen.query_one(Timeline).rows} == {other}, "the emitter's name is matched"
        await pilot.press("escape")
        assert len(rows(screen)) == 15 and screen.matcher is None


async def test_errors_only_shows_the_workflows_errors(
    make_app: Callable[..., AftuiApp], emulator: ServerHandle, src: str
) -> None:
    orders = emulator.emulator.demo.order_workflow_id
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await monitor_on(app, pilot, [Target("source", src, "inbox"), Target("errors", orders, "Orders")])
        retained = len([r for r in screen.records if r.is_error])
        assert retained > 0, "the first poll brings the errors the service keeps"
        inject(emulator, src, 4)
        fail_an_order(emulator, "ord_errors_only")
        await wait_for(pilot, lambda: len(rows(screen)) == retained + 5)
        await pilot.press("E")
        shown = screen.query_one(Timeline).rows
        assert len(shown) == retained + 1 and all(r.is_error for r in shown)
        assert shown[-1].event.error().original_event["body"]["order_id"] == "ord_errors_only"
        assert "errors only" in str(screen.query_one("#monitor-status").render())
        await pilot.press("E")
        assert len(rows(screen)) == retained + 5


async def test_export_writes_the_marked_events_as_ndjson(
    make_app: Callable[..., AftuiApp], emulator: ServerHandle, src: str, tmp_path: Path
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await monitor_on(app, pilot, [Target("source", src, "inbox")])
        inject(emulator, src, 6)
        await wait_for(pilot, lambda: len(rows(screen)) == 6)
        await pilot.press("up", "space")  # marks seq 4 and moves down to 5, as space does in every list
        assert screen.query_one(Timeline).current.event.event["seq"] == 5
        await pilot.press("up", "up", "up", "space")  # marks seq 2
        assert "2 marked" in str(screen.query_one("#monitor-status").render())
        await pilot.press("x")
        exports = tmp_path / "data" / "exports"
        await wait_for(pilot, lambda: exports.exists() and any(exports.glob("*.ndjson")))
        (path,) = exports.glob("*.ndjson")
        lines = path.read_text().splitlines()
        events = [json.loads(line) for line in lines]
        assert [e["event"]["seq"] for e in events] == [2, 4], "in the order they arrived"
        assert all(e["metadata"]["emitter_id"] == src and e["id"] for e in events)
        # Without marks, the filtered events are exported.
        await pilot.press("up", "space", "down", "space")  # unmarks 2, then 4
        await pilot.press("slash", *'/"seq":[0-2],/', "enter")
        await wait_for(pilot, lambda: len(rows(screen)) == 3)
        await pilot.press("x")
        await wait_for(pilot, lambda: len(list(exports.glob("*.ndjson"))) == 2)
        newest = max(exports.glob("*.ndjson"), key=lambda p: p.stat().st_mtime_ns)
        assert [json.loads(line)["event"]["seq"] for line in newest.read_text().splitlines()] == [0, 1, 2]


async def test_the_emitter_column_widens_to_the_names_shown(
    make_app: Callable[..., AftuiApp], emulator: ServerHandle, api: httpx.Client, info: dict
) -> None:
    long_name = "Checkout webhooks (EU)"  # 22 characters: cut to 12 at 120 columns before
    source = deploy(api, long_name, info["org_id"])
    other = deploy(api, "Other", info["org_id"])
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await monitor_on(app, pilot, [Target("source", source, long_name), Target("source", other, "Other")])
        inject(emulator, source, 2)
        await wait_for(pilot, lambda: len(rows(screen)) == 2)
        timeline = screen.query_one(Timeline)
        await wait_for(pilot, lambda: timeline.widest[0] == len(long_name))
        await pilot.pause()
        drawn = [timeline.render_line(y).text for y in range(2)]
        assert all(long_name in line for line in drawn), drawn
        # One emitter watched (a workflow's events and $errors, here one source): its name on every row took the
        # cells the payload or the error's message needs, and the bar above names it.
        screen.watch_targets([Target("source", source, long_name)])
        await pilot.pause()
        drawn = [timeline.render_line(y).text for y in range(2)]
        assert not any(long_name in line for line in drawn) and all('"seq"' in line for line in drawn), drawn
        assert long_name in str(screen.query_one("#monitor-streams").render())


async def test_c_copies_the_selected_events_json(
    make_app: Callable[..., AftuiApp], emulator: ServerHandle, src: str
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await monitor_on(app, pilot, [Target("source", src, "inbox")])
        inject(emulator, src, 3)
        await wait_for(pilot, lambda: len(rows(screen)) == 3)
        await pilot.press("up", "c")
        copied = json.loads(app.clipboard)
        assert copied["event"]["seq"] == 1 and copied["metadata"]["emitter_id"] == src


async def test_history_survives_a_restart_and_h_searches_the_journal(
    make_app: Callable[..., AftuiApp], emulator: ServerHandle, src: str
) -> None:
    target = Target("source", src, "inbox")
    first = make_app()
    async with first.run_test(size=(120, 36)) as pilot:
        screen = await monitor_on(first, pilot, [target])
        inject(emulator, src, 4)
        inject(emulator, src, 1, channel="refunds")
        await wait_for(pilot, lambda: len(rows(screen)) == 5)
    # A new app on the same data dir: the journal brings them back, marked as history.
    second = make_app()
    async with second.run_test(size=(120, 36)) as pilot:
        screen = await monitor_on(second, pilot, [target])
        await wait_for(pilot, lambda: len(rows(screen)) == 5)
        timeline = screen.query_one(Timeline)
        assert all(r.history for r in timeline.rows)
        assert [r.event.event["seq"] for r in timeline.rows] == [0, 1, 2, 3, 0]
        inject(emulator, src, 1)
        await wait_for(pilot, lambda: len(rows(screen)) == 6)
        assert not timeline.rows[-1].history
        # h: full-text search of the journal.
        await pilot.press("h", *"refunds", "enter")
        await wait_for(pilot, lambda: screen.history is not None)
        assert [r.channel for r in timeline.rows] == ["refunds"]
        assert "HISTORY" in str(screen.query_one("#monitor-status").render())
        await pilot.press("escape")
        assert screen.history is None and len(timeline.rows) == 6 and timeline.following


async def test_a_hole_in_the_journal_is_a_row_of_the_history_with_its_size(
    make_app: Callable[..., AftuiApp], emulator: ServerHandle, tmp_path: Path, src: str
) -> None:
    target = Target("source", src, "inbox")
    inject(emulator, src, 2)
    with Journal(tmp_path / "data" / "journal.sqlite3") as journal:
        journal.add_gaps([Gap(src, "1793523600000-0", "1793523660000-4", 37, "disk full")])
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await monitor_on(app, pilot, [target])
        timeline = screen.query_one(Timeline)
        await wait_for(pilot, lambda: any(r.is_gap for r in timeline.rows))
        (gap,) = [r for r in timeline.rows if r.is_gap]
        assert gap.history and gap.emitter_id == src and gap.channel == "(not kept)"
        line = "".join(segment.text for segment in timeline.render_line(timeline.rows.index(gap)))
        assert gap.summary == "⋯ 37 events not in the journal (1793523600000-0 to 1793523660000-4): disk full"
        assert line.startswith("09:01:00") and "⋯ 37 events not in the journal" in line  # at its last event's time
        timeline.move_to(timeline.rows.index(gap))
        await pilot.press("x")  # only the gap is selected: nothing of the service's to export
        await wait_for(pilot, lambda: any("Nothing to export" in n.message for n in app._notifications))
        await pilot.press("y")  # and nothing to replay
        assert app.screen is screen


async def test_a_cut_event_is_fetched_in_full_for_the_detail(
    make_app: Callable[..., AftuiApp], emulator: ServerHandle, src: str
) -> None:
    inject(emulator, src, 1, size=3000)  # over 1 KB: listed without expand, the summary is cut
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        listed = await app.session.client.list_source_events(src, limit=10)
        assert listed.items[0].truncated
        app.session.journal_events(listed.items, src)  # as the source's Events tab would
        app.session.journal.flush()
        screen = await monitor_on(app, pilot, [Target("source", src, "inbox")])
        await wait_for(pilot, lambda: len(rows(screen)) == 1)
        record = screen.query_one(Timeline).rows[0]
        assert record.history and record.summary.startswith("[cut,")
        await wait_for(pilot, lambda: not record.event.truncated, timeout=10)
        assert len(record.event.event["data"]) == 3000
        await wait_for(
            pilot, lambda: screen.query_one("#monitor-json").data_value["event"]["data"] == record.event.event["data"]
        )


async def test_m_on_a_source_detail_watches_that_source(
    make_app: Callable[..., AftuiApp], emulator: ServerHandle, src: str
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        app.push_screen(SourceScreen(src, ("Sources", "Monitor inbox")))
        await wait_for(pilot, lambda: bool(app.screen.query("#json")), timeout=10)
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.monitor is not None)
        assert app.screen.monitor.targets == [Target("source", src, "Monitor inbox")]


async def test_w_changes_what_is_watched(
    make_app: Callable[..., AftuiApp], emulator: ServerHandle, api: httpx.Client, info: dict, src: str
) -> None:
    other = deploy(api, "Second inbox", info["org_id"])
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await monitor_on(app, pilot, [Target("source", src, "inbox")])
        await pilot.press("w")
        await wait_for(pilot, lambda: isinstance(app.screen, WatchScreen))
        chooser: WatchScreen = app.screen  # type: ignore[assignment]
        listing = chooser.query_one(SelectionList)
        await wait_for(pilot, lambda: any(o.value.emitter_id == other for o in listing.options))
        listing.deselect(Target("source", src, "inbox"))
        listing.select(next(o.value for o in listing.options if o.value.emitter_id == other))
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: app.screen is screen and [t.emitter_id for t in screen.monitor.targets] == [other]
        )
        await wait_for(
            pilot,
            lambda: (
                set(screen.last.states) == {f"source:{other}"}
                and screen.last.states[f"source:{other}"][1].phase == "live"
            ),
        )
        inject(emulator, src, 2)
        inject(emulator, other, 1)
        await wait_for(pilot, lambda: len(rows(screen)) == 1)
        assert screen.query_one(Timeline).rows[0].emitter_id == other


async def test_replay_keys_hand_the_selected_and_marked_errors_to_replay(
    make_app: Callable[..., AftuiApp], emulator: ServerHandle, monkeypatch: pytest.MonkeyPatch
) -> None:
    orders = emulator.emulator.demo.order_workflow_id
    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(
        replay_screens,
        "open_replay",
        lambda app, event, workflow_id, edit=False: calls.append(("one", event.id, workflow_id, edit)),
    )
    monkeypatch.setattr(
        replay_screens,
        "open_bulk_replay",
        lambda app, events, workflow_id, done=None: calls.append(("bulk", [e.id for e in events], workflow_id, done)),
    )
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await monitor_on(app, pilot, [Target("errors", orders, "Orders")])
        timeline = screen.query_one(Timeline)
        await wait_for(pilot, lambda: len(timeline.rows) >= 3)
        newest, before, older = timeline.rows[-1], timeline.rows[-2], timeline.rows[-3]
        await pilot.press("y")
        await pilot.press("e")
        assert calls == [("one", newest.event.id, orders, False), ("one", newest.event.id, orders, True)]
        calls.clear()
        # the newest (the last row: the cursor stays), then older and the one before it (each moves down after)
        await pilot.press("space", "up", "up", "space", "up", "up", "space")
        marked = sorted([newest, older, timeline.rows[-4]], key=lambda r: r.event.key)
        assert before.n not in timeline.marked
        await pilot.press("R")
        (bulk,) = calls
        assert bulk[:3] == ("bulk", [r.event.id for r in marked], orders), "marked errors, in their original order"
        # Back from the bulk replay: the mark of the one replayed ok goes, the others' stay.
        plans = {r.event.id: Outcome("succeeded" if r is older else "failed", "") for r in marked}
        bulk[3](BulkSummary(3, [ReplayResult(_plan(r.event), None, None, None, plans[r.event.id]) for r in marked]))
        assert timeline.marked == {newest.n, timeline.rows[-4].n}
        assert "2 marked" in str(screen.query_one("#monitor-status").render())


def _plan(event: EventSummary) -> ReplayPlan:
    return ReplayPlan(event, event.error() or WorkflowError(), "p_x", None, "HTTP trigger")


async def test_the_timeline_keeps_at_most_its_cap_and_the_selection_in_view(
    make_app: Callable[..., AftuiApp], emulator: ServerHandle, src: str
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await monitor_on(app, pilot, [Target("source", src, "inbox")])
        timeline = screen.query_one(Timeline)
        timeline.cap = 50  # a small cap, for the test
        inject(emulator, src, 40)
        await wait_for(pilot, lambda: len(timeline.rows) == 40)
        await pilot.press("up")  # stop following on seq 38
        chosen = timeline.current
        top = timeline.scroll_offset.y
        inject(emulator, src, 30)  # 20 of the oldest must go
        await wait_for(pilot, lambda: timeline.rows[-1].event.event["seq"] == 29 and len(timeline.rows) == 50)
        assert timeline.current is chosen, "the selected event is still the selected one"
        index = timeline.rows.index(chosen)
        assert (
            timeline.scroll_offset.y <= index < timeline.scroll_offset.y + timeline.scrollable_content_region.height
        ), "still in view"
        assert timeline.scroll_offset.y <= top
        assert timeline.rows[0].event.event["seq"] == 20


async def test_a_key_press_holds_the_feeds_until_its_frame_is_drawn(
    make_app: Callable[..., AftuiApp], emulator: ServerHandle, src: str
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await monitor_on(app, pilot, [Target("source", src, "Monitor inbox")])
        gate = screen.monitor.gate
        held: list[float] = []
        app.input_listeners.append(lambda: held.append(gate.until))  # told after the App's own listener
        await pilot.press("f")
        assert held and held[0] > 0, "the key held the gate before it was handled"
        await wait_for(pilot, lambda: gate.until == 0.0)  # opened once the frame was drawn
        inject(emulator, src, 3)  # and the feeds run again
        await wait_for(pilot, lambda: sum(1 for r in screen.records if r.emitter_id == src) == 3)


async def test_the_driver_holds_the_feeds_as_a_key_arrives_before_the_app_has_it(
    make_app: Callable[..., AftuiApp], emulator: ServerHandle, src: str
) -> None:
    app = make_app()
    assert issubclass(app.driver_class, LinuxDriver) and app.driver_class is input_first(LinuxDriver)
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await monitor_on(app, pilot, [Target("source", src, "Monitor inbox")])
        gate = screen.monitor.gate
        handled: list[bool] = []
        app.input_listeners.append(lambda: handled.append(True))
        driver = input_first(HeadlessDriver)(app, size=(120, 36))  # what run_test drives, input-first

        def on_input_thread(message: Message) -> None:
            thread = threading.Thread(target=driver.process_message, args=(message,))
            thread.start()
            thread.join()

        on_input_thread(events.AppFocus())
        assert gate.until == 0.0, "only a key or a click holds the feeds"
        on_input_thread(events.Key("f", "f"))
        assert gate.until > 0 and not handled, "held on the input thread, before the app's loop had the key"
        await wait_for(pilot, lambda: bool(handled) and gate.until == 0.0)  # handled, its frame drawn, let go


async def test_a_keys_frame_is_painted_as_its_change_reaches_the_screen_not_at_the_next_tick(
    make_app: Callable[..., AftuiApp], emulator: ServerHandle, src: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await monitor_on(app, pilot, [Target("source", src, "Monitor inbox")])
        await pilot.pause()  # the pilot paints by hand: from here on it is not used, so every frame is the app's

        def status() -> str:
            return str(screen.query_one("#monitor-status").render())

        painted: list[str] = []
        display = app._display

        def record(on: Screen[Any], update: Any) -> None:
            painted.append(status())
            display(on, update)

        at_once: list[str] = []
        update = screen._on_timer_update  # what the update timer ticks: the method, not the wrapper below

        def paint_at_once() -> None:
            at_once.append(status())
            update()

        async def painted_with(text: str, present: bool = True) -> None:
            deadline = time.monotonic() + 5
            while not painted or (text in painted[-1]) is not present:
                assert time.monotonic() < deadline, f"never painted: {text!r} {'in' if present else 'gone'}"
                await asyncio.sleep(0.01)

        monkeypatch.setattr(app, "_display", record)
        monkeypatch.setattr(screen, "_on_timer_update", paint_at_once)
        app.post_message(events.Key("f", "f"))
        await painted_with("not following")
        assert at_once and "not following" in at_once[0], "painted at once, with the key's change"
        # A change no key asked for (an action once the key's hold is over) keeps the timer's pace.
        at_once.clear()
        assert not screen.monitor.gate.answering_input, "the key's frame painted, its hold ended"
        await app.run_action("follow", screen)
        await painted_with("not following", present=False)
        assert at_once == []
        # Nor is a key hurried when nothing competes with it: without the feeds running, Textual's pace.
        monkeypatch.setattr(app, "_running_feeds", lambda: None)
        app.post_message(events.Key("f", "f"))
        await painted_with("not following")
        assert at_once == []


async def test_a_held_gate_stops_a_feed_between_events_and_lets_it_go_when_opened() -> None:
    gate = Gate()
    gate.hold(5)
    waiting = asyncio.create_task(gate.passage())
    await asyncio.sleep(0.03)
    assert not waiting.done()
    gate.open()
    await asyncio.wait_for(waiting, 1)
    gate.hold(0.02)  # a hold that runs out opens by itself
    await asyncio.wait_for(gate.passage(), 1)
    assert gate.until == 0.0


def test_a_keys_hold_outlives_a_takes_and_is_told_apart_from_it() -> None:
    gate = Gate()
    gate.hold(5)  # a take's frame
    assert not gate.answering_input
    gate.let_go()
    assert gate.until == 0.0
    gate.hold(5, for_input=True)
    held = gate.until
    gate.hold(5)  # a take's frame drawn while a key is on its way
    gate.let_go()
    assert gate.answering_input and gate.until == held, "the key's hold stays"
    gate.open()  # the key's frame is painted
    assert (gate.answering_input, gate.until) == (False, 0.0)
    gate.hold(0.0, for_input=True)
    assert not gate.answering_input, "a key's hold that ran out is over"


async def test_a_take_waits_while_a_key_is_answered_but_never_more_than_a_tick(
    make_app: Callable[..., AftuiApp], emulator: ServerHandle, src: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await monitor_on(app, pilot, [Target("source", src, "Monitor inbox")])
        assert screen.monitor is not None
        taken: list[bool] = []
        take = screen.monitor.take
        monkeypatch.setattr(screen.monitor, "take", lambda: taken.append(True) or take())
        screen.monitor.gate.hold(5, for_input=True)
        screen._took_at = time.monotonic()
        screen._take()
        assert not taken, "the key's frame comes first"
        screen._took_at = time.monotonic() - 2 * TAKE_EVERY_S
        screen._take()
        assert taken, "a take put off once is not put off again"
        screen.monitor.gate.open()
        screen._took_at = time.monotonic()
        screen._take()
        assert len(taken) == 2


class _TimelineApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Timeline()


@pytest.mark.parametrize("width", [40, 78, 118])
async def test_a_plain_row_is_drawn_exactly_as_the_general_path_draws_it(width: int) -> None:
    target = Target("source", "dc_1", "Webhook inbox — 東京")
    error = {"error": {"code": "ValidationError", "msg": "Missing field"}, "original_event": {}}
    events = [
        EventSummary(id="1793523600000-1", event={"method": "POST", "path": "/errors"}, metadata={"name": "default"}),
        EventSummary(id="1793523600000-2", event=error, metadata={"name": "$errors"}),
        EventSummary(id="1793523600000-3", event="x" * 500, metadata={"name": "a channel wider than its column"}),
        EventSummary(id="1793523600000-4", event="", metadata={}),
    ]
    app = _TimelineApp()
    async with app.run_test(size=(120, 10)):
        timeline = app.query_one(Timeline)
        timeline._base = timeline.rich_style
        for show_names in (True, False):  # False: one emitter watched, no name column
            timeline.show_names = show_names
            for n, event in enumerate(events):
                record = Record(n, target, event, 0.0)
                plain = timeline._plain_row(record, width)
                timeline.matcher = Matcher.parse("matches-nothing-here")  # the general (Text) path, no highlight
                general = timeline._render_row(record, width, False, False)
                timeline.matcher = None
                assert [(s.text, s.style) for s in plain] == [(s.text, s.style) for s in general]
                assert plain.cell_length == general.cell_length == width
                assert ("Webhook inbo" in plain.text) is show_names


def test_the_detail_of_an_error_a_replay_led_to_says_so() -> None:
    from aftui.tui.screens.monitor_lines import detail_head

    target = Target("errors", "p_xyz", "Validate orders")
    error = {
        "original_event": {"headers": {"x-aftui-replay": "rp_1"}, "body": {}},
        "original_context": {"workflow_name": "Validate orders"},
        "error": {"code": "ValidationError", "msg": "Missing required field"},
    }

    def head(payload: dict) -> str:
        event = EventSummary.model_validate(
            {"id": "1-0", "event": payload, "metadata": {"emitter_id": "p_xyz", "name": "$errors"}}
        )
        return detail_head(Record(1, target, event, 0.0)).plain

    assert "↻ a replay of an earlier error, failed again" in head(error)
    assert "↻" not in head({**error, "original_event": {"body": {}}})


async def test_a_monitor_opened_while_the_service_fails_watches_the_workspace_once_it_is_back(
    make_app, emulator
) -> None:
    """Opened during an outage, the monitor said the sources could not be listed and stayed empty for good."""
    root, org = emulator.root_url, emulator.emulator.demo.org_id
    fault = {"path": f"/v1/orgs/{org}/sources", "method": "GET", "status": 503, "count": 100_000}
    httpx.post(f"{root}/_emulator/faults", json=fault).raise_for_status()
    app = make_app(start_pane="webhooks")  # Health, which lists the sources too, is not the first pane
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.press("m")
            await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen))
            screen = app.screen
            status = screen.query_one("#monitor-status")
            await wait_for(pilot, lambda: "the workspace not listed: trying again in" in str(status.render()), 30)

            def said() -> list[str]:
                return [n.title for n in app._notifications if "Could not list the workspace's sources" in n.message]

            # The notification is a message the App takes a turn later than the status line is drawn (CI h1).
            await wait_for(pilot, lambda: bool(said()), 10)
            assert said() == ["The service said"]
            httpx.delete(f"{root}/_emulator/faults").raise_for_status()
            await wait_for(pilot, lambda: bool(screen.monitor and screen.monitor.targets), 30)
            assert "not listed" not in str(status.render())
    finally:
        httpx.delete(f"{root}/_emulator/faults").raise_for_status()


async def test_a_monitor_opened_in_an_outage_watches_what_health_listed_until_the_workspace_is(
    make_app, emulator
) -> None:
    """Opened during a 503 the monitor said "no streams" and showed nothing (an on-call walk): it watches the
    sources and workflows Health listed before, until the workspace can be listed again."""
    root, org = emulator.root_url, emulator.emulator.demo.org_id
    app = make_app(start_pane="health")
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: app.health is not None and app.health.counted, timeout=20)
        known = len(app.health.board.subjects())
        fault = {"path": f"/v1/orgs/{org}/sources", "method": "GET", "status": 503, "count": 100_000}
        httpx.post(f"{root}/_emulator/faults", json=fault).raise_for_status()
        try:
            await pilot.press("m")
            await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen))
            screen = app.screen
            status = screen.query_one("#monitor-status")
            words = f"the workspace not listed: watching the {known} Health knows"
            await wait_for(pilot, lambda: words in str(status.render()), 30, says=lambda: str(status.render()))
            assert screen.monitor is not None and len(screen.monitor.targets) == known
        finally:
            httpx.delete(f"{root}/_emulator/faults").raise_for_status()
        await wait_for(pilot, lambda: "not listed" not in str(status.render()), 30)
        assert not screen._standing_in


async def test_p_is_offered_as_resume_while_paused(make_app) -> None:
    """The footer said "p Pause" while the monitor was paused; the status line said "p resumes"."""
    app = make_app(start_pane="sources")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen))

        def offered() -> str:
            return app.screen.active_bindings["p"].binding.description

        assert offered() == "Pause"
        await pilot.press("p")
        await wait_for(pilot, lambda: app.screen.paused and offered() == "Resume")
        await pilot.press("p")
        await wait_for(pilot, lambda: not app.screen.paused and offered() == "Pause")


async def test_enter_opens_the_events_detail_and_esc_comes_back_to_the_events(
    make_app: Callable[..., AftuiApp], emulator: ServerHandle, src: str
) -> None:
    """The key table says enter opens the highlighted row; in the monitor it did nothing."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await monitor_with(app, pilot, emulator, src, 2)
        await pilot.press("d")  # the detail hidden: enter shows it
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        detail = screen.query_one("#monitor-json")
        assert screen.query_one("#monitor-detail").display and app.focused is detail
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and app.focused is screen.query_one(Timeline)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is not screen)


async def test_pause_at_once_holds_what_arrives_not_the_journals_history(
    make_app: Callable[..., AftuiApp], emulator: ServerHandle, src: str
) -> None:
    """`m` then `p` at once: the status said "PAUSED 576 waiting · 0 shown", the history held back too."""
    inject(emulator, src, 3)
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        listed = await app.session.client.list_source_events(src, limit=10, expand=True)
        app.session.journal_events(listed.items, src)  # seen before the monitor opens: its history
        app.session.journal.flush()
        open_monitor(app, [Target("source", src, "inbox")])
        await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen) and bool(app.screen.query(Timeline)))
        screen: MonitorScreen = app.screen  # type: ignore[assignment]
        screen.paused = True  # before the first take, as p pressed with the monitor's opening
        await wait_for(pilot, lambda: len(rows(screen)) == 3, timeout=10)
        assert screen.waiting_total == 0
        inject(emulator, src, 2)
        await wait_for(pilot, lambda: screen.waiting_total == 2, timeout=10)
        assert len(rows(screen)) == 3, "what arrives waits"


async def test_esc_over_marked_events_asks_before_it_leaves_the_monitor(
    make_app: Callable[..., AftuiApp], emulator: ServerHandle, src: str
) -> None:
    """A pane key refused to drop the marks; esc dropped them without a word."""
    from aftui.tui.modals.confirm import ConfirmScreen

    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await monitor_with(app, pilot, emulator, src, 3)
        await pilot.press("up", "space")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "The marked event here is unmarked" in " ".join(app.screen.what)
        await pilot.press("escape")  # stay
        await wait_for(pilot, lambda: app.screen is screen)
        assert len(screen.query_one(Timeline).marked) == 1
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: app.screen is not screen and not isinstance(app.screen, ConfirmScreen))


async def test_a_filter_that_is_not_a_valid_regex_says_so_in_the_status_line(
    make_app: Callable[..., AftuiApp], emulator: ServerHandle, src: str
) -> None:
    """`/[a-/` showed "0 shown" and no word: read as "nothing matches"."""
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await monitor_with(app, pilot, emulator, src, 2)
        await pilot.press("slash", *"/[a-/", "enter")
        status = screen.query_one("#monitor-status")
        await wait_for(pilot, lambda: "not a valid regex" in str(status.render()))
