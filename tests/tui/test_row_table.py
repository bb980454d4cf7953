"""RowTable: home and end go to the first and last row, as in every list."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult

from aftui.tui.widgets.row_table import RowTable


class Rows(App[None]):
    def compose(self) -> ComposeResult:
        yield RowTable()

    def on_mount(self) -> None:
        table = self.query_one(RowTable)
        table.add_column("n")
        table.add_column("wide")
        for n in range(40):
            table.add_row(Text(str(n)), Text("x" * 200))
        table.focus()


async def test_end_and_home_move_the_cursor_to_the_last_and_first_row() -> None:
    app = Rows()
    async with app.run_test(size=(60, 12)) as pilot:
        table = app.query_one(RowTable)
        await pilot.press("end")
        assert table.cursor_row == 39
        await pilot.press("home")
        assert table.cursor_row == 0
