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
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from rich.cells import cell_len
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.geometry import Size
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Input, Static

from ...api import ApiError, AuthError, Pager
from ...text import visible
from ..collector import rows_kept
from ..focus import focus_now, shown
from ..messages import AuthFailed
from ..retry import AutoRetry, SetupProblem
from .board import KEPT_ROWS, PADDING, Board, BoardColumn
from .leaving_input import LeavingInput

if TYPE_CHECKING:
    from ...api.models import Page

log = logging.getLogger("aftui.tui")
T = TypeVar("T")
PAGE_SIZE = 100
LOAD_AHEAD = 20  # rows from the end at which the next page is fetched
FILTER_DEBOUNCE_S = 0.35
SORT_MARKS = {False: "↑", True: "↓"}  # by sort_reverse: after the sorted column's label and in the status line


@dataclass(frozen=True)
class Column(Generic[T]):
    key: str
    label: str
    render: Callable[[T], Text]
    sort: Callable[[T], Any] | None = None
    width: int | None = None
    # The narrowest it is made when the table cannot give every column its width (None: it keeps its width):
    # a long name or error cut shorter, rather than the columns at the right cut to a letter.
    min_width: int | None = None
    # Still too narrow at the min widths: hidden, the lowest rank first (None: always shown). An ID, how a row
    # was found or who replayed it gives way to what says what is failing and why; the row's detail shows it.
    hide_rank: int | None = None
    # Cells of it worth reading whole (the error's `code: msg`): while it shows fewer than this, or than its
    # longest value if that is shorter, the hideable columns give way to it too, not only when nothing fits.
    read_whole: int | None = None
    cut: Literal["end", "middle", "message"] = "end"  # how a value too long for the column is cut (see BoardColumn)


LIST_AREA = "The list"  # the list's heading in `?`


