"""Health: the first pane. What is failing, since when, for every workflow and source aftui knows.

The numbers come from aftui.health (the App's `HealthWatch`: its own feeds and
the journal); this pane only shows them, once a second while it is shown.
Rows are sorted by what needs attention first: failing in the last hour (most
errors first), errors in the last day, then the rest by name. `enter` opens a
workflow on its Errors tab (the newest error under the cursor) or a source on
its Events tab. `/` filters the rows by name or id, as every list does.
"""

from __future__ import annotations

from collections import deque
from datetime import UTC, datetime

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Input, Static

from ...health import Alert, HealthRow, age, age_words, sparkline
from ...health.alerts import WINDOW_MS
from ...health.board import DAY_MS, HOUR_MS, MINUTE_MS
from ...text import visible
from ..focus import focus_now
from ..host import host
from ..widgets.board import PADDING, Board, BoardColumn
from ..widgets.floor_note import FloorNote
from ..widgets.leaving_input import LeavingInput
from ..widgets.pane import Pane
from ..widgets.phrases import Phrases

UNHEARD = ("?", "bold yellow")  # an `ok` row whose feeds are not live: not known
STATE = {"failing": ("✖", "bold red"), "fixed": ("✔", "bold green"), "errors": ("▲", "yellow"), "ok": ("●", "green")}
COLUMNS = [
    BoardColumn("state", " ", 2),  # the state's glyph, and `!` on a row alerted while the user was elsewhere
    BoardColumn("name", "Name", 24, cut="middle"),
    BoardColumn("kind", "Kind", 4),
    BoardColumn("e1h", "✖1h", 4),
    BoardColumn("e24h", "✖24h", 4),
    BoardColumn("last_error", "Err ago", 7),
    BoardColumn("last_event", "Evt ago", 7),
    BoardColumn("spark", "Events/min", 15, cut="start"),
    BoardColumn("message", "Last error", 60, cut="message"),
]
# The table is fitted to its width (`_fit_columns`): the last error gets what is left, down to nothing (the
# detail under the table shows it whole); narrower, the sparkline shows fewer minutes, the newest, down to
# SPARK_LEAST (its label still fits), then the name gives up to NAME_GIVES cells: on 80 columns nothing
# scrolls sideways, the state glyph and the figures stay in sight, and most names read whole.
SPARK_LEAST = 10
NAME_GIVES = 8
# Under this, a last error is noise ("Missing…r_email" at 120 columns with the sidebar): the sparkline's older
# minutes give way to it first, down to SPARK_LEAST.
MESSAGE_LEAST = 20


_KIND = {"workflow": "wf", "source": "src"}
COUNTING = Text("…", style="dim")  # a number not known yet: the journal and the feeds are still being read
MISSED_MARK = ("!", "bold reverse yellow")
MISSED_SAID = 3  # a row's latest alerts its line says; older ones are counted


def row_cells(
    row: HealthRow, now_ms: int, *, counting: bool = False, missed: bool = False, unheard: bool = False
) -> list[Text]:
    """A row's cells; while `counting`, every figure is `…`: a 0 before the journal is read would say healthy.

    `missed`: the row raised an alert while the user was away from this pane, not opened since (`!`).
    `unheard`: a feed of it is not live: an `ok` is a `?` (in an outage a green ● read as healthy, where
    `aftui health` said unknown)."""
    subject = row.subject
    if counting:
        name = Text(visible(subject.label, 60), no_wrap=True, overflow="ellipsis")
        kind = Text(_KIND[subject.kind], style="dim")
        return [Text(" "), name, kind, *[COUNTING] * (len(COLUMNS) - 3)]
    glyph, style = UNHEARD if unheard and row.state == "ok" else STATE[row.state]
    failing = row.state == "failing"
    # Off: no run comes to say whether it is fixed, and the line says so.
    kind = Text("off", style="bold yellow") if row.active is False else Text(_KIND[subject.kind], style="dim")
    return [
        Text.assemble((glyph, style), MISSED_MARK) if missed else Text(glyph, style=style),
        Text(visible(subject.label, 60), no_wrap=True, overflow="ellipsis", style="bold" if failing else ""),
        kind,
        _count(row.errors_1h, "bold red" if failing else "green"),
        _count(row.errors_24h, "yellow"),
        Text(age(row.last_error_ms, now_ms), style="red" if failing else "dim"),
        Text(age(row.last_event_ms, now_ms), style="dim" if row.last_event_ms is None else ""),
        Text(sparkline(row.per_minute), style="cyan"),
        Text(row.last_error or "—", no_wrap=True, overflow="ellipsis", style="red" if failing else "dim"),
    ]


