"""The journal's one interface, whatever keeps it: SQLite on this machine (`store.Journal`, the default) or a
team's PostgreSQL (`pgstore.PgJournal`), chosen once at start by `retention.open_journal`.

Everything above the journal (the writer, the monitor, the TUI, the headless commands) holds an
`EventJournal` and a `ReplayStore` and never asks which it is.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, Self

from ..api.rawevent import RawEvent
from .replays import ReplayRow
from .store import Gap

if TYPE_CHECKING:
    from ..api.models import EventSummary

__all__ = ["EventJournal", "ReplayStore"]


class ReplayStore(Protocol):
    """The replays sent, each linked to the event it replayed, with who sent it (`by`) and when."""

    by: str | None

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
        """Record a replay as pending and return None; or, when another replay of the same event is pending (a
        teammate's, a cron job's, started less than `replays.CLAIM_S` ago), record nothing and return that one."""
        ...

    def finished(
        self,
        replay_id: str,
        *,
        outcome: str,
        status_code: int | None = None,
        detail: str | None = None,
        outcome_emitter_id: str | None = None,
        outcome_event_id: str | None = None,
    ) -> None: ...

    def settled(
        self, replay_id: str, *, outcome: str, detail: str, outcome_emitter_id: str, outcome_event_id: str
    ) -> bool:
        """Give a replay whose outcome was unknown the one found later; False when it was not unknown (any more)."""
        ...

    def of_event(self, emitter_id: str, event_id: str) -> list[ReplayRow]: ...

    def touching(
        self, emitter_id: str, event_ids: Collection[str], replay_ids: Collection[str] = ()
    ) -> list[ReplayRow]:
        """The replays of these events, those that led to one of them (a replay that failed again), and
        those with one of these replay ids; newest first."""
        ...

    def recent(self, limit: int = 100) -> list[ReplayRow]: ...

    def close(self) -> None: ...


class EventJournal(Protocol):
    """Every event seen, stored once by its key; searchable; pruned oldest first; with gaps and replays."""

    # What a failed write raises (the writer keeps the events and tries again on these).
    errors: tuple[type[BaseException], ...]
    fts: bool
    unindexed: bool  # rows stored that search has not taken yet (SQLite's FTS5 catches up when quiet)
    migrated_from: int | None

    @property
    def path(self) -> Path | None:
        """The SQLite file; None on a server."""
        ...

    @property
    def where(self) -> str:
        """Where the journal is, for people: a file's path, or a server's URL without its password."""
        ...

    def add(self, events: Iterable[EventSummary | RawEvent], emitter_id: str | None = None) -> int: ...

    def index_now(self) -> None: ...

    def add_gaps(self, gaps: Iterable[Gap]) -> list[Gap]: ...

    def settle_gap(self, gap_id: int, left: int) -> None: ...

    def gaps(self, emitter_id: str | None = None) -> list[Gap]: ...

    def last_event_id(self, emitter_id: str, *, errors: bool = False) -> str | None: ...

    def search(
        self,
        query: str,
        *,
        emitter_id: str | None = None,
        channel: str | None = None,
        limit: int = 100,
        since_ms: int | None = None,
    ) -> list[EventSummary]: ...

    def recent(self, emitter_id: str | None = None, limit: int = 100) -> list[EventSummary]: ...

    def errors_since(self, emitter_id: str, since_ms: int, limit: int = 5000) -> list[EventSummary]: ...

    def event_times(self, emitter_id: str, since_ms: int, limit: int = 20_000) -> list[tuple[str, int]]: ...

    def last_event_ms(self, emitter_id: str) -> int | None: ...

    def count(self, emitter_id: str | None = None) -> int: ...

    def stats(self) -> dict[str, Any]: ...

    def prune(
        self, max_rows: int | None = None, max_mb: float | None = None, max_age_s: float | None = None
    ) -> int: ...

    def replays(self) -> ReplayStore: ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(self, *exc: object) -> None: ...
