"""A short table of fixed columns, drawn line by line: Health's board.

A DataTable renders each cell on its own through rich's console (a padding, two
styles and a measure per cell). For Health's first screen, thirty rows of nine
cells, that was about 40% of the frame that shows the rows. Here a row is one
Text, each cell cut to its column, made into a Strip, and kept until the row, the
width or the look changes.

It keeps what Health used of a DataTable, with the same look: a header that stays
on top while the rows scroll, zebra rows, a row cursor, `RowHighlighted` when the
cursor moves and `RowSelected` on enter or on a click of the highlighted row.
Columns do not scroll sideways: the owner fits them to the width (`set_widths`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rich.cells import cell_len
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

# A row's look: (the cursor is on it, an even row). The widget's focus and width are in the cache's own key.
Look = tuple[bool, bool]


@dataclass(frozen=True)
class BoardColumn:
    key: str
    label: str
    width: int


class Board(ScrollView, can_focus=True):
    KEYS_AREA = "The list"  # its heading in `?`

    BINDINGS = [
        Binding("up,k", "move(-1)", "Up", show=False),
        Binding("down,j", "move(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        # Nothing scrolls sideways here, so home and end need not mean "leftmost" as in a DataTable.
        Binding("home,ctrl+home", "first", "First", show=False),
        Binding("end,ctrl+end", "last", "Last", show=False),
        Binding("enter", "select", "Open", show=False),
    ]

    COMPONENT_CLASSES = {"board--header", "board--even-row", "board--cursor"}

    # DataTable's colours (textual/widgets/_data_table.py), so that Health looks like every other list.
    DEFAULT_CSS = """
    Board { background: $surface; color: $foreground; overflow-x: hidden; overflow-y: auto; }
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

    class _RowMessage(Message):
        def __init__(self, board: Board, index: int) -> None:
            super().__init__()
            self.board = board
            self.index = index

        @property
        def control(self) -> Board:
            return self.board

    class RowHighlighted(_RowMessage):
        """The cursor moved to row `index` (-1: the board is empty)."""

    class RowSelected(_RowMessage):
        """Row `index` was chosen: enter, or a click on the highlighted row."""

    def __init__(self, columns: Sequence[BoardColumn], *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.columns = list(columns)
        self.widths = {c.key: c.width for c in self.columns}
        self.keys: list[str] = []
        self._cells: dict[str, list[Text]] = {}
        self.cursor_row = 0
        self._announced: int | None = None
        # Strips by row key, then by look; a changed row drops only its own. The header's key is None.
        self._strips: dict[str | None, dict[Look, Strip]] = {}
        self._drawn_for: tuple[object, ...] = ()  # the width, focus and styles the strips were drawn with
        self._base = Style()  # the widget's own style, read once a frame (render_lines)

    # --- content ---------------------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        return len(self.keys)

    def row(self, index: int) -> list[Text]:
        """The cells of row `index`, as given."""
        return self._cells[self.keys[index]]

    def replace(self, rows: Sequence[tuple[str, list[Text]]], *, cursor: int = 0) -> None:
        """Show exactly `rows` (key, cells), the cursor on row `cursor`."""
        self.keys = [key for key, _ in rows]
        self._cells = dict(rows)
        self._strips.clear()
        self.virtual_size = Size(self.scrollable_content_region.width, len(self.keys) + 1)
        self.move_cursor(cursor)
        self.refresh()

    def update_row(self, key: str, cells: list[Text]) -> None:
        """New cells for the row `key`, in place: the cursor and the scroll stay. Cells drawn alike change
        nothing, so an owner can hand every row again, every second."""
        before = self._cells.get(key)
        if before is None or _alike(before, cells):
            return
        self._cells[key] = cells
        self._strips.pop(key, None)
        self.refresh()

    def set_widths(self, widths: Mapping[str, int]) -> None:
        """Give the columns keyed in `widths` those widths (0 hides a column)."""
        merged = {**self.widths, **widths}
        if merged != self.widths:
            self.widths = merged
            self._strips.clear()
            self.refresh()

    # --- moving ----------------------------------------------------------------------------------

    def move_cursor(self, index: int) -> None:
        """Put the cursor on row `index` (clamped), in view."""
        self.cursor_row = max(0, min(len(self.keys) - 1, index))
        self._scroll_to_cursor()
        self.refresh()
        self._announce()

    def _scroll_to_cursor(self) -> None:
        shown = max(1, self.scrollable_content_region.height - 1)  # the rows under the header
        top = int(self.scroll_offset.y)
        # Forced: rows given just before (`replace`) have no scrollbar until the next layout, and an unforced
        # scroll waits for one.
        if self.cursor_row < top:
            self.scroll_to(y=self.cursor_row, animate=False, immediate=True, force=True)
        elif self.cursor_row >= top + shown:
            self.scroll_to(y=self.cursor_row - shown + 1, animate=False, immediate=True, force=True)

    def _announce(self) -> None:
        index = self.cursor_row if self.keys else -1
        if index != self._announced:
            self._announced = index
            self.post_message(self.RowHighlighted(self, index))

    def action_move(self, step: int) -> None:
        self.move_cursor(self.cursor_row + step)

    def action_page(self, step: int) -> None:
        self.move_cursor(self.cursor_row + step * max(1, self.scrollable_content_region.height - 2))

    def action_first(self) -> None:
        self.move_cursor(0)

    def action_last(self) -> None:
        self.move_cursor(len(self.keys) - 1)

    def action_select(self) -> None:
        if self.keys:
            self.post_message(self.RowSelected(self, self.cursor_row))

    def on_click(self, event: events.Click) -> None:
        if event.y < 1:
            return  # the header
        index = int(self.scroll_offset.y) + event.y - 1
        if not 0 <= index < len(self.keys):
            return
        event.stop()
        if index == self.cursor_row:
            self.action_select()  # as a DataTable: a click on the highlighted row opens it
        else:
            self.move_cursor(index)

    def on_resize(self) -> None:
        self.virtual_size = Size(self.scrollable_content_region.width, len(self.keys) + 1)
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
            return self._strip(None, (False, False), width)
        index = int(self.scroll_offset.y) + y - 1
        if not 0 <= index < len(self.keys):
            return Strip.blank(width, self._base)
        return self._strip(self.keys[index], (index == self.cursor_row, index % 2 == 0), width)

    def _strip(self, key: str | None, look: Look, width: int) -> Strip:
        strips = self._strips.setdefault(key, {})
        strip = strips.get(look)
        if strip is None:
            strip = strips[look] = self._draw(key, look, width)
        return strip

    def _draw(self, key: str | None, look: Look, width: int) -> Strip:
        """One row (None: the header) as a Strip `width` cells wide."""
        cursor, even = look
        if key is None:
            cells = [Text(c.label) for c in self.columns]
            style, over = self.get_component_rich_style("board--header"), Style()
        else:
            cells = self._cells[key]
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
            fitted = cell.copy()
            fitted.truncate(column_width, overflow=cell.overflow or "ellipsis")
            line.append(pad)
            line.append_text(fitted)
            line.append(" " * (column_width - fitted.cell_len) + pad)  # unstyled, as a DataTable pads
        segments = [
            Segment(s.text, style + s.style + over if s.style else style + over) for s in line.render(self.app.console)
        ]
        return Strip(segments, cell_len(line.plain)).crop_extend(0, width, style)


def _alike(before: list[Text], after: list[Text]) -> bool:
    """Drawn alike: rich's `Text.__eq__` compares the text and spans but not the style."""
    return len(before) == len(after) and all(
        a.plain == b.plain and a.style == b.style and a.spans == b.spans for a, b in zip(before, after, strict=True)
    )
