"""What headless commands see goes to the user's journal, as in the TUI (`--no-journal` opts out).

Listed, streamed and polled events are queued on the journal's writer
(`journal.retention.open_journal`: the same file `aftui journal` and the
TUI read) and written on its thread; `close()` writes what is left. A
journal that cannot be opened costs only the journaling: the command goes
on, and the journal's own warning says why on stderr (a read-only or
missing data dir, a full disk), as its error says a damaged file moved aside.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Self

from ..api.models import EventSummary
from .output import say

if TYPE_CHECKING:
    from ..journal.backend import EventJournal
    from ..journal.opening import JournalConfig
    from ..journal.writer import JournalWriter

log = logging.getLogger(__name__)

__all__ = ["Keeper", "journal_path", "use_profile"]


def journal_path() -> Path | None:
    """The user's journal file, where names are looked for (None when the data dir cannot be made)."""
    from ..journal.location import default_path

    try:
        return default_path()
    except OSError:
        return None


_config: JournalConfig | None = None  # what the command's profile says of the journal (`use_profile`)


def use_profile(profile: object) -> None:
    """Journal where `profile` says (`journal = "postgresql://..."`, the team's caps): called once the profile is known."""
    global _config
    from ..journal.opening import JournalConfig

    _config = JournalConfig.of_profile(profile)


class Keeper:
    """`with Keeper(enabled) as keeper: keeper.keep(events, emitter_id)`."""

    def __init__(self, enabled: bool = True) -> None:
        self.writer: JournalWriter | None = None
        self.enabled = enabled
        if enabled:
            from ..journal.retention import open_journal

            # The user's journal; never raises for the file's sake. Why there is none (a warning) and a
            # damaged file moved aside (an error) are logged, which a headless command shows on stderr.
            self.writer = open_journal(config=_config).writer

    @property
    def journal(self) -> EventJournal | None:
        """The open journal (the user's file or the team's server), for reading beside the writer."""
        return self.writer.journal if self.writer is not None else None

    @property
    def path(self) -> Path | None:
        """The journal's file, when one is open."""
        path = self.writer.journal.path if self.writer is not None else None
        return Path(path) if path is not None else None

    def keep(self, events: Iterable[EventSummary], emitter_id: str | None) -> None:
        """Queue events for the journal; never blocks on SQLite, never fails the command."""
        if self.writer is None:
            return
        try:
            self.writer.add(events, emitter_id)
        except RuntimeError:  # closed meanwhile: the command is ending
            pass

    def close(self) -> None:
        writer, self.writer = self.writer, None
        if writer is None:
            return
        writer.close()
        writer.journal.close()
        if writer.last_error is not None:
            say(f"some events could not be journaled: {writer.last_error}")

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
