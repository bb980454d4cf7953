"""What happens when things change: emission, routing and the runs they cause.

Sources emit (with dedupe), events are kept and streamed, subscriptions fan
them out to workflows (which run their steps), sources and webhooks (real
HTTP POSTs, retried). Timers fire on the emulator's clock; workflow errors
become `$errors` events and, at most once a day per error, an e-mail.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import behaviours
from .behaviours import Emission, StepError
from .events import StoredEvent
from .props import next_fire
from .store import Source, Store, Subscription, Trigger, Workflow
from .traffic import activity_requests
from .views import iso

if TYPE_CHECKING:
    import httpx

log = logging.getLogger(__name__)

PLATFORM_VERSION = "3.52.1"
DAY_MS = 24 * 3600 * 1000
MAX_HOPS = 4  # source -> source subscriptions can loop; stop the chain here
SSE_BACKLOG_LIMIT = 200_000  # frames held for one slow SSE reader before it is dropped


def _outgoing_errors() -> tuple[type[Exception], ...]:
    """What an outgoing request can raise: HTTP failures, and URLs httpx cannot use (InvalidURL; IDNAError,
    a ValueError, for a host such as "xn--.example")."""
    import httpx

    return (httpx.HTTPError, httpx.InvalidURL, ValueError)


@dataclass(eq=False)
class Subscriber:
    """One open SSE connection: frames waiting to be written, and a wake-up."""

    frames: list[bytes] = field(default_factory=list)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    closed: bool = False

    def push(self, frame: bytes) -> None:
        if self.closed:
            return
        self.frames.append(frame)
        if len(self.frames) > SSE_BACKLOG_LIMIT:
            self.close()
        self.wake.set()

    def close(self) -> None:
        self.closed = True
        self.wake.set()

    def take(self) -> list[bytes]:
        frames, self.frames = self.frames, []
        self.wake.clear()
        return frames


@dataclass
class Settings:
    seed: int = 1
    activity: bool = False
    root_url: str = "http://127.0.0.1:8787"
    token_lifetime: int = 3600
    keepalive_s: float = 15.0
    webhook_retry_delays: tuple[float, ...] = (0.5, 1.0, 2.0)
    events_delete_delay_s: float = 0.2
    activity_period_s: float = 3.0


class Runtime:
    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.rng = random.Random(settings.seed)
        self.streams: dict[str, set[Subscriber]] = {}
        self.deliveries: deque[dict[str, Any]] = deque(maxlen=1000)
        self.emails: list[dict[str, Any]] = []
        self._last_email: dict[tuple[str, str], int] = {}
        self._subs_index: dict[str, list[Subscription]] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._http: httpx.AsyncClient | None = None
        self._serving = False

    # --- lifecycle --------------------------------------------------------------

    async def start(self) -> None:
        self._serving = True
        if self.settings.activity:
            self.spawn(self._tick_loop())
            self.spawn(self._activity_loop())

    async def stop(self) -> None:
        for subscribers in self.streams.values():
            for sub in subscribers:
                sub.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._http is not None:
            await self._http.aclose()

    def _client(self) -> httpx.AsyncClient:
        """The client of outgoing calls, made for the first: `aftui demo`'s first screen waits for this process
        to serve, and httpx with its transport would cost that wait about 30 ms of imports."""
        if self._http is None:
            import httpx

            self._http = httpx.AsyncClient(timeout=httpx.Timeout(5.0))
        return self._http

    def spawn(self, coro: Any) -> asyncio.Task[Any] | None:
        """Run in the background; before the server runs (demo set-up), run to completion now."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            run_sync(coro)
            return None
        task = loop.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # --- emission -----------------------------------------------------------------

    def emit(
        self, emitter_id: str, event: Any, channel: str = "default", *, emit_id: str | None = None, hops: int = 0
    ) -> StoredEvent:
        """Store one event of an emitter, stream it and route it to listeners."""
        log_ = self.store.log(emitter_id)
        key = log_.ids.next(self.store.clock.now_ms())
        stored = StoredEvent(key, emitter_id, channel, event, emit_id or f"{key[0]:x}{key[1]:x}")
        log_.append(stored)
        if log_.bucket_of(channel) == "user":
            for sub in self.streams.get(emitter_id, ()):
                sub.push(stored.sse_frame())
        if hops < MAX_HOPS:
            for subscription in self._listeners(emitter_id, channel):
                self._deliver(subscription, stored, hops)
        return stored

    def source_emit(self, source: Source, emissions: list[Emission], *, hops: int = 0) -> list[StoredEvent]:
        """A source's `$emit` calls of one run, after its dedupe strategy."""
        comp = self.store.components[source.component_id]
        dedupe = comp.meta.dedupe
        if any(e.ts is not None for e in emissions):
            # With ts, events are emitted oldest to newest.
            emissions = sorted(emissions, key=lambda e: e.ts if e.ts is not None else 0)
        if dedupe:
            emissions = self._dedupe(source, dedupe, emissions)
        return [
            self.emit(source.id, e.event, e.channel, emit_id=None if e.id is None else str(e.id), hops=hops)
            for e in emissions
        ]

    def _dedupe(self, source: Source, strategy: str, emissions: list[Emission]) -> list[Emission]:
        missing_id = [e for e in emissions if e.id is None]
        if missing_id:
            self.log_line(
                source, f"$emit called without an id while dedupe is {strategy!r}; {len(missing_id)} event(s) dropped"
            )
        with_id = [e for e in emissions if e.id is not None]
        if strategy == "unique":
            kept = []
            for e in with_id:
                # Ids may be numbers or strings: 5 and "5" are one id, as they are in the cache.
                if str(e.id) not in source.dedupe_seen:
                    source.dedupe_seen.append(str(e.id))
                    del source.dedupe_seen[:-100]  # the cache holds 100 ids, first in first out
                    kept.append(e)
            return kept
        if strategy == "greatest":
            kept = []
            for e in with_id:
                value = _number(e.id)
                if value is not None and (source.dedupe_greatest is None or value > source.dedupe_greatest):
                    source.dedupe_greatest = value
                    kept.append(e)
            return kept
        # "last": emit what follows the cached last id, or everything if it is not found.
        ids = [str(e.id) for e in with_id]
        kept = with_id
        if source.dedupe_last in ids:
            kept = with_id[ids.index(source.dedupe_last) + 1 :]
        if with_id:
            source.dedupe_last = str(with_id[-1].id)
        return kept

    def log_line(self, source: Source, message: str, **fields: Any) -> None:
        """A line on the source's `$logs` channel, as its standard output would be."""
        self.emit(source.id, {"message": message, "ts": iso(self.store.clock.now_ms()), **fields}, "$logs")

    # --- routing ------------------------------------------------------------------

    def subscriptions_changed(self) -> None:
        self._subs_index = None

    def _listeners(self, emitter_id: str, channel: str) -> list[Subscription]:
        if self._subs_index is None:
            index: dict[str, list[Subscription]] = {}
            for sub in self.store.subscriptions.values():
                index.setdefault(sub.emitter_id, []).append(sub)
            self._subs_index = index
        if not self._subs_index:
            return []
        glob = "p_*" if emitter_id.startswith("p_") else "dc_*" if emitter_id.startswith("dc_") else None
        candidates = self._subs_index.get(emitter_id, []) + (self._subs_index.get(glob, []) if glob else [])
        return [s for s in candidates if (s.event_name or "default") == channel and self._same_workspace(s, emitter_id)]

    def _same_workspace(self, sub: Subscription, emitter_id: str) -> bool:
        """Globs reach only the emitters of the subscription's workspace."""
        if not sub.emitter_id.endswith("*"):
            return True
        emitter = self.store.sources.get(emitter_id) or self.store.workflows.get(emitter_id)
        return emitter is not None and emitter.org_id == sub.org_id

    def _deliver(self, sub: Subscription, stored: StoredEvent, hops: int) -> None:
        listener = sub.listener_id
        if listener.startswith("wh_"):
            webhook = self.store.webhooks.get(listener)
            if webhook is not None and webhook.active:
                self.spawn(self._post_webhook(webhook.id, webhook.url, stored))
        elif listener.startswith("p_"):
            workflow = self.store.workflows.get(listener)
            if workflow is not None and workflow.active:
                self.spawn(
                    self.run_workflow(workflow, stored.event, source_type="COMPONENT", emitter_id=stored.emitter_id)
                )
        elif listener.startswith("dc_"):
            source = self.store.sources.get(listener)
            if source is not None and source.active and source.id != stored.emitter_id:
                # A source that listens to an emitter is run with each event and emits it on.
                self.source_emit(source, [Emission(stored.event, id=stored.id)], hops=hops + 1)

    async def _post_webhook(self, webhook_id: str, url: str, stored: StoredEvent) -> None:
        body = stored.summary(expand=True)
        headers = {
            "Content-Type": "application/json",
            "X-Emitter-Id": stored.emitter_id,
            "X-Event-Name": stored.channel,
            "X-Event-Id": stored.id,
            "X-Webhook-Id": webhook_id,
        }
        record: dict[str, Any] = {
            "webhook_id": webhook_id,
            "url": url,
            "event_id": stored.id,
            "emitter_id": stored.emitter_id,
            "attempts": [],
        }
        self.deliveries.append(record)
        if not self._serving:
            record["skipped"] = "the emulator was not serving yet"
            return
        delays = (0.0, *self.settings.webhook_retry_delays)
        for attempt, delay in enumerate(delays, start=1):
            if delay:
                await asyncio.sleep(delay)
            outcome = await self._post_once(url, body, headers)
            record["attempts"].append({"attempt": attempt, **outcome})
            if outcome.get("status") and 200 <= outcome["status"] < 300:
                record["delivered"] = True
                return
        record["delivered"] = False

    async def _post_once(self, url: str, body: Any, headers: dict[str, str]) -> dict[str, Any]:
        try:
            response = await self._client().post(url, json=body, headers=headers)
        except _outgoing_errors() as exc:
            return {"error": type(exc).__name__}
        return {"status": response.status_code}

    # --- workflows ----------------------------------------------------------------

    async def run_workflow(
        self, workflow: Workflow, event: Any, *, source_type: str, emitter_id: str | None = None, test: bool = False
    ) -> dict[str, Any]:
        """Run the steps in order; a thrown error becomes a `$errors` event.

        Test runs (the editor's "test") are neither e-mailed nor forwarded,
        as the spec says; their error is only returned.
        """
        now = self.store.clock.now_ms()
        context = {
            "id": self.store.ids.token("", 27),
            "ts": iso(now),
            "workflow_id": workflow.id,
            "deployment_id": workflow.deployment_id,
            "source_type": source_type,
            "verified": False,
            "owner_id": workflow.owner_id,
            "platform_version": PLATFORM_VERSION,
            "workflow_name": workflow.name,
            "emitter_id": emitter_id,
        }
        value: Any = None
        for step in workflow.steps:
            if step.disabled:
                continue
            comp = self.store.components[step.component_id]
            try:
                result = behaviours.run_step(comp.key, step.configured_props, event, value, self.rng)
                if result.call is not None:
                    await self._step_call(result.call)
            except StepError as err:
                error = self._error_record(err, step.id, comp.code_hash)
                if not test:
                    self._raise_error(workflow, event, context, error)
                return {"status": "error", "error": error, "context": context}
            value = result.value
            if result.emit is not None and not test:
                self.emit(workflow.id, result.emit)
        return {"status": "success", "value": value, "context": context}

    async def _step_call(self, call: dict[str, Any]) -> None:
        url = call.get("url")
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise StepError("ConfigurationError", f"url must be an http(s) URL, got {url!r}")
        try:
            response = await self._client().request(str(call.get("method") or "POST"), url, json=call.get("json"))
        except _outgoing_errors() as exc:
            raise StepError("RequestError", f"{type(exc).__name__} calling {url}") from None
        if response.status_code >= 400:
            raise StepError("HTTPError", f"Request failed with status code {response.status_code}")

    def _error_record(self, err: StepError, cell_id: str, code_hash: str) -> dict[str, Any]:
        stack = (
            f"{err.code}: {err.message}\n"
            f"    at Object.run (file:///tmp/__pdg__/dist/code/{code_hash[:16]}/component.mjs:24:15)\n"
            f"    at null.executeComponent (/var/task/launch_worker.js:292:53)"
        )
        return {
            "code": err.code,
            "msg": err.message,
            "cellId": cell_id,
            "ts": iso(self.store.clock.now_ms()),
            "stack": stack,
        }

    def _raise_error(self, workflow: Workflow, event: Any, context: dict[str, Any], error: dict[str, Any]) -> None:
        self.emit(workflow.id, {"original_event": event, "original_context": context, "error": error}, "$errors")
        self._maybe_email(workflow, error)

    def _maybe_email(self, workflow: Workflow, error: dict[str, Any]) -> None:
        """At most one e-mail per error, per workflow, per 24 hours."""
        if not workflow.active:
            return
        now = self.store.clock.now_ms()
        key = (workflow.id, f"{error['code']}: {error['msg']}")
        last = self._last_email.get(key)
        if last is not None and now - last < DAY_MS:
            return
        self._last_email[key] = now
        owner = self.store.users[workflow.owner_id]
        self.emails.append(
            {
                "to": owner.email,
                "workflow_id": workflow.id,
                "subject": f"[{workflow.name}] {key[1]}",
                "error": error,
                "sent_at": iso(now),
            }
        )

    # --- HTTP interfaces ------------------------------------------------------------

    async def handle_endpoint(self, key: str, request_event: dict[str, Any]) -> tuple[int, dict[str, str], Any]:
        """An HTTP request to `{root_url}/e/{key}`: status, headers and body to answer."""
        target = self.store.endpoint(key)
        if target is None:
            return 404, {}, {"error": f"no endpoint {key}"}
        if isinstance(target, Source):
            return self._source_request(target, request_event)
        workflow, trigger = target
        if not workflow.active:
            return 409, {}, {"error": f"workflow {workflow.id} is inactive; the request was not processed"}
        run = await self.run_workflow(workflow, request_event, source_type="HTTP", emitter_id=trigger.id)
        if not trigger.custom_response:
            return 200, {}, {"success": True}
        # A custom response is the workflow's to give: the last step's value, or its error.
        if run["status"] == "error":
            return 500, {}, {"error": run["error"]["msg"]}
        return 200, {}, run["value"] if run["value"] is not None else {}

    def _source_request(self, source: Source, request_event: dict[str, Any]) -> tuple[int, dict[str, str], Any]:
        if not source.active:
            return 409, {}, {"error": f"source {source.id} is inactive; the request was not processed"}
        body_only = source.configured_props.get("emitBodyOnly") is True
        stored = self.source_emit(source, [behaviours.http_emission(request_event, body_only=body_only)])
        comp = self.store.components[source.component_id]
        custom = any(p.get("type") == "$.interface.http" and p.get("customResponse") for p in comp.meta.props)
        if not custom:
            return 200, {}, {"success": True}
        return _custom_response(comp.meta.respond, source, stored)

    # --- sources' lifecycle -----------------------------------------------------------

    def run_hooks(self, source: Source, names: Iterable[str]) -> None:
        """Run the hooks the component defines, in the order given, logging each run."""
        comp = self.store.components[source.component_id]
        for name in names:
            if name in comp.meta.hooks:
                self.log_line(source, f"{name}() hook ran", hook=name)

    def schedule_source(self, source: Source) -> None:
        timer = _timer_of(source)
        source.next_fire_s = next_fire(timer, self.store.clock.now()) if timer and source.active else None

    def schedule_trigger(self, trigger: Trigger) -> None:
        if trigger.kind == "timer":
            timer = {"interval_seconds": trigger.interval_seconds, "cron": trigger.cron, "timezone": trigger.timezone}
            trigger.next_fire_s = next_fire(timer, self.store.clock.now())

    async def fire_source_timer(self, source: Source) -> list[StoredEvent]:
        comp = self.store.components[source.component_id]
        emissions = behaviours.timer_emissions(source, comp.key, self.store.clock.now_ms(), self.rng)
        emitted = self.source_emit(source, emissions)
        self.schedule_source(source)
        return emitted

    async def fire_workflow_timer(self, workflow: Workflow, trigger: Trigger) -> dict[str, Any]:
        now = self.store.clock.now_ms()
        event = {"timestamp": now // 1000, "interval_seconds": trigger.interval_seconds, "cron": trigger.cron}
        self.schedule_trigger(trigger)
        return await self.run_workflow(workflow, event, source_type="TIMER", emitter_id=trigger.id)

    async def fire_due(self, *, max_catch_up: int = 100) -> int:
        """Fire every timer due by the clock's now; returns how many fired."""
        now = self.store.clock.now()
        fired = 0
        for source in list(self.store.sources.values()):
            for _ in range(max_catch_up):
                if source.next_fire_s is None or source.next_fire_s > now or not source.active:
                    break
                await self.fire_source_timer(source)
                fired += 1
        for workflow in list(self.store.workflows.values()):
            for trigger in workflow.triggers:
                for _ in range(max_catch_up):
                    if trigger.next_fire_s is None or trigger.next_fire_s > now or not workflow.active:
                        break
                    await self.fire_workflow_timer(workflow, trigger)
                    fired += 1
        return fired

    async def _tick_loop(self) -> None:
        while True:
            await asyncio.sleep(0.25)
            try:
                await self.fire_due(max_catch_up=1)
            except Exception:
                log.exception("timer tick failed")

    async def _activity_loop(self) -> None:
        """Demo traffic: requests to the demo's HTTP sources and order workflow."""
        while True:
            await asyncio.sleep(self.settings.activity_period_s)
            for key, request_event in activity_requests(self.store, self.rng):
                try:
                    await self.handle_endpoint(key, request_event)
                except Exception:
                    log.exception("demo activity failed")

    # --- streams ---------------------------------------------------------------------

    def open_stream(self, source_id: str, last_key: tuple[int, int] | None) -> Subscriber:
        """A new SSE subscriber, primed with the retained events after `last_key`."""
        sub = Subscriber()
        if last_key is not None:
            for stored in self.store.log(source_id).after(last_key):
                sub.frames.append(stored.sse_frame())
        self.streams.setdefault(source_id, set()).add(sub)
        return sub

    def close_stream(self, source_id: str, sub: Subscriber) -> None:
        sub.close()
        subscribers = self.streams.get(source_id)
        if subscribers is not None:
            subscribers.discard(sub)

    def drop_streams(self, source_id: str | None = None) -> int:
        dropped = 0
        for sid, subscribers in self.streams.items():
            if source_id is None or sid == source_id:
                for sub in list(subscribers):
                    sub.close()
                    dropped += 1
        return dropped

    async def inject(self, source: Source, *, count: int, rate: float, size: int, channel: str) -> int:
        """Emit `count` synthetic events into a source, at `rate` per second (0: at once)."""
        padding = "x" * size
        batch = 500 if rate <= 0 else max(1, int(rate / 20))
        loop = asyncio.get_running_loop()
        start = loop.time()
        for first in range(0, count, batch):
            for i in range(first, min(first + batch, count)):
                self.emit(source.id, {"seq": i, "injected": True, "data": padding}, channel)
            if rate > 0:
                delay = start + (first + batch) / rate - loop.time()
                await asyncio.sleep(max(0.0, delay))
            else:
                await asyncio.sleep(0)
        return count


def run_sync(coro: Any) -> Any:
    """Run a coroutine that needs no event loop (it awaits nothing real) to its end."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise RuntimeError("a background job awaited I/O before the emulator was serving")


def _timer_of(source: Source) -> dict[str, Any] | None:
    for value in source.configured_props.values():
        if isinstance(value, dict) and "interval_seconds" in value and "cron" in value:
            return value
    return None


def _number(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _custom_response(
    respond: dict[str, Any] | None, source: Source, stored: list[StoredEvent]
) -> tuple[int, dict[str, str], Any]:
    """The component's literal `respond({...})`, or its `status`/`body` props."""
    spec = dict(respond or {})
    props = source.configured_props
    status = props.get("status", spec.get("status", 200))
    body = props.get("body", spec.get("body", {"event_id": stored[0].id if stored else None}))
    headers = spec.get("headers")
    if not isinstance(headers, dict):
        headers = {}
    if not isinstance(status, int) or not 100 <= status <= 599:
        status = 500
        body = {"error": "respond() was called with an invalid status"}
    return status, {str(k): str(v) for k, v in headers.items()}, body


def code_hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()
