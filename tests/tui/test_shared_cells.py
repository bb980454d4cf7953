"""A column's repeated cells are one Text (aftui.tui.widgets.paged_table.SharedCells): memory of long lists."""

from __future__ import annotations

from rich.text import Text

from aftui.tui.widgets.paged_table import SharedCells


def test_cells_that_read_and_look_the_same_are_one() -> None:
    shared = SharedCells()
    first = shared(Text("yes", style="green"))
    assert shared(Text("yes", style="green")) is first
    assert shared(Text("yes", style="red")) is not first  # looks otherwise
    assert shared(Text("no", style="green")) is not first


def test_a_cell_with_spans_is_its_own() -> None:
    shared = SharedCells()
    cell = Text.assemble(("a", "bold"), "b")
    assert shared(cell) is cell
    assert shared(Text.assemble(("a", "bold"), "b")) is not cell


def test_a_column_of_distinct_values_is_given_up_on() -> None:
    shared = SharedCells()
    for n in range(SharedCells.MAX_VALUES):
        shared(Text(f"dc_{n}"))
    again = Text("dc_0")
    assert shared(again) is not again  # still shared below the limit
    shared(Text("one more"))  # past it: nothing is looked up, nothing more is held
    again = Text("dc_1")
    assert shared(again) is again
