"""The project-scoped Connect API under `/connect/{project_id}`.

`X-PD-Environment` keeps production and development apart: every end user,
account and token lives in exactly one environment of one project.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.responses import Response
from starlette.routing import Route

from .. import views
from ..errors import bad_request, not_found
from ..http import Ctx, api_route, json_response
from ..paging import shape
from ..store import Account, ConnectProject, ConnectToken, EndUser
from ..views import iso
from .common import records_page

ENVIRONMENTS = ("production", "development")
TOKEN_LIFETIME_MS = 4 * 3600 * 1000
MAX_EXTERNAL_ID = 250


def _project(ctx: Ctx) -> ConnectProject:
    project_id = ctx.path("project_id")
    project = ctx.store.projects.get(project_id)
    if project is None or not ctx.principal.can_see(project.org_id):
        raise not_found("project", project_id)
    return project


def _environment(ctx: Ctx) -> str:
    env = ctx.request.headers.get("x-pd-environment", "production")
    if env not in ENVIRONMENTS:
        raise bad_request("X-PD-Environment must be production or development", param="X-PD-Environment")
    return env


def _account_read(
    handler: Callable[[Ctx, ConnectProject, str], Awaitable[Response]],
) -> Callable[[Ctx], Awaitable[Response]]:
    """Account endpoints share one budget of 100 requests a minute per project and environment."""

    async def wrapped(ctx: Ctx) -> Response:
        project, env = _project(ctx), _environment(ctx)
        headers = ctx.core.account_reads.hit((project.id, env))
        response = await handler(ctx, project, env)
        response.headers.update(headers)
        return response

    return wrapped


def _accounts(ctx: Ctx, project: ConnectProject, env: str) -> list[Account]:
    return [a for a in ctx.store.accounts.values() if a.project_id == project.id and a.environment == env]


async def create_token(ctx: Ctx) -> Response:
    project, env = _project(ctx), _environment(ctx)
    external = ctx.str_param("external_user_id", required=True, max_len=MAX_EXTERNAL_ID)
    assert external is not None
    uris = {name: ctx.str_param(name) for name in ("success_redirect_uri", "error_redirect_uri", "webhook_uri")}
    headers = ctx.core.token_creations.hit((project.id, env, external))
    expires = ctx.store.clock.now_ms() + TOKEN_LIFETIME_MS
    token = ConnectToken(ctx.store.ids.token("ctok_", 32), project.id, env, external, expires, **uris)
    ctx.store.connect_tokens[token.token] = token
    key = (project.id, env, external)
    if key not in ctx.store.end_users:
        ctx.store.end_users[key] = EndUser(project.id, env, external, ctx.store.clock.now_ms())
    body = {"token": token.token, "expires_at": iso(expires), "connect_link_url": _connect_link(ctx, token.token)}
    return json_response(body, headers=headers)


def _connect_link(ctx: Ctx, token: str) -> str:
    """The hosted connect page for this token, as the service links it (the official SDK reads it).

    The service points at its own `/_static/connect.html`; the emulator points
    at its root, where no page is served: the link is for showing and copying.
    """
    return f"{ctx.core.root_url}/_static/connect.html?token={token}&connectLink=true"


@_account_read
async def list_accounts(ctx: Ctx, project: ConnectProject, env: str) -> Response:
    app = ctx.str_param("app")
    oauth_app_id = ctx.str_param("oauth_app_id")
    external = ctx.str_param("external_user_id")
    credentials = bool(ctx.bool_param("include_credentials", False))

    def wanted(a: Account) -> bool:
        record = ctx.store.apps[a.app_id]
        return (
            (not app or app in (record["id"], record["name_slug"]))
            and (not oauth_app_id or a.oauth_app_id == oauth_app_id)
            and (not external or a.external_id == external)
        )

    data, info = records_page(
        ctx,
        filter(wanted, _accounts(ctx, project, env)),
        lambda a: views.account(a, ctx.store, credentials=credentials),
    )
    # The Connect list nests its array: {data: {accounts: [...]}}.
    return json_response({"page_info": info, "data": {"accounts": data}})


@_account_read
async def get_account(ctx: Ctx, project: ConnectProject, env: str) -> Response:
    account = _one_account(ctx, project, env)
    credentials = bool(ctx.bool_param("include_credentials", False))
    return json_response(
        {"data": shape(views.account(account, ctx.store, credentials=credentials, full_app=True), ctx.params)}
    )


def _one_account(ctx: Ctx, project: ConnectProject, env: str) -> Account:
    account_id = ctx.path("account_id")
    account = ctx.store.accounts.get(account_id)
    if account is None or account.project_id != project.id or account.environment != env:
        raise not_found("account", account_id)
    return account


@_account_read
async def delete_account(ctx: Ctx, project: ConnectProject, env: str) -> Response:
    account = _one_account(ctx, project, env)
    del ctx.store.accounts[account.id]
    return Response(status_code=204)


@_account_read
async def delete_app_accounts(ctx: Ctx, project: ConnectProject, env: str) -> Response:
    """app_id is an oauth_app_id for OAuth apps, or a name slug for key-based apps."""
    app_id = ctx.path("app_id")

    def matches(a: Account) -> bool:
        record = ctx.store.apps[a.app_id]
        if record["auth_type"] == "oauth":
            return a.oauth_app_id == app_id
        return record["name_slug"] == app_id

    doomed = [a.id for a in _accounts(ctx, project, env) if matches(a)]
    if not doomed and ctx.store.app(app_id) is None and not app_id.startswith("oa_"):
        raise not_found("app", app_id)
    for account_id in doomed:
        del ctx.store.accounts[account_id]
    return Response(status_code=204)


async def delete_user(ctx: Ctx) -> Response:
    """Deletes the end user and, in cascade, all their accounts."""
    project, env = _project(ctx), _environment(ctx)
    external = ctx.path("external_user_id")
    key = (project.id, env, external)
    doomed = [a.id for a in _accounts(ctx, project, env) if a.external_id == external]
    if key not in ctx.store.end_users and not doomed:
        raise not_found("end user", external)
    for account_id in doomed:
        del ctx.store.accounts[account_id]
    ctx.store.end_users.pop(key, None)
    for token in [
        t for t in ctx.store.connect_tokens.values() if (t.project_id, t.environment, t.external_user_id) == key
    ]:
        del ctx.store.connect_tokens[token.token]
    return Response(status_code=204)


async def info(ctx: Ctx) -> Response:
    project, env = _project(ctx), _environment(ctx)
    users = {u.external_id for u in ctx.store.end_users.values() if (u.project_id, u.environment) == (project.id, env)}
    accounts = _accounts(ctx, project, env)
    users.update(a.external_id for a in accounts if a.external_id)
    record = {
        "id": project.id,
        "name": project.name,
        "app_name": project.app_name,
        "support_email": project.support_email,
        "org_id": project.org_id,
        "environment": env,
        "created_at": iso(project.created_at * 1000),
        "end_user_count": len(users),
        "account_count": len(accounts),
        "apps": sorted({ctx.store.apps[a.app_id]["name_slug"] for a in accounts}),
    }
    return json_response({"data": shape(record, ctx.params)})


def routes() -> list[Route]:
    base = "/connect/{project_id}"
    return [
        api_route(f"{base}/tokens", ["POST"], create_token),
        api_route(f"{base}/accounts", ["GET"], list_accounts),
        api_route(f"{base}/accounts/{{account_id}}", ["GET"], get_account),
        api_route(f"{base}/accounts/{{account_id}}", ["DELETE"], delete_account),
        api_route(f"{base}/apps/{{app_id}}/accounts", ["DELETE"], delete_app_accounts),
        # :path, because an external user id (the client's own) may hold a "/", sent as %2F
        api_route(f"{base}/users/{{external_user_id:path}}", ["DELETE"], delete_user),
        api_route(f"{base}/info", ["GET"], info),
    ]
