"""Sending replays: one (`replay_one`) or many in their original order (`replay_bulk`).

A replay is a POST (or whatever the original method was) to a public
endpoint, not an API call: it goes out on its own httpx client, without the
profile's bearer token. It runs a workflow, so it is a change to the
service, and a read-only profile refuses it here, before anything is sent.
Each replay is journaled before it is sent and completed with its outcome.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import httpx

from ..api import ApiError, Client, ReadOnlyError
from ..api.errors import transport_message
from ..api.models import EventSummary, WorkflowError
from ..journal.backend import ReplayStore
from .patch import PatchError
from .plan import Planner, ReplayPlan, full_errors
from .request import REPLAY_HEADER, ReplayRequest
from .watch import Outcome, OutcomeKind, OutcomeWatcher
from .who import sign

SEND_TIMEOUT_S = 30.0
WATCH_TIMEOUT_S = 20.0
ANSWER_LIMIT = 2000  # characters of the endpoint's answer kept for the screen
USER_AGENT = "aftui-replay/0.1"


@dataclass(frozen=True)
class Sent:
    status: int | None
    answer: str = ""  # the endpoint's answer, capped
    problem: str | None = None  # why nothing came back


@dataclass(frozen=True)
class ReplayResult:
    plan: ReplayPlan
    replay_id: str | None
    request: ReplayRequest | None
    sent: Sent | None
    outcome: Outcome


def new_replay_id() -> str:
    return "rp_" + secrets.token_hex(8)


async def send(
    request: ReplayRequest, replay_id: str, *, http: httpx.AsyncClient | None = None, timeout: float = SEND_TIMEOUT_S
) -> Sent:
    """Send the request once (no retries: a replay that may have arrived must not be sent twice)."""
    content, headers = request.content()
    headers = {**headers, REPLAY_HEADER: replay_id}
    headers.setdefault("user-agent", USER_AGENT)
    own = http is None
    client = http or httpx.AsyncClient(timeout=httpx.Timeout(timeout), follow_redirects=False)
    try:
        response = await client.request(
            request.method, request.url, params=request.query, content=content, headers=headers
        )
    except httpx.TimeoutException:
        return Sent(None, problem=f"no answer within {timeout:g} s (the request may still have arrived)")
    except httpx.TransportError as exc:
        return Sent(None, problem=transport_message(exc).replace("the service", "the endpoint"))
    except (httpx.InvalidURL, ValueError) as exc:
        return Sent(None, problem=f"the endpoint URL cannot be used: {exc}")
    finally:
        if own:
            await client.aclose()
    return Sent(response.status_code, response.text[:ANSWER_LIMIT])


async def replay_one(
    client: Client,
    plan: ReplayPlan,
    *,
    body: Any = None,
    edited: bool = False,
    log: ReplayStore | None = None,
    on_seen: Callable[[list[EventSummary]], None] | None = None,
    watch_timeout: float = WATCH_TIMEOUT_S,
    stop: asyncio.Event | None = None,
    http: httpx.AsyncClient | None = None,
    on_watch: Callable[[Sent], None] | None = None,
) -> ReplayResult:
    """Send one replay (the edited `body` when `edited`) and watch for its outcome; `on_watch(sent)` once the
    endpoint has taken it and the watch begins (a screen that still said "Sending" through a 20 s watch read as
    a request that had not gone).

    Raises `ReadOnlyError` for a read-only client. A plan that cannot be sent
    comes back as a "skipped" result with its reason.
    """
    if client.read_only:
        raise ReadOnlyError("replaying an event")
    request = plan.request
    if request is None:
        # "skipped" said the same of a run no replay can start (a timer's) and of a plan an outage kept from
        # being made, which a second try may send: a script could tell them apart only by the exit code.
        kind: OutcomeKind = "not ready" if plan.transient else "skipped"
        return ReplayResult(plan, None, None, None, Outcome(kind, plan.reason or "it cannot be replayed"))
    if edited:
        request = request.with_body(body)
    replay_id = new_replay_id()
    watcher = OutcomeWatcher(client, plan.workflow_id, on_seen=on_seen)
    await watcher.prime()
    if log is not None:
        await sign(client, log)  # the row says who replayed: a teammate sees it before replaying again
        other = log.started(
            replay_id,
            emitter_id=plan.emitter_id,
            event_id=plan.event_id,
            workflow_id=plan.workflow_id,
            method=request.method,
            target_url=request.full_url,
            edited=request.edited,
        )
        if other is not None:  # another aftui sends it right now: the same request twice would run twice
            who = other.replayed_by or "another aftui"
            return ReplayResult(
                plan, None, request, None, Outcome("skipped", f"being replayed by {who} now: not sent twice")
            )
    try:
        sent = await send(request, replay_id, http=http)
        outcome = await _outcome(watcher, sent, replay_id, request, watch_timeout, stop, on_watch)
    except BaseException:
        # Cancelled once the request may have gone (the screen left, the app quit), or a caller's `on_watch`
        # failing on a screen just left: left "pending", the row held its error for good (no selection takes a
        # pending one). Unknown, it is looked for again (`settle`).
        if log is not None:
            log.finished(replay_id, outcome="unknown", detail="left before its outcome was seen (it may have run)")
        raise
    if log is not None:
        log.finished(
            replay_id,
            outcome=outcome.kind,
            status_code=sent.status,
            detail=outcome.detail,
            outcome_emitter_id=(outcome.event.metadata.emitter_id or plan.workflow_id) if outcome.event else None,
            outcome_event_id=outcome.event.id if outcome.event else None,
        )
    return ReplayResult(plan, replay_id, request, sent, outcome)


async def _outcome(
    watcher: OutcomeWatcher,
    sent: Sent,
    replay_id: str,
    request: ReplayRequest,
    timeout: float,
    stop: asyncio.Event | None,
    on_watch: Callable[[Sent], None] | None = None,
) -> Outcome:
    if sent.status is None:
        return Outcome("not sent", sent.problem or "no answer")
    if 400 <= sent.status < 500:
        answer = " ".join(sent.answer.split())[:300]
        return Outcome("rejected", f"the endpoint answered {sent.status}" + (f": {answer}" if answer else ""))
    if on_watch is not None:
        on_watch(sent)
    return await watcher.wait(replay_id, request.body, timeout=timeout, stop=stop)


# --- bulk ---------------------------------------------------------------------------------------------


@dataclass
class BulkSummary:
    """What a bulk replay did, in the order it did it; `stopped` when the user stopped it."""

    total: int
    results: list[ReplayResult] = field(default_factory=list)
    stopped: bool = False
    # Why the run stopped by itself: a replay's outcome could not be looked for (the service did not answer),
    # and sending on would send blind: in an outage the run went on through every error, each "unknown".
    halted: str | None = None

    def count(self, kind: str) -> int:
        return sum(1 for r in self.results if r.outcome.kind == kind)

    @property
    def not_reached(self) -> int:
        """Left when stopped."""
        return self.total - len(self.results)

    def line(self) -> str:
        """The summary in one line: `3 succeeded · 1 failed again · 2 skipped · 4 not replayed (stopped)`."""
        parts = []
        for kind, words in (
            ("succeeded", "succeeded"),
            ("failed", "failed again"),
            ("rejected", "refused"),
            ("unknown", "unknown"),
            ("not sent", "not sent"),
            ("skipped", "skipped"),
            ("not ready", "not ready"),
        ):
            n = self.count(kind)
            if n:
                parts.append(f"{n} {words}")
        if self.halted and self.not_reached:
            parts.append(f"{self.not_reached} not replayed (stopped: {self.halted})")
        elif self.stopped and self.not_reached:
            parts.append(f"{self.not_reached} not replayed (stopped)")
        return " · ".join(parts) or "nothing replayed"


def original_order(events: list[EventSummary]) -> list[EventSummary]:
    """Oldest first: by event id (`<ms>-<seq>` orders by time), else by indexed time."""
    return sorted(events, key=lambda e: (e.key or (e.indexed_at_ms or 0, 0), e.id or ""))


async def replay_bulk(
    client: Client,
    events: list[EventSummary],
    workflow_id: str | None = None,
    *,
    log: ReplayStore | None = None,
    on_seen: Callable[[list[EventSummary]], None] | None = None,
    on_progress: Callable[[int, BulkSummary, ReplayResult | None], None] | None = None,
    on_watch: Callable[[int, Sent], None] | None = None,
    stop: asyncio.Event | None = None,
    planner: Planner | None = None,
    watch_timeout: float = WATCH_TIMEOUT_S,
    edit: Callable[[ReplayPlan], Any] | None = None,
) -> BulkSummary:
    """Replay `events` one at a time, oldest first, each as it was (or as `edit(plan)` makes its body).

    `on_progress(index, summary, result)` is called before each one
    (result None) and after it, and `on_watch(index, sent)` once its endpoint
    has taken it; setting `stop` ends the run after the replay in flight
    (whose watch it also cuts short).
    """
    if client.read_only:
        raise ReadOnlyError("replaying events")
    planner = planner or Planner(client)
    ordered = original_order(events)
    if workflow_id:
        ordered = await full_errors(client, ordered, workflow_id)
    summary = BulkSummary(total=len(ordered))
    http = httpx.AsyncClient(timeout=httpx.Timeout(SEND_TIMEOUT_S), follow_redirects=False)
    try:
        for index, event in enumerate(ordered):
            if stop is not None and stop.is_set():
                summary.stopped = True
                break
            if on_progress is not None:
                on_progress(index, summary, None)
            try:
                plan = await planner.plan(event, workflow_id)
                edited = edit is not None and plan.replayable
                body = edit(plan) if edit is not None and plan.replayable else None
                result = await replay_one(
                    client,
                    plan,
                    body=body,
                    edited=edited,
                    log=log,
                    on_seen=on_seen,
                    watch_timeout=watch_timeout,
                    stop=stop,
                    http=http,
                    on_watch=partial(on_watch, index) if on_watch is not None else None,
                )
            except PatchError as exc:  # the caller checks every payload first; this one changed meanwhile
                result = ReplayResult(plan, None, None, None, Outcome("not sent", f"the edit cannot be made: {exc}"))
            except ApiError as exc:
                plan = ReplayPlan(
                    event, event.error() or WorkflowError(), workflow_id or "", None, "unknown", reason=exc.message
                )
                result = ReplayResult(plan, None, None, None, Outcome("not sent", exc.message))
            summary.results.append(result)
            if on_progress is not None:
                on_progress(index, summary, result)
            if result.outcome.blind and summary.not_reached:
                summary.halted = "the service did not answer: its outcome could not be seen"
                break
        asked = stop is not None and stop.is_set()
        summary.stopped = (asked or summary.halted is not None) and summary.not_reached > 0
    finally:
        await http.aclose()
    return summary
