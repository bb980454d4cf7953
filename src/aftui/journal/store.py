"""The journal: every event aftui has seen, in one SQLite file, searchable.

Stdlib `sqlite3` only (no Textual, no emulator): the TUI, the headless
commands and the benchmarks share it. One `Journal` holds one connection
guarded by a lock, so a `JournalWriter` thread and a reader on another thread
may share it safely; WAL lets other processes read while we write.

Rows are keyed by (emitter_id, event_id): adding an event twice, from a
stream, a poll and a listing alike, stores it once.
"""

from __future__ import annotations

import logging
import math
import sqlite3
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from ..api.rawevent import RawEvent
from . import queries
from .dbfile import connect, is_corrupt, move_aside
from .location import default_path
from .replays import ReplayLog
from .rows import Row, rows_of, summary_of_row

if TYPE_CHECKING:
    from ..api.models import EventSummary

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "Gap", "Journal", "JournalTooNew", "Recovery", "fts5_available"]

log = logging.getLogger(__name__)


# The schema a journal of the first version has (aftui before migrations). A new journal is made as
# one of those and brought up to date by the same migrations an old one goes through, so every
# migration runs on every new journal: none can rot unnoticed.
_SCHEMA = """
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS events (
    emitter_id    TEXT NOT NULL,
    event_id      TEXT NOT NULL,
    ms            INTEGER NOT NULL,
    seq           INTEGER NOT NULL,
    channel       TEXT NOT NULL,
    indexed_at_ms INTEGER,
    payload       TEXT,
    metadata      TEXT,
    seen_at       REAL NOT NULL,
    PRIMARY KEY (emitter_id, event_id)
);
CREATE INDEX IF NOT EXISTS events_by_time ON events (ms, seq);
CREATE INDEX IF NOT EXISTS events_by_emitter_time ON events (emitter_id, ms, seq);
"""

# External-content FTS5 over events(payload, emitter_id, channel). Deletes and
# updates are kept in sync by triggers; inserts are indexed by `add`, once per
# batch, with one INSERT ... SELECT over the batch's new rows: a per-row insert
# trigger cost about three times as much (18 us a row against 3 us on the
# project's machine), and the monitor journals tens of thousands of events a
# second. Why external content: the payload is already stored once
# in `events`; a regular FTS table would store it a second time, and a
# contentless one cannot give back column values for the 'delete' command
# without us passing them (which the triggers do here anyway, from `old`).
# The rowid of `events` is the link: it stays stable because we never run a
# plain VACUUM (which may renumber rowids of a table without an INTEGER
# PRIMARY KEY); space is given back with `PRAGMA incremental_vacuum`, which
# moves pages, not rows. Why columnsize=0: FTS5 otherwise keeps every row's
# token counts in a table of their own, for ranking (bm25); searches here list
# matches by time and never rank, and writing those counts was half the cost of
# indexing a row (1.0 us against 0.5 us on the project's machine).
_FTS = """
CREATE VIRTUAL TABLE IF NOT EXISTS events_fts USING fts5(
    payload, emitter_id, channel,
    content='events', content_rowid='rowid', columnsize=0, tokenize='unicode61 remove_diacritics 2'
);
DROP TRIGGER IF EXISTS events_fts_insert;
CREATE TRIGGER IF NOT EXISTS events_fts_delete AFTER DELETE ON events BEGIN
    INSERT INTO events_fts(events_fts, rowid, payload, emitter_id, channel) VALUES ('delete', old.rowid, old.payload, old.emitter_id, old.channel);
END;
CREATE TRIGGER IF NOT EXISTS events_fts_update AFTER UPDATE ON events BEGIN
    INSERT INTO events_fts(events_fts, rowid, payload, emitter_id, channel) VALUES ('delete', old.rowid, old.payload, old.emitter_id, old.channel);
    INSERT INTO events_fts(rowid, payload, emitter_id, channel) VALUES (new.rowid, new.payload, new.emitter_id, new.channel);
END;
"""
_TRIGGERS = ("events_fts_insert", "events_fts_delete", "events_fts_update")

