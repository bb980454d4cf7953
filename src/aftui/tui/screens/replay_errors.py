"""Replay where errors are listed: the workflow detail's Errors tab and an error opened from it.

In both, `y` opens the replay of the error as it was and `e` opens it in
the editor first; nothing is sent until `ctrl+s` there. `r` stays refresh,
as everywhere. In the Errors tab `space` marks errors and `R` opens the bulk
replay of the marked ones, or of every error shown when none is marked (a
`/` filter or a group narrows that down first); on the way back the marks
of those that succeeded are cleared and the others kept.

The tab is live (`LiveEvents`): while it is shown new errors come in on
top, and each look that finds none reads the replay states again. Every
row says its replay state, read from the journal's replay records
(`aftui.replay.states`): never replayed, pending, replayed ok, failed
again; an error a replay led to is tagged `↻ of` the original's time, and
`l` goes from an original to what its replay became and back.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from rich.text import Text
from textual import work
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen

from ...api.eventid import event_key
from ...api.models import EventSummary, Page
from ...fingerprint import error_key
from ...journal.replays import ReplayRow
from ...replay import BulkSummary
from ...replay.settle import unknown_of
from ...replay.states import ReplayState, needs_replay, replay_states, touching_rows
from ...replay.who import sent_by
from ...starts import unsendable_start_of
from ...text import visible
from ..host import session_of
from ..safe import plain
from ..widgets.fields import Fields
from ..widgets.json_view import dumps
from ..widgets.paged_table import Column
from .events import EventScreen, event_time
from .live_events import LiveEvents
from .replay import open_bulk_replay, open_replay
from .replay_journal import ReplayJournal, found_words

STATE_S = 1.0  # how often an error's detail reads its replays again: the answer to "is it fixed?"
LOOK_AGAIN_S = 30.0  # how often replays of an outcome unknown are looked for again (two reads of the service)
PAYLOAD_SEARCHED = 65_536  # characters of an error's payload its filter searches

STATE_CELLS: dict[str, tuple[str, str]] = {
    "never": ("never", "dim"),
    "pending": ("… pending", "yellow"),
    "succeeded": ("✔ replayed ok", "green"),
    "failed": ("✖ failed again", "red"),
    "rejected": ("? refused", "yellow"),
    "unknown": ("? unknown", "yellow"),
    "not sent": ("? not sent", "yellow"),
}


def unsendable(event: EventSummary) -> bool:
    """Started by what no replay can send again (`starts.py`), as far as the error alone says."""
    return unsendable_start_of(event) is not None


def no_link_words(state: ReplayState | None) -> str:
    """Why `l` has no error to go to. "This error was not replayed" was said of one replayed ok: a replay that
    went through leads to an event, not an error, and `l` links errors."""
    if state is not None and state.is_replay:
        return "This error is a replay, but the journal does not say of which error."
    if state is not None and state.replays:
        return (
            f"No error to go to: its replay did not fail again ({state.words}); "
            "l links an error to the error its replay became."
        )
    return "This error was not replayed and is not a replay."


def _time_of_id(event_id: str | None) -> str:
    """`15:04:29` (UTC) from an id of the service's `<epoch-ms>-<seq>` form, else "": an original not among the
    rows kept (the journal's, in an outage) made its replays read "↻ a replay" beside others' "↻ of 15:04:29"."""
    key = event_key(event_id)
    return datetime.fromtimestamp(key[0] / 1000, tz=UTC).strftime("%H:%M:%S") if key else ""


class ErrorsTable(LiveEvents):
    KEYS_AREA = "The errors"  # its heading in `?`

    BINDINGS = [
        Binding("y", "replay", "Replay…"),
        Binding("e", "edit_replay", "Edit & replay…"),
        Binding("space", "mark", "Mark ↓"),  # and the next row: space, space, space marks a run
        Binding("R", "bulk", "Bulk replay…"),
        Binding("g", "groups", "Groups"),
        Binding("l", "linked", "Replay link"),
    ]

    class Updated(Message):
        """The errors, their states or the group shown changed: the groups view and the hint follow."""

    class GroupsWanted(Message):
        """`g`: show the errors grouped."""

    def __init__(
        self,
        fetch: Callable[..., Awaitable[Page[EventSummary]]],
        columns: list[Column[EventSummary]],
        *,
        workflow_id: str,
        steps: dict[str, str] | None = None,
        peek: Callable[..., Awaitable[Page[EventSummary]]] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(
            fetch,
            [
                Column("mark", " ", self._mark_cell, width=1),
                Column("replay", "Replay", self._state_cell, sort=self._state_sort, width=14),
                Column("by", "Replayed", self._by_cell, width=18, hide_rank=2),
                *columns,
            ],
            peek=peek,
            **kwargs,
        )
        self.workflow_id = workflow_id
        self.steps = steps or {}
        self.marked: set[str] = set()
        self.states: dict[str, ReplayState] = {}
        self.group: str | None = None  # the fingerprint of the group shown, if one is
        self.group_label = ""
        self.journal: ReplayJournal | None = None
        self._fingerprints: dict[str, str] = {}
        self._payloads: dict[str, str] = {}  # error id -> its payload as the filter searches it
        self._said_problem = False  # the journal cannot be read: said in the hint once
        self._away = False  # a replay screen was opened from here: its errors may have grown
        self._looked_again = float("-inf")  # when replays of an outcome unknown were last looked for (monotonic)

    def on_mount(self) -> None:  # PagedTable's own on_mount (the first load) runs as well: Textual calls each class's
        self.app.screen_change_signal.subscribe(self, self._screen_changed)
        self.journal = ReplayJournal(session_of(self))

    def on_unmount(self) -> None:
        journal, self.journal = self.journal, None  # a states read still on its thread finds none
        if journal is not None:
            journal.close()

    def _screen_changed(self, screen: Screen[Any]) -> None:
        """Back from a replay: load the list again, so new errors (a replay that failed again) show, and read the
        states at once from the journal: in an outage the list could not be loaded again, and the error just
        replayed said "never" for as long as it lasted."""
        if self._away and screen is self.screen:
            self._away = False
            self.reload()
            self.read_states()

    # --- cells ---------------------------------------------------------------------------------------

    def _mark_cell(self, event: EventSummary) -> Text:
        return Text("●", style="bold cyan") if (event.id or "") in self.marked else Text(" ")

    def _state_cell(self, event: EventSummary) -> Text:
        state = self.states.get(event.id or "")
        if state is None:
            return Text("")
        if state.is_replay and state.kind == "never":
            original = self.item(state.replay_of) if state.replay_of else None
            when = event_time(original).plain[-8:] if original is not None else _time_of_id(state.replay_of)
            return Text(f"↻ of {when}" if when else "↻ a replay", style="cyan")
        if state.kind == "never" and not state.is_replay and unsendable(event):
            return Text("can't replay", style="dim")  # "never" read as "not yet" for runs no replay can start
        words, style = STATE_CELLS.get(state.kind, (state.kind, "yellow"))
        return Text(("↻" if state.is_replay else "") + words, style=style)

    def _by_cell(self, event: EventSummary) -> Text:
        """Who sent the newest replay of this error, and when: a teammate's replay is seen before a second one."""
        state = self.states.get(event.id or "")
        if state is None or not state.replays:
            return Text("")
        session = session_of(self)
        now = session.now().timestamp()  # the session's clock (fixed in snapshots)
        return plain(sent_by(state.replays[0], now, session.me).removeprefix("by "), 18, "dim")

    def _state_sort(self, event: EventSummary) -> str:
        return self._state_cell(event).plain

    def item(self, ident: str | None) -> EventSummary | None:
        return next((e for e in self.pager.items if e.id == ident), None) if ident else None

    def fingerprint(self, event: EventSummary) -> str:
        ident = event.id or ""
        if ident not in self._fingerprints:
            key = error_key(event, self.steps, self.workflow_id)
            self._fingerprints[ident] = key.fingerprint if key else ""
        return self._fingerprints[ident]

    # --- rows: the group shown, states after every change ----------------------------------------------

    def _matches(self, item: EventSummary) -> bool:
        if self.group is not None and self.fingerprint(item) != self.group:
            return False
        if super()._matches(item):
            return True
        # The run's payload too, as the monitor's filter does: an order id is in the payload, not in the line.
        return self.filter_text.lower() in self._payload_text(item)

    def _payload_text(self, event: EventSummary) -> str:
        """The error's original event as compact JSON, lower-cased and capped (read once an error)."""
        ident = event.id or ""
        if ident not in self._payloads:
            error = event.error()
            original = error.original_event if error is not None else event.event
            self._payloads[ident] = dumps(original, indent=None)[:PAYLOAD_SEARCHED].lower()
        return self._payloads[ident]

    def _rebuild(self, *, full: bool = True) -> None:
        if len(self._payloads) > len(self.pager.items):  # up to 64 KB an error: only those still loaded are kept
            loaded = {e.id or "" for e in self.pager.items}
            self._payloads = {ident: text for ident, text in self._payloads.items() if ident in loaded}
        super()._rebuild(full=full)
        self.read_states()
        self.post_message(self.Updated())

    def show_group(self, fingerprint: str | None, label: str = "") -> None:
        """Only the errors of this failure (None: all of them)."""
        self.group, self.group_label = fingerprint, label
        self._rebuild()
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "clear_filter" and (self.group is not None or self.marked):
            return True  # esc takes the group away, after any filter, then the marks
        return super().check_action(action, parameters)

    def action_clear_filter(self) -> None:
        if self.filter_text or self.has_class("filtering"):
            super().action_clear_filter()
        elif self.group is not None:
            self.show_group(None)
        elif self.marked:
            # A pane key refused to leave over the marks ("leave this one with esc first"), and then esc left
            # and dropped them without a word. Now esc unmarks first, as it clears a filter, and says so.
            count, self.marked = len(self.marked), set()
            self.redraw()
            self.update_status()
            self.notify(f"{count} mark{'s' * (count != 1)} cleared · esc again goes back", title="esc", timeout=4)

    # --- live (LiveEvents) --------------------------------------------------------------------------------

    def nothing_new(self) -> None:
        self.read_states()  # a replay sent meanwhile (here or by a teammate) changes a row's state, not the list

    def live_changed(self) -> None:
        self.post_message(self.Updated())  # said in the tab's hint, under the groups as well

    @work(group="errors-states", exclusive=True, exit_on_error=False)
    async def read_states(self) -> None:
        """Each error's replay state from the journal (on a thread); the rows are drawn again if one changed."""
        items = list(self.loaded)
        read = await asyncio.to_thread(self._states_of, items)
        if read is None:
            if self.journal is not None and self.journal.problem and not self._said_problem:
                self._said_problem = True
                self.post_message(self.Updated())
            return
        rows, states = read
        if unknown_of(rows) and time.monotonic() - self._looked_again >= LOOK_AGAIN_S:
            self._looked_again = time.monotonic()
            self._look_again(rows, items)
        changed = any(self.states.get(ident) != state for ident, state in states.items())
        self.states = states
        if not changed:
            return
        self.redraw()  # the rows read their state as they are drawn (a replay's cell names its original too)
        self.post_message(self.Updated())

    def _states_of(self, items: list[EventSummary]) -> tuple[list[ReplayRow], dict[str, ReplayState]] | None:
        """The replay rows touching `items`, and each one's state; None with no journal to read (blocking)."""
        journal = self.journal
        if journal is None:
            return None
        journal.open()
        if journal.log is None:  # no journal to read: every state unknown (the tab's hint says why)
            return None
        rows = touching_rows(journal.log, self.workflow_id, items)
        return rows, replay_states(items, rows)

    @work(group="errors-settle", exclusive=True, exit_on_error=False)
    async def _look_again(self, rows: list[ReplayRow], items: list[EventSummary]) -> None:
        """The replays sent with an outcome unknown, looked for among the workflow's newest errors and events: an
        outage's replays otherwise stayed "? unknown", out of every bulk replay, for good."""
        journal = self.journal
        if journal is None:
            return
        found = await journal.settle(rows, {e.id: e for e in items if e.id})
        if not found:
            return
        self.notify(
            f"{found_words(found)}: {'replays' if len(found) > 1 else 'a replay'} sent with the outcome unknown, "
            "now seen in the workflow's errors and events",
            title="Replay outcome found",
            timeout=8,
        )
        self.read_states()

    # --- actions ------------------------------------------------------------------------------------------

    def _selected(self) -> EventSummary | None:
        event = self.current
        if event is None:
            self.notify("No error is selected.", severity="warning", markup=False)
        return event

    def action_replay(self) -> None:
        event = self._selected()
        if event is not None:
            self._away = True
            open_replay(self.app, event, self.workflow_id)

    def action_edit_replay(self) -> None:
        event = self._selected()
        if event is not None:
            self._away = True
            open_replay(self.app, event, self.workflow_id, edit=True)

    def action_mark(self) -> None:
        event = self._selected()
        if event is None or not event.id:
            return
        self.marked.symmetric_difference_update({event.id})
        self._marks_after = ()
        self.redraw()
        self.update_status()
        self.table.action_cursor_move(1)  # as in every list (the monitor too): a run is space, space, space

    def action_bulk(self) -> None:
        """The marked errors, else those shown (the filter's, the group's); of either, those that still fail.

        A marked error replayed ok already was sent again with the rest, without a word, where `y` on it asks
        first: a second order run. It is left out, and said to be; `y` replays it again."""
        marked = [e for e in self.pager.items if (e.id or "") in self.marked]
        chosen = marked or self.rows
        events = [e for e in chosen if needs_replay(self.states.get(e.id or ""))]
        if not events:
            if marked:
                words = "Every marked error was replayed ok, is pending, has an outcome unknown or is a replay: y on one replays it again."
            elif not self.rows:
                words = "There are no errors to replay."
            else:
                words = "Every error shown was replayed ok, is pending, has an outcome unknown or is a replay."
            self.notify(words, severity="warning", markup=False)
            return
        if marked:
            what = "marked" if len(events) < len(marked) else f"{len(marked)} marked"
        elif self.group is not None:
            what = f"the group {self.group_label}"
        elif self.filter_text:
            what = f"all matching “{self.filter_text}”"
        else:
            what = "all shown"
        self.bulk(events, what, left=len(chosen) - len(events))

    def bulk(self, events: list[EventSummary], what: str, *, left: int = 0) -> None:
        """The bulk replay of these errors (`left`: how many of those asked for were left out, replayed ok already
        or pending); on the way back, marks of those that succeeded are cleared."""
        self._away = True
        open_bulk_replay(self.app, events, self.workflow_id, title=what, left=left, done=self._bulk_done)

    def _bulk_done(self, summary: BulkSummary | None) -> None:
        if summary is None:
            return
        tried = {r.plan.event_id for r in summary.results}
        succeeded = {r.plan.event_id for r in summary.results if r.outcome.kind == "succeeded"}
        cleared = self.marked & succeeded
        kept = (self.marked & tried) - succeeded
        self.marked -= succeeded
        if cleared:
            self.redraw()
        if cleared or kept:
            # In the list's own line, not a toast: that followed the user back to Health, over its last line.
            said = [f"{len(cleared)} replayed ok, unmarked"] if cleared else []
            if kept:
                said.append(f"{len(kept)} did not succeed, still marked")
            self._marks_after = tuple(said)
            self.update_status()

    _marks_after: tuple[str, ...] = ()  # what the last bulk replay did to the marks, until they change again

    def status_parts(self) -> list[str]:
        marks = [f"{len(self.marked)} marked"] if self.marked else []
        return marks + list(self._marks_after) + self.newer_above()

    def action_groups(self) -> None:
        self.post_message(self.GroupsWanted())

    def action_linked(self) -> None:
        """From an original to the error its replay became, and from that error back to the original."""
        event = self._selected()
        if event is None:
            return
        state = self.states.get(event.id or "")
        target = (state.replay_of or (state.became[0] if state.became else None)) if state else None
        if target is None:
            self.notify(no_link_words(state), severity="warning", markup=False)
            return
        words = "the original error" if state is not None and state.replay_of == target else "what its replay became"
        if target not in {self.item_id(e) for e in self.rows} and self.item(target) is not None:
            self.group = None
            if self.filter_text or self.has_class("filtering"):
                super().action_clear_filter()
            self._rebuild()
        ids = [self.item_id(e) for e in self.rows]
        if target not in ids:
            self.notify(
                f"{words.capitalize()} ({visible(target, 30)}) is no longer among the errors the service keeps.",
                severity="warning",
                markup=False,
            )
            return
        self.table.move_cursor(ids.index(target))
        self.notify(f"↻ {words}: {visible(target, 30)}", markup=False)


def state_rows(state: ReplayState | None, now: float | None = None, me: str | None = None) -> list[tuple[str, Any]]:
    """The Replays rows of an error's detail: its replays with their outcomes, and what it is a replay of."""
    rows: list[tuple[str, Any]] = []
    if state is None:
        return rows
    if state.is_replay:
        rows.append(
            (
                "Replay of",
                Text.assemble(
                    plain(state.replay_of, 40, "cyan") if state.replay_of else Text("an error", style="dim"),
                    (" (replay ", "dim"),
                    plain(state.replay_id, 30, "dim"),
                    (")", "dim"),
                ),
            )
        )
    if not state.replays:
        rows.append(("Replays", Text("never replayed", style="dim")))
    for n, row in enumerate(state.replays):
        words, style = STATE_CELLS.get(row.outcome, (row.outcome, "yellow"))
        line = Text.assemble(
            (words, style), ("  ", ""), (sent_by(row, now, me), ""), ("  ", ""), plain(row.replay_id, 30, "dim")
        )
        if row.edited:
            line.append("  edited", style="dim")
        if row.outcome == "failed" and row.outcome_event_id:
            line.append_text(Text.assemble(("  became ", "dim"), plain(row.outcome_event_id, 40, "cyan")))
        rows.append(("Replays" if n == 0 else "", line))
    return rows


class ErrorEventScreen(EventScreen):
    """An error opened from the Errors tab: the event screen, with replay on `y` and `e` (`r` refreshes),
    and its replays (or what it is a replay of) from the journal."""

    BINDINGS = [
        Binding("y", "replay", "Replay…"),
        Binding("e", "edit_replay", "Edit & replay…"),
        Binding("l", "linked", "Replay link"),
    ]

    def __init__(
        self, *args: Any, state: ReplayState | None = None, listing: ErrorsTable | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, errors=True, **kwargs)
        self.state = state
        self.listing = listing  # the list it was opened from: where the linked error is looked up

    def on_mount(self) -> None:  # the detail's own on_mount (the load) runs as well
        self.set_interval(STATE_S, self._follow_state)

    def on_screen_resume(self) -> None:
        self._follow_state()  # back from a replay of it: its outcome, or "pending", at once

    def _follow_state(self) -> None:
        """Its replays as the journal has them now. They were read once, when it opened: back from replaying
        it, the detail said "never replayed" while the list behind it said "replayed ok"."""
        listing = self.listing
        if listing is None or self.app.screen is not self:
            return
        state = listing.states.get(self.ident)
        if state is not None and state != self.state:
            self.state = state
            for fields in self.query("#overview").results(Fields):
                fields.set_rows(self.overview_rows())
        listing.read_states()  # its list is not shown: it reads them for this screen, seen on the next call

    def action_linked(self) -> None:
        """Open the error this one is a replay of, or the one its replay became."""
        state = self.state
        target = (state.replay_of or (state.became[0] if state.became else None)) if state else None
        if target is None:
            self.notify(no_link_words(state), severity="warning", markup=False)
            return
        event = self.listing.item(target) if self.listing is not None else None
        if event is None or self.listing is None:
            self.notify(
                f"{visible(target, 30)} is no longer among the errors listed.", severity="warning", markup=False
            )
            return
        crumbs = (*self.crumbs[:-1], f"error {target}")
        self.app.push_screen(
            ErrorEventScreen(
                target,
                crumbs,
                record=event,
                workflow_id=self.workflow_id,
                state=self.listing.states.get(target),
                listing=self.listing,
            )
        )

    def overview_rows(self) -> list[tuple[str, Any]]:
        session = session_of(self)
        rows = state_rows(self.state, session.now().timestamp(), session.me)
        # The step by its name, as the list it came from says it (the error itself knows only its cell's id).
        steps = self.listing.steps if self.listing is not None else {}
        own = [(k, f"{steps[v]} ({v})" if k == "Step" and v in steps else v) for k, v in super().overview_rows()]
        return [*own, *([("", ""), *rows] if rows else [])]

    def action_replay(self) -> None:
        open_replay(self.app, self.record, self.workflow_id or "")

    def action_edit_replay(self) -> None:
        open_replay(self.app, self.record, self.workflow_id or "", edit=True)


__all__ = ["ErrorEventScreen", "ErrorsTable", "state_rows", "unsendable"]