def _next_runs(row: HealthRow) -> str:
    """What tells whether runs no replay can send are fixed: the next runs; of a workflow that emits nothing,
    no new error is all there is to see (a helper waited for its successful runs to show, and none did)."""
    if row.active is False:
        return ""
    if row.last_event_ms is None:
        return "; it emits no events, so a run that succeeds shows nothing: no new error is what says it is fixed"
    return "; the next runs say if it is fixed"


def _count(n: int, style: str) -> Text:
    return Text(str(n), style=style) if n else Text("0", style="dim")


def _replayed(row: HealthRow) -> Text:
    """What the replays of the hour's errors came to: the answer to "is it fixed?" for a failing workflow."""
    text = _replays_of_the_hour(row)
    if row.active is False and row.errors_24h:
        # It said "the next runs say if it is fixed" of a workflow that runs no more.
        text.append(" · deactivated: no new run comes to say whether it is fixed", style="bold yellow")
    return text


def _replays_of_the_hour(row: HealthRow) -> Text:
    if not row.originals_1h:
        return Text()
    # The 1h count has the errors failed replays led to as well: said, or the two numbers read as a contradiction.
    own = row.errors_1h - row.originals_1h
    also = f" ({own} more {'was' if own == 1 else 'were'} a failed replay's own)" if own > 0 else ""
    if row.fixed:
        # Replayed ok says what failed went through, not that the cause is gone: an incident was closed in the
        # quiet before the next bad order failed again. The runs to come are what tell.
        text = Text(f" · fixed: all {row.originals_1h} of the hour's errors replayed ok{also}", style="bold green")
        if row.active is not False:
            text.append(" and none since; the next runs say whether the cause is gone", style="green")
        return text
    if row.unsendable_1h >= row.originals_1h:
        # "none replayed ok yet" read as nobody having tried, of runs no replay can send again.
        return Text(
            f" · {row.unsendable_by} started these runs: no replay can send them again" + _next_runs(row),
            style="dim",
        )
    if row.unsendable_1h:
        also += f" ({row.unsendable_1h} cannot be replayed: {row.unsendable_by} started them)"
    if not row.replayed_ok_1h:
        return Text(f" · none of the hour's errors replayed ok yet{also}", style="dim")
    text = Text(f" · {row.replayed_ok_1h} of the hour's {row.originals_1h} errors replayed ok{also}", style="yellow")
    if row.after_replayed_ok:
        # Replays that succeed fix what failed, not why: errors still coming after them say the cause is there.
        n = row.after_replayed_ok
        # The ones before it not replayed ok are said too: "31 of 66 … 9 came after" read as only 9 left.
        older = row.originals_1h - row.replayed_ok_1h - n
        before = (
            f"{older} older than the newest of those {'was' if older == 1 else 'were'} not, and " if older > 0 else ""
        )
        after = "it" if older > 0 else "the newest of those"
        text.append(f"; {before}{n} came after {after}: the cause is still there", style="bold yellow")
    elif row.active is not False:
        # As "fixed" says it: "1 of the hour's 5 errors replayed ok" alone was read as the incident over, where it
        # says only that the payloads replayed went through.
        text.append(" and none since; the next runs say whether the cause is gone", style="yellow")
    return text


def _since(row: HealthRow, now_ms: int) -> Text:
    """Since when the row has had errors, as far as the last 24 hours (all aftui keeps) tell; nothing for a lone one.

    The board's title asks "since when", and the row's columns say only how long ago the last one was."""
    first = row.first_error_ms
    if first is None or row.last_error_ms is None or first >= row.last_error_ms:
        return Text()  # none, or a lone one: its own time is said after
    if now_ms - first > DAY_MS - HOUR_MS:  # the day's first hour: older ones are forgotten, so no start is known
        return Text(f"errors all through the last 24h ({row.errors_24h}); ")
    return Text(f"errors since {_clock(first)} ({age_words(first, now_ms)} ago, {row.errors_24h} in 24h); ")


