"""FTS rows are written by `Journal.add` a batch (or a second) at a time, not by a per-row trigger: same results, and old journals upgrade."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from aftui.api.models import EventSummary
from aftui.journal import Journal, JournalWriter, fts5_available

pytestmark = pytest.mark.skipif(not fts5_available(), reason="SQLite without FTS5")


def ev(i: int, word: str) -> EventSummary:
    return EventSummary(
        id=f"{1_700_000_000_000 + i}-0",
        event={"note": word, "i": i},
        metadata={"emitter_id": "dc_a", "name": "default"},
    )


def indexed(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT count(*) FROM events_fts WHERE events_fts MATCH 'default'").fetchone()[0]
    finally:
        db.close()


def intact(path: Path) -> None:
    """FTS5's own check of the index against the events table; raises if they differ."""
    db = sqlite3.connect(path)
    try:
        db.execute("INSERT INTO events_fts(events_fts, rank) VALUES ('integrity-check', 1)")
    finally:
        db.close()


def test_every_new_row_is_indexed_once_across_batches_duplicates_and_prunes(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal(path, index_every_s=0) as journal:
        assert journal.add([ev(i, "alpha") for i in range(10)]) == 10
        assert journal.add([ev(i, "alpha") for i in range(5, 15)]) == 5, "duplicates are ignored, not indexed again"
        assert journal.add([ev(i, "omega") for i in range(15, 20)]) == 5
        assert indexed(path) == 20
        assert [e.event["i"] for e in journal.search("omega")] == [19, 18, 17, 16, 15]
        assert journal.prune(max_rows=8) == 12
        assert indexed(path) == 8, "the delete trigger still keeps the index in step"
        assert journal.add([ev(i, "beta") for i in range(20, 23)]) == 3
        assert [e.event["i"] for e in journal.search("alpha")] == [14, 13, 12], "the oldest 12 went"
        assert len(journal.search("beta")) == 3 and len(journal.search("omega")) == 5


def test_a_journal_with_the_old_insert_trigger_drops_it_and_indexes_once(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal(path):
        pass
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TRIGGER events_fts_insert AFTER INSERT ON events BEGIN "
        "INSERT INTO events_fts(rowid, payload, emitter_id, channel) VALUES (new.rowid, new.payload, new.emitter_id, new.channel); END"
    )
    db.commit()
    db.close()
    with Journal(path) as journal:
        journal.add([ev(1, "gamma"), ev(2, "gamma")])
        assert len(journal.search("gamma")) == 2
    assert indexed(path) == 2
    db = sqlite3.connect(path)
    assert db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'events_fts_insert'").fetchone()[0] == 0
    db.close()


def test_rows_may_wait_for_the_index_but_no_search_or_prune_misses_them(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal(path, index_every_s=3600) as journal:
        journal.add([ev(i, "alpha") for i in range(10)])
        assert indexed(path) == 0 and journal.unindexed
        assert len(journal.search("alpha")) == 10, "a search brings the index up to date first"
        assert indexed(path) == 10 and not journal.unindexed
        journal.add([ev(-1, "old")])  # stored last, oldest in time: the largest rowid goes in the prune
        assert journal.prune(max_rows=5) == 6
        intact(path)
        journal.add([ev(20, "gamma")])  # may take the freed largest rowid
        assert [e.event["i"] for e in journal.search("gamma")] == [20]
        journal.add([ev(21, "delta")])
    assert indexed(path) == 7, "closing indexes what waited"
    intact(path)


def test_the_writer_indexes_once_the_stream_quiets(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path, index_every_s=3600)
    writer = JournalWriter(journal, interval=0.05)
    try:
        writer.add([ev(i, "quiet") for i in range(50)])
        deadline = time.monotonic() + 10
        while indexed(path) < 50 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert indexed(path) == 50
    finally:
        writer.close()
        journal.close()
    intact(path)


def test_another_process_indexing_the_same_journal_is_not_indexed_twice(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal(path, index_every_s=3600) as one, Journal(path, index_every_s=3600) as two:
        one.add([ev(i, "shared") for i in range(5)])
        assert len(two.search("shared")) == 5  # the second indexes the first's rows
        one.index_now()  # the first reads how far the index got, and adds nothing twice
        intact(path)
        assert indexed(path) == 5
