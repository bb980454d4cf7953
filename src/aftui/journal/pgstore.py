"""The journal on a team's PostgreSQL: the same operations as the SQLite `Journal`, for many aftuis at once.

psycopg 3 with its connection pool: the writer's thread, searches and the replay log each take a
connection for one statement or transaction and give it back. Any number of aftui processes (TUIs,
`tail`s, on different machines) write the same events: the event's own key (emitter, id) is the
primary key and an insert of a row already there does nothing (ON CONFLICT DO NOTHING), so each
event is stored once, whoever saw it first. Searches and history read everyone's rows.

Search is a `tsvector` column kept by PostgreSQL itself (pgschema.py): a row is searchable when its
transaction commits, so there is no index to catch up (`index_now` has nothing to do). The FTS5
query syntax the SQLite journal takes (words, "phrases", OR, NOT, prefix*) is read into a tsquery
here; anything else is searched as one phrase, as there.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Iterable
from dataclasses import replace
from typing import Any, Self

import psycopg
from psycopg_pool import ConnectionPool

from ..api.models import EventSummary
from ..api.rawevent import RawEvent
from ..masking import url_masked
from . import queries
from .pgreplays import PgReplayLog
from .pgschema import PG_SCHEMA_VERSION, PRUNE_LOCK, migrate
from .rows import Row, rows_of, summary_of_row
from .store import Gap

__all__ = ["PgJournal", "is_postgres"]

log = logging.getLogger(__name__)

_FIELDS = "emitter_id, event_id, ms, seq, channel, indexed_at_ms, payload, metadata, seen_at"
# A batch is copied (COPY, binary-free text rows: the cheapest way in) into a table of the connection's
# own, then moved over with one INSERT that leaves out what is there: 3x faster than the rows as
# arrays of parameters, whose adaptation cost more than the insert (60 ms a thousand rows against 190).
_INCOMING = (
    "CREATE TEMP TABLE IF NOT EXISTS aftui_incoming (emitter_id text, event_id text, ms bigint, seq bigint, "
    "channel text, indexed_at_ms bigint, payload text, metadata text, seen_at float8) ON COMMIT DELETE ROWS"
)
_COPY = f"COPY aftui_incoming ({_FIELDS}) FROM STDIN"
_MOVE = (
    f"INSERT INTO aftui_events ({_FIELDS}) SELECT {_FIELDS} FROM aftui_incoming "
    "ON CONFLICT (emitter_id, event_id) DO NOTHING"
)
_INT64 = 2**63


def is_postgres(url: str | None) -> bool:
    """Whether a journal setting names a PostgreSQL server (postgresql:// or postgres://)."""
    return bool(url) and str(url).lower().startswith(("postgresql://", "postgres://"))


def _configure(conn: psycopg.Connection[tuple[Any, ...]]) -> None:
    """Each pooled connection's own table for incoming batches (a temporary table: nobody else sees it)."""
    conn.execute(_INCOMING)


class PgJournal:
    """A journal of events on PostgreSQL. Thread-safe (a pool); use as a context manager or call `close()`."""

    errors: tuple[type[BaseException], ...] = (psycopg.Error, OSError)
    unreachable: tuple[type[BaseException], ...] = (psycopg.OperationalError, OSError)  # of those: no server answered
    fts = True
    unindexed = False  # PostgreSQL indexes a row as it is stored
    recovered = None  # a server's database is never moved aside by a client
    path = None  # not a file: `where` says where

    def __init__(self, url: str, *, pool_size: int = 4, connect_timeout: float = 10.0) -> None:
        self.url = url
        self.where = url_masked(url)
        self._pool: ConnectionPool[psycopg.Connection[tuple[Any, ...]]] = ConnectionPool(
            url,
            min_size=1,
            max_size=max(1, pool_size),
            kwargs={"autocommit": True, "connect_timeout": max(1, int(connect_timeout))},
            configure=_configure,
            open=False,
            name="aftui-journal",
            # A server gone waits this long for a connection, then fails the write, which the writer
            # keeps and tries again (as a full disk): not the pool's 30 s, for a writer that retries.
            timeout=5.0,
        )
        # One connection of our own first: a server that refuses or is not there fails now, in its own
        # words, not after the pool's retries; the schema is made or migrated on it.
        with psycopg.connect(url, autocommit=True, connect_timeout=max(1, int(connect_timeout))) as first:
            self.migrated_from = migrate(first, self.where)
        try:
            self._pool.open(wait=True, timeout=connect_timeout)
        except BaseException:
            self._pool.close()
            raise

    def close(self) -> None:
        self._pool.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def replays(self) -> PgReplayLog:
        """The replay log on the same server (its own table), sharing this pool."""
        return PgReplayLog(self._pool)

    # --- writing ----------------------------------------------------------------------------------

    def add(self, events: Iterable[EventSummary | RawEvent], emitter_id: str | None = None) -> int:
        """Store the events not stored yet (by anyone), in one transaction; return how many were new here."""
        now = time.time()
        rows = rows_of(events, emitter_id, now)
        if not rows:
            return 0
        with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cursor:
            with cursor.copy(_COPY) as copy:
                for row in rows:
                    copy.write_row(_clean(row))
            return max(0, cursor.execute(_MOVE).rowcount)

    def index_now(self) -> None:
        """Nothing waits for the index on PostgreSQL: a stored row is searchable."""

    def add_gaps(self, gaps: Iterable[Gap]) -> list[Gap]:
        now = time.time()
        written: list[Gap] = []
        with self._pool.connection() as conn, conn.transaction():
            for gap in gaps:
                row = conn.execute(
                    "INSERT INTO aftui_gaps (emitter_id, from_id, to_id, count, reason, recorded_at) "
                    "VALUES (%s, %s, %s, %s, %s, %s) RETURNING id",
                    (gap.emitter_id, gap.from_id, gap.to_id, gap.count, gap.reason, now),
                ).fetchone()
                written.append(replace(gap, recorded_at=now, id=int(row[0]) if row else None))
        return written

    def settle_gap(self, gap_id: int, left: int) -> None:
        with self._pool.connection() as conn:
            if left > 0:
                conn.execute("UPDATE aftui_gaps SET count = %s WHERE id = %s", (left, gap_id))
            else:
                conn.execute("DELETE FROM aftui_gaps WHERE id = %s", (gap_id,))

    def gaps(self, emitter_id: str | None = None) -> list[Gap]:
        query, params = queries.gaps(queries.POSTGRES, emitter_id)
        with self._pool.connection() as conn:
            rows = conn.execute(query, params).fetchall()
        return [Gap(*row) for row in rows]

    # --- reading ----------------------------------------------------------------------------------

    def last_event_id(self, emitter_id: str, *, errors: bool = False) -> str | None:
        query, params = queries.last_event_id(queries.POSTGRES, emitter_id, errors=errors)
        with self._pool.connection() as conn:
            row = conn.execute(query, params).fetchone()
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
        """Events whose payload, emitter or channel match `query` (FTS5's syntax, read as a tsquery), newest first."""
        query = query.strip()
        if not query:
            return self._select("", [], emitter_id, channel, limit, since_ms)
        expression, params = tsquery(query)
        return self._select(f"e.search @@ ({expression})", params, emitter_id, channel, limit, since_ms)

    def recent(self, emitter_id: str | None = None, limit: int = 100) -> list[EventSummary]:
        return self._select("", [], emitter_id, None, limit)

    def errors_since(self, emitter_id: str, since_ms: int, limit: int = 5000) -> list[EventSummary]:
        """The `$errors` of an emitter at or after `since_ms`, newest first: the health board's history."""
        return self._summaries(*queries.errors_since(queries.POSTGRES, emitter_id, since_ms, limit))

    def event_times(self, emitter_id: str, since_ms: int, limit: int = 20_000) -> list[tuple[str, int]]:
        """(id, ms) of an emitter's events but `$errors` and `$logs` at or after `since_ms`, newest first."""
        query, params = queries.event_times(queries.POSTGRES, emitter_id, since_ms, limit)
        with self._pool.connection() as conn:
            rows = conn.execute(query, params).fetchall()
        return [(str(event_id), int(ms)) for event_id, ms in rows]

    def last_event_ms(self, emitter_id: str) -> int | None:
        """When the newest event of an emitter but `$errors` and `$logs` was indexed (its id's time)."""
        query, params = queries.last_event_ms(queries.POSTGRES, emitter_id)
        with self._pool.connection() as conn:
            row = conn.execute(query, params).fetchone()
        return int(row[0]) if row and row[0] is not None else None

    def count(self, emitter_id: str | None = None) -> int:
        with self._pool.connection() as conn:
            if emitter_id is None:
                row = conn.execute("SELECT count(*) FROM aftui_events").fetchone()
            else:
                row = conn.execute("SELECT count(*) FROM aftui_events WHERE emitter_id = %s", (emitter_id,)).fetchone()
        return int(row[0]) if row else 0

    def stats(self) -> dict[str, Any]:
        with self._pool.connection() as conn:
            rows, oldest, newest = conn.execute("SELECT count(*), min(ms), max(ms) FROM aftui_events").fetchone() or (
                0,
                None,
                None,
            )
            emitters = dict(
                conn.execute(
                    "SELECT emitter_id, count(*) FROM aftui_events GROUP BY emitter_id ORDER BY 2 DESC, 1"
                ).fetchall()
            )
            size = conn.execute(
                "SELECT pg_total_relation_size('aftui_events') + pg_total_relation_size('aftui_gaps')"
            ).fetchone()
            gaps, not_kept = conn.execute("SELECT count(*), coalesce(sum(count), 0) FROM aftui_gaps").fetchone() or (
                0,
                0,
            )
        on_server = int(size[0]) if size else 0
        return {
            "path": self.where,
            "backend": "postgresql",
            "rows": rows,
            "bytes": on_server,
            "used_bytes": on_server,
            "oldest_ms": oldest,
            "newest_ms": newest,
            "emitters": emitters,
            "fts": True,
            "search": "tsvector (PostgreSQL full-text search, GIN index)",
            "schema_version": PG_SCHEMA_VERSION,
            "gaps": gaps,
            "events_not_kept": int(not_kept),
        }

    # --- retention --------------------------------------------------------------------------------

    def prune(self, max_rows: int | None = None, max_mb: float | None = None, max_age_s: float | None = None) -> int:
        """Remove the oldest events past `max_rows` and those older than `max_age_s`; return how many went.

        One aftui at a time (an advisory lock): the others, finding it taken, leave it to that one.
        `max_mb` is not applied on a server: its disk is the team's to size; a team caps rows or age.
        """
        removed = 0
        with self._pool.connection() as conn, conn.transaction():
            row = conn.execute("SELECT pg_try_advisory_xact_lock(%s)", (PRUNE_LOCK,)).fetchone()
            if not (row and row[0]):
                log.debug("journal prune: another aftui is pruning %s", self.where)
                return 0
            if max_age_s is not None:
                cutoff = int((time.time() - max(0.0, max_age_s)) * 1000)
                removed += conn.execute("DELETE FROM aftui_events WHERE ms < %s", (cutoff,)).rowcount
            if max_rows is not None:
                count = conn.execute("SELECT count(*) FROM aftui_events").fetchone()
                excess = (int(count[0]) if count else 0) - max(0, max_rows)
                if excess > 0:
                    removed += conn.execute(
                        "DELETE FROM aftui_events WHERE rid IN "
                        "(SELECT rid FROM aftui_events ORDER BY ms, seq, rid LIMIT %s)",
                        (excess,),
                    ).rowcount
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
            queries.POSTGRES, where, params, emitter_id=emitter_id, channel=channel, since_ms=since_ms, limit=limit
        )
        return self._summaries(*query)

    def _summaries(self, query: str, params: list[Any]) -> list[EventSummary]:
        with self._pool.connection() as conn:
            rows = conn.execute(query, params).fetchall()
        return [summary_of_row(*row) for row in rows]


