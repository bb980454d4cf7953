"""A replay sent with its outcome unknown (an outage hid it) is looked for again by the next command that reads the
error's state, and takes the outcome its traces show: unknown, it was left out of every selection for good."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import httpx

from aftui.emulator.server import ServerHandle
from aftui.journal.replays import ReplayLog

from .conftest import Aftui
from .test_errors_replay import WORKFLOW, emitted_by, errors_of, fail_order

FIX = {"customer_email": "ops@example.com"}


def sent_unknown(
    emulator: ServerHandle, root: httpx.Client, data_dir: Path, error_id: str, replay_id: str, body: dict
) -> None:
    """What an outage leaves: the replay went through to the endpoint, and the journal says "unknown"."""
    demo = emulator.emulator.demo
    journal = data_dir / "journal.sqlite3"
    with ReplayLog(journal) as log:
        log.started(
            replay_id,
            emitter_id=demo.order_workflow_id,
            event_id=error_id,
            workflow_id=demo.order_workflow_id,
            method="POST",
            target_url=f"{emulator.base_url}/e/{demo.order_endpoint_key}",
            edited=body.get("customer_email") is not None,
        )
        root.post(f"/e/{demo.order_endpoint_key}", json=body, headers={"x-aftui-replay": replay_id}).raise_for_status()
        log.finished(replay_id, outcome="unknown", status_code=200, detail="no new error and no event; the look failed")
    # Sent at the emulator's time: its clock stands still at the demo's date, weeks before this machine's.
    with sqlite3.connect(journal) as db:
        db.execute(
            "UPDATE replays SET started_at = ? WHERE replay_id = ?", (emulator.emulator.store.clock.now(), replay_id)
        )


def outcome_of(data_dir: Path, replay_id: str) -> tuple[str, str | None]:
    with ReplayLog(data_dir / "journal.sqlite3") as log:
        row = next(r for r in log.recent() if r.replay_id == replay_id)
    return row.outcome, row.outcome_event_id


def test_an_unknown_replay_that_went_through_is_found_replayed_ok(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client, data_dir: Path
) -> None:
    error_id = fail_order(emulator, root, api, "ord_unk_ok")
    original = next(e for e in errors_of(api, emulator.emulator.demo.order_workflow_id) if e["id"] == error_id)
    sent_unknown(
        emulator,
        root,
        data_dir,
        error_id,
        "rp_00000000000000a1",
        {**original["event"]["original_event"]["body"], **FIX},
    )
    done = aftui("errors", WORKFLOW, "--json")
    assert done.code == 0, done.err
    assert (
        f"{error_id}: its replay rp_00000000000000a1, sent with the outcome unknown, is now seen: replayed ok"
        in done.err
    )
    [record] = [r for r in done.records() if r["id"] == error_id]
    assert record["replay"] == "succeeded"
    outcome, event_id = outcome_of(data_dir, "rp_00000000000000a1")
    emitted = {e["id"]: e["event"] for e in emitted_by(api, emulator.emulator.demo.order_workflow_id)}
    assert outcome == "succeeded" and emitted[event_id]["order_id"] == "ord_unk_ok"
    again = aftui("errors", WORKFLOW, "--json")
    assert "unknown" not in again.err, "settled once: not looked for again"


def test_an_unknown_replay_that_failed_again_is_found_and_replayed_by_the_next_selection(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client, data_dir: Path
) -> None:
    workflow_id = emulator.emulator.demo.order_workflow_id
    error_id = fail_order(emulator, root, api, "ord_unk_failed")
    original = next(e for e in errors_of(api, workflow_id) if e["id"] == error_id)
    sent_unknown(emulator, root, data_dir, error_id, "rp_00000000000000b2", original["event"]["original_event"]["body"])
    done = aftui("replay", "--workflow", WORKFLOW, "--since", "2026-10-01T00:00:00Z", "--dry-run", "--json")
    assert "is now seen: failed again" in done.err, done.err
    outcome, new_error = outcome_of(data_dir, "rp_00000000000000b2")
    assert outcome == "failed"
    carried = next(e for e in errors_of(api, workflow_id) if e["id"] == new_error)
    assert carried["event"]["original_event"]["headers"]["x-aftui-replay"] == "rp_00000000000000b2"
    # Failed again, it is what a selection sends: once unknown, it was left out ("it may have run").
    assert error_id in {r["error_id"] for r in done.records()}, done.out


def test_an_unknown_replay_with_no_trace_stays_unknown_and_left_out(
    aftui: Aftui, emulator: ServerHandle, root: httpx.Client, api: httpx.Client, data_dir: Path
) -> None:
    error_id = fail_order(emulator, root, api, "ord_unk_none")
    demo = emulator.emulator.demo
    with ReplayLog(data_dir / "journal.sqlite3") as log:  # never reached the endpoint: nothing of it to find
        log.started(
            "rp_00000000000000c3",
            emitter_id=demo.order_workflow_id,
            event_id=error_id,
            workflow_id=demo.order_workflow_id,
            method="POST",
            target_url="x",
            edited=False,
        )
        log.finished("rp_00000000000000c3", outcome="unknown", status_code=200, detail="no look answered")
    done = aftui("errors", WORKFLOW, "--json")
    assert "1 replay still with an unknown outcome" in done.err, done.err
    [record] = [r for r in done.records() if r["id"] == error_id]
    assert record["replay"] == "unknown"
    assert outcome_of(data_dir, "rp_00000000000000c3") == ("unknown", None)
    chosen = aftui("replay", "--workflow", WORKFLOW, "--since", "2026-10-01T00:00:00Z", "--dry-run", "--json")
    assert error_id not in {r["error_id"] for r in chosen.records()}, "it may have run: not sent again unasked"
