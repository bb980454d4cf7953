"""The monitor's feeds against the emulator: SSE drops, polls, journal and history across restarts."""

from __future__ import annotations

import asyncio
import time

import httpx

from aftui.api import Client
from aftui.emulator.server import ServerHandle
from aftui.monitor import Target
from aftui.monitor.dedupe import FeedCursor
from aftui.monitor.feeds import Deliver, Report, poll_feed

from .conftest import Taker, deploy, inject


def test_a_forced_drop_loses_nothing_and_repeats_nothing(
    emulator: ServerHandle, api: httpx.Client, make_monitor
) -> None:
    src = deploy(api)
    other = deploy(api, "second")
    monitor, writer = make_monitor()
    monitor.watch([Target("source", src, "first"), Target("source", other, "second")])
    taker = Taker(monitor)
    taker.until(
        lambda: taker.phase(f"source:{src}") == "live" and taker.phase(f"source:{other}") == "live", "both streams live"
    )
    total = 200
    inject(emulator, src, total, rate=400)  # arrives over half a second
    inject(emulator, other, 50, rate=400)
    taker.until(lambda: len(taker.records) >= 60, "the first events")
    dropped = httpx.post(f"{emulator.root_url}/_emulator/sse/drop", json={}).json()["dropped"]
    assert dropped == 2
    taker.until(lambda: len(taker.records) >= total + 50, "every event")
    time.sleep(0.3)  # room for a repeat to show up
    taker.take()
    mine = [r for r in taker.records if r.emitter_id == src]
    assert [r.event.event["seq"] for r in mine] == list(range(total)), "every event once, in order"
    pairs = [(r.emitter_id, r.event.id) for r in taker.records]  # ids are per emitter: both sources count from 0
    assert len(set(pairs)) == len(pairs) == total + 50
    assert {r.name for r in taker.records} == {"first", "second"}
    taker.until(
        lambda: writer.journal.count(src) == total and writer.journal.count(other) == 50, "the journal to have them all"
    )


def test_polled_errors_are_delivered_once(emulator: ServerHandle, make_monitor) -> None:
    orders = emulator.emulator.demo.order_workflow_id
    key = emulator.emulator.demo.order_endpoint_key
    monitor, writer = make_monitor()
    monitor.watch([Target("errors", orders, "orders")])
    taker = Taker(monitor)
    # The first poll brings the retained $errors (the demo's history), each once, in the take that says live.
    taker.until(lambda: taker.phase(f"errors:{orders}") == "live", "the first poll")
    assert taker.records, "live, and the kept errors not shown"
    retained = len(taker.records)
    time.sleep(0.5)  # five more polls of the same list
    taker.take()
    assert len(taker.records) == retained
    # An order without customer_email fails: one new $errors event, once.
    httpx.post(f"{emulator.root_url}/e/{key}", json={"order_id": "ord_monitor", "sku": "X", "quantity": 1})
    taker.until(lambda: len(taker.records) == retained + 1, "the new error")
    time.sleep(0.5)
    taker.take()
    assert len(taker.records) == retained + 1
    assert len(set(taker.ids)) == len(taker.ids)
    newest = taker.records[-1]
    assert newest.is_error and newest.event.error().original_event["body"]["order_id"] == "ord_monitor"
    assert "Missing required field: customer_email" in newest.summary
    taker.until(lambda: writer.journal.count(orders) == retained + 1, "the journal to have them")


def test_a_failing_poll_backs_off_says_why_and_recovers(emulator: ServerHandle, make_monitor) -> None:
    orders = emulator.emulator.demo.order_workflow_id
    path = f"/v1/workflows/{orders}/$errors/event_summaries"
    fault = httpx.post(
        f"{emulator.root_url}/_emulator/faults", json={"path": path, "count": 6, "status": 503}
    )  # beyond the client's own 4 tries
    assert fault.is_success, fault.text
    monitor, _ = make_monitor(poll_interval_s=0.05)
    monitor.watch([Target("errors", orders, "orders")])
    taker = Taker(monitor)
    seen: list[str] = []

    def live() -> bool:
        pair = taker.states.get(f"errors:{orders}")
        if pair:
            seen.append(str(pair[1]))
        return taker.phase(f"errors:{orders}") == "live"

    taker.until(live, "the poll to recover", timeout=20)
    assert any(s.startswith("reconnecting") for s in seen), seen
    taker.until(lambda: bool(taker.records), "the retained errors")
    assert len(set(taker.ids)) == len(taker.ids)