def _clean(row: Row) -> Row:
    """A row PostgreSQL takes: NUL (which its text cannot hold) written as JSON's escape, a lone surrogate (which
    UTF-8 cannot) as U+FFFD, numbers past bigint as 0. Most rows need none of it: one cheap look each."""
    return tuple(_clean_value(value) for value in row)


def _clean_value(value: Any) -> Any:
    if isinstance(value, str):
        if "\x00" in value:
            value = value.replace("\x00", "\\u0000")
        if not value.isascii():
            try:
                value.encode()
            except UnicodeEncodeError:
                value = value.encode("utf-8", "replace").decode()
        return value
    if isinstance(value, int) and not -_INT64 <= value < _INT64:
        return 0
    return value


# --- FTS5's query syntax as a tsquery -------------------------------------------------------------------

_TOKEN = re.compile(r'"[^"]*"|\S+')
_WORD = re.compile(r"\w+\*?")
_PHRASE = "phraseto_tsquery('simple', %s)"


def tsquery(query: str) -> tuple[str, list[str]]:
    """A tsquery expression and its parameters for an FTS5-style query; not valid FTS5 → the whole text as a phrase.

    Words and "phrases" are lexed by PostgreSQL (phraseto_tsquery), as the indexed text was: `dc_shop`
    finds what the index split into dc, shop. `word*` is a prefix; NOT binds tighter than the AND of
    neighbours, which binds tighter than OR, as in FTS5.
    """
    try:
        return _parse(query)
    except ValueError:
        return _PHRASE, [query]


