"""Long-lived rows out of the garbage collector's way, without pinning what is about to die.

A list of 10,000 rows, or the monitor's 10,000 records, is walked again by
every full collection: 200 ms pauses. `gc.freeze()` moves what exists out of
its sight. But a frozen object that later dies in a reference cycle is never
freed, and Textual's rendered lines are such objects (a Strip caches
itself): every freeze pins the lines on screen at that moment. Freezing at
every page or batch pinned about 25 MB by 10,000 rows.

So rows are counted and frozen in steps of FREEZE_ROWS, after a collection.
That collection walks only what was not frozen yet, a step's worth, and the
lines pinned are a step's, not a page's.
"""

from __future__ import annotations

import gc

FREEZE_ROWS = 1000  # rows (any table's, the monitor's records) between two freezes

_unfrozen_rows = 0
_started = False


def start_kept() -> None:
    """What the imports made (modules, classes, pydantic's and Textual's tables) lives as long as the process:
    frozen before the app runs, so that the full collection the start's allocations trigger walks only the
    app's own objects. Unfrozen, it walked them all right after the first screen (a 58 ms collection in a
    101 ms frame, in which a key waited)."""
    gc.freeze()


def rows_kept(count: int) -> None:
    """`count` long-lived rows were added: freeze once FREEZE_ROWS have gathered since the last freeze."""
    global _unfrozen_rows, _started
    if not _started:
        # The start's heap (widgets, the first page; the imports are frozen already by `start_kept` where
        # the app is run, not in tests): out of the way once, without a collection of it all, which would
        # cost the first screen tens of milliseconds.
        _started = True
        gc.freeze()
        return
    _unfrozen_rows += count
    if _unfrozen_rows >= FREEZE_ROWS:
        _unfrozen_rows = 0
        gc.collect()
        gc.freeze()
