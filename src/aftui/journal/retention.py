"""How much the journal keeps: a cap in rows and one in MB, the oldest pruned first.

Set with AFTUI_JOURNAL_MAX_ROWS and AFTUI_JOURNAL_MAX_MB (0 or "off" for no
cap of that kind). The defaults keep a month of a busy workspace in a few
hundred MB. The cap is applied when aftui starts and then every minute by
the journal writer.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from .store import Journal, default_path
from .writer import JournalWriter

log = logging.getLogger(__name__)

N = TypeVar("N", int, float)

DEFAULT_MAX_ROWS = 1_000_000
DEFAULT_MAX_MB = 500.0
PRUNE_EVERY_S = 60.0


@dataclass(frozen=True)
class Retention:
    max_rows: int | None = DEFAULT_MAX_ROWS
    max_mb: float | None = DEFAULT_MAX_MB

    @classmethod
    def from_env(cls) -> Retention:
        return cls(
            max_rows=_number("AFTUI_JOURNAL_MAX_ROWS", DEFAULT_MAX_ROWS, int),
            max_mb=_number("AFTUI_JOURNAL_MAX_MB", DEFAULT_MAX_MB, float),
        )


def _number(variable: str, default: N, kind: Callable[[str], N]) -> N | None:
    text = os.environ.get(variable, "").strip().lower()
    if not text:
        return default
    if text in ("0", "off", "none"):
        return None
    try:
        value = kind(text.replace("_", ""))
    except ValueError:
        log.warning("%s=%r is not a number; using %s", variable, text, default)
        return default
    return value if value > 0 else None


def open_writer(path: Path, retention: Retention | None = None) -> JournalWriter | None:
    """The journal at `path` with a background writer applying `retention`; None (logged) when it cannot be opened.

    The cap is applied once now, on a thread so start-up does not wait for it, then by the writer every minute.
    """
    retention = retention or Retention.from_env()
    try:
        journal = Journal(path)
    except (OSError, sqlite3.Error) as error:
        log.warning("the journal at %s cannot be opened: %s", path, error)
        return None
    writer = JournalWriter(journal, max_rows=retention.max_rows, max_mb=retention.max_mb, prune_every=PRUNE_EVERY_S)
    if retention.max_rows is not None or retention.max_mb is not None:
        threading.Thread(target=_prune, args=(journal, retention), name="aftui-journal-prune", daemon=True).start()
    return writer


def _prune(journal: Journal, retention: Retention) -> None:
    try:
        journal.prune(retention.max_rows, retention.max_mb)
    except sqlite3.Error as error:  # closed meanwhile, or busy: the writer tries again in a minute
        log.warning("journal prune failed: %s", error)


def open_user_journal() -> JournalWriter | None:
    """The user's journal in the data dir (`aftui journal` reads the same file)."""
    try:
        path = default_path()
    except OSError as error:  # the data dir cannot be made
        log.warning("no journal: %s", error)
        return None
    return open_writer(path)
