"""Which journal aftui keeps, and how much of it: chosen once at start (`open_journal`).

The journal is the SQLite file in the data dir, unless a profile says `journal = "postgresql://..."`
(or AFTUI_JOURNAL_URL does): then it is that team's PostgreSQL, shared by everyone pointed at it.

How much it keeps: caps in rows, in MB (SQLite only: a server's disk is its team's to size) and in
age, the oldest pruned first. Set in the profile (`journal_max_rows`, `journal_max_days`: a team
shares the profile, so everyone prunes alike) or with AFTUI_JOURNAL_MAX_ROWS, AFTUI_JOURNAL_MAX_MB,
AFTUI_JOURNAL_MAX_DAYS (0 or "off" for no cap of that kind), which win. The defaults keep a month of
a busy workspace in a few hundred MB. The caps are applied when aftui starts and then every minute
by the journal writer; on PostgreSQL by one aftui at a time (an advisory lock: pgstore.py).
"""

from __future__ import annotations

import errno
import logging
import os
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from .backend import EventJournal
from .dbfile import is_corrupt, is_disk_full, is_read_only
from .location import default_path
from .opening import JournalConfig, OpenedJournal, in_words
from .store import SCHEMA_VERSION, Journal, JournalTooNew
from .writer import JournalWriter

log = logging.getLogger(__name__)

N = TypeVar("N", int, float)

DEFAULT_MAX_ROWS = 1_000_000
DEFAULT_MAX_MB = 500.0
PRUNE_EVERY_S = 60.0
DAY_S = 86_400.0


@dataclass(frozen=True)
class Retention:
    max_rows: int | None = DEFAULT_MAX_ROWS
    max_mb: float | None = DEFAULT_MAX_MB
    max_age_s: float | None = None

    @classmethod
    def from_env(cls, config: JournalConfig | None = None) -> Retention:
        """The caps: AFTUI_JOURNAL_MAX_* where set, else the profile's (`config`), else the defaults."""
        config = config or JournalConfig()
        rows = config.max_rows if config.max_rows is not None else DEFAULT_MAX_ROWS
        days = _number("AFTUI_JOURNAL_MAX_DAYS", config.max_days or 0.0, float)
        return cls(
            max_rows=_number("AFTUI_JOURNAL_MAX_ROWS", rows, int) if rows else None,
            max_mb=_number("AFTUI_JOURNAL_MAX_MB", DEFAULT_MAX_MB, float),
            max_age_s=days * DAY_S if days else None,
        )

    @property
    def any(self) -> bool:
        return self.max_rows is not None or self.max_mb is not None or self.max_age_s is not None


def _number(variable: str, default: N, kind: Callable[[str], N]) -> N | None:
    text = os.environ.get(variable, "").strip().lower()
    if not text:
        return default or None
    if text in ("0", "off", "none"):
        return None
    try:
        value = kind(text.replace("_", ""))
    except ValueError:
        log.warning("%s=%r is not a number; using %s", variable, text, default)
        return default
    return value if value > 0 else None


def open_journal(
    path: Path | None = None, retention: Retention | None = None, *, config: JournalConfig | None = None
) -> OpenedJournal:
    """The journal with a background writer applying `retention`: at `path`, or the one `config` (a profile) chose.

    `path` given (the demo's, a test's): that SQLite file. Else AFTUI_JOURNAL_URL or the profile's
    `journal` naming a PostgreSQL server: that server's; else the user's file in the data dir.
    Never raises for the journal's sake: a data dir that is read-only or gone, a full disk, a journal
    of a newer aftui, a server that cannot be reached give no writer and a `problem` in words (logged
    too); a damaged file is moved aside and a fresh journal started, with a `notice` saying so. The
    caps are applied once now, on a thread so start-up does not wait for it, then by the writer every
    minute.
    """
    config = config or JournalConfig()
    retention = retention or Retention.from_env(config)
    url = config.chosen_url if path is None else None
    if url is not None:
        return _open_server(url, retention)
    if path is None:
        try:
            path = default_path()
        except OSError as error:  # the data dir cannot be made
            problem = cannot_write(error, None)
            log.warning("not journaling: %s", problem)
            return OpenedJournal(None, None, problem)
    try:
        journal = Journal(path)
    except JournalTooNew as error:
        log.warning("%s", error)
        return OpenedJournal(path, None, str(error))
    except (OSError, sqlite3.Error) as error:
        problem = cannot_write(error, path)
        log.warning("the journal at %s cannot be opened: %s", path, error)
        return OpenedJournal(path, None, problem)
    notices = []
    if journal.recovered is not None:
        notices.append(journal.recovered.message)
    if journal.migrated_from is not None:
        notices.append(f"The journal was upgraded from version {journal.migrated_from} to {SCHEMA_VERSION}.")
    return OpenedJournal(path, _writer(journal, retention), None, " ".join(notices) or None)