def test_an_unknown_source_fails_with_the_reason(make_monitor) -> None:
    monitor, _ = make_monitor()
    monitor.watch([Target("source", "dc_doesnotexist", "ghost")])
    taker = Taker(monitor)
    taker.until(lambda: taker.phase("source:dc_doesnotexist") == "failed", "the stream to fail")
    assert taker.states["source:dc_doesnotexist"][1].reason


def test_history_comes_back_after_a_restart_and_live_events_follow_it(
    emulator: ServerHandle, api: httpx.Client, make_monitor
) -> None:
    src = deploy(api)
    target = Target("source", src, "inbox")
    monitor, writer = make_monitor()
    monitor.watch([target])
    taker = Taker(monitor)
    taker.until(lambda: taker.phase(target.key) == "live", "live")
    inject(emulator, src, 5)
    taker.until(lambda: len(taker.records) == 5, "five events")
    first_ids = taker.ids
    monitor.close()
    writer.close()
    writer.journal.close()
    # Restart: a new journal writer and monitor on the same file.
    inject(emulator, src, 2)  # while aftui was closed: brought back by resuming after the journal's newest
    again, _ = make_monitor()
    again.watch([target])
    after = Taker(again)
    after.until(lambda: len(after.records) >= 7 and after.phase(target.key) == "live", "history and missed events")
    assert after.ids[:5] == first_ids and all(r.history for r in after.records[:5])
    assert not any(r.history for r in after.records[5:])
    inject(emulator, src, 1)
    after.until(lambda: len(after.records) == 8, "a live event")
    time.sleep(0.2)
    after.take()
    assert len(after.records) == 8 and len(set(after.ids)) == 8


def test_search_finds_journaled_events_of_watched_emitters(
    emulator: ServerHandle, api: httpx.Client, make_monitor
) -> None:
    src = deploy(api)
    target = Target("source", src, "inbox")
    monitor, writer = make_monitor()
    monitor.watch([target])
    taker = Taker(monitor)
    taker.until(lambda: taker.phase(target.key) == "live", "live")
    inject(emulator, src, 3, channel="invoices")
    taker.until(lambda: len(taker.records) == 3, "three events")
    taker.until(lambda: writer.journal.count(src) == 3, "the journal to have them")
    found = monitor.search("invoices")
    assert [r.event.id for r in found] == taker.ids
    assert all(r.history and r.target == target for r in found)
    assert monitor.search("nothing-like-this-anywhere") == []


def test_an_unwatched_feed_stops(emulator: ServerHandle, api: httpx.Client, make_monitor) -> None:
    src, other = deploy(api), deploy(api, "other")
    first, second = Target("source", src, "a"), Target("source", other, "b")
    monitor, _ = make_monitor()
    monitor.watch([first, second])
    taker = Taker(monitor)
    taker.until(lambda: taker.phase(first.key) == taker.phase(second.key) == "live", "both live")
    monitor.watch([first])
    taker.until(lambda: second.key not in taker.states, "the second to stop")
    inject(emulator, other, 3)
    inject(emulator, src, 1)
    taker.until(lambda: len(taker.records) == 1, "the watched one's event")
    time.sleep(0.2)
    taker.take()
    assert [r.emitter_id for r in taker.records] == [src]


def test_changes_in_quick_succession_start_each_feed_once(
    emulator: ServerHandle, api: httpx.Client, make_monitor
) -> None:
    src, other = deploy(api), deploy(api, "other")
    first, second = Target("source", src, "a"), Target("source", other, "b")
    monitor, _ = make_monitor()
    monitor.watch([first])
    monitor.watch([first, second])  # while the first feed may still be reading its history
    monitor.watch([first, second])
    taker = Taker(monitor)
    taker.until(lambda: taker.phase(first.key) == taker.phase(second.key) == "live", "both live")
    inject(emulator, src, 3)
    taker.until(lambda: len(taker.records) == 3, "three events")
    time.sleep(0.3)  # room for a second feed's copies to show up
    taker.take()
    assert [r.event.event["seq"] for r in taker.records] == [0, 1, 2]


