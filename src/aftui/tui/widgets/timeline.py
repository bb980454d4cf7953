"""The monitor's event list: thousands of rows, only the visible ones rendered.

Built on the Line API like Textual's `Log`: `render_line` draws one row from
the record under it, and rendered rows are cached by record, width and look.
Rows are capped (`cap`); the oldest go first (the journal still has them).
While following, the cursor sits on the newest row and the view stays at the
bottom; moving the cursor, clicking or scrolling up stops following, `end`
(or `f` in the monitor) resumes it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ...monitor import Matcher, Record
from ...text import visible

DEFAULT_CAP = 10_000
DAY_MS = 86_400_000


class Timeline(ScrollView, can_focus=True):
    KEYS_AREA = "The events"  # its heading in `?`

    BINDINGS = [
        Binding("up,k", "move(-1)", "Up", show=False),
        Binding("down,j", "move(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "first", "Oldest", show=False),
        Binding("end", "follow", "Newest + follow", show=False),
    ]

    COMPONENT_CLASSES = {
        "timeline--cursor",
        "timeline--marked",
        "timeline--match",
        "timeline--error",
        "timeline--history",
    }

    DEFAULT_CSS = """
    Timeline { height: 1fr; background: $surface; overflow-x: hidden; overflow-y: scroll; }
    Timeline > .timeline--cursor { background: $block-cursor-blurred-background; }
    Timeline:focus > .timeline--cursor { background: $block-cursor-background; color: $block-cursor-foreground; text-style: bold reverse; }
    Timeline > .timeline--marked { background: $primary 30%; }
    Timeline > .timeline--match { background: $warning 60%; color: $text; text-style: bold; }
    Timeline > .timeline--error { color: $error; }
    Timeline > .timeline--history { color: $text-muted; }
    """

    class CursorMoved(Message):
        """The highlighted record changed (None: the list is empty)."""

        def __init__(self, record: Record | None) -> None:
            super().__init__()
            self.record = record

    class FollowChanged(Message):
        def __init__(self, following: bool) -> None:
            super().__init__()
            self.following = following

    def __init__(
        self,
        *,
        cap: int = DEFAULT_CAP,
        clock: Callable[[], float] = time.time,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        """`clock`: now, in seconds (the session's, which snapshot tests fix): what "today" is."""
        super().__init__(id=id, classes=classes)
        self.cap = cap
        self._now = clock
        # Rows not all of today (UTC), as history read from the journal may be: every row gives its day, or an
        # event of yesterday 08:40 read as one of this morning. Decided once a frame (render_lines).
        self.dated = False
        self.rows: list[Record] = []
        self.cursor = -1
        self.following = True
        self.marked: set[int] = set()  # record numbers (Record.n)
        self.matcher: Matcher | None = None
        self._cache: LRUCache[tuple[object, ...], Strip] = LRUCache(1024)
        self._announced: Record | None = None
        self.widest = (0, 0)  # the widest name and channel drawn so far: the columns grow to them
        # False when every row is of one emitter (a workflow's events and $errors): its name on every row took
        # the cells the error's message needs, and the monitor's bar names it already.
        self.show_names = True
        self._base = Style()  # the widget's own style, read once a frame (render_lines)

    # --- content ---------------------------------------------------------------------------------

    def replace(self, records: Iterable[Record]) -> None:
        """Show exactly `records` (a new filter, or history); the cursor stays on the same record if it can."""
        current = self.current
        self.rows = list(records)[-self.cap :]
        index = next((i for i, r in enumerate(self.rows) if r is current), -1) if current is not None else -1
        self.cursor = len(self.rows) - 1 if self.following or index < 0 else index
        self._changed()
        if not self.following and self.rows:
            # The rows above it came or went (a filter cleared): the view kept its old offset, and the record
            # the detail showed was off screen, nothing highlighted where the user looked.
            self.scroll_to_region(self._row_region(self.cursor), animate=False, immediate=True)

    def extend(self, records: list[Record]) -> None:
        """Add records at the bottom, dropping the oldest beyond the cap."""
        if not records:
            return
        rows = self.rows
        rows.extend(records)
        excess = len(rows) - self.cap
        if excess > 0:
            del rows[:excess]
            if not self.following:
                self.cursor = max(0, self.cursor - excess)  # a dropped selection: the oldest kept takes its place
                # Keep what the reader looks at in place while the oldest rows go.
                self.scroll_to(y=max(0, int(self.scroll_offset.y) - excess), animate=False, immediate=True)
        if self.following:
            self.cursor = len(rows) - 1
        self._changed()

    def set_show_names(self, show: bool) -> None:
        if show != self.show_names:
            self.show_names = show
            self._cache.clear()
            self.refresh()

    def set_matcher(self, matcher: Matcher | None) -> None:
        self.matcher = matcher
        self._cache.clear()
        self.refresh()

    def toggle_mark(self) -> Record | None:
        record = self.current
        if record is not None:
            self.marked.symmetric_difference_update({record.n})
            self.refresh_record(record)
        return record

    def clear_marks(self) -> None:
        self.marked.clear()
        self.refresh()

    def refresh_record(self, record: Record) -> None:
        """Draw a record again (its event was replaced by the full one, or its mark changed)."""
        self._cache.clear()
        self.refresh()

    @property
    def current(self) -> Record | None:
        return self.rows[self.cursor] if 0 <= self.cursor < len(self.rows) else None

    def _changed(self) -> None:
        self.virtual_size = Size(self.scrollable_content_region.width, len(self.rows))
        if self.following:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        self.refresh()
        self._announce()

    def _announce(self) -> None:
        record = self.current
        if record is not self._announced:
            self._announced = record
            self.post_message(self.CursorMoved(record))

    # --- moving ----------------------------------------------------------------------------------

    def set_following(self, following: bool) -> None:
        if following == self.following:
            return
        self.following = following
        if following and self.rows:
            self.cursor = len(self.rows) - 1
            self._changed()
        self.post_message(self.FollowChanged(following))

    def move_to(self, index: int) -> None:
        """Put the cursor on row `index` (the user chose it: following stops unless it is the newest)."""
        if not self.rows:
            return
        self.cursor = max(0, min(len(self.rows) - 1, index))
        self.set_following(False)
        self.scroll_to_region(self._row_region(self.cursor), animate=False, immediate=True)
        self.refresh()
        self._announce()

    def _row_region(self, index: int):
        from textual.geometry import Region

        return Region(0, index, max(1, self.scrollable_content_region.width), 1)

    def action_move(self, step: int) -> None:
        self.move_to((self.cursor if self.cursor >= 0 else len(self.rows)) + step)

    def action_page(self, step: int) -> None:
        self.move_to(self.cursor + step * max(1, self.scrollable_content_region.height - 1))

    def action_first(self) -> None:
        self.move_to(0)

    def action_follow(self) -> None:
        self.set_following(True)

    def on_click(self, event: events.Click) -> None:
        index = int(self.scroll_offset.y) + event.y
        if 0 <= index < len(self.rows):
            self.move_to(index)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        self.set_following(False)  # reading back: new rows must not pull the view down

    # --- drawing ---------------------------------------------------------------------------------

    def render_lines(self, crop: Region) -> list[Strip]:
        self._base = self.rich_style  # once a frame, not once a line: it walks the styles of every ancestor
        dated = self._spans_days()
        if dated != self.dated:
            self.dated = dated
            self._cache.clear()
        return super().render_lines(crop)

    def _spans_days(self) -> bool:
        """The oldest or the newest row is not of today (the rows come in time order, backlogs merged in)."""
        rows = self.rows
        if not rows:
            return False
        today = int(self._now() * 1000) // DAY_MS
        return rows[0].time_ms // DAY_MS != today or rows[-1].time_ms // DAY_MS != today

    def _clock(self, record: Record) -> str:
        return (record.stamp() if self.dated else record.clock()) + " "

    def render_line(self, y: int) -> Strip:
        index = int(self.scroll_offset.y) + y
        width = self.scrollable_content_region.width
        if not 0 <= index < len(self.rows):
            return Strip.blank(width, self._base)
        record = self.rows[index]
        selected = index == self.cursor
        marked = record.n in self.marked
        key = (record.n, id(record.event), width, selected, marked, id(self.matcher), self.has_focus)
        strip = self._cache.get(key)
        if strip is None:
            strip = self._render_row(record, width, selected, marked)
            self._cache[key] = strip
        return strip

    def on_focus(self) -> None:
        self._cache.clear()

    def on_blur(self) -> None:
        self._cache.clear()

    def _render_row(self, record: Record, width: int, selected: bool, marked: bool) -> Strip:
        if not (selected or marked or record.history or self.matcher):
            return self._plain_row(record, width)
        name, channel = visible(record.name, 80), visible(record.channel, 40)
        name_w, channel_w = self._columns(width, name, channel)
        base = self._base
        text = Text(no_wrap=True, overflow="crop", end="")
        clock = self._clock(record)
        text.append(clock, style="dim")
        text.append("●" if marked else " ", style="bold")
        named = [(fit(name, name_w), Style(color="cyan")), (" ", None)] if name_w else []
        fields = [*named, (fit(channel, channel_w), Style(color="magenta")), (" ", None)]
        for value, style in fields:
            start = len(text)
            text.append(value, style=style)
            self._highlight(text, value, start)
        rest = max(0, width - cell_len(text.plain))
        summary = record.summary
        summary = summary if cell_len(summary) <= rest else set_cell_size(summary, rest)
        start = len(text)
        summary_style = self.get_component_rich_style("timeline--error", partial=True) if record.is_error else None
        text.append(summary, style=summary_style)
        self._highlight(text, summary, start)
        if record.history:
            text.stylize(self.get_component_rich_style("timeline--history", partial=True), 0, len(clock))
        if marked:
            text.stylize(self.get_component_rich_style("timeline--marked", partial=True))
        if selected:
            text.stylize(self.get_component_rich_style("timeline--cursor", partial=True))
        segments = [Segment(s.text, base + s.style if s.style else base) for s in text.render(self.app.console)]
        return Strip(segments, cell_len(text.plain)).crop_extend(0, width, base)

    def _plain_row(self, record: Record, width: int) -> Strip:
        """Most rows (not selected, marked, from history or filtered): the segments `_render_row`'s Text
        would give, built directly, at a fifth of the cost: a burst redraws every visible row four times
        a second."""
        name, channel = visible(record.name, 80), visible(record.channel, 40)
        name_w, channel_w = self._columns(width, name, channel)
        base = self._base
        clock = self._clock(record)
        channel = fit(channel, channel_w)
        fixed = cell_len(clock) + 1 + (name_w + 1 if name_w else 0) + channel_w + 1
        rest = max(0, width - fixed)
        summary = record.summary
        summary = summary if cell_len(summary) <= rest else set_cell_size(summary, rest)
        segments = [Segment(clock, base + _DIM), Segment(" ", base + _BOLD)]
        if name_w:
            segments += [Segment(fit(name, name_w), base + _CYAN), Segment(" ", base)]
        segments.append(Segment(channel, base + _MAGENTA))
        # Split where the Text's style runs split: an unstyled summary runs on from the space before it.
        if not record.is_error:
            segments.append(Segment(" " + summary, base))
        else:
            segments.append(Segment(" ", base))
            if summary:
                segments.append(Segment(summary, base + self.get_component_rich_style("timeline--error", partial=True)))
        return Strip(segments, fixed + cell_len(summary)).crop_extend(0, width, base)

    def _columns(self, width: int, name: str, channel: str) -> tuple[int, int]:
        """The column widths, grown first if this row's name or channel is the widest drawn yet.

        Measured as rows are drawn (only then is an event parsed), so the
        columns fit what is on screen; a row that widens them redraws the rest.
        """
        widest = (max(self.widest[0], cell_len(name)), max(self.widest[1], cell_len(channel)))
        if widest != self.widest:
            self.widest = widest
            self._cache.clear()
            self.refresh()
        name_w, channel_w = columns(width, *widest)
        return (name_w if self.show_names else 0), channel_w

    def _highlight(self, text: Text, value: str, start: int) -> None:
        if self.matcher is None or not value.strip():
            return
        style = self.get_component_rich_style("timeline--match", partial=True)
        for begin, end in self.matcher.spans(value):
            text.stylize(style, start + begin, start + end)


_DIM, _BOLD, _CYAN, _MAGENTA = Style(dim=True), Style(bold=True), Style(color="cyan"), Style(color="magenta")


def fit(value: str, cells: int) -> str:
    """`value` in exactly `cells` cells: padded, or cut with an ellipsis (cut bare, a name ran into the channel
    after it: "Validate and forward or $errors")."""
    if cell_len(value) <= cells:
        return set_cell_size(value, cells)
    return set_cell_size(value, cells - 1) + "…"


def columns(width: int, widest_name: int = 22, widest_channel: int = 16) -> tuple[int, int]:
    """Widths of the name and channel columns for a list `width` cells wide.

    Each is as wide as the widest value seen, up to a share of the width
    (a third for names, a fifth for channels), so the summary keeps the rest.
    """
    name = max(10, min(widest_name, width // 3))
    channel = max(9, min(widest_channel, width // 5))
    return name, channel
