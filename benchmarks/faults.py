"""How aftui holds up, printed as JSON lines: faults survived, hostile inputs rendered safely, secrets leaked; the journal under its faults.

- faults: each fault the emulator injects (500, an HTML error page, 429 with
  Retry-After, malformed and empty bodies, a reset mid-body, an answer slower
  than the timeout, a 502 on a detail, a resource deleted while shown) is
  met by the TUI; "survived" means the app kept running, said what happened
  and loaded again by itself (or, for the deletion, said "not found").
- hostile inputs: each record of the hostile data set (its events: markup,
  CSI/OSC sequences, controls, bidi, zero-width, 10 MB, 10,000 deep,
  invalid UTF-8; its workflow errors; the source, webhook, app and Connect
  account) opened on screen; "rendered safely" means no escape sequence of
  the data reached the terminal bytes while it was shown.
- longest_frame_ms: the longest time the event loop was busy in one go while
  the hostile records were shown (target: under 250 ms). The emulator runs
  in a process of its own, as the service would: in-process (as `aftui demo`
  runs it) its own work serving 10 MB answers would be counted as the app's.
- secrets_leaked: demo keys, the OAuth secret and account credentials found
  in the terminal bytes or the logs (target: 0).

A second JSON line, "journal_faults", injects the journal's faults for real
(`--journal-only` prints it alone):

- disk_full: a 4 MB tmpfs holding the journal is filled by a file while a
  burst of 1,000 events streams into a watched source (the monitor and its
  journal writer, as the TUI runs them), then the file is removed; run with
  the default buffer, and with a 500-event one whose overflow is fetched
  back from the service (it keeps 100);
- killed: a child process running the monitor is SIGKILLed mid-burst, the
  journal reopened and a new monitor resumes the feed from it;
- two_processes: a second process journals the same events into the same
  file at the same time;
- locked: another process holds the write lock past the busy timeout (10 s);
- corrupt: garbage over pages of a journal; it is opened again;
- read_only: the data dir is a tmpfs remounted read-only.

Figures: faults injected and survived (survived: aftui kept running, said
what happened, and journaled again by itself where the disk allowed);
events_lost, every event the service sent (and still kept, 100 a source)
missing from the journal at the end (target: 0); events_lost_marked_as_gaps,
events past the writer's buffer the service no longer had either, kept as
a count in the journal's gaps table (the round with a 500-event buffer
makes some on purpose; with the default buffer of 200,000, none); events_stored_twice, rows
of one event more than once, and events the monitor handed the UI twice
(target: 0); told_ms, per fault, from injecting it to the first monitor
batch (or the open) that says it. The tmpfs and read-only faults need root;
without it they are reported as not run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import json
import logging
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from aftui.api import Timeouts
from aftui.testing.pilot import wait_until as until
from aftui.testing.pilot import walk_tabs, watch_the_loop
from aftui.testing.terminal import CapturingDriver, attacks, output_of
from aftui.tui import retry
from aftui.tui.app import AftuiApp
from aftui.tui.opener import open_resource
from aftui.tui.run import demo_session
from aftui.tui.screens.detail import DetailScreen
from aftui.tui.screens.events import EventScreen
from aftui.tui.widgets.paged_table import PagedTable
from emulator import emulator

LIST_FAULTS: list[dict[str, Any]] = [
    {"status": 500},
    {"status": 503, "body": "html"},
    {"status": 429, "retry_after": 1},
    {"status": 200, "body": "malformed"},
    {"status": 200, "body": "empty"},
    {"drop": True},
    {"delay": 1.0},
]


class Logs(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


async def show(app: AftuiApp, pilot: Any, screen_check: Any) -> None:
    """Wait for the screen, then step through its tabs so each is drawn."""
    await until(pilot, screen_check)
    await walk_tabs(pilot)


async def hostile_walk(app: AftuiApp, pilot: Any, ids: dict[str, Any]) -> tuple[int, int]:
    tried = safe = 0

    async def step(action: Any) -> None:
        nonlocal tried, safe
        before = len(output_of(app))
        await action()
        tried += 1
        safe += not attacks(output_of(app)[before:])

    async def open_id(ident: str) -> None:
        open_resource(app, ident)
        await show(app, pilot, lambda: isinstance(app.screen, DetailScreen) and app.screen.ident == ident)

    await step(lambda: open_id(ids["source_id"]))
    events = [row for table in app.screen.query(PagedTable) for row in table.rows if hasattr(row, "indexed_at_ms")]
    for event in events:

        async def open_event(event: Any = event) -> None:
            app.push_screen(EventScreen(event.id or "", ("hostile", "event"), record=event, source_id=ids["source_id"]))
            await show(app, pilot, lambda: isinstance(app.screen, EventScreen) and app.screen.record is not None)
            app.pop_screen()

        await step(open_event)
    app.pop_screen()
    for key in ("webhook_id", "workflow_id", "app_id", "account_id"):
        await step(lambda key=key: open_id(ids[key]))
        app.pop_screen()
    return tried, safe


async def fault_round(app: AftuiApp, pilot: Any, root: httpx.Client, org_id: str, source_id: str) -> tuple[int, int]:
    injected = survived = 0
    app.session.client.timeouts = Timeouts(connect=2, read=2, total=0.5)
    app.show_pane("sources")
    await until(
        pilot,
        lambda: bool(app.query("#sources PagedTable")) and app.query_one("#sources PagedTable", PagedTable).pager.done,
    )
    table = app.query_one("#sources PagedTable", PagedTable)
    for fault in LIST_FAULTS:
        root.post(
            "/_emulator/faults", json={"path": f"/v1/orgs/{org_id}/sources", "count": 4, **fault}
        ).raise_for_status()
        injected += 1
        table.reload()
        said = await until(pilot, lambda: table.has_class("failed"))
        back = await until(pilot, lambda: not table.has_class("failed") and table.pager.done and bool(table.rows))
        survived += said and back and app.is_running
    root.post(
        "/_emulator/faults", json={"path": f"/v1/sources/{source_id}", "status": 502, "count": 4}
    ).raise_for_status()
    injected += 1
    open_resource(app, source_id)
    said = await until(pilot, lambda: bool(app.screen.query(".problem")))
    back = await until(pilot, lambda: isinstance(app.screen, DetailScreen) and bool(app.screen.query("TabbedContent")))
    survived += said and back
    root.delete(f"/v1/sources/{source_id}")
    injected += 1
    await pilot.press("r")
    said = await until(
        pilot,
        lambda: bool(app.screen.query(".problem")) and "not found" in str(app.screen.query_one(".problem").render()),
    )
    survived += said and app.is_running
    app.pop_screen()
    return injected, survived


def secrets_of(info: dict[str, Any]) -> set[str]:
    """The demo's keys, OAuth secret and every account credential (read once with include_credentials)."""
    found = {info["api_key"], info["paid_api_key"], info["oauth_client_secret"]}
    headers = {"Authorization": f"Bearer {info['api_key']}"}
    with httpx.Client(base_url=info["base_url"], headers=headers, timeout=30) as api:
        for org in api.get("/users/me").json()["data"].get("orgs", []):
            after = None
            while True:
                params = {
                    "include_credentials": "true",
                    "limit": 100,
                    "org_id": org["id"],
                    **({"after": after} if after else {}),
                }
                page = api.get("/accounts", params=params).json()
                for account in page.get("data", []):
                    found.update(str(v) for v in (account.get("credentials") or {}).values() if len(str(v)) >= 12)
                after = (page.get("page_info") or {}).get("end_cursor")
                if not after or not page.get("data"):
                    break
    return found