def _open_server(url: str, retention: Retention) -> OpenedJournal:
    """A team's journal on PostgreSQL; a URL of another kind, or a server that cannot be reached, is a `problem`."""
    from ..masking import url_masked as masked
    from .pgstore import PgJournal, is_postgres

    if not is_postgres(url):
        problem = f"the journal setting {masked(url)!r} is not a postgresql:// URL"
        log.warning("not journaling: %s", problem)
        return OpenedJournal(None, None, problem)
    try:
        journal = PgJournal(url)
    except Exception as error:  # noqa: BLE001 - a server down, refused, too new: said, the TUI goes on
        problem = f"the journal at {masked(url)} cannot be opened ({_server_words(error)})"
        log.warning("not journaling: %s", problem)
        return OpenedJournal(None, None, problem)
    notice = None
    if journal.migrated_from is not None:
        notice = f"The team journal was upgraded from version {journal.migrated_from}."
    return OpenedJournal(None, _writer(journal, retention), None, notice)


def _server_words(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text[:300]


def _writer(journal: EventJournal, retention: Retention) -> JournalWriter:
    writer = JournalWriter(
        journal,
        max_rows=retention.max_rows,
        max_mb=retention.max_mb,
        max_age_s=retention.max_age_s,
        prune_every=PRUNE_EVERY_S,
    )
    if retention.any:
        threading.Thread(target=_prune, args=(journal, retention), name="aftui-journal-prune", daemon=True).start()
    return writer


def cannot_write(error: BaseException, path: Path | None) -> str:
    """Why the journal cannot be opened, in the user's words, naming the place."""
    where = path.parent if path is not None else _data_dir_named(error)
    if path is not None and path.parent.is_dir() and not os.access(path.parent, os.W_OK):
        # SQLite's own words for this are "unable to open database file" (it cannot make the -shm).
        return f"the data dir {where} is read-only ({in_words(error)})"
    if isinstance(error, OSError) and error.errno == errno.ENOENT:
        return f"the data dir {where} is gone ({error.strerror})"
    if is_read_only(error):
        return f"the data dir {where} is read-only ({in_words(error)})"
    if is_disk_full(error):
        return f"the disk of {where} is full"
    if is_corrupt(error):
        return f"the journal at {path} is damaged and could not be moved aside ({in_words(error)})"
    return f"the journal at {path or where} cannot be opened ({in_words(error)})"


def _data_dir_named(error: BaseException) -> str:
    name = getattr(error, "filename", None)
    return str(name) if name else "the data dir"


def open_writer(path: Path, retention: Retention | None = None) -> JournalWriter | None:
    """The writer of `open_journal(path)`; None (logged) when there is none. `open_journal` also says why."""
    return open_journal(path, retention).writer


def _prune(journal: EventJournal, retention: Retention) -> None:
    try:
        journal.prune(retention.max_rows, retention.max_mb, retention.max_age_s)
    except journal.errors as error:  # closed meanwhile, or busy: the writer tries again in a minute
        log.warning("journal prune failed: %s", error)


def open_user_journal() -> JournalWriter | None:
    """The user's journal in the data dir (`aftui journal` reads the same file); `open_journal()` also says why not."""
    return open_journal().writer
