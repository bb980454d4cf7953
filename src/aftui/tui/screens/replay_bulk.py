"""Bulk replay: many `$errors` events of a workflow, replayed oldest first, one at a time, with one fix.

The screen lists them in the order they will go, each with whether it can
be replayed (or why not), and waits for `ctrl+s`: many requests to a live
endpoint are not sent on the way in. The fix field (`f`) takes one edit for
every payload: a JSON merge patch (`{"customer_email": "ops@x.io"}`) or
`path = value` assignments separated by `;` (`aftui.replay.patch`, as
`aftui replay --patch/--set` reads them). Each row says what the fix
changes in its payload and the highlighted one's changes are listed below;
a fix that cannot be read, or cannot be made on one payload, is said beside
the field and nothing is sent. `d` is a dry run: what would be sent where,
and nothing is. A progress bar follows the run; `s` or esc stops it after
the replay in flight; a summary ends it, and esc hands the outcomes back to
whoever opened the screen (the Errors tab clears the marks of those that
succeeded).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import DataTable, Input, ProgressBar, Static
from textual.widgets.data_table import ColumnKey

from ...api import ApiError, ReadOnlyError
from ...api.models import EventSummary
from ...replay import (
    BulkSummary,
    Planner,
    ReplayPlan,
    ReplayResult,
    Sent,
    full_errors,
    original_order,
    replay_bulk,
)
from ...replay.patch import Change, Edit, PatchError, changes, parse_edit
from ...text import safe_json, visible
from ..focus import focus_now
from ..host import session_of
from ..modals.confirm import ConfirmScreen
from ..safe import plain
from ..session import Session
from ..widgets.board import cut_message
from ..widgets.footer import KeyFooter
from ..widgets.leaving_input import LeavingInput
from ..widgets.row_table import RowTable
from ..widgets.status import StatusHeader
from .events import event_time
from .replay_journal import READ_ONLY_WORDS, ReplayJournal

LOOK_AGAIN_S = 10.0  # how often the run's replays of an outcome unknown are looked for again, as the replay screen does

PREVIEW_LINES = 4
ERROR_WIDTH = 24  # cells of the Error column
NARROW_ERROR_WIDTH = 16  # below WIDE columns: the Replay column's outcome stays in sight, not scrolled off
WIDE = 100
FIX_DEBOUNCE_S = 0.15
NO_FIX = "no fix: each is sent as it was · f types one"

MARKS = {
    "succeeded": ("✔ succeeded", "green"),
    "failed": ("✖ failed again", "red"),
    "skipped": ("– skipped", "dim"),
    "not ready": ("… not ready", "yellow"),
}


def _error_text(event: EventSummary) -> Text | None:
    error = event.error()
    if error is None:
        return None
    return plain(f"{error.error.code or 'Error'}: {error.error.msg or ''}", 120)


def _error_cell(event: EventSummary, width: int) -> Text:
    text = _error_text(event)
    if text is None:
        return Text("not a workflow error", style="dim")
    # Cut as the errors list cuts it: rows of one failure differ at their message's end, not at its name.
    return cut_message(text, width)


def _unknown(result: ReplayResult) -> bool:
    return result.outcome.kind == "unknown"


def _result_cell(result: ReplayResult) -> Text:
    """The outcome; a new error is spelled out only when it is not the one the row already shows."""
    outcome = result.outcome
    words, style = MARKS.get(outcome.kind, (f"? {outcome.words}", "yellow"))
    if outcome.kind == "succeeded":
        return Text(words, style=style)
    shown = _error_text(result.plan.event)  # the row's error, whole: the cell may show it cut
    if outcome.kind == "failed" and shown is not None and shown.plain == visible(outcome.detail, 120):
        return Text(words, style=style)
    return Text.assemble((words, style), ": ", plain(outcome.detail, 80, "" if outcome.kind == "failed" else "dim"))


def change_words(found: list[Change]) -> Text:
    """The Change cell: what the fix does to one payload, in a few words."""
    if not found:
        return Text("no change", style="dim")
    if len(found) > 1:
        return Text(f"{len(found)} changes", style="cyan")
    mark = {"added": "+", "removed": "-", "changed": "~"}[found[0].kind]
    return Text.assemble((mark, "bold cyan"), plain(found[0].path, 40, "cyan"))


def _value(value: Any) -> Text:
    return plain(safe_json(value, indent=None) if not isinstance(value, str) else json.dumps(value), 60)


def change_lines(found: list[Change], limit: int = PREVIEW_LINES) -> list[Text]:
    """`+ customer_email: "ops@x.io"`, `~ quantity: 1 → 2`, `- debug (was true)`; then how many more."""
    lines = []
    for change in found[:limit]:
        if change.kind == "added":
            lines.append(Text.assemble(("+ ", "bold green"), plain(change.path, 60), ": ", _value(change.after)))
        elif change.kind == "removed":
            lines.append(
                Text.assemble(
                    ("- ", "bold red"), plain(change.path, 60), (" (was ", "dim"), _value(change.before), (")", "dim")
                )
            )
        else:
            lines.append(
                Text.assemble(
                    ("~ ", "bold yellow"),
                    plain(change.path, 60),
                    ": ",
                    _value(change.before),
                    " → ",
                    _value(change.after),
                )
            )
    if len(found) > limit:
        lines.append(Text(f"… and {len(found) - limit} more", style="dim"))
    return lines


def _edit_all(
    edit: Edit, problem: str | None, plans: list[tuple[str, ReplayPlan | None]]
) -> tuple[dict[str, Any], dict[str, str], dict[str, list[Change]]]:
    """Runs on a thread: each replayable payload with the fix, why it cannot be made, what it changes."""
    bodies: dict[str, Any] = {}
    problems: dict[str, str] = {}
    found: dict[str, list[Change]] = {}
    if edit.empty or problem:
        return bodies, problems, found
    for ident, plan in plans:
        if plan is None or not plan.replayable:
            continue
        try:
            bodies[ident] = edit.apply(plan.payload)
        except PatchError as error:
            problems[ident] = str(error)
            continue
        found[ident] = changes(plan.payload, bodies[ident])
    return bodies, problems, found


def _plan_cell(plan: ReplayPlan) -> Text:
    """The Replay cell before the run: ready, or why not (for now only, when the service did not answer)."""
    if plan.replayable:
        return Text("ready", style="dim")
    said = "– not ready: " if plan.transient else "– can't: "
    return Text.assemble((said, "yellow"), plain(plan.reason, 80, "dim"))


def left_out(count: int) -> str:
    """What the title's count leaves out, said after what it takes, so that "19 errors of … (the group …; 1 more
    left out: …)" reads as 19 of 20: said first, a newcomer could not tell whether 19 counted it."""
    if not count:
        return ""
    which = "itself a replay" if count == 1 else "replays themselves"
    return f"; {count} more left out: replayed ok already, pending, sent with the outcome unknown, or {which}"


