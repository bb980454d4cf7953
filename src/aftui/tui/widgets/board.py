"""A table of fixed columns, drawn line by line: Health's board, and every paged list's.

A DataTable renders each cell on its own through rich's console (a padding, two
styles and a measure per cell), and keeps every row it was given, each cell a
Text, plus caches of what it drew: about 4 KB a row, 40 MB for 10,000 sources.
Here a row is one Text, each cell cut to its column, made into a Strip, and kept
until the row, the width or the look changes; only rows drawn lately are kept.

`Board` holds the rows it is given (`replace`, `update_row`). A subclass can
draw them from elsewhere instead (`row_count`, `row`): the paged lists draw
their items, so that what is kept per row is the item and nothing more.

It keeps what the lists used of a DataTable, with the same look: a header that
stays on top while the rows scroll, zebra rows, a row cursor, `RowHighlighted`
when the cursor moves, `RowSelected` on enter or on a click of the highlighted
row, `HeaderSelected` on a click of a column's label, and rows wider than the
widget scrolled sideways. The owner sets the columns' widths (`set_widths`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from rich.cells import cell_len, get_character_cell_size
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

PADDING = 1  # cells of space on each side of a column, as a DataTable's default `cell_padding`
KEPT_ROWS = 256  # drawn rows kept: a few screens' worth, so a list of 10,000 keeps no more than a short one

# A row's look: (the cursor is on it, an even row). The widget's focus and width are in the cache's own key.
Look = tuple[bool, bool]
HEADER = -1  # the header's place in the cache of drawn rows


@dataclass(frozen=True)
class BoardColumn:
    key: str
    label: str
    width: int
    # Too long for the column: cut at the end ("end"), or in the middle ("middle"), where names that differ
    # only at the end ("New issues in acme/api", "New issues in acme/web") stay told apart, or its start left
    # out, unmarked ("start"): a series of minutes, the newest at the end, keeps the newest; or an error's
    # lead up to the first ": " (its name) left out, then cut in the middle ("message"): a message says more
    # than its name, and most often differs from another at its end (the field, the id, the status), which
    # a cut at the end took from every row.
    cut: Literal["end", "middle", "start", "message"] = "end"


def cut_middle(text: Text, width: int) -> Text:
    """`text` in at most `width` cells, its middle given up for an ellipsis (cut at the end below 5 cells)."""
    if text.cell_len <= width:
        return text
    if width < 5:
        cut = text.copy()
        cut.truncate(width, overflow="ellipsis")
        return cut
    keep = width - 1
    plain = text.plain
    head_end = len(plain[: _chars_within(plain, keep - keep // 2)].rstrip())  # no space beside the ellipsis
    tail_start = len(plain) - len(plain[len(plain) - _chars_within(plain[::-1], keep // 2) :].lstrip())
    head, tail = text[:head_end], text[tail_start:]
    return Text.assemble(head, "…", tail, style=text.style, no_wrap=True, end="")


def cut_message(text: Text, width: int) -> Text:
    """`text` in at most `width` cells: whole if it fits, else without its lead (up to the first ": "), cut
    in the middle if still too long."""
    if text.cell_len <= width:
        return text
    lead = text.plain.find(": ")
    return cut_middle(text[lead + 2 :] if lead > 0 else text, width)


def cut_start(text: Text, width: int) -> Text:
    """`text`'s last characters that fit in `width` cells."""
    if text.cell_len <= width:
        return text
    plain = text.plain
    return text[len(plain) - _chars_within(plain[::-1], width) :]


def _chars_within(plain: str, cells: int) -> int:
    """How many of `plain`'s first characters fit in `cells` (a wide character that would cross it is left out)."""
    used = 0
    for count, char in enumerate(plain):
        used += get_character_cell_size(char)
        if used > cells:
            return count
    return len(plain)


