"""The journal's reads and the replay log's statements, written once for both backends.

SQLite (store.py, replays.py) and PostgreSQL (pgstore.py, pgreplays.py) keep tables of the same shape
and ask them the same questions. What differs is a `Dialect`: the mark of a parameter (`?` or `%s`),
the tables' names, the column that orders rows stored in the same millisecond (SQLite's `rowid`,
PostgreSQL's identity `rid`), and how a column is matched against a list (`IN (?, ?, …)`, one mark a
value, or `= ANY(%s)`, the list as one array). Each function gives back the SQL and its parameters;
the backend runs them on its own connection and reads the rows as before.

What only one backend has stays in it: SQLite's FTS5 and LIKE search, PostgreSQL's tsquery and COPY,
the inserts of events and gaps, retention.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["POSTGRES", "SQLITE", "Dialect", "Query"]

Query = tuple[str, list[Any]]  # SQL and its parameters


@dataclass(frozen=True)
class Dialect:
    """How one backend spells the journal's queries."""

    mark: str  # a parameter's placeholder
    events: str  # the tables
    gaps: str
    replays: str
    rowid: str  # the column that keeps the order rows were stored in
    arrays: bool  # a list is matched as one array parameter (= ANY), not as one mark a value (IN)

    def marks(self, n: int) -> str:
        return ", ".join([self.mark] * n)

    def one_of(self, column: str, values: Sequence[Any]) -> Query:
        """`column` is one of `values` (none: false)."""
        if self.arrays:
            return f"{column} = ANY({self.mark})", [list(values)]
        return f"{column} IN ({self.marks(len(values)) or 'NULL'})", list(values)


SQLITE = Dialect(mark="?", events="events", gaps="gaps", replays="replays", rowid="rowid", arrays=False)
POSTGRES = Dialect(
    mark="%s", events="aftui_events", gaps="aftui_gaps", replays="aftui_replays", rowid="rid", arrays=True
)

# --- events -----------------------------------------------------------------------------------------

# What `rows.summary_of_row` reads, in its order.
_SUMMARY = "e.event_id, e.indexed_at_ms, e.payload, e.metadata, e.emitter_id"
# The channels a stream sends: all but `$errors` and `$logs`.
_STREAMED = "channel NOT IN ('$errors', '$logs')"


def events(
    d: Dialect,
    where: str = "",
    params: Sequence[Any] = (),
    *,
    emitter_id: str | None = None,
    channel: str | None = None,
    since_ms: int | None = None,
    limit: int,
) -> Query:
    """Event summaries (`rows.summary_of_row`'s columns) that meet `where` (a condition on `e`, with its
    `params`), of one emitter and channel, at or after `since_ms`, when given; newest first, at most `limit`."""
    clauses = [where] if where else []
    values = list(params)
    if emitter_id is not None:
        clauses.append(f"e.emitter_id = {d.mark}")
        values.append(emitter_id)
    if channel is not None:
        clauses.append(f"e.channel = {d.mark}")
        values.append(channel)
    if since_ms is not None:
        clauses.append(f"e.ms >= {d.mark}")
        values.append(since_ms)
    sql = f"SELECT {_SUMMARY} FROM {d.events} e"
    if clauses:
        sql += " WHERE " + " AND ".join(clauses)
    sql += f" ORDER BY e.ms DESC, e.seq DESC, e.{d.rowid} DESC LIMIT {d.mark}"
    return sql, [*values, max(0, limit)]


def errors_since(d: Dialect, emitter_id: str, since_ms: int, limit: int) -> Query:
    """The `$errors` of an emitter at or after `since_ms`, newest first."""
    return events(d, emitter_id=emitter_id, channel="$errors", since_ms=since_ms, limit=limit)


def event_times(d: Dialect, emitter_id: str, since_ms: int, limit: int) -> Query:
    """(event_id, ms) of an emitter's streamed events at or after `since_ms`, newest first."""
    sql = (
        f"SELECT event_id, ms FROM {d.events} WHERE emitter_id = {d.mark} AND ms >= {d.mark}"
        f" AND {_STREAMED} ORDER BY ms DESC, seq DESC LIMIT {d.mark}"
    )
    return sql, [emitter_id, since_ms, max(0, limit)]


def last_event_ms(d: Dialect, emitter_id: str) -> Query:
    """One row: the newest time (ms) of an emitter's streamed events, NULL when there is none."""
    return f"SELECT max(ms) FROM {d.events} WHERE emitter_id = {d.mark} AND {_STREAMED}", [emitter_id]


