"""The monitor's timeline gives each row's day when its rows are not all of today."""

from __future__ import annotations

from datetime import UTC, datetime

from textual.app import App, ComposeResult

from aftui.api.models import EventSummary
from aftui.monitor import Record, Target
from aftui.tui.widgets.timeline import Timeline

NOW = datetime(2026, 11, 2, 9, 30, tzinfo=UTC).timestamp()
TARGET = Target("source", "dc_a", "Orders")


def record(n: int, when: datetime, history: bool = False) -> Record:
    ms = int(when.timestamp() * 1000)
    event = EventSummary(id=f"{ms}-0", event={"n": n}, metadata={"emitter_id": "dc_a"})
    return Record(n, TARGET, event, ms / 1000, history=history)


class TimelineApp(App[None]):
    def compose(self) -> ComposeResult:
        yield Timeline(clock=lambda: NOW)


def lines(timeline: Timeline) -> list[str]:
    return [timeline.render_line(y).text for y in range(len(timeline.rows))]


async def test_rows_of_another_day_give_their_day_and_so_do_the_rest() -> None:
    app = TimelineApp()
    async with app.run_test(size=(80, 10)) as pilot:
        timeline = app.query_one(Timeline)
        timeline.replace([record(1, datetime(2026, 11, 2, 8, 40, tzinfo=UTC))])
        await pilot.pause()
        assert lines(timeline)[0].startswith("08:40:00  Orders"), "all of today: the time alone"

        yesterday = record(0, datetime(2026, 11, 1, 8, 40, tzinfo=UTC), history=True)
        timeline.replace([yesterday, *timeline.rows])
        await pilot.pause()
        shown = lines(timeline)
        assert shown[0].startswith("11-01 08:40:00  Orders"), shown
        assert shown[1].startswith("11-02 08:40:00  Orders"), "aligned with the rows of another day"

        timeline.replace([record(2, datetime(2026, 11, 1, 23, 59, tzinfo=UTC))])
        await pilot.pause()
        assert lines(timeline)[0].startswith("11-01 23:59:00"), "yesterday alone is not today either"


async def test_the_selected_row_stays_in_view_when_a_filter_is_cleared() -> None:
    """Chosen among a filter's few rows, then the filter cleared: the view kept its offset, the row off screen."""
    app = TimelineApp()
    async with app.run_test(size=(80, 10)) as pilot:
        timeline = app.query_one(Timeline)
        every = [record(n, datetime(2026, 11, 2, 8, n % 60, tzinfo=UTC)) for n in range(200)]
        timeline.replace(every[::20])  # a filter's ten rows
        timeline.move_to(len(timeline.rows) - 3)  # up two: following stops
        chosen = timeline.current
        await pilot.pause()
        timeline.replace(every)  # the filter cleared
        await pilot.pause()
        assert timeline.current is chosen
        top = int(timeline.scroll_offset.y)
        assert top <= timeline.cursor < top + timeline.scrollable_content_region.height
