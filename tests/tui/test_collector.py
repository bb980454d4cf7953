"""Rows frozen out of the collector's way in steps, their garbage collected first (aftui.tui.collector)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from aftui.tui import collector


class Line:
    """Dies in a reference cycle, as a Textual Strip that cached itself does."""

    def __init__(self) -> None:
        self.cache = {"self": self}


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(collector, "_started", True)
    monkeypatch.setattr(collector, "_unfrozen_rows", 0)
    yield
    gc.unfreeze()  # the rest of this test process is collected as usual


def test_the_first_rows_freeze_the_start_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(collector, "_started", False)
    before = gc.get_freeze_count()
    try:
        collector.rows_kept(1)
        assert gc.get_freeze_count() > before
    finally:
        gc.unfreeze()


def test_rows_below_a_step_are_not_frozen(started: None) -> None:
    before = gc.get_freeze_count()
    collector.rows_kept(collector.FREEZE_ROWS - 1)
    assert gc.get_freeze_count() == before


def test_a_step_collects_the_garbage_before_it_freezes(started: None) -> None:
    line = Line()
    dead = weakref.ref(line)
    del line  # garbage in a cycle: only a collection frees it
    kept = Line()
    collector.rows_kept(collector.FREEZE_ROWS)
    assert dead() is None, "the garbage was frozen with the rows, never to be freed"
    assert gc.is_tracked(kept) and gc.get_freeze_count() > 0
