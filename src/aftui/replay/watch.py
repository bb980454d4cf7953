"""After a replay is sent: did the workflow run it through, or fail again?

The service says nothing back about a run (an HTTP trigger answers before or
regardless of it), so the outcome is read where runs leave traces: the
workflow's `$errors` and the events it emits. Both lists are polled by event
id from just before the send (`prime`), so only what came after counts.

Which new event is ours:
- an error whose `original_event` carries our `x-aftui-replay` header (or,
  for a source that passes on only the body, whose event is the body we sent);
- an emitted event that carries our header, or the payload we sent: every
  id-like field (`id`, `*_id`, `*Id`) equal and at least half of the other
  top-level fields equal (strings compared without case, since workflows
  often normalise them). Other traffic arriving meanwhile does not match.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

from ..api import ApiError, Client, failing_status
from ..api.models import EventSummary, WorkflowError
from ..api.poll import EventPoller
from .request import REPLAY_HEADER

OutcomeKind = Literal["succeeded", "failed", "rejected", "unknown", "not sent", "skipped", "not ready"]

PRIME_S = 3.0  # longest the watch waits to note where the lists stand before the replay is sent

OUTCOME_WORDS: dict[str, str] = {
    "succeeded": "succeeded",
    "failed": "failed again",
    "rejected": "refused by the endpoint",
    "unknown": "outcome unknown",
    "not sent": "not sent",
    "skipped": "skipped",
    "not ready": "not ready to replay",  # the plan could not be made now (a 503): tried again, it may go
}


@dataclass(frozen=True)
class Outcome:
    kind: OutcomeKind
    detail: str  # plain words: the new error, the event seen, or why nothing is known
    event: EventSummary | None = None  # the event that tells (the new error, or the emitted event)
    blind: bool = False  # unknown because the service did not answer the looks (an outage), not for want of a sign

    @property
    def words(self) -> str:
        return OUTCOME_WORDS.get(self.kind, self.kind)

    @property
    def error(self) -> WorkflowError | None:
        return self.event.error() if self.event is not None and self.kind == "failed" else None


class OutcomeWatcher:
    """`await prime()` before sending; `await wait(...)` after."""

    def __init__(
        self, client: Client, workflow_id: str, *, on_seen: Callable[[list[EventSummary]], None] | None = None
    ) -> None:
        self.workflow_id = workflow_id
        self.on_seen = on_seen
        self._client = client
        # from_now=False: `prime` reads the first page itself and drops it, so a failed prime cannot
        # make the first look after the send swallow our event as "where the list stands".
        self._errors = EventPoller(partial(client.list_workflow_errors, workflow_id, expand=True), from_now=False)
        self._events = EventPoller(partial(client.list_workflow_events, workflow_id, expand=True), from_now=False)

    async def prime(self, within: float = PRIME_S) -> None:
        """Note where both lists stand, for at most `within` seconds. After a failure here every retained event
        counts as new, and the matching rules still tell ours apart. Bounded: against a service that hung, the
        replay waited minutes for these reads before it was sent (its endpoint, not the API, is what sends it)."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._prime(), within)

    async def _prime(self) -> None:
        for poller in (self._errors, self._events):
            with contextlib.suppress(ApiError):
                await poller.poll_once()

    async def wait(
        self,
        replay_id: str,
        sent_body: Any,
        *,
        timeout: float = 20.0,
        interval: float = 0.5,
        stop: asyncio.Event | None = None,
    ) -> Outcome:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        delay = interval
        problem: str | None = None
        looked = False  # a look was answered: "nothing seen" means something only then
        while True:
            try:
                # Within what is left of the time: a look the service held went on past it, for minutes.
                outcome = await asyncio.wait_for(self._look(replay_id, sent_body), max(0.1, deadline - loop.time()))
                problem, looked = None, True
            except ApiError as exc:
                outcome, problem = None, f"HTTP {exc.status}: {exc.message}" if exc.status else exc.message
            except TimeoutError:
                outcome, problem = None, self._cut_short()
            if outcome is not None:
                return outcome
            if stop is not None and stop.is_set():
                return Outcome("unknown", "stopped while waiting for the outcome")
            if loop.time() >= deadline:
                return Outcome("unknown", _nothing_seen(timeout, problem, looked), blind=problem is not None)
            await _sleep(min(delay, max(0.0, deadline - loop.time())), stop)
            delay = min(delay * 1.5, 3.0)

    def _cut_short(self) -> str:
        """Why a look ran out of time: the client still trying again after 503s (the service answered, with
        failures: "no answer" was wrong there), or no answer at all."""
        status = failing_status(self._client.status)
        if status is not None:
            return f"the service answered HTTP {status}, tried again and again"
        return "the service did not answer"

    async def _look(self, replay_id: str, sent_body: Any) -> Outcome | None:
        errors = await self._errors.poll_once()
        events = await self._events.poll_once()
        if self.on_seen is not None and (errors or events):
            self.on_seen(errors + events)
        return outcome_in(errors, events, replay_id, sent_body)


