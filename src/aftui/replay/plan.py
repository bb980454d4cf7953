"""Whether and how one `$errors` event can be replayed: a `ReplayPlan`.

The API has no "run this workflow again" call. What it has are public
endpoints: a workflow's HTTP trigger (`endpoint_url` in GET /workflows/{id})
and an HTTP source's endpoint (its `configured_props`). So an error can be
replayed when the run that failed was started by an HTTP request to one of
those; the original request is sent there again. Anything else (a timer, an
e-mail, an app source, another workflow's events) gets a reason in plain
words instead, and the UI offers copy and export.

Where the run came from is `original_context.emitter_id` (the trigger or
source id); when it is missing, `source_type` and the workflow's triggers
and subscriptions decide, if they leave only one candidate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from ..api import ApiError, Client, is_transient, iterate
from ..api.errors import with_status
from ..api.models import (
    EventSummary,
    Source,
    Subscription,
    Trigger,
    Workflow,
    WorkflowError,
)
from ..starts import unsendable_start
from .request import ReplayRequest, is_http_event, payload_of, request_for

GUESSED = "the error does not say how the run started: it is sent to the workflow's only HTTP way in"
READ_ONLY_REASON = "read-only profile: replay sends the request to the workflow's endpoint, which runs it again"


@dataclass(frozen=True)
class ReplayPlan:
    """One errored event and what a replay of it would do (or why it cannot be done)."""

    event: EventSummary
    error: WorkflowError
    workflow_id: str
    workflow_name: str | None
    trigger: str  # the way in, in plain words: "HTTP trigger hi_…", "HTTP source Order webhooks (dc_…)"
    request: ReplayRequest | None = None
    reason: str | None = None  # why there is no request
    warning: str | None = None  # sendable, but likely refused (an inactive workflow or source)
    step: str | None = None  # the namespace of the step that threw, when the workflow still has it
    transient: bool = False  # no plan for now only: what it needed could not be read (a 503, no answer)

    @property
    def replayable(self) -> bool:
        return self.request is not None

    @property
    def payload(self) -> Any:
        """What the editor edits."""
        return payload_of(self.error.original_event)

    @property
    def event_id(self) -> str:
        return self.event.id or ""

    @property
    def emitter_id(self) -> str:
        """The emitter of the `$errors` event (the workflow), as the journal keys it."""
        return self.event.metadata.emitter_id or self.workflow_id


class PlanMaker(Protocol):
    """A plan for the error at hand, from what the caller found out: where to send it, or why not."""

    def __call__(
        self,
        trigger: str,
        request: ReplayRequest | None = None,
        reason: str | None = None,
        warning: str | None = None,
        *,
        transient: bool = False,
    ) -> ReplayPlan: ...


class Planner:
    """Plans replays for one client, reading each workflow, source and the subscriptions once."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self._workflows: dict[str, Workflow | ApiError] = {}
        self._sources: dict[str, Source | ApiError] = {}
        self._feeders: dict[str, list[str]] | None = None

    async def plan(self, event: EventSummary, workflow_id: str | None = None) -> ReplayPlan:
        error = event.error()
        if error is None:
            return ReplayPlan(
                event,
                WorkflowError(),
                workflow_id or "",
                None,
                "unknown",
                reason="this event is not a workflow error (it has no original_event)",
            )
        ctx = error.original_context
        wf_id = workflow_id or ctx.workflow_id or event.metadata.emitter_id or ""
        name = ctx.workflow_name

        step: str | None = None

        def plan(
            trigger: str,
            request: ReplayRequest | None = None,
            reason: str | None = None,
            warning: str | None = None,
            *,
            transient: bool = False,
        ) -> ReplayPlan:
            return ReplayPlan(event, error, wf_id, name, trigger, request, reason, warning, step, transient)

        if not wf_id:
            return plan("unknown", reason="the error does not say which workflow failed")
        workflow = await self._workflow(wf_id)
        if isinstance(workflow, ApiError):
            return plan(
                "unknown",
                reason=f"the workflow could not be read ({with_status(workflow)})",
                transient=is_transient(workflow),
            )
        name = workflow.name or name
        step = next((s.namespace for s in workflow.steps if s.id and s.id == error.error.cellId), None)
        inactive = (
            None if workflow.active is not False else "the workflow is inactive: its endpoint will refuse the request"
        )
        emitter = ctx.emitter_id or ""
        source_type = (ctx.source_type or "").upper()

        if emitter.startswith("hi_") or (not emitter and source_type == "HTTP"):
            trigger = _http_trigger(workflow, emitter)
            if trigger is None:
                return plan(
                    "HTTP trigger", reason="the workflow no longer has the HTTP trigger that received this request"
                )
            if not trigger.endpoint_url:
                return plan(f"HTTP trigger {trigger.id}", reason="the service did not give the trigger's endpoint URL")
            return plan(
                f"HTTP trigger {trigger.id}", request_for(error.original_event, trigger.endpoint_url), warning=inactive
            )
        started = unsendable_start(emitter, source_type)  # as Health tells these runs apart
        if started == "a timer":
            return plan(
                "timer trigger",
                reason="a timer started this run: the API has no way to run a workflow's timer on demand",
            )
        if started == "an e-mail":
            return plan(
                "e-mail trigger", reason="an e-mail started this run: aftui cannot send the workflow that e-mail again"
            )
        if started is not None:
            return plan(
                f"events of workflow {emitter}",
                reason="another workflow's event started this run: only that workflow can emit it again",
            )
        if emitter.startswith("dc_"):
            return await self._via_source(plan, emitter, error, inactive)
        # The error does not say how the run started: the one HTTP way into the workflow, if there is only one.
        triggers = [t for t in workflow.triggers if t.kind == "http" and t.endpoint_url]
        feeders = await self._http_feeders(wf_id)
        ways = len(triggers) + len(feeders)
        if ways == 0:
            return plan(
                "unknown",
                reason="the error does not say how the run started, and no HTTP trigger or HTTP source feeds this workflow",
            )
        if ways > 1:
            return plan(
                "unknown",
                reason=f"the error does not say how the run started, and {ways} HTTP triggers and sources lead into this workflow",
            )
        if triggers:
            trigger = triggers[0]
            return plan(
                f"HTTP trigger {trigger.id}",
                request_for(error.original_event, trigger.endpoint_url or ""),
                warning=inactive or GUESSED,
            )
        return await self._via_source(plan, feeders[0], error, inactive or GUESSED)

    async def _via_source(
        self, plan: PlanMaker, source_id: str, error: WorkflowError, inactive: str | None
    ) -> ReplayPlan:
        source = await self._source(source_id)
        if isinstance(source, ApiError):
            return plan(
                f"source {source_id}",
                reason=f"the source that started this run could not be read ({with_status(source)})",
                transient=is_transient(source),
            )
        label = f"HTTP source {source.name} ({source.id})" if source.name else f"HTTP source {source.id}"
        url = source.endpoint_url
        if not url:
            return plan(
                f"source {source.name or source.id}",
                reason="an app or timer source started this run: it has no HTTP endpoint, and the API cannot make it emit this event again",
            )
        warning = "the source is inactive: its endpoint will refuse the request" if source.active is False else inactive
        if not is_http_event(error.original_event):
            warning = warning or "the source passed on only the body: it is sent again as a POST with a JSON body"
        return plan(label, request_for(error.original_event, url), warning=warning)

    async def _workflow(self, workflow_id: str) -> Workflow | ApiError:
        if workflow_id not in self._workflows:
            try:
                self._workflows[workflow_id] = await self.client.get_workflow(workflow_id)
            except ApiError as exc:
                self._workflows[workflow_id] = exc
        return self._workflows[workflow_id]

    async def _source(self, source_id: str) -> Source | ApiError:
        if source_id not in self._sources:
            try:
                self._sources[source_id] = await self.client.get_source(source_id)
            except ApiError as exc:
                self._sources[source_id] = exc
        return self._sources[source_id]

    async def _http_feeders(self, workflow_id: str) -> list[str]:
        """Sources with an HTTP endpoint subscribed to the workflow (default channel)."""
        if self._feeders is None:
            self._feeders = {}
            client = self.client
            fetch = (
                (lambda **kw: client.list_workspace_subscriptions(client.org_id, **kw))
                if client.org_id
                else client.list_subscriptions
            )
            try:
                async for sub in iterate(fetch):
                    if _feeds(sub):
                        self._feeders.setdefault(sub.listener_id, []).append(sub.emitter_id)
            except ApiError:
                pass  # no subscriptions to go by: the reason says no source was found
        out = []
        for source_id in self._feeders.get(workflow_id, []):
            source = await self._source(source_id)
            if not isinstance(source, ApiError) and source.endpoint_url:
                out.append(source_id)
        return out


