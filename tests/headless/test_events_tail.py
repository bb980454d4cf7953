"""`aftui events` and `aftui tail`: dates, --since, the journal, and the stream's state on stderr."""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest

from aftui.emulator.server import ServerHandle
from aftui.headless.since import parse_since
from aftui.journal.store import Journal

from .conftest import Aftui, source_named

DATED = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}  ")


def key(event_id: str) -> tuple[int, int]:
    ms, _, seq = event_id.partition("-")
    return int(ms), int(seq)


def emit(root: httpx.Client, source_id: str, n: int) -> str:
    answer = root.post(f"/_emulator/sources/{source_id}/emit", json={"event": {"n": n}})
    answer.raise_for_status()
    return str(answer.json()["emitted"][0])


def test_events_print_dates(aftui: Aftui) -> None:
    done = aftui("events", "Order webhooks", "-n", "3")
    assert done.code == 0, done.err
    lines = done.out.splitlines()
    assert len(lines) == 3 and all(DATED.match(line) for line in lines)
    assert lines[-1].startswith("2026-11-01 ")
    assert all("  Order webhooks  " in line for line in lines)  # the source by name, as it was asked for


def test_events_since_keeps_what_is_newer(aftui: Aftui, api: httpx.Client, emulator: ServerHandle) -> None:
    order = source_named(emulator, "Order webhooks")
    retained = api.get(f"/sources/{order.id}/event_summaries", params={"limit": 100}).json()["data"]
    cut = sorted(e["indexed_at_ms"] for e in retained)[-3]  # the third newest
    moment = datetime.fromtimestamp(cut / 1000, tz=UTC).isoformat()
    done = aftui("events", order.id, "--since", moment, "--json")
    assert done.code == 0, done.err
    assert [r["indexed_at_ms"] for r in done.records()] == sorted(e["indexed_at_ms"] for e in retained)[-3:]
    assert aftui("events", order.id, "--since", "yesterday-ish").code == 2
    assert aftui("events", order.id, "--since", "1h").err.startswith("aftui: no events of")  # the clock stood still


def test_events_go_to_the_journal_unless_told_not_to(aftui: Aftui, emulator: ServerHandle, data_dir: Path) -> None:
    order = source_named(emulator, "Order webhooks")
    assert aftui("events", order.id, "-n", "5", "--no-journal").code == 0
    assert not (data_dir / "journal.sqlite3").exists()
    assert aftui("events", order.id, "-n", "5").code == 0
    with Journal(data_dir / "journal.sqlite3") as journal:
        assert journal.count(order.id) == 5


def test_tail_says_it_is_connected_and_follows(
    running, root: httpx.Client, emulator: ServerHandle, data_dir: Path
) -> None:
    ping = source_named(emulator, "Partner ping")
    tail = running("tail", "Partner ping")
    assert tail.wait_for(lambda: tail.said("connected")), tail.err
    assert tail.said(f"Partner ping ({ping.id}): connected, from now")
    emit(root, ping.id, 1)
    assert tail.wait_for(lambda: len(tail.out) == 1), (tail.out, tail.err)
    assert tail.stop() == 0
    assert DATED.match(tail.out[0]) and '{"n":1}' in tail.out[0]
    assert "  Partner ping  " in tail.out[0] and ping.id not in tail.out[0]  # its name, where people read it
    with Journal(data_dir / "journal.sqlite3") as journal:
        assert [e.event for e in journal.recent(ping.id)] == [{"n": 1}]


def test_tail_of_an_id_names_its_source_on_people_lines_and_keeps_ids_in_json(
    running, root: httpx.Client, emulator: ServerHandle
) -> None:
    ping = source_named(emulator, "Partner ping")
    tail = running("tail", ping.id)
    assert tail.wait_for(lambda: tail.said("connected")), tail.err
    assert tail.said(f"Partner ping ({ping.id}): connected")
    emit(root, ping.id, 2)
    assert tail.wait_for(lambda: len(tail.out) == 1), (tail.out, tail.err)
    assert tail.stop() == 0
    assert "  Partner ping  " in tail.out[0]


def test_tail_ends_when_its_reader_has_gone(profile: str, root: httpx.Client, emulator: ServerHandle) -> None:
    """`aftui tail X | head -1`, `| grep -m1 ...`: once the reader has what it wanted, the next line ends the tail
    (exit 0, no traceback), as a `wait for the first matching event` one-liner needs."""
    ping = source_named(emulator, "Partner ping")
    proc = subprocess.Popen(
        [sys.executable, "-m", "aftui.cli", "tail", ping.id, "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONFAULTHANDLER": "1"},
    )
    try:
        assert proc.stderr is not None and proc.stdout is not None
        assert b"connected" in proc.stderr.readline()
        emit(root, ping.id, 1)
        assert b'"n":1' in proc.stdout.readline()
        proc.stdout.close()  # head -1 has its line
        deadline = time.monotonic() + 20
        n = 2
        while proc.poll() is None and time.monotonic() < deadline:
            emit(root, ping.id, n)  # the next line finds the pipe closed
            n += 1
            time.sleep(0.2)
        assert proc.wait(timeout=5) == 0
        assert b"Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


