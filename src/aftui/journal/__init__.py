"""The local journal of every event aftui has seen: SQLite (WAL), FTS5 search, retention.

Stdlib only besides the api models; never imports Textual or the emulator.
Names are loaded lazily so that importing one module of the journal
does not pay for the others (and pydantic).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .location import default_path
    from .store import SCHEMA_VERSION, Journal, fts5_available
    from .writer import JournalWriter

__all__ = ["SCHEMA_VERSION", "Journal", "JournalWriter", "default_path", "fts5_available"]


def __getattr__(name: str) -> Any:
    if name == "JournalWriter":
        from .writer import JournalWriter

        return JournalWriter
    if name == "default_path":
        from .location import default_path

        return default_path
    if name in __all__:
        from . import store

        return getattr(store, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
