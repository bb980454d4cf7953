"""The live monitor: sources, workflows' events and `$errors` in one timeline.

The feeds run on the monitor core's own thread (aftui.monitor.Monitor); this
screen takes a batch from it four times a second and only renders. The list
(widgets/timeline.py) draws the visible rows; the detail pane shows the
selected event's JSON, fetched in full with expand=event when it was cut.
History: on opening, the journal's newest events of what is watched; `h`
searches the whole journal (FTS5) for the watched emitters.
"""

from __future__ import annotations

import logging
import sqlite3
import sys
import time
from collections import deque
from functools import partial
from operator import attrgetter

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.dom import DOMNode
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input, Sparkline, Static

from ...api import ApiError
from ...api.models import EventSummary
from ...api.paging import Fetch
from ...config import data_dir
from ...export import export_ndjson
from ...monitor import (
    Batch,
    Matcher,
    Record,
    Tap,
    Target,
)
from ...monitor.feeds import INPUT_FIRST_S
from ...monitor.rate import rate_words
from ...replay import BulkSummary
from ...text import visible
from ..change import said_by
from ..clipboard import copy_text
from ..collector import collect_if_due, hold_full_collections, release_full_collections, rows_kept
from ..feeds_told import FeedsTold
from ..focus import focus_now
from ..host import host, session_of
from ..retry import AutoRetry
from ..session import Session
from ..widgets.footer import KeyFooter
from ..widgets.in_order_input import InOrderInput
from ..widgets.json_view import JsonView, dumps
from ..widgets.status import StatusHeader
from ..widgets.timeline import Timeline
from .monitor_lines import detail_head, streams_text
from .monitor_targets import default_targets, subject_targets, targets_of
from .watch import WatchScreen

log = logging.getLogger("aftui.tui")

TAKE_EVERY_S = 0.25  # batches a second: often enough to feel live, rarely enough to stay cheap
LIVE_CAP = 10_000  # records kept in memory; the journal has the rest
BURST_TAKE = 1_000  # records in one take that say a burst: they are frozen out of the collector's way after it
WAITING_CAP = 10_000  # records held while paused; the count goes on beyond it
DETAIL_DELAY_S = 0.1  # the detail follows the cursor once it rests this long
DETAIL_DELAY_FOLLOWING_S = 0.4  # longer than a take: during a burst the detail waits for the burst to end
SWITCH_INTERVAL_S = 0.0005  # see on_mount
FILTER_DELAY_S = 0.3
SPARK_SECONDS = 30


def open_monitor(node: DOMNode, targets: list[Target] | None = None) -> None:
    """Open the monitor on `targets`; None: what the current screen shows (a source, a workflow), else the
    workspace (every source and the known workflows' `$errors`). `node`: the app, or any widget of it."""
    if host(node).session is None:
        return
    app = node.app
    targets = targets or targets_of(app.screen)
    open_one = next((s for s in app.screen_stack if isinstance(s, MonitorScreen)), None)
    if open_one is not None and open_one is app.screen:
        if targets:
            open_one.watch_targets(targets)
        return
    if open_one is not None:
        app.notify("The monitor is open already, under this screen: esc goes back to it.", markup=False)
        return
    app.push_screen(MonitorScreen(targets))


OUT_OF_ORDER_MS = 1_000


_event_ms = attrgetter("time_ms")  # when the service indexed the event (when it was seen, without that stamp)


class MonitorScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("slash", "filter", "Filter"),
        # One key, its word as it is now: the footer said "p Pause" while paused (check_action picks one).
        Binding("p", "pause", "Pause"),
        Binding("p", "resume", "Resume"),
        Binding("f", "follow", "Follow"),
        Binding("E", "errors_only", "Errors only"),
        Binding("w", "choose", "Watch"),
        Binding("h", "history", "History"),
        Binding("space", "mark", "Mark ↓"),  # and the next row: space, space, space marks a run
        Binding("y", "replay", "Replay…"),
        Binding("e", "edit_replay", "Edit & replay…"),
        Binding("R", "bulk_replay", "Replay marked…"),
        Binding("x", "export", "Export"),
        Binding("c", "copy", "Copy JSON"),
        Binding("d", "toggle_detail", "Detail", show=False),
        # As in every list, enter opens the row: here its detail beside (shown if hidden), to walk and fold.
        Binding("enter", "open_detail", "Open", show=False),
    ]

    def __init__(self, targets: list[Target] | None = None) -> None:
        super().__init__()
        self.initial = targets
        self._listing = AutoRetry(self, self._watch_default, now_key=None)  # the workspace, when it could not be
        self._listing_note = ""  # listed: when it is tried again
        self.monitor: Tap | None = None  # its reading of the session's Monitor, which Health shares
        self.records: list[Record] = []  # the live buffer, oldest first, at most LIVE_CAP
        self.waiting: deque[Record] = deque(maxlen=WAITING_CAP)
        self.waiting_total = 0  # arrived while paused (beyond WAITING_CAP too)
        self.waiting_shown = 0  # of those, what the filter lets through: what a resume adds to the list
        self._unkept = 0  # records taken and not yet frozen (`rows_kept`): a burst's wait for its end
        self.paused = False
        self.errors_only = False
        self.matcher: Matcher | None = None
        self.history: list[Record] | None = None  # the timeline shows journal search results instead of live events
        self.history_query = ""
        self.input_mode = ""  # "filter" or "history" while the box is open
        self.last: Batch | None = None
        self._detail_timer: Timer | None = None
        self._filter_timer: Timer | None = None
        self._full_fetched: set[int] = set()
        self._switch_interval = sys.getswitchinterval()
        self._took_at = 0.0  # monotonic: the last take
        self._told = FeedsTold()  # what the header was last told of the feeds' connection

    @property
    def session(self) -> Session:
        return session_of(self)

    @property
    def timeline(self) -> Timeline:
        return self.query_one(Timeline)

    # --- layout ------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        with Horizontal(id="monitor-bar"):
            yield Static(Text("connecting…", style="dim"), id="monitor-streams")
            yield Static(id="monitor-rate")
            yield Sparkline([0] * SPARK_SECONDS, id="monitor-spark")
        yield InOrderInput(id="monitor-query", disabled=True)
        with Horizontal(id="monitor-body"):
            yield Timeline(cap=LIVE_CAP, clock=lambda: self.session.now().timestamp(), id="monitor-timeline")
            with Vertical(id="monitor-detail"):
                yield Static(Text("No event selected.", style="dim"), id="monitor-detail-head")
                yield JsonView(id="monitor-json")
        yield Static(id="monitor-status")
        yield KeyFooter()

    def on_mount(self) -> None:
        # The feeds and the journal writer are Python threads: a thread that wants the GIL waits for the
        # holder's switch interval (5 ms by default) at every turn of the UI's event loop. 0.5 ms keeps key
        # presses answered during a burst, for a few per cent of throughput. Restored on unmount.
        self._switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_INTERVAL_S)
        # Nor is a key kept waiting while the monitor's thread walks the heap with the GIL held (the
        # interpreter's own full collections, which a burst triggers there): they are made on this
        # thread, after a take. Released on unmount.
        hold_full_collections()
        self.query_one(StatusHeader).sync()
        self.monitor = self.session.feeds().tap()
        self.set_interval(TAKE_EVERY_S, self._take)
        self.timeline.focus()
        self._layout_for(self.size.width)
        if self.initial:
            self.watch_targets(self.initial)
        else:
            self._watch_default()
        self._update_status()

    def on_unmount(self) -> None:
        self._told.stop(host(self), self.session.client)
        if self.monitor is not None:
            self.monitor.close()  # its last events go to the journal writer, which the session closes on exit
        sys.setswitchinterval(self._switch_interval)
        release_full_collections()

    def _ui_first(self) -> None:
        """The frame that shows a batch is drawn without the feeds' competition (as a key's is: the App's
        `_feeds_input_first`)."""
        if self.monitor is not None:
            self.monitor.gate.hold(INPUT_FIRST_S)
            self.call_after_refresh(self.monitor.gate.let_go)

    def on_resize(self) -> None:
        self._layout_for(self.size.width)

    def _layout_for(self, width: int) -> None:
        self.set_class(width < 110, "narrow")

    # --- what is watched -----------------------------------------------------------------------------

    def watch_targets(self, targets: list[Target]) -> None:
        assert self.monitor is not None
        self.monitor.watch(targets)
        self.timeline.set_show_names(len({t.emitter_id for t in targets}) != 1)
        self._update_status()

    @work(group="monitor-default", exclusive=True, exit_on_error=False)
    async def _watch_default(self) -> None:
        """The workspace's sources and workflows; listed again with backoff while the service fails (opened
        during an outage, the monitor stayed empty once the service was back), until `w` chooses instead."""
        try:
            targets = await default_targets(self.session)
        except ApiError as error:
            later = self._listing.schedule(error)
            self._listing_note = f"the workspace not listed: {later}" if later else ""
            known = self._health_targets()
            if known and self.monitor is not None and (self._standing_in or not self.monitor.targets):
                # What Health listed before the outage: opened during a 503 the monitor said "no streams" and
                # showed nothing, not even what the journal kept (an on-call walk). Replaced once listed.
                if not self._standing_in:
                    self._standing_in = True
                    self.watch_targets(known)
                self._listing_note = f"the workspace not listed: watching the {len(known)} Health knows"
            self._update_status()
            if self._listing.failures <= 1:  # said once; the status line says when it is tried again
                then = f"; {later}" if later else ""
                self.notify(
                    f"Could not list the workspace's sources: {visible(error.message, 300)}{then}. w chooses what to watch.",
                    title=said_by(error),
                    severity="error",
                    markup=False,
                )
            return
        self._listing.succeeded()
        self._listing_note = ""
        if self.monitor is not None and self.monitor.targets and not self._standing_in:
            return  # chosen with w meanwhile
        self._standing_in = False
        if not targets:
            self.notify("Nothing to watch in this workspace yet: w chooses sources and workflows.", markup=False)
        self.watch_targets(targets)

    _standing_in = False  # watching Health's subjects while the workspace cannot be listed

    def _health_targets(self) -> list[Target]:
        """Health's sources and workflows (their `$errors`), as `default_targets` makes them from a listing."""
        watch = host(self).health
        return subject_targets(watch.board.subjects()) if watch is not None else []

    def action_choose(self) -> None:
        current = self.monitor.targets if self.monitor else []

        def chosen(targets: list[Target] | None) -> None:
            if targets is not None:
                self._standing_in = False
                self._listing.cancel()  # the user's choice: the workspace is not listed again over it
                self._listing_note = ""
                self.watch_targets(targets)

        self.app.push_screen(WatchScreen(current), chosen)

    # --- taking batches ------------------------------------------------------------------------------

    def _take(self) -> None:
        if self.monitor is None:
            return
        now = time.monotonic()
        if self.monitor.gate.answering_input and now - self._took_at < 2 * TAKE_EVERY_S:
            return  # a key's frame first, without a take's rows in it: the take waits a tick, never two
        self._took_at = now
        if self.monitor.closed:  # the session's feeds were closed (a credential fixed): read the new ones
            targets, self.monitor = self.monitor.targets, self.session.feeds().tap(history=0)  # shown already
            self.monitor.watch(targets)
        batch = self.monitor.take()
        # The screen keeps the records, not the batch: in a burst, those beyond the cap die once added.
        new, batch.records = batch.records, []
        self.last = batch
        if new:
            self._ui_first()  # the frame that shows them is drawn without the feeds' competition
        for problem in batch.errors:
            self.notify(visible(problem, 300), severity="warning", markup=False)
        if new:
            if self.paused:
                # What came before the monitor opened (the journal's history) is no arrival to hold: p pressed
                # at once had kept it all waiting, "576 waiting · 0 shown". Live records wait.
                history = [record for record in new if record.history]
                live = [record for record in new if not record.history] if history else new
                if history:
                    self._add(history)
                self.waiting.extend(live)
                self.waiting_total += len(live)
                self.waiting_shown += len(self._shown(live))
            else:
                self._add(new)
        count = len(new)
        new.clear()  # before the collection below: it need not walk the records dropped for the cap
        self._unkept += min(count, LIVE_CAP)
        burst = count >= BURST_TAKE
        if self._unkept and not burst:
            # Records are long-lived: out of the collector's way, or every full collection walks all
            # 10,000 again and the UI stalls (as in PagedTable). Dropped ones go by refcount. Not in a burst:
            # the collection before a freeze walks the take's records, 10 ms a key would wait for, and full
            # collections are held meanwhile (on_mount).
            rows_kept(self._unkept)
            self._unkept = 0
        collect_if_due(busy=burst)  # full collections are ours while the monitor is open (on_mount)
        self._update_bar(batch)
        self._update_status()

    def _add(self, new: list[Record]) -> None:
        if not new:
            return  # a resume with nothing waiting: nothing to place, and no time to place it by
        records = self.records
        # A feed's backlog (the retained events read on open, or after a reconnect) can be minutes older than
        # what is shown: merge it in by time. Two live feeds interleaving by a few ms are left in arrival order.
        times = list(map(_event_ms, new))
        before = [_event_ms(records[-1]) if records else times[0], *times]
        # t < prev - OUT_OF_ORDER_MS for any neighbours, with the loop in C: a burst brings thousands a take.
        out_of_order = any(map(int.__lt__, times, map(OUT_OF_ORDER_MS.__rsub__, before)))
        if not out_of_order and len(new) > LIVE_CAP:
            new = new[-LIVE_CAP:]  # the rest would be dropped for the cap below: not shown, not walked
        records.extend(new)
        if out_of_order:
            records.sort(key=_event_ms)
        if len(records) > LIVE_CAP:
            del records[: len(records) - LIVE_CAP]
        if self.history is None:
            if out_of_order:
                self.timeline.replace(self._shown(records))
            else:
                self.timeline.extend(self._shown(new))

    def _shown(self, records: list[Record]) -> list[Record]:
        if not self.errors_only and self.matcher is None:
            return records
        matcher, errors_only = self.matcher, self.errors_only
        return [r for r in records if (not errors_only or r.is_error) and (matcher is None or matcher.matches(r))]

    def _reshow(self) -> None:
        self.timeline.replace(self._shown(self.history if self.history is not None else self.records))
        if self.paused:
            self.waiting_shown = len(self._shown(list(self.waiting)))
        self._update_status()

    # --- the header bar and the status line -------------------------------------------------------

    def _update_bar(self, batch: Batch) -> None:
        # layout=False: these lines have fixed sizes, and a layout four times a second costs a burst dearly.
        line = self.query_one("#monitor-streams", Static)
        line.update(streams_text(batch.states, line.content_region.width), layout=False)
        self._told.tell(host(self), (state for _, state in batch.states.values()))
        rates = batch.rates[-SPARK_SECONDS:]
        self.query_one("#monitor-rate", Static).update(
            # "events/s", not "/s": a bare "1.0/s" beside "● 30 live" was read as a rate of nothing in particular.
            Text(f"{rate_words(batch.rates, batch.watched_s).replace('/', ' events/'):>15} ", style="bold"),
            layout=False,
        )
        self.query_one("#monitor-spark", Sparkline).data = rates

    def _update_status(self) -> None:
        timeline = self.timeline
        parts: list[Text] = []
        if self.history is not None:
            parts.append(
                Text.assemble(
                    ("HISTORY ", "bold reverse"),
                    f" {len(self.history):,} journaled events match ",
                    (visible(self.history_query, 40), "bold"),
                    " · esc: back to live",
                )
            )
        elif self.paused:
            # Filtered, all that came was "8 waiting", and a resume added 2 rows: the count is the filter's too.
            through = (
                f" ({self.waiting_shown:,} pass the filter)" if self.errors_only or self.matcher is not None else ""
            )
            parts.append(
                Text.assemble(
                    ("PAUSED ", "bold black on yellow"), f" {self.waiting_total:,} waiting{through} · p resumes"
                )
            )
        elif timeline.following:
            parts.append(Text("following", style="green"))
        else:
            parts.append(Text("not following · end or f follows", style="yellow"))
        shown = len(timeline.rows)
        total = len(self.history if self.history is not None else self.records)
        # The rows' times are the service's, in UTC as everywhere else (a terminal in Tokyo read 08:03 as local).
        parts.append(Text(f"{shown:,} shown" + (f" of {total:,}" if shown != total else "") + " · times UTC"))
        if self.errors_only:
            parts.append(Text("errors only", style="red"))
        if self.matcher is not None:
            parts.append(Text.assemble("filter ", (visible(self.matcher.text, 30), "bold")))
            if self.matcher.problem:  # a toast while typing was missed: "0 shown" read as "nothing matches"
                parts.append(Text("not a valid regex: matched as typed", style="bold yellow"))
        if timeline.marked:
            parts.append(Text(f"{len(timeline.marked)} marked"))
        journal = self.last.journal if self.last is not None else None
        if journal is not None and not journal.ok:
            # "not journaling: the data dir ... is read-only", "journal: disk full since 14:02, 3,120 waiting"
            parts.append(
                Text(visible(journal.text(), 120), style="bold red" if journal.state == "off" else "bold yellow")
            )
        elif journal is not None and journal.lost:
            parts.append(Text(visible(journal.text(), 120), style="yellow"))
        targets = self.monitor.targets if self.monitor is not None else []
        if not targets or self._standing_in:
            parts.append(Text(self._listing_note or "nothing watched: w chooses", style="yellow"))
        elif self.errors_only and not any(t.kind == "errors" for t in targets):
            parts.append(Text("no workflow's $errors watched: w adds them", style="yellow"))
        self.query_one("#monitor-status", Static).update(Text(" · ").join(parts), layout=False)

    # --- following, pausing, errors only ---------------------------------------------------------------

    def action_follow(self) -> None:
        self.timeline.set_following(not self.timeline.following)
        self._update_status()

    @on(Timeline.FollowChanged)
    def _follow_changed(self) -> None:
        self._update_status()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("pause", "resume"):
            return self.paused == (action == "resume")
        return True

    def action_resume(self) -> None:
        if self.paused:
            self.action_pause()

    def action_pause(self) -> None:
        """p: pause, or resume (each press; the footer shows the word for what it does now)."""
        self.paused = not self.paused
        self.refresh_bindings()
        if not self.paused:
            waiting, self.waiting = list(self.waiting), deque(maxlen=WAITING_CAP)
            self.waiting_total = self.waiting_shown = 0
            self._add(waiting)
        self._update_status()

    def action_errors_only(self) -> None:
        self.errors_only = not self.errors_only
        self._reshow()

    # --- the detail pane ----------------------------------------------------------------------------

    @on(Timeline.CursorMoved)
    def _cursor_moved(self, event: Timeline.CursorMoved) -> None:
        if self._detail_timer is not None:
            self._detail_timer.stop()
        delay = DETAIL_DELAY_FOLLOWING_S if self.timeline.following else DETAIL_DELAY_S
        self._detail_timer = self.set_timer(delay, self._show_detail)

    def _show_detail(self) -> None:
        record = self.timeline.current
        head = self.query_one("#monitor-detail-head", Static)
        view = self.query_one("#monitor-json", JsonView)
        if record is None:
            head.update(Text("No event selected.", style="dim"))
            view.set_data({})
            return
        head.update(detail_head(record))
        # An error's message at once: it showed as "▶ error: {5}", unfolded by hand.
        view.set_data(record.as_json(), unfold=("event", "error") if record.is_error else ())
        if record.event.truncated and record.n not in self._full_fetched:
            self._full_fetched.add(record.n)
            self._fetch_full(record)

    @work(group="monitor-full", exclusive=False, exit_on_error=False)
    async def _fetch_full(self, record: Record) -> None:
        """The whole event (expand=event) in place of its cut summary, from the service's last 100."""
        client, kind, emitter = self.session.client, record.target.kind, record.emitter_id
        lister: Fetch[EventSummary] = client.list_workflow_events
        if kind == "source":
            lister = client.list_source_events
        elif kind == "errors":
            lister = client.list_workflow_errors
        try:
            page = await lister(emitter, expand=True, limit=100)
        except ApiError as error:
            self._note(
                record,
                Text.assemble(("\nthe full event could not be fetched: ", "yellow"), visible(error.message, 200)),
            )
            return
        self.session.journal_events(page.items, emitter)
        full = next((e for e in page.items if e.id == record.event.id), None)
        if full is None:
            self._note(
                record,
                Text("\nno longer among the last 100 kept by the service: the cut summary is shown", style="yellow"),
            )
            return
        record.replace_event(full)
        self.timeline.refresh_record(record)
        if self.timeline.current is record:
            self._show_detail()

    def _note(self, record: Record, note: Text) -> None:
        if self.timeline.current is record:
            self.query_one("#monitor-detail-head", Static).update(Text.assemble(detail_head(record), note))

    def action_toggle_detail(self) -> None:
        detail = self.query_one("#monitor-detail")
        detail.display = not detail.display

    def action_open_detail(self) -> None:
        if self.timeline.current is None:
            return
        self.query_one("#monitor-detail").display = True
        self.query_one("#monitor-json", JsonView).focus()

    # --- filter and history ---------------------------------------------------------------------------

    def action_filter(self) -> None:
        self._open_input(
            "filter",
            self.matcher.text if self.matcher else "",
            "filter: text, or /regex/ · over payload, emitter and channel · esc clears",
        )

    def action_history(self) -> None:
        if self.session.journal is None:
            self.notify("There is no journal to search (it could not be opened).", severity="warning", markup=False)
            return
        self._open_input(
            "history",
            self.history_query,
            'search the journal: words, "a phrase", OR, NOT, prefix* · enter searches · esc closes',
        )

    def _open_input(self, mode: str, value: str, placeholder: str) -> None:
        box = self.query_one("#monitor-query", Input)
        self.input_mode = mode
        box.placeholder = placeholder
        box.value = value
        box.disabled = False
        box.add_class("open")
        focus_now(box)

    def _close_input(self) -> None:
        box = self.query_one("#monitor-query", Input)
        self.input_mode = ""
        box.remove_class("open")
        box.disabled = True
        self.timeline.focus()

    @on(Input.Changed, "#monitor-query")
    def _typed(self, event: Input.Changed) -> None:
        if self.input_mode != "filter":
            return
        if self._filter_timer is not None:
            self._filter_timer.stop()
        self._filter_timer = self.set_timer(FILTER_DELAY_S, partial(self._apply_filter, event.value))

    def _apply_filter(self, text: str) -> None:
        matcher = Matcher.parse(text)
        if matcher is not None and matcher.problem:
            self.notify(matcher.problem, severity="warning", markup=False)
        self.matcher = matcher
        self.timeline.set_matcher(matcher)
        self._reshow()

    @on(Input.Submitted, "#monitor-query")
    def _submitted(self, event: Input.Submitted) -> None:
        if self.input_mode == "filter":
            if self._filter_timer is not None:
                self._filter_timer.stop()
            self._apply_filter(event.value)
        elif self.input_mode == "history":
            self.history_query = event.value.strip()
            self._search(self.history_query)
        self._close_input()

    @work(group="monitor-history", exclusive=True, exit_on_error=False, thread=True)
    def _search(self, query: str) -> None:
        """A blocking SQLite query, on a worker thread."""
        assert self.monitor is not None
        try:
            found = self.monitor.search(query)
        except (sqlite3.Error, OSError) as error:  # a broken journal says so; the monitor goes on
            self.app.call_from_thread(
                self.notify, visible(str(error), 300), title="Journal search failed", severity="error", markup=False
            )
            return
        self.app.call_from_thread(self._show_history, found)

    def _show_history(self, found: list[Record]) -> None:
        self.history = found
        self.timeline.set_following(False)
        self._reshow()
        self.timeline.move_to(len(self.timeline.rows) - 1)
        if not found:
            self.notify(f"Nothing in the journal matches {visible(self.history_query, 60)}.", markup=False)

    def held(self) -> str | None:
        """What closing the monitor for a pane key would lose (None: nothing, it is a view): the marks, the user's
        choice for a bulk replay. The stream goes on in the session (Health's feeds), and `m` opens it again."""
        marked = len(self.timeline.marked)
        return f"{marked} marked event{'s' * (marked != 1)} here" if marked else None

    def action_back(self) -> None:
        """esc: close the box, else back from the detail to the events, else clear the filter, else leave
        history, else leave the monitor."""
        if self.focused is self.query_one("#monitor-json", JsonView) and not self.input_mode:
            self.timeline.focus()  # enter went into the detail: esc comes back, it does not leave the monitor
        elif self.input_mode == "filter":
            self._close_input()
            self._apply_filter("")
        elif self.input_mode:
            self._close_input()
        elif self.matcher is not None:
            self._apply_filter("")
        elif self.history is not None:
            self.history = None
            self.timeline.set_following(True)
            self._reshow()
        elif self.held() is not None:
            self._leave_marked()
        else:
            self.app.pop_screen()

    def _leave_marked(self) -> None:
        """esc over marks asks first, as a pane key refuses: it had dropped them without a word."""
        from ..modals.confirm import ConfirmScreen

        marked = len(self.timeline.marked)
        plural, verb, them = (f"{marked} marked events", "are", "them") if marked != 1 else ("marked event", "is", "it")
        question = ConfirmScreen(
            "Leave the monitor?",
            [f"The {plural} here {verb} unmarked: R replays {them} first."],
            action="Leave",
            destructive=False,
            stay="Stay",
        )

        def answered(leave: bool | None) -> None:
            if leave and self.is_current:
                self.app.pop_screen()

        self.app.push_screen(question, answered)

    # --- marks, copy, export --------------------------------------------------------------------------

    def action_mark(self) -> None:
        """Mark or unmark, then move down, as in every list: a run of events is space, space, space."""
        timeline = self.timeline
        if timeline.toggle_mark() is not None:
            if timeline.cursor < len(timeline.rows) - 1:
                timeline.action_move(1)
            self._update_status()

    def marked_records(self) -> list[Record]:
        """Marked records in the order they arrived (history results included)."""
        marked = self.timeline.marked
        found = {r.n: r for r in [*(self.history or []), *self.records] if r.n in marked}
        return [found[n] for n in sorted(found)]

    def action_copy(self) -> None:
        record = self.timeline.current
        if record is None:
            self.notify("Select an event first.", markup=False)
            return
        text = dumps(record.as_json())
        copy_text(self, text, "the event's JSON")

    def action_export(self) -> None:
        """Marked events, else what the filter shows, else the selected one."""
        if self.timeline.marked:
            records, what = self.marked_records(), "marked"
        elif self.matcher is not None or self.errors_only or self.history is not None:
            records, what = list(self.timeline.rows), "shown"
        else:
            current = self.timeline.current
            records, what = ([current] if current else []), "selected"
        records = [record for record in records if not record.is_gap]  # a gap's row is ours, not the service's
        if not records:
            self.notify("Nothing to export: select, mark (space) or filter (/) events first.", markup=False)
            return
        self._export(records, what)

    @work(group="monitor-export", thread=True, exit_on_error=False)
    def _export(self, records: list[Record], what: str) -> None:
        try:
            folder = (self.session.data or data_dir()) / "exports"
            path, count = export_ndjson((record.as_json() for record in records), folder, "monitor")
        except OSError as error:
            self.app.call_from_thread(
                self.notify, visible(str(error), 300), title="Export failed", severity="error", markup=False
            )
            return
        message = f"Exported {count:,} {what} event{'s' if count != 1 else ''} to {path}"
        self.app.call_from_thread(self.notify, visible(message, 400), title="NDJSON", timeout=10, markup=False)

    # --- replay ---------------------------------------------------------------------------------------

    def _selected_error(self) -> Record | None:
        record = self.timeline.current
        if record is None or not record.is_error:
            self.notify("Replay works on a $errors event: select one (E shows errors only).", markup=False)
            return None
        return record

    def action_replay(self) -> None:
        self._replay(edit=False)

    def action_edit_replay(self) -> None:
        self._replay(edit=True)

    def _replay(self, *, edit: bool) -> None:
        record = self._selected_error()
        if record is not None:
            from .replay import open_replay

            open_replay(self.app, record.event, record.emitter_id, edit=edit)

    def action_bulk_replay(self) -> None:
        errors = [r for r in self.marked_records() if r.is_error]
        if not errors:
            self.notify("Mark $errors events with space first; R replays them in their original order.", markup=False)
            return
        workflows = {r.emitter_id for r in errors}
        if len(workflows) > 1:
            self.notify(
                f"The marked errors come from {len(workflows)} workflows; bulk replay takes one workflow's errors at a time.",
                severity="warning",
                markup=False,
            )
            return
        errors.sort(key=_original_order)
        from .replay import open_bulk_replay

        def done(summary: BulkSummary | None) -> None:
            """Marks of the errors replayed ok are cleared, so they are not replayed twice; the others stay."""
            if summary is None:
                return
            succeeded = {r.plan.event_id for r in summary.results if r.outcome.kind == "succeeded"}
            cleared = {r.n for r in errors if r.event.id in succeeded}
            if cleared & self.timeline.marked:
                self.timeline.marked -= cleared
                self.timeline.refresh_record(errors[0])
                self._update_status()

        open_bulk_replay(self.app, [r.event for r in errors], workflows.pop(), done=done)


def _original_order(record: Record) -> tuple[int, int]:
    return record.event.key or (record.event.indexed_at_ms or 0, record.n)
