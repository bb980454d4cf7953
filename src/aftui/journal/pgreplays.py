"""The replay log on a team's PostgreSQL (`aftui_replays`): the same rows and calls as `ReplayLog` on SQLite.

Every teammate's replays land in one table, so "replayed by NAME 3 min ago, succeeded" is seen by
whoever looks at the same error next.
"""

from __future__ import annotations

import time
from collections.abc import Collection
from typing import Any, Self

import psycopg
from psycopg_pool import ConnectionPool

from . import queries
from .replays import CLAIM_S, REPLAY_COLUMNS, ReplayRow, pending_of

__all__ = ["PgReplayLog"]


class PgReplayLog:
    """Shares the journal's pool; `close()` leaves the pool to the journal."""

    def __init__(self, pool: ConnectionPool[psycopg.Connection[tuple[Any, ...]]], by: str | None = None) -> None:
        self._pool = pool
        self.by = by

    def close(self) -> None:
        """Nothing of its own to close: the pool is the journal's."""

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
        """As the SQLite log's: pending, unless another replay of the same event is (then that one)."""
        now = time.time()
        row = (replay_id, emitter_id, event_id, workflow_id, now, method, target_url, edited, self.by)
        # One transaction (the pool's connections are autocommit), so the lock is held until the row is committed:
        # two teammates at once, the second waits here for the first's row, then sees it.
        with self._pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (f"aftui-replay {emitter_id} {event_id}",))
            cursor = conn.execute(queries.replay_claimed(queries.POSTGRES), (*row, emitter_id, event_id, now - CLAIM_S))
            claimed = cursor.rowcount == 1
        return None if claimed else pending_of(self.of_event(emitter_id, event_id))

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
        with self._pool.connection() as conn:
            conn.execute(
                queries.replay_finished(queries.POSTGRES),
                (time.time(), status_code, outcome, detail, outcome_emitter_id, outcome_event_id, replay_id),
            )

    def settled(
        self, replay_id: str, *, outcome: str, detail: str, outcome_emitter_id: str, outcome_event_id: str
    ) -> bool:
        with self._pool.connection() as conn:
            cursor = conn.execute(
                queries.replay_settled(queries.POSTGRES),
                (outcome, detail, outcome_emitter_id, outcome_event_id, replay_id, time.time() - CLAIM_S),
            )
        return cursor.rowcount == 1

    def of_event(self, emitter_id: str, event_id: str) -> list[ReplayRow]:
        """The replays of one event, by anyone, newest first."""
        return self._rows(*queries.replays_of_event(queries.POSTGRES, REPLAY_COLUMNS, emitter_id, event_id))

    def touching(
        self, emitter_id: str, event_ids: Collection[str], replay_ids: Collection[str] = ()
    ) -> list[ReplayRow]:
        """As the SQLite log's: the replays of, or leading to, these events, or with these ids; newest first."""
        query = queries.replays_touching(queries.POSTGRES, REPLAY_COLUMNS, emitter_id, event_ids, replay_ids)
        return self._rows(*query) if query else []

    def recent(self, limit: int = 100) -> list[ReplayRow]:
        return self._rows(*queries.replays(queries.POSTGRES, REPLAY_COLUMNS, limit=limit))

    def _rows(self, query: str, params: list[Any]) -> list[ReplayRow]:
        with self._pool.connection() as conn:
            rows = conn.execute(query, params).fetchall()
        return [ReplayRow(*row) for row in rows]
