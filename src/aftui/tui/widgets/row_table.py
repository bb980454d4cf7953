"""`RowTable`: a DataTable whose rows are chosen, not its cells, keyed as every list of aftui is."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.binding import Binding
from textual.widgets import DataTable


class RowTable(DataTable[Text]):
    """home and end go to the first and last row, as in every list (`Board`). A DataTable's own scroll a row
    sideways: in the bulk replay's table, `End` moved nothing that could be seen."""

    BINDINGS = [
        Binding("home", "scroll_top", "First", show=False),
        Binding("end", "scroll_bottom", "Last", show=False),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
