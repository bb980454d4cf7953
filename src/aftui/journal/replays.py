"""The replays aftui has sent, in the journal's SQLite file, each linked to the event it replayed.

A row per replay: the `$errors` event it replayed (emitter and event id, the
same key as the `events` table, so a join finds the original), when, where
it was sent, the status code, and the outcome with the event that showed it.
It has its own table and its own connection to the journal's file (WAL lets
both write), so the event store stays as it is. A row is written before the
request goes out (outcome "pending") and completed afterwards: a replay cut
short by a crash still shows that it was sent. Each row names who sent it
(`by`, the profile's user), so a teammate sees it before replaying again; a
table made before that gains the column when first opened (`_migrate`).
On a team's PostgreSQL the same rows live in `aftui_replays` (pgreplays.py).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Collection
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Self

from . import queries
from .dbfile import connect

__all__ = ["CLAIM_S", "REPLAY_COLUMNS", "ReplayLog", "ReplayRow", "pending_of"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS replays (
    replay_id          TEXT PRIMARY KEY,
    emitter_id         TEXT NOT NULL,
    event_id           TEXT NOT NULL,
    workflow_id        TEXT,
    started_at         REAL NOT NULL,
    finished_at        REAL,
    method             TEXT,
    target_url         TEXT,
    edited             INTEGER NOT NULL DEFAULT 0,
    status_code        INTEGER,
    outcome            TEXT NOT NULL,
    detail             TEXT,
    outcome_emitter_id TEXT,
    outcome_event_id   TEXT,
    replayed_by        TEXT
);
CREATE INDEX IF NOT EXISTS replays_by_event ON replays (emitter_id, event_id);
CREATE INDEX IF NOT EXISTS replays_by_time ON replays (started_at);
"""


@dataclass(frozen=True)
class ReplayRow:
    replay_id: str
    emitter_id: str
    event_id: str
    workflow_id: str | None
    started_at: float
    finished_at: float | None
    method: str | None
    target_url: str | None
    edited: bool
    status_code: int | None
    outcome: str
    detail: str | None
    outcome_emitter_id: str | None
    outcome_event_id: str | None
    replayed_by: str | None = None  # the user (`/users/me`) of the profile that sent it

    def left_pending(self, now: float | None = None) -> bool:
        """Pending past `CLAIM_S`: its aftui died (killed, its SSH session dropped) before the outcome came. It may
        have been sent: taken as sent with its outcome unknown, where it stayed pending, and held, for good."""
        return self.outcome == "pending" and self.started_at < (time.time() if now is None else now) - CLAIM_S

    @property
    def outcome_now(self) -> str:
        """The outcome as it stands: `unknown` for a replay left pending."""
        return "unknown" if self.left_pending() else self.outcome


# A replay pending for less than this holds its event: another aftui (a teammate, a cron job) does not send it too.
# Longer, it is taken for one whose aftui died before its outcome came (an outcome is watched for 20 s by default).
CLAIM_S = 120.0


def pending_of(rows: list[ReplayRow]) -> ReplayRow | None:
    """The newest pending replay of an event's rows (newest first)."""
    return next((r for r in rows if r.outcome == "pending"), None)


# The columns a replay is read from, in ReplayRow's order: on SQLite the table's own, on PostgreSQL all but `rid`.
REPLAY_COLUMNS = tuple(field.name for field in fields(ReplayRow))


class ReplayLog:
    """Use as a context manager or call `close()`. Thread-safe."""

    def __init__(self, path: Path | str, by: str | None = None) -> None:
        self.path = Path(path)
        self.by = by  # who sends the replays written here: the profile's user, set by whoever knows it
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = connect(self.path)  # the journal's file: created 0600 if this is first (dbfile.py)
        try:
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.executescript(_SCHEMA)
            _migrate(self._db)
        except BaseException:
            self._db.close()
            raise

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def started(
        self,
        replay_id: str,
        *,
        emitter_id: str,
        event_id: str,
        workflow_id: str | None,
        method: str,
        target_url: str,
        edited: bool,
    ) -> ReplayRow | None:
        """Record the replay as pending, unless another of the same event is (see `CLAIM_S`): then that one."""
        now = time.time()
        row = (replay_id, emitter_id, event_id, workflow_id, now, method, target_url, int(edited), self.by)
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")  # the write lock first: two aftuis claim one after the other
            try:
                cursor = self._db.execute(
                    queries.replay_claimed(queries.SQLITE), (*row, emitter_id, event_id, now - CLAIM_S)
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return None if cursor.rowcount == 1 else pending_of(self.of_event(emitter_id, event_id))

    def finished(
        self,
        replay_id: str,
        *,
        outcome: str,
        status_code: int | None = None,
        detail: str | None = None,
        outcome_emitter_id: str | None = None,
        outcome_event_id: str | None = None,
    ) -> None:
        with self._lock:
            self._db.execute(
                queries.replay_finished(queries.SQLITE),
                (time.time(), status_code, outcome, detail, outcome_emitter_id, outcome_event_id, replay_id),
            )

    def settled(
        self, replay_id: str, *, outcome: str, detail: str, outcome_emitter_id: str, outcome_event_id: str
    ) -> bool:
        with self._lock:
            cursor = self._db.execute(
                queries.replay_settled(queries.SQLITE),
                (outcome, detail, outcome_emitter_id, outcome_event_id, replay_id, time.time() - CLAIM_S),
            )
        return cursor.rowcount == 1

    def of_event(self, emitter_id: str, event_id: str) -> list[ReplayRow]:
        """The replays of one event, newest first."""
        return self._rows(*queries.replays_of_event(queries.SQLITE, REPLAY_COLUMNS, emitter_id, event_id))

    def touching(
        self, emitter_id: str, event_ids: Collection[str], replay_ids: Collection[str] = ()
    ) -> list[ReplayRow]:
        """The replays that replayed one of these events, or led to one of them (an error of a replay
        that failed again), or carry one of these replay ids; newest first."""
        query = queries.replays_touching(queries.SQLITE, REPLAY_COLUMNS, emitter_id, event_ids, replay_ids)
        return self._rows(*query) if query else []

    def recent(self, limit: int = 100) -> list[ReplayRow]:
        return self._rows(*queries.replays(queries.SQLITE, REPLAY_COLUMNS, limit=limit))

    def _rows(self, sql: str, params: list[Any]) -> list[ReplayRow]:
        with self._lock:
            rows = self._db.execute(sql, params).fetchall()
        return [ReplayRow(**{**dict(zip(REPLAY_COLUMNS, row, strict=True)), "edited": bool(row[8])}) for row in rows]


def _migrate(db: sqlite3.Connection) -> None:
    """A replay table of an aftui before `replayed_by` gains the column (its old rows: nobody named)."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(replays)")}
    if "replayed_by" not in columns:
        try:
            db.execute("ALTER TABLE replays ADD COLUMN replayed_by TEXT")
        except sqlite3.OperationalError as error:  # another aftui added it between our look and now
            if "duplicate column" not in str(error):
                raise
