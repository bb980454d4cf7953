"""The journal as a start sees it: what a profile says of it, and its open on a thread of its own.

Nothing here imports SQLite, the store or the writer (about 11 ms of a start): `aftui` reads this
module before its first screen, and the open (`retention.open_journal`) imports them on its own
thread, which the TUI starts once that screen is up.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .writer import JournalWriter

log = logging.getLogger(__name__)

URL_VARIABLE = "AFTUI_JOURNAL_URL"


@dataclass(frozen=True)
class JournalConfig:
    """What a profile says of the journal: where (None: the SQLite file) and the team's caps (None: the defaults)."""

    url: str | None = None
    max_rows: int | None = None
    max_days: float | None = None

    @classmethod
    def of_profile(cls, profile: object) -> JournalConfig:
        return cls(
            getattr(profile, "journal", None),
            getattr(profile, "journal_max_rows", None),
            getattr(profile, "journal_max_days", None),
        )

    @property
    def chosen_url(self) -> str | None:
        """AFTUI_JOURNAL_URL, else the profile's `journal`; None: the SQLite file."""
        return os.environ.get(URL_VARIABLE, "").strip() or self.url or None


@dataclass
class OpenedJournal:
    """What opening the journal gave: a writer, or why there is none; and what the user should hear of it."""

    path: Path | None
    writer: JournalWriter | None
    problem: str | None = (
        None  # why nothing is journaled (the writer is None), in words: said at start, shown by the monitor
    )
    notice: str | None = None  # what happened on the way, with a writer: a damaged file moved aside, an upgrade

    @property
    def message(self) -> str | None:
        """What to tell the user at start: why nothing is journaled, or what happened to the journal."""
        return f"Not journaling: {self.problem}" if self.problem else self.notice

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer.journal.close()


class JournalOpening:
    """An open of the journal on a thread of its own: started by `start`, or by the first who needs its result.

    Opening the SQLite file reads every page of it once (`PRAGMA quick_check`, which finds a damaged
    journal before anything is written to it): 0.2 s for 230 MB, and a journal may grow to 500 MB.
    The TUI starts it once its first screen is drawn, so neither the check nor the modules it needs
    delay that screen. Whoever needs the journal asks `result()`, which starts the open if nobody did
    and waits for it while it runs; `done` says whether it would wait.
    """

    def __init__(self, open_: Callable[[], OpenedJournal]) -> None:
        self._open = open_
        self._opened: OpenedJournal | None = None
        self._thread = threading.Thread(target=self._run, name="aftui-journal-open", daemon=True)
        self._starting = threading.Lock()  # the UI's thread and the feeds' may both be first

    def start(self) -> None:
        """Begin the open, once: later calls do nothing (nor do any after `forgo`)."""
        with self._starting:
            if self._thread.ident is None and self._opened is None:
                self._thread.start()

    def forgo(self) -> bool:
        """Never open, if the open has not begun (an exit before anything needed the journal): whether it had not.

        Its result is then no journal, at once."""
        with self._starting:
            if self._thread.ident is not None:
                return False
            self._opened = OpenedJournal(None, None, "the journal was not opened: aftui exited first")
            return True

    def _run(self) -> None:
        try:
            self._opened = self._open()
        except Exception as error:  # open_journal says why rather than raise; a bug of ours is said too
            log.exception("the journal could not be opened")
            self._opened = OpenedJournal(None, None, f"the journal could not be opened ({in_words(error)})")

    @property
    def done(self) -> bool:
        """Whether `result()` would answer at once."""
        started = self._thread.ident is not None
        return not self._thread.is_alive() if started else self._opened is not None

    def result(self) -> OpenedJournal:
        """The opened journal, or why there is none; starts the open if nobody did, and waits for it."""
        self.start()
        if self._thread.ident is not None:
            self._thread.join()
        assert self._opened is not None, "the opening thread always leaves a result"
        return self._opened


def in_words(error: BaseException) -> str:
    """An error as the user reads it: an OSError's own words, without its number."""
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return str(error)
