"""What the replay screens share: the replay log they write to, and why a read-only profile replays nothing."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from ...api import ApiError
from ...api.models import EventSummary
from ...journal.backend import ReplayStore
from ...journal.location import default_path
from ...journal.replays import ReplayLog, ReplayRow
from ...replay.settle import Found, look_again, record_found
from ..session import Session

log = logging.getLogger("aftui.tui")

READ_ONLY_WORDS = "Replay is off: read-only profile (a replay runs the workflow again)."
# How long a look for unknown outcomes may take before it is given up for this time: the replay screen waits
# for it before ctrl+s asks its question, and a service slow to answer must not hold the send back.
LOOK_AGAIN_WAIT_S = 3.0


def found_words(found: dict[str, Found]) -> str:
    """What looking again found, as the "Replay outcome found" notifications say it: `1 replayed ok · 2 failed again`."""
    ok = sum(1 for f in found.values() if f.outcome.kind == "succeeded")
    return " · ".join([f"{ok} replayed ok"] * bool(ok) + [f"{len(found) - ok} failed again"] * bool(len(found) - ok))


class ReplayJournal:
    """The replay log, in the session's journal file, opened on first use; events seen go to the session's journal.

    A journal that cannot be opened costs only the journaling: the replay
    goes ahead and the screen says it was not journaled.
    """

    def __init__(self, session: Session) -> None:
        self.session = session
        self.log: ReplayStore | None = None
        self.problem: str | None = None
        self._sending = 0  # replays on their way through it (`sending`)
        self._close_when_sent = False

    def path(self) -> Path | None:
        """The session's journal file; the user's when the session has none open; None on a team's server."""
        writer = self.session.journal
        return writer.journal.path if writer is not None else default_path()

    def open(self) -> None:
        """Blocking (SQLite, or the team's server): call on a thread.

        The session's journal's replay log (the team's, on a shared journal); the user's file when
        the session has none open.
        """
        if self.log is not None or self.problem is not None:
            return
        writer = self.session.journal
        try:
            self.log = writer.journal.replays() if writer is not None else ReplayLog(default_path())
        except Exception as error:  # noqa: BLE001 - a locked or unwritable journal must not stop a replay
            log.warning("the journal cannot be opened for replays: %s", error)
            self.problem = f"{type(error).__name__}: {error}"
            return
        # Signed with the user read at the start: asked again at the send (`who.sign`), a replay sent while
        # /users/me answered 503 named nobody.
        if self.log.by is None:
            self.log.by = self.session.me

    def seen(self, workflow_id: str) -> Callable[[list[EventSummary]], None]:
        """What the outcome watcher calls with the workflow's new events and errors: into the journal."""
        return lambda events: self.session.journal_events(events, workflow_id)

    async def settle(self, rows: Iterable[ReplayRow], originals: dict[str, EventSummary]) -> dict[str, Found]:
        """Look again for the outcomes of the unknown replays among `rows` (`replay.settle`), and record what is
        found; those recorded, by replay id. Nothing when the service does not answer in time or the log cannot
        be written: they stay unknown, and are asked about as such."""
        try:
            found = await asyncio.wait_for(look_again(self.session.client, rows, originals), LOOK_AGAIN_WAIT_S)
        except (ApiError, TimeoutError) as error:
            log.info("unknown replays not looked for again: %s", getattr(error, "message", "no answer in time"))
            return {}
        store = self.log
        if not found or store is None:
            return {}
        try:
            recorded = await asyncio.to_thread(record_found, store, found)
        except Exception as error:  # noqa: BLE001 - a journal that cannot be written leaves them unknown
            log.warning("the replays found could not be recorded: %s", error)
            return {}
        return {f.row.replay_id: f for f in recorded}

    @contextmanager
    def sending(self) -> Iterator[None]:
        """Around a replay's send: a `close` meanwhile waits for its end. A screen left while its replay was
        watched closed the log at once, and the cancelled replay could not record its outcome: "pending" for
        good, its error out of every selection."""
        self._sending += 1
        try:
            yield
        finally:
            self._sending -= 1
            if self._close_when_sent and not self._sending:
                self.close()

    def close(self) -> None:
        """Now, or once the replays on their way have recorded their outcome."""
        if self._sending:
            self._close_when_sent = True
            return
        if self.log is not None:
            self.log.close()
            self.log = None
