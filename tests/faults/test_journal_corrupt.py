"""A damaged journal: said plainly, moved aside with a UTC stamp (with its -wal and -shm), a fresh one started, never a crash.

The damage is real: garbage written over pages of a journal aftui wrote, its file cut short, or a
file that never was a database.
"""

from __future__ import annotations

import logging
import os
import random
import shutil
import sqlite3
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from aftui.api.models import EventSummary
from aftui.journal import Journal
from aftui.journal.dbfile import move_aside, side_paths
from aftui.journal.retention import open_journal

T0 = 1_700_000_000_000
PAGE = 4096


def ev(i: int) -> EventSummary:
    return EventSummary(
        id=f"{T0 + i}-0", event={"order": i, "note": "parcel " + "x" * 200}, metadata={"emitter_id": f"dc_{i % 5}"}
    )


def real_journal(path: Path, n: int = 3000) -> None:
    with Journal(path) as journal:
        journal.add([ev(i) for i in range(n)])
    assert not path.with_name(path.name + "-wal").exists()  # checkpointed on close: the pages are in the file


def garbage_in_header(path: Path) -> None:
    with path.open("r+b") as file:
        file.write(random.Random(1).randbytes(100))


def garbage_in_pages(path: Path) -> None:
    """Random bytes over eight whole pages in the middle of the file: events' b-tree pages."""
    pages = path.stat().st_size // PAGE
    assert pages > 40
    with path.open("r+b") as file:
        file.seek((pages // 2) * PAGE)
        file.write(random.Random(2).randbytes(8 * PAGE))


def cut_short(path: Path) -> None:
    with path.open("r+b") as file:
        file.truncate(path.stat().st_size // 3)


def not_a_database(path: Path) -> None:
    path.write_bytes(random.Random(3).randbytes(64 * 1024))


DAMAGE: dict[str, Callable[[Path], None]] = {
    "garbage in the header page": garbage_in_header,
    "garbage in the pages": garbage_in_pages,
    "cut short": cut_short,
    "not a database at all": not_a_database,
}


def readable(path: Path) -> bool:
    """Whether SQLite reads the whole file without finding damage."""
    db = sqlite3.connect(path)
    try:
        return db.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    except sqlite3.DatabaseError:
        return False
    finally:
        db.close()


@pytest.mark.parametrize("damage", list(DAMAGE), ids=list(DAMAGE))
def test_a_damaged_journal_is_moved_aside_and_a_fresh_one_started(
    tmp_path: Path, damage: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "journal.sqlite3"
    real_journal(path)
    DAMAGE[damage](path)
    assert not readable(path), "the damage was not done: the test would prove nothing"
    damaged = path.read_bytes()

    with caplog.at_level(logging.ERROR, logger="aftui.journal"):
        opened = open_journal(path)
    try:
        assert opened.writer is not None and opened.problem is None
        journal = opened.writer.journal
        assert journal.recovered is not None
        aside = journal.recovered.moved_to
        assert aside.name.startswith("journal.sqlite3.corrupt-") and aside.name.endswith("Z")
        assert aside.read_bytes() == damaged  # moved, not changed: whoever wants to rescue rows has them
        assert stat.S_IMODE(aside.stat().st_mode) == 0o600
        assert opened.notice is not None and "damaged" in opened.notice and aside.name in opened.notice
        assert any("is damaged" in r.getMessage() and aside.name in r.getMessage() for r in caplog.records)
        # the fresh journal works
        assert journal.count() == 0
        opened.writer.add([ev(1), ev(2)])
        opened.writer.flush()
        assert journal.count() == 2 and [e.id for e in journal.search("parcel")] == [ev(2).id, ev(1).id]
    finally:
        opened.close()
    assert readable(path)
    with Journal(path) as again:
        assert again.recovered is None and again.count() == 2


def test_the_wal_and_shm_go_aside_with_their_database(tmp_path: Path) -> None:
    live = tmp_path / "live.sqlite3"
    path = tmp_path / "journal.sqlite3"
    with Journal(live) as journal:
        journal.add([ev(i) for i in range(3000)])
        journal.index_now()
        sqlite3.connect(live).execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        journal.add([ev(i) for i in range(3000, 3010)])  # in the WAL only
        for suffix in ("", "-wal", "-shm"):  # a snapshot of a journal in use
            shutil.copy2(live.with_name(live.name + suffix), path.with_name(path.name + suffix))
    assert path.with_name(path.name + "-wal").stat().st_size > 0
    garbage_in_pages(path)  # pages the WAL has no newer copy of

    aside = move_aside(path)
    assert {p.name for p in tmp_path.iterdir() if ".corrupt-" in p.name} == {
        aside.name,
        aside.name + "-wal",
        aside.name + "-shm",
    }
    assert not any(p.exists() for p in side_paths(path))  # nothing of it left for a fresh journal to trip on

    for suffix in ("", "-wal", "-shm"):
        os.replace(aside.with_name(aside.name + suffix), path.with_name(path.name + suffix))
    with Journal(path) as fresh:
        # Closing the damaged file's connection wrote its WAL's committed pages into it (SQLite
        # checkpoints on close): they went aside inside the database file, and no WAL was left behind.
        assert fresh.recovered is not None and fresh.recovered.moved_to.exists()
        assert fresh.count() == 0
        moved = fresh.recovered.moved_to
        assert not moved.with_name(moved.name + "-wal").exists()


def test_two_damaged_journals_in_one_second_get_two_names(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    names = set()
    for _ in range(2):
        not_a_database(path)
        with Journal(path) as journal:
            assert journal.recovered is not None
            names.add(journal.recovered.moved_to.name)
    assert len(names) == 2 and all((tmp_path / name).exists() for name in names)
