"""Workflows: the ones aftui knows in this workspace, and a workflow's (or template's) detail.

The service cannot list workflows (docs/architecture.md). The pane shows what
`session.known` remembers for the workspace and keeps looking where
workflows show up cheaply (aftui/discovery.py): the workspace's
subscriptions and the `$errors` of the workflows already known. Other code
adds what it creates; the user adds ids or dashboard URLs with `a`. Names,
active state and trigger kinds come from GET /workflows/{id}, fetched a few
at a time.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from dataclasses import dataclass
from functools import cached_property, partial
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Button, Input, Static

from ...api import ApiError, AuthError, Client, is_transient
from ...api.models import EventSummary, Page, PageInfo, Step, Trigger, Workflow
from ...discovery import DETAILS_AT_ONCE, DISCOVERY_ROUNDS, Discovery, workflows_in_subscriptions
from ...health import age_words
from ...known import KnownWorkflows, workflow_id_in
from ...schedule import describe_timer
from ...text import visible
from ..change import Guarded, describe_error, said_by
from ..health_cells import health_columns, health_row
from ..host import session_of
from ..journaling import journaled, kept_errors, kept_errors_of_the_day, with_older_errors
from ..messages import AuthFailed
from ..modals.confirm import ConfirmScreen
from ..retry import AutoRetry
from ..safe import flag, plain, when
from ..widgets.fields import Ago, Fields
from ..widgets.footer import KeyFooter
from ..widgets.in_order_input import InOrderInput
from ..widgets.listing import Listing
from ..widgets.paged_table import Column, PagedTable
from ..widgets.pane import Pane
from ..widgets.phrases import Phrases
from .error_groups import ErrorsTab
from .events import EventScreen, event_columns, event_time
from .live_events import LiveEvents
from .replay_errors import ErrorEventScreen, ErrorsTable
from .sources import prop_value
from .stand_in import StandInDetail

FOUND_WORDS = {
    "subscription": "subscription",
    "errors": "$errors",
    "created": "created here",
    "added": "added by you",
    "opened": "opened",
}


def trigger_kinds(workflow: Workflow) -> str:
    return ", ".join(dict.fromkeys(t.kind for t in workflow.triggers)) or "none"


@dataclass(frozen=True)
class KnownRow:
    """One row of the pane: what is remembered, and what GET /workflows/{id} said (if it was read)."""

    id: str
    name: str | None
    found: str
    workflow: Workflow | None = None
    problem: str | None = None

    @property
    def title(self) -> str | None:
        """The service's current name first; the remembered one when the details could not be read."""
        return (self.workflow.name if self.workflow else None) or self.name


def _triggers_cell(row: KnownRow) -> Text:
    if row.workflow is not None:
        return Text(trigger_kinds(row.workflow))
    if row.problem is not None:
        return Text("✖ " + visible(row.problem, 30), style="red")
    return Text("…", style="dim")


def known_columns(health: list[Column[KnownRow]] | None = None) -> list[Column[KnownRow]]:
    """The Workflows list's columns; `health` (health_cells.py) go after Active."""
    return [
        Column(
            "name",
            "Name",
            lambda r: plain(r.title, 60) if r.title else Text("(name not known yet)", style="dim"),
            width=28,
            min_width=16,
            cut="middle",
        ),
        Column("id", "ID", lambda r: plain(r.id, 20, "cyan"), width=10, hide_rank=2),
        Column(
            "active",
            "Active",
            lambda r: flag(r.workflow.active) if r.workflow else Text("—", style="dim"),
            sort=lambda r: r.workflow.active if r.workflow else None,
            width=6,
        ),
        *(health or []),
        Column("triggers", "Triggers", _triggers_cell, width=12),
        Column("found", "Found", lambda r: plain(FOUND_WORDS.get(r.found, r.found), 20, "dim"), width=12, hide_rank=1),
    ]


