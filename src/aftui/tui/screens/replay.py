"""Replaying a workflow error: the replay screen, its JSON editor, and the doors other screens use.

`open_replay(app, event, workflow_id, edit=False)` and
`open_bulk_replay(app, events, workflow_id)` are what the monitor and the
workflow detail call. The screen shows the error beside its replay's
outcome, the original event and context, and what will be sent where (or,
where the API offers no way, why not: `c` copies and `x` exports instead).

A replay runs the workflow again, so it is a change to the service even
though it goes to a public endpoint and not to the API: a read-only profile
shows the plan but does not send it, and says so.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rich.console import Group
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.dom import DOMNode
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

from ...api import ApiError, Client, ReadOnlyError, failing_status, is_transient
from ...api.models import EventSummary
from ...config import data_dir
from ...export import event_record, export_ndjson
from ...journal.replays import ReplayRow
from ...masking import masked
from ...replay import (
    OUTCOME_WORDS,
    REPLAY_HEADER,
    BulkSummary,
    Planner,
    ReplayPlan,
    ReplayRequest,
    ReplayResult,
    Sent,
    full_errors,
    replay_one,
)
from ...replay.run import WATCH_TIMEOUT_S
from ...replay.settle import Found, unknown_of
from ...replay.who import replayed_words
from ...text import safe_json, visible
from ..clipboard import copy_text
from ..focus import TYPED_AHEAD_KEPT, focus_now, read_again
from ..host import session_of
from ..modals.confirm import ConfirmScreen
from ..safe import long_text, plain
from ..session import Session
from ..widgets.fields import Fields
from ..widgets.footer import KeyFooter
from ..widgets.json_editor import MAX_EDIT_BYTES, JsonEditor, JsonProblem, parse
from ..widgets.status import StatusHeader
from .events import event_time
from .replay_bulk import BulkReplayScreen
from .replay_journal import READ_ONLY_WORDS, ReplayJournal

log = logging.getLogger("aftui.tui")

EARLIER_S = 10.0  # how often "replayed by you N s ago" is said again
WAIT_SAID_S = 5.0  # as the header's "waiting N s for an answer"
MAX_COPY = 1024 * 1024  # OSC 52 through a terminal: bigger payloads are exported instead
VIEW_CHARS = 12_000  # of the original event shown; the rest is copied or exported
STACK_LINES = 8
# A frame's path up to its file: "file:///tmp/__pdg__/dist/code/70f079a5fb26105d/" is the same noise on every
# frame, and in a half-width panel it broke the frame inside the path. The error's detail (`v`) has it whole.
_FRAME_DIRS = re.compile(r"(?:[a-z][a-z0-9+.-]*:)?/[^\s():]*/(?=[^\s()/:]+:\d+(?::\d+)?(?:\)|$))")


def open_replay(node: DOMNode, event: EventSummary, workflow_id: str, *, edit: bool = False) -> None:
    """Push the replay screen for one `$errors` event; `edit` opens the JSON editor once the plan is made."""
    node.app.push_screen(ReplayScreen(event, workflow_id, edit=edit))


def open_bulk_replay(
    node: DOMNode,
    events: list[EventSummary],
    workflow_id: str,
    *,
    title: str | None = None,
    left: int = 0,
    done: Callable[[BulkSummary | None], None] | None = None,
) -> None:
    """Push the bulk replay screen for these `$errors` events (replayed oldest first, after a key press);
    `done` gets what was replayed, and how, when the screen is left."""
    node.app.push_screen(BulkReplayScreen(events, workflow_id, title=title, left=left), done)


# --- what the screen shows ------------------------------------------------------------------------------


def outcome_text(result: ReplayResult) -> Text:
    """`✔ succeeded`, `✖ failed again: ValidationError: …`, with the status code and outcome event."""
    outcome = result.outcome
    mark, style = {"succeeded": ("✔", "green"), "failed": ("✖", "red"), "skipped": ("–", "dim")}.get(
        outcome.kind, ("?", "yellow")
    )
    text = Text.assemble((f"{mark} {OUTCOME_WORDS.get(outcome.kind, outcome.kind)}", f"bold {style}"))
    text.append("\n")
    text.append_text(long_text(outcome.detail, 600))
    if result.sent is not None and result.sent.status is not None:
        text.append(f"\n{_endpoint_words(result.sent.status, outcome.kind)}", style="dim")
    if outcome.event is not None:
        text.append_text(Text.assemble(("\nevent ", "dim"), plain(outcome.event.id, 40, "cyan")))
    if result.request is not None and result.request.edited:
        text.append("\nsent with the edited payload", style="dim")
    if outcome.kind == "unknown" and result.replay_id:  # what to do next: not "send it again"
        text.append(
            f"\nIt may have run. It is looked for again every {EARLIER_S:g} s while this screen is open, and on the "
            "workflow's Errors tab; ctrl+s asks before sending it again.",
            style="bold",
        )
    return text


def watch_text(sent: Sent, waited: float, service: str, unanswered: float = 0.0) -> Text:
    """The outcome box between the endpoint's answer and the outcome: sent, and watched for. `service`: the
    client's state, which says when the looks cannot be answered (a 503 on the API, not on the endpoint);
    `unanswered`: how long the oldest request has waited (a hang answers nothing, and its state stays "ok")."""
    text = Text.assemble(("Sent: ", "bold"), _endpoint_words(sent.status or 0, ""))
    text.append(
        f"\nWatching the workflow's errors and events for what came of it: {waited:.0f} s of {WATCH_TIMEOUT_S:g} s",
        style="dim",
    )
    failing = failing_status(service)
    if failing is not None:
        text.append(
            f"\n⚠ The service answers HTTP {failing} to these looks: what came of it may not "
            "be seen now. It is looked for again once this watch ends.",
            style="yellow",
        )
    elif service in ("offline", "retrying"):
        text.append(
            "\n⚠ The service is not answering these looks: what came of it may not be seen now.", style="yellow"
        )
    elif unanswered >= WAIT_SAID_S:
        text.append(
            f"\n⚠ The service has not answered for {unanswered:.0f} s: what came of it may not be seen now.",
            style="yellow",
        )
    return text


def _endpoint_words(status: int, outcome: str) -> str:
    """The endpoint's answer, told apart from the run's: "HTTP 200 from the endpoint" under "failed again" read
    as a contradiction. The endpoint takes the request and starts a run; the run fails or not after that."""
    if not 200 <= status < 300:
        return f"HTTP {status} from the endpoint"
    if outcome == "failed":
        return f"the endpoint took it (HTTP {status}); the run it started failed"
    return f"the endpoint took it (HTTP {status})"


def again_question(result: ReplayResult | None, *, edited: bool) -> ConfirmScreen:
    """Asked before ctrl+s sends a second replay from the screen: what the last one came to, and what this one sends."""
    if result is None:
        last = "A replay was sent from this screen; what came of it is not known."
    else:
        last = f"The last replay from this screen: {result.outcome.words}" + (
            ", with your edited payload." if edited else "."
        )
    sends = "This sends the original payload, as it was" + (
        ", not your edit: e opens the editor with it." if edited else "."
    )
    what = [last, sends, "Each replay is a new run of the workflow: its steps run again."]
    return ConfirmScreen("Replay this error again?", what, action="Send again", destructive=False)


def done_question(row: ReplayRow, *, edit: bool, me: str | None) -> ConfirmScreen:
    """Asked before the first send from the screen of an error the journal says was replayed ok: ctrl+s sent it
    again with no question, a second run of an order that had gone through, where the screen's own second
    send asks."""
    last = f"This error was {replayed_words(row, me=me)}" + (", with an edited payload." if row.edited else ".")
    if row.outcome_now == "unknown":  # sent in an outage, say: nothing was seen of it, and it may have gone through
        last += " It may have run: nothing was seen of it either way."
    if edit:
        sends = "This sends your edit."
    elif row.edited:
        sends = "This sends the original payload, as it was, not the edit that worked (aftui does not keep it)."
    else:
        sends = "This sends the original payload, as it was."
    what = [last, sends, "Each replay is a new run of the workflow: its steps run again."]
    return ConfirmScreen("Replay it again?", what, action="Send again", destructive=False)


def plan_text(
    plan: ReplayPlan,
    *,
    read_only: bool,
    edited: ReplayRequest | None = None,
    sent: bool = False,
    draft: int | None = None,
    sending: bool = False,
    draft_problem: str | None = None,
) -> Text:
    """What will be sent where, or why nothing can be; `edited`: the request last sent with an edited body,
    whose size the plan then gives (it said "the original as it was" beside "sent with the edited payload");
    `sent`: it went from this screen (it said "Will send" of what had been sent); `draft`: the size of an edit
    left with esc, which ctrl+s sends next; `sending`: on its way (against a service that hung it said "Sent"
    while it still waited to be sent); `draft_problem`: why the edit does not parse (it read as ready to send)."""
    request = plan.request
    if request is None and plan.transient:  # "Cannot be replayed" of a 503 read as final, in an outage
        return Text.assemble(
            ("✖ Not ready to replay: ", "bold yellow"),
            visible(plan.reason or "the service did not answer", 400),
            ("\nThe service may be down for a moment: r tries again.", "bold"),
            (" c copies the original event, x exports it as NDJSON.", "dim"),
        )
    if request is None:
        return Text.assemble(
            ("✖ Cannot be replayed: ", "bold yellow"),
            visible(plan.reason or "no way in", 400),
            ("\nc copies the original event, x exports it as NDJSON.", "dim"),
        )
    verb = "Will send " if draft is not None or not sent else "Sending " if sending else "Sent "
    text = Text.assemble((verb, "bold"), (request.method, "bold cyan"), " ", plain(request.full_url, 400))
    text.no_wrap = False
    text.overflow = "fold"
    shown = ", ".join(request.headers) or "none"
    # The one header aftui adds: the README names it, and a receiver's logs show it.
    text.append_text(
        Text.assemble(
            ("\nheaders ", "dim"), visible(shown, 300), (f" + {REPLAY_HEADER} (added: aftui's replay id)", "dim")
        )
    )
    if request.dropped:
        text.append_text(
            Text.assemble(
                ("\nleft out ", "dim"), visible(", ".join(request.dropped), 300), (" (never passed on)", "dim")
            )
        )
    # An edit goes as compact JSON: "compacted" says why it is fewer bytes than the editor counted.
    if draft is not None:
        text.append_text(
            Text.assemble(
                ("\nbody ", "dim"),
                (f"your edit, not sent yet ({draft:,} bytes as typed)", "bold yellow"),
                (": ctrl+s sends it, e opens it (ctrl+r there reverts to the original)", "dim")
                if draft_problem is None
                else Text.assemble(
                    (", not valid JSON", "bold red"),
                    (": ", "dim"),
                    visible(draft_problem, 200),
                    (" · e (or ctrl+s) opens it there", "dim"),
                ),
            )
        )
    else:
        body, words = (
            (edited, "as you edited it, compacted") if edited is not None else (request, "the original as it was")
        )
        text.append_text(Text.assemble(("\nbody ", "dim"), f"{body.size():,} bytes, {words}"))
    if plan.warning:
        text.append_text(Text.assemble(("\n⚠ ", "yellow"), visible(plan.warning, 300)))
    if read_only:
        text.append_text(Text.assemble(("\n✖ ", "bold red"), READ_ONLY_WORDS))
    return text


def export_dir(session: Session) -> Path:
    """Where exports go (beside the monitor's): the session's own data dir when it has one (the demo), else the user's."""
    return (session.data or data_dir()) / "exports"


# --- the replay screen ---------------------------------------------------------------------------------


class ReplayScreen(Screen[None]):
    QUIET_FOR_ALERTS = True  # alerts are counted in the header, not put over the work (app._alerted)
    BINDINGS = [
        Binding("escape", "back", "Back"),
        # Sending is ctrl+s, as in every form: never a key that `r r` (refresh) or esc/enter could hit.
        Binding("ctrl+s", "replay", "Send as is"),
        # Once this screen has sent, ctrl+s asks first: a second press (or a habit of saving twice) sent the
        # original again, unedited, right after an edited replay had succeeded.
        Binding("ctrl+s", "replay_again", "Send again…"),
        # An edit left with esc is what the user worked on: ctrl+s here had sent the original, unedited.
        Binding("ctrl+s", "replay_edit", "Send your edit"),
        Binding("r", "refresh", "Refresh"),
        Binding("e", "edit", "Edit & send…"),
        Binding("c", "copy", "Copy event"),
        Binding("x", "export", "Export"),
        # Last for its keys: answers them only when none of the above can (a plan not ready, a replay on its
        # way, a read-only profile), which Textual would otherwise pass over without a word.
        Binding("ctrl+s,e", "refused", "Why nothing can be sent now", show=False),
    ]

    def __init__(self, event: EventSummary, workflow_id: str, *, edit: bool = False) -> None:
        super().__init__()
        self.event = event
        self.workflow_id = workflow_id
        self.edit_first = edit
        self.plan: ReplayPlan | None = None
        self.result: ReplayResult | None = None
        self.draft: str | None = None  # the editor's text, kept when the editor is left without sending
        self.draft_sent = False  # the draft is what was last sent (nothing of it would be lost)
        self.draft_changed = False  # the draft differs from the original (compared once, when it is kept)
        self.draft_problem: str | None = None  # why the draft does not parse, as the editor said it at esc
        self.sent_edited: ReplayRequest | None = None  # the last send's request, if its body was edited
        self.full_read = False  # a cut summary was read again with expand=event
        self.running = False
        self.watched: tuple[Sent, float] | None = None  # the endpoint's answer, and when the watch began (monotonic)
        self._watch_timer: Timer | None = None
        self.sent_here = False  # a replay was sent from this screen (whatever came of it)
        self.earlier: list[ReplayRow] = []  # the journal's replays of this error before this screen, newest first
        self.journal: ReplayJournal | None = None
        self._typed_ahead: list[events.Key] = []  # keys read while the editor asked for (`e`) is not open yet
        self._planning = True  # from the start: keys read with the `e` that opened it come before its mount

    @property
    def session(self) -> Session:
        return session_of(self)

    def held(self) -> str | None:
        """What a pane key would lose (None: nothing, and it closes this screen, as a detail's does).

        A replay sent, or never edited, is in the journal or the service: "press 0" in the header was
        refused here. An edit not sent is the user's work; one reverted to the original is not."""
        if self.running:
            return "a replay being sent"
        return "an edited payload not sent: ctrl+s here sends it" if self.pending_edit else None

    @property
    def pending_edit(self) -> bool:
        """An edit left with esc, not sent, and not the original as the editor opened it."""
        # Asked by every footer refresh (three ctrl+s bindings): the comparison with a payload of megabytes is
        # made once, in `_edited`, not here.
        return self.draft is not None and self.draft_changed and not self.draft_sent

    def _send_action(self) -> str:
        """What ctrl+s does now: sends the edit not sent, else the original, asking first once one was sent."""
        if self.pending_edit:
            return "replay_edit"
        return "replay_again" if self.sent_here or self._ok_before() is not None else "replay"

    def _ok_before(self) -> ReplayRow | None:
        """The newest replay of this error that succeeded (else one whose outcome is unknown: it may have run),
        before this screen: the first send asks over it."""
        for outcome in ("succeeded", "unknown"):
            row = next((row for row in self.earlier if row.outcome_now == outcome), None)
            if row is not None:
                return row
        return None

    def _asked_if_done(self, send: Callable[[], None], *, edit: bool) -> None:
        """`send` at once, or once answered yes when the journal says this error was replayed ok already and
        nothing was sent from here yet (after that, the screen's own outcome is what a second send asks over)."""
        row = self._ok_before()
        if row is None or self.sent_here:
            send()
            return

        def answered(yes: bool | None) -> None:
            if yes and self._refusal() is None:
                send()

        self.app.push_screen(done_question(row, edit=edit, me=self.session.me), answered)

    def compose(self) -> ComposeResult:
        error = self.event.error()
        name = (error.original_context.workflow_name if error else None) or self.workflow_id
        yield StatusHeader()
        yield Static(Text(f"Replay › {visible(name, 40)} › error {visible(self.event.id or '', 30)}"), classes="crumbs")
        with VerticalScroll(id="body"):
            yield Fields(self._facts(), id="facts")
            yield Static(Text("Working out how this run started…", style="dim"), id="plan")
            with Horizontal(id="compare"):
                with Vertical(id="original"):
                    yield Static(Text("Original run"), classes="title")
                    yield Static(self._error_text(), id="error")
                with Vertical(id="replayed"):
                    yield Static(Text("Replay"), classes="title")
                    yield Static(Text("Not replayed yet.", style="dim"), id="outcome")
            yield Static(self._event_text(), id="original-event")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(StatusHeader).sync()
        self.journal = ReplayJournal(self.session)
        self.set_interval(EARLIER_S, self._tick)
        self._prepare()

    def on_unmount(self) -> None:
        if self.journal is not None:
            self.journal.close()

    # --- what is shown ------------------------------------------------------------------------------

    def _facts(self) -> list[tuple[str, Any]]:
        error = self.event.error()
        if error is None:
            return [("Event", self.event.id), ("", Text("This event is not a workflow error.", style="yellow"))]
        ctx = error.original_context
        return [
            (
                "Workflow",
                Text.assemble(
                    plain(ctx.workflow_name or "(unnamed)", 60),
                    " ",
                    plain(ctx.workflow_id or self.workflow_id, 30, "cyan"),
                ),
            ),
            ("Started by", Text.assemble(plain(ctx.source_type, 20), " ", plain(ctx.emitter_id or "", 40, "cyan"))),
            (
                "Failed at",
                Text.assemble(event_time(self.event), ("  step ", "dim"), plain(self._step(error.error.cellId), 40)),
            ),
            ("Error id", plain(self.event.id, 40, "dim")),
        ]

    def _step(self, cell_id: str | None) -> str | None:
        """The step's namespace (`validate`) once the plan has read the workflow; its id until then."""
        return (self.plan.step if self.plan is not None else None) or cell_id

    def _error_text(self) -> Text:
        error = self.event.error()
        if error is None:
            return Text("—", style="dim")
        info = error.error
        text = Text.assemble((f"✖ {visible(info.code or 'Error', 60)}", "bold red"), ": ", visible(info.msg or "", 240))
        text.no_wrap = False
        stack = (info.stack or "").split("\n")[1 : STACK_LINES + 1]
        for line in stack:
            text.append("\n" + visible(short_frame(line.strip()), 120), style="dim")
        return text

    def _event_text(self) -> Group:
        error = self.event.error()
        original = error.original_event if error else self.event.event
        body = safe_json(masked(original))  # c and x give it as it is
        cut = len(body) > VIEW_CHARS
        shown = long_text(body[:VIEW_CHARS], VIEW_CHARS)
        parts: list[Any] = [Text("Original event", style="bold"), shown]
        if cut:
            parts.append(
                Text(f"… cut here ({len(body):,} characters in all): c copies it, x exports it", style="yellow")
            )
        if self.event.truncated:
            words = (
                "the service no longer keeps it in full: c and x give what there is"
                if self.full_read
                else "reading it in full…"
            )
            parts.append(Text(f"(the service cut this summary; {words})", style="yellow"))
        return Group(*parts)

    def _show_plan(self) -> None:
        plan = self.plan
        if plan is None:
            return
        draft = len(self.draft.encode("utf-8")) if self.draft is not None and self.pending_edit else None
        self.query_one("#plan", Static).update(
            plan_text(
                plan,
                read_only=self.session.read_only,
                edited=self.sent_edited,
                sent=self.sent_here,
                draft=draft,
                draft_problem=self.draft_problem,
                sending=self.running and self.watched is None,
            )
        )
        if not plan.replayable and self.result is None:  # "Not replayed yet" promised what cannot come
            words = (
                "None yet: r tries again (said above)."
                if plan.transient
                else "None: this run cannot be replayed (said above)."
            )
            self._show_outcome(Text(words, style="dim"))
        self.refresh_bindings()

    def _show_outcome(self, text: Text) -> None:
        self.query_one("#outcome", Static).update(text)

    # --- loading ------------------------------------------------------------------------------------

    @work(group="replay-plan", exclusive=True, exit_on_error=False)
    async def _prepare(self) -> None:
        """The full event when the summary was cut, then the plan; then the editor, when asked for."""
        client = self.session.client
        self._planning = True
        started = time.monotonic()
        # Against a service that hangs the screen said "Working out…" for a minute, under keys that did nothing.
        waiting = self.set_interval(1.0, lambda: self._say_waiting(time.monotonic() - started))
        try:
            await self._plan(client)
            typed, self._typed_ahead = self._typed_ahead, []
            if self.edit_first:  # the editor asked for takes the keys typed for it (dropped if it cannot open)
                self.edit_first = False
                self.action_edit(typed=typed)
        finally:
            waiting.stop()
            self._planning = False  # whatever came of it: no key is held any longer

    def _say_waiting(self, waited_s: float) -> None:
        """Past WAIT_SAID_S of working the plan out, how long the service has left it unanswered."""
        if waited_s >= WAIT_SAID_S and self.plan is None:
            self.query_one("#plan", Static).update(
                Text.assemble(
                    ("Working out how this run started… ", "dim"),
                    (f"the service has not answered for {waited_s:.0f} s", "bold yellow"),
                    (" (ctrl+s and e wait for it; esc goes back)", "dim"),
                )
            )

    async def _plan(self, client: Client) -> None:
        """The full event when the summary was cut, the plan, and the replays of this error in the journal."""
        try:
            if self.event.truncated:
                (self.event,) = await full_errors(client, [self.event], self.workflow_id)
                self.full_read = True
                self.query_one("#facts", Fields).set_rows(self._facts())
                self.query_one("#original-event", Static).update(self._event_text())
                self.query_one("#error", Static).update(self._error_text())
            plan = await Planner(client).plan(self.event, self.workflow_id)
        except ApiError as error:
            self.query_one("#plan", Static).update(
                Text.assemble(
                    ("Could not work out the replay: ", "bold red"),
                    visible(error.message, 300),
                    ("\nr tries again.", "bold") if is_transient(error) else "",
                )
            )
            return
        # Read before the plan is set, which lets ctrl+s send: a send before the rows came did not ask over a
        # replay that had succeeded.
        self.earlier = await asyncio.to_thread(self._previous_replays, plan)
        # An outcome unknown may be seen by now: the question then says what became of it, not "it may have run".
        journal = self.journal
        if unknown_of(self.earlier) and journal:
            found = await journal.settle(self.earlier, {self.event.id or "": self.event})
            if found:
                self.earlier = await asyncio.to_thread(self._previous_replays, plan)
                self._found_own(found)
        self.plan = plan
        self._show_plan()
        self.query_one("#facts", Fields).set_rows(self._facts())  # the step by name, now the workflow is read
        if self.earlier:
            self._say_earlier()
        elif plan.replayable and self.result is None and not self.sent_here:  # after `r`: "None yet: r tries…"
            self._show_outcome(Text("Not replayed yet.", style="dim"))

    def _tick(self) -> None:
        self._say_earlier()
        result = self.result
        if result is not None and result.outcome.kind == "unknown" and result.replay_id and not self.running:
            self._look_again_own()

    @work(group="replay-settle", exclusive=True, exit_on_error=False)
    async def _look_again_own(self) -> None:
        """The replay sent from here with its outcome unknown (the service did not answer the watch), looked for
        again every EARLIER_S: the box said "? outcome unknown" after the service was back and the run seen."""
        journal, plan = self.journal, self.plan
        if journal is None or plan is None:
            return
        rows = await asyncio.to_thread(self._previous_replays, plan)
        self._found_own(await journal.settle(rows, {self.event.id or "": self.event}))

    def _found_own(self, found: dict[str, Found]) -> None:
        """Show what was found of this screen's own replay, if it was among `found` (by replay id)."""
        result = self.result
        mine = found.get(result.replay_id or "") if result is not None else None
        if result is None or mine is None:
            return
        self.result = replace(result, outcome=mine.outcome)
        self._show_outcome(outcome_text(self.result))

    def _say_earlier(self) -> None:
        """The journal's earlier replays under the outcome, until one is sent from here; again every EARLIER_S,
        so that "replayed by you 24 s ago" does not stay 24 s while the question over it says 34."""
        rows = self.earlier
        if not rows or self.sent_here or self.result is not None:
            return
        times = f"time{'s' if len(rows) > 1 else ''}"
        self._show_outcome(
            Text.assemble(
                ("Not replayed in this screen yet.", "dim"),
                f"\nReplayed {len(rows)} {times} before; last {replayed_words(rows[0], me=self.session.me)}",
            )
        )

    def hold_typed_ahead(self, event: events.Key) -> bool:
        """True when a key read before the editor asked for with `e` is open is kept for it (`focus.KeyHolder`,
        asked by the App before the bindings). `e` then a fix typed at once met this screen while the plan was
        made, and the fix was lost: the editor opened on the payload as it was (and the App took an `m` of it
        for its monitor). Only esc acts: it leaves, and the keys held go with the screen."""
        if not (self.edit_first and self._planning) or event.key == "escape":
            return False
        if len(self._typed_ahead) < TYPED_AHEAD_KEPT:
            self._typed_ahead.append(event)
        return True

    def _previous_replays(self, plan: ReplayPlan) -> list[ReplayRow]:
        """Runs on a thread: the journal's record of earlier replays of this error, newest first."""
        assert self.journal is not None
        self.journal.open()
        if self.journal.log is None:
            return []
        try:
            return self.journal.log.of_event(plan.emitter_id, plan.event_id)
        except Exception as error:  # noqa: BLE001 - a journal that cannot be read must not stop the replay
            log.warning("the journal's replays of %s could not be read: %s", plan.event_id, error)
            return []

    # --- actions ----------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Send and edit are left out of the footer where they can only refuse (an error a timer started, a
        read-only profile) and dimmed until the plan is made or while a replay is on its way."""
        if action == "refused":
            return self._refusal() is not None
        if action not in ("replay", "replay_again", "replay_edit", "edit"):
            return True
        if action != "edit" and action != self._send_action():
            return False  # one ctrl+s at a time: the edit not sent, else as is, asked again after a send
        if self.plan is not None and (not self.plan.replayable or self.session.read_only):
            return False
        return None if self.plan is None or self.running else True

    def _refusal(self) -> str | None:
        """Why a replay cannot be sent now, or None."""
        if self.plan is None:
            return "The replay is still being worked out."
        if self.running and self.watched is not None:
            return f"The replay was sent; what came of it is watched for, up to {WATCH_TIMEOUT_S:g} s."
        if self.running:
            return "A replay is already on its way."
        if self.session.read_only:
            return READ_ONLY_WORDS
        if not self.plan.replayable and self.plan.transient:
            return f"The replay could not be worked out: {self.plan.reason}. r tries again."
        if not self.plan.replayable:
            return f"This error cannot be replayed: {self.plan.reason}. c copies the original event, x exports it."
        return None

    def _said_refusal(self) -> bool:
        """Whether a replay cannot be sent now; if so, the reason is said (`_refusal`)."""
        refusal = self._refusal()
        if refusal is not None:
            self.notify(visible(refusal, 400), severity="warning", markup=False)
        return refusal is not None

    def action_refused(self) -> None:
        """ctrl+s or e where neither can do anything: says why, where the key had done nothing."""
        self._said_refusal()

    def action_replay(self) -> None:
        if self._said_refusal():
            return
        self._send(None, edited=False)

    def action_replay_again(self) -> None:
        if self._said_refusal():
            return
        if not self.sent_here:
            self._asked_if_done(self._send_original, edit=False)
            return

        def answered(yes: bool | None) -> None:
            if yes and self._refusal() is None:
                self._send(None, edited=False)

        self.app.push_screen(again_question(self.result, edited=self.sent_edited is not None), answered)

    def _send_original(self) -> None:
        self._send(None, edited=False)

    def action_replay_edit(self) -> None:
        """The edit left with esc, sent as the editor's ctrl+s would; the editor again if it does not parse."""
        if self._said_refusal():
            return
        assert self.draft is not None
        try:
            value = parse(self.draft)
        except JsonProblem as problem:
            self.notify(f"Not sent: your edit is not valid JSON at {problem}", severity="error", markup=False)
            self.action_edit()
            return

        def send() -> None:
            self.draft_sent = True
            self._send(value, edited=True)

        self._asked_if_done(send, edit=True)

    def action_refresh(self) -> None:
        """Work the plan out again (the workflow or its trigger may have changed); never sends."""
        if self.running:
            self.notify("A replay is on its way: refresh once it is done.", severity="warning", markup=False)
            return
        self._prepare()

    def action_edit(self, typed: list[events.Key] | None = None) -> None:
        """The editor; `typed`: keys read for it before it could open, typed into it as it opens."""
        if self._said_refusal():
            return
        assert self.plan is not None and self.plan.request is not None
        text = self.draft if self.draft is not None else safe_json(self.plan.payload)
        size = len(text.encode("utf-8"))
        if size > MAX_EDIT_BYTES:
            self.notify(
                f"The payload is {size / 1024 / 1024:.1f} MB; the editor takes up to {MAX_EDIT_BYTES // 1024 // 1024} MB. "
                "x exports it; ctrl+s replays it as it is.",
                severity="warning",
                markup=False,
            )
            return
        self.app.push_screen(ReplayEditorScreen(text, self.plan, typed=typed or []), self._edited)

    def _edited(self, result: EditResult | None) -> None:
        if result is None:
            return
        self.draft = result.text
        self.draft_problem = result.problem
        self.draft_sent = False
        self.draft_changed = self.plan is not None and result.text != safe_json(self.plan.payload)
        self._show_plan()  # the body line and ctrl+s now say the edit
        if result.send:  # a "no" to the question keeps the edit, not sent, for ctrl+s or e

            def send() -> None:
                self.draft_sent = True
                self._send(result.value, edited=True)

            self._asked_if_done(send, edit=True)

    @work(group="replay-send", exclusive=True, exit_on_error=False)
    async def _send(self, body: Any, *, edited: bool) -> None:
        plan = self.plan
        assert plan is not None and plan.request is not None
        self.running = True
        self.sent_here = True
        self.sent_edited = plan.request.with_body(body) if edited else None
        self._show_plan()
        self._show_outcome(
            Text.assemble(
                ("Sending ", "bold"),
                plan.request.method,
                " …\n",
                ("then watching the workflow's errors and events", "dim"),
            )
        )
        journal = self.journal
        assert journal is not None
        try:
            await asyncio.to_thread(journal.open)
            with journal.sending():
                result = await replay_one(
                    self.session.client,
                    plan,
                    body=body,
                    edited=edited,
                    log=journal.log,
                    on_seen=journal.seen(plan.workflow_id),
                    on_watch=self._watching,
                )
        except ReadOnlyError:
            self._show_outcome(Text(READ_ONLY_WORDS, style="red"))
            return
        except ApiError as error:
            self._show_outcome(Text.assemble(("Could not replay: ", "bold red"), visible(error.message, 300)))
            return
        finally:
            self.running = False
            self._stop_watch()
            self._show_plan()  # "Sent", no longer "Sending"
            self.refresh_bindings()
        self.result = result
        text = outcome_text(result)
        if journal.problem:
            text.append_text(Text.assemble(("\nnot journaled: ", "yellow"), visible(journal.problem, 200)))
        self._show_outcome(text)

    def _watching(self, sent: Sent) -> None:
        """The endpoint took the replay: "Sent", and the watch for its outcome said, counting, until it ends."""
        if not self.is_attached:  # left meanwhile: its worker is about to be cancelled
            return
        self.watched = (sent, time.monotonic())
        self._show_plan()
        self._show_watch()
        self._watch_timer = self.set_interval(1.0, self._show_watch)

    def _show_watch(self) -> None:
        if self.watched is not None:
            sent, began = self.watched
            client = self.session.client
            # A request held since a hang is no news once newer ones (these looks) are answered.
            unanswered = 0.0 if client.answered_since_oldest_wait() else client.waiting_for()
            self._show_outcome(watch_text(sent, time.monotonic() - began, client.status, unanswered))

    def _stop_watch(self) -> None:
        self.watched = None
        if self._watch_timer is not None:
            self._watch_timer.stop()
            self._watch_timer = None

    def action_copy(self) -> None:
        error = self.event.error()
        text = safe_json(error.original_event if error else self.event.event)
        if len(text) > MAX_COPY:
            self.notify(
                f"The event is {len(text):,} characters: too big to copy through the terminal. x exports it.",
                severity="warning",
                markup=False,
            )
            return
        copy_text(self, text, "the original event")

    def action_export(self) -> None:
        try:
            path, _ = export_ndjson(
                [event_record(self.event)], export_dir(self.session), f"error-{self.event.id or 'event'}"
            )
        except OSError as error:
            self.notify(f"Could not export: {error}", severity="error", markup=False)
            return
        self.notify(f"Exported the error to {visible(str(path), 200)}", markup=False)

    def action_back(self) -> None:
        """Back; over an edit not sent, asked first, as a form with something typed in it is: the screen said
        "your edit, not sent yet", and esc threw it away without a word."""
        if not self.pending_edit or self.running:
            self.app.pop_screen()
            return
        what = [
            "Your edited payload was not sent: leaving throws it away.",
            "n or esc: back to the replay, where ctrl+s sends it and e opens it again.",
        ]
        question = ConfirmScreen(
            "Leave this replay?", what, action="Leave", stay="Back to the replay", destructive=False
        )
        self.app.push_screen(question, self._leave_if)

    def _leave_if(self, leave: bool | None) -> None:
        if leave and self.app.screen is self:
            self.app.pop_screen()


