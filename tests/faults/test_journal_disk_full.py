"""A full disk during a burst: said at once, nothing stored is damaged, writing resumes by itself when space returns,
and what could not be kept is fetched back from the service while it still has it, or marked as a gap with its size.

The disk is real: a tmpfs of a few MB holding the journal, filled by a file, the file then removed.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from aftui.api import Client
from aftui.api.models import EventSummary
from aftui.emulator.server import ServerHandle
from aftui.journal import Journal, JournalWriter
from aftui.monitor import Batch, Monitor, Target

from .journal_mounts import fill, free, tmpfs

T0 = 1_700_000_000_000


def ev(i: int) -> EventSummary:
    return EventSummary(
        id=f"{T0 + i}-0", event={"n": i, "note": "parcel " + "y" * 1000}, metadata={"emitter_id": "dc_full"}
    )


def wait_for(predicate: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def sound(path: Path) -> bool:
    db = sqlite3.connect(path)
    try:
        return db.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    finally:
        db.close()


def test_a_full_disk_is_said_nothing_stored_is_damaged_and_writing_resumes_when_space_returns(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with tmpfs(tmp_path / "disk", "4m") as disk:
        path = disk / "journal.sqlite3"
        journal = Journal(path)
        writer = JournalWriter(journal, interval=0.05)
        try:
            writer.add([ev(i) for i in range(200)])
            wait_for(lambda: journal.count() == 200, "the first events")
            before = [e.id for e in journal.recent(limit=200)]
            filler = fill(disk)

            with caplog.at_level(logging.ERROR, logger="aftui.journal"):
                writer.add([ev(i) for i in range(200, 1400)])  # 1.2 MB of events: more than any room SQLite kept
                wait_for(lambda: writer.status().state == "failing", "the writer to meet the full disk")
                status = writer.status()
                assert status.why == "disk full" and status.since is not None
                assert status.lost == 0 and status.waiting > 0
                assert journal.count() + status.waiting == 1400  # each event stored or waiting: none lost
                assert "journal: disk full since" in status.text() and "waiting" in status.text()
                time.sleep(1.0)  # several retries against the full disk
                assert writer.status().state == "failing"
            assert [r.levelname for r in caplog.records if "journal write failed" in r.getMessage()] == ["ERROR"]

            # Nothing already journaled is damaged.
            assert sound(path)
            assert {e.id for e in journal.recent(limit=3000)} >= set(before)

            free(filler)
            wait_for(lambda: writer.status().ok and writer.pending == 0, "writing to resume by itself")
            assert journal.count() == 1400 and writer.status().lost == 0
            assert sound(path)
            assert journal.gaps() == []
            assert len(journal.search("parcel", limit=5000)) == 1400
        finally:
            writer.close()
            journal.close()


def deploy(api: httpx.Client) -> str:
    response = api.post("/sources", json={"component_id": "http-new-requests", "name": "disk full"})
    assert response.status_code == 200, response.text
    return response.json()["data"]["id"]


def inject(emulator: ServerHandle, source: str, count: int) -> None:
    response = httpx.post(
        f"{emulator.root_url}/_emulator/sources/{source}/inject", json={"count": count, "wait": True}, timeout=30
    )
    assert response.is_success, response.text


class Taker:
    def __init__(self, monitor: Monitor) -> None:
        self.monitor = monitor
        self.batches: list[Batch] = []

    def take(self) -> Batch:
        batch = self.monitor.take()
        self.batches.append(batch)
        return batch

    def until(self, predicate: Callable[[Batch], bool], what: str, timeout: float = 20.0) -> Batch:
        deadline = time.monotonic() + timeout
        while True:
            batch = self.take()
            if predicate(batch):
                return batch
            assert time.monotonic() < deadline, f"timed out waiting for {what}; last journal state {batch.journal}"
            time.sleep(0.02)

    @property
    def errors(self) -> list[str]:
        return [e for b in self.batches for e in b.errors]

    @property
    def records(self) -> int:
        return sum(len(b.records) for b in self.batches)


@pytest.mark.parametrize(
    ("burst", "max_waiting"),
    [(80, 50), (150, 20)],
    ids=["the service still has them all", "the service no longer has the oldest"],
)
def test_events_past_the_buffer_are_fetched_back_or_marked_as_a_gap(
    emulator: ServerHandle, api: httpx.Client, info: dict, tmp_path: Path, burst: int, max_waiting: int
) -> None:
    kept = max_waiting - 1  # the padding event below waits too
    dropped = burst - kept
    gap_left = dropped - min(dropped, 100)  # the service keeps a source's last 100 events
    source = deploy(api)
    target = Target("source", source, "full")
    with tmpfs(tmp_path / "disk", "2m") as disk:
        path = disk / "journal.sqlite3"
        writer = JournalWriter(Journal(path), interval=0.05, max_waiting=max_waiting)
        client = Client(info["base_url"], api_key=info["api_key"], org_id=info["org_id"])
        monitor = Monitor(client, writer=writer, history=0)
        taker = Taker(monitor)
        try:
            monitor.watch([target])
            taker.until(lambda b: target.key in b.states and b.states[target.key][1].phase == "live", "the stream")
            filler = fill(disk)
            # One event too big for the room SQLite kept makes the first write fail now.
            writer.add([EventSummary(id=f"{T0}-0", event={"pad": "z" * 400_000}, metadata={"emitter_id": "dc_pad"})])
            taker.until(lambda b: b.journal is not None and b.journal.state == "failing", "the first failure")
            assert any("The journal cannot write: disk full" in e for e in taker.errors)  # told at once

            inject(emulator, source, burst)
            taker.until(lambda b: taker.records >= burst, "the burst on screen")  # the monitor goes on
            batch = taker.until(
                lambda b: b.journal is not None and b.journal.lost == dropped, "the events past the buffer counted"
            )
            assert batch.journal is not None and batch.journal.waiting == max_waiting
            assert "not kept" in batch.journal.text()
            assert writer.journal.count(source) == 0

            free(filler)
            taker.until(
                lambda b: (
                    b.journal is not None
                    and b.journal.ok
                    and b.journal.lost == gap_left
                    and writer.journal.count(source) == burst - gap_left
                ),
                "writing to resume and the gap to be fetched back",
            )
            journal = writer.journal
            gaps = journal.gaps(source)
            if gap_left:
                assert [g.count for g in gaps] == [gap_left]
                assert [g.count for b in taker.batches for g in b.gaps] == [gap_left]  # the timeline's mark
                assert any(f"{gap_left} events of {source} not kept" in e for e in taker.errors)
            else:
                assert gaps == [] and not any(b.gaps for b in taker.batches)
            ids = [e.id for e in journal.recent(source, limit=1000)]
            assert len(ids) == len(set(ids)) == burst - gap_left
            assert sound(path)
            if gap_left:
                # The timeline marks the hole where it is, with its size, live and in the history of a later monitor.
                taker.until(lambda b: any(r.is_gap for x in taker.batches for r in x.records), "the gap's row")
                (row,) = [r for b in taker.batches for r in b.records if r.is_gap]
                assert row.summary.startswith(f"⋯ {gap_left} events not in the journal") and "disk full" in row.summary
                assert row.emitter_id == source and row.id is None and not row.is_error
                monitor.close()
                later = Monitor(client, writer=writer, history=200)
                shown = Taker(later)
                try:
                    later.watch([target])
                    shown.until(
                        lambda b: any(r.is_gap and r.history for x in shown.batches for r in x.records),
                        "the gap in a later monitor's history",
                    )
                finally:
                    later.close()
        finally:
            monitor.close()
            writer.close()
            writer.journal.close()