class Board(ScrollView, can_focus=True):
    KEYS_AREA = "The list"  # its heading in `?`

    # Named as a DataTable's actions (`cursor_`), so that `?` says the moves once for every list.
    BINDINGS = [
        Binding("up,k", "cursor_move(-1)", "Up", show=False),
        Binding("down,j", "cursor_move(1)", "Down", show=False),
        Binding("pageup", "cursor_page(-1)", "Page up", show=False),
        Binding("pagedown", "cursor_page(1)", "Page down", show=False),
        # Rows are chosen, not cells: home and end go to the first and last row, as ctrl+home and ctrl+end do in
        # a DataTable; left and right scroll a row wider than the widget.
        Binding("home,ctrl+home", "cursor_first", "First", show=False),
        Binding("end,ctrl+end", "cursor_last", "Last", show=False),
        Binding("left", "scroll_left", "Scroll left", show=False),
        Binding("right", "scroll_right", "Scroll right", show=False),
        Binding("enter", "select_cursor", "Open", show=False),
    ]

    COMPONENT_CLASSES = {"board--header", "board--even-row", "board--cursor"}

    # DataTable's colours (textual/widgets/_data_table.py), so that every list looks alike.
    DEFAULT_CSS = """
    Board { background: $surface; color: $foreground; overflow-x: auto; overflow-y: auto; }
    Board:focus { background-tint: $foreground 5%; }
    Board > .board--header { text-style: bold; background: $panel; color: $foreground; }
    Board:focus > .board--header { background-tint: $foreground 5%; }
    Board:ansi > .board--header { background: ansi_bright_blue; color: ansi_default; }
    Board > .board--even-row { background: $surface-lighten-1 50%; }
    Board:dark > .board--even-row { background: $surface-darken-1 40%; }
    Board > .board--cursor {
        background: $block-cursor-blurred-background;
        color: $block-cursor-blurred-foreground;
        text-style: $block-cursor-blurred-text-style;
    }
    Board:focus > .board--cursor {
        background: $block-cursor-background;
        color: $block-cursor-foreground;
        text-style: $block-cursor-text-style;
    }
    """

    class _BoardMessage(Message):
        def __init__(self, board: Board) -> None:
            super().__init__()
            self.board = board

        @property
        def control(self) -> Board:
            return self.board

    class _RowMessage(_BoardMessage):
        def __init__(self, board: Board, index: int) -> None:
            super().__init__(board)
            self.index = index

    class RowHighlighted(_RowMessage):
        """The cursor moved to row `index` (-1: the board is empty)."""

    class RowSelected(_RowMessage):
        """Row `index` was chosen: enter, or a click on the highlighted row."""

    class HeaderSelected(_BoardMessage):
        """The label of column `column_index` was clicked."""

        def __init__(self, board: Board, column_index: int) -> None:
            super().__init__(board)
            self.column_index = column_index

    def __init__(self, columns: Sequence[BoardColumn], *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.columns = list(columns)
        self.widths = {c.key: c.width for c in self.columns}
        self.keys: list[str] = []
        self._cells: dict[str, list[Text]] = {}
        self.cursor_row = 0
        self._announced: int | None = None
        # Strips by row index (the header's is HEADER), then by look; a changed row drops only its own.
        self._strips: dict[int, dict[Look, Strip]] = {}
        self._drawn_for: tuple[object, ...] = ()  # the width, focus and styles the strips were drawn with
        self._base = Style()  # the widget's own style, read once a frame (render_lines)
        self._empty = ""  # what the first line under the header says while there are no rows (`say_empty`)
        self._marked: tuple[str, str] | None = None  # a column's key and the mark after its label (`mark_column`)

    # --- content: what a subclass that draws its rows from elsewhere overrides ----------------------

    @property
    def row_count(self) -> int:
        return len(self.keys)

    def row(self, index: int) -> list[Text]:
        """The cells of row `index`, as given."""
        return self._cells[self.keys[index]]

    # --- content held here -------------------------------------------------------------------------

    def replace(self, rows: Sequence[tuple[str, list[Text]]], *, cursor: int = 0) -> None:
        """Show exactly `rows` (key, cells), the cursor on row `cursor`."""
        self.keys = [key for key, _ in rows]
        self._cells = dict(rows)
        self.rows_changed(cursor)

    def update_row(self, key: str, cells: list[Text]) -> None:
        """New cells for the row `key`, in place: the cursor and the scroll stay. Cells drawn alike change
        nothing, so an owner can hand every row again, every second."""
        before = self._cells.get(key)
        if before is None or _alike(before, cells):
            return
        self._cells[key] = cells
        self._strips.pop(self.keys.index(key), None)
        self.refresh()

    # --- for the owner -------------------------------------------------------------------------------

    def rows_changed(self, cursor: int | None = None) -> None:
        """The rows are not what was drawn: draw them again, the cursor on row `cursor`, in view.

        None: the cursor stays where it is, and so does the scroll (a list scrolled away from its cursor with
        the wheel is not brought back each time its rows are drawn again), unless the rows are now fewer.
        """
        self._strips.clear()
        self._size_virtually()
        if cursor is not None or self.cursor_row >= self.row_count:
            self.move_cursor(self.row_count - 1 if cursor is None else cursor)
        else:
            self._announce()  # rows where there were none: the cursor's row is highlighted now
        self.refresh()

    def say_empty(self, text: str) -> None:
        """What the line under the header says while there are no rows (an empty text: nothing), where the
        eye is when a list comes up empty, not on a status line a screen below."""
        if text != self._empty:
            self._empty = text
            self.refresh()

    def mark_column(self, key: str | None, mark: str = "") -> None:
        """Show `mark` after the label of column `key` (None: no column marked): the sort, in the header, where a
        list's order is looked for."""
        marked = (key, mark) if key is not None else None
        if marked != self._marked:
            self._marked = marked
            self._strips.pop(HEADER, None)
            self.refresh()

    def set_widths(self, widths: Mapping[str, int]) -> None:
        """Give the columns keyed in `widths` those widths (0 hides a column)."""
        merged = {**self.widths, **widths}
        if merged != self.widths:
            self.widths = merged
            self._strips.clear()
            self._size_virtually()
            self.refresh()

    @property
    def line_width(self) -> int:
        """Cells across a row: every column shown, with its padding."""
        return sum(width + 2 * PADDING for width in self.widths.values() if width > 0)

    def _size_virtually(self) -> None:
        self.virtual_size = Size(self.line_width, self.row_count + 1)

    # --- moving ----------------------------------------------------------------------------------

    def move_cursor(self, row: int) -> None:
        """Put the cursor on row `row` (clamped), in view."""
        self.cursor_row = max(0, min(self.row_count - 1, row))
        self._scroll_to_cursor()
        self.refresh()
        self._announce()

    @property
    def rows_in_view(self) -> int:
        """How many rows the list shows at once, under its header."""
        return max(1, self.scrollable_content_region.height - 1)

    def _scroll_to_cursor(self) -> None:
        shown = self.rows_in_view
        top = int(self.scroll_offset.y)
        # Forced: rows given just before (`replace`) have no scrollbar until the next layout, and an unforced
        # scroll waits for one.
        if self.cursor_row < top:
            self.scroll_to(y=self.cursor_row, animate=False, immediate=True, force=True)
        elif self.cursor_row >= top + shown:
            self.scroll_to(y=self.cursor_row - shown + 1, animate=False, immediate=True, force=True)

    def _announce(self) -> None:
        index = self.cursor_row if self.row_count else -1
        if index != self._announced:
            self._announced = index
            self.post_message(self.RowHighlighted(self, index))

    def action_cursor_move(self, step: int) -> None:
        self.move_cursor(self.cursor_row + step)

    def action_cursor_page(self, step: int) -> None:
        self.move_cursor(self.cursor_row + step * max(1, self.scrollable_content_region.height - 2))

    def action_cursor_first(self) -> None:
        self.move_cursor(0)

    def action_cursor_last(self) -> None:
        self.move_cursor(self.row_count - 1)

    def action_select_cursor(self) -> None:
        if self.row_count:
            self.post_message(self.RowSelected(self, self.cursor_row))

    def on_click(self, event: events.Click) -> None:
        if event.y < 1:
            self._header_clicked(event.x + int(self.scroll_offset.x))
            return
        index = int(self.scroll_offset.y) + event.y - 1
        if not 0 <= index < self.row_count:
            return
        event.stop()
        if index == self.cursor_row:
            self.action_select_cursor()  # as a DataTable: a click on the highlighted row opens it
        else:
            self.move_cursor(index)

    def _header_clicked(self, x: int) -> None:
        left = 0
        for index, column in enumerate(self.columns):
            width = self.widths[column.key]
            if width > 0 and left <= x < left + width + 2 * PADDING:
                self.post_message(self.HeaderSelected(self, index))
                return
            left += width + 2 * PADDING if width > 0 else 0

    def on_resize(self, _: events.Resize) -> None:
        self._size_virtually()
        self._scroll_to_cursor()

    # --- drawing ---------------------------------------------------------------------------------

    def render_lines(self, crop: Region) -> list[Strip]:
        # Once a frame, not once a line: `rich_style` walks the styles of every ancestor.
        self._base = self.rich_style
        drawn_for = (self.scrollable_content_region.width, self.has_focus, self._base, self.app.current_theme.name)
        if drawn_for != self._drawn_for:
            self._drawn_for = drawn_for
            self._strips.clear()
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        if y == 0:
            strip = self._strip(HEADER, (False, False), width)
        else:
            index = int(self.scroll_offset.y) + y - 1
            if not 0 <= index < self.row_count:
                if index == 0 and self._empty:
                    return self._empty_line(width)
                return Strip.blank(width, self._base)
            strip = self._strip(index, (index == self.cursor_row, index % 2 == 0), width)
        left = int(self.scroll_offset.x)
        return strip.crop(left, left + width) if left or strip.cell_length > width else strip

    def _empty_line(self, width: int) -> Strip:
        line = Text(" " * PADDING + self._empty, style="italic", no_wrap=True, end="")
        line.truncate(width, overflow="ellipsis")
        style = self._base + Style(dim=True)
        segments = [Segment(s.text, style + s.style) for s in line.render(self.app.console)]
        return Strip(segments, line.cell_len).crop_extend(0, width, self._base)

    def _strip(self, index: int, look: Look, width: int) -> Strip:
        strips = self._strips.get(index)
        if strips is None:
            if len(self._strips) >= KEPT_ROWS:
                self._strips.clear()  # rows scrolled past: drawn again if they come back
            strips = self._strips[index] = {}
        strip = strips.get(look)
        if strip is None:
            strip = strips[look] = self._draw(index, look, width)
        return strip

    def _draw(self, index: int, look: Look, width: int) -> Strip:
        """One row (HEADER: the header) as a Strip at least `width` cells wide."""
        cursor, even = look
        if index == HEADER:
            cells = [self._label(c) for c in self.columns]
            style, over = self.get_component_rich_style("board--header"), Style()
        else:
            cells = self.row(index)
            style = self.get_component_rich_style("board--even-row") if even else self._base
            over = Style()
            if cursor:
                cursor_style = self.get_component_rich_style("board--cursor")
                style += cursor_style
                over = Style(color=cursor_style.color)  # the cursor's colour wins over the cells' own
        line = Text(no_wrap=True, end="")
        pad = " " * PADDING
        for column, cell in zip(self.columns, cells, strict=True):
            column_width = self.widths[column.key]
            if column_width <= 0:
                continue
            if column.cut == "middle":
                fitted = cut_middle(cell, column_width)
            elif column.cut == "start":
                fitted = cut_start(cell, column_width)
            elif column.cut == "message":
                fitted = cut_message(cell, column_width)
            else:
                fitted = cell.copy()
                fitted.truncate(column_width, overflow=cell.overflow or "ellipsis")
            line.append(pad)
            line.append_text(fitted)
            line.append(" " * (column_width - fitted.cell_len) + pad)  # unstyled, as a DataTable pads
        segments = [
            Segment(s.text, style + s.style + over if s.style else style + over) for s in line.render(self.app.console)
        ]
        length = cell_len(line.plain)
        return Strip(segments, length).crop_extend(0, max(width, length), style)

    def _label(self, column: BoardColumn) -> Text:
        if self._marked is None or self._marked[0] != column.key:
            return Text(column.label)
        mark = self._marked[1]
        room = self.widths[column.key] - cell_len(mark)
        label = Text(column.label)
        if label.cell_len + 1 <= room:
            return Text.assemble(label, " ", mark)
        if room <= 0:
            return Text(mark)
        label.truncate(room, overflow="ellipsis")  # the mark is what says the order: the label gives way
        return Text.assemble(label, mark)


def _alike(before: list[Text], after: list[Text]) -> bool:
    """Drawn alike: rich's `Text.__eq__` compares the text and spans but not the style."""
    return len(before) == len(after) and all(
        a.plain == b.plain and a.style == b.style and a.spans == b.spans for a, b in zip(before, after, strict=True)
    )
