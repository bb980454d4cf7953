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


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(collector, "_holds", 0)
    before = gc.get_threshold()
    collector.hold_full_collections()
    yield
    collector.release_full_collections()
    gc.set_threshold(*before)


def test_while_held_the_interpreter_makes_no_full_collection(held: None) -> None:
    """The monitor's thread, in a burst, walked the heap with the GIL held while a key waited."""
    assert gc.get_threshold()[2] == collector.HELD_THRESHOLD
    full: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            full.append(1)

    gc.callbacks.append(seen)
    try:
        kept = [Line() for _ in range(200_000)]  # rows arriving: unheld, about 6 full collections
    finally:
        gc.callbacks.remove(seen)
    assert len(kept) == 200_000 and full == []


def test_the_thresholds_are_restored_once_the_last_hold_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(collector, "_holds", 0)
    before = gc.get_threshold()
    collector.hold_full_collections()
    collector.hold_full_collections()  # a second reader (two monitors, or one reopened before the other closed)
    collector.release_full_collections()
    assert gc.get_threshold()[2] == collector.HELD_THRESHOLD
    collector.release_full_collections()
    assert gc.get_threshold() == before
    collector.release_full_collections()  # one too many: nothing to restore, nothing changed
    assert gc.get_threshold() == before


def test_while_held_garbage_is_still_collected_when_due(held: None, monkeypatch: pytest.MonkeyPatch) -> None:
    line = Line()
    dead = weakref.ref(line)
    del line
    collector.collect_if_due()
    assert dead() is not None, "collected before it was due"
    monkeypatch.setattr(collector, "_last_full", collector._last_full - collector.COLLECT_EVERY_S)
    collector.collect_if_due()
    assert dead() is None


def test_in_a_burst_the_collection_waits_longer(held: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A burst's takes bring thousands of rows a collection would walk while a key waits: held for longer."""
    line = Line()
    dead = weakref.ref(line)
    del line
    monkeypatch.setattr(collector, "_last_full", collector._last_full - collector.COLLECT_EVERY_S)
    collector.collect_if_due(busy=True)
    assert dead() is not None, "collected in the burst"
    monkeypatch.setattr(collector, "_last_full", collector._last_full - collector.BUSY_COLLECT_EVERY_S)
    collector.collect_if_due(busy=True)
    assert dead() is None, "never collected in a long burst"


def test_unheld_collect_if_due_leaves_collections_to_the_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(collector, "_holds", 0)
    monkeypatch.setattr(collector, "_last_full", 0.0)
    line = Line()
    dead = weakref.ref(line)
    del line
    gc.disable()
    try:
        collector.collect_if_due()
        assert dead() is not None
    finally:
        gc.enable()
        gc.collect()


def test_start_kept_turns_collections_back_on() -> None:
    """`aftui` pauses collections while the TUI's modules are imported (`cli.entry`); the app runs with them."""
    gc.disable()
    try:
        collector.start_kept()
        assert gc.isenabled()
    finally:
        gc.enable()
        gc.unfreeze()


def test_the_models_are_frozen_only_in_the_apps_own_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Imported after the first screen, pydantic and the models are frozen as the start's modules were, once; in
    a test process (no `start_kept`), nothing is."""
    monkeypatch.setattr(collector, "_kept_at_start", False)
    monkeypatch.setattr(collector, "_models_kept", False)
    before = gc.get_freeze_count()
    collector.models_kept()
    assert gc.get_freeze_count() == before
    monkeypatch.setattr(collector, "_kept_at_start", True)
    try:
        collector.models_kept()
        frozen = gc.get_freeze_count()
        assert frozen > before
        kept = [Line() for _ in range(100)]  # made after: a second start of the app (a profile switch)
        collector.models_kept()
        assert gc.get_freeze_count() == frozen and kept  # once a process: what is on screen then is not pinned
    finally:
        gc.unfreeze()
