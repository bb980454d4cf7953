"""How a list's columns share the table's width (`fit_widths`), on its own."""

from __future__ import annotations

from rich.text import Text

from aftui.tui.widgets.board import cut_message, cut_middle, cut_start
from aftui.tui.widgets.paged_table import Column, fit_widths


def _column(key: str, width: int | None, *, min_width: int | None = None, hide_rank: int | None = None) -> Column[str]:
    return Column(key, key, Text, width=width, min_width=min_width, hide_rank=hide_rank)


COLUMNS = [
    _column("name", 20, min_width=10),
    _column("id", 8, hide_rank=1),
    _column("kind", 6, hide_rank=2),
    _column("when", 10),
]
CONTENT = {"name": 30, "id": 8, "kind": 6, "when": 10}  # the widest cell of each
SET = 20 + 8 + 6 + 10 + 4 * 2  # the set widths and each column's padding


def test_room_to_spare_goes_to_a_column_cut_to_its_set_width() -> None:
    assert fit_widths(COLUMNS, CONTENT, SET + 4) == {"name": 24, "id": 8, "kind": 6, "when": 10}
    assert fit_widths(COLUMNS, CONTENT, SET + 40) == {"name": 30, "id": 8, "kind": 6, "when": 10}


def test_too_narrow_a_column_with_a_minimum_gives_width_down_to_it_before_any_is_hidden() -> None:
    assert fit_widths(COLUMNS, CONTENT, SET - 6) == {"name": 14, "id": 8, "kind": 6, "when": 10}
    assert fit_widths(COLUMNS, CONTENT, SET - 10) == {"name": 10, "id": 8, "kind": 6, "when": 10}


def test_narrower_still_the_lowest_rank_is_hidden_and_the_rest_take_back_what_it_freed() -> None:
    # One cell short at the minimum: the ID (8 and its padding) goes, and the name takes back 9 of that.
    assert fit_widths(COLUMNS, CONTENT, SET - 11) == {"name": 19, "id": 0, "kind": 6, "when": 10}
    # Short of the ID's room too: the kind goes as well; a column without a rank is never hidden.
    narrow = fit_widths(COLUMNS, CONTENT, 12 + 12)
    assert narrow == {"name": 10, "id": 0, "kind": 0, "when": 10}
    assert fit_widths(COLUMNS, CONTENT, 5)["when"] == 10


def test_a_column_sized_to_its_content_keeps_that_size() -> None:
    columns = [_column("name", 10, min_width=4), _column("note", None, hide_rank=1)]
    assert fit_widths(columns, {"name": 10, "note": 7}, 10 + 7 + 4) == {"name": 10, "note": 7}
    assert fit_widths(columns, {"name": 10, "note": 7}, 18) == {"name": 7, "note": 7}
    assert fit_widths(columns, {"name": 10, "note": 7}, 10) == {"name": 8, "note": 0}


def test_a_name_cut_in_the_middle_keeps_its_start_and_its_end() -> None:
    api, web = (cut_middle(Text(f"New issues in acme/{repo}"), 17) for repo in ("api", "web"))
    assert (api.plain, web.plain) == ("New issu…acme/api", "New issu…acme/web")  # told apart
    assert cut_middle(Text("Order webhooks"), 17).plain == "Order webhooks"  # it fits: as it is
    assert cut_middle(Text("Validate and forward orders"), 18).plain == "Validate…d orders"  # no space by the …


def test_a_middle_cut_counts_cells_and_keeps_the_style() -> None:
    cut = cut_middle(Text("日本語のソース名です", style="bold"), 9)
    assert cut.plain == "日本…です" and cut.cell_len <= 9
    assert cut.style == "bold"
    assert cut_middle(Text("Validate orders"), 4).plain == "Val…"  # too narrow for both ends: cut at the end


def test_a_series_cut_to_its_column_keeps_its_newest_end_unmarked() -> None:
    minutes = Text("▁ ▂▃▄▅█", style="cyan")  # one cell a minute, the newest last
    assert cut_start(minutes, 4).plain == "▃▄▅█" and cut_start(minutes, 4).style == "cyan"
    assert cut_start(minutes, 10) is minutes
    assert cut_start(Text("日本語"), 3).plain == "語"  # a wide character that would cross the cut is left out


def test_a_column_worth_reading_whole_has_the_hideable_ones_give_way_until_it_reads_whole() -> None:
    why = Column("why", "why", Text, width=20, min_width=10, read_whole=28)
    columns = [why, *COLUMNS[1:]]
    content = {**CONTENT, "why": 30}
    # Everything fits at the set widths, but the why is cut at 24 of its 30: the ID goes, and it reads 28 whole.
    assert fit_widths(columns, content, SET + 4) == {"why": 30, "id": 0, "kind": 6, "when": 10}
    # Its longest value is shorter than that: nothing goes for it.
    assert fit_widths(columns, {**content, "why": 22}, SET + 4) == {"why": 22, "id": 8, "kind": 6, "when": 10}
    # Room enough for all: nothing goes.
    assert fit_widths(columns, content, SET + 10) == {"why": 30, "id": 8, "kind": 6, "when": 10}


def test_a_timeline_value_cut_to_its_column_ends_in_an_ellipsis_and_keeps_the_column_s_width() -> None:
    from rich.cells import cell_len

    from aftui.tui.widgets.timeline import fit

    assert fit("Validate and forward orders", 10) == "Validate …"
    assert fit("Hooks", 8) == "Hooks   "
    assert cell_len(fit("注文の検証ワークフロー", 7)) == 7 and fit("注文の検証ワークフロー", 7).endswith("…")


def test_an_error_cut_to_its_column_gives_up_its_name_before_its_message() -> None:
    """Health's Last error as well as the errors list: at 120 columns Health showed "Missing require…", the
    field it was missing cut away."""
    error = Text("ValidationError: Missing required field: customer_email", style="red")
    assert cut_message(error, 16).plain == "Missing…r_email" and cut_message(error, 16).style == "red"
    assert cut_message(Text("Request failed with status code 503"), 20).plain == "Request fa…code 503"


def test_an_errors_message_too_long_keeps_its_end_where_rows_of_one_failure_differ() -> None:
    error = Text("ValidationError: Missing required field: customer_email", style="red")
    assert cut_message(error, 60) is error
    assert cut_message(error, 31).plain == "Missing require…customer_email" and cut_message(error, 31).style == "red"
    assert cut_message(error, 38).plain == "Missing required field: customer_email"  # the lead alone made room
    assert cut_message(Text("a timeout without any name at all"), 15).plain == "a timeo…at all"
