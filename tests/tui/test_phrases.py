"""A hint line wraps between its phrases (" · "), not inside one."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult

from aftui.tui.widgets.phrases import Phrases, phrase_lines

HINT = "enter opens one · y replays, e edits first (ctrl+s sends) · space marks, R replays in bulk · g groups"


def test_a_line_breaks_before_the_phrase_that_would_not_fit_and_keeps_its_dot() -> None:
    lines = phrase_lines(Text(HINT), 60).plain.split("\n")
    assert lines == [
        "enter opens one · y replays, e edits first (ctrl+s sends) ·",
        "space marks, R replays in bulk · g groups",
    ]
    assert phrase_lines(Text(HINT), len(HINT)).plain == HINT  # it fits: untouched


def test_styles_and_the_hints_own_line_breaks_are_kept() -> None:
    text = Text.assemble(
        ("Group ", "bold"), "HTTPError · esc all errors · R replays these", ("\n✖ not updating", "red")
    )
    wrapped = phrase_lines(text, 24)
    assert wrapped.plain.split("\n") == ["Group HTTPError ·", "esc all errors ·", "R replays these", "✖ not updating"]
    styles = {wrapped.plain[span.start : span.end]: str(span.style) for span in wrapped.spans}
    assert styles == {"Group ": "bold", "✖ not updating": "red"}


def test_a_phrase_longer_than_the_line_goes_by_its_words_and_keeps_its_dot_with_its_last_word() -> None:
    text = Text("a phrase far longer than the line is · then a short one · end")
    # Rich, left to wrap it, put "is" on the first line and the " ·" alone on the next.
    assert phrase_lines(text, 20).plain.split("\n") == [
        "a phrase far longer",
        "than the line is ·",
        "then a short one ·",
        "end",
    ]
    assert phrase_lines(text, 35).plain.split("\n") == [
        "a phrase far longer than the line",
        "is · then a short one · end",
    ]


class _PhrasesApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Phrases(HINT)


async def test_the_widget_is_as_tall_as_its_phrases_need_at_its_width() -> None:
    app = _PhrasesApp()
    async with app.run_test(size=(60, 10)) as pilot:
        hint = app.query_one(Phrases)
        await pilot.pause()
        assert hint.size.height == 2
        assert [hint.render_line(y).text.rstrip() for y in range(2)] == phrase_lines(Text(HINT), 60).plain.split("\n")
        hint.update("r refreshes")
        await pilot.pause()
        assert hint.size.height == 1
