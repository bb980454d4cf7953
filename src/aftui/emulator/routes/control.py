"""`/_emulator/...`: controls for tests, benchmarks and the demo; never under /v1.

The control API takes no bearer token: it exists only on the emulator,
which binds loopback by default. Two controls need what only the server
knows (the demo's ids, the hostile data set planted once): `routes` is
handed them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..behaviours import Emission
from ..errors import bad_request, not_found
from ..faults import Fault
from ..http import core_of, json_response, read_params
from ..variants import Variant

Report = Callable[[], dict[str, Any]]  # a server-side control that answers a JSON object


def _number(params: dict[str, Any], name: str, default: float, *, low: float = 0, high: float = 10**9) -> float:
    raw = params.get(name, default)
    try:
        value = float(raw)
    except (TypeError, ValueError):
        raise bad_request(f"{name} must be a number", param=name) from None
    if not low <= value <= high:
        raise bad_request(f"{name} must be from {low:g} to {high:g}", param=name)
    return value


async def inject(request: Request) -> Response:
    """Emit synthetic events into a source: count, rate per second (0: at once), payload size, channel."""
    core, params = core_of(request), await read_params(request)
    source = core.store.sources.get(request.path_params["id"])
    if source is None:
        raise not_found("source", request.path_params["id"])
    count = int(_number(params, "count", 1, low=1, high=10_000_000))
    rate = _number(params, "rate", 0)
    size = int(_number(params, "size", 0, high=10 * 1024 * 1024))
    channel = str(params.get("channel") or "default")
    job = core.runtime.inject(source, count=count, rate=rate, size=size, channel=channel)
    if params.get("wait") in (True, "true", "1"):
        await job
        return json_response({"injected": count})
    core.runtime.spawn(job)
    return json_response({"scheduled": count}, 202)


async def emit(request: Request) -> Response:
    """`$emit` calls of one source run, through its dedupe.

    One call: {event, id?, channel?, summary?, ts?}; several calls of one run
    (ordered by ts, deduped together): {events: [{event, id?, channel?, ts?}, ...]}.
    """
    core, params = core_of(request), await read_params(request)
    source = core.store.sources.get(request.path_params["id"])
    if source is None:
        raise not_found("source", request.path_params["id"])
    if "events" in params:
        calls = params["events"]
        if not isinstance(calls, list) or not all(isinstance(c, dict) for c in calls):
            raise bad_request("events must be an array of {event, id?, channel?, ts?}", param="events")
        emissions = [_emission(c, f"events[{i}].") for i, c in enumerate(calls)]
    else:
        emissions = [_emission(params, "")]
    stored = core.runtime.source_emit(source, emissions)
    return json_response({"emitted": [s.id for s in stored]})


def _emission(call: dict[str, Any], where: str) -> Emission:
    if "event" not in call:
        raise bad_request(f"{where}event is required", param=f"{where}event")
    ts = call.get("ts")
    if ts is not None and (not isinstance(ts, (int, float)) or isinstance(ts, bool)):
        raise bad_request(f"{where}ts must be an epoch timestamp in milliseconds", param=f"{where}ts")
    return Emission(call["event"], id=call.get("id"), channel=str(call.get("channel") or "default"), ts=ts)


async def run_timer(request: Request) -> Response:
    """Fire a timer now: a timer source (dc_), a timer trigger (ti_) or every timer of a workflow (p_)."""
    core = core_of(request)
    ident = request.path_params["id"]
    if ident in core.store.sources:
        emitted = await core.runtime.fire_source_timer(core.store.sources[ident])
        return json_response({"emitted": [e.id for e in emitted]})
    for workflow in core.store.workflows.values():
        timers = [t for t in workflow.triggers if t.kind == "timer" and ident in (t.id, workflow.id)]
        if timers:
            runs = [await core.runtime.fire_workflow_timer(workflow, t) for t in timers]
            return json_response({"runs": [r["status"] for r in runs]})
    raise not_found("timer", ident)


async def faults(request: Request) -> Response:
    core = core_of(request)
    if request.method == "GET":
        return json_response({"faults": [f.describe() for f in core.faults.active()]})
    if request.method == "DELETE":
        core.faults.clear()
        return json_response({})
    fault = Fault.from_params(await read_params(request))
    core.faults.add(fault)
    return json_response(fault.describe())


async def variants(request: Request) -> Response:
    """Answer in the other shapes the real service sends: `{shapes: [...], path}` (see variants.py); DELETE: as documented again."""
    core = core_of(request)
    if request.method == "POST":
        core.variants.set(Variant.from_params(await read_params(request)))
    elif request.method == "DELETE":
        core.variants.clear()
    return json_response({"variants": [v.describe() for v in core.variants.active]})


async def drop_streams(request: Request) -> Response:
    params = await read_params(request)
    source_id = params.get("source_id")
    return json_response({"dropped": core_of(request).runtime.drop_streams(str(source_id) if source_id else None)})


async def clock(request: Request) -> Response:
    """Read, set (now_ms), advance (seconds) or freeze/release (running) the clock.

    Timers that come due when the clock moves forward fire before the answer.
    """
    core = core_of(request)
    if request.method == "POST":
        params = await read_params(request)
        if "running" in params:
            core.store.clock.run(params["running"] in (True, "true", "1"))
        if "now_ms" in params:
            core.store.clock.set(int(_number(params, "now_ms", 0, high=10**15)))
        if "advance" in params:
            core.store.clock.advance(_number(params, "advance", 0, high=10**8))
        fired = await core.runtime.fire_due()
        return json_response(
            {"now_ms": core.store.clock.now_ms(), "running": core.store.clock.running, "timers_fired": fired}
        )
    return json_response({"now_ms": core.store.clock.now_ms(), "running": core.store.clock.running})


async def revoke_key(request: Request) -> Response:
    """Revoke a user's API key as settings would: a new key is generated, the old one gets 401."""
    core = core_of(request)
    user = core.store.users.get(request.path_params["id"])
    if user is None:
        raise not_found("user", request.path_params["id"])
    user.revoked_keys.append(user.api_key)
    user.api_key = core.store.ids.token("", 32).lower()
    return json_response({"api_key": user.api_key})


