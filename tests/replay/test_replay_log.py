"""The replays table lives in the journal's file beside the events, and joins to the event each replay replayed."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

from aftui.api.models import EventSummary
from aftui.journal.pgstore import PgJournal
from aftui.journal.replays import ReplayLog
from aftui.journal.store import Journal
from aftui.replay.who import replayed_words, sent_by


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


def _start(log, replay_id: str, event_id: str = "100-0") -> None:
    log.started(
        replay_id, emitter_id="p_wf", event_id=event_id, workflow_id="p_wf",
        method="POST", target_url="https://e.test/", edited=False,
    )  # fmt: skip


def test_a_replay_names_who_sent_it_and_when(tmp_path: Path) -> None:
    with ReplayLog(tmp_path / "journal.sqlite3", by="alice") as log:
        _start(log, "rp_1")
        log.finished("rp_1", outcome="succeeded", status_code=200)
        [row] = log.of_event("p_wf", "100-0")
    assert row.replayed_by == "alice"
    assert replayed_words(row, now=row.started_at + 185) == "replayed by alice 3 min ago, succeeded"
    assert sent_by(row, now=row.started_at + 185) == "by alice 3 min ago"
    # Read by alice herself: her own replay, not a teammate's (a newcomer took the demo's user for one).
    assert replayed_words(row, now=row.started_at + 185, me="alice") == "replayed by you 3 min ago, succeeded"
    assert sent_by(row, now=row.started_at + 185, me="bob") == "by alice 3 min ago"
    pending = replace(row, outcome="pending", replayed_by=None)
    assert replayed_words(pending, now=row.started_at + 2) == "replayed just now, outcome not known yet"
    hostile = replace(row, replayed_by="mal\x1b[31mlory", outcome="failed")
    assert replayed_words(hostile, now=row.started_at + 7200) == "replayed by mal\\e[31mlory 2 h ago, failed again"


def test_a_replay_table_of_an_older_aftui_gains_who_replayed(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with ReplayLog(path) as log:
        _start(log, "rp_old")
    db = sqlite3.connect(path)
    db.execute("ALTER TABLE replays DROP COLUMN replayed_by")  # as an aftui before it left the table
    db.commit()
    db.close()
    with ReplayLog(path, by="bob") as log:
        _start(log, "rp_new", "101-0")
        assert [r.replayed_by for r in log.recent()] == ["bob", None]  # the old row names nobody, and is kept


def test_the_team_replay_log_on_postgresql_is_everyones(pg_url: str) -> None:
    with PgJournal(pg_url) as alices, PgJournal(pg_url) as bobs:
        log = alices.replays()
        log.by = "alice"
        _start(log, "rp_a")
        log.finished("rp_a", outcome="failed", status_code=500, detail="boom")
        [seen] = bobs.replays().of_event("p_wf", "100-0")  # bob, on another machine, sees it
    assert (seen.replayed_by, seen.outcome, seen.status_code, seen.edited) == ("alice", "failed", 500, False)
    assert seen.finished_at is not None and seen.finished_at >= seen.started_at
