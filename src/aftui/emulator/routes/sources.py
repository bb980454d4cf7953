"""Sources, their events, workflow event lists, and the SSE stream."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from .. import operations, views
from ..auth import authenticate
from ..core import Core
from ..errors import ApiProblem, bad_request, not_found
from ..http import Ctx, api_route, core_of, json_response
from ..ids import parse_event_id
from ..runtime import Subscriber
from ..store import Source
from .common import find, ok_data, page_of_events, page_of_records


def _render(ctx: Ctx) -> Callable[[Source], dict[str, Any]]:
    return lambda s: views.source(s, ctx.store, ctx.core.root_url)


async def create_source(ctx: Ctx) -> Response:
    org_id = ctx.principal.workspace(ctx.params)
    comp = await operations.component_from_params(ctx.core, ctx.principal.user.id, org_id, ctx.params)
    name = ctx.str_param("name")
    source = operations.deploy_source(
        ctx.core, ctx.principal.user.id, org_id, comp, name, ctx.params.get("configured_props")
    )
    return ok_data(ctx, _render(ctx)(source))


async def get_source(ctx: Ctx) -> Response:
    source = find(ctx, ctx.store.sources, ctx.path("id"), "source")
    return ok_data(ctx, _render(ctx)(source))


async def update_source(ctx: Ctx) -> Response:
    source = find(ctx, ctx.store.sources, ctx.path("id"), "source")
    given = any(ctx.params.get(k) for k in ("component_id", "component_code", "component_url", "key"))
    comp = (
        await operations.component_from_params(ctx.core, ctx.principal.user.id, source.org_id, ctx.params)
        if given
        else None
    )
    if not given and not any(k in ctx.params for k in ("name", "active", "configured_props")):
        raise ApiProblem(
            400,
            "one of component_id, component_code, component_url, name, active or configured_props is required",
            code="missing_parameter",
            details={"param": "component_id"},
        )
    name = ctx.str_param("name")
    if name == "":
        raise bad_request("name must not be empty", param="name")
    operations.update_source(ctx.core, source, comp, name, ctx.params.get("configured_props"), ctx.bool_param("active"))
    return ok_data(ctx, _render(ctx)(source))


async def delete_source(ctx: Ctx) -> Response:
    source = find(ctx, ctx.store.sources, ctx.path("id"), "source")
    operations.delete_source(ctx.core, source)
    return json_response({})


async def my_sources(ctx: Ctx) -> Response:
    uid = ctx.principal.user.id
    return page_of_records(ctx, (s for s in ctx.store.sources.values() if s.owner_id == uid), _render(ctx))


async def org_sources(ctx: Ctx) -> Response:
    org_id = ctx.path("org_id")
    if not ctx.principal.can_see(org_id):
        raise not_found("workspace", org_id)
    return page_of_records(ctx, (s for s in ctx.store.sources.values() if s.org_id == org_id), _render(ctx))


# --- events --------------------------------------------------------------------------------


async def source_events(ctx: Ctx) -> Response:
    source = find(ctx, ctx.store.sources, ctx.path("id"), "source")
    channel = ctx.str_param("channel")
    return page_of_events(ctx, ctx.store.log(source.id).newest_first(channel))


async def delete_source_events(ctx: Ctx) -> Response:
    """202 at once; the events go shortly after, as the real service's removal is asynchronous."""
    source = find(ctx, ctx.store.sources, ctx.path("id"), "source")
    start = operations.event_key_param(ctx.params.get("start_id"), "start_id")
    end = operations.event_key_param(ctx.params.get("end_id"), "end_id")
    if start is not None and end is not None and start > end:
        raise bad_request("start_id must not be after end_id", param="start_id")
    log = ctx.store.log(source.id)

    async def remove() -> None:
        await asyncio.sleep(ctx.core.settings.events_delete_delay_s)
        log.delete(start, end)

    ctx.core.runtime.spawn(remove())
    return json_response({}, 202)


async def workflow_events(ctx: Ctx) -> Response:
    workflow = find(ctx, ctx.store.workflows, ctx.path("workflow_id"), "workflow")
    return page_of_events(ctx, ctx.store.log(workflow.id).newest_first())


async def workflow_errors(ctx: Ctx) -> Response:
    workflow = find(ctx, ctx.store.workflows, ctx.path("workflow_id"), "workflow")
    return page_of_events(ctx, ctx.store.log(workflow.id).newest_first("$errors"))


# --- SSE -------------------------------------------------------------------------------------


async def sse(request: Request) -> Response:
    """`{root_url}/sources/{id}/sse`: unnamed events, `id:` = event id, keepalive comments."""
    core = core_of(request)
    principal = authenticate(core.store, core.secret, request.headers.get("authorization"))
    source_id = request.path_params["id"]
    source = core.store.sources.get(source_id)
    if source is None or not principal.can_see(source.org_id):
        raise not_found("source", source_id)
    last = request.headers.get("last-event-id") or request.query_params.get("last_event_id")
    last_key = parse_event_id(last) if last else None
    if last and last_key is None:
        raise bad_request("Last-Event-ID must be an event id of the form <epoch-ms>-<seq>", param="Last-Event-ID")
    sub = core.runtime.open_stream(source_id, last_key)
    return StreamingResponse(
        _frames(core, source_id, sub),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


async def _frames(core: Core, source_id: str, sub: Subscriber) -> AsyncIterator[bytes]:
    keepalive = core.settings.keepalive_s
    try:
        yield b": connected\n\n"
        while True:
            if sub.frames:
                yield b"".join(sub.take())
                continue
            if sub.closed:
                return
            try:
                await asyncio.wait_for(sub.wake.wait(), keepalive)
            except TimeoutError:
                yield b": keepalive\n\n"
    finally:
        core.runtime.close_stream(source_id, sub)


def routes() -> list[Route]:
    return [
        api_route("/sources", ["POST"], create_source, user_key_only=True),
        api_route("/sources/{id}", ["GET"], get_source),
        api_route("/sources/{id}", ["PUT"], update_source),
        api_route("/sources/{id}", ["DELETE"], delete_source),
        api_route("/users/me/sources", ["GET"], my_sources, user_key_only=True),
        api_route("/orgs/{org_id}/sources", ["GET"], org_sources),
        api_route("/sources/{id}/event_summaries", ["GET"], source_events),
        api_route("/sources/{id}/events", ["DELETE"], delete_source_events),
        api_route("/workflows/{workflow_id}/event_summaries", ["GET"], workflow_events),
        api_route("/workflows/{workflow_id}/$errors/event_summaries", ["GET"], workflow_errors),
    ]


def root_routes() -> list[Route]:
    return [Route("/sources/{id}/sse", sse, methods=["GET"])]