async def measure() -> dict[str, Any]:
    retry.FIRST_S, retry.MOST_S = 0.2, 0.5  # recovery is counted, not waited for at human pace
    logs = Logs()
    logging.getLogger().addHandler(logs)
    logging.getLogger().setLevel(logging.DEBUG)
    with emulator("--hostile") as info:
        headers = {"Authorization": f"Bearer {info['api_key']}"}
        ids = httpx.post(f"{info['root_url']}/_emulator/hostile", headers=headers, timeout=30).json()
        app = AftuiApp(demo_session(info["base_url"], info, data=Path(tempfile.mkdtemp())), start_pane="sources")
        app.driver_class = CapturingDriver
        stalls: list[float] = []
        with httpx.Client(base_url=info["root_url"], headers=headers) as root:
            async with app.run_test(headless=False, size=(120, 36)) as pilot:
                await until(
                    pilot,
                    lambda: (
                        bool(app.query("#sources PagedTable"))
                        and app.query_one("#sources PagedTable", PagedTable).pager.done
                    ),
                )
                ticker = asyncio.create_task(watch_the_loop(stalls))
                tried, safe = await hostile_walk(app, pilot, ids)
                ticker.cancel()
                sources = root.get(f"/v1/orgs/{info['org_id']}/sources", params={"limit": 100}).json()["data"]
                victim = next(s["id"] for s in sources if s["id"] != ids["source_id"])
                injected, survived = await fault_round(app, pilot, root, info["org_id"], victim)
        secrets = secrets_of(info)
    logging.getLogger().removeHandler(logs)
    seen = output_of(app) + "\n".join(logs.lines)
    leaked = sorted(s[:4] + "…" for s in secrets if s in seen)
    return {
        "figure": "faults_hostile_secrets",
        "faults_injected": injected,
        "faults_survived": survived,
        "hostile_inputs_tried": tried,
        "hostile_inputs_rendered_safely": safe,
        "longest_frame_ms": round(max(stalls), 1) if stalls else None,
        "secrets_leaked": len(leaked),
        "targets": {
            "faults_survived": "= faults_injected",
            "rendered_safely": "= tried",
            "longest_frame_ms": "< 250",
            "secrets_leaked": "0",
        },
    }