# --- migrations ---------------------------------------------------------------------------------------
# MIGRATIONS[n - 1] takes a journal of version n to version n + 1. They run at open, in the set-up's
# transaction (BEGIN IMMEDIATE): a second aftui opening the same old journal waits and then finds it
# migrated; a migration that fails leaves the journal as it was. Add a migration at the end and never
# change one that has shipped.

_V2_GAPS = """
CREATE TABLE IF NOT EXISTS gaps (
    id            INTEGER PRIMARY KEY,
    emitter_id    TEXT NOT NULL,
    from_id       TEXT,
    to_id         TEXT,
    count         INTEGER NOT NULL,
    reason        TEXT,
    recorded_at   REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS gaps_by_emitter ON gaps (emitter_id, id);
"""

MIGRATIONS: list[tuple[str, str]] = [
    ("2: gaps, the events aftui saw but could not keep (a full disk outlasting the writer's buffer)", _V2_GAPS),
]
SCHEMA_VERSION = 1 + len(MIGRATIONS)


class JournalTooNew(Exception):
    """The journal was written by a newer aftui: its schema is one this aftui does not know. Left untouched."""

    def __init__(self, path: Path, found: int) -> None:
        self.path, self.found = path, found
        super().__init__(
            f"the journal at {path} has schema version {found}, newer than this aftui knows ({SCHEMA_VERSION}): "
            "it was written by a newer aftui. It is left as it is; upgrade aftui, or set AFTUI_DATA_DIR to use another."
        )


@dataclass(frozen=True)
class Recovery:
    """A damaged journal found at open, moved aside; a fresh one took its place."""

    moved_to: Path
    reason: str

    @property
    def message(self) -> str:
        return (
            f"The journal was damaged ({self.reason}). It was moved aside to {self.moved_to.name} "
            "and a new journal was started."
        )


@dataclass(frozen=True)
class Gap:
    """Events of one emitter aftui saw and could not keep: ids `from_id` to `to_id`, `count` of them."""

    emitter_id: str
    from_id: str | None
    to_id: str | None
    count: int
    reason: str | None = None
    recorded_at: float = 0.0  # wall-clock seconds it was written to the journal
    id: int | None = None  # its row in the journal, once written

    @property
    def text(self) -> str:
        span = f"{self.from_id} to {self.to_id}" if self.from_id != self.to_id else f"{self.from_id}"
        return f"{self.count:,} event{'s' * (self.count != 1)} of {self.emitter_id} not kept ({span}): {self.reason}"


