"""Bulk replay: many `$errors` events of a workflow, replayed as they were, oldest first, one at a time.

The screen lists them in the order they will go, each with whether it can
be replayed (or why not), and waits for `ctrl+s`: many requests to a live
endpoint are not sent on the way in. A progress bar follows the run; `s` or
esc stops it after the replay in flight; a summary ends it.
"""

from __future__ import annotations

import asyncio

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, ProgressBar, Static

from ...api import ApiError, ReadOnlyError
from ...api.models import EventSummary
from ...replay import (
    BulkSummary,
    Planner,
    ReplayPlan,
    ReplayResult,
    full_errors,
    original_order,
    replay_bulk,
)
from ...text import visible
from ..host import session_of
from ..safe import plain
from ..session import Session
from ..widgets.footer import KeyFooter
from ..widgets.status import StatusHeader
from .events import event_time
from .replay_journal import READ_ONLY_WORDS, ReplayJournal

MARKS = {"succeeded": ("✔ succeeded", "green"), "failed": ("✖ failed again", "red"), "skipped": ("– skipped", "dim")}


def _error_cell(event: EventSummary) -> Text:
    error = event.error()
    if error is None:
        return Text("not a workflow error", style="dim")
    return plain(f"{error.error.code or 'Error'}: {error.error.msg or ''}", 120)


def _result_cell(result: ReplayResult) -> Text:
    """The outcome; a new error is spelled out only when it is not the one the row already shows."""
    outcome = result.outcome
    words, style = MARKS.get(outcome.kind, (f"? {outcome.words}", "yellow"))
    if outcome.kind == "succeeded":
        return Text(words, style=style)
    if outcome.kind == "failed" and _error_cell(result.plan.event).plain == visible(outcome.detail, 120):
        return Text(words, style=style)
    return Text.assemble((words, style), ": ", plain(outcome.detail, 80, "" if outcome.kind == "failed" else "dim"))