async def settings(request: Request) -> Response:
    """Tune what tests need shorter: token lifetime, SSE keepalive, retry delays, deletion delay."""
    core = core_of(request)
    params = await read_params(request)
    s = core.settings
    if "token_lifetime" in params:
        s.token_lifetime = int(_number(params, "token_lifetime", 3600, low=1, high=86400))
    if "keepalive_s" in params:
        s.keepalive_s = _number(params, "keepalive_s", 15, low=0.05, high=3600)
    if "events_delete_delay_s" in params:
        s.events_delete_delay_s = _number(params, "events_delete_delay_s", 0.2, high=60)
    if "webhook_retry_delays" in params:
        delays = params["webhook_retry_delays"]
        if not isinstance(delays, list) or not all(isinstance(d, (int, float)) and 0 <= d <= 60 for d in delays):
            raise bad_request("webhook_retry_delays must be a list of seconds", param="webhook_retry_delays")
        s.webhook_retry_delays = tuple(float(d) for d in delays)
    return json_response(
        {
            "token_lifetime": s.token_lifetime,
            "keepalive_s": s.keepalive_s,
            "events_delete_delay_s": s.events_delete_delay_s,
            "webhook_retry_delays": list(s.webhook_retry_delays),
        }
    )


async def deliveries(request: Request) -> Response:
    return json_response({"deliveries": list(core_of(request).runtime.deliveries)})


async def emails(request: Request) -> Response:
    return json_response({"emails": list(core_of(request).runtime.emails)})


async def send_email(request: Request) -> Response:
    """Deliver an e-mail to a workflow's email trigger address: {to, from, subject, text}."""
    core, params = core_of(request), await read_params(request)
    to = params.get("to")
    for workflow in core.store.workflows.values():
        for trigger in workflow.triggers:
            if trigger.kind == "email" and trigger.email_address == to:
                event = {k: params.get(k) for k in ("to", "from", "subject", "text")}
                run = (
                    await core.runtime.run_workflow(workflow, event, source_type="EMAIL", emitter_id=trigger.id)
                    if workflow.active
                    else None
                )
                return json_response({"status": run["status"] if run else "inactive"})
    raise not_found("email trigger", str(to))


async def test_run(request: Request) -> Response:
    """A test run of a workflow: errors are returned, not e-mailed nor forwarded."""
    core, params = core_of(request), await read_params(request)
    workflow = core.store.workflows.get(request.path_params["id"])
    if workflow is None:
        raise not_found("workflow", request.path_params["id"])
    run = await core.runtime.run_workflow(workflow, params.get("event"), source_type="TEST", test=True)
    return json_response(run)


async def account_state(request: Request) -> Response:
    """Mark an account healthy or not, dead or not (the spec does not show what moves these)."""
    core, params = core_of(request), await read_params(request)
    account = core.store.accounts.get(request.path_params["id"])
    if account is None:
        raise not_found("account", request.path_params["id"])
    for name in ("healthy", "dead"):
        if name in params:
            if not isinstance(params[name], bool):
                raise bad_request(f"{name} must be a boolean", param=name)
            setattr(account, name, params[name])
    account.updated_at_ms = core.store.clock.now_ms()
    return json_response({"id": account.id, "healthy": account.healthy, "dead": account.dead})


def routes(*, describe: Report, plant_hostile: Report) -> list[Route]:
    """The control routes, with the server's two controls.

    `describe` answers `GET info`: URLs, the demo key, the OAuth client, ids.
    `plant_hostile` plants the hostile data set (names, payloads, stacks and
    accounts that attack a terminal) the first time and answers its ids.
    """

    async def info(request: Request) -> Response:
        return json_response(describe())

    async def hostile(request: Request) -> Response:
        return json_response(plant_hostile())

    return [
        Route("/_emulator/info", info, methods=["GET"]),
        Route("/_emulator/sources/{id}/inject", inject, methods=["POST"]),
        Route("/_emulator/sources/{id}/emit", emit, methods=["POST"]),
        Route("/_emulator/timers/{id}/run", run_timer, methods=["POST"]),
        Route("/_emulator/faults", faults, methods=["GET", "POST", "DELETE"]),
        Route("/_emulator/variants", variants, methods=["GET", "POST", "DELETE"]),
        Route("/_emulator/sse/drop", drop_streams, methods=["POST"]),
        Route("/_emulator/clock", clock, methods=["GET", "POST"]),
        Route("/_emulator/users/{id}/revoke_key", revoke_key, methods=["POST"]),
        Route("/_emulator/settings", settings, methods=["POST"]),
        Route("/_emulator/deliveries", deliveries, methods=["GET"]),
        Route("/_emulator/emails", emails, methods=["GET"]),
        Route("/_emulator/email", send_email, methods=["POST"]),
        Route("/_emulator/workflows/{id}/test", test_run, methods=["POST"]),
        Route("/_emulator/accounts/{id}", account_state, methods=["POST"]),
        Route("/_emulator/hostile", hostile, methods=["POST"]),
    ]
