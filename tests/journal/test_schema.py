"""The journal's schema version and its migrations: an older journal is upgraded in place, a newer one refused plainly."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from aftui.api.models import EventSummary
from aftui.journal import Journal, fts5_available
from aftui.journal.retention import open_journal
from aftui.journal.store import MIGRATIONS, PAGE_SIZE, SCHEMA_VERSION, JournalTooNew

T0 = 1_700_000_000_000


def ev(i: int, word: str = "parcel") -> EventSummary:
    return EventSummary(id=f"{T0 + i}-0", event={"note": f"{word} {i}"}, metadata={"emitter_id": "dc_a"})


def tables(path: Path) -> set[str]:
    db = sqlite3.connect(path)
    try:
        return {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'index')")}
    finally:
        db.close()


def version(path: Path) -> list[tuple[int]]:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT version FROM schema_version").fetchall()
    finally:
        db.close()


def make_version_1(path: Path) -> None:
    """A journal of today's schema, with what came after version 1 taken out and version 1 written: as the first aftui left it."""
    with Journal(path) as journal:
        journal.add([ev(i) for i in range(50)])
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("DROP TABLE gaps")
        db.execute("UPDATE schema_version SET version = 1")
    finally:
        db.close()
    assert "gaps" not in tables(path) and version(path) == [(1,)]


def test_a_new_journal_has_todays_version_after_every_migration(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        assert journal.migrated_from is None
        assert journal.stats()["schema_version"] == SCHEMA_VERSION == 1 + len(MIGRATIONS)
    assert version(path) == [(SCHEMA_VERSION,)]
    assert {"events", "meta", "schema_version", "gaps", "gaps_by_emitter"} <= tables(path)


def test_a_journal_of_version_1_is_upgraded_and_keeps_its_events(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "journal.sqlite3"
    make_version_1(path)
    with caplog.at_level(logging.INFO, logger="aftui.journal"), Journal(path) as journal:
        assert journal.migrated_from == 1
        assert journal.count() == 50
        assert [e.id for e in journal.search("parcel", limit=3)] == [ev(49).id, ev(48).id, ev(47).id]
        journal.add([ev(50)])
        assert journal.count() == 51
    assert version(path) == [(SCHEMA_VERSION,)]
    assert "gaps" in tables(path)
    assert any("upgraded from schema 1" in r.getMessage() for r in caplog.records)
    with Journal(path) as again:  # once upgraded, nothing more to do
        assert again.migrated_from is None


def test_the_opener_says_a_journal_was_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    make_version_1(path)
    opened = open_journal(path)
    try:
        assert opened.writer is not None and opened.problem is None
        assert opened.notice is not None and f"upgraded from version 1 to {SCHEMA_VERSION}" in opened.notice
    finally:
        opened.close()


def test_a_failed_migration_leaves_the_journal_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "journal.sqlite3"
    make_version_1(path)
    broken = [*MIGRATIONS[:-1], (MIGRATIONS[-1][0], MIGRATIONS[-1][1] + "\nCREATE TABLE events (x);\n")]
    monkeypatch.setattr("aftui.journal.store.MIGRATIONS", broken)
    with pytest.raises(sqlite3.OperationalError, match="already exists"):
        Journal(path)
    assert version(path) == [(1,)] and "gaps" not in tables(path)  # one transaction: all of it or none
    assert path.exists() and not list(tmp_path.glob("*.corrupt-*"))  # not taken for a damaged file
    monkeypatch.undo()
    with Journal(path) as journal:
        assert journal.migrated_from == 1 and journal.count() == 50


def test_a_journal_of_a_newer_aftui_is_refused_plainly_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        journal.add([ev(1)])
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    db.close()
    with pytest.raises(JournalTooNew, match=f"schema version {SCHEMA_VERSION + 1}, newer than this aftui"):
        Journal(path)
    assert path.exists() and not list(tmp_path.glob("*.corrupt-*"))  # neither moved aside nor changed
    db = sqlite3.connect(path)
    assert db.execute("SELECT event_id FROM events").fetchall() == [(ev(1).id,)]
    db.close()
    opened = open_journal(path)
    assert opened.writer is None
    assert opened.problem is not None and "newer aftui" in opened.problem
    assert version(path) == [(SCHEMA_VERSION + 1,)]


def test_a_search_index_that_keeps_row_sizes_is_made_again_without_them(tmp_path: Path) -> None:
    """Earlier aftuis kept each row's token counts (FTS5's docsize), which nothing reads: half the cost of indexing."""
    if not fts5_available():
        pytest.skip("SQLite without FTS5")
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        journal.add([ev(i, "parcel" if i % 2 else "letter") for i in range(20)])
    db = sqlite3.connect(path, isolation_level=None)
    try:  # the index as those aftuis made it
        db.execute("DROP TABLE events_fts")
        db.execute(
            "CREATE VIRTUAL TABLE events_fts USING fts5(payload, emitter_id, channel, content='events', "
            "content_rowid='rowid', tokenize='unicode61 remove_diacritics 2')"
        )
        db.execute("INSERT INTO events_fts(events_fts) VALUES ('rebuild')")
    finally:
        db.close()
    assert "events_fts_docsize" in tables(path)
    with Journal(path) as journal:
        assert journal.migrated_from is None  # the schema's version is the same: only the index is made again
        assert [e.id for e in journal.search('"letter 4"')] == [ev(4).id]
        assert len(journal.search("parcel")) == 10
        journal.add([ev(20, "letter")])
        assert [e.id for e in journal.search("letter", limit=1)] == [ev(20).id]
    assert "events_fts_docsize" not in tables(path)
    with Journal(path) as again:  # made once
        assert len(again.search("letter")) == 11


def page_size(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return int(db.execute("PRAGMA page_size").fetchone()[0])
    finally:
        db.close()


def test_a_new_journal_has_larger_pages_and_an_old_one_keeps_its_own(tmp_path: Path) -> None:
    """8 KiB pages make a burst cheaper to store and index; a journal made with SQLite's 4 KiB keeps them, and works."""
    new = tmp_path / "new.sqlite3"
    with Journal(new) as journal:  # checked at open (quick_check) as the app opens it: that read must not fix the size
        journal.add([ev(i) for i in range(10)])
    assert page_size(new) == PAGE_SIZE == 8192

    old = tmp_path / "old.sqlite3"
    db = sqlite3.connect(old, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("CREATE TABLE made_before (x)")  # the file exists with SQLite's default pages
    db.close()
    with Journal(old) as journal:
        journal.add([ev(i) for i in range(10)])
        assert [e.id for e in journal.search("parcel", limit=3)] == [f"{T0 + i}-0" for i in (9, 8, 7)]
    assert page_size(old) == 4096
