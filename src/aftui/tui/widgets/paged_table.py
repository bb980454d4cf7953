"""A table of one resource kind, loaded page by page from the service.

Pages of 100 are fetched in a worker as the cursor nears the end; the status
line says "N of total". `/` filters the loaded rows at once and, where the
API can filter (`server_filter`), asks the service too. Sorting is by any
column; the highlighted row is remembered by id across reloads, filters and
trips to a detail screen. An error is shown in the table's place with the
server's message and the key to retry.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import DataTable, Input, Static
from textual.widgets.data_table import CellDoesNotExist

from ...api import ApiError, AuthError, Pager
from ...text import visible
from ..collector import rows_kept
from ..messages import AuthFailed
from ..retry import AutoRetry, SetupProblem
from .column_widths import set_widths

if TYPE_CHECKING:
    from ...api.models import Page

log = logging.getLogger("aftui.tui")
T = TypeVar("T")
PAGE_SIZE = 100
LOAD_AHEAD = 20  # rows from the end at which the next page is fetched
FILTER_DEBOUNCE_S = 0.35


@dataclass(frozen=True)
class Column(Generic[T]):
    key: str
    label: str
    render: Callable[[T], Text]
    sort: Callable[[T], Any] | None = None
    width: int | None = None


class SharedCells:
    """One Text for every cell of a column that reads and looks the same.

    A list of 10,000 rows repeats a few values in most of its columns ("yes", "·", a component's
    type, a day), and each cell is a Text of about 400 bytes. A column of mostly distinct values
    (ids, names) is given up on once it has shown MAX_VALUES of them, so this never holds more.
    The table only reads its cells: drawing one never changes it.
    """

    MAX_VALUES = 64

    def __init__(self) -> None:
        self._seen: dict[tuple[object, ...], Text] | None = {}

    def __call__(self, cell: Text) -> Text:
        seen = self._seen
        if seen is None or cell.spans:
            return cell
        key = (cell.plain, cell.style, cell.justify, cell.overflow, cell.no_wrap, cell.end)
        found = seen.get(key)
        if found is not None:
            return found
        if len(seen) >= self.MAX_VALUES:
            self._seen = None  # mostly distinct: not worth a lookup per cell
            return cell
        seen[key] = cell
        return cell


LIST_AREA = "The list"  # the list's heading in `?`


class _Table(DataTable[Text]):
    """The list's table: it says when it is given a size, its first one included.

    The list fits its columns to that width; until the table has one (it can still be 0 wide one refresh
    after its rows arrive), there is nothing to fit to, and only this event says when there is.
    """

    KEYS_AREA = LIST_AREA  # its keys are the list's, as Textual's own table's would be

    class Sized(Message):
        """The table has a new size: the columns can be fitted to it."""

    def on_resize(self, _: events.Resize) -> None:
        self.post_message(self.Sized())


class PagedTable(Vertical, Generic[T]):
    """Give it `fetch(limit=, after=, **params) -> Page[T]`, columns and an id for each item."""

    KEYS_AREA = LIST_AREA

    BINDINGS = [
        Binding("slash", "filter", "Filter"),
        Binding("r", "refresh", "Refresh"),
        Binding("s", "sort", "Sort"),
        Binding("escape", "clear_filter", "Clear filter", show=False),
    ]

    DEFAULT_CSS = """
    PagedTable { height: 1fr; }
    PagedTable > Input { display: none; height: 3; }
    PagedTable.filtering > Input { display: block; }
    PagedTable > DataTable { height: 1fr; }
    PagedTable > .status { height: 1; color: $text-muted; padding: 0 1; }
    PagedTable > .error { display: none; height: auto; padding: 1 2; color: $error; border: round $error; }
    PagedTable.failed > .error { display: block; }
    """

    class Opened(Message):
        """The user chose a row (enter or click)."""

        def __init__(self, table: PagedTable[Any], item: Any) -> None:
            super().__init__()
            self.table = table
            self.item = item

        @property
        def control(self) -> PagedTable[Any]:
            return self.table

    def __init__(
        self,
        fetch: Callable[..., Awaitable[Page[T]]],
        columns: list[Column[T]],
        *,
        item_id: Callable[[T], str],
        server_filter: str | None = None,
        noun: str = "items",
        focus_on_load: bool = False,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.focus_on_load = focus_on_load  # a detail whose point is this list takes focus for it
        self._claim_once = False  # claim_focus_once: at the next first page only
        self._fetch = fetch
        self.columns = columns
        self._shared = [SharedCells() for _ in columns]
        self.item_id = item_id
        self.server_filter = server_filter
        self.noun = noun
        self.pager: Pager[T] = Pager(fetch, page_size=PAGE_SIZE)
        self._retry = AutoRetry(self, lambda: self._load(first=not self.pager.items))
        self.rows: list[T] = []  # what the table shows: loaded items, filtered and sorted
        self.filter_text = ""
        self.sort_index: int | None = None
        self.sort_reverse = False
        self._remembered: str | None = None
        self._loading = False
        self._debounce: Timer | None = None
        self._error: str | None = None
        self._server_text = ""  # the filter text the loaded rows were asked for with

    def compose(self) -> ComposeResult:
        # Disabled while hidden, so focus never lands in a box the user cannot see.
        yield Input(placeholder=f"filter {self.noun} (esc clears)", id="filter", disabled=True)
        yield Static(classes="error")
        table = _Table(cursor_type="row", zebra_stripes=True)
        for column in self.columns:
            table.add_column(column.label, key=column.key, width=column.width)
        yield table
        yield Static(classes="status")

    @property
    def table(self) -> DataTable[Text]:
        return self.query_one(DataTable)

    def on_mount(self) -> None:
        self.reload()

    def _claim_focus(self) -> None:
        """Take focus when the first page is in (a loading widget cannot), if keys would otherwise go astray.

        That is when nothing has focus, or the sidebar, or a list left behind in a
        pane no longer shown; in a detail screen the tabs keep it unless
        `focus_on_load`. Only a table on show claims, and on a covered screen only a pane's astray focus: a
        pane built while another screen was opened over it (`m` pressed before the first pane was up) takes
        its screen's focus for when that screen is back, else Textual would give it to the sidebar.
        """
        from .pane import Pane

        if not self.is_attached or not _shown(self.table):
            return
        focused = self.screen.focused
        astray = focused is None or focused.id == "sidebar" or not _shown(focused)
        in_pane = any(isinstance(node, Pane) for node in self.ancestors)
        on_top = self.screen is self.app.screen
        if (on_top and (self.focus_on_load or self._claim_once)) or (astray and in_pane):
            self._claim_once = False
            self.table.focus()

    def claim_focus_once(self) -> None:
        """Take the focus when the first page is in (now, if it is): a detail opened on this list's tab."""
        self._claim_once = True
        if self.rows and not self.table.loading:
            self._claim_focus()

    # --- loading ------------------------------------------------------------------------------

    def reload(self) -> None:
        """From the first page again (after `r`, a new server filter or a new workspace)."""
        self._retry.cancel()
        if not self.query(DataTable):
            return  # removed while it was being mounted (its detail reloaded meanwhile): nothing to load into
        self._remember_cursor()
        self._server_text = self.filter_text if self.server_filter else ""
        params = {self.server_filter: self._server_text} if self.server_filter and self._server_text else {}
        self.pager.reset(**params)
        self._load(first=True)

    def load_more(self) -> None:
        if not self.pager.done and not self._loading:
            self._load(first=False)

    @work(group="page", exclusive=True, exit_on_error=False)
    async def _load(self, first: bool) -> None:
        self._loading = True
        self.table.loading = first
        self._update_status()
        try:
            before = len(self.pager.items)
            await self.pager.load_more()
            self.set_class(False, "failed")
            self._error = None
            self._retry.succeeded()
            self._rebuild(full=first)
            rows_kept(len(self.pager.items) - before)  # long-lived: out of the collector's way
        except ApiError as error:
            self._failed(error)
            return
        except Exception as error:
            log.exception("loading %s failed", self.noun)
            self._failed(ApiError(f"{type(error).__name__}: {error}"))
            return
        finally:
            self._loading = False
            self.table.loading = False
            self._update_status()
            if first:
                # While it loaded, Textual read the keys as if nothing were focused (a loading widget's are
                # not offered), and nothing tells the footer they are back: a reload under a closing dialog
                # left it without the list's keys.
                self.refresh_bindings()
                self._claim_focus()
        if first and len(self.rows) < LOAD_AHEAD and not self.pager.done and self.filter_text:
            self.load_more()  # a filter that hides most rows should still fill the screen

    def _failed(self, error: ApiError) -> None:
        self._error = error.message
        note = self._retry.schedule(error) or ("" if isinstance(error, SetupProblem) else "press r to retry")
        self.query_one(".error", Static).update(
            Text.assemble(
                ("Could not load " + self.noun + ": ", "bold"),
                visible(error.message, 300),
                ("\n" + note if note else "", "dim"),
            )
        )
        self.set_class(True, "failed")
        if not self.pager.items:  # no stale rows under the message
            self.table.clear()
            self.rows = []
        self._update_status()
        if isinstance(error, AuthError):
            self.post_message(AuthFailed(error))

    # --- rows ------------------------------------------------------------------------------------

    def _matches(self, item: T) -> bool:
        if not self.filter_text:
            return True
        if self.server_filter and self._server_text == self.filter_text:
            return True  # the service filtered on this text, perhaps on fields we do not show
        needle = self.filter_text.lower()
        return (
            any(needle in column.render(item).plain.lower() for column in self.columns)
            or needle in self.item_id(item).lower()
        )

    def _rebuild(self, *, full: bool = True) -> None:
        """Redraw the rows; `full=False` (a next page) may only append, keeping scroll and cursor."""
        rows = [item for item in self.pager.items if self._matches(item)]
        if self.sort_index is not None:
            column = self.columns[self.sort_index]
            by = column.sort or (lambda item: column.render(item).plain.lower())
            rows.sort(key=lambda item: _sortable(by(item)), reverse=self.sort_reverse)
        table = self.table
        self._remember_cursor()
        old_ids = [self.item_id(r) for r in self.rows]
        new_ids = [self.item_id(r) for r in rows]
        if not full and new_ids[: len(old_ids)] == old_ids and old_ids:
            # Only new rows at the end: append them, keep the table (and its scroll) as it is.
            for item, key in zip(rows[len(old_ids) :], new_ids[len(old_ids) :], strict=False):
                table.add_row(*self._cells(item), key=key)
        else:
            table.clear()
            for item, key in zip(rows, new_ids, strict=False):
                table.add_row(*self._cells(item), key=key)
            self._restore_cursor(new_ids)
        self.rows = rows
        self.call_after_refresh(self._fit_columns)  # once laid out: the table's width is known then
        self._update_status()

    def _cells(self, item: T) -> list[Text]:
        cells = [column.render(item) for column in self.columns]
        return [shared(cell) for shared, cell in zip(self._shared, cells, strict=True)]

    def refresh_columns(self, keys: Collection[str]) -> None:
        """Draw the cells of these columns again where their text changed (they show something that moves)."""
        if not self.query(DataTable):
            return  # shown before its table is mounted (a pane opened while the app starts): nothing drawn yet
        columns = [c for c in self.columns if c.key in keys]
        table = self.table
        for item in self.rows:
            row_key = self.item_id(item)
            for column in columns:
                cell = column.render(item)
                try:
                    if str(table.get_cell(row_key, column.key)) != str(cell):
                        table.update_cell(row_key, column.key, cell)
                except CellDoesNotExist:
                    return  # the table is being rebuilt: it draws them itself

    @on(_Table.Sized)
    def _sized(self, event: _Table.Sized) -> None:
        event.stop()
        self._fit_columns()

    def _fit_columns(self) -> None:
        """Columns follow the width: a column cut to its set width is given what it lacks from the spare
        width (left to right), and gives it back when the terminal narrows."""
        found = self.query(DataTable)
        if not self.is_attached or not found:
            return  # removed (its detail reloaded) before it was laid out
        table = found.first()
        columns = list(table.columns.values())
        if len(columns) != len(self.columns) or not table.size.width:
            return
        pad = 2 * table.cell_padding
        spare = table.scrollable_content_region.width - sum(
            (spec.width if spec.width is not None else column.content_width) + pad
            for spec, column in zip(self.columns, columns, strict=True)
        )
        widths: dict[str, int] = {}
        for spec, column in zip(self.columns, columns, strict=True):
            if spec.width is None:
                continue  # sized to its content already
            extra = max(0, min(spare, column.content_width - spec.width))
            spare -= extra
            widths[spec.key] = spec.width + extra
        set_widths(table, widths)

    def _remember_cursor(self) -> None:
        table = self.table
        if self.rows and 0 <= table.cursor_row < len(self.rows):
            self._remembered = self.item_id(self.rows[table.cursor_row])

    def _restore_cursor(self, ids: list[str]) -> None:
        if self._remembered in ids:
            self.table.move_cursor(row=ids.index(self._remembered), animate=False)

    def _update_status(self) -> None:
        loaded, total = len(self.pager.items), self.pager.total
        if self.pager.done and not loaded and not self._loading and not self._error:
            what = (
                f"no {self.noun} match “{visible(self.filter_text, 40)}”" if self.filter_text else f"no {self.noun} yet"
            )
            self.query_one(".status", Static).update(Text(what + " · r refreshes"))
            return
        parts = [f"{loaded} of {total}" if total is not None else f"{loaded}"]
        if self.filter_text:
            parts.append(f"{len(self.rows)} match “{visible(self.filter_text, 40)}”")
        if self.sort_index is not None:
            parts.append(f"sorted by {self.columns[self.sort_index].label}{' ↓' if self.sort_reverse else ''}")
        if self._loading:
            parts.append("loading…")
        elif not self.pager.done and loaded:
            parts.append("more below")
        self.query_one(".status", Static).update(Text(" · ".join(parts)))

    @property
    def current(self) -> T | None:
        row = self.table.cursor_row
        return self.rows[row] if 0 <= row < len(self.rows) else None

    # --- events ------------------------------------------------------------------------------------

    @on(DataTable.RowHighlighted)
    def _near_end(self, event: DataTable.RowHighlighted) -> None:
        if event.cursor_row >= len(self.rows) - LOAD_AHEAD:
            self.load_more()

    @on(DataTable.RowSelected)
    def _open(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if 0 <= event.cursor_row < len(self.rows):
            self.post_message(self.Opened(self, self.rows[event.cursor_row]))

    @on(DataTable.HeaderSelected)
    def _header(self, event: DataTable.HeaderSelected) -> None:
        self._sort_by(event.column_index)

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.filter_text = event.value.strip()
        self._rebuild()
        if self.server_filter:
            if self._debounce is not None:
                self._debounce.stop()
            self._debounce = self.set_timer(FILTER_DEBOUNCE_S, self._server_filter)

    @on(Input.Submitted, "#filter")
    def _filter_done(self, event: Input.Submitted) -> None:
        self.table.focus()

    def _server_filter(self) -> None:
        self.reload()

    # --- actions -----------------------------------------------------------------------------------

    def action_filter(self) -> None:
        self.add_class("filtering")
        self.refresh_bindings()
        box = self.query_one("#filter", Input)
        box.disabled = False
        box.focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "clear_filter":
            # With nothing to clear, esc is not ours: it goes on to mean "back" (and the footer says so).
            return bool(self.filter_text) or self.has_class("filtering")
        return True

    def action_clear_filter(self) -> None:
        box = self.query_one("#filter", Input)
        box.value = ""
        self.remove_class("filtering")
        box.disabled = True
        self.table.focus()
        self.refresh_bindings()

    def action_refresh(self) -> None:
        self.reload()

    def action_sort(self) -> None:
        """Cycle: each column ascending, then descending, then unsorted."""
        if self.sort_index is None:
            self._sort_by(0)
        elif not self.sort_reverse:
            self._sort_by(self.sort_index)
        elif self.sort_index + 1 < len(self.columns):
            self.sort_index, self.sort_reverse = self.sort_index + 1, False
            self._rebuild()
        else:
            self.sort_index, self.sort_reverse = None, False
            self._rebuild()

    def _sort_by(self, index: int) -> None:
        if self.sort_index == index:
            self.sort_reverse = not self.sort_reverse
        else:
            self.sort_index, self.sort_reverse = index, False
        self._rebuild()


def _shown(widget: Any) -> bool:
    """Displayed, and so are all its ancestors (a pane switched away is not)."""
    return all(getattr(node, "display", True) for node in (widget, *widget.ancestors))


def _sortable(value: Any) -> tuple[int, Any]:
    """None sorts last; mixed types do not raise."""
    if value is None:
        return (2, "")
    if isinstance(value, (int, float)):
        return (0, value)
    return (1, str(value))
