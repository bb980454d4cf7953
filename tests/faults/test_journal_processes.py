"""Two aftui processes on one journal (two windows, or `aftui tail` beside the TUI): both write, each event is stored once, searches see both.

The second process is real: a Python child with its own JournalWriter on the same file, started
from here and told when to go, so the two write at the same time.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

from aftui.api.models import EventSummary
from aftui.journal import Journal, JournalWriter

T0 = 1_700_000_000_000
SHARED = 4000  # events both processes see (a source both windows watch)
OWN = 500  # events one process alone sees

# The other aftui: journals the shared events in its own order and its own ones, then searches.
CHILD = textwrap.dedent(
    """
    import json, sys
    from aftui.api.models import EventSummary
    from aftui.journal import Journal, JournalWriter

    T0, SHARED, OWN = 1_700_000_000_000, int(sys.argv[2]), int(sys.argv[3])

    def ev(i, word):
        return EventSummary(id=f"{T0 + i}-0", event={"n": i, "word": word}, metadata={"emitter_id": f"dc_{i % 4}"})

    journal = Journal(sys.argv[1])
    writer = JournalWriter(journal, batch_size=50, interval=0.01)
    print("ready", flush=True)
    sys.stdin.readline()
    for start in range(SHARED - 50, -1, -50):  # newest first: the other process goes oldest first
        writer.add([ev(i, "shared") for i in range(start, start + 50)])
        writer.add([ev(SHARED + 10_000 + start // 50 * 5 + k, "childonly") for k in range(5)])
    writer.close()
    print(json.dumps({"written": writer.written, "error": repr(writer.last_error) if writer.last_error else None}), flush=True)
    sys.stdin.readline()  # the other process has finished writing too
    print(json.dumps({
        "sees_parent": len(journal.search("parentonly", limit=10_000)),
        "sees_child": len(journal.search("childonly", limit=10_000)),
    }), flush=True)
    journal.close()
    """
)


def ev(i: int, word: str) -> EventSummary:
    return EventSummary(id=f"{T0 + i}-0", event={"n": i, "word": word}, metadata={"emitter_id": f"dc_{i % 4}"})


def wait_for(predicate: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def test_two_processes_write_one_journal_each_event_once_and_both_are_searched(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(path), str(SHARED), str(OWN)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None and child.stdin is not None
        assert child.stdout.readline().strip() == "ready", child.stderr.read() if child.stderr else ""
        with Journal(path) as journal:
            writer = JournalWriter(journal, batch_size=50, interval=0.01)
            child.stdin.write("go\n")
            child.stdin.flush()
            for start in range(0, SHARED, 50):
                writer.add([ev(i, "shared") for i in range(start, start + 50)])
                writer.add([ev(SHARED + start // 50 * 5 + k, "parentonly") for k in range(5)])
            writer.close()
            line = child.stdout.readline()
            assert line, child.stderr.read() if child.stderr else ""
            theirs = json.loads(line)
            out, err = child.communicate("search\n", timeout=60)
            assert child.returncode == 0, err
            theirs.update(json.loads(out.strip().splitlines()[-1]))

            own = SHARED // 50 * 5
            assert writer.last_error is None and theirs["error"] is None
            assert journal.count() == SHARED + 2 * own
            # Each event was new to exactly one of the two: every one stored, none twice.
            assert writer.written + theirs["written"] == SHARED + 2 * own
            assert writer.written >= own and theirs["written"] >= own
            db = journal._db
            assert db.execute("SELECT count(*) FROM (SELECT DISTINCT emitter_id, event_id FROM events)").fetchone()[
                0
            ] == (SHARED + 2 * own)
            # Searches see both processes' rows, from either side.
            assert len(journal.search("childonly", limit=10_000)) == own
            assert len(journal.search("parentonly", limit=10_000)) == own
            assert len(journal.search("shared", limit=10_000)) == SHARED
            assert theirs["sees_child"] == own and theirs["sees_parent"] == own
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


HOLDER = textwrap.dedent(
    """
    import sqlite3, sys
    db = sqlite3.connect(sys.argv[1], isolation_level=None)
    db.execute("BEGIN IMMEDIATE")  # the write lock, as another aftui in the middle of a long write holds it
    print("holding", flush=True)
    sys.stdin.readline()
    db.execute("COMMIT")
    print("released", flush=True)
    """
)


def test_a_journal_locked_by_another_process_past_the_timeout_is_retried_by_itself(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal(path, busy_timeout=0.2) as journal:
        journal.add([ev(0, "before")])
        holder = subprocess.Popen(
            [sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        try:
            assert holder.stdout is not None and holder.stdin is not None
            assert holder.stdout.readline().strip() == "holding"
            writer = JournalWriter(journal, batch_size=10, interval=0.01)
            writer.add([ev(i, "during") for i in range(1, 101)])
            wait_for(lambda: writer.status().state == "failing", "the writer to meet the lock")
            status = writer.status()
            assert status.why is not None and "another aftui" in status.why and "locked" in status.why
            assert status.waiting == 100 and status.lost == 0
            assert journal.count() == 1  # nothing half-written
            holder.stdin.write("go\n")
            holder.stdin.flush()
            assert holder.stdout.readline().strip() == "released"
            wait_for(lambda: writer.status().ok and writer.pending == 0, "writing to resume by itself")
            assert journal.count() == 101 and writer.written == 100
            writer.close()
        finally:
            if holder.poll() is None:
                holder.kill()
            holder.wait()
