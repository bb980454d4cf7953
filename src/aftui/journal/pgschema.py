"""The journal's tables on a team's PostgreSQL: made and migrated by aftui, under a version.

Every table is named `aftui_*`: a team's database holds other things. Whoever opens the journal
first makes the tables; an aftui finding an older version migrates it, in one transaction, under an
advisory lock, so two aftuis starting together migrate once (the second waits, then finds it done).
A version newer than this aftui knows is refused and left alone, as the SQLite journal does.

Search is PostgreSQL's own full-text search: a stored `tsvector` column, generated from the payload
(its first 200 KB: a tsvector holds at most 1 MB), the emitter and the channel, under a GIN index.
The 'simple' configuration splits words as FTS5's unicode61 does and, like it, keeps every word
(no stemming, no stop words): an id or a status code is found as typed.
"""

from __future__ import annotations

import logging
from typing import Any

import psycopg

__all__ = ["MIGRATE_LOCK", "PG_MIGRATIONS", "PG_SCHEMA_VERSION", "PRUNE_LOCK", "migrate"]

log = logging.getLogger(__name__)

# Advisory lock keys (any bigint, the same in every aftui): one migrates, one prunes, at a time.
MIGRATE_LOCK = 0x61667475_69000001
PRUNE_LOCK = 0x61667475_69000002

_V1 = """
CREATE TABLE IF NOT EXISTS aftui_events (
    rid           bigint GENERATED ALWAYS AS IDENTITY,
    emitter_id    text NOT NULL,
    event_id      text NOT NULL,
    ms            bigint NOT NULL,
    seq           bigint NOT NULL,
    channel       text NOT NULL,
    indexed_at_ms bigint,
    payload       text,
    metadata      text,
    seen_at       double precision NOT NULL,
    search        tsvector GENERATED ALWAYS AS (
        to_tsvector('simple'::regconfig, left(coalesce(payload, ''), 200000) || ' ' || emitter_id || ' ' || channel)
    ) STORED,
    PRIMARY KEY (emitter_id, event_id)
);
CREATE INDEX IF NOT EXISTS aftui_events_by_time ON aftui_events (ms, seq, rid);
CREATE INDEX IF NOT EXISTS aftui_events_by_emitter_time ON aftui_events (emitter_id, ms, seq);
CREATE INDEX IF NOT EXISTS aftui_events_search ON aftui_events USING GIN (search);
CREATE TABLE IF NOT EXISTS aftui_gaps (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    emitter_id    text NOT NULL,
    from_id       text,
    to_id         text,
    count         bigint NOT NULL,
    reason        text,
    recorded_at   double precision NOT NULL
);
CREATE INDEX IF NOT EXISTS aftui_gaps_by_emitter ON aftui_gaps (emitter_id, id);
CREATE TABLE IF NOT EXISTS aftui_replays (
    rid                bigint GENERATED ALWAYS AS IDENTITY,
    replay_id          text PRIMARY KEY,
    emitter_id         text NOT NULL,
    event_id           text NOT NULL,
    workflow_id        text,
    started_at         double precision NOT NULL,
    finished_at        double precision,
    method             text,
    target_url         text,
    edited             boolean NOT NULL DEFAULT false,
    status_code        integer,
    outcome            text NOT NULL,
    detail             text,
    outcome_emitter_id text,
    outcome_event_id   text,
    replayed_by        text
);
CREATE INDEX IF NOT EXISTS aftui_replays_by_event ON aftui_replays (emitter_id, event_id);
CREATE INDEX IF NOT EXISTS aftui_replays_by_time ON aftui_replays (started_at);
"""

# PG_MIGRATIONS[n - 1] takes the tables from version n - 1 to n (0: none yet). Add at the end; never
# change one that has shipped.
PG_MIGRATIONS: list[tuple[str, str]] = [
    ("1: events (tsvector, GIN), gaps, replays with who replayed", _V1),
]
PG_SCHEMA_VERSION = len(PG_MIGRATIONS)


class SchemaTooNew(Exception):
    """The tables were made by a newer aftui."""

    def __init__(self, where: str, found: int) -> None:
        self.where, self.found = where, found
        super().__init__(
            f"the journal at {where} has schema version {found}, newer than this aftui knows ({PG_SCHEMA_VERSION}): "
            "it was made by a newer aftui. It is left as it is; upgrade aftui, or point AFTUI_JOURNAL_URL elsewhere."
        )


def migrate(conn: psycopg.Connection[tuple[Any, ...]], where: str) -> int | None:
    """Make or bring the tables up to date; return the version found when this migrated an older one (None else)."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATE_LOCK,))
        conn.execute("CREATE TABLE IF NOT EXISTS aftui_schema_version (version integer NOT NULL)")
        row = conn.execute("SELECT max(version) FROM aftui_schema_version").fetchone()
        found = int(row[0]) if row is not None and row[0] is not None else 0
        if found > PG_SCHEMA_VERSION:
            raise SchemaTooNew(where, found)
        for version in range(found, PG_SCHEMA_VERSION):
            what, script = PG_MIGRATIONS[version]
            log.debug("journal %s: migrating to %s", where, what)
            for statement in (part.strip() for part in script.split(";")):
                if statement:
                    conn.execute(statement)
        if found != PG_SCHEMA_VERSION:
            conn.execute("DELETE FROM aftui_schema_version")
            conn.execute("INSERT INTO aftui_schema_version (version) VALUES (%s)", (PG_SCHEMA_VERSION,))
    if 0 < found < PG_SCHEMA_VERSION:
        log.info("journal %s upgraded from schema %s to %s", where, found, PG_SCHEMA_VERSION)
        return found
    return None
