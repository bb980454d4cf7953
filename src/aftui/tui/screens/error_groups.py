"""A workflow's Errors tab: its errors, live, or the same errors grouped by failure (`g` switches).

A group is one failure (`aftui.fingerprint`: the step, the error's
name and its message with numbers, ids, quoted values and times made
alike), with how many errors, when first and last seen, one message as it
was, and whether it is fixed: every original error of it replayed with
success (the errors a replay led to count as replays, not failures). The
groups still failing come first. `enter` lists a group's errors (esc shows
all again), `R` replays the group's errors that are not fixed yet, with one
fix for all (the bulk replay screen).
"""

from __future__ import annotations

from datetime import UTC, datetime

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import ScrollableContainer, Vertical
from textual.message import Message
from textual.widgets import DataTable

from ...api.models import EventSummary
from ...fingerprint import ErrorGroup, group_errors
from ...journal.replays import ReplayRow
from ...replay.states import GroupState, group_state, still_failing
from ...replay.who import replayed_words
from ...starts import unsendable_start_of
from ...text import visible
from ..focus import shown
from ..host import session_of
from ..safe import plain
from ..widgets.board import cut_message
from ..widgets.phrases import Phrases
from ..widgets.row_table import RowTable
from .replay_errors import ErrorsTable, unsendable

ERRORS_KEYS = (
    "enter opens one · y replays, e edits first (ctrl+s sends) · space marks, R replays in bulk · g groups · "
    "/ filters · l replay link"
)
ERRORS_HINT = f"Its errors, newest first (the service's last 100, then the journal's), live · {ERRORS_KEYS}"
GROUPS_HINT = (
    "The same failures together (step, error, message with numbers, ids, quotes and times made alike) · "
    "still failing first · enter lists a group's errors · R replays a group · g back to all errors"
)


def _time(ms: int | None) -> Text:
    """As the Time column of the errors writes it."""
    if not ms:
        return Text("—", style="dim")
    return Text(datetime.fromtimestamp(ms / 1000, tz=UTC).strftime("%m-%d %H:%M:%S"))


def state_cell(state: GroupState, *, sendable: bool = True) -> Text:
    """`✔ fixed`, `✖ 3 failed again`, `5 ok · 1 failed again`, `… 1 pending`, `never replayed`, `2/5 replayed ok`; `can't replay` for
    runs nothing can start again (a timer's), which "never replayed" made look overlooked."""
    if state.fixed:
        return Text("✔ fixed", style="green")
    if state.count("failed") and state.count("succeeded"):
        # Both: "✖ 1 failed again" alone, beside 5 replayed ok since, read as the fix not working (an on-call walk).
        return Text.assemble(
            (f"{state.count('succeeded')} ok", "green"), " · ", (f"{state.count('failed')} failed again", "red")
        )
    if state.count("failed"):
        return Text(f"✖ {state.count('failed')} failed again", style="red")
    if state.count("pending"):
        return Text(f"… {state.count('pending')} pending", style="yellow")
    if state.count("succeeded"):
        return Text(f"{state.count('succeeded')}/{state.originals} replayed ok", style="yellow")
    return Text("never replayed", style="bold") if sendable else Text("can't replay", style="dim")


def _cannot_replay(group: ErrorGroup) -> str:
    """Why a group's errors cannot be replayed, when none can: its state cell says only "can't replay"."""
    starts = {unsendable_start_of(e) for e in group.events}
    start = starts.pop() if len(starts) == 1 else None
    return f" · {start} started these runs: no replay can start one again" if start else ""


def failure_cell(group: ErrorGroup, width: int | None = None) -> Text:
    """The error's name and a message; in `width` cells, cut as the errors list cuts it (`cut_message`)."""
    text = Text.assemble(plain(group.key.name, 30, "red"), ": ", plain(group.sample, 200))
    text.no_wrap, text.overflow = True, "ellipsis"  # cut to the column with a mark that says so
    return cut_message(text, width) if width else text


_FIXED = {"count": ("Count", 5), "state": ("State", 21), "last": ("Last seen", 14), "step": ("Step", 10)}
FAILURE_MIN = 16  # narrower than this, the table scrolls sideways rather than cut the failure shorter


