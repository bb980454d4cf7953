"""Subscriptions, auto-subscriptions, webhooks and workflows."""

from __future__ import annotations

from starlette.responses import Response
from starlette.routing import Route

from .. import operations, views
from ..errors import bad_request, not_found
from ..http import Ctx, api_route, json_response
from ..paging import shape
from .common import find, ok_data, page_of_records


async def create_subscription(ctx: Ctx) -> Response:
    sub = operations.create_subscription(
        ctx.core,
        ctx.principal.user.id,
        ctx.principal.org_ids,
        ctx.principal.workspace(ctx.params),
        ctx.params.get("emitter_id"),
        ctx.params.get("listener_id"),
        ctx.params.get("event_name"),
    )
    return ok_data(ctx, views.subscription(sub))


async def delete_subscription(ctx: Ctx) -> Response:
    operations.delete_subscription(ctx.core, ctx.principal.org_ids, ctx.params)
    return json_response({})


async def create_auto_subscription(ctx: Ctx) -> Response:
    named = ctx.params.get("org_id") or not ctx.principal.is_user_key
    auto = operations.create_auto_subscription(
        ctx.core,
        ctx.principal.user.id,
        ctx.principal.workspace(ctx.params) if named else None,
        ctx.principal.org_ids,
        ctx.params.get("event_name"),
        ctx.params.get("listener_id"),
    )
    return ok_data(
        ctx,
        {
            "id": auto.id,
            "event_name": auto.event_name,
            "listener_id": auto.listener_id,
            "note": "applies only to workflows and sources created after this call",
        },
    )


async def my_subscriptions(ctx: Ctx) -> Response:
    uid = ctx.principal.user.id
    subs = (s for s in ctx.store.subscriptions.values() if s.owner_id == uid)
    return page_of_records(ctx, subs, views.subscription)


async def org_subscriptions(ctx: Ctx) -> Response:
    org_id = ctx.path("org_id")
    if not ctx.principal.can_see(org_id):
        raise not_found("workspace", org_id)
    subs = (s for s in ctx.store.subscriptions.values() if s.org_id == org_id)
    return page_of_records(ctx, subs, views.subscription)


# --- webhooks ---------------------------------------------------------------------------------


async def create_webhook(ctx: Ctx) -> Response:
    webhook = operations.create_webhook(
        ctx.core,
        ctx.principal.user.id,
        ctx.principal.workspace(ctx.params),
        ctx.params.get("url"),
        ctx.str_param("name"),
        ctx.str_param("description"),
    )
    return ok_data(ctx, views.webhook(webhook))


async def my_webhooks(ctx: Ctx) -> Response:
    webhooks = (w for w in ctx.store.webhooks.values() if ctx.principal.can_see(w.org_id))
    return page_of_records(ctx, webhooks, views.webhook)


async def delete_webhook(ctx: Ctx) -> Response:
    webhook = find(ctx, ctx.store.webhooks, ctx.path("id"), "webhook")
    operations.delete_webhook(ctx.core, webhook)
    return json_response({})


# --- workflows ---------------------------------------------------------------------------------


async def create_workflow(ctx: Ctx) -> Response:
    org_id = ctx.principal.workspace(ctx.params, required=True)
    workflow = operations.create_workflow(ctx.core, ctx.principal.user.id, org_id, ctx.params)
    return ok_data(ctx, views.workflow(workflow, ctx.store, ctx.core.root_url))


async def get_workflow(ctx: Ctx) -> Response:
    """`{triggers, steps}` at the top level, as the spec shows, with id, name and active beside them.
    A template id (`tch_`) answers the template in the same shape: its props are found there."""
    ident = ctx.path("id")
    if ident.startswith("tch_"):
        template = ctx.store.templates.get(ident)
        if template is None:
            raise not_found("workflow template", ident)
        return json_response(shape(views.template(template, ctx.store), ctx.params))
    workflow = find(ctx, ctx.store.workflows, ctx.path("id"), "workflow")
    return json_response(shape(views.workflow(workflow, ctx.store, ctx.core.root_url), ctx.params))


async def update_workflow(ctx: Ctx) -> Response:
    """Changes only the activation status."""
    workflow = find(ctx, ctx.store.workflows, ctx.path("id"), "workflow")
    active = ctx.bool_param("active")
    if active is None:
        raise bad_request("active is required (true or false)", param="active")
    if active != workflow.active:
        workflow.active = active
        workflow.updated_at = ctx.store.clock.now_s()
        for trigger in workflow.triggers:
            ctx.core.runtime.schedule_trigger(trigger)
    return ok_data(ctx, {"id": workflow.id, "active": workflow.active})


def routes() -> list[Route]:
    return [
        api_route("/subscriptions", ["POST"], create_subscription),
        api_route("/subscriptions", ["DELETE"], delete_subscription),
        api_route("/auto_subscriptions", ["POST"], create_auto_subscription),
        api_route("/users/me/subscriptions", ["GET"], my_subscriptions, user_key_only=True),
        api_route("/orgs/{org_id}/subscriptions", ["GET"], org_subscriptions),
        api_route("/webhooks", ["POST"], create_webhook),
        api_route("/users/me/webhooks", ["GET"], my_webhooks, user_key_only=True),
        api_route("/webhooks/{id}", ["DELETE"], delete_webhook),
        api_route("/workflows", ["POST"], create_workflow, user_key_only=True),
        api_route("/workflows/{id}", ["GET"], get_workflow),
        api_route("/workflows/{id}", ["PUT"], update_workflow, user_key_only=True),
    ]