class BulkReplayScreen(Screen[None]):
    BINDINGS = [
        Binding("ctrl+s", "start", "Replay all"),  # not r: `r r` to refresh must never send
        Binding("s", "stop", "Stop"),
        Binding("escape", "stop_or_back", "Stop / Back"),
    ]

    def __init__(self, events: list[EventSummary], workflow_id: str) -> None:
        super().__init__()
        self.events = original_order(events)
        self.workflow_id = workflow_id
        self.plans: dict[str, ReplayPlan] = {}
        self.summary: BulkSummary | None = None
        self.running = False
        self.stop_event = asyncio.Event()
        self.journal: ReplayJournal | None = None
        self.planner: Planner | None = None
        self.planned = False

    @property
    def session(self) -> Session:
        return session_of(self)

    def compose(self) -> ComposeResult:
        error = next((e.error() for e in self.events if e.error() is not None), None)
        name = (error.original_context.workflow_name if error else None) or self.workflow_id
        yield StatusHeader()
        title = Text.assemble(
            ("Bulk replay: ", "bold"),
            f"{len(self.events)} error{'s' if len(self.events) != 1 else ''} of ",
            plain(name, 50, "bold"),
            (", oldest first, one at a time, each as it was", "dim"),
        )
        title.no_wrap, title.overflow = False, "fold"
        yield Static(title, classes="title")
        table: DataTable[Text] = DataTable(cursor_type="row", zebra_stripes=True)
        table.add_column("#", key="n", width=3)
        table.add_column("Time", key="time", width=14)
        table.add_column("Error", key="error", width=30)
        table.add_column("Replay", key="result")
        yield table
        yield ProgressBar(total=max(1, len(self.events)), show_eta=False)
        yield Static(Text("Checking how each run started…", style="dim"), id="summary")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(StatusHeader).sync()
        self.journal = ReplayJournal(self.session)
        table = self.query_one(DataTable)
        for n, event in enumerate(self.events, start=1):
            table.add_row(
                Text(str(n)), event_time(event), _error_cell(event), Text("…", style="dim"), key=self._key(event, n)
            )
        table.focus()
        self._plan_all()

    def on_unmount(self) -> None:
        if self.journal is not None:
            self.journal.close()

    @staticmethod
    def _key(event: EventSummary, n: int) -> str:
        return f"{n}:{event.id}"

    def _cell(self, index: int, text: Text) -> None:
        table = self.query_one(DataTable)
        table.update_cell(self._key(self.events[index], index + 1), "result", text, update_width=True)

    def _say(self, text: Text) -> None:
        self.query_one("#summary", Static).update(text)

    # --- planning ------------------------------------------------------------------------------------

    @work(group="bulk-plan", exclusive=True, exit_on_error=False)
    async def _plan_all(self) -> None:
        self.planner = Planner(self.session.client)
        try:
            self.events = await full_errors(self.session.client, self.events, self.workflow_id)
            for index, event in enumerate(self.events):
                self.query_one(DataTable).update_cell(
                    self._key(event, index + 1), "error", _error_cell(event), update_width=False
                )
        except ApiError as error:
            self._say(Text.assemble(("Could not read the errors in full: ", "yellow"), visible(error.message, 200)))
        for index, event in enumerate(self.events):
            try:
                plan = await self.planner.plan(event, self.workflow_id)
            except ApiError as error:
                self._cell(index, Text.assemble(("can't tell: ", "yellow"), plain(error.message, 80)))
                continue
            self.plans[event.id or str(index)] = plan
            self._cell(
                index,
                Text("ready", style="dim")
                if plan.replayable
                else Text.assemble(("– can't: ", "yellow"), plain(plan.reason, 80, "dim")),
            )
        self.planned = True
        self._say(self._ready_text())

    def _ready_text(self) -> Text:
        ready = sum(1 for p in self.plans.values() if p.replayable)
        if self.session.read_only:
            return Text.assemble(("✖ ", "bold red"), READ_ONLY_WORDS, ("  esc goes back", "dim"))
        if not ready:
            return Text.assemble(
                ("None of these can be replayed (see why beside each). ", "yellow"), ("esc goes back", "dim")
            )
        rest = len(self.events) - ready
        return Text.assemble(
            ("ctrl+s replays ", "bold"),
            f"{ready} error{'s' if ready != 1 else ''}",
            f" ({rest} will be skipped)" if rest else "",
            (" · s or esc stops · esc goes back", "dim"),
        )

    # --- running -------------------------------------------------------------------------------------

    def action_start(self) -> None:
        if self.running:
            return
        if self.summary is not None:
            self.notify(
                "These errors were replayed already; open the bulk replay again to replay them again.",
                severity="warning",
                markup=False,
            )
            return
        if self.session.read_only:
            self.notify(READ_ONLY_WORDS, severity="warning", markup=False)
            return
        if not self.planned:
            self.notify("Still checking how each run started; a moment.", severity="warning", markup=False)
            return
        self._run()

    @work(group="bulk-run", exclusive=True, exit_on_error=False)
    async def _run(self) -> None:
        self.running = True
        self.stop_event.clear()
        bar = self.query_one(ProgressBar)
        bar.update(total=len(self.events), progress=0)
        self._say(Text("Replaying… s or esc stops after the one in flight", style="bold"))
        journal = self.journal
        assert journal is not None
        try:
            await asyncio.to_thread(journal.open)
            self.summary = await replay_bulk(
                self.session.client,
                self.events,
                self.workflow_id,
                log=journal.log,
                on_seen=journal.seen(self.workflow_id),
                on_progress=self._progress,
                stop=self.stop_event,
                planner=self.planner,
            )
        except ReadOnlyError:
            self._say(Text(READ_ONLY_WORDS, style="red"))
            return
        finally:
            self.running = False
        self._say(self._summary_text(self.summary))

    def _progress(self, index: int, summary: BulkSummary, result: ReplayResult | None) -> None:
        if result is None:
            self._cell(index, Text("sending…", style="bold"))
            self.query_one(DataTable).move_cursor(row=index, animate=False)
            return
        self._cell(index, _result_cell(result))
        self.query_one(ProgressBar).update(progress=len(summary.results))

    def _summary_text(self, summary: BulkSummary) -> Text:
        head = "Stopped" if summary.stopped else "Done"
        text = Text.assemble((f"{head}: ", "bold"), summary.line())
        reasons: dict[str, int] = {}
        for result in summary.results:
            if result.outcome.kind == "skipped":
                reasons[result.outcome.detail] = reasons.get(result.outcome.detail, 0) + 1
        for reason, n in reasons.items():
            text.append_text(Text.assemble(("\n  skipped ", "dim"), f"{n}: ", visible(reason, 200)))
        if self.journal is not None and self.journal.problem:
            text.append_text(Text.assemble(("\nnot journaled: ", "yellow"), visible(self.journal.problem, 200)))
        text.append("\nesc goes back", style="dim")
        return text

    def action_stop(self) -> None:
        if self.running and not self.stop_event.is_set():
            self.stop_event.set()
            self._say(Text("Stopping after the replay in flight…", style="bold yellow"))

    def action_stop_or_back(self) -> None:
        if self.running:
            self.action_stop()
        else:
            self.app.pop_screen()