def _parse(query: str) -> tuple[str, list[str]]:
    if query.count('"') % 2:
        raise ValueError("unbalanced quote")
    groups: list[list[str]] = [[]]
    params: list[str] = []
    negate = False
    tokens = _TOKEN.findall(query)
    for index, token in enumerate(tokens):
        if token == "OR":
            if not groups[-1] or negate or index == len(tokens) - 1:
                raise ValueError("OR without two sides")
            groups.append([])
            continue
        if token == "NOT":
            if not groups[-1] or negate or index == len(tokens) - 1:
                raise ValueError("NOT without two sides")
            negate = True
            continue
        if token == "AND":
            if not groups[-1] or negate or index == len(tokens) - 1:
                raise ValueError("AND without two sides")
            continue
        term = _term(token, params)
        groups[-1].append(f"!!{term}" if negate else term)
        negate = False
    if not params:
        raise ValueError("no words")
    return " || ".join("(" + " && ".join(group) + ")" for group in groups), params


def _term(token: str, params: list[str]) -> str:
    if token.startswith('"'):
        if not token[1:-1].strip():
            raise ValueError("empty phrase")
        params.append(token[1:-1])
        return _PHRASE
    if not _WORD.fullmatch(token):
        raise ValueError(f"not a word: {token}")
    if token.endswith("*"):
        stem = token[:-1].lower()
        if "_" in stem:  # the index split it: a prefix of the last part, after the whole of the others
            raise ValueError("prefix of a compound word")
        params.append(stem)
        return "to_tsquery('simple', quote_literal(%s) || ':*')"
    params.append(token)
    return _PHRASE
