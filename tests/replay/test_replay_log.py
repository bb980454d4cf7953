"""The replays table lives in the journal's file beside the events, and joins to the event each replay replayed."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from aftui.api.models import EventSummary
from aftui.journal.replays import ReplayLog
from aftui.journal.store import Journal


def _error(event_id: str) -> EventSummary:
    return EventSummary(
        id=event_id,
        indexed_at_ms=1,
        event={"original_event": {}, "error": {"msg": "x"}},
        metadata={"emitter_id": "p_wf", "name": "$errors"},
    )


def test_replays_share_the_journal_file_and_link_to_their_event(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        journal.add([_error("100-0"), _error("101-0")])
    with ReplayLog(path) as log:
        log.started(
            "rp_1",
            emitter_id="p_wf",
            event_id="100-0",
            workflow_id="p_wf",
            method="POST",
            target_url="https://e.test/e/k/",
            edited=True,
        )
        log.finished(
            "rp_1",
            outcome="succeeded",
            status_code=200,
            detail="ran",
            outcome_emitter_id="p_wf",
            outcome_event_id="105-0",
        )
        log.started(
            "rp_2",
            emitter_id="p_wf",
            event_id="101-0",
            workflow_id="p_wf",
            method="POST",
            target_url="https://e.test/e/k/",
            edited=False,
        )
        pending = log.of_event("p_wf", "101-0")
    assert [(r.replay_id, r.outcome, r.finished_at) for r in pending] == [
        ("rp_2", "pending", None)
    ]  # sent, outcome not known yet

    with Journal(path) as journal:  # the event store opens as before, its rows untouched
        assert journal.count() == 2
    db = sqlite3.connect(path)
    joined = db.execute(
        "SELECT r.replay_id, e.event_id, r.outcome, r.status_code, r.edited, r.outcome_event_id FROM replays r "
        "JOIN events e ON e.emitter_id = r.emitter_id AND e.event_id = r.event_id ORDER BY r.replay_id"
    ).fetchall()
    db.close()
    assert joined == [("rp_1", "100-0", "succeeded", 200, 1, "105-0"), ("rp_2", "101-0", "pending", None, 0, None)]
