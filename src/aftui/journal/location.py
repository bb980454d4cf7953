"""Where the user's SQLite journal lives: a file of the data dir (the demo keeps its own, beside its data)."""

from __future__ import annotations

from pathlib import Path

DEFAULT_NAME = "journal.sqlite3"


def default_path() -> Path:
    from ..config import data_dir

    return data_dir() / DEFAULT_NAME