def test_what_the_service_kept_from_before_is_shown_and_journaled_but_not_counted_as_arriving(
    emulator: ServerHandle, api: httpx.Client, make_monitor
) -> None:
    """Opening on a source with events already, or on a workflow's $errors, reads the service's window at
    once: the rate counted it as a burst of that second. Only what arrives once the feed is open counts."""
    source = deploy(api, "kept")
    inject(emulator, source, 30)
    orders = emulator.emulator.demo.order_workflow_id
    monitor, writer = make_monitor()
    monitor.watch([Target("source", source, "kept"), Target("errors", orders, "orders")])
    taker = Taker(monitor)
    taker.until(lambda: sum(r.emitter_id == source for r in taker.records) == 30, "the source's kept events")
    taker.until(lambda: any(r.emitter_id == orders for r in taker.records), "the workflow's kept $errors")
    assert all(r.backlog and not r.history for r in taker.records)
    taker.until(lambda: writer.journal.count(source) == 30, "the kept events journaled")
    time.sleep(1.1)  # the rate counts whole seconds
    assert sum(monitor.take().rates) == 0
    inject(emulator, source, 7)
    taker.until(lambda: sum(not r.backlog for r in taker.records) == 7, "the new events")
    time.sleep(1.1)
    assert sum(monitor.take().rates) == 7


def errors_poll(
    info: dict, workflow_id: str, deliver: Deliver, report: Report, interval_s: float = 2.0
) -> tuple[asyncio.Task[None], Client]:
    """A poll of the workflow's `$errors` on a client of its own, started: its task, and the client to close."""
    client = Client(info["base_url"], api_key=info["api_key"], org_id=info["org_id"])
    target = Target("errors", workflow_id, "orders")
    feed = asyncio.create_task(poll_feed(client, target, FeedCursor(), deliver, report, interval_s=interval_s))
    return feed, client


def test_a_poll_says_live_only_once_what_the_service_kept_is_delivered(emulator: ServerHandle, info: dict) -> None:
    """The UI takes from the feeds' thread at any moment: "live" told before the kept errors were delivered
    showed an empty feed as caught up, for a take."""
    orders = emulator.emulator.demo.order_workflow_id
    told: list[object] = []

    async def first_poll() -> None:
        feed, client = errors_poll(
            info,
            orders,
            lambda _target, events, _backlog: told.append(len(events)),
            lambda _target, state: told.append(state.phase),
        )
        while "live" not in told:
            await asyncio.sleep(0.01)
        feed.cancel()
        await client.aclose()

    asyncio.run(asyncio.wait_for(first_poll(), timeout=10))
    assert told[0] == "connecting" and told[2] == "live", told
    assert isinstance(told[1], int) and told[1] > 0, "the demo's kept errors, before live"


def test_a_poll_answered_late_says_so_until_it_is(emulator: ServerHandle, info: dict, monkeypatch) -> None:
    """The service taking the request and answering none: the feed said "live" for the client's whole timeout,
    and Health nothing of its figures behind. Past SLOW_POLL_S it says "reconnecting (no answer in …)"."""
    from aftui.monitor import feeds

    monkeypatch.setattr(feeds, "SLOW_POLL_S", 1.0)
    orders = emulator.emulator.demo.order_workflow_id
    path = f"/v1/workflows/{orders}/$errors/event_summaries"
    told: list[str] = []

    async def polls() -> None:
        feed, client = errors_poll(
            info, orders, lambda _target, _events, _backlog: None, lambda _target, state: told.append(str(state)), 0.05
        )
        while "live" not in told:
            await asyncio.sleep(0.01)
        fault = httpx.post(f"{emulator.root_url}/_emulator/faults", json={"path": path, "count": 1, "delay": 2.5})
        assert fault.is_success, fault.text
        while told[-1] != "live" or len(told) < 3:
            await asyncio.sleep(0.01)
        feed.cancel()
        await client.aclose()

    asyncio.run(asyncio.wait_for(polls(), timeout=15))
    assert told == ["connecting", "live", "reconnecting (no answer in 1 s)", "live"], told