_INSERT = (
    "INSERT OR IGNORE INTO events (emitter_id, event_id, ms, seq, channel, indexed_at_ms, payload, metadata, seen_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
# Rows per INSERT of many VALUES: one step of SQLite for them all. `executemany` steps once a row,
# giving up the GIL around each and waiting to take it back while the monitor's thread runs: under
# load that wait cost more than the insert (6 us a row against 3 us this way). What is left of a
# batch after its 128s goes in 64, 32, ... 1 at a time (`_insert_of`): eight statements in all, each
# prepared once and kept in the connection's cache.
_CHUNK = 128


@cache
def _insert_of(rows: int) -> str:
    """The INSERT of `rows` rows in one statement."""
    return _INSERT.partition(" VALUES ")[0] + " VALUES " + ",".join(["(?, ?, ?, ?, ?, ?, ?, ?, ?)"] * rows)


# The index is brought up to date with the rows past the last one it has (`fts_upto` in meta): rowids
# of a table without INTEGER PRIMARY KEY grow from the largest in use, and an ignored duplicate takes
# none. After a prune it is set to the largest left, since a new row may then reuse a freed rowid.
_INDEX_NEW = (
    "INSERT INTO events_fts(rowid, payload, emitter_id, channel) "
    "SELECT rowid, payload, emitter_id, channel FROM events WHERE rowid > ?"
)
_BEHIND = (
    "SELECT (SELECT coalesce(max(rowid), 0) FROM events) > "
    "coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'fts_upto'), 0)"
)
INDEX_EVERY_S = 5.0
# 8 KiB pages, not SQLite's 4: a row and its three index entries, and the search index's segments, split
# and write fewer pages. Storing and indexing a streamed event cost 2.6 us against 3.1 (tens of thousands
# a second in a burst). Only a new journal gets them: SQLite keeps a WAL database's page size for good.
PAGE_SIZE = 8192


def fts5_available() -> bool:
    """Whether this Python's SQLite was built with FTS5."""
    probe = sqlite3.connect(":memory:")
    try:
        probe.execute("CREATE VIRTUAL TABLE probe USING fts5(a)")
        return True
    except sqlite3.OperationalError:
        return False
    finally:
        probe.close()


class Journal:
    """A SQLite journal of events. Thread-safe; use as a context manager or call `close()`.

    `fts=False` forces the LIKE fallback (used where FTS5 is missing, and by tests).
    """

    errors: tuple[type[BaseException], ...] = (sqlite3.Error, OSError)  # what a failed write raises

    def __init__(
        self,
        path: Path | str | None = None,
        *,
        fts: bool | None = None,
        index_every_s: float = INDEX_EVERY_S,
        recover: bool = True,
        check: bool = True,
        busy_timeout: float = 10.0,
    ) -> None:
        self.path = Path(path) if path is not None else default_path()
        # How long new rows may wait for the search index while a stream runs (the writer indexes as
        # soon as it is quiet). A burst is stored at once and indexed in one statement afterwards: 1.4 us
        # a row against 3-4 batch by batch, and none of it on the burst's path. Every search, prune and
        # close brings the index up to date first, so none ever misses a row.
        self.index_every_s = index_every_s
        # How long a write waits for another connection's (another aftui's) write lock before it fails
        # with "database is locked"; the writer then keeps the events and tries again (writer.py).
        self.busy_timeout = busy_timeout
        self.unindexed = False  # rows this Journal stored that the index has not taken yet
        self._indexed_at = time.monotonic()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.fts = fts5_available() if fts is None else (fts and fts5_available())
        self._lock = threading.RLock()
        # Set when the file found here was damaged and moved aside (see `Recovery`): the UI says so.
        self.recovered: Recovery | None = None
        self.migrated_from: int | None = None  # the schema version an older aftui left, when this open upgraded it
        try:
            self._db = self._open(check)
        except sqlite3.DatabaseError as error:
            if not (recover and is_corrupt(error)):
                raise
            reason = str(error)
            try:
                moved_to = move_aside(self.path)
            except OSError as cannot:
                raise sqlite3.DatabaseError(
                    f"the journal is damaged ({reason}) and could not be moved aside ({cannot.strerror or cannot})"
                ) from error
            self.recovered = Recovery(moved_to, reason)
            log.error(
                "the journal at %s is damaged (%s): moved aside to %s, a new one started", self.path, reason, moved_to
            )
            self._db = self._open(check=False)

    @property
    def where(self) -> str:
        return str(self.path)

    def replays(self) -> ReplayLog:
        """The replay log in this journal's file (its own table and connection)."""
        return ReplayLog(self.path)

    def _open(self, check: bool) -> sqlite3.Connection:
        """A connection to the journal, checked (`PRAGMA quick_check`) and set up; raises what SQLite found wrong."""
        # isolation_level=None: we open transactions ourselves, one per batch.
        db = connect(self.path, timeout=self.busy_timeout)  # created 0600, with its -wal and -shm (dbfile.py)
        try:
            db.execute(f"PRAGMA page_size = {PAGE_SIZE}")  # a new file's; before the check reads it, which fixes it
            if check:
                _quick_check(db)
            self._setup(db)
        except BaseException:
            db.close()
            raise
        return db

    # --- set-up -----------------------------------------------------------------------------------

    def _setup(self, db: sqlite3.Connection) -> None:
        # auto_vacuum must be chosen before the first table exists; no-op afterwards.
        db.execute("PRAGMA auto_vacuum = INCREMENTAL")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("BEGIN IMMEDIATE")
        try:
            found = _schema_version(db)
            if found is not None and found > SCHEMA_VERSION:
                raise JournalTooNew(self.path, found)
            for statement in _statements(_SCHEMA):
                db.execute(statement)
            if found is None:  # a new journal: the first version's tables, then every migration
                db.execute("INSERT INTO schema_version (version) VALUES (1)")
                found = 1
            elif found < SCHEMA_VERSION:
                self.migrated_from = found
            for version in range(found, SCHEMA_VERSION):
                what, script = MIGRATIONS[version - 1]
                log.debug("journal %s: migrating to %s", self.path, what)
                for statement in _statements(script):
                    db.execute(statement)
            if found != SCHEMA_VERSION:
                db.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION,))
            if self.migrated_from is not None:
                log.info("journal %s upgraded from schema %s to %s", self.path, self.migrated_from, SCHEMA_VERSION)
            if self.fts:
                stale = db.execute("SELECT value FROM meta WHERE key = 'fts_stale'").fetchone() is not None
                if _fts_keeps_sizes(db):  # an earlier aftui's index: made again as today's, in this transaction
                    db.execute("DROP TABLE events_fts")
                    stale = True
                for statement in _statements(_FTS):
                    db.execute(statement)
                if stale:  # written while FTS was off (the index missed rows), or the index made again above
                    db.execute("INSERT INTO events_fts(events_fts) VALUES ('rebuild')")
                    db.execute("DELETE FROM meta WHERE key = 'fts_stale'")
                    _set_indexed_upto(db)
                elif _indexed_upto(db) is None:  # made by an aftui that indexed every batch at once
                    _set_indexed_upto(db)
                self._index_new(db)  # rows an interrupted session stored but did not index
            else:
                # Without FTS5 the triggers of an index made elsewhere would fail every insert.
                had = db.execute(
                    "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'events_fts_%'"
                ).fetchone()[0]
                for name in _TRIGGERS:
                    db.execute(f"DROP TRIGGER IF EXISTS {name}")
                has_index = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'events_fts'").fetchone()
                if had or has_index:
                    db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('fts_stale', '1')")
            db.execute("COMMIT")
        except BaseException:
            _rollback(db)
            raise

    def close(self) -> None:
        with self._lock:
            try:
                self.index_now()
                self._db.execute("PRAGMA optimize")
            except sqlite3.Error:
                pass
            self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writing ----------------------------------------------------------------------------------

    def add(self, events: Iterable[EventSummary | RawEvent], emitter_id: str | None = None) -> int:
        """Store the events not stored yet, in one transaction; return how many were new.

        The emitter is `emitter_id`, else the event's `metadata.emitter_id`; events
        without an id or an emitter cannot be deduplicated and are skipped.
        """
        now = time.time()
        rows = rows_of(events, emitter_id, now)
        if not rows:
            return 0
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                new = _insert(db, rows)
                self.unindexed = self.unindexed or (self.fts and new > 0)
                if self.unindexed and time.monotonic() - self._indexed_at >= self.index_every_s:
                    self._index_new(db)
                db.execute("COMMIT")
            except BaseException:
                _rollback(db)
                raise
        return max(0, new)

    def index_now(self) -> None:
        """Bring the search index up to date with every stored row (a no-op without FTS5)."""
        if not self.fts:
            return
        with self._lock:
            db = self._db
            if not db.execute(_BEHIND).fetchone()[0]:
                self.unindexed = False
                return  # nothing waits (this process's rows or another's): no write lock taken
            db.execute("BEGIN IMMEDIATE")
            try:
                self._index_new(db)
                db.execute("COMMIT")
            except BaseException:
                _rollback(db)
                raise

    def _index_new(self, db: sqlite3.Connection) -> None:
        """Index the rows past `fts_upto`, inside the caller's transaction (read there: another process may write too).

        Callers have checked `self.fts`."""
        self._indexed_at = time.monotonic()
        self.unindexed = False
        upto = _indexed_upto(db) or 0
        top = db.execute("SELECT coalesce(max(rowid), 0) FROM events").fetchone()[0]
        if top > upto:
            db.execute(_INDEX_NEW, (upto,))
            _set_indexed_upto(db, top)

    # --- gaps: events seen and not kept -----------------------------------------------------------------

    def add_gaps(self, gaps: Iterable[Gap]) -> list[Gap]:
        """Write gaps, in one transaction; return them with their ids and time."""
        now = time.time()
        written: list[Gap] = []
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                for gap in gaps:
                    cursor = db.execute(
                        "INSERT INTO gaps (emitter_id, from_id, to_id, count, reason, recorded_at) VALUES (?, ?, ?, ?, ?, ?)",
                        (gap.emitter_id, gap.from_id, gap.to_id, gap.count, gap.reason, now),
                    )
                    written.append(replace(gap, recorded_at=now, id=cursor.lastrowid))
                db.execute("COMMIT")
            except BaseException:
                _rollback(db)
                raise
        return written

    def settle_gap(self, gap_id: int, left: int) -> None:
        """A gap's events were fetched back but `left`: the row keeps that count, or goes when none is missing."""
        with self._lock:
            if left > 0:
                self._db.execute("UPDATE gaps SET count = ? WHERE id = ?", (left, gap_id))
            else:
                self._db.execute("DELETE FROM gaps WHERE id = ?", (gap_id,))

    def gaps(self, emitter_id: str | None = None) -> list[Gap]:
        """The gaps recorded (of one emitter, or all), oldest first."""
        sql, params = queries.gaps(queries.SQLITE, emitter_id)
        with self._lock:
            rows = self._db.execute(sql, params).fetchall()
        return [Gap(*row) for row in rows]

    # --- reading ----------------------------------------------------------------------------------

    def last_event_id(self, emitter_id: str, *, errors: bool = False) -> str | None:
        """The newest event id journaled of an emitter: of its `$errors` (errors=True), else of the channels a stream sends.

        What a feed resumes from: the service sends what came after it (SSE's Last-Event-ID, a poll by id).
        `$logs` is left out as the stream leaves it out: resuming after a newer log line would skip events.
        """
        sql, params = queries.last_event_id(queries.SQLITE, emitter_id, errors=errors)
        with self._lock:
            row = self._db.execute(sql, params).fetchone()
        return str(row[0]) if row else None

    def search(
        self,
        query: str,
        *,
        emitter_id: str | None = None,
        channel: str | None = None,
        limit: int = 100,
        since_ms: int | None = None,
    ) -> list[EventSummary]:
        """Events whose payload, emitter or channel match `query`, newest first.

        `query` is FTS5 syntax (words, "phrases", OR, NOT, prefix*); text that is
        not valid FTS5 is searched as one phrase instead of raising.
        """
        query = query.strip()
        if not query:
            return self._select("", [], emitter_id, channel, limit, since_ms)
        if not self.fts:
            return self._like(query, emitter_id, channel, limit, since_ms)
        try:
            self.index_now()
        except sqlite3.OperationalError:
            pass  # another process holds the write lock past the timeout: search what is indexed
        match = "e.rowid IN (SELECT rowid FROM events_fts WHERE events_fts MATCH ?)"
        for attempt in (query, _phrase(query)):
            try:
                return self._select(match, [attempt], emitter_id, channel, limit, since_ms)
            except sqlite3.OperationalError:
                continue
        return []

    def errors_since(self, emitter_id: str, since_ms: int, limit: int = 5000) -> list[EventSummary]:
        """The `$errors` of an emitter at or after `since_ms` (by their id's time), newest first: the health board's history."""
        return self._summaries(*queries.errors_since(queries.SQLITE, emitter_id, since_ms, limit))

    def event_times(self, emitter_id: str, since_ms: int, limit: int = 20_000) -> list[tuple[str, int]]:
        """(id, ms) of an emitter's events but `$errors` and `$logs` at or after `since_ms`, newest first.

        Times only, no payloads: the health board counts them a minute at a time.
        """
        sql, params = queries.event_times(queries.SQLITE, emitter_id, since_ms, limit)
        with self._lock:
            rows = self._db.execute(sql, params).fetchall()
        return [(str(event_id), int(ms)) for event_id, ms in rows]

    def last_event_ms(self, emitter_id: str) -> int | None:
        """When the newest event of an emitter but `$errors` and `$logs` was indexed (its id's time)."""
        sql, params = queries.last_event_ms(queries.SQLITE, emitter_id)
        with self._lock:
            row = self._db.execute(sql, params).fetchone()
        return int(row[0]) if row and row[0] is not None else None

    def recent(self, emitter_id: str | None = None, limit: int = 100) -> list[EventSummary]:
        """The newest events (of one emitter, or all), newest first."""
        return self._select("", [], emitter_id, None, limit)

    def count(self, emitter_id: str | None = None) -> int:
        with self._lock:
            if emitter_id is None:
                return int(self._db.execute("SELECT count(*) FROM events").fetchone()[0])
            return int(
                self._db.execute("SELECT count(*) FROM events WHERE emitter_id = ?", (emitter_id,)).fetchone()[0]
            )

    def stats(self) -> dict[str, Any]:
        """Rows, bytes on disk (database and WAL), oldest/newest event time, emitters, fts."""
        with self._lock:
            db = self._db
            rows, oldest, newest = db.execute("SELECT count(*), min(ms), max(ms) FROM events").fetchone()
            emitters = dict(
                db.execute("SELECT emitter_id, count(*) FROM events GROUP BY emitter_id ORDER BY 2 DESC, 1").fetchall()
            )
            used = self._used_bytes()
            gaps, not_kept = db.execute("SELECT count(*), coalesce(sum(count), 0) FROM gaps").fetchone()
        on_disk = sum(p.stat().st_size for p in (self.path, self.path.with_name(self.path.name + "-wal")) if p.exists())
        return {
            "path": str(self.path),
            "backend": "sqlite",
            "rows": rows,
            "bytes": on_disk,
            "used_bytes": used,
            "oldest_ms": oldest,
            "newest_ms": newest,
            "emitters": emitters,
            "fts": self.fts,
            "search": "fts5" if self.fts else "like (SQLite has no FTS5)",
            "schema_version": SCHEMA_VERSION,
            "gaps": gaps,
            "events_not_kept": not_kept,
        }

    # --- retention --------------------------------------------------------------------------------

    def prune(self, max_rows: int | None = None, max_mb: float | None = None, max_age_s: float | None = None) -> int:
        """Remove events older than `max_age_s`, then the oldest until at most `max_rows` remain and the data fits `max_mb`.

        Size is the pages in use (free pages excluded), which is what shrinks
        as rows go; freed pages are then given back to the file system.
        Returns how many events were removed.
        """
        removed = 0
        with self._lock:
            self.index_now()  # the delete trigger takes rows out of the index: they must be in it
            if max_age_s is not None:
                removed += self._delete_before(int((time.time() - max(0.0, max_age_s)) * 1000))
            if max_rows is not None:
                excess = self.count() - max(0, max_rows)
                if excess > 0:
                    removed += self._delete_oldest(excess)
            if max_mb is not None:
                limit = max(0.0, max_mb) * 1024 * 1024
                while True:
                    used = self._used_bytes()
                    rows = self.count()
                    if used <= limit or rows == 0:
                        break
                    # Rows are about the same size: remove the share that is over, plus a little.
                    share = 1 - limit / used
                    removed += self._delete_oldest(max(1, math.ceil(rows * share * 1.05)))
                    self._compact()
            if removed:
                if self.fts:
                    _set_indexed_upto(self._db)  # every row left is indexed; new ones may reuse freed rowids
                self._db.execute("PRAGMA incremental_vacuum")
        return removed

    # --- internals --------------------------------------------------------------------------------

    def _select(
        self,
        where: str,
        params: list[Any],
        emitter_id: str | None,
        channel: str | None,
        limit: int,
        since_ms: int | None = None,
    ) -> list[EventSummary]:
        query = queries.events(
            queries.SQLITE, where, params, emitter_id=emitter_id, channel=channel, since_ms=since_ms, limit=limit
        )
        return self._summaries(*query)

    def _summaries(self, sql: str, params: list[Any]) -> list[EventSummary]:
        with self._lock:
            rows = self._db.execute(sql, params).fetchall()
        return [summary_of_row(*row) for row in rows]

    def _like(
        self, query: str, emitter_id: str | None, channel: str | None, limit: int, since_ms: int | None = None
    ) -> list[EventSummary]:
        """The fallback without FTS5: every word must occur in payload, emitter or channel."""
        clauses, params = [], []
        for word in _words(query):
            pattern = "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            clauses.append(
                "(e.payload LIKE ? ESCAPE '\\' OR e.emitter_id LIKE ? ESCAPE '\\' OR e.channel LIKE ? ESCAPE '\\')"
            )
            params += [pattern] * 3
        return self._select(" AND ".join(clauses), params, emitter_id, channel, limit, since_ms)

    def _delete_oldest(self, n: int) -> int:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            cursor = db.execute(
                "DELETE FROM events WHERE rowid IN (SELECT rowid FROM events ORDER BY ms, seq, rowid LIMIT ?)", (n,)
            )
            db.execute("COMMIT")
        except BaseException:
            _rollback(db)
            raise
        return cursor.rowcount

    def _delete_before(self, ms: int) -> int:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            cursor = db.execute("DELETE FROM events WHERE ms < ?", (ms,))
            db.execute("COMMIT")
        except BaseException:
            _rollback(db)
            raise
        return cursor.rowcount

    def _compact(self) -> None:
        """Merge the FTS index so the space of deleted rows is really freed."""
        if self.fts:
            self._db.execute("INSERT INTO events_fts(events_fts) VALUES ('optimize')")

    def _used_bytes(self) -> int:
        db = self._db
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        free = db.execute("PRAGMA freelist_count").fetchone()[0]
        size = db.execute("PRAGMA page_size").fetchone()[0]
        return int((pages - free) * size)


