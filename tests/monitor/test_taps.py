"""Taps: readers sharing one Monitor read each stream once and get only what they watch."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import httpx

from aftui.api import Client
from aftui.emulator.server import ServerHandle
from aftui.journal import Journal, JournalWriter
from aftui.monitor import Monitor, Target

from .conftest import Taker, deploy, inject


def _streams_open(emulator: ServerHandle) -> int:
    """Drops every SSE stream the emulator serves (the feeds reconnect) and says how many there were."""
    return int(httpx.post(f"{emulator.root_url}/_emulator/sse/drop", json={}).json()["dropped"])


def test_two_taps_share_one_stream_per_source_and_each_gets_what_it_watches(
    emulator: ServerHandle, api: httpx.Client, make_monitor
) -> None:
    first, second = deploy(api, "first"), deploy(api, "second")
    monitor, writer = make_monitor()
    both, one = monitor.tap(), monitor.tap()
    both.watch([Target("source", first, "first"), Target("source", second, "second")])
    one.watch([Target("source", first, "first")])
    takes = Taker(both), Taker(one)
    for taker in takes:
        taker.until(lambda taker=taker: taker.phase(f"source:{first}") == "live", "the first source live")
    takes[0].until(lambda: takes[0].phase(f"source:{second}") == "live", "the second source live")
    assert set(takes[1].states) == {f"source:{first}"}, "a tap hears only of its own feeds"
    assert _streams_open(emulator) == 2, "one stream per source, however many taps want it"
    inject(emulator, first, 30)
    inject(emulator, second, 10)
    takes[0].until(lambda: len(takes[0].records) == 40, "both sources' events")
    takes[1].until(lambda: len(takes[1].records) == 30, "the first source's events")
    assert {r.emitter_id for r in takes[1].records} == {first}
    assert takes[1].monitor.take().total == 30
    takes[0].until(lambda: writer.journal.count(first) == 30, "the journal to have them")


def _a_second_tap_joins_after_20_events(
    emulator: ServerHandle, monitor: Monitor, source: str, first_saw: Callable[[int], bool], what: str
) -> None:
    """A first tap is handed 20 events (`first_saw(count)` says when it has enough); a second tap joins. It is
    shown those 20 as history, then what comes live, nothing twice."""
    target = Target("source", source, "hooks")
    early = monitor.tap()
    early.watch([target])
    first = Taker(early)
    first.until(lambda: first.phase(target.key) == "live", "the stream live")
    inject(emulator, source, 20)
    first.until(lambda: first_saw(len(first.records)), what)
    late = monitor.tap(history=50)
    late.watch([target])
    joined = Taker(late)
    joined.until(lambda: len(joined.records) == 20, "the first tap's 20 events, in the joining tap's history")
    assert all(r.history for r in joined.records)
    inject(emulator, source, 5)
    joined.until(lambda: len(joined.records) == 25, "the new events")
    time.sleep(0.3)  # room for a repeat to show up
    joined.take()
    assert len({r.event.id for r in joined.records}) == 25, "nothing twice"
    assert sum(not r.history for r in joined.records) == 5


def test_a_tap_joining_a_running_feed_is_shown_its_history_once_then_what_comes(
    emulator: ServerHandle, api: httpx.Client, make_monitor
) -> None:
    source = deploy(api)
    monitor, writer = make_monitor()
    _a_second_tap_joins_after_20_events(
        emulator, monitor, source, lambda n: n == 20 and writer.journal.count(source) == 20, "20 events journaled"
    )


def test_a_tap_joining_is_shown_what_other_taps_saw_before_the_journal_wrote_it(
    emulator: ServerHandle, api: httpx.Client, client: Client, journal_path: Path
) -> None:
    """In a burst the journal's writer is behind: what the first tap was handed and the writer has not written
    yet belongs in the history of a tap joining then. It used to be in neither its history nor its live events."""
    source = deploy(api)
    writer = JournalWriter(Journal(journal_path), interval=600)  # writes when asked: always behind, here
    monitor = Monitor(client, writer=writer, poll_interval_s=0.1)
    try:
        _a_second_tap_joins_after_20_events(
            emulator,
            monitor,
            source,
            lambda n: n == 20 and writer.journal.count(source) == 0,
            "the first tap's 20 events, none of them written yet",
        )
    finally:
        monitor.close()
        writer.close()
        writer.journal.close()


def test_a_closed_tap_stops_only_the_feeds_no_other_tap_wants(
    emulator: ServerHandle, api: httpx.Client, make_monitor
) -> None:
    first, second = deploy(api, "first"), deploy(api, "second")
    monitor, _ = make_monitor()
    leaving, staying = monitor.tap(), monitor.tap()
    leaving.watch([Target("source", first, "first"), Target("source", second, "second")])
    staying.watch([Target("source", second, "second")])
    taker = Taker(staying)
    taker.until(lambda: taker.phase(f"source:{second}") == "live", "the shared source live")
    leaving.close()
    deadline = time.monotonic() + 10
    while _streams_open(emulator) != 1:  # the first source's feed ends as the Monitor's thread gets to it
        assert time.monotonic() < deadline, "the feed nobody wants still streams"
        time.sleep(0.1)
    taker.until(lambda: taker.phase(f"source:{second}") == "live", "the shared source live again")
    inject(emulator, second, 3)
    taker.until(lambda: len(taker.records) == 3, "its events")
    monitor.close()
    assert staying.closed, "a tap of a closed Monitor says so (the screen taps the session's next one)"
