"""aftui killed mid-burst (`kill -9`): the journal opens again (WAL recovery), nothing committed is lost, and the feed resumes from the last journaled id.

The process killed is real: a child Python running the monitor and its journal writer against the
emulator (over HTTP, as aftui would), SIGKILLed while a burst of events arrives and is journaled.
"""

from __future__ import annotations

import os
import queue
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from aftui.api import Client
from aftui.api.models import event_key
from aftui.emulator.server import ServerHandle
from aftui.journal import Journal, JournalWriter
from aftui.monitor import Monitor, Target

BURST = 100  # what the service keeps of a source: every event of the burst is still there after the kill
RATE = 40  # events a second: the burst lasts 2.5 s, the kill comes in the middle

CHILD = textwrap.dedent(
    """
    import sys, time
    from aftui.api import Client
    from aftui.journal import Journal, JournalWriter
    from aftui.monitor import Monitor, Target

    base_url, key, org, source, path = sys.argv[1:6]
    writer = JournalWriter(Journal(path), interval=0.05)
    monitor = Monitor(Client(base_url, api_key=key, org_id=org), writer=writer, history=0)
    monitor.watch([Target("source", source, "burst")])
    live = False
    written = -1
    while True:
        batch = monitor.take()
        if not live and any(state.phase == "live" for _, state in batch.states.values()):
            live = True
            print("live", flush=True)
        if writer.written != written:  # committed: journal.add returned after COMMIT
            written = writer.written
            print("committed", written, flush=True)
        time.sleep(0.01)
    """
)


def deploy(api: httpx.Client) -> str:
    response = api.post("/sources", json={"component_id": "http-new-requests", "name": "kill -9"})
    assert response.status_code == 200, response.text
    return response.json()["data"]["id"]


def lines_of(process: subprocess.Popen[str]) -> queue.Queue[str]:
    out: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            out.put(line.strip())

    threading.Thread(target=read, daemon=True).start()
    return out


def next_line(lines: queue.Queue[str], predicate: Callable[[str], bool], what: str, timeout: float = 20.0) -> str:
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"timed out waiting for {what}"
        try:
            line = lines.get(timeout=left)
        except queue.Empty:
            continue
        if predicate(line):
            return line


def wait_for(predicate: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def test_killed_mid_burst_the_journal_reopens_keeps_what_was_committed_and_the_feed_resumes(
    emulator: ServerHandle, api: httpx.Client, info: dict, tmp_path: Path
) -> None:
    source = deploy(api)
    path = tmp_path / "journal.sqlite3"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, info["base_url"], info["api_key"], info["org_id"], source, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        lines = lines_of(child)
        next_line(lines, lambda line: line == "live", "the child's stream to be live")
        started = httpx.post(
            f"{emulator.root_url}/_emulator/sources/{source}/inject", json={"count": BURST, "rate": RATE}, timeout=10
        )
        assert started.status_code == 202, started.text
        line = next_line(
            lines, lambda line: line.startswith("committed") and int(line.split()[1]) >= 20, "a third of the burst"
        )
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=10)
        assert child.returncode == -signal.SIGKILL
        committed = int(line.split()[1])
        while not lines.empty():  # a later commit said before the kill landed
            later = lines.get()
            if later.startswith("committed"):
                committed = max(committed, int(later.split()[1]))
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert committed < BURST, "the burst ended before the kill: the test would prove nothing"
    assert path.with_name(path.name + "-wal").exists()  # the killed process left its WAL: recovery has work

    # The journal opens (SQLite replays the WAL), sound, with every committed row.
    with Journal(path) as journal:
        assert journal.recovered is None
        stored = journal.count(source)
        assert committed <= stored < BURST
        rows = [e.event["seq"] for e in reversed(journal.recent(source, limit=BURST))]
        assert rows == list(range(stored)), "the committed rows are the burst's first ones, each once"
        last = journal.last_event_id(source)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    db.close()

    # Restart: the monitor resumes the feed after the last journaled id, without history on screen.
    writer = JournalWriter(Journal(path), interval=0.05)
    monitor = Monitor(
        Client(info["base_url"], api_key=info["api_key"], org_id=info["org_id"]), writer=writer, history=0
    )
    try:
        monitor.watch([Target("source", source, "burst")])
        records = []

        def everything() -> bool:
            records.extend(monitor.take().records)
            return writer.journal.count(source) == BURST

        wait_for(everything, "the rest of the burst to be journaled")
        time.sleep(0.3)  # room for a repeat to show up
        records.extend(monitor.take().records)
    finally:
        monitor.close()
        writer.close()
    assert last is not None
    seen = [r.event.id for r in records]
    assert all(event_key(i) > event_key(last) for i in seen), "nothing journaled before the kill came again"
    assert [r.event.event["seq"] for r in records] == list(range(stored, BURST)), "the rest, each once, in order"
    with writer.journal as journal:
        assert [e.event["seq"] for e in reversed(journal.recent(source, limit=BURST + 10))] == list(range(BURST))