# --- the journal's faults ----------------------------------------------------------------------------------

PAGE = 4096
T0 = 1_700_000_000_000
MAX_WAITING = 200_000  # the journal writer's default buffer (journal/writer.py)


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(command), capture_output=True, text=True, check=False)


@contextlib.contextmanager
def _tmpfs(where: Path, size: str) -> Iterator[Path]:
    where.mkdir(parents=True, exist_ok=True)
    done = _run("mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(where))
    if done.returncode != 0:
        raise PermissionError(f"cannot mount a tmpfs: {done.stderr.strip()}")
    try:
        yield where
    finally:
        if _run("umount", str(where)).returncode != 0:
            _run("umount", "-l", str(where))


def _fill(where: Path) -> Path:
    filler = where / "filler"
    with filler.open("wb", buffering=0) as file:
        for block in (b"\0" * 4096, b"\0" * 64):
            try:
                while True:
                    file.write(block)
            except OSError as error:
                if error.errno != errno.ENOSPC:
                    raise
    return filler


def _wait(predicate: Callable[[], bool], timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def _deploy(info: dict[str, Any], name: str) -> str:
    headers = {"Authorization": f"Bearer {info['api_key']}"}
    response = httpx.post(
        f"{info['base_url']}/sources",
        json={"component_id": "http-new-requests", "name": name, "org_id": info["org_id"]},
        headers=headers,
        timeout=30,
    )
    response.raise_for_status()
    return str(response.json()["data"]["id"])


def _inject(info: dict[str, Any], source: str, count: int, **extra: Any) -> None:
    httpx.post(
        f"{info['root_url']}/_emulator/sources/{source}/inject", json={"count": count, **extra}, timeout=60
    ).raise_for_status()


def _service_ids(info: dict[str, Any], source: str) -> list[str]:
    headers = {"Authorization": f"Bearer {info['api_key']}"}
    page = httpx.get(
        f"{info['base_url']}/sources/{source}/event_summaries", params={"limit": 100}, headers=headers, timeout=30
    ).json()
    return [e["id"] for e in page["data"]]


def _client(info: dict[str, Any]) -> Any:
    from aftui.api import Client

    return Client(info["base_url"], api_key=info["api_key"], org_id=info["org_id"])


def _twice(journal: Any) -> int:
    db = sqlite3.connect(journal.path)
    try:
        rows, distinct = db.execute(
            "SELECT count(*), (SELECT count(*) FROM (SELECT DISTINCT emitter_id, event_id FROM events)) FROM events"
        ).fetchone()
    finally:
        db.close()
    return int(rows - distinct)


def _repeats(records: list[Any]) -> int:
    ids = [(r.emitter_id, r.event.id) for r in records]
    return len(ids) - len(set(ids))


def journal_disk_full(info: dict[str, Any], work: Path, max_waiting: int = MAX_WAITING) -> dict[str, Any]:
    """A burst streams while the disk is full, then space returns; with a small buffer, the buffer overflows first."""
    from aftui.journal import Journal, JournalWriter
    from aftui.monitor import Monitor, Target

    source = _deploy(info, "disk full")
    target = Target("source", source, "full")
    with _tmpfs(work / f"full-{max_waiting}", "4m") as disk:
        writer = JournalWriter(Journal(disk / "journal.sqlite3"), interval=0.05, max_waiting=max_waiting)
        monitor = Monitor(_client(info), writer=writer, history=0)
        records: list[Any] = []
        told: list[float] = []

        def taken(condition: Callable[[Any], bool]) -> Callable[[], bool]:
            def check() -> bool:
                batch = monitor.take()  # as the UI takes them (it does four times a second; this, a hundred)
                records.extend(batch.records)
                if not told and batch.journal is not None and batch.journal.state == "failing" and batch.errors:
                    told.append(time.monotonic())
                return condition(batch)

            return check

        try:
            monitor.watch([target])
            live = _wait(taken(lambda b: target.key in b.states and b.states[target.key][1].phase == "live"))
            _inject(info, source, 30, wait=True)
            _wait(taken(lambda b: writer.journal.count(source) == 30))
            filler = _fill(disk)
            injected_at = time.monotonic()
            _inject(info, source, 1000, rate=1000, size=1000)  # 1 MB in a second: more than the full disk takes
            said = _wait(taken(lambda b: bool(told)))
            _wait(taken(lambda b: sum(1 for r in records if r.emitter_id == source) >= 1030))
            os.unlink(filler)
            back = _wait(taken(lambda b: b.journal is not None and b.journal.ok and b.journal.waiting == 0), 60)
            _wait(taken(lambda b: not monitor.fetching_back and writer.pending == 0), 30)
            time.sleep(0.5)
            _wait(taken(lambda b: True))
            journal = writer.journal
            stored = {e.id for e in journal.recent(source, limit=5000)}
            service = _service_ids(info, source)  # the last 100: what can still be fetched back
            lost = sum(1 for i in service if i not in stored)
            result = {
                "survived": bool(live and said and back and not lost),
                "told_ms": round((told[0] - injected_at) * 1000) if told else None,
                "events_seen": 1030,
                "events_stored": len(stored),
                "events_lost": lost,  # of those the service still had: fetched back, or lost for good
                # Past the buffer, and gone from the service too: not kept, marked in the journal's gaps table.
                "events_lost_marked_as_gaps": sum(g.count for g in journal.gaps(source)),
                "events_stored_twice": _twice(journal),
                "events_shown_twice": _repeats(records),
            }
        finally:
            monitor.close()
            writer.close()
            writer.journal.close()
    return result


KILL_CHILD = """
import sys, time
from aftui.api import Client
from aftui.journal import Journal, JournalWriter
from aftui.monitor import Monitor, Target
base_url, key, org, source, path = sys.argv[1:6]
writer = JournalWriter(Journal(path), interval=0.05)
monitor = Monitor(Client(base_url, api_key=key, org_id=org), writer=writer, history=0)
monitor.watch([Target("source", source, "burst")])
live, written = False, -1
while True:
    batch = monitor.take()
    if not live and any(s.phase == "live" for _, s in batch.states.values()):
        live = True
        print("live", flush=True)
    if writer.written != written:
        written = writer.written
        print("committed", written, flush=True)
    time.sleep(0.01)
"""


def journal_killed(info: dict[str, Any], work: Path) -> dict[str, Any]:
    from aftui.journal import Journal, JournalWriter
    from aftui.monitor import Monitor, Target

    source = _deploy(info, "kill -9")
    path = work / "killed.sqlite3"
    child = subprocess.Popen(
        [sys.executable, "-c", KILL_CHILD, info["base_url"], info["api_key"], info["org_id"], source, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    committed = 0
    try:
        assert child.stdout is not None
        for line in child.stdout:
            if line.strip() == "live":
                _inject(info, source, 100, rate=40)
            elif line.startswith("committed") and int(line.split()[1]) >= 20:
                committed = int(line.split()[1])
                os.kill(child.pid, signal.SIGKILL)
                break
        child.wait(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    opened_at = time.monotonic()
    journal = Journal(path)
    reopened_ms = round((time.monotonic() - opened_at) * 1000)
    before = journal.count(source)
    journaled = {e.id for e in journal.recent(source, limit=500)}
    journal.close()
    writer = JournalWriter(Journal(path), interval=0.05)
    monitor = Monitor(_client(info), writer=writer, history=0)
    records: list[Any] = []
    try:
        monitor.watch([Target("source", source, "burst")])

        def everything() -> bool:
            records.extend(monitor.take().records)
            return writer.journal.count(source) == 100

        done = _wait(everything)
        time.sleep(0.5)
        records.extend(monitor.take().records)
        stored = {e.id for e in writer.journal.recent(source, limit=500)}
        lost = sum(1 for i in _service_ids(info, source) if i not in stored)
        result = {
            "survived": bool(done and before >= committed and not lost),
            "told_ms": None,
            "committed_before_the_kill": committed,
            "rows_after_reopening": before,
            "reopen_ms": reopened_ms,
            "events_lost": lost,
            "events_stored_twice": _twice(writer.journal),
            # Shown again after the restart although journaled before the kill: the resume point missed them.
            "events_shown_twice": _repeats(records) + sum(1 for r in records if r.event.id in journaled),
        }
    finally:
        monitor.close()
        writer.close()
        writer.journal.close()
    return result


TWIN_CHILD = """
import sys
from aftui.api.models import EventSummary
from aftui.journal import Journal, JournalWriter
T0, n = 1_700_000_000_000, int(sys.argv[2])
journal = Journal(sys.argv[1])
writer = JournalWriter(journal, batch_size=50, interval=0.01)
print("ready", flush=True)
sys.stdin.readline()
for start in range(n - 50, -1, -50):
    writer.add([EventSummary(id=f"{T0 + i}-0", event={"n": i}, metadata={"emitter_id": "dc_twin"}) for i in range(start, start + 50)])
writer.close()
print(writer.written, flush=True)
"""


def journal_two_processes(work: Path) -> dict[str, Any]:
    from aftui.api.models import EventSummary
    from aftui.journal import Journal, JournalWriter

    n = 5000
    path = work / "twin.sqlite3"
    child = subprocess.Popen(
        [sys.executable, "-c", TWIN_CHILD, str(path), str(n)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert child.stdin is not None and child.stdout is not None
    child.stdout.readline()
    with Journal(path) as journal:
        writer = JournalWriter(journal, batch_size=50, interval=0.01)
        child.stdin.write("go\n")
        child.stdin.flush()
        for start in range(0, n, 50):
            writer.add(
                [
                    EventSummary(id=f"{T0 + i}-0", event={"n": i}, metadata={"emitter_id": "dc_twin"})
                    for i in range(start, start + 50)
                ]
            )
        writer.close()
        theirs = int(child.stdout.readline())
        child.wait(timeout=30)
        stored = journal.count("dc_twin")
        return {
            "survived": stored == n and writer.last_error is None,
            "told_ms": None,
            "written_here": writer.written,
            "written_there": theirs,
            "events_lost": n - stored,
            "events_stored_twice": _twice(journal) + (writer.written + theirs - stored),
        }


LOCK_HOLDER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
print("holding", flush=True)
sys.stdin.readline()
db.execute("COMMIT")
"""


def journal_locked(work: Path) -> dict[str, Any]:
    from aftui.api.models import EventSummary
    from aftui.journal import Journal, JournalWriter

    path = work / "locked.sqlite3"
    journal = Journal(path)  # the default busy timeout: only a lock held past 10 s is a fault
    holder = subprocess.Popen(
        [sys.executable, "-c", LOCK_HOLDER, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdin is not None and holder.stdout is not None
        holder.stdout.readline()
        writer = JournalWriter(journal, interval=0.05)
        held_at = time.monotonic()
        writer.add(
            [EventSummary(id=f"{T0 + i}-0", event={"n": i}, metadata={"emitter_id": "dc_lock"}) for i in range(100)]
        )
        said = _wait(lambda: writer.status().state == "failing", 30)
        told = time.monotonic() - held_at
        holder.stdin.write("go\n")
        holder.stdin.flush()
        back = _wait(lambda: writer.status().ok and writer.pending == 0, 30)
        writer.close()
        stored = journal.count("dc_lock")
        return {
            "survived": bool(said and back and stored == 100),
            "told_ms": round(told * 1000),
            "events_lost": 100 - stored,
            "events_stored_twice": _twice(journal),
        }
    finally:
        if holder.poll() is None:
            holder.kill()
        holder.wait(timeout=10)
        journal.close()


def journal_corrupt(work: Path) -> dict[str, Any]:
    from aftui.api.models import EventSummary
    from aftui.journal import Journal
    from aftui.journal.retention import open_journal

    path = work / "corrupt.sqlite3"
    with Journal(path) as journal:
        journal.add(
            [
                EventSummary(id=f"{T0 + i}-0", event={"n": i, "pad": "x" * 200}, metadata={"emitter_id": "dc_c"})
                for i in range(3000)
            ]
        )
    pages = path.stat().st_size // PAGE
    with path.open("r+b") as file:
        file.seek(pages // 2 * PAGE)
        file.write(random.Random(2).randbytes(8 * PAGE))
    started = time.monotonic()
    opened = open_journal(path)
    told = time.monotonic() - started
    try:
        works = opened.writer is not None and opened.writer.journal.count() == 0
        return {
            "survived": bool(works and opened.notice and "damaged" in opened.notice),
            "told_ms": round(told * 1000),
            "moved_aside": bool(opened.writer and opened.writer.journal.recovered),
        }
    finally:
        opened.close()


def journal_read_only(work: Path) -> dict[str, Any]:
    from aftui.journal.retention import open_journal

    with _tmpfs(work / "ro", "1m") as data:
        if _run("mount", "-o", "remount,ro", str(data)).returncode != 0:
            raise PermissionError("cannot remount read-only")
        started = time.monotonic()
        opened = open_journal(data / "journal.sqlite3")
        told = time.monotonic() - started
    return {
        "survived": opened.writer is None and bool(opened.problem and "read-only" in opened.problem),
        "told_ms": round(told * 1000),
        "said": opened.message,
    }


def measure_journal() -> dict[str, Any]:
    logging.getLogger("aftui").setLevel(logging.CRITICAL)  # the faults are meant: their log lines are not figures
    faults: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp, emulator() as info:
        work = Path(tmp)
        for name, run in (
            ("disk_full", lambda: journal_disk_full(info, work)),
            ("disk_full_past_a_500_event_buffer", lambda: journal_disk_full(info, work, 500)),
            ("killed", lambda: journal_killed(info, work)),
            ("two_processes", lambda: journal_two_processes(work)),
            ("locked", lambda: journal_locked(work)),
            ("corrupt", lambda: journal_corrupt(work)),
            ("read_only", lambda: journal_read_only(work)),
        ):
            try:
                faults[name] = run()
            except PermissionError as error:
                faults[name] = {"not_run": str(error)}
    run_ = [f for f in faults.values() if "not_run" not in f]
    told = {name: f.get("told_ms") for name, f in faults.items() if f.get("told_ms") is not None}
    return {
        "figure": "journal_faults",
        "faults_injected": len(run_),
        "faults_survived": sum(1 for f in run_ if f.get("survived")),
        "events_lost": sum(f.get("events_lost", 0) for f in run_),
        "events_lost_marked_as_gaps": sum(f.get("events_lost_marked_as_gaps", 0) for f in run_),
        "events_stored_twice": sum(f.get("events_stored_twice", 0) for f in run_),
        "events_shown_twice": sum(f.get("events_shown_twice", 0) for f in run_),
        "told_ms": told,
        "faults": faults,
        "targets": {"faults_survived": "= faults_injected", "events_lost": "0", "events_stored_twice": "0"},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--journal-only", action="store_true", help="only the journal's faults")
    args = parser.parse_args()
    if not args.journal_only:
        print(json.dumps(asyncio.run(measure())), flush=True)
    print(json.dumps(measure_journal()), flush=True)


if __name__ == "__main__":
    main()