def last_event_id(d: Dialect, emitter_id: str, *, errors: bool) -> Query:
    """At most one row: the id of an emitter's newest `$errors` event (errors=True), else of its streamed ones."""
    where = "channel = '$errors'" if errors else _STREAMED
    return (
        f"SELECT event_id FROM {d.events} WHERE emitter_id = {d.mark} AND {where} ORDER BY ms DESC, seq DESC LIMIT 1",
        [emitter_id],
    )


def gaps(d: Dialect, emitter_id: str | None) -> Query:
    """The gaps (`store.Gap`'s fields, in order) of one emitter or all, oldest first."""
    sql = f"SELECT emitter_id, from_id, to_id, count, reason, recorded_at, id FROM {d.gaps}"
    params: list[Any] = []
    if emitter_id is not None:
        sql += f" WHERE emitter_id = {d.mark}"
        params.append(emitter_id)
    return sql + " ORDER BY id", params


# --- replays ----------------------------------------------------------------------------------------


def replay_claimed(d: Dialect) -> str:
    """Insert a replay as pending unless one of the same event is pending since a time (another aftui sends it now).

    Parameters: replay_id, emitter_id, event_id, workflow_id, started_at, method, target_url, edited, replayed_by,
    then emitter_id, event_id and that time again. Atomic only under the caller's lock (a write lock, an advisory
    lock)."""
    m = d.mark
    return (
        f"INSERT INTO {d.replays} (replay_id, emitter_id, event_id, workflow_id, started_at, method, target_url, "
        f"edited, outcome, replayed_by) SELECT {d.marks(8)}, 'pending', {m} WHERE NOT EXISTS (SELECT 1 FROM "
        f"{d.replays} WHERE emitter_id = {m} AND event_id = {m} AND outcome = 'pending' AND started_at > {m})"
    )


def replay_finished(d: Dialect) -> str:
    """Complete a replay's row; parameters: finished_at, status_code, outcome, detail, outcome_emitter_id,
    outcome_event_id, replay_id."""
    m = d.mark
    return (
        f"UPDATE {d.replays} SET finished_at = {m}, status_code = {m}, outcome = {m}, detail = {m}, "
        f"outcome_emitter_id = {m}, outcome_event_id = {m} WHERE replay_id = {m}"
    )


def replay_settled(d: Dialect) -> str:
    """Give a replay sent with the outcome unknown the outcome found later; parameters: outcome, detail,
    outcome_emitter_id, outcome_event_id, replay_id, and the time before which a pending one was left (`CLAIM_S`
    ago). Only while it is still unknown: settled once, by whoever looks first (a teammate's aftui may look at the
    same time)."""
    m = d.mark
    return (
        f"UPDATE {d.replays} SET outcome = {m}, detail = {m}, outcome_emitter_id = {m}, outcome_event_id = {m} "
        f"WHERE replay_id = {m} AND (outcome = 'unknown' OR (outcome = 'pending' AND started_at < {m}))"
    )


def replays(
    d: Dialect, columns: Sequence[str], where: str = "", params: Sequence[Any] = (), limit: int = 1000
) -> Query:
    """The replay rows (`columns`, in order) that meet `where` (a condition, with its `params`), newest first."""
    sql = f"SELECT {', '.join(columns)} FROM {d.replays}"
    if where:
        sql += f" WHERE {where}"
    sql += f" ORDER BY started_at DESC, {d.rowid} DESC LIMIT {d.mark}"
    return sql, [*params, limit]


def replays_of_event(d: Dialect, columns: Sequence[str], emitter_id: str, event_id: str) -> Query:
    """The replays of one event, newest first."""
    return replays(d, columns, f"emitter_id = {d.mark} AND event_id = {d.mark}", [emitter_id, event_id])


def replays_touching(
    d: Dialect, columns: Sequence[str], emitter_id: str, event_ids: Collection[str], replay_ids: Collection[str]
) -> Query | None:
    """The replays of these events of an emitter, those that led to one of them (their outcome), and those with one
    of these replay ids; newest first. None when there are neither events nor replay ids to look for."""
    ids, named = list(dict.fromkeys(event_ids)), list(dict.fromkeys(replay_ids))
    if not ids and not named:
        return None
    replayed, replayed_params = d.one_of("event_id", ids)
    outcome, outcome_params = d.one_of("outcome_event_id", ids)
    carrying, carrying_params = d.one_of("replay_id", named)
    where = f"(emitter_id = {d.mark} AND {replayed}) OR (outcome_emitter_id = {d.mark} AND {outcome}) OR {carrying}"
    params = [emitter_id, *replayed_params, emitter_id, *outcome_params, *carrying_params]
    return replays(d, columns, where, params, limit=10_000)
