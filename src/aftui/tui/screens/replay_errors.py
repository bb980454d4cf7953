"""Replay where errors are listed: the workflow detail's Errors tab and an error opened from it.

In both, `y` opens the replay of the error as it was and `e` opens it in
the editor first; nothing is sent until `ctrl+s` there. `r` stays refresh,
as everywhere. In the Errors tab `space` marks errors and `R` opens the bulk
replay of the marked ones, or of every error shown when none is marked (a
`/` filter narrows that down first).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.screen import Screen

from ...api.models import EventSummary, Page
from ..widgets.paged_table import Column, PagedTable
from .events import EventScreen
from .replay import open_bulk_replay, open_replay


class ErrorsTable(PagedTable[EventSummary]):
    KEYS_AREA = "The errors"  # its heading in `?`

    BINDINGS = [
        Binding("y", "replay", "Replay…"),
        Binding("e", "edit_replay", "Edit & replay…"),
        Binding("space", "mark", "Mark"),
        Binding("R", "bulk", "Bulk replay…"),
    ]

    def __init__(
        self,
        fetch: Callable[..., Awaitable[Page[EventSummary]]],
        columns: list[Column[EventSummary]],
        *,
        workflow_id: str,
        **kwargs: Any,
    ) -> None:
        super().__init__(
            fetch, [Column("mark", " ", self._mark_cell, width=1), *columns], item_id=lambda e: e.id or "", **kwargs
        )
        self.workflow_id = workflow_id
        self.marked: set[str] = set()
        self._away = False  # a replay screen was opened from here: its errors may have grown

    def on_mount(self) -> None:  # PagedTable's own on_mount (the first load) runs as well: Textual calls each class's
        self.app.screen_change_signal.subscribe(self, self._screen_changed)

    def _screen_changed(self, screen: Screen[Any]) -> None:
        """Back from a replay: load the list again, so new errors (a replay that failed again) show."""
        if self._away and screen is self.screen:
            self._away = False
            self.reload()

    def _mark_cell(self, event: EventSummary) -> Text:
        return Text("●", style="bold cyan") if (event.id or "") in self.marked else Text(" ")

    def _selected(self) -> EventSummary | None:
        event = self.current
        if event is None:
            self.notify("No error is selected.", severity="warning", markup=False)
        return event

    def action_replay(self) -> None:
        event = self._selected()
        if event is not None:
            self._away = True
            open_replay(self.app, event, self.workflow_id)

    def action_edit_replay(self) -> None:
        event = self._selected()
        if event is not None:
            self._away = True
            open_replay(self.app, event, self.workflow_id, edit=True)

    def action_mark(self) -> None:
        event = self._selected()
        if event is None or not event.id:
            return
        self.marked.symmetric_difference_update({event.id})
        self.table.update_cell(event.id, "mark", self._mark_cell(event))
        self.table.action_cursor_down()  # as in every list (the monitor too): a run is space, space, space

    def action_bulk(self) -> None:
        marked = [e for e in self.pager.items if (e.id or "") in self.marked]
        events = marked or list(self.rows)
        if not events:
            self.notify("There are no errors to replay.", severity="warning", markup=False)
            return
        self._away = True
        open_bulk_replay(self.app, events, self.workflow_id)


class ErrorEventScreen(EventScreen):
    """An error opened from the Errors tab: the event screen, with replay on `y` and `e` (`r` refreshes)."""

    BINDINGS = [
        Binding("y", "replay", "Replay…"),
        Binding("e", "edit_replay", "Edit & replay…"),
    ]

    def action_replay(self) -> None:
        open_replay(self.app, self.record, self.workflow_id or "")

    def action_edit_replay(self) -> None:
        open_replay(self.app, self.record, self.workflow_id or "", edit=True)