# --- the editor ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class EditResult:
    text: str
    send: bool
    value: Any = None
    problem: str | None = None  # why `text` does not parse (left with esc), or None


class ReplayEditorScreen(Screen["EditResult | None"]):
    """The payload as JSON; ctrl+s sends it (only when it parses), esc goes back and keeps the text."""

    QUIET_FOR_ALERTS = True  # alerts are counted in the header, not put over the work (app._alerted)

    BINDINGS = [
        Binding("ctrl+s", "send", "Send", priority=True),
        Binding("escape", "keep", "Back (keeps text)"),
        Binding("ctrl+r", "revert", "Revert"),
    ]

    def __init__(self, text: str, plan: ReplayPlan, *, typed: list[events.Key] | None = None) -> None:
        super().__init__()
        self.text = text
        self.plan = plan
        self._typed = typed or []  # keys read for it before it opened (`ReplayScreen.hold_typed_ahead`)

    def compose(self) -> ComposeResult:
        request = self.plan.request
        assert request is not None
        yield StatusHeader()
        failed = self.plan.error.error
        head = Text.assemble(
            ("Edit the payload, then ctrl+s sends it: ", "bold"),
            (request.method, "cyan"),
            " ",
            visible(request.full_url, 200),
            # What to mend, in sight while mending it: it was on the screen left behind.
            # Which error: with a few alike in the list, the editor did not say which one it had opened.
            ("\nIt failed at ", "dim"),
            event_time(self.plan.event),
            (f" UTC (error {visible(self.plan.event.id or '?', 40)}) with ", "dim"),
            (visible(f"{failed.code or 'Error'}: {failed.msg or ''}", 300), "red"),
            (f" (step {visible(self.plan.step, 60)})" if self.plan.step else "", "dim"),
            (
                "\nOnly the body changes: method, path, query and safe headers go as the original's, as the replay screen lists them.",
                "dim",
            ),
        )
        head.no_wrap, head.overflow = False, "fold"
        yield Static(head, classes="head")
        yield JsonEditor(self.text, id="editor")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(StatusHeader).sync()
        focus_now(self.query_one(JsonEditor).area)
        typed, self._typed = self._typed, []
        read_again(self.app, typed)  # now, ahead of any key read after them

    @property
    def editor(self) -> JsonEditor:
        return self.query_one(JsonEditor)

    def held(self) -> str | None:
        """What a quit would lose: text typed here (ctrl+q in the editor closed aftui without a word, where
        esc then ctrl+q asked). The text it opened with is the replay screen's to name, if it holds one."""
        editors = self.query(JsonEditor)
        if not editors:
            return None
        text = editors.first().text
        if text == self.text or text == safe_json(self.plan.payload):
            return None
        return "the payload being edited, not sent: ctrl+s sends it"

    def action_send(self) -> None:
        try:
            value = self.editor.value()
        except JsonProblem as problem:
            self.editor.go_to_problem()
            self.notify(f"Not sent: the JSON is not valid at {problem}", severity="error", markup=False)
            return
        self.dismiss(EditResult(self.editor.text, True, value))

    def action_keep(self) -> None:
        self.editor.check()  # now: a big payload's check waits out a debounce, and would say the text before
        problem = self.editor.problem
        self.dismiss(EditResult(self.editor.text, False, problem=str(problem) if problem is not None else None))

    def action_revert(self) -> None:
        self.editor.text = safe_json(self.plan.payload)


def short_frame(line: str) -> str:
    """A stack frame with its path cut to the file: "at run (…/component.mjs:24:15)"."""
    return _FRAME_DIRS.sub("…/", line)