def test_tail_stops_cleanly_on_sigterm_and_keeps_what_it_saw(
    running, root: httpx.Client, emulator: ServerHandle, data_dir: Path
) -> None:
    ping = source_named(emulator, "Partner ping")
    tail = running("tail", ping.id, "--json")
    assert tail.wait_for(lambda: tail.said("connected")), tail.err
    ids = [emit(root, ping.id, n) for n in range(3)]
    assert tail.wait_for(lambda: len(tail.out) == 3), (tail.out, tail.err)
    assert tail.stop(signal.SIGTERM) == 0, tail.err
    assert not any("Traceback" in line for line in tail.err), tail.err
    with Journal(data_dir / "journal.sqlite3") as journal:
        assert sorted(e.id for e in journal.recent(ping.id)) == sorted(ids)


def test_tail_across_a_dropped_stream_prints_every_event_once_and_says_so(
    running, root: httpx.Client, emulator: ServerHandle
) -> None:
    ping = source_named(emulator, "Partner ping")
    tail = running("tail", ping.id, "--json")
    assert tail.wait_for(lambda: tail.said("connected")), tail.err
    sent = [emit(root, ping.id, n) for n in range(3)]
    assert tail.wait_for(lambda: len(tail.out) == 3), (tail.out, tail.err)
    root.post("/_emulator/sse/drop", json={"source_id": ping.id}).raise_for_status()
    sent += [emit(root, ping.id, n) for n in range(3, 6)]  # while the stream is down, or just back
    assert tail.wait_for(lambda: len(tail.out) >= 6 and tail.said("resumed")), (tail.out, tail.err)
    assert tail.stop() == 0
    ids = [json.loads(line)["id"] for line in tail.out]
    assert ids == sent  # each once, in order
    assert tail.said("connection lost") and tail.said(f"reconnected, resumed after {sent[2]}")


def test_tail_since_prints_what_is_kept_then_follows_without_a_repeat(
    running, root: httpx.Client, api: httpx.Client, emulator: ServerHandle
) -> None:
    order = source_named(emulator, "Order webhooks")
    workflow_id = emulator.emulator.demo.order_workflow_id
    kept = api.get(f"/sources/{order.id}/event_summaries", params={"limit": 100}).json()["data"]
    newest = max(kept, key=lambda e: e["indexed_at_ms"])
    errors = api.get(f"/workflows/{workflow_id}/$errors/event_summaries", params={"limit": 100}).json()["data"]
    tail = running(
        "tail", "Order webhooks", "--errors", "Validate and forward orders", "--since", "2026-11-01T07:00:00Z", "--json"
    )
    assert tail.wait_for(lambda: tail.said("connected") and tail.said("polling $errors")), tail.err
    assert tail.said(f"connected, resuming after {newest['id']}")
    since_ms = int(datetime(2026, 11, 1, 7, 0, tzinfo=UTC).timestamp() * 1000)
    expected_events = sorted((e["id"] for e in kept if e["indexed_at_ms"] >= since_ms), key=key)
    expected_errors = sorted((e["id"] for e in errors if e["indexed_at_ms"] >= since_ms), key=key)
    want = len(expected_events) + len(expected_errors)
    assert tail.wait_for(lambda: len(tail.out) >= want), (tail.out, tail.err)
    endpoint = emulator.emulator.demo.order_endpoint_key
    root.post(f"/e/{endpoint}", json={"order_id": "ord_new"}).raise_for_status()  # no customer_email: an error
    assert tail.wait_for(lambda: len(tail.out) >= want + 1), (tail.out, tail.err)
    assert tail.stop() == 0
    records = [json.loads(line) for line in tail.out]
    streamed = [r["id"] for r in records if r["metadata"]["emitter_id"] == order.id]
    failed = [r["id"] for r in records if r["metadata"].get("name") == "$errors"]
    assert streamed == expected_events
    assert failed[:-1] == expected_errors and len(failed) == len(set(failed))
    # Oldest first across the feeds: a source's backlog, then older errors, misled a script keeping the last id.
    backlog = [r["id"] for r in records[:want]]
    assert backlog == sorted(expected_events + expected_errors, key=key)
    assert records[-1]["event"]["original_event"]["body"]["order_id"] == "ord_new"


def test_tail_quiet_says_nothing_but_failures(running, emulator: ServerHandle, root: httpx.Client) -> None:
    ping = source_named(emulator, "Partner ping")
    tail = running("tail", ping.id, "--quiet")
    emit(root, ping.id, 7)  # may come before the stream opens: then it is simply not seen
    sent = []

    def arrived() -> bool:
        sent.append(emit(root, ping.id, 8))
        return any('"n":8' in line for line in tail.out)

    assert tail.wait_for(arrived), tail.err
    assert tail.stop() == 0
    assert tail.err == []


