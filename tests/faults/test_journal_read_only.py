"""A data dir that is read-only or gone: a clear message at start, the monitor runs from memory and says it is not journaling.

Read-only for real: a tmpfs remounted read-only (chmod would not stop root).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from aftui.api import Client
from aftui.api.models import EventSummary
from aftui.emulator.server import ServerHandle
from aftui.journal import Journal
from aftui.journal.retention import open_journal
from aftui.monitor import Batch, Monitor, Target

from .journal_mounts import remount, tmpfs

T0 = 1_700_000_000_000


def ev(i: int) -> EventSummary:
    return EventSummary(id=f"{T0 + i}-0", event={"n": i}, metadata={"emitter_id": "dc_ro"})


def wait_for(predicate: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def test_a_read_only_data_dir_without_a_journal_is_said_at_start(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "data", "1m") as data:
        remount(data, read_only=True)
        opened = open_journal(data / "journal.sqlite3")
        assert opened.writer is None
        assert opened.problem == f"the data dir {data} is read-only (Read-only file system)"
        assert opened.message == f"Not journaling: {opened.problem}"
        assert not (data / "journal.sqlite3").exists()


def test_a_read_only_data_dir_with_a_journal_is_said_at_start_and_the_journal_is_untouched(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "data", "1m") as data:
        path = data / "journal.sqlite3"
        with Journal(path) as journal:
            journal.add([ev(1), ev(2)])
        remount(data, read_only=True)
        opened = open_journal(path)
        assert opened.writer is None
        assert opened.problem is not None and opened.problem.startswith(f"the data dir {data} is read-only")
        remount(data, read_only=False)
        with Journal(path) as journal:
            assert journal.count() == 2 and journal.recovered is None


def test_a_data_dir_that_is_gone_and_cannot_be_made_again_is_said_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with tmpfs(tmp_path / "home", "1m") as home:
        monkeypatch.setenv("AFTUI_DATA_DIR", str(home / "aftui"))
        remount(home, read_only=True)  # the data dir is not there, and nothing can make it
        opened = open_journal()
        assert opened.writer is None and opened.path is None
        assert opened.problem is not None and "read-only" in opened.problem and str(home / "aftui") in opened.problem


def test_a_data_dir_deleted_under_a_path_is_said(tmp_path: Path) -> None:
    data = tmp_path / "gone"
    data.write_text("a file where the data dir should be")
    opened = open_journal(data / "journal.sqlite3")
    assert opened.writer is None
    assert opened.problem is not None and str(data) in opened.problem


def test_a_damaged_journal_in_a_read_only_dir_is_said_not_crashed_on(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "data", "1m") as data:
        path = data / "journal.sqlite3"
        path.write_bytes(b"not a database, " * 4096)
        remount(data, read_only=True)
        opened = open_journal(path)
        assert opened.writer is None
        assert opened.problem is not None
        assert "damaged" in opened.problem and "could not be moved aside" in opened.problem


def test_the_monitor_without_a_journal_runs_from_memory_and_says_so(
    emulator: ServerHandle, api: httpx.Client, info: dict, tmp_path: Path
) -> None:
    with tmpfs(tmp_path / "data", "1m") as data:
        remount(data, read_only=True)
        opened = open_journal(data / "journal.sqlite3")
    assert opened.writer is None and opened.problem is not None
    response = api.post("/sources", json={"component_id": "http-new-requests", "name": "read-only"})
    source = response.json()["data"]["id"]
    target = Target("source", source, "ro")
    monitor = Monitor(
        Client(info["base_url"], api_key=info["api_key"], org_id=info["org_id"]),
        writer=opened.writer,
        journal_problem=opened.problem,
    )
    batches: list[Batch] = []
    try:
        monitor.watch([target])

        def records() -> int:
            batches.append(monitor.take())
            return sum(len(b.records) for b in batches)

        wait_for(lambda: records() >= 0 and target.key in batches[-1].states, "the stream")
        wait_for(lambda: batches[-1].states[target.key][1].phase == "live" or records() < 0, "live")
        injected = httpx.post(
            f"{emulator.root_url}/_emulator/sources/{source}/inject", json={"count": 5, "wait": True}, timeout=10
        )
        assert injected.is_success
        wait_for(lambda: records() == 5, "the events, from memory")
    finally:
        monitor.close()
    status = batches[-1].journal
    assert status is not None and status.state == "off" and status.why == opened.problem
    assert status.text() == f"not journaling: {opened.problem}"
    errors = [e for b in batches for e in b.errors]
    assert errors == [f"not journaling: {opened.problem}: the monitor shows events from memory only"]
