"""The Board (Health's table, drawn line by line): moving, choosing, scrolling and drawing, on its own."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult

from aftui.tui.widgets.board import Board, BoardColumn

COLUMNS = [BoardColumn("name", "Name", 10), BoardColumn("n", "N", 3), BoardColumn("note", "Note", 8)]


def _rows(count: int) -> list[tuple[str, list[Text]]]:
    return [(f"k{i}", [Text(f"row {i}"), Text(str(i), style="bold red"), Text("—", style="dim")]) for i in range(count)]


class _BoardApp(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.highlighted: list[int] = []
        self.selected: list[int] = []
        self.headers: list[int] = []

    def compose(self) -> ComposeResult:
        yield Board(COLUMNS)

    @on(Board.RowHighlighted)
    def _highlighted(self, event: Board.RowHighlighted) -> None:
        self.highlighted.append(event.index)

    @on(Board.RowSelected)
    def _selected(self, event: Board.RowSelected) -> None:
        self.selected.append(event.index)

    @on(Board.HeaderSelected)
    def _header(self, event: Board.HeaderSelected) -> None:
        self.headers.append(event.column_index)


def _line(board: Board, y: int) -> str:
    return board.render_line(y).text


async def test_keys_move_the_cursor_and_enter_chooses_the_row_under_it() -> None:
    app = _BoardApp()
    async with app.run_test(size=(40, 8)) as pilot:
        board = app.query_one(Board)
        board.replace(_rows(20))
        board.focus()
        await pilot.press("down", "j", "down")
        assert board.cursor_row == 3
        await pilot.press("up", "k")
        assert board.cursor_row == 1
        await pilot.press("end")
        assert board.cursor_row == 19
        await pilot.press("home", "pagedown")
        assert board.cursor_row == 6  # 8 lines: a header and 7 rows, one kept in sight
        await pilot.press("pageup", "up")
        assert board.cursor_row == 0  # clamped at the top
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.selected == [1]
        assert app.highlighted[-1] == 1 and app.highlighted[0] == 0


async def test_the_header_stays_on_top_while_the_rows_scroll_to_the_cursor() -> None:
    app = _BoardApp()
    async with app.run_test(size=(40, 6)) as pilot:
        board = app.query_one(Board)
        board.replace(_rows(20))
        board.focus()
        await pilot.press("end")
        await pilot.pause()
        assert _line(board, 0).startswith(" Name        N    Note")
        assert "row 19" in _line(board, board.size.height - 1)  # the last row, at the bottom, in sight
        assert "row 0 " not in "".join(_line(board, y) for y in range(board.size.height))


async def test_a_click_moves_the_cursor_and_a_click_on_the_highlighted_row_chooses_it() -> None:
    app = _BoardApp()
    async with app.run_test(size=(40, 8)) as pilot:
        board = app.query_one(Board)
        board.replace(_rows(5))
        await pilot.click(Board, offset=(2, 3))  # the header, then rows 0 and 1: row 2
        await pilot.pause()
        assert board.cursor_row == 2 and app.selected == []
        await pilot.click(Board, offset=(2, 3))
        await pilot.pause()
        assert app.selected == [2]
        await pilot.click(Board, offset=(2, 0))  # the header chooses nothing
        await pilot.pause()
        assert board.cursor_row == 2 and app.selected == [2]


async def test_a_row_changed_in_place_keeps_the_cursor_and_is_drawn_again() -> None:
    app = _BoardApp()
    async with app.run_test(size=(40, 8)) as pilot:
        board = app.query_one(Board)
        board.replace(_rows(5), cursor=3)
        await pilot.pause()
        before = _line(board, 2)
        board.update_row("k1", [Text("renamed"), Text("7"), Text("")])
        await pilot.pause()
        assert board.cursor_row == 3
        assert "renamed" in _line(board, 2) and _line(board, 2) != before
        board.update_row("gone", [Text("x"), Text("x"), Text("x")])  # not on the board: nothing happens
        assert board.row_count == 5


async def test_a_row_handed_again_alike_is_not_drawn_again_but_a_new_style_is() -> None:
    """Health hands every row again each second; only what changed is drawn (a cell's style counts)."""
    app = _BoardApp()
    async with app.run_test(size=(40, 8)) as pilot:
        board = app.query_one(Board)
        board.replace(_rows(3))
        await pilot.pause()
        drawn = board.render_line(2)
        board.update_row("k1", _rows(3)[1][1])  # new Text objects, drawn alike
        assert board.render_line(2) is drawn
        restyled = _rows(3)[1][1]
        restyled[1] = Text("1", style="bold green")
        board.update_row("k1", restyled)
        assert board.render_line(2) is not drawn


async def test_cells_are_cut_to_their_column_and_a_zero_width_hides_one() -> None:
    app = _BoardApp()
    async with app.run_test(size=(40, 8)) as pilot:
        board = app.query_one(Board)
        board.replace([("a", [Text("a name far too long", overflow="ellipsis"), Text("[b]1[/b]"), Text("xy")])])
        await pilot.pause()
        row = _line(board, 1)
        assert row.startswith(" a name fa…  [b…  xy")  # markup is not read: the cell's own text, cut to 3
        board.set_widths({"n": 0})
        await pilot.pause()
        assert _line(board, 0).startswith(" Name        Note")
        assert _line(board, 1).startswith(" a name fa…  xy")
        assert len(_line(board, 1)) == board.scrollable_content_region.width


async def test_an_empty_board_says_so_to_its_owner() -> None:
    app = _BoardApp()
    async with app.run_test(size=(40, 8)) as pilot:
        board = app.query_one(Board)
        board.replace(_rows(2), cursor=1)
        board.replace([])
        await pilot.pause()
        assert board.row_count == 0 and app.highlighted[-1] == -1
        await pilot.press("enter")
        assert app.selected == []


async def test_a_click_on_a_label_says_which_column() -> None:
    app = _BoardApp()
    async with app.run_test(size=(40, 8)) as pilot:
        board = app.query_one(Board)
        board.replace(_rows(3))
        await pilot.click(Board, offset=(14, 0))  # " Name       " is 12 cells, then " N   "
        await pilot.click(Board, offset=(2, 0))
        await pilot.pause()
        assert app.headers == [1, 0] and board.cursor_row == 0


async def test_rows_wider_than_the_board_scroll_sideways_with_their_header() -> None:
    app = _BoardApp()
    async with app.run_test(size=(20, 8)) as pilot:  # 27 cells of columns in 20
        board = app.query_one(Board)
        board.replace(_rows(3))
        board.focus()
        await pilot.pause()
        assert _line(board, 0) == " Name        N    No" and board.max_scroll_x == 7
        await pilot.press("right", "right", "right")
        await pilot.pause()
        left = board.scroll_offset.x
        assert 0 < left <= 7
        header, row = " Name        N    Note     ", " row 0       0    —        "  # 27 cells each
        assert _line(board, 0) == header[left : left + 20] and _line(board, 1) == row[left : left + 20]
        await pilot.press("down")
        assert board.cursor_row == 1 and board.scroll_offset.x == left  # rows are chosen, the scroll stays


async def test_rows_drawn_again_keep_the_cursor_and_the_scroll_a_wheel_gave() -> None:
    """A list's health columns are drawn again each second: a list scrolled away from its cursor stays put."""
    app = _BoardApp()
    async with app.run_test(size=(40, 8)) as pilot:
        board = app.query_one(Board)
        board.replace(_rows(20), cursor=2)
        await pilot.pause()
        board.scroll_to(y=9, animate=False, immediate=True)
        board.rows_changed()
        await pilot.pause()
        assert board.scroll_offset.y == 9 and board.cursor_row == 2


async def test_rows_given_to_an_empty_board_without_a_cursor_highlight_its_first_row() -> None:
    """A list whose rows arrive after it was emptied (a page appended to no match) says its cursor's row."""
    app = _BoardApp()
    async with app.run_test(size=(40, 8)) as pilot:
        board = app.query_one(Board)
        board.replace([])
        await pilot.pause()
        assert app.highlighted[-1] == -1
        board.keys, board._cells = ["k0"], dict(_rows(1))  # as a subclass drawing from elsewhere would have them
        board.rows_changed()
        await pilot.pause()
        assert app.highlighted[-1] == 0


async def test_an_empty_board_says_what_it_is_given_to_under_its_header_until_rows_come() -> None:
    app = _BoardApp()
    async with app.run_test(size=(40, 8)) as pilot:
        board = app.query_one(Board)
        assert _line(board, 1).strip() == ""  # nothing to say unless told
        board.say_empty("no sources yet · r refreshes, and a word too many")
        await pilot.pause()
        assert _line(board, 1).rstrip() == " no sources yet · r refreshes, and a wo…"  # cut to the board's width
        assert _line(board, 0).split() == ["Name", "N", "Note"]
        board.replace(_rows(2))
        await pilot.pause()
        assert _line(board, 1).split()[:2] == ["row", "0"] and _line(board, 3).strip() == ""


async def test_a_marked_column_shows_its_mark_after_its_label_and_a_narrow_label_gives_way_to_it() -> None:
    app = _BoardApp()
    async with app.run_test(size=(40, 8)) as pilot:
        board = app.query_one(Board)
        board.replace(_rows(2))
        board.mark_column("name", "↑")
        await pilot.pause()
        assert _line(board, 0).startswith(" Name ↑      N    Note")
        board.mark_column("n", "↓")  # one column at a time
        board.set_widths({"n": 1})
        await pilot.pause()
        assert _line(board, 0).startswith(" Name        ↓  Note")  # 1 cell: the mark, not the label
        board.mark_column(None)
        await pilot.pause()
        assert _line(board, 0).startswith(" Name        N  Note")


async def test_a_list_table_scrolls_sideways_only_once_its_widths_are_fitted() -> None:
    """Before its owner fits the columns to its width, a list's widths are its labels' and too wide: a scrollbar
    laid out for them stayed drawn under a form pushed before the fit (Textual lays out only the top screen)."""
    from aftui.tui.widgets.paged_table import Column, ListTable

    columns = [Column[str](c.key, c.label, Text, width=c.width) for c in COLUMNS]

    class _ListApp(App[None]):
        def compose(self) -> ComposeResult:
            yield ListTable(columns)

    app = _ListApp()
    async with app.run_test(size=(20, 8)) as pilot:  # 27 cells of columns in 20
        table = app.query_one(ListTable)
        table.show(["a", "b"])
        await pilot.pause()
        assert not table.show_horizontal_scrollbar and table.max_scroll_x == 0
        table.set_widths({"name": 10})  # fitted, and still wider than the table: now it scrolls
        await pilot.pause()
        assert table.show_horizontal_scrollbar and table.max_scroll_x == 7
