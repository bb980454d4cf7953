"""Colour only on a terminal that takes it: never with NO_COLOR, TERM=dumb, nor in --json."""

from __future__ import annotations

import io

import pytest

from aftui.headless import output

from .conftest import Aftui


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def colour_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    return monkeypatch


def test_colour_on_a_terminal_only(colour_env: pytest.MonkeyPatch) -> None:
    assert output.colour_enabled(Tty())
    assert not output.colour_enabled(io.StringIO())
    colour_env.setenv("NO_COLOR", "1")
    assert not output.colour_enabled(Tty())
    colour_env.setenv("NO_COLOR", "")  # set but empty does not count (no-color.org)
    assert output.colour_enabled(Tty())
    colour_env.setenv("TERM", "dumb")
    assert not output.colour_enabled(Tty())


def test_a_table_on_a_terminal_has_a_bold_header_unless_no_color(colour_env: pytest.MonkeyPatch) -> None:
    tty = Tty()
    output.table([{"id": "dc_1", "name": "\x1b[31mred"}], ["id", "name"], out=tty)
    text = tty.getvalue()
    assert text.startswith(output.BOLD + "ID") and "\\e[31mred" in text and "\x1b[31m" not in text
    colour_env.setenv("NO_COLOR", "1")
    plain = Tty()
    output.table([{"id": "dc_1", "name": "x"}], ["id", "name"], out=plain)
    assert "\x1b" not in plain.getvalue()


def test_json_is_never_coloured_even_on_a_terminal(
    aftui: Aftui, colour_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    colour_env.setattr("sys.stdout", Tty())
    from aftui import cli

    assert cli.main(["sources", "--json", "--limit", "2"]) == 0
    import sys

    written = sys.stdout.getvalue()  # type: ignore[attr-defined]
    assert written.count("\n") == 2 and "\x1b" not in written
    colour_env.setattr("sys.stdout", Tty())
    assert cli.main(["errors", "Validate and forward orders", "-n", "1"]) == 0
    assert sys.stdout.getvalue().startswith(output.RED)  # type: ignore[attr-defined]
    colour_env.setattr("sys.stdout", Tty())
    assert cli.main(["errors", "Validate and forward orders", "-n", "1", "--json"]) == 0
    assert "\x1b" not in sys.stdout.getvalue()  # type: ignore[attr-defined]


def test_a_table_aligns_wide_characters_by_the_columns_they_take() -> None:
    """CJK and emoji take two columns each: padded by characters, the next column moved right on their rows."""
    out = io.StringIO()
    records = [{"name": "日本語の名前 🚀", "id": "dc_a"}, {"name": "plain", "id": "dc_b"}]
    output.table(records, ["name", "id"], out=out)
    lines = out.getvalue().splitlines()
    from rich.cells import cell_len

    starts = {cell_len(line[: line.index("dc_")]) for line in lines[1:]}
    assert len(starts) == 1, lines  # the id column starts at the same column on every row


def test_a_tables_cells_take_the_room_there_is_and_are_cut_widest_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cells were cut to 60 characters whatever the room: COLUMNS=250 still read "…/services/…"."""
    url = "https://hooks.example/" + "x" * 90  # 112 characters
    records = [{"id": "wh_1", "url": url, "name": "relay"}]
    monkeypatch.setenv("COLUMNS", "250")
    wide = io.StringIO()
    output.table(records, ["id", "url", "name"], out=wide)
    assert url in wide.getvalue()
    monkeypatch.setenv("COLUMNS", "80")
    narrow = io.StringIO()
    output.table(records, ["id", "url", "name"], out=narrow)
    row = narrow.getvalue().splitlines()[1]
    assert len(row) <= 80 and "…" in row and row.startswith("wh_1") and row.endswith("relay")
    monkeypatch.setenv("COLUMNS", "40")  # no room even for 60: cut to 60, the line runs on, as before
    assert output.fitted([4, 112, 5], 40 - 4) == [4, 60, 5]


def test_fitted_cuts_the_widest_column_first_and_none_below_the_floor() -> None:
    assert output.fitted([10, 200, 100], 200) == [10, 90, 100]  # the widest, by what is over
    assert output.fitted([10, 100, 100], 130) == [10, 60, 60]  # both cut, neither below the floor
    assert output.fitted([10, 20], 100) == [10, 20]


def test_one_record_gives_its_times_whole_as_people_read_them_and_a_table_to_the_minute() -> None:
    """`get` printed `at 2026-11-28T22:20:42.219Z` where every table writes `2026-11-28 22:20`."""
    record = {"at": "2026-11-28T22:20:42.219Z", "created_at": "2026-11-01T08:00:00.000Z", "name": "T12:00Z"}
    out = io.StringIO()
    output.key_values(record, list(record), out=out)
    assert out.getvalue().splitlines() == [
        "at          2026-11-28 22:20:42.219 UTC",
        "created_at  2026-11-01 08:00:00.000 UTC",
        "name        T12:00Z",
    ]
    out = io.StringIO()
    output.table([record], ["at", "created_at"], out=out)
    assert out.getvalue().splitlines()[1] == "2026-11-28 22:20  2026-11-01 08:00"