def _feeds(sub: Subscription) -> bool:
    return sub.emitter_id.startswith("dc_") and "*" not in sub.emitter_id and not (sub.event_name or "").startswith("$")


def _http_trigger(workflow: Workflow, trigger_id: str) -> Trigger | None:
    http = [t for t in workflow.triggers if t.kind == "http"]
    if trigger_id:
        return next((t for t in http if t.id == trigger_id), None)
    return http[0] if len(http) == 1 else None


async def full_errors(client: Client, events: list[EventSummary], workflow_id: str) -> list[EventSummary]:
    """The events with every summary the service cut (over 1 KB) read again in full (`expand=event`).

    One read of the workflow's retained errors serves them all; an error the
    service no longer keeps stays cut, and its plan will say it is not a workflow error.
    """
    if not any(e.truncated for e in events):
        return events
    page = await client.list_workflow_errors(workflow_id, expand=True, limit=100)
    full = {e.id: e for e in page.items if e.id}
    return [full.get(e.id, e) if e.truncated and e.id else e for e in events]


async def plan_replay(client: Client, event: EventSummary, workflow_id: str | None = None) -> ReplayPlan:
    """One plan, for callers that plan a single event."""
    return await Planner(client).plan(event, workflow_id)


__all__ = ["READ_ONLY_REASON", "Planner", "ReplayPlan", "full_errors", "plan_replay"]