def test_tail_of_an_unknown_source_fails_with_4(aftui: Aftui) -> None:
    done = aftui("tail", "dc_nothere1")
    assert done.code == 4 and "not found" in done.err


def test_a_data_dir_that_cannot_be_used_costs_only_the_journal(
    aftui: Aftui, emulator: ServerHandle, monkeypatch, tmp_path: Path
) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setenv("AFTUI_DATA_DIR", str(blocked / "data"))  # a file where a folder should be made
    done = aftui("events", "Order webhooks", "-n", "2", "--json")
    assert done.code == 0, done.err
    assert len(done.records()) == 2
    assert "not journaling" in done.err
    listed = aftui("workflows", "--json")
    assert listed.code == 0, listed.err
    assert "Validate and forward orders" in {r["name"] for r in listed.records()}
    assert "no workflow is remembered" in listed.err


def test_events_json_says_on_stderr_when_a_payload_was_cut_at_its_depth(aftui: Aftui, root: httpx.Client) -> None:
    hostile = root.post("/_emulator/hostile").json()
    done = aftui("events", hostile["source_id"], "-n", "100", "--json")
    assert done.code == 0, done.err
    assert "nested deeper than 100 levels: what is deeper is cut" in done.err  # the line alone did not say it
    assert sum("is nested deeper" in line for line in done.err.splitlines()) == 1  # the one deep event


def test_a_since_in_the_future_is_a_usage_error_and_a_few_minutes_are_skew() -> None:
    """`--since 2026-12-01` (next month) kept nothing and exited 0: to a cron job, "no errors"."""
    now = int(datetime(2026, 11, 28, 12, 0, tzinfo=UTC).timestamp() * 1000)
    with pytest.raises(argparse.ArgumentTypeError, match=r"is in the future \(it is 2026-11-28T12:00:00Z now\)"):
        parse_since("2026-12-01", now_ms=now)
    assert parse_since("2026-11-28T12:04:00Z", now_ms=now).ms == now + 4 * 60 * 1000  # the service's clock may lead
    assert parse_since("1h", now_ms=now).ms == now - 3600 * 1000


def test_errors_since_a_future_time_exits_2_saying_so(aftui: Aftui) -> None:
    done = aftui("errors", "--since", "2099-01-01")
    assert done.code == 2 and "is in the future" in done.err


def test_tail_with_max_time_reconnects_after_a_hang(running, root: httpx.Client, emulator: ServerHandle) -> None:
    """--max-time bounds each of tail's requests and cuts no stream: one request that ran it out refused every
    reconnect after it ("not sent: --max-time had run out on an earlier request"), and the tail was dead with
    the service back (an on-call walk)."""
    ping = source_named(emulator, "Partner ping")
    hang = {"path": f"/v1/sources/{ping.id}", "method": "GET", "delay": 5, "count": 2}
    root.post("/_emulator/faults", json=hang).raise_for_status()
    tail = running("--max-time", "1", "tail", ping.id, "--json")
    try:
        assert tail.wait_for(lambda: tail.said("connected"), timeout=30), tail.err
    finally:
        root.delete("/_emulator/faults").raise_for_status()
    sent = emit(root, ping.id, 1)
    assert tail.wait_for(lambda: len(tail.out) == 1), (tail.out, tail.err)
    assert json.loads(tail.out[0])["id"] == sent
    assert tail.stop() == 0
    assert not tail.said("not sent: --max-time had run out")


def test_tail_by_name_in_an_outage_takes_the_name_from_the_last_list(
    aftui: Aftui, running, root: httpx.Client, emulator: ServerHandle
) -> None:
    """`tail "Partner ping"` exited 5 at once in a 503 (the sources could not be listed), where `tail dc_…` waited
    for the service: a tail started during a blip behaved by how it was named (an on-call walk)."""
    ping = source_named(emulator, "Partner ping")
    assert aftui("sources").code == 0  # the list printed: its names are kept
    root.post("/_emulator/faults", json={"path": "/v1", "status": 503, "count": 10_000}).raise_for_status()
    tail = running("tail", "Partner ping", "--json")
    try:
        assert tail.wait_for(lambda: tail.said("'Partner ping' is named from the last list")), tail.err
    finally:
        root.delete("/_emulator/faults").raise_for_status()
    assert tail.wait_for(lambda: tail.said("connected"), timeout=30), tail.err
    sent = emit(root, ping.id, 1)
    assert tail.wait_for(lambda: len(tail.out) == 1), (tail.out, tail.err)
    assert json.loads(tail.out[0])["id"] == sent
    assert tail.stop() == 0