def _rollback(db: sqlite3.Connection) -> None:
    """End a failed transaction without hiding why it failed.

    SQLite rolls some failures back itself (a full disk, an I/O error): a ROLLBACK then raises "no
    transaction is active", which would take the place of the real error.
    """
    if db.in_transaction:
        try:
            db.execute("ROLLBACK")
        except sqlite3.Error:
            pass


def _schema_version(db: sqlite3.Connection) -> int | None:
    """The version a journal says it has; None for a file without a journal yet (new, or only the replay log)."""
    if not db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'").fetchone():
        return None
    row = db.execute("SELECT max(version) FROM schema_version").fetchone()
    if row is None or row[0] is None:
        # A first-version journal always wrote its row; tables without one were never more than version 1.
        has_events = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'").fetchone()
        return 1 if has_events else None
    return int(row[0])


def _quick_check(db: sqlite3.Connection) -> None:
    """Raise `sqlite3.DatabaseError` when the file is not a sound database (its pages read, not its index's words).

    `PRAGMA quick_check` reads every page once: about 0.2 s for 130 MB on the project's machine.
    """
    rows = db.execute("PRAGMA quick_check(5)").fetchall()
    if rows != [("ok",)]:
        found = "; ".join(str(row[0]) for row in rows)
        raise sqlite3.DatabaseError(f"database disk image is malformed: {found}")


