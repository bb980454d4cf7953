"""Two monitors, one journal: two writer processes journal the same 50,000 events at once; printed as JSON.

Each writer is a process of its own with a `JournalWriter` (as a TUI or `aftui tail` runs it), fed the
events as the stream hands them over (`RawEvent`s, in batches of 500), so both race to store every
event. Run against a team's PostgreSQL (a throwaway server this script starts from the machine's
own binaries, or `--url`) and against one SQLite file, in the same run.

Figures, per backend:
- rows: events stored at the end (goal: exactly the events sent, each once whoever wrote it first);
- new_by_writer: what each writer found new (together: the rows);
- seconds: from both starting to both done (every event flushed and committed);
- events_per_s: distinct events journaled per second by the pair; writes_per_s: events offered;
- failed_writes: writes that failed (the writer would have retried them).
And postgresql_vs_sqlite: PostgreSQL's events_per_s over SQLite's.

    python benchmarks/journal.py [--events 50000] [--url postgresql://...]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

T0 = 1_760_000_000_000
BATCH = 500  # what the monitor hands the writer each 50 ms under load


def events(n: int) -> list[Any]:
    """The same `n` streamed events in every process: ids `<ms>-<seq>`, payloads of a realistic order shape."""
    from aftui.api.rawevent import RawEvent

    out = []
    for i in range(n):
        ms = T0 + i
        data = json.dumps(
            {
                "id": f"{ms}-0",
                "indexed_at_ms": ms,
                "event": {"order_id": f"ord_{i:06d}", "sku": f"SKU-{i % 977}", "total": i % 500, "note": "paid"},
                "metadata": {"emitter_id": "dc_bench", "emit_id": f"em_{i}", "name": "orders"},
            }
        )
        out.append(RawEvent(f"{ms}-0", (ms, 0), data, "message", "dc_bench"))
    return out


def writer(target: str, n: int, ready: Any, go: Any, done: Any) -> None:
    """One monitor's journal writer: open, wait for the other, write every event, flush, report."""
    from aftui.journal.writer import JournalWriter

    if target.startswith("postgresql://"):
        from aftui.journal.pgstore import PgJournal

        journal: Any = PgJournal(target)
    else:
        from aftui.journal.store import Journal

        journal = Journal(Path(target))
    batch = events(n)
    failures = 0
    with journal:
        w = JournalWriter(journal)
        ready.set()
        go.wait()
        for start in range(0, n, BATCH):
            w.add(batch[start : start + BATCH])
        w.close()
        failures = 0 if w.last_error is None else 1
        done.put((w.written, failures, w.pending))


def race(target: str, n: int) -> dict[str, Any]:
    ctx = mp.get_context("spawn")
    readies = [ctx.Event(), ctx.Event()]
    go = ctx.Event()
    done = ctx.Queue()
    procs = [ctx.Process(target=writer, args=(target, n, ready, go, done)) for ready in readies]
    for proc in procs:
        proc.start()
    for ready in readies:
        ready.wait(120)
    started = time.perf_counter()
    go.set()
    results = [done.get(timeout=600) for _ in procs]
    seconds = time.perf_counter() - started
    for proc in procs:
        proc.join()
    rows = _count(target)
    return {
        "rows": rows,
        "new_by_writer": sorted(r[0] for r in results),
        "left_unwritten": sum(r[2] for r in results),
        "failed_writes": sum(r[1] for r in results),
        "seconds": round(seconds, 2),
        "events_per_s": round(rows / seconds),
        "writes_per_s": round(2 * n / seconds),
    }


def _count(target: str) -> int:
    if target.startswith("postgresql://"):
        from aftui.journal.pgstore import PgJournal

        with PgJournal(target) as pg:
            return pg.count()
    from aftui.journal.store import Journal

    with Journal(Path(target)) as sqlite:
        return sqlite.count()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=50_000)
    parser.add_argument("--url", help="a PostgreSQL database to use (default: a throwaway server started here)")
    args = parser.parse_args()
    server = None
    if args.url is None:
        from aftui.testing.postgres import PostgresServer

        server = PostgresServer().start()
    try:
        url = server.database("bench") if server is not None else args.url
        postgresql = race(url, args.events)
        with tempfile.TemporaryDirectory() as folder:
            sqlite = race(str(Path(folder) / "journal.sqlite3"), args.events)
    finally:
        if server is not None:
            server.stop()
    print(
        json.dumps(
            {
                "benchmark": "journal_two_writers",
                "events": args.events,
                "writers": 2,
                "postgresql": postgresql,
                "sqlite": sqlite,
                "postgresql_vs_sqlite": round(postgresql["events_per_s"] / max(1, sqlite["events_per_s"]), 2),
                "stored_once": postgresql["rows"] == args.events and sqlite["rows"] == args.events,
            }
        )
    )
    return 0 if postgresql["rows"] == args.events else 1


if __name__ == "__main__":
    sys.exit(main())
