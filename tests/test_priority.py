"""The background threads' lower priority: the monitor's and the journal writer's yield cores to the UI's (Linux)."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from aftui.api import Client
from aftui.journal.store import Journal
from aftui.journal.writer import JournalWriter
from aftui.monitor import Monitor, Target
from aftui.priority import BACKGROUND_NICE, lower_this_thread

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="niceness is per thread only on Linux")


def nice_of(thread: threading.Thread) -> int:
    assert thread.native_id is not None
    return os.getpriority(os.PRIO_PROCESS, thread.native_id)


def eventually(check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 5
    while not check():
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.01)


def test_a_lowered_thread_is_niced_and_the_others_are_not() -> None:
    base = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    seen: list[int] = []
    thread = threading.Thread(target=lambda: (lower_this_thread(), seen.append(nice_of(threading.current_thread()))))
    thread.start()
    thread.join()
    assert seen == [min(19, base + BACKGROUND_NICE)]
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == base, "the caller's thread is left alone"


def test_the_journal_writer_and_the_monitor_run_lowered(tmp_path: Path) -> None:
    base = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    with Journal(tmp_path / "journal.sqlite3") as journal, JournalWriter(journal, interval=60) as writer:
        eventually(lambda: nice_of(writer._thread) == min(19, base + BACKGROUND_NICE))
        monitor = Monitor(Client("http://127.0.0.1:9", api_key="k"), writer=writer)
        try:
            monitor.tap().watch([Target("source", "dc_hooks")])  # the thread starts with the first feed
            thread = next(t for t in threading.enumerate() if t.name == "aftui-monitor")
            eventually(lambda: nice_of(thread) == min(19, base + BACKGROUND_NICE))
        finally:
            monitor.close()