def _statements(script: str) -> list[str]:
    """Split a script on `;` at line ends, keeping trigger bodies whole."""
    out, current = [], []
    for line in script.strip().splitlines():
        current.append(line)
        text = "\n".join(current).strip()
        if line.rstrip().endswith(";") and sqlite3.complete_statement(text):
            out.append(text)
            current = []
    return out


def _insert(db: sqlite3.Connection, rows: list[Row]) -> int:
    """Insert the rows not stored yet; how many were new (rowcount leaves out ignored duplicates).

    In statements of `_CHUNK` rows, then of halves for the rest: a writer's batch of 1,000 left 104 rows
    to `executemany`, a tenth of the rows and a quarter of the insert's time in a burst."""
    new, start, size = 0, 0, _CHUNK
    while start < len(rows):
        while size > len(rows) - start:
            size //= 2
        new += db.execute(_insert_of(size), list(chain.from_iterable(rows[start : start + size]))).rowcount
        start += size
    return new


def _fts_keeps_sizes(db: sqlite3.Connection) -> bool:
    """The search index exists and keeps each row's token counts: made before `columnsize=0` (see `_FTS`)."""
    row = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'events_fts'").fetchone()
    return row is not None and "columnsize=0" not in row[0].replace(" ", "")


def _indexed_upto(db: sqlite3.Connection) -> int | None:
    row = db.execute("SELECT value FROM meta WHERE key = 'fts_upto'").fetchone()
    return int(row[0]) if row else None


def _set_indexed_upto(db: sqlite3.Connection, rowid: int | None = None) -> None:
    if rowid is None:
        rowid = db.execute("SELECT coalesce(max(rowid), 0) FROM events").fetchone()[0]
    db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('fts_upto', ?)", (str(rowid),))


def _phrase(query: str) -> str:
    return '"' + query.replace('"', '""') + '"'


def _words(query: str) -> list[str]:
    return [word.strip('"') for word in query.split() if word.strip('"')]
