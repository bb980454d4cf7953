"""An event's id as the service writes it, `<epoch-ms>-<seq>`: ordered by time once read as a pair.

Apart from the models so that the stream, the monitor and the journal can order events without
importing pydantic (`models` re-exports it): a start imports no model until the first screen is up.
"""

from __future__ import annotations


def event_key(event_id: str | None) -> tuple[int, int] | None:
    """`<epoch-ms>-<seq>` as a pair that orders by time; None for other ids."""
    if not event_id:
        return None
    ms, sep, seq = event_id.partition("-")
    if not (sep and ms.isascii() and ms.isdigit() and seq.isascii() and seq.isdigit()):
        return None
    return int(ms), int(seq)