def _clock(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=UTC).strftime("%H:%M:%S UTC")


class Missed:
    """A row's alerts raised while the user was elsewhere: how many, and the latest MISSED_SAID (a row left
    unopened through a weekend's spikes keeps a few, not all)."""

    def __init__(self) -> None:
        self.count = 0
        self.latest: deque[Alert] = deque(maxlen=MISSED_SAID)

    def add(self, alert: Alert) -> None:
        self.count += 1
        self.latest.append(alert)


def _missed_words(missed: Missed) -> Text:
    """What a row's alerts said while the user was elsewhere, the latest first: the notification may have gone
    unread (behind a dialog, or expired), and the row's last error hides a new kind of error among old ones."""
    said = []
    for alert in reversed(missed.latest):
        if alert.kind == "new":
            said.append(f"new error at {_clock(alert.at_ms)}: {alert.message}")
        else:
            said.append(f"spike at {_clock(alert.at_ms)}, at least {alert.count} in {WINDOW_MS // MINUTE_MS} min")
    more = missed.count - len(missed.latest)
    text = Text.assemble(MISSED_MARK)
    text.append(f" Alerted since you were last here: {'; '.join(said)}", style="bold yellow")
    if more > 0:
        text.append(f"; {more} more before", style="yellow")
    text.append(". ")
    return text


