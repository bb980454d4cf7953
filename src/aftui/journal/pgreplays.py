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

from .replays import ReplayRow

__all__ = ["PgReplayLog"]

_SELECT = (
    "SELECT replay_id, emitter_id, event_id, workflow_id, started_at, finished_at, method, target_url, edited, "
    "status_code, outcome, detail, outcome_emitter_id, outcome_event_id, replayed_by FROM aftui_replays"
)


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
    ) -> None:
        with self._pool.connection() as conn:
            conn.execute(
                "INSERT INTO aftui_replays (replay_id, emitter_id, event_id, workflow_id, started_at, method, "
                "target_url, edited, outcome, replayed_by) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, 'pending', %s)",
                (replay_id, emitter_id, event_id, workflow_id, time.time(), method, target_url, edited, self.by),
            )

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
                "UPDATE aftui_replays SET finished_at = %s, status_code = %s, outcome = %s, detail = %s, "
                "outcome_emitter_id = %s, outcome_event_id = %s WHERE replay_id = %s",
                (time.time(), status_code, outcome, detail, outcome_emitter_id, outcome_event_id, replay_id),
            )

    def of_event(self, emitter_id: str, event_id: str) -> list[ReplayRow]:
        """The replays of one event, by anyone, newest first."""
        return self._rows(" WHERE emitter_id = %s AND event_id = %s", (emitter_id, event_id))

    def touching(
        self, emitter_id: str, event_ids: Collection[str], replay_ids: Collection[str] = ()
    ) -> list[ReplayRow]:
        """As the SQLite log's: the replays of, or leading to, these events, or with these ids; newest first."""
        ids, replays = list(dict.fromkeys(event_ids)), list(dict.fromkeys(replay_ids))
        if not ids and not replays:
            return []
        where = (
            " WHERE (emitter_id = %s AND event_id = ANY(%s)) OR (outcome_emitter_id = %s AND outcome_event_id = ANY(%s))"
            " OR replay_id = ANY(%s)"
        )
        return self._rows(where, (emitter_id, ids, emitter_id, ids, replays), limit=10_000)

    def recent(self, limit: int = 100) -> list[ReplayRow]:
        return self._rows("", (), limit)

    def _rows(self, where: str, params: tuple[Any, ...], limit: int = 1000) -> list[ReplayRow]:
        with self._pool.connection() as conn:
            rows = conn.execute(
                _SELECT + where + " ORDER BY started_at DESC, rid DESC LIMIT %s", (*params, limit)
            ).fetchall()
        return [ReplayRow(*row) for row in rows]