class BulkReplayScreen(Screen["BulkSummary | None"]):
    QUIET_FOR_ALERTS = True  # alerts are counted in the header, not put over the work (app._alerted)
    BINDINGS = [
        Binding("ctrl+s", "start", "Replay all"),  # not r: `r r` to refresh must never send
        Binding("d", "dry_run", "Dry run"),
        Binding("f", "fix", "Fix"),
        Binding("s", "stop", "Stop"),
        # Plans again those an outage kept from being made (it does by itself once the service answers): the
        # screen stayed "not ready … HTTP 503" after it was back, and `r` did nothing (an on-call walk).
        Binding("r", "refresh", "Refresh", show=False),
        # esc stops a run, else goes back: two bindings, so the footer says the one it does now (the first
        # enabled wins; check_action leaves "stop" out once the run is over).
        Binding("escape", "stop", "Stop"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(
        self, events: list[EventSummary], workflow_id: str, *, title: str | None = None, left: int = 0
    ) -> None:
        super().__init__()
        self.events = original_order(events)
        self.workflow_id = workflow_id
        self.what = title  # what was taken ("the group …", "3 marked"), said in the title
        self.left = left  # how many of those asked for were left out (replayed ok already, pending, replays)
        self.plans: dict[str, ReplayPlan] = {}
        self.summary: BulkSummary | None = None
        self.running = False
        self.stop_event = asyncio.Event()
        self.journal: ReplayJournal | None = None
        self.planner: Planner | None = None
        self.planned = False
        self._dry_run_waiting = False  # d pressed while the runs or the fix were still being checked
        self.edit = Edit()
        self.edit_problem: str | None = None  # the fix cannot be read
        self.bodies: dict[str, Any] = {}  # event id -> the edited payload
        self.body_problems: dict[str, str] = {}  # event id -> why the fix cannot be made on its payload
        self.found: dict[str, list[Change]] = {}  # event id -> what the fix changes
        self.dry_run_done = False
        self.checked: Edit | None = self.edit  # the fix the Change column and the line beside it are for
        self._given_back: str | None = None  # the fix typed when this was last open, put back in the field

    @property
    def session(self) -> Session:
        return session_of(self)

    def held(self) -> str | None:
        """What a pane key would lose (None: nothing, and it closes this screen, as a detail's does): a run on
        its way, or a fix typed and not sent. Without one, `4` here was refused and said no reason."""
        if self.running:
            return "a bulk replay being sent: s stops it"
        if self.summary is None and self.query_one("#fix", Input).value.strip():
            return "a fix typed and not sent: ctrl+s sends it"
        return None

    @property
    def _error_width(self) -> int:
        return ERROR_WIDTH if self.app.size.width >= WIDE else NARROW_ERROR_WIDTH

    def compose(self) -> ComposeResult:
        error = next((e.error() for e in self.events if e.error() is not None), None)
        name = (error.original_context.workflow_name if error else None) or self.workflow_id
        yield StatusHeader()
        title = Text.assemble(
            ("Bulk replay: ", "bold"),
            f"{len(self.events)} error{'s' if len(self.events) != 1 else ''} of ",
            plain(name, 50, "bold"),
            (f" ({visible(self.what, 100)}{left_out(self.left)})" if self.what else "", "dim"),
            (", oldest first, one at a time, each with the fix below, or as it was without one", "dim"),
        )
        title.no_wrap, title.overflow = False, "fold"
        yield Static(title, classes="title")
        with Horizontal(id="fix-row"):
            yield Static(Text("Fix", style="bold"), classes="label")
            # A template, not a value: a real-looking fix here was read, late at night, as one already typed.
            # Not selected as `f` comes back to it: a fix is mended, and a backspace took all of it.
            yield LeavingInput(
                placeholder='path.to.field = value   or   {"a": "JSON merge patch"}', id="fix", select_on_focus=False
            )
        yield Static(Text(NO_FIX, style="dim"), id="fix-check")
        table: DataTable[Text] = RowTable()
        table.add_column("#", key="n", width=3)
        table.add_column("Time UTC", key="time", width=14)
        table.add_column("Error", key="error", width=self._error_width)
        table.add_column("Change", key="change", width=15)
        table.add_column("Replay", key="result")
        yield table
        yield Static(id="preview")
        yield ProgressBar(total=max(1, len(self.events)), show_eta=False)
        yield Static(Text("Checking how each run started…", style="dim"), id="summary")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(StatusHeader).sync()
        self.journal = ReplayJournal(self.session)
        self.set_interval(LOOK_AGAIN_S, self._look_again)
        table = self.query_one(DataTable)
        for n, event in enumerate(self.events, start=1):
            table.add_row(
                Text(str(n)),
                event_time(event),
                _error_cell(event, self._error_width),
                Text("—", style="dim"),
                Text("…", style="dim"),
                key=self._key(event, n),
            )
        table.focus()
        self.call_after_refresh(self._fit_result)
        self._plan_all()
        kept = self.session.bulk_fixes.get(self._fix_key)
        if kept:
            self._given_back = kept  # said beside the fix's check while it is unchanged
            self.query_one("#fix", Input).value = kept  # checked as if typed (`_fix_changed`)

    @property
    def _fix_key(self) -> tuple[str, str]:
        return (self.workflow_id, self.what or "")

    def on_unmount(self) -> None:
        if self.journal is not None:
            self.journal.close()

    @staticmethod
    def _key(event: EventSummary, n: int) -> str:
        return f"{n}:{event.id}"

    @staticmethod
    def _ident(event: EventSummary, index: int) -> str:
        return event.id or str(index)

    def _cell(self, index: int, text: Text, column: str = "result") -> None:
        table = self.query_one(DataTable)
        if (
            column == "result"
        ):  # one line, cut with an ellipsis at the column's end: the line under the table has it whole
            text.no_wrap, text.overflow = True, "ellipsis"
        table.update_cell(self._key(self.events[index], index + 1), column, text)

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit_result)  # once the table has its new size

    def _fit_result(self) -> None:
        """The Replay column takes the width the others leave: grown to its longest cell, "? unknown: no new error
        and no…" ran off the screen's edge, cut there with nothing to say so (and the table scrolled sideways)."""
        table = self.query_one(DataTable)
        column = table.columns.get(ColumnKey("result"))
        if column is None:
            return
        others = sum(c.get_render_width(table) for key, c in table.columns.items() if key != "result")
        rest = table.size.width - others - table.styles.scrollbar_size_vertical - 2 * table.cell_padding
        if rest > 8:
            column.auto_width, column.width = False, rest
            table.refresh()

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
                    self._key(event, index + 1), "error", _error_cell(event, self._error_width), update_width=False
                )
        except ApiError as error:
            self._say(Text.assemble(("Could not read the errors in full: ", "yellow"), visible(error.message, 200)))
        for index, event in enumerate(self.events):
            try:
                plan = await self.planner.plan(event, self.workflow_id)
            except ApiError as error:
                self._cell(index, Text.assemble(("can't tell: ", "yellow"), plain(error.message, 80)))
                continue
            self.plans[self._ident(event, index)] = plan
            self._cell(index, _plan_cell(plan))
        self.planned = True
        self._apply_edit()
        self._say(self._ready_text())

    def _ready(self) -> int:
        return sum(1 for p in self.plans.values() if p.replayable)

    def _ready_text(self) -> Text:
        ready = self._ready()
        if self.session.read_only:
            return Text.assemble(("✖ ", "bold red"), READ_ONLY_WORDS, ("  d dry run · esc goes back", "dim"))
        not_ready = sum(1 for p in self.plans.values() if p.transient)
        if not_ready:  # "None of these can be replayed" read as final
            # Not "did not answer": it may have answered 503, as the header says.
            words = f"{not_ready} of these {len(self.events)} are not ready, the service failed: planned again once it answers"
            return Text.assemble(
                (f"{words} (r now).", "yellow"),
                (f" {ready} ready: ctrl+s replays them.", "bold") if ready else "",
            )
        if not ready:
            return Text.assemble(
                ("None of these can be replayed (see why beside each). ", "yellow"), ("esc goes back", "dim")
            )
        if self.checked is not self.edit:
            return Text("Checking the fix against every payload…", style="dim")
        if self._fix_refusal() is not None:
            return Text.assemble(
                ("The fix cannot be made (see beside it): nothing will be sent. ", "bold red"),
                ("f fix · esc goes back", "dim"),
            )
        rest = len(self.events) - ready
        return Text.assemble(
            ("ctrl+s replays ", "bold"),
            f"{ready} error{'s' if ready != 1 else ''}",
            " with the fix" if not self.edit.empty else "",
            f" ({rest} will be skipped)" if rest else "",
            (" · f fix · d dry run · esc goes back", "dim"),
        )

    # --- the fix -------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The footer offers what can be done now: stop while the run is on; the fix, the dry run and the
        run before it (dimmed while it runs), not once it is done (they only refused then)."""
        if action == "stop":
            return self.running
        if action == "refresh":
            return not self.running and self.summary is None
        if action in ("start", "dry_run", "fix"):
            if self.summary is not None or (self.planned and not self._ready()):
                return False  # done, or none of them can be sent (a timer's runs): ^s and f offered nothing
            return None if self.running else True
        return True

    def action_fix(self) -> None:
        if self.running or self.summary is not None:
            return
        focus_now(self.query_one("#fix", Input))

    @on(Input.Changed, "#fix")
    def _fix_changed(self, event: Input.Changed) -> None:
        kept = self.session.bulk_fixes
        if event.value.strip():
            kept[self._fix_key] = event.value
        else:
            kept.pop(self._fix_key, None)
        try:
            self.edit, self.edit_problem = parse_edit(event.value), None
        except PatchError as problem:
            self.edit, self.edit_problem = Edit(), str(problem)
        self.dry_run_done = False
        self.checked = None
        self._apply_edit()

    @on(Input.Submitted, "#fix")
    def _fix_done(self, event: Input.Submitted) -> None:
        focus_now(self.query_one(DataTable))

    @work(group="bulk-fix", exclusive=True, exit_on_error=False)
    async def _apply_edit(self) -> None:
        """The fix on every payload, on a thread (payloads can be big; typing goes on meanwhile), then the
        Change column, the line beside the field and the preview. `checked` says which fix they are for."""
        edit, problem = self.edit, self.edit_problem
        await asyncio.sleep(FIX_DEBOUNCE_S)  # a newer key press cancels this one (exclusive)
        plans = [
            (self._ident(event, index), self.plans.get(self._ident(event, index)))
            for index, event in enumerate(self.events)
        ]
        bodies, problems, found = await asyncio.to_thread(_edit_all, edit, problem, plans)
        if edit is not self.edit:
            return  # typed on meanwhile: a newer check follows
        self.bodies, self.body_problems, self.found = bodies, problems, found
        for index, (ident, _) in enumerate(plans):
            if ident in problems:
                self._cell(index, Text("✖ cannot", style="bold red"), "change")
            elif ident in found:
                self._cell(index, change_words(found[ident]), "change")
            else:
                self._cell(index, Text("—", style="dim"), "change")
        self.checked = edit
        check = self.query_one("#fix-check", Static)
        check.update(self._fix_text())
        check.set_class(self._fix_refusal() is not None, "problem")
        self._preview()
        if self.planned and not self.running and self.summary is None:
            self._say(self._ready_text())
            if self._dry_run_waiting:
                self._dry_run_waiting = False
                self.action_dry_run()

    def _fix_text(self) -> Text:
        if self.edit_problem:
            return Text.assemble(
                ("✖ ", "bold red"), visible(self.edit_problem, 300), (" · nothing will be sent", "red")
            )
        if self.body_problems:
            first = next(iter(self.body_problems.values()))
            n = len(self.body_problems)
            return Text.assemble(
                ("✖ ", "bold red"),
                f"the fix cannot be made on {n} payload{'s' if n != 1 else ''}: ",
                visible(first, 200),
                (" · nothing will be sent", "red"),
            )
        if self.edit.empty:
            return Text(NO_FIX, style="dim")
        if not self.bodies:  # a green "changes 0 of 0 payloads" read as a fix that would go
            if not self.planned:
                return Text("the fix is checked once each payload is read…", style="dim")
            if any(p.transient for p in self.plans.values()):  # "nothing to change" had the fix rewritten
                return Text("the fix is checked once the service answers: the payloads could not be read", "yellow")
            return Text("none of these can be replayed: the fix has nothing to change", style="yellow")
        kind = "merge patch" if self.edit.patch is not None else "assignments"
        changed = sum(1 for found in self.found.values() if found)
        text = Text.assemble(("✔ ", "bold green"), f"{kind}: changes {changed} of {len(self.bodies)} payloads")
        if self._given_back is not None and self.query_one("#fix", Input).value == self._given_back:
            # Not a fix typed just now: one sent with it unseen would be a replay the user did not mean.
            text.append(" · typed when you were last here: ctrl+u in the field clears it", style="bold yellow")
        else:
            text.append(" · enter: to the list", style="dim")
        return text

    def _fix_refusal(self) -> str | None:
        if self.checked is not self.edit:
            return "The fix is being checked against every payload; a moment."
        if self.edit_problem:
            return f"Not sent: the fix cannot be read: {self.edit_problem}"
        if self.body_problems:
            ident, why = next(iter(self.body_problems.items()))
            return f"Not sent: the fix cannot be made on error {ident}: {why}"
        return None

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._preview()

    def _preview(self) -> None:
        preview = self.query_one("#preview", Static)
        row = self.query_one(DataTable).cursor_row
        fixing = not self.edit.empty and not self.edit_problem
        if not (fixing or self.dry_run_done) or not 0 <= row < len(self.events):
            preview.display = False
            return
        event = self.events[row]
        ident = self._ident(event, row)
        plan = self.plans.get(ident)
        head = Text.assemble(("#", "dim"), str(row + 1), " ", plain(event.id, 30, "dim"), ": ")
        lines = self._changes_of(ident, plan) if fixing else []
        if self.dry_run_done and plan is not None and plan.request is not None:
            verb = "sent " if self.summary is not None else "would send "  # the dry run's words, until a real run
            sent = Text.assemble((verb, "bold"), plan.request.method, " ", plain(plan.request.full_url, 300))
            lines = [sent, *lines]
        if not lines:
            preview.display = False
            return
        preview.update(Text("\n").join([Text.assemble(head, lines[0]), *lines[1:]]))
        preview.display = True

    def _changes_of(self, ident: str, plan: ReplayPlan | None) -> list[Text]:
        """What the fix does to one payload, line by line (or why it cannot be made)."""
        if ident in self.body_problems:
            return [Text.assemble(("✖ cannot be made: ", "bold red"), visible(self.body_problems[ident], 200))]
        if ident in self.found:
            return change_lines(self.found[ident]) or [Text("the fix changes nothing in this payload", style="dim")]
        if plan is not None and not plan.replayable:
            said = "not ready to replay: " if plan.transient else "cannot be replayed: "
            return [Text.assemble((said, "dim"), visible(plan.reason or "", 200))]
        return [Text("still being checked", style="dim")]

    # --- the dry run -----------------------------------------------------------------------------

    def _ready_to_send(self, *, focus_fix: bool = False) -> bool:
        """Whether every run's plan is in and the fix applies to every payload; when not, says why
        (and with `focus_fix`, puts the cursor in the fix the payloads refused)."""
        if not self.planned:
            self.notify("Still checking how each run started; a moment.", severity="warning", markup=False)
            return False
        refusal = self._fix_refusal()
        if refusal is not None:
            self.notify(visible(refusal, 400), severity="error", markup=False)
            if focus_fix:
                self.query_one("#fix", Input).focus()
            return False
        return True

    def action_dry_run(self) -> None:
        if self.running:
            return
        if not self.planned or self.checked is not self.edit:
            # Typed with the fix (`…⏎d`) or pressed as the screen opens: run once the check is in, not refused.
            self._dry_run_waiting = True
            self._say(Text("Dry run once every run and the fix are checked…", style="dim"))
            return
        if not self._ready_to_send():
            return
        for index, event in enumerate(self.events):
            plan = self.plans.get(self._ident(event, index))
            if plan is None or plan.request is None:
                continue
            edited = self._ident(event, index) in self.bodies
            self._cell(
                index,
                Text.assemble(
                    ("would send ", "bold"), ("edited" if edited else "as it was", "cyan" if edited else "dim")
                ),
            )
        ready = self._ready()
        self.dry_run_done = True
        self._preview()
        self._say(
            Text.assemble(
                ("Dry run: ", "bold"),
                f"{ready} of {len(self.events)} would be sent",
                " with the fix" if self.bodies else " as they were",
                "; nothing was sent. ",
                ("ctrl+s replays them · esc goes back", "dim"),
            )
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
        if not self._ready_to_send(focus_fix=True):
            return
        if not self.edit.empty:
            self._run()
            return
        # Without a fix, many requests go at once as they failed: a newcomer's 19 failed again in 2 s, more
        # than doubling the hour's errors, before `s` could be pressed. Asked first, as a delete is.
        ready = self._ready()

        def answered(yes: bool | None) -> None:
            if yes and not self.running and self.summary is None:
                self._run()

        self.app.push_screen(as_they_were_question(ready), answered)

    def _edited_body(self, plan: ReplayPlan) -> Any:
        """The fix on this plan's payload (checked on every payload before the run began)."""
        return self.edit.apply(plan.payload)

    @work(group="bulk-run", exclusive=True, exit_on_error=False)
    async def _run(self) -> None:
        self.running = True
        self.refresh_bindings()
        self.query_one("#fix", Input).disabled = True
        self.stop_event.clear()
        bar = self.query_one(ProgressBar)
        bar.update(total=len(self.events), progress=0)
        self._say(Text("Replaying… s or esc stops after the one in flight", style="bold"))
        journal = self.journal
        assert journal is not None
        try:
            await asyncio.to_thread(journal.open)
            with journal.sending():
                self.summary = await replay_bulk(
                    self.session.client,
                    self.events,
                    self.workflow_id,
                    log=journal.log,
                    on_seen=journal.seen(self.workflow_id),
                    on_progress=self._progress,
                    on_watch=self._watching,
                    stop=self.stop_event,
                    planner=self.planner,
                    edit=None if self.edit.empty else self._edited_body,
                )
        except ReadOnlyError:
            self._say(Text(READ_ONLY_WORDS, style="red"))
            return
        finally:
            self.running = False
            self.refresh_bindings()
        self._say(self._summary_text(self.summary))
        self._preview()  # the line under the table said "would send" of the row just sent

    def _progress(self, index: int, summary: BulkSummary, result: ReplayResult | None) -> None:
        if result is None:
            self._cell(index, Text("sending…", style="bold"))
            self.query_one(DataTable).move_cursor(row=index, animate=False)
            return
        self._cell(index, _result_cell(result))
        self.query_one(ProgressBar).update(progress=len(summary.results))

    def _watching(self, index: int, sent: Sent) -> None:
        """Its endpoint took it: the row said "sending…" through the whole watch for its outcome."""
        if self.is_attached:
            self._cell(index, Text("sent · watching…", style="bold"))

    def _look_again(self) -> None:
        summary = self.summary
        if summary is not None and not self.running and any(_unknown(r) for r in summary.results):
            self._settle_unknown()
        elif self._not_ready():
            self._probe_then_plan()

    @work(group="bulk-probe", exclusive=True, exit_on_error=False)
    async def _probe_then_plan(self) -> None:
        """One read of the workflow; answered, what the outage kept from being planned is planned now. The screen
        stayed "not ready" after the service was back (an on-call walk), and no state of the client's says so
        by itself: its last answer may be the 503."""
        try:
            await self.session.client.get_workflow(self.workflow_id)
        except ApiError:
            return
        if self._not_ready():
            self.action_refresh()

    def _not_ready(self) -> int:
        """Plans an outage kept from being made, while nothing was sent (before a run)."""
        if not self.planned or self.running or self.summary is not None:
            return 0
        return sum(1 for p in self.plans.values() if p.transient)

    def action_refresh(self) -> None:
        if self.running or self.summary is not None:
            return
        self.planned = False
        self.plans.clear()
        for index in range(len(self.events)):
            self._cell(index, Text("…", style="dim"))
        self._say(Text("Planning again: reading each run's request…", style="dim"))
        self._plan_all()

    @work(group="bulk-settle", exclusive=True, exit_on_error=False)
    async def _settle_unknown(self) -> None:
        """The replays of this run whose outcome was unknown (an outage), looked for again every LOOK_AGAIN_S: the
        rows and "Stopped: 1 unknown" stayed so after the service was back and the runs could be seen."""
        summary, journal = self.summary, self.journal
        if summary is None or journal is None or journal.log is None:
            return
        log = journal.log
        ids = [r.replay_id for r in summary.results if _unknown(r) and r.replay_id]
        rows = await asyncio.to_thread(log.touching, self.workflow_id, [], ids)
        found = await journal.settle(rows, {e.id or "": e for e in self.events})
        if not found:
            return
        for n, result in enumerate(summary.results):
            seen = found.get(result.replay_id or "")
            if seen is None:
                continue
            summary.results[n] = replace(result, outcome=seen.outcome)
            index = next((i for i, e in enumerate(self.events) if e.id == result.plan.event_id), None)
            if index is not None:
                self._cell(index, _result_cell(summary.results[n]))
        self._say(self._summary_text(summary))

    def _summary_text(self, summary: BulkSummary) -> Text:
        head = "Stopped" if summary.stopped else "Done"
        text = Text.assemble((f"{head}: ", "bold"), summary.line())
        reasons: dict[tuple[str, str], int] = {}
        for result in summary.results:
            if result.outcome.kind in ("skipped", "not ready"):
                said = (result.outcome.kind, result.outcome.detail)
                reasons[said] = reasons.get(said, 0) + 1
        for (kind, reason), n in reasons.items():
            text.append_text(Text.assemble((f"\n  {kind} ", "dim"), f"{n}: ", visible(reason, 200)))
        if self.journal is not None and self.journal.problem:
            text.append_text(Text.assemble(("\nnot journaled: ", "yellow"), visible(self.journal.problem, 200)))
        text.append("\nesc goes back", style="dim")
        return text

    def action_stop(self) -> None:
        if self.running and not self.stop_event.is_set():
            self.stop_event.set()
            self._say(Text("Stopping after the replay in flight…", style="bold yellow"))

    def action_back(self) -> None:
        if self.running:
            self.action_stop()  # the footer says "Stop" then: what esc did before must not turn into a leave
        elif self.focused is self.query_one("#fix", Input):
            self.query_one(DataTable).focus()  # esc leaves the field, keeping what was typed
        else:
            self.dismiss(self.summary)


def as_they_were_question(count: int) -> ConfirmScreen:
    """Asked before a bulk replay without a fix: what it sends, and what that can and cannot fix."""
    one = count == 1  # "Replay 1 error as they were?", "each of the 1 error": said of one, as one
    errors = "1 error" if one else f"{count} errors"
    what = [
        "No fix is given: it is sent as it failed."
        if one
        else f"No fix is given: each of the {errors} is sent as it failed.",
        (
            "That fixes a cause that has passed (a timeout, a service that was down), not a payload the workflow "
            "refuses: those fail again, each a new error."
        ),
        ("It is" if one else "Each is")
        + " a new run of the workflow: its steps run again. f types a fix; d shows what would be sent.",
    ]
    title = "Replay 1 error as it was?" if one else f"Replay {errors} as they were?"
    return ConfirmScreen(title, what, action="Replay as it was" if one else "Replay as they were", destructive=False)