def _add_columns(table: DataTable[Text], failure_width: int | None) -> None:
    """The groups' columns; the failure as wide as its text until the table's width is known."""
    for key, (label, width) in _FIXED.items():
        table.add_column(label, key=key, width=width)
    table.add_column("Failure", key="failure", width=failure_width)


class ErrorGroupsView(Vertical):
    """The groups of the errors `errors` has loaded, kept in step with it (it is live)."""

    BINDINGS = [
        Binding("R", "replay_group", "Replay group"),
        Binding("g", "errors", "All errors"),
        Binding("escape", "errors", "All errors", show=False),
    ]

    def __init__(self, errors: ErrorsTable) -> None:
        super().__init__(id="groups")
        self.errors = errors
        self.groups: list[ErrorGroup] = []
        self.states: dict[str, GroupState] = {}
        self._failure_width: int | None = None

    def _replays_of(self, event: EventSummary) -> tuple[ReplayRow, ...]:
        state = self.errors.states.get(event.id or "")
        return state.replays if state is not None else ()

    def compose(self) -> ComposeResult:
        table: DataTable[Text] = RowTable()
        _add_columns(table, None)
        yield table
        yield Phrases(classes="detail")

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit_failure)  # once laid out: the table's width is known then

    def _fit_failure(self) -> None:
        """The failure takes the width the other columns leave (it was as wide as its text, and the table
        scrolled sideways: at 80 columns "ValidationError: Missing" and the rest out of sight)."""
        table = self.table
        # As if the vertical scrollbar were there: more groups later bring it without resizing anything.
        room = table.size.width - table.styles.scrollbar_size_vertical
        fixed = sum(width for _, width in _FIXED.values())
        width = max(FAILURE_MIN, room - fixed - 2 * table.cell_padding * (len(_FIXED) + 1))
        if room > 0 and width != self._failure_width:
            self._failure_width = width
            table.clear(columns=True)
            _add_columns(table, width)
            self.rebuild()

    @property
    def table(self) -> DataTable[Text]:
        return self.query_one(DataTable)

    def rebuild(self) -> None:
        """Group the loaded errors again; the highlighted group stays highlighted."""
        errors = self.errors
        groups = group_errors(errors.pager.items, errors.steps, errors.workflow_id)
        states = {g.key.fingerprint: group_state(g, errors.states) for g in groups}
        groups.sort(key=lambda g: (states[g.key.fingerprint].fixed, -g.count, -(g.last_ms or 0)))
        unknown = errors.journal is not None and bool(errors.journal.problem)  # no journal: no replay is known
        table = self.table
        current = self.current
        keep = current.key.fingerprint if current is not None else None
        self.groups, self.states = groups, states
        table.clear()
        for group in groups:
            fp = group.key.fingerprint
            table.add_row(
                Text(str(group.count), justify="right"),
                Text("? no journal", style="yellow")
                if unknown
                else state_cell(states[fp], sendable=not all(unsendable(e) for e in group.events)),
                _time(group.last_ms),
                plain(group.key.step, 30),
                failure_cell(group, self._failure_width),
                key=fp,
            )
        ids = [g.key.fingerprint for g in groups]
        if keep in ids:
            table.move_cursor(row=ids.index(keep), animate=False)
        self._detail()

    @property
    def current(self) -> ErrorGroup | None:
        row = self.table.cursor_row
        return self.groups[row] if 0 <= row < len(self.groups) else None

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self._detail()

    def _detail(self) -> None:
        detail = self.query_one(".detail", Phrases)
        group = self.current
        if group is None:
            what = "no errors yet" if self.errors.pager.done else "loading errors…"
            detail.update(Text(f"{what} · g back to all errors"))
            return
        state = self.states[group.key.fingerprint]
        # The errors failed replays led to are in the state's words ("· 1 a failed replay's own").
        sent = [r for e in group.events for r in self._replays_of(e)]
        newest = max(sent, key=lambda r: r.started_at, default=None)
        last = ""
        if newest is not None:  # on a team's journal too: who replayed this failure last, before anyone again
            session = session_of(self)
            last = f"\nlast {replayed_words(newest, session.now().timestamp(), session.me)}"
        text = Text.assemble(
            ("first ", "dim"),
            _time(group.first_ms),
            ("  last ", "dim"),
            _time(group.last_ms),
            ("  fingerprint ", "dim"),
            group.key.fingerprint,
            "\n",
            state.words(),
            _cannot_replay(group),
            last,
            ("\nsample ", "dim"),
            visible(group.sample, 300),
        )
        text.overflow = "fold"
        detail.update(text)

    @on(DataTable.RowSelected)
    def _open(self, event: DataTable.RowSelected) -> None:
        event.stop()
        group = self.current
        if group is not None:
            self.post_message(ErrorsTab.ShowErrors(group))

    def action_errors(self) -> None:
        self.post_message(ErrorsTab.ShowErrors(None))

    def action_replay_group(self) -> None:
        group = self.current
        if group is None:
            self.notify("No group is selected.", severity="warning", markup=False)
            return
        todo = still_failing(group, self.errors.states)
        if not todo:
            self.notify(
                "Every error of this group was replayed ok (or is pending): nothing is left to replay.",
                severity="warning",
                markup=False,
            )
            return
        self.errors.bulk(todo, f"the group {group.key.name}: {group.sample}", left=group.count - len(todo))