class HealthPane(Pane):
    TITLE = "Health"
    BINDINGS = [
        Binding("r", "refresh", "Refresh"),
        Binding("slash", "filter", "Filter"),
        Binding("escape", "clear_filter", "Clear filter", show=False),
        Binding("down", "to_rows", "To the rows", show=False),  # from the filter's field, as enter
        # y and e replay everywhere else: here they did nothing, and said nothing, on a failing row.
        Binding("y", "replay_where", "Replay…", show=False),
        Binding("e", "replay_where", "Edit & replay…", show=False),
    ]
    DEFAULT_CSS = """
    HealthPane > #health-filter { height: 3; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[HealthRow] = []  # those shown: the board's, that the filter lets through
        self._opened: str | None = None  # the subject last opened (enter), while the cursor stays on it
        self._missed: dict[str, Missed] = {}  # by workflow: alerts raised away from here, until it is opened
        self.filter_text = ""

    def compose(self) -> ComposeResult:
        yield Static(Text("Health: what is failing, since when"), classes="pane-title")
        # Phrases: on 80 columns the note wraps between its phrases, where it cut "enter: errors/events" off.
        yield Phrases(Text("Reading the journal and the feeds…", style="dim"), id="health-note")
        yield Board(COLUMNS, id="health-table")
        yield FloorNote(id="health-detail")  # several lines: notifications stand above it

    @property
    def table(self) -> Board:
        return self.query_one("#health-table", Board)

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit_columns)  # once laid out: the table's width is known then

    def _fit_columns(self) -> None:
        table = self.table
        # As if the vertical scrollbar were there: rows that come later bring it without resizing anything.
        width = table.size.width - table.styles.scrollbar_size_vertical
        if width <= 0:
            return
        pad = 2 * PADDING
        widths = {c.key: c.width for c in COLUMNS}
        spare = width - sum(w + pad for w in widths.values()) + widths["message"]
        if 0 < spare < MESSAGE_LEAST:
            given = min(MESSAGE_LEAST - spare, widths["spark"] - SPARK_LEAST)
            widths["spark"] -= given
            spare += given
        widths["message"] = max(0, spare)
        short = max(0, -spare)
        for key, gives in (("spark", widths["spark"] - SPARK_LEAST), ("name", NAME_GIVES)):
            given = min(gives, short)
            widths[key] -= given
            short -= given
        table.set_widths(widths)

    def on_mount(self) -> None:
        host(self).start_health()
        self._draw()  # not `health_changed`: the pane counts as mounted only once this handler has run

    def now_ms(self) -> int:
        return int(self.session.now().timestamp() * 1000)

    def health_changed(self) -> None:
        if self.is_mounted:
            self._draw()

    def _draw(self) -> None:
        health = host(self).health
        if health is None:
            return
        now = self.now_ms()
        rows = health.board.rows(now)
        shown = [r for r in rows if self._matches(r)] if self.filter_text else rows
        unheard = health.unheard()
        self._show(shown, now, counting=not health.counted, unheard=unheard)
        self._note(rows, health.counted, health.live)
        said = visible(self.filter_text, 40)
        self.table.say_empty(f"nothing named “{said}” · esc clears the filter" if rows and not shown else "")
        self._detail(unheard)

    def alerts_missed(self, alerts: list[Alert]) -> None:
        """Mark the rows these alerts were of (raised while the user was on another pane), until each is opened."""
        for alert in alerts:
            self._missed.setdefault(alert.workflow_id, Missed()).add(alert)
        self.health_changed()

    def _matches(self, row: HealthRow) -> bool:
        wanted = self.filter_text.casefold()
        return wanted in row.subject.label.casefold() or wanted in row.subject.id.casefold()

    # --- the filter ------------------------------------------------------------------------------------

    async def action_filter(self) -> None:
        """Show the filter's field (made on first use: the start does not pay for it) and type into it."""
        found = self.query("#health-filter")
        box = (
            found.first(Input)
            if found
            else LeavingInput(placeholder="filter by name or id (esc clears)", id="health-filter")
        )
        if not found:
            await self.mount(box, after=self.query_one("#health-note"))
        box.display = True
        focus_now(box)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "clear_filter":  # with nothing to clear, esc is not ours
            return any(box.display for box in self.query("#health-filter"))
        if action == "to_rows":
            return any(box.has_focus for box in self.query("#health-filter"))
        return super().check_action(action, parameters)

    def action_to_rows(self) -> None:
        self.table.focus()

    def action_clear_filter(self) -> None:
        box = self.query_one("#health-filter", Input)
        box.value = ""
        box.display = False
        self.filter_text = ""
        self.table.focus()
        self._draw()
        self._from_the_top()

    def _from_the_top(self) -> None:
        """The board from its first row, where the failing are. The cursor stays on its row if that is in sight
        then: followed to a row further down, as a row is, it had scrolled the failing rows out of sight."""
        table = self.table
        table.move_cursor(table.cursor_row if table.cursor_row < table.rows_in_view else 0)
        table.scroll_to(y=0, animate=False, immediate=True, force=True)

    @on(Input.Changed, "#health-filter")
    def _filtered(self, event: Input.Changed) -> None:
        event.stop()
        self.filter_text = event.value.strip()
        self._draw()

    @on(Input.Submitted, "#health-filter")
    def _filter_done(self, event: Input.Submitted) -> None:
        event.stop()
        focus_now(self.table)  # the rows it let through, to open one with enter

    def _show(self, rows: list[HealthRow], now_ms: int, *, counting: bool, unheard: set[str]) -> None:
        table = self.table
        keys = [r.subject.id for r in rows]
        old = [r.subject.id for r in self.rows]
        missed = self._missed
        cells = {
            r.subject.id: row_cells(
                r, now_ms, counting=counting, missed=r.subject.id in missed, unheard=r.subject.id in unheard
            )
            for r in rows
        }
        if keys == old:  # the same rows in the same order: cells in place, the cursor and scroll untouched
            for ident, new in cells.items():
                table.update_row(ident, new)  # drawn again only if it changed: each tick mostly gives the same text
        else:
            # At the top, the cursor stays at the top (what needs attention most); elsewhere it follows its row.
            # The row last opened is followed wherever it goes, until the cursor is moved: back from its Errors tab
            # after a replay that fixed it, the top row was the next failing one, and the line under the table
            # spoke of that one instead.
            at = old[table.cursor_row] if self.rows and 0 < table.cursor_row < len(old) else None
            at = self._opened if self._opened in keys else at
            table.replace([(ident, cells[ident]) for ident in keys], cursor=keys.index(at) if at in keys else 0)
        self.rows = rows

    def _note(self, rows: list[HealthRow], counted: bool, live: bool) -> None:
        if not counted:
            return
        failing = sum(1 for r in rows if r.state == "failing")
        fixed = sum(1 for r in rows if r.state == "fixed")
        workflows = sum(1 for r in rows if r.subject.kind == "workflow")
        text = Text()
        if failing:
            text.append(f"{failing} failing in the last hour", style="bold red")
        elif fixed:
            text.append("nothing failing in the last hour", style="green")
        else:
            text.append("nothing failed in the last hour", style="green")
        if fixed:
            text.append(f" · {fixed} fixed by replay", style="green")
        if not live:  # a feed reconnecting or failed: "nothing failed" may only be nothing heard
            text.append(" · not every feed is live: figures may be behind", style="bold yellow")
        alerted = sum(1 for r in rows if r.subject.id in self._missed)
        if alerted:
            text.append(f" · {alerted} alerted since you were last here: marked ! until opened", style="bold yellow")
        if self.filter_text:  # before the totals: on 80 columns the line's end is cut
            text.append(f" · {len(self.rows)} match “{visible(self.filter_text, 40)}”", style="bold")
        # The workspace by name: after a switch, "nothing failed · 0 workflows" read as the failure fixed.
        where = visible(self.session.workspace_label, 40)
        text.append(f" · {workflows} workflows, {len(rows) - workflows} sources in {where}", style="dim")
        text.append(" · enter: errors/events", style="dim")
        fired = len(host(self).alerts_fired())
        if fired:  # a toast fades, a mark goes once opened: the list stays
            text.append(f" · ! lists this session's {fired} alert{'s' * (fired != 1)}", style="dim")
        self.query_one("#health-note", Phrases).update(text)

    @on(Board.RowHighlighted, "#health-table")
    def _highlighted(self) -> None:
        row = self.current()
        if row is None or row.subject.id != self._opened:
            self._opened = None  # the cursor went elsewhere: the top again, as usual
        self._detail()

    def current(self) -> HealthRow | None:
        row = self.table.cursor_row
        return self.rows[row] if self.rows and 0 <= row < len(self.rows) else None

    def _detail(self, unheard: set[str] | None = None) -> None:
        """The highlighted row's last error in full width, wrapped: on 80 columns the table cuts it.

        `unheard`: the watch's, when the caller has just asked it (None: asked here)."""
        row = self.current()
        text = Text()
        health = host(self).health
        if health is None or not health.counted:
            pass  # still counting: "no error" would be a guess
        elif row is not None:
            # Named: the line is the highlighted row's, and read alone it passed for the latest error of all.
            missed = self._missed.get(row.subject.id)
            if missed is not None:
                text.append_text(_missed_words(missed))
            text.append(visible(row.subject.label, 40), style="bold")
            if row.last_error_ms is None:
                text.append(": no error in the last 24 hours seen by aftui.", style="dim")
            else:
                now_ms = self.now_ms()
                text.append(": ")
                text.append_text(_since(row, now_ms))
                text.append(f"last error {_clock(row.last_error_ms)} ({age_words(row.last_error_ms, now_ms)} ago): ")
                text.append(row.last_error, style="red" if row.state == "failing" else "")
                text.append_text(_replayed(row))
            if row.subject.id in (health.unheard() if unheard is None else unheard):
                if text.plain.endswith("."):
                    text.right_crop(1)
                text.append(" · its feed is not live: what it does now is not known", style="bold yellow")
        self.query_one("#health-detail", FloorNote).update(text)

    @on(Board.RowSelected, "#health-table")
    def _open(self, event: Board.RowSelected) -> None:
        event.stop()
        row = self.current()
        if row is None:
            return
        subject = row.subject
        self._opened = subject.id
        if self._missed.pop(subject.id, None):
            self._draw()  # read: its mark goes
        # Imported on first use: the start, which opens on this pane, does not pay for the detail screens.
        if subject.kind == "workflow":
            from .workflows import WorkflowScreen

            self.app.push_screen(WorkflowScreen(subject.id, ("Health", subject.label), tab="Errors"))
        else:
            from .sources import SourceScreen

            self.app.push_screen(SourceScreen(subject.id, ("Health", subject.label), tab="Events"))

    def action_replay_where(self) -> None:
        row = self.current()
        if row is not None and row.subject.kind == "workflow":
            where = "enter opens its Errors, newest first: y there replays one, e edits it first, R a group"
        else:
            where = "a workflow's errors are replayed from its Errors: enter on a workflow opens them"
        self.notify(where, title="Replay", timeout=6)

    def action_refresh(self) -> None:
        """List the sources and workflows again (new ones join the board)."""
        host(self).refresh_health()
        self.notify("Listing the sources and workflows again.", markup=False)