class ListTable(Board):
    """The list's table: it draws the rows its owner shows (loaded items, filtered and sorted) as they come into
    view, and keeps only those drawn lately. A DataTable kept every row's cells and what it drew of them: 40 MB
    for 10,000 sources, more than the sources themselves.

    It says when it is given a size, its first one included: the list fits its columns to that width, and until
    the table has one (it can still be 0 wide one refresh after its rows arrive), there is nothing to fit to.
    Until then it does not scroll across either: its widths are the labels' (a guess), and a horizontal
    scrollbar laid out for them stays drawn under a screen pushed before the fit, since Textual lays out
    only the screen on top.
    """

    KEYS_AREA = LIST_AREA

    class Sized(Message):
        """The table has a new size: the columns can be fitted to it."""

    def __init__(self, columns: Sequence[Column[Any]]) -> None:
        super().__init__(
            [BoardColumn(c.key, c.label, cell_len(c.label) if c.width is None else c.width, c.cut) for c in columns]
        )
        self._specs = list(columns)
        self.items: Sequence[Any] = ()
        self._kept: dict[int, list[Text]] = {}  # cells of rows drawn lately, by index
        self._fitted = False  # given widths fitted to its own (`set_widths`)

    @property
    def row_count(self) -> int:
        return len(self.items)

    def row(self, index: int) -> list[Text]:
        cells = self._kept.get(index)
        if cells is None:
            if len(self._kept) >= KEPT_ROWS:
                self._kept.clear()
            item = self.items[index]
            cells = self._kept[index] = [column.render(item) for column in self._specs]
        return cells

    def show(self, items: Sequence[Any], *, cursor: int | None = None) -> None:
        """Draw these items, the cursor on row `cursor` (None: where it is)."""
        self.items = items
        self._kept.clear()
        self.rows_changed(cursor)

    def redraw(self) -> None:
        """The items shown changed in place (a column shows something that moves): draw them again, the
        cursor and the scroll where they are."""
        self._kept.clear()
        self.rows_changed()

    def set_widths(self, widths: Mapping[str, int]) -> None:
        first = not self._fitted
        self._fitted = True
        super().set_widths(widths)
        if first:
            self._size_virtually()  # across now, even if the fitted widths are the labels' own

    def _size_virtually(self) -> None:
        self.virtual_size = Size(self.line_width if self._fitted else 0, self.row_count + 1)

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
        Binding("down", "to_rows", "To the rows", show=False),  # from the filter's field, as enter
    ]

    DEFAULT_CSS = """
    PagedTable { height: 1fr; }
    PagedTable > Input { display: none; height: 3; }
    PagedTable.filtering > Input { display: block; }
    PagedTable > ListTable { height: 1fr; }
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
        self.content_widths = _label_widths(columns)  # the widest cell of each column, so far
        self.item_id = item_id
        self.server_filter = server_filter
        self.noun = noun
        self.pager: Pager[T] = Pager(fetch, page_size=PAGE_SIZE)
        self._retry = AutoRetry(self, self._try_again)
        self.rows: list[T] = []  # what the table shows: loaded items, filtered and sorted
        self.filter_text = ""
        self.sort_index: int | None = None
        self.sort_reverse = False
        self._remembered: str | None = None
        self._wanted: Callable[[T], bool] | None = None  # an item `go_to` waits for a load to bring
        self._loading = False
        self._debounce: Timer | None = None
        self._error: str | None = None
        # The list as it stood before a reload (`r`, back from a replay), put back if the reload fails: in an
        # outage a reload emptied the list under "Could not load", and the errors being read were gone.
        self._before_reload: Pager[T] | None = None
        self._stale = False  # what is shown is from before a reload that failed: the retry reloads
        self._server_text = ""  # the filter text the loaded rows were asked for with
        # A filter text the service knows nothing by (a 404: no app "live"): the rows are matched here instead.
        self._server_refused: str | None = None

    def compose(self) -> ComposeResult:
        # Disabled while hidden, so focus never lands in a box the user cannot see.
        yield LeavingInput(placeholder=f"filter {self.noun} (esc clears)", id="filter", disabled=True)
        yield Static(classes="error")
        yield ListTable(self.columns)
        yield Static(classes="status")

    @property
    def table(self) -> ListTable:
        return self.query_one(ListTable)

    @property
    def unready(self) -> bool:
        """Not composed yet, or loading: its list cannot take the focus (nor the keys typed for it) yet."""
        return not self.query(ListTable) or self.table.loading

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

        if not self.is_attached or not shown(self.table):
            return
        focused = self.screen.focused
        astray = focused is None or focused.id == "sidebar" or not shown(focused)
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
        if not self.query(ListTable):
            return  # removed while it was being mounted (its detail reloaded meanwhile): nothing to load into
        self._remember_cursor()
        self._before_reload = self.pager.kept() if self.pager.items else None
        asked = self.server_filter is not None and self.filter_text != self._server_refused
        self._server_text = self.filter_text if asked else ""
        params = {self.server_filter: self._server_text} if self.server_filter and self._server_text else {}
        self.pager.reset(**params)
        self._load(first=True)

    @property
    def loaded(self) -> list[T]:
        """The items the rows are made of: the pager's, or while a reload is on its way, those it will replace."""
        kept = self._before_reload
        return kept.items if kept is not None and not self.pager.items else self.pager.items

    def _try_again(self) -> None:
        """The retry after a failure: the reload again when the rows shown are from before it, else the page."""
        if self._stale:
            self.reload()
        else:
            self._load(first=not self.pager.items)

    def load_more(self) -> None:
        if not self.pager.done and not self._loading:
            self._load(first=False)

    @work(group="page", exclusive=True, exit_on_error=False)
    async def _load(self, first: bool) -> None:
        self._loading = True
        # Not over the rows a reload will replace: against a service that hung they were hidden for a minute and
        # a half under the loading dots (the status line says "loading…").
        self.table.loading = first and self._before_reload is None
        if self._error is not None and self.query(".error"):
            # The failure's box stays until this try ends: its "trying again in 2 s" read as a retry not yet
            # made while the service took a minute to time out again.
            self._say_failure(self._error, "trying again now…")
        self._update_status()
        before = len(self.pager.items)
        failure: ApiError | None = None
        try:
            new = await self.pager.load_more()
        except ApiError as error:
            failure = error
        except Exception as error:  # a bad answer is said where the list would be, never a crash
            log.exception("loading %s failed", self.noun)
            failure = ApiError(f"{type(error).__name__}: {error}")
        finally:
            self._loading = False
        if self._table_gone():
            return  # its screen is closing (a screen's widgets go children first): nothing to show it in
        self.table.loading = False
        if failure is None:
            try:
                self._show_page(new, before, first=first)
            except Exception as error:
                log.exception("showing %s failed", self.noun)
                failure = ApiError(f"{type(error).__name__}: {error}")
        if failure is not None and first and self._server_text and failure.status == 404:
            self._not_known_to_server()
        elif failure is not None:
            if first and self._before_reload is not None:
                self.pager.restore(self._before_reload)  # the rows still shown stay, under the failure's box
                self._stale = True
            self._failed(failure)
        self._update_status()
        if first:
            # While it loaded, Textual read the keys as if nothing were focused (a loading widget's are
            # not offered), and nothing tells the footer they are back: a reload under a closing dialog
            # left it without the list's keys.
            self.refresh_bindings()
            self._claim_focus()
        if failure is None and first and len(self.rows) < LOAD_AHEAD and not self.pager.done and self.filter_text:
            self.load_more()  # a filter that hides most rows should still fill the screen

    def _show_page(self, new: list[T], before: int, *, first: bool) -> None:
        self._measure(new, first=first)
        self.set_class(False, "failed")
        self._error = None
        if first:
            self._before_reload, self._stale = None, False
        self._retry.succeeded()
        self._rebuild(full=first)
        rows_kept(len(self.pager.items) - before)  # long-lived: out of the collector's way

    def _table_gone(self) -> bool:
        """Its screen is closing: a screen's widgets are removed children first, so the table can go first."""
        return not self.is_attached or not self.query(ListTable)

    def _not_known_to_server(self) -> None:
        """The service has nothing by the filter's text (`/live` on Accounts: no app "live"), which is no failure:
        every row again, matched here by what they show, as lists without a server filter are."""
        self._server_refused = self._server_text
        self.call_later(self.reload)

    def _say_failure(self, message: str, note: str) -> None:
        self.query_one(".error", Static).update(
            Text.assemble(
                ("Could not load " + self.noun + ": ", "bold"),
                visible(message, 300),
                ("\n" + note if note else "", "dim"),
            )
        )

    def _failed(self, error: ApiError) -> None:
        self._error = error.message
        note = self._retry.schedule(error) or ("" if isinstance(error, SetupProblem) else "press r to retry")
        if self._stale:
            note += " · below: the list as it was before" if note else "below: the list as it was before"
        self._say_failure(error.message, note)
        self.set_class(True, "failed")
        if not self.pager.items:  # no stale rows under the message
            self.rows = []
            self.table.show(self.rows)
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
        self._remember_cursor()
        # Only new rows at the end: the cursor (and the scroll) stay; else it goes back to the row it was on.
        old = self.rows
        appended = (
            not full and len(rows) >= len(old) and all(a is b for a, b in zip(old, rows[: len(old)], strict=True))
        )
        self.rows = rows
        sorted_by = self.columns[self.sort_index].key if self.sort_index is not None else None
        self.table.mark_column(sorted_by, SORT_MARKS[self.sort_reverse])
        self.table.show(rows, cursor=None if appended else self._remembered_index(rows))
        self.call_after_refresh(self._fit_columns)  # once laid out: the table's width is known then
        self._update_status()

    def _measure(self, items: list[T], *, first: bool) -> None:
        """Each column's widest cell among the loaded items (as a DataTable measures the rows it is given)."""
        if first:
            self.content_widths = _label_widths(self.columns)
        content = self.content_widths
        for column in self.columns:
            render, widest = column.render, content[column.key]
            for item in items:
                widest = max(widest, render(item).cell_len)
            content[column.key] = widest

    def cell(self, key: str, column_key: str) -> Text:
        """The cell drawn for the row of item `key` in column `column_key` (KeyError: no such row or column)."""
        column = next((c for c in self.columns if c.key == column_key), None)
        item = next((item for item in self.rows if self.item_id(item) == key), None)
        if column is None or item is None:
            raise KeyError((key, column_key))
        return column.render(item)

    def redraw(self) -> None:
        """Draw the rows again: a column shows something that moved (health, a replay's state)."""
        if self.query(ListTable):  # not before its table is mounted (a pane opened while the app starts)
            self.table.redraw()

    @on(ListTable.Sized)
    def _sized(self, event: ListTable.Sized) -> None:
        event.stop()
        self._fit_columns()

    def _fit_columns(self) -> None:
        """The columns' widths follow the table's (`fit_widths`)."""
        found = self.query(ListTable)
        if not self.is_attached or not found:
            return  # removed (its detail reloaded) before it was laid out
        table = found.first()
        if not table.size.width:
            return
        table.set_widths(fit_widths(self.columns, self.content_widths, table.scrollable_content_region.width))

    @property
    def hidden(self) -> frozenset[str]:
        """The keys of the columns too narrow a table hides (drawn 0 wide)."""
        return frozenset(key for key, width in self.table.widths.items() if width == 0)

    def go_to(self, match: Callable[[T], bool]) -> None:
        """The cursor on the first item that `match`es: now if one is shown, else once a load brings it (a thing
        just made, whose list is reloading: the cursor stayed on the row it was on, and `d` then named another)."""
        index = next((n for n, item in enumerate(self.rows) if match(item)), None)
        if index is None:
            self._wanted = match
        else:
            self._remembered = self.item_id(self.rows[index])
            self.table.move_cursor(index)

    def _remember_cursor(self) -> None:
        table = self.table
        if self.rows and 0 <= table.cursor_row < len(self.rows):
            self._remembered = self.item_id(self.rows[table.cursor_row])

    def _remembered_index(self, rows: list[T]) -> int:
        """The row of the item the cursor was last on (the first row if it is not shown), or of one `go_to` wants."""
        if self._wanted is not None:
            index = next((n for n, item in enumerate(rows) if self._wanted(item)), None)
            if index is not None:
                self._wanted = None
                return index
        if self._remembered is not None:
            for index, item in enumerate(rows):
                if self.item_id(item) == self._remembered:
                    return index
        return 0

    def _update_status(self) -> None:
        loaded, total = len(self.pager.items), self.pager.total
        self.table.say_empty(self._empty_words())
        # Nothing yet: "0 · loading…" read as "none", and a slow service's list as an empty one.
        parts = [f"{loaded} of {total}" if total is not None else f"{loaded}"] if loaded or not self._loading else []
        if self.filter_text:
            parts.append(f"{len(self.rows)} match “{visible(self.filter_text, 40)}”")
            if self.filter_text == self._server_refused:
                parts.append(f"no {self.server_filter} by that name: matched in the rows' text")
        if self.sort_index is not None:
            parts.append(f"sorted by {self.columns[self.sort_index].label} {SORT_MARKS[self.sort_reverse]}")
        parts.extend(self.status_parts())
        if self._loading:
            parts.append("loading…")
        elif not self.pager.done and loaded:
            parts.append("more below")
        self.query_one(".status", Static).update(Text(" · ".join(parts)))

    def status_parts(self) -> list[str]:
        """What a kind of list adds to its status line, after the count, filter and sort (the errors' marks)."""
        return []

    def update_status(self) -> None:
        """Say again what `status_parts` says, once it changed."""
        if self.query(".status"):
            self._update_status()

    def _empty_words(self) -> str:
        """What the table says with no row to show: none in the list, or none the filter lets through."""
        loaded = len(self.pager.items)
        if self.rows or self._loading or self._error or not (loaded or self.pager.done):
            return ""
        if self.filter_text:
            among = "" if self.pager.done else f" among the {loaded:,} loaded"
            return f"no {self.noun} match “{visible(self.filter_text, 40)}”{among} · esc clears the filter"
        return f"no {self.noun} yet · r refreshes"

    @property
    def current(self) -> T | None:
        row = self.table.cursor_row
        return self.rows[row] if 0 <= row < len(self.rows) else None

    # --- events ------------------------------------------------------------------------------------

    @on(ListTable.RowHighlighted)
    def _near_end(self, event: ListTable.RowHighlighted) -> None:
        # Not -1: an emptied list (a failed first page) wants its first page again, not a next one.
        if event.index >= max(0, len(self.rows) - LOAD_AHEAD):
            self.load_more()

    @on(ListTable.RowSelected)
    def _open(self, event: ListTable.RowSelected) -> None:
        event.stop()
        if 0 <= event.index < len(self.rows):
            self.post_message(self.Opened(self, self.rows[event.index]))

    @on(ListTable.HeaderSelected)
    def _header(self, event: ListTable.HeaderSelected) -> None:
        event.stop()
        if _sortable_column(self.columns[event.column_index]):
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
        focus_now(self.table)

    def _server_filter(self) -> None:
        if self.table.cursor_row == 0:
            # The service's matches come first-best: kept on the row it was on, the cursor ended up under one
            # the answer put above it ("goo": Gmail above Google Calendar), and enter opened the second.
            self._wanted = lambda _item: True
        self.reload()

    # --- actions -----------------------------------------------------------------------------------

    def action_filter(self) -> None:
        self.add_class("filtering")
        self.refresh_bindings()
        box = self.query_one("#filter", Input)
        box.disabled = False
        focus_now(box)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "clear_filter":
            # With nothing to clear, esc is not ours: it goes on to mean "back" (and the footer says so).
            return bool(self.filter_text) or self.has_class("filtering")
        if action == "to_rows":
            return self.screen.focused is self.query_one("#filter", Input)
        return True

    def action_to_rows(self) -> None:
        self.table.focus()

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
        """Cycle: each column shown ascending, then descending, then unsorted."""
        if self.sort_index is not None and not self.sort_reverse:
            self._sort_by(self.sort_index)
            return
        start, hidden = 0 if self.sort_index is None else self.sort_index + 1, self.hidden
        shown = (
            i
            for i in range(start, len(self.columns))
            if self.columns[i].key not in hidden and _sortable_column(self.columns[i])
        )
        self.sort_index, self.sort_reverse = next(shown, None), False
        self._rebuild()

    def _sort_by(self, index: int) -> None:
        if self.sort_index == index:
            self.sort_reverse = not self.sort_reverse
        else:
            self.sort_index, self.sort_reverse = index, False
        self._rebuild()