class KnownTable(PagedTable[KnownRow]):
    """The pane's table: `r` also looks for workflows again, and a row can be picked once it is loaded."""

    class Rediscover(Message):
        """`r`: look again in subscriptions and errors."""

    _select: str | None = None

    def action_refresh(self) -> None:
        super().action_refresh()
        self.post_message(self.Rediscover())

    def select_when_loaded(self, ident: str) -> None:
        self._select = ident

    def _rebuild(self, *, full: bool = True) -> None:
        super()._rebuild(full=full)
        if self._select is not None:
            ids = [r.id for r in self.rows]
            if self._select in ids:
                self.table.move_cursor(ids.index(self._select))
                self._select = None


class WorkflowsPane(Guarded, Pane):
    TITLE = "Workflows"
    CHANGES = frozenset({"toggle_active", "new_workflow"})
    BINDINGS = [
        Binding("n", "new_workflow", "New from template"),
        Binding("a", "add", "Add by id/URL"),
        Binding("x", "forget", "Forget"),
        Binding("t", "toggle_active", "On/off"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.found = Discovery()  # details read, why others could not be, what was forgotten: this workspace
        self._discovering = False
        self._summary: Text = Text("")
        self._seen: dict[str, Any] = {}

    @property
    def org(self) -> str:
        """The key of this workspace in the known-workflows file."""
        return self.session.org_id or ""

    def known(self) -> dict[str, dict[str, Any]]:
        return {k: dict(v) for k, v in self.session.known.in_workspace(self.org).items() if isinstance(v, dict)}

    def compose(self) -> ComposeResult:
        yield Static(Text("Workflows"), classes="pane-title")
        yield Phrases(classes="note")
        health: list[Column[KnownRow]] = health_columns(self, lambda r: r.id)
        yield KnownTable(self._fetch, known_columns(health), item_id=lambda r: r.id, noun="workflows")

    def on_mount(self) -> None:
        self.app.screen_change_signal.subscribe(self, self._screen_changed)
        self.discover()

    @property
    def table(self) -> KnownTable:
        return self.query_one(KnownTable)

    async def _fetch(self, **params: Any) -> Page[KnownRow]:
        """The known list of this workspace as one page: filter, sort and refresh come with PagedTable."""
        known = self.known()
        self._seen = known
        rows = [
            KnownRow(
                ident,
                entry.get("name"),
                str(entry.get("found") or "?"),
                self.found.details.get(ident),
                self.found.problems.get(ident),
            )
            for ident, entry in known.items()
        ]
        rows.sort(key=lambda r: ((r.title or "\uffff").casefold(), r.id))
        self._update_note()
        return Page[KnownRow](items=rows, page_info=PageInfo(total_count=len(rows), count=len(rows)))

    # --- discovery ------------------------------------------------------------------------------

    @work(group="discover", exclusive=True, exit_on_error=False)
    async def discover(self) -> None:
        """Subscriptions first, then details and recent `$errors` of every known workflow."""
        org, client, known = self.org, self.client, self.session.known
        counts: Counter[str] = Counter()
        failures: list[str] = []
        self._discovering = True
        self._update_note()
        self.found.failure = None  # this look's, for its retry
        try:
            await self._discover(org, client, known, counts, failures)
        except asyncio.CancelledError:
            raise  # a newer look (r, another workspace) took over
        except Exception as error:  # noqa: BLE001 - say it in the note; never a traceback
            failures.append(f"everything ({type(error).__name__}: {error})")
        self._discovering = False
        unreadable = [ident for ident in self.known() if ident in self.found.problems]
        if unreadable:
            first = unreadable[0]
            # Not in an outage: "x forgets one" beside a 503 had an on-call engineer forget workflows that failed.
            passing = self.found.failure is not None and is_transient(self.found.failure)
            forget = "" if passing else "; x forgets one"
            failures.append(
                f"{len(unreadable)} workflow{'s' if len(unreadable) > 1 else ''} ({first}: {self.found.problems[first]}{forget})"
            )
        retrying = self._retry_if_passing(self.found.failure)
        self._summary = _summary_of(counts, failures, retrying)
        self._update_note()
        self.table.reload()

    def _retry_if_passing(self, failure: ApiError | None) -> str | None:
        """A look the service failed for a passing reason is made again by itself (and at once when the service
        answers again, `retry_all_now`): after an outage the pane said "Could not read 4 workflows" until `r`.
        When it will be, as the lists' notes say it ("trying again in 4 s"); None when it will not."""
        if failure is not None and is_transient(failure):
            return self._retry.schedule(failure)
        self._retry.succeeded()
        return None

    @cached_property
    def _retry(self) -> AutoRetry:
        return AutoRetry(self, self.discover, now_key=None)  # the note says "r looks again" already

    async def _discover(
        self, org: str, client: Client, known: KnownWorkflows, counts: Counter[str], failures: list[str]
    ) -> None:
        def remember(ident: str, found: str, name: str | None = None) -> None:
            if self.found.remember(known, org, ident, found, name):
                counts[found] += 1

        try:
            async for ident in workflows_in_subscriptions(client):
                remember(ident, "subscription")
        except ApiError as error:
            failures.append(f"subscriptions: {error.message}")
            self.found.failed(error)
            if isinstance(error, AuthError):
                self.post_message(AuthFailed(error))
        self.table.reload()

        limit = asyncio.Semaphore(DETAILS_AT_ONCE)
        scanned: set[str] = set()
        for _ in range(DISCOVERY_ROUNDS):
            todo = [ident for ident in self.known() if ident not in scanned]
            if not todo:
                break
            scanned.update(todo)
            results = await asyncio.gather(*(self._read_one(ident, limit) for ident in todo))
            for named in results:
                for ident, name in named:
                    remember(ident, "errors", name)
            self.table.reload()

    async def _read_one(self, ident: str, limit: asyncio.Semaphore) -> list[tuple[str, str | None]]:
        """Details of one known workflow; the workflows (and names) its recent `$errors` mention."""
        return await self.found.read(
            self.client, self.session.known, self.org, ident, limit, self.session.journal_events
        )

    @work(group="details", exclusive=True, exit_on_error=False)
    async def fill_details(self) -> None:
        """Details of known workflows not read yet (one was opened or created elsewhere)."""
        limit = asyncio.Semaphore(DETAILS_AT_ONCE)
        todo = [ident for ident in self.known() if ident not in self.found.details and ident not in self.found.problems]
        if todo:
            await asyncio.gather(*(self._read_one(ident, limit) for ident in todo))
        self.table.reload()

    def _screen_changed(self, screen: Screen[Any]) -> None:
        """Back from a detail or another pane's form: show workflows remembered meanwhile."""
        if screen is self.screen and self.known() != self._seen and not self._discovering:
            self.fill_details()

    def _update_note(self) -> None:
        note = self.query_one(".note", Phrases)
        note.set_class(False, "problem")
        if self._discovering:
            note.update(Text("Looking for workflows in this workspace's subscriptions and errors…"))
        elif not self.known():
            note.update(
                Text(
                    "aftui knows no workflows in this workspace yet. The service cannot list workflows: aftui finds them in "
                    "subscriptions and $errors, remembers those it creates or opens, and those you add. "
                    "Press a to add one by id (p_…) or dashboard URL."
                )
            )
        else:
            note.set_class("✖" in self._summary.plain, "problem")
            note.update(Text.assemble(self._summary, ("a adds by id or URL · x forgets · r looks again", "dim")))

    def health_changed(self) -> None:
        self.table.redraw()

    def workspace_changed(self) -> None:
        self.found.clear()
        self._summary = Text("")
        self.table.reload()
        self.discover()

    # --- actions --------------------------------------------------------------------------------

    @on(KnownTable.Rediscover)
    def _rediscover(self, event: KnownTable.Rediscover) -> None:
        event.stop()
        self.discover()

    def on_paged_table_opened(self, event: PagedTable.Opened) -> None:
        row: KnownRow = event.item
        self.app.push_screen(WorkflowScreen(row.id, ("Workflows", row.title or row.id), record=row.workflow))

    def action_new_workflow(self) -> None:
        """A workflow from a template (forms/workflow.py); it joins the known list, selected."""
        from ..forms.workflow import TemplateWorkflowForm

        def created(workflow: Workflow | None) -> None:
            if workflow is not None and workflow.id:
                self.found.forgotten.discard(workflow.id)
                self.found.details[workflow.id] = workflow
                self.table.select_when_loaded(workflow.id)

        self.app.push_screen(TemplateWorkflowForm(), created)

    def action_add(self) -> None:
        def added(result: tuple[str, Workflow] | None) -> None:
            if result is None:
                return
            ident, workflow = result
            self.found.forgotten.discard(ident)
            self.found.details[ident] = workflow
            self.found.problems.pop(ident, None)
            new = self.session.known.add(self.org, ident, name=workflow.name, found="added")
            label = visible(workflow.name or ident, 60)
            self.notify(f"Added {label}" if new else f"{label} was already known", markup=False)
            self.table.select_when_loaded(ident)
            self.table.reload()

        self.app.push_screen(AddWorkflowScreen(), added)

    @work(group="change", exclusive=True, exit_on_error=False)
    async def action_toggle_active(self) -> None:
        from ..forms.lifecycle import toggle_workflow

        row = self.table.current
        if row is None:
            self.notify("No workflow is selected.", severity="warning", markup=False)
            return
        workflow = await toggle_workflow(self, row.id, row.workflow)
        if workflow is not None:
            self.learned(row.id, workflow)

    def learned(self, ident: str, workflow: Workflow) -> None:
        """A workflow read again after a change (here or in its detail): show it as it is now."""
        self.found.details[ident] = workflow
        self.found.problems.pop(ident, None)
        self.table.reload()

    def action_forget(self) -> None:
        row = self.table.current
        if row is None:
            self.notify("No workflow is selected.", severity="warning", markup=False)
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.session.known.forget(self.org, row.id)
                self.found.forgotten.add(row.id)
                self.found.details.pop(row.id, None)
                self.notify(f"Forgot {visible(row.title or row.id, 60)}", markup=False)
                self.table.reload()

        what = [
            "aftui stops listing it in this workspace; the workflow itself is not touched.",
            "It comes back if you add or open it, or on a later start if a subscription still names it.",
        ]
        # Forgotten by mistake while it fails, it went from the list with nothing said of its errors.
        board_row, _ = health_row(self, row.id)
        if board_row is not None and board_row.state == "failing":
            what.insert(
                0,
                f"It is failing now: {board_row.errors_1h} error{'s' * (board_row.errors_1h != 1)} in the last hour "
                "(Health keeps counting it while aftui runs).",
            )
        question = ConfirmScreen(
            f"Forget {visible(row.title or 'this workflow', 60)} ({visible(row.id, 30)})?",
            what,
            action="Forget",
            destructive=False,
        )
        self.app.push_screen(question, confirmed)


def _summary_of(counts: Counter[str], failures: list[str], retrying: str | None = None) -> Text:
    parts: list[Text] = []
    new = sum(counts.values())
    if not new and not failures:
        # What the list is, not what this look found: "No other workflows found …" above the 4 listed read as
        # "none" (an on-call walk), and "Nothing new in … $errors" above failing workflows as "no errors".
        parts.append(
            Text("The workflows aftui knows (the service lists none): from subscriptions, errors, or added · ")
        )
    if new:
        where = ", ".join(f"{n} in {'subscriptions' if k == 'subscription' else k}" for k, n in counts.items())
        parts.append(Text(f"Found {new} new workflow{'s' if new != 1 else ''} ({where}) · "))
    for failure in failures:
        parts.append(Text.assemble(("✖ Could not read ", "bold"), visible(failure, 200), " · "))
    if retrying is not None:
        parts.append(Text(f"{retrying} · "))
    return Text.assemble(*parts)


# --- modals ---------------------------------------------------------------------------------------


class AddWorkflowScreen(ModalScreen["tuple[str, Workflow] | None"]):
    """Paste an id or a dashboard URL; it is checked with GET /workflows/{id} before it is added."""

    # ctrl+s as in every form (it did nothing here); the footer is this dialog's, not the pane's under it.
    BINDINGS = [
        Binding("ctrl+s", "add", "Add", priority=True),
        Binding("escape", "cancel", "Cancel"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("Add a workflow", style="bold"))
            yield Static(Text("Paste its id (p_…) or a dashboard URL that contains it."), classes="help")
            yield InOrderInput(placeholder="p_… or https://…/p_…", id="ident")
            yield Static(id="message")
            with Horizontal():
                yield Button("Add (ctrl+s)", variant="primary", id="add")
                yield Button("Cancel", id="cancel")
        yield KeyFooter()

    def action_add(self) -> None:
        self._submit()

    def on_mount(self) -> None:
        self.query_one("#ident", Input).focus()

    def _say(self, text: Text, error: bool = False) -> None:
        message = self.query_one("#message", Static)
        message.update(text)
        message.set_class(error, "error")

    @on(Input.Submitted, "#ident")
    @on(Button.Pressed, "#add")
    def _submit(self) -> None:
        typed = self.query_one("#ident", Input).value
        ident = workflow_id_in(typed)
        if ident is None:
            self._say(Text("No workflow id (p_ followed by letters and digits) in what was typed."), error=True)
            return
        self._check(ident)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)

    @work(group="check", exclusive=True, exit_on_error=False)
    async def _check(self, ident: str) -> None:
        self._say(Text.assemble("Checking ", plain(ident, 40, "cyan"), "…"))
        self.query_one("#add", Button).disabled = True
        try:
            workflow = await session_of(self).client.get_workflow(ident)
        except ApiError as error:
            self._say(Text.assemble((f"{said_by(error)}: ", "bold"), describe_error(error)), error=True)
            self.query_one("#ident", Input).focus()
            return
        finally:
            self.query_one("#add", Button).disabled = False
        self.dismiss((ident, workflow))


# --- the detail -------------------------------------------------------------------------------------


class WorkflowScreen(Guarded, StandInDetail):
    """A workflow (`p_`) or a template (`tch_`): overview, triggers, steps, events, `$errors`, JSON."""

    CHANGES = frozenset({"toggle_active", "send_to_webhook", "route_errors"})
    BINDINGS = [
        Binding("t", "toggle_active", "On/off"),
        Binding("w", "send_to_webhook", "To webhook"),
        Binding("E", "route_errors", "Route errors"),
    ]

    def __init__(
        self,
        ident: str,
        crumbs: tuple[str, ...],
        *,
        record: Any = None,
        tab: str | None = None,
        group: tuple[str, str] | None = None,
    ) -> None:
        """`group`: the fingerprint and words of one failure, the only errors its Errors tab shows at first (an
        alert opened from `!`); esc there shows them all."""
        super().__init__(ident, crumbs, record=record, tab=tab)
        self.group = group

    @property
    def is_template(self) -> bool:
        return self.ident.startswith("tch_")

    def _grouped(self, errors: ErrorsTable) -> ErrorsTable:
        if self.group is not None:
            errors.group, errors.group_label = self.group
        return errors

    # The service did not answer (a 503, no answer, none in HANG_S) and the journal has the workflow's errors of
    # the day: they are shown, from the journal, with what is known of the workflow (`StandInDetail`).

    async def read(self) -> Workflow:
        workflow = await self.session.client.get_workflow(self.ident)
        if not self.is_template:
            self.session.known.add(self.session.org_id or "", self.ident, name=workflow.name, found="opened")
        return workflow

    async def kept(self) -> bool:
        """The journal has errors of this workflow of the last day (a blocking read, on a thread)."""
        if self.is_template:
            return False
        return bool(await asyncio.to_thread(kept_errors_of_the_day, self.session, self.ident, 1))

    def stand_in(self) -> Workflow:
        name = (self.session.known.in_workspace(self.session.org_id or "").get(self.ident) or {}).get("name")
        return Workflow(id=self.ident, name=name if isinstance(name, str) else None)

    def down_tabs(self, down: ApiError) -> list[tuple[str, Widget]]:
        """The workflow as the journal knows it: its name and errors, and why that is all."""
        errors = ErrorsTable(
            kept_errors(self.session, self.ident),
            error_columns({}),
            workflow_id=self.ident,
            peek=partial(self.session.client.list_workflow_errors, self.ident),
            noun="errors",
            id="errors",
        )
        note = self.kept_note("its errors")
        said = self.down_said("its triggers and steps", "Its errors")
        overview = [("Name", self.record.name), ("ID", self.ident), ("", said)]
        return [("Overview", Fields(overview)), ("Errors", ErrorsTab(self._grouped(errors), note=note))]

    def full_tabs(self) -> list[tuple[str, Widget]]:
        workflow: Workflow = self.record
        client = self.session.client
        tabs: list[tuple[str, Widget]] = [
            ("Overview", Fields(self._overview(workflow))),
            ("Triggers", Fields(trigger_rows(workflow.triggers, template=self.is_template))),
            ("Steps", Fields(step_rows(workflow.steps))),
        ]
        if not self.is_template:
            steps = {s.id: s.namespace for s in workflow.steps if s.id}
            events = LiveEvents(
                journaled(self.session, partial(client.list_workflow_events, self.ident), self.ident),
                event_columns(),
                peek=partial(client.list_workflow_events, self.ident),
                noun="events",
                id="events",
            )
            errors = ErrorsTable(
                with_older_errors(
                    self.session,
                    journaled(self.session, partial(client.list_workflow_errors, self.ident, expand=True), self.ident),
                    self.ident,
                ),
                error_columns(steps),
                workflow_id=self.ident,
                steps=steps,
                peek=partial(client.list_workflow_errors, self.ident),
                noun="errors",
                id="errors",
            )
            tabs += [
                (
                    "Events",
                    # Live, and past the service's 100 as they come: "the last 100 are kept" read wrong at 117.
                    Listing(
                        "What it emitted, newest first (the service keeps its last 100), live · enter opens one", events
                    ),
                ),
                ("Errors", ErrorsTab(self._grouped(errors))),
            ]
        return tabs

    def _errors_row(self) -> list[tuple[str, Any]]:
        """Is it failing, as Health counts it, when the overview is drawn: opened from the Workflows pane, a
        workflow with 59 errors in the hour opened on an Overview that said nothing of them. None before Health
        has counted (the Errors tab has them then)."""
        row, now = health_row(self, self.ident)
        if row is None:
            return []
        if not row.errors_24h:
            return [("Errors", Text("none in the last 24 hours", style="green"))]
        if row.state == "fixed":
            count = (f"✔ {row.errors_1h} in the last hour, all replayed ok", "green")
        elif row.errors_1h:
            count = (f"✖ {row.errors_1h} in the last hour", "bold red")
        else:
            count = (f"{row.errors_24h} in the last 24 hours", "yellow")
        text = Text.assemble(count, f" ({row.errors_24h} in 24h)" if row.errors_1h else "")
        if row.last_error_ms is not None:
            text.append_text(Text.assemble(f", the last {age_words(row.last_error_ms, now)} ago: ", row.last_error))
        text.append(" · the Errors tab lists them", style="dim")
        return [("Errors", text)]

    def _overview(self, workflow: Workflow) -> list[tuple[str, Any]]:
        disabled = sum(1 for s in workflow.steps if s.disabled)
        rows: list[tuple[str, Any]] = [
            ("Name", workflow.name),
            ("ID", workflow.id or self.ident),
        ]
        if self.is_template:
            rows += [
                ("Kind", "workflow template"),
                ("Description", wrapped(plain((workflow.model_extra or {}).get("description"), 1000))),
            ]
        else:
            entry = self.session.known.in_workspace(self.session.org_id or "").get(self.ident) or {}
            rows += [
                ("Active", flag(workflow.active)),
                *self._errors_row(),
                ("Created", Ago(workflow.created_at, self.session.now)),
                ("Updated", Ago(workflow.updated_at, self.session.now)),
            ]
            if entry.get("found"):
                rows.append(("Known from", FOUND_WORDS.get(entry["found"], entry["found"])))
        rows += [
            ("Triggers", f"{len(workflow.triggers)} ({trigger_kinds(workflow)})" if workflow.triggers else "none"),
            ("Steps", f"{len(workflow.steps)}" + (f" ({disabled} disabled)" if disabled else "")),
        ]
        return rows

    def on_paged_table_opened(self, event: PagedTable.Opened) -> None:
        if isinstance(event.item, EventSummary):
            errors = event.table.id == "errors"
            crumbs = (*self.crumbs, ("error " if errors else "event ") + (event.item.id or ""))
            if errors and isinstance(event.table, ErrorsTable):
                state = event.table.states.get(event.item.id or "")
                self.app.push_screen(
                    ErrorEventScreen(
                        event.item.id or "",
                        crumbs,
                        record=event.item,
                        workflow_id=self.ident,
                        state=state,
                        listing=event.table,
                    )
                )
                return
            self.app.push_screen(EventScreen(event.item.id or "", crumbs, record=event.item, workflow_id=self.ident))

    # --- changes (forms/lifecycle.py, forms/subscription.py); a template has none ----------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.CHANGES and self.is_template:
            return False
        return super().check_action(action, parameters)

    def _names(self) -> dict[str, str]:
        return {self.ident: self.record.name} if isinstance(self.record, Workflow) and self.record.name else {}

    @work(group="change", exclusive=True, exit_on_error=False)
    async def action_toggle_active(self) -> None:
        from ..forms.lifecycle import toggle_workflow

        workflow = await toggle_workflow(self, self.ident, self.record if isinstance(self.record, Workflow) else None)
        if workflow is None:
            return
        for pane in self.app.screen_stack[0].query(WorkflowsPane):
            pane.learned(self.ident, workflow)
        self.action_reload()

    def action_send_to_webhook(self) -> None:
        from ..forms.subscription import SendToWebhookForm

        self.app.push_screen(SendToWebhookForm(self.ident, self._names()))

    def action_route_errors(self) -> None:
        from ..forms.subscription import route_errors_form

        self.app.push_screen(route_errors_form(self.ident, self._names()))


KIND_TITLES = {"http": "HTTP", "timer": "Timer", "email": "Email", "source": "Source"}


def trigger_rows(triggers: list[Trigger], *, template: bool = False) -> list[tuple[str, Any]]:
    if not triggers:
        return [
            (
                "",
                Text(
                    "This workflow has no triggers: it runs only when something subscribed delivers to it.", style="dim"
                ),
            )
        ]
    rows: list[tuple[str, Any]] = []
    for n, trigger in enumerate(triggers):
        if n:
            rows.append(("", ""))
        kind = trigger.kind
        rows.append((KIND_TITLES.get(kind, kind), plain(trigger.id, 40, "cyan")))
        if kind == "http":
            if trigger.endpoint_url:
                rows.append(("  Endpoint", wrapped(plain(trigger.endpoint_url, 300))))
            else:
                rows.append(
                    (
                        "  Endpoint",
                        Text("given when a workflow is created from the template" if template else "none", style="dim"),
                    )
                )
            rows.append(("  Custom response", flag(trigger.custom_response)))
        elif kind == "timer":
            rows.append(
                (
                    "  Schedule",
                    describe_timer(
                        {
                            "cron": trigger.cron,
                            "interval_seconds": trigger.interval_seconds,
                            "timezone": trigger.timezone,
                        }
                    ),
                )
            )
            if trigger.schedule_changed_at:
                rows.append(("  Schedule changed", when(trigger.schedule_changed_at)))
        elif kind == "email":
            if trigger.email_address:
                rows.append(("  Address", plain(trigger.email_address, 200)))
            else:
                rows.append(
                    (
                        "  Address",
                        Text("given when a workflow is created from the template" if template else "none", style="dim"),
                    )
                )
        else:
            rows.append(("  Name", plain(trigger.name, 200) if trigger.name else Text("(unnamed)", style="dim")))
            active = (trigger.model_extra or {}).get("active")
            if isinstance(active, bool):
                rows.append(("  Active", flag(active)))
            types = {p.name: p.type for p in trigger.configurable_props or []}
            for name, value in (trigger.configured_props or {}).items():
                rows.append((_prop_label(name, types.get(name)), wrapped(prop_value(value))))
        if template and trigger.configurable_props:
            given = trigger.configured_props or {}
            for prop in trigger.configurable_props:
                if prop.name not in given and not _internal(prop.type):
                    rows.append((_prop_label(prop.name, prop.type), _default(prop.default, prop.optional)))
    return rows


def _internal(kind: str | None) -> bool:
    """Props the runtime fills (`$.service.db`, `$.service.http`), never the user."""
    return kind is not None and kind.startswith("$.service")


def _default(value: Any, optional: bool | None = None) -> Text:
    if value is None:
        return Text("optional" if optional else "to be given (no default)", style="dim")
    return wrapped(Text.assemble(("default ", "dim"), prop_value(value)))


def _prop_label(name: str, kind: str | None) -> str:
    return f"  {visible(name, 40)}" + (f" ({visible(kind, 24)})" if kind else "")


def wrapped(text: Text) -> Text:
    """A value in a detail wraps onto more lines rather than being cut at the screen's edge."""
    text.no_wrap = False
    text.overflow = "fold"
    return text


def step_rows(steps: list[Step]) -> list[tuple[str, Any]]:
    if not steps:
        return [("", Text("This workflow has no steps.", style="dim"))]
    rows: list[tuple[str, Any]] = []
    for n, step in enumerate(steps):
        if n:
            rows.append(("", ""))
        head = Text.assemble(plain(step.component_key or "(no component)", 80, "cyan"))
        if step.disabled:
            head.append("  disabled", style="bold yellow")
        rows.append((visible(step.namespace, 40), head))
        configured = step.configured_props()
        declared = step.savedComponent.configurableProps if step.savedComponent else []
        secret = {p.name for p in declared if p.secret}
        types = {p.name: p.type for p in declared}
        names = list(
            dict.fromkeys([*(p.name for p in declared if not p.hidden and not _internal(p.type)), *configured])
        )
        for name in names:
            label = _prop_label(name, types.get(name))
            if name not in configured:
                rows.append((label, Text("not set", style="dim")))
            elif name in secret:
                rows.append((label, Text("•••••• (secret)", style="dim")))
            else:
                rows.append((label, wrapped(prop_value(configured[name]))))
        if not names:
            rows.append(("  props", Text("none", style="dim")))
    return rows


def error_columns(steps: dict[str, str]) -> list[Column[EventSummary]]:
    """`$errors`: when, `code: msg`, the step that threw (by namespace), and how the run started."""

    def step_of(event: EventSummary) -> Text:
        error = event.error()
        cell = error.error.cellId if error else None
        return plain(steps.get(cell or "", cell), 30)

    def trigger_of(event: EventSummary) -> Text:
        error = event.error()
        return plain(error.original_context.source_type if error else None, 20)

    def summary(event: EventSummary) -> Text:
        error = event.error()
        if error is None:
            text = event.event if isinstance(event.event, str) else json.dumps(event.event, default=str)
            return plain(text, 160, "dim")
        return plain(f"{error.error.code or 'Error'}: {error.error.msg or ''}", 160, "red")

    return [
        Column("time", "Time UTC", event_time, sort=lambda e: e.key, width=14),
        Column("step", "Step", step_of, width=10),
        Column("trigger", "Trigger", trigger_of, width=7, hide_rank=3),
        # The why: given what the row has to spare up to its length; the ID, who replayed (the errors tab's) and
        # the trigger give way to it until a `code: msg` of up to 80 cells reads whole (at 120 columns, the
        # demo's "ValidationError: Missing required field: customer_email" was cut after "field:").
        Column("error", "Error", summary, width=40, min_width=28, read_whole=80, cut="message"),
        Column("id", "ID", lambda e: plain(e.id, 24, "dim"), sort=lambda e: e.key, width=16, hide_rank=1),
    ]
