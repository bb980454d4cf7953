"""Every file of the journal is 0600, whatever the umask: the database, its -wal and -shm, the replay log's."""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from aftui.api.models import EventSummary
from aftui.journal import Journal, JournalWriter
from aftui.journal.replays import ReplayLog
from aftui.journal.retention import Retention, open_writer


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def journal_files(path: Path) -> list[Path]:
    return [path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")]


@pytest.fixture
def lax_umask() -> Iterator[None]:
    """umask 000: without care, SQLite would make the files 0666 (0644 under the usual 022)."""
    old = os.umask(0)
    try:
        yield
    finally:
        os.umask(old)


def ev(i: int) -> EventSummary:
    return EventSummary(id=f"{1_700_000_000_000 + i}-0", event={"n": i}, metadata={"emitter_id": "dc_a"})


def test_a_new_journal_and_its_wal_and_shm_are_0600(tmp_path: Path, lax_umask: None) -> None:
    path = tmp_path / "data" / "journal.sqlite3"
    with Journal(path) as journal:
        journal.add([ev(i) for i in range(10)])
        files = journal_files(path)
        assert all(p.exists() for p in files), [p.name for p in files if not p.exists()]
        assert {p.name: oct(mode(p)) for p in files} == {p.name: "0o600" for p in files}
    assert oct(mode(path)) == "0o600"


def test_the_writer_the_retention_opener_and_the_replay_log_make_private_files(tmp_path: Path, lax_umask: None) -> None:
    replays = tmp_path / "replays" / "journal.sqlite3"
    with ReplayLog(replays) as log:  # the replay log may be the first to make the journal's file
        log.started(
            "r1", emitter_id="p_1", event_id="1-0", workflow_id="p_1", method="POST", target_url="u", edited=False
        )
        assert {oct(mode(p)) for p in journal_files(replays)} == {"0o600"}
    path = tmp_path / "journal.sqlite3"
    writer = open_writer(path, Retention(None, None))
    assert isinstance(writer, JournalWriter)
    try:
        writer.add([ev(1), ev(2)])
        writer.flush()
        assert {oct(mode(p)) for p in journal_files(path)} == {"0o600"}
    finally:
        writer.close()
        writer.journal.close()


def test_files_an_older_aftui_left_readable_are_made_private(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    old = os.umask(0o022)
    try:
        older = sqlite3.connect(path, isolation_level=None)  # as aftui did before: files under the umask, 0644
        older.execute("PRAGMA journal_mode = WAL")
        older.execute("CREATE TABLE t (x)")
        older.execute("INSERT INTO t VALUES (1)")
    finally:
        os.umask(old)
    try:
        assert {oct(mode(p)) for p in journal_files(path)} == {"0o644"}  # held open: the WAL and SHM stay
        with Journal(path):
            assert {p.name: oct(mode(p)) for p in journal_files(path)} == {p.name: "0o600" for p in journal_files(path)}
    finally:
        older.close()
