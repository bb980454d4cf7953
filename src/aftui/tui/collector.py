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

While the monitor is open, full collections are made here, on the UI's
thread, and not by the interpreter when allocations trigger one: in a burst
that was on the monitor's thread, in the middle of a take's worth of fresh
records, and a 38 ms walk with the GIL held kept a key waiting (a 122 ms
answer, measured in tmux). See `hold_full_collections`.
"""

from __future__ import annotations

import gc
import time

FREEZE_ROWS = 1000  # rows (any table's, the monitor's records) between two freezes
COLLECT_EVERY_S = 2.0  # while full collections are held: the longest between two made by hand
BUSY_COLLECT_EVERY_S = 10.0  # the same during a burst, which a collection would keep a key waiting in
HELD_THRESHOLD = 1 << 30  # a gen-2 threshold never reached: the interpreter makes no full collection

_unfrozen_rows = 0
_started = False
_holds = 0
_threshold = 10  # the gen-2 threshold to restore when the last hold ends
_last_full = 0.0
_kept_at_start = False  # `start_kept` ran: this process is the app, not a test of it
_models_kept = False


def start_kept() -> None:
    """What the imports made (modules, classes, Textual's tables) lives as long as the process:
    frozen before the app runs, so that the full collection the start's allocations trigger walks only the
    app's own objects. Unfrozen, it walked them all right after the first screen (a 58 ms collection in a
    101 ms frame, in which a key waited).

    Collections are on again from here: `aftui` paused them for the imports (`cli.entry`).
    """
    global _kept_at_start
    _kept_at_start = True
    gc.freeze()
    gc.enable()


def models_kept() -> None:
    """Pydantic and the models, imported once the first screen is up (the app's `_start`), live as long as the
    process too: out of the collector's sight, as `start_kept` put the modules imported before.

    Once a process, however many times the app starts over (a profile switch): a freeze without a collection
    pins the lines on screen then, as the first `rows_kept` does. Only in the app's own process: a test's
    would pin the garbage of every app it runs before."""
    global _models_kept
    if _kept_at_start and not _models_kept:
        _models_kept = True
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
        _collect()
        gc.freeze()


def hold_full_collections() -> None:
    """Until as many `release_full_collections`: no full collection but those made by hand here, on the
    thread that calls `collect_if_due` (at most COLLECT_EVERY_S apart) and `rows_kept`.

    The young generations are still collected as the interpreter sees fit: they are small.
    """
    global _holds, _threshold, _last_full
    if _holds == 0:
        young, middle, _threshold = gc.get_threshold()
        gc.set_threshold(young, middle, HELD_THRESHOLD)
        _last_full = time.monotonic()
    _holds += 1


def release_full_collections() -> None:
    global _holds
    if _holds == 0:
        return
    _holds -= 1
    if _holds == 0:
        young, middle, _ = gc.get_threshold()
        gc.set_threshold(young, middle, _threshold)


def collect_if_due(*, busy: bool = False) -> None:
    """While held, a full collection if none was made for COLLECT_EVERY_S: cyclic garbage (Textual's
    rendered lines are) is still freed when no rows come to trigger one. `busy` (a burst): only after
    BUSY_COLLECT_EVERY_S, as the collection walks the burst's rows with the UI waiting."""
    every = BUSY_COLLECT_EVERY_S if busy else COLLECT_EVERY_S
    if _holds and time.monotonic() - _last_full >= every:
        _collect()


def _collect() -> None:
    global _last_full
    gc.collect()
    _last_full = time.monotonic()
