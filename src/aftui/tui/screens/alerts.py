"""The alerts of this session (`!`): what fired, and whether it still happens.

An alert's notification fades in seconds, and the Health pane marks a row
only until it is opened: after a night's page the question "what fired, and
is it still failing?" had no answer once the toasts were gone. This lists the
session's alerts of the workspace (`AftuiApp.fired`), newest first, each with
what its failure did since: `none since`, or how many more and how long ago
the last. `enter` opens the workflow's Errors tab on every error of that kind
(its fingerprint's group). Listing them is seeing them: the header's count
goes, as on Health.
"""

from __future__ import annotations

from datetime import UTC, datetime

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from ...health import Alert, HealthWatch, age
from ...health.alerts import WINDOW_MS
from ...health.board import HOUR_MS, MINUTE_MS
from ..host import host
from ..safe import plain
from ..widgets.board import cut_message
from ..widgets.footer import KeyFooter
from ..widgets.row_table import RowTable
from ..widgets.status import StatusHeader

REDRAW_S = 2.0  # the Since column counts on, and new alerts join, while the list is open
_FIXED = {"Time UTC": 8, "Fired": 15, "Since": 16}  # the columns before the failure, and their cells
FAILURE_LEAST = 20


def fired_cell(alert: Alert) -> Text:
    """`new error` or `spike, 5+ in 5m`: what the alert was when it fired (at least that many: it fires as the
    count reaches the spike, whatever comes in the same second)."""
    if alert.kind == "new":
        return Text("new error", style="bold red")
    return Text(f"spike, {alert.count}+ in {WINDOW_MS // MINUTE_MS}m", style="bold yellow")


def since_cell(health: HealthWatch, alert: Alert, now_ms: int) -> Text:
    """Is it still happening: `none since`, or `7 more, 12s ago` (the last of them). The tracker holds the last
    hour of a failure's errors: an older alert with none held says so, not "none since"."""
    count, newest = health.tracker.since(alert.fingerprint, alert.at_ms)
    if count:
        return Text(f"{count} more, {age(newest, now_ms)} ago", style="bold red")
    if now_ms - alert.at_ms > HOUR_MS:
        return Text("none in the last hour", style="green")
    return Text("none since", style="green")


def _clock(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, tz=UTC).strftime("%H:%M:%S")


class AlertsScreen(Screen[None]):
    QUIET_FOR_ALERTS = True  # a new alert is a new row here (at the next redraw), not a toast over the list
    BINDINGS = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("enter", "open", "Its errors", show=True),
    ]

    DEFAULT_CSS = """
    AlertsScreen > .crumbs { padding: 0 1; }
    AlertsScreen > .hint { padding: 0 1; color: $text-muted; }
    AlertsScreen > RowTable { height: 1fr; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._shown: list[Alert] = []

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Static(Text("Alerts"), classes="crumbs")
        yield Static(classes="hint")
        yield RowTable()
        yield KeyFooter()

    def held(self) -> None:
        """A view: a pane key closes it (`0` over it was refused, "leave this one with esc first")."""
        return None

    def on_mount(self) -> None:
        host(self).alerts_seen()  # listed here: the header's count goes; Health still marks their rows
        self.query_one(StatusHeader).sync()
        self._redraw()
        self.set_interval(REDRAW_S, self._redraw)
        self.query_one(RowTable).focus()
        self.call_after_refresh(self._redraw)  # laid out: the last column takes the width left, no more

    def on_resize(self) -> None:
        self.call_after_refresh(self._redraw)

    def _failure_width(self, table: RowTable) -> int | None:
        """What the other columns leave the last (None before the table is laid out): as wide as its text, the
        table scrolled sideways, and its scrollbar's thumb read as a stray character."""
        room = table.size.width - table.styles.scrollbar_size_vertical
        if room <= 0:
            return None
        return max(FAILURE_LEAST, room - sum(_FIXED.values()) - 2 * table.cell_padding * (len(_FIXED) + 1))

    def _redraw(self) -> None:
        if self.app.screen is self and host(self).alert_count:
            host(self).alerts_seen()  # come while the list is shown: its new rows say them
        health = host(self).health
        fired = list(reversed(host(self).alerts_fired()))
        self.query_one(".hint", Static).update(self._hint(health, fired))
        table = self.query_one(RowTable)
        row = table.cursor_row
        width = self._failure_width(table)
        table.clear(columns=True)
        for key, cells in _FIXED.items():
            table.add_column(key, key=key, width=cells)
        table.add_column("Workflow, and its error", key="failure", width=width)
        now_ms = health.now_ms() if health is not None else 0
        for alert in fired:
            # Two lines: at 80 columns a column of its own left the error a few letters.
            name = plain(alert.workflow_name or alert.workflow_id, 60, "bold")
            message = plain(alert.message, 300)
            if width is not None:
                name.truncate(width, overflow="ellipsis")
                message = cut_message(message, width)
            failure = Text.assemble(name, "\n", message)
            table.add_row(
                Text(_clock(alert.at_ms)),
                fired_cell(alert),
                since_cell(health, alert, now_ms) if health is not None else Text("—", style="dim"),
                failure,
                height=2,
            )
        # The same alert stays under the cursor as new ones come in on top.
        moved = len(fired) - len(self._shown) if self._shown else 0
        if fired:
            table.move_cursor(row=min(max(0, row + moved), len(fired) - 1), animate=False)
        self._shown = fired
        self.refresh_bindings()

    def _hint(self, health: HealthWatch | None, fired: list[Alert]) -> Text:
        if not fired and (health is None or not health.started):
            return Text("No alerts: Health has not started watching yet (0 opens it).")
        if not fired:
            return Text("No alert this session: no new kind of error and no spike since aftui started watching.")
        many = f"{len(fired)} alert{'s' * (len(fired) != 1)}"
        return Text(
            f"{many} of this session, newest first: new kinds of error and spikes · Since: more of the same "
            "error after it · enter lists every error of that kind"
        )

    def _current(self) -> Alert | None:
        row = self.query_one(RowTable).cursor_row
        return self._shown[row] if 0 <= row < len(self._shown) else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "open":
            return self._current() is not None
        return True

    def action_open(self) -> None:
        alert = self._current()
        if alert is None:
            return
        from .workflows import WorkflowScreen

        name = alert.workflow_name or alert.workflow_id
        self.app.push_screen(
            WorkflowScreen(alert.workflow_id, ("Alerts", name), tab="Errors", group=(alert.fingerprint, alert.message))
        )

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_open()