class ErrorsTab(ScrollableContainer, can_focus=False):
    """The Errors tab: a hint, the errors (live) and their groups, one of the two shown."""

    class ShowErrors(Message):
        """Back to the errors: all of them (None) or one group's."""

        def __init__(self, group: ErrorGroup | None) -> None:
            super().__init__()
            self.group = group

    def __init__(self, errors: ErrorsTable, *, note: Text | None = None) -> None:
        """`note`: said first in the hint (where the errors come from, when not from the service)."""
        super().__init__()
        self.errors = errors
        self.groups = ErrorGroupsView(errors)
        self.note = note

    def compose(self) -> ComposeResult:
        # What `_hint` says, from the first: composed with the service's window, an outage's tab said it over the
        # journal's errors until the list's first update (CI g2 read it so).
        yield Phrases(self._list_hint(), classes="hint")
        yield self.errors
        yield self.groups

    @property
    def grouped(self) -> bool:
        return bool(self.groups.display)

    def _hint(self) -> None:
        self.query_one(".hint", Phrases).update(self._hint_text())

    def _list_hint(self) -> Text:
        """Where the errors listed come from, and the keys."""
        if self.note is not None:  # says where these errors come from, in place of the service's window
            return Text.assemble(self.note, " · ", ERRORS_KEYS)
        if self.errors.live_problem:  # "live" over "✖ not updating" read as a contradiction
            return Text(ERRORS_HINT.replace("), live · ", ") · ", 1))
        return Text(ERRORS_HINT)

    def _hint_text(self) -> Text:
        errors = self.errors
        if self.grouped:
            text = Text(GROUPS_HINT)
        elif errors.group is not None:
            text = Text.assemble(
                ("Group ", "bold"),
                visible(errors.group_label, 80),
                f" ({len(errors.rows)}) · esc all errors · R replays these · g groups · / filters · l replay link",
            )
        else:
            text = self._list_hint()
        problem = errors.journal.problem if errors.journal is not None else None
        if problem:
            text.append_text(Text.assemble(("\n✖ replay states unknown: ", "yellow"), visible(problem, 200)))
        if errors.live_problem:
            text.append_text(Text.assemble(("\n✖ not updating: ", "yellow"), visible(errors.live_problem, 200)))
        return text

    @on(ErrorsTable.Updated)
    def _updated(self, event: ErrorsTable.Updated) -> None:
        event.stop()
        if self.grouped and shown(self):
            self.groups.rebuild()
        self._hint()

    @on(ErrorsTable.GroupsWanted)
    def _to_groups(self, event: ErrorsTable.GroupsWanted) -> None:
        event.stop()
        self.errors.display = False
        self.groups.display = True
        self.groups.rebuild()
        self.groups.table.focus()
        self._hint()

    @on(ShowErrors)
    def _to_errors(self, event: ShowErrors) -> None:
        event.stop()
        group = event.group
        self.groups.display = False
        self.errors.display = True
        if group is not None:
            self.errors.show_group(group.key.fingerprint, f"{group.key.name}: {group.sample}")
        self.errors.table.focus()
        self._hint()


__all__ = ["ErrorGroupsView", "ErrorsTab", "state_cell"]