def fit_widths(columns: Sequence[Column[Any]], content: Mapping[str, int], room: int) -> dict[str, int]:
    """Each column's width in `room` cells, 0 for one hidden. A column cut to its set width is given what it
    lacks from the spare width (left to right), and gives it back when the room shrinks; below the set widths,
    the columns with a `min_width` give width down to it (right to left); below those, or while a column
    with `read_whole` is cut short of it, columns with a `hide_rank` are hidden, the lowest first, and the
    others fitted again without them."""
    shown = list(columns)
    hideable = sorted((c for c in columns if c.hide_rank is not None), key=lambda c: c.hide_rank or 0)
    widths, spare = _fitted(shown, content, room)
    while hideable and (spare < 0 or _cut_short(shown, widths, content)):
        shown.remove(hideable.pop(0))
        widths, spare = _fitted(shown, content, room)
    return {c.key: widths.get(c.key, 0) for c in columns}


def _cut_short(columns: Sequence[Column[Any]], widths: Mapping[str, int], content: Mapping[str, int]) -> bool:
    return any(c.read_whole and widths[c.key] < min(c.read_whole, content[c.key]) for c in columns)


def _fitted(columns: Sequence[Column[Any]], content: Mapping[str, int], room: int) -> tuple[dict[str, int], int]:
    """`fit_widths` for these columns, all shown; and the cells still spare (negative: that many too few)."""
    spare = room - sum((c.width if c.width is not None else content[c.key]) + 2 * PADDING for c in columns)
    widths: dict[str, int] = {}
    for column in columns:
        if column.width is None:
            widths[column.key] = content[column.key]  # sized to its content
            continue
        extra = max(0, min(spare, content[column.key] - column.width))
        spare -= extra
        widths[column.key] = column.width + extra
    for column in reversed(columns):  # too narrow for them all: the columns that can give, the last first
        if spare >= 0:
            break
        if column.min_width is not None:
            given = max(0, min(-spare, widths[column.key] - column.min_width))
            widths[column.key] -= given
            spare += given
    return widths, spare


def _sortable_column(column: Column[Any]) -> bool:
    """A column with a label: one without (the marks') says nothing the status line could name."""
    return bool(column.label.strip())


def _label_widths(columns: Sequence[Column[Any]]) -> dict[str, int]:
    return {c.key: cell_len(c.label) for c in columns}


def _sortable(value: Any) -> tuple[int, Any]:
    """None sorts last; mixed types do not raise."""
    if value is None:
        return (2, "")
    if isinstance(value, (int, float)):
        return (0, value)
    return (1, str(value))