# Whether a match may stand: the event, and the request it carries (an error's `original_event`, or the
# emitted event's payload).
Accept = Callable[[EventSummary, Any], bool]


def outcome_in(
    errors: Iterable[EventSummary],
    emitted: Iterable[EventSummary],
    replay_id: str,
    sent_body: Any,
    accept: Accept | None = None,
) -> Outcome | None:
    """What the lists show of the replay `replay_id`: the first error of it (failed again), else the first event
    emitted of it (succeeded); None when neither is there. `accept` may refuse a match: the watch reads only
    what came after the send, and takes any; a later look reads the whole lists (`settle`), and must not take
    what another replay's outcome already is."""
    for event in errors:
        error = event.error()
        if error is None or not is_our_error(error, replay_id, sent_body):
            continue
        if accept is None or accept(event, error.original_event):
            return Outcome("failed", f"{error.error.code or 'Error'}: {error.error.msg or ''}", event)
    for event in emitted:
        if carries(event.event, replay_id, sent_body) and (accept is None or accept(event, event.event)):
            return Outcome("succeeded", "the workflow ran it through and emitted an event", event)
    return None


def _nothing_seen(timeout: float, problem: str | None, looked: bool) -> str:
    """Why the outcome is unknown: nothing came, or the service did not let it be looked for."""
    if problem is not None and not looked:
        return (
            f"the workflow's errors and events could not be read for {timeout:g} s ({problem}): "
            "nothing could be seen either way"
        )
    why = f"; the last look failed: {problem}" if problem else ""
    return f"no new error and no event carrying the payload within {timeout:g} s{why}"


async def _sleep(seconds: float, stop: asyncio.Event | None) -> None:
    if stop is None:
        await asyncio.sleep(seconds)
        return
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), timeout=seconds)


def replay_header(value: Any) -> str | None:
    if isinstance(value, dict) and isinstance(value.get("headers"), dict):
        for name, header in value["headers"].items():
            if str(name).lower() == REPLAY_HEADER:
                return str(header)
    return None


def is_our_error(error: WorkflowError, replay_id: str, sent_body: Any) -> bool:
    original = error.original_event
    header = replay_header(original)
    if header is not None:
        return header == replay_id
    return original == sent_body and sent_body is not None


def carries(payload: Any, replay_id: str, sent_body: Any) -> bool:
    """Whether an emitted event is the outcome of the request we sent (see the module's rules)."""
    header = replay_header(payload)
    if header is not None:
        return header == replay_id
    nested = payload.get("body") if isinstance(payload, dict) else None
    if isinstance(nested, dict) and isinstance(sent_body, dict) and carries(nested, replay_id, sent_body):
        return True  # the workflow passed the whole request on
    if not isinstance(sent_body, dict) or not isinstance(payload, dict):
        return sent_body is not None and payload == sent_body
    scalars = {k: v for k, v in sent_body.items() if not isinstance(v, (dict, list))}
    if not scalars:
        return payload == sent_body
    ids = [k for k in scalars if _id_like(k)]
    if any(not _same(payload.get(k, _MISSING), scalars[k]) for k in ids):
        return False
    others = [k for k in scalars if k not in ids]
    if not others:
        return bool(ids)
    equal = sum(1 for k in others if _same(payload.get(k, _MISSING), scalars[k]))
    return equal * 2 >= len(others) if ids else equal == len(others)


_MISSING = object()


def _id_like(key: str) -> bool:
    return key == "id" or key.endswith(("_id", "Id", "ID"))


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, str) and isinstance(b, str):
        return a.casefold() == b.casefold()
    return a is not _MISSING and a == b and type(a) is type(b)
