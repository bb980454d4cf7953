"""Users, accounts, apps and components of the management API."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response
from starlette.routing import Route

from .. import operations, views
from ..errors import ApiProblem, bad_request, not_found
from ..http import Ctx, api_route, json_response
from ..paging import parse_limit
from ..search import TextIndex
from ..store import Account, Component
from .common import find, ok_data, page_of_records


async def users_me(ctx: Ctx) -> Response:
    return ok_data(ctx, views.user(ctx.principal.user, ctx.store))


# --- accounts ---------------------------------------------------------------------------


def _matches_app(ctx: Ctx, account: Account, app: str | None) -> bool:
    if not app:
        return True
    record = ctx.store.apps[account.app_id]
    return app in (record["id"], record["name_slug"])


async def list_accounts(ctx: Ctx) -> Response:
    app = ctx.str_param("app")
    oauth_app_id = ctx.str_param("oauth_app_id")
    external = ctx.str_param("external_user_id")
    credentials = bool(ctx.bool_param("include_credentials", False))
    if app and ctx.store.app(app) is None:
        raise not_found("app", app)

    def wanted(a: Account) -> bool:
        if not ctx.principal.can_see(a.org_id) or not _matches_app(ctx, a, app):
            return False
        if oauth_app_id and a.oauth_app_id != oauth_app_id:
            return False
        # Workspace accounts by default; Connect end users' (production) accounts when asked by external id.
        if external:
            return a.external_id == external and a.environment == "production"
        return a.project_id is None

    return page_of_records(
        ctx, filter(wanted, ctx.store.accounts.values()), lambda a: views.account(a, ctx.store, credentials=credentials)
    )


async def get_account(ctx: Ctx) -> Response:
    account = find(ctx, ctx.store.accounts, ctx.path("account_id"), "account")
    credentials = bool(ctx.bool_param("include_credentials", False))
    return ok_data(ctx, views.account(account, ctx.store, credentials=credentials))


async def workspace_accounts(ctx: Ctx) -> Response:
    org_id = ctx.path("workspace_id")
    if not ctx.principal.can_see(org_id):
        raise not_found("workspace", org_id)
    query = (ctx.str_param("query") or "").lower()

    def wanted(a: Account) -> bool:
        return a.org_id == org_id and a.project_id is None and query in ctx.store.apps[a.app_id]["name"].lower()

    return page_of_records(
        ctx,
        filter(wanted, ctx.store.accounts.values()),
        lambda a: {"id": a.id, "name": a.name or ctx.store.apps[a.app_id]["name"]},
    )


# --- apps ---------------------------------------------------------------------------------


class _Seq:
    """Apps are static dicts; their catalogue order stands in for `seq`."""

    def __init__(self, record: dict, seq: int) -> None:
        self.record, self.seq = record, seq


async def list_apps(ctx: Ctx) -> Response:
    q = (ctx.str_param("q") or "").lower()
    catalogue = sorted(ctx.store.apps.values(), key=lambda a: a["name"].lower())
    apps = [
        _Seq(app, len(catalogue) - i)  # alphabetical order, first page first
        for i, app in enumerate(catalogue)
        if not q or q in app["name"].lower() or q in app["name_slug"] or q in app["description"].lower()
    ]
    return page_of_records(ctx, apps, lambda a: dict(a.record))


async def get_app(ctx: Ctx) -> Response:
    ident = ctx.path("app_id")
    app = ctx.store.app(ident)
    if app is None:
        raise not_found("app", ident)
    return ok_data(ctx, dict(app))


# --- components -------------------------------------------------------------------------------


async def create_component(ctx: Ctx) -> Response:
    code = ctx.str_param("component_code")
    url = ctx.str_param("component_url")
    if not code and not url:
        raise ApiProblem(
            400,
            "one of component_code or component_url is required",
            code="missing_parameter",
            details={"param": "component_code"},
        )
    org_id = ctx.principal.workspace(ctx.params)
    if code:
        comp = operations.save_component(ctx.core, ctx.principal.user.id, org_id, code, url or None)
    else:
        assert url is not None
        comp = operations.save_component(
            ctx.core, ctx.principal.user.id, org_id, await operations.fetch_code(ctx.core, url), url
        )
    return ok_data(ctx, views.component(comp))


async def get_component(ctx: Ctx) -> Response:
    ident = ctx.path("key")
    comp = ctx.store.component_by_key_or_id(ident, ctx.principal.user.id)
    if comp is None or not (comp.registry or ctx.principal.can_see(comp.org_id)):
        raise not_found("component", ident)
    return ok_data(ctx, views.component(comp))


async def registry_component(ctx: Ctx) -> Response:
    key = ctx.path("key")
    comp = ctx.store.registry_component(key)
    if comp is None:
        raise not_found("registry component", key)
    return ok_data(ctx, views.component(comp))


DEFAULT_SIMILARITY = 0.1


async def search_components(ctx: Ctx) -> Response:
    query = ctx.str_param("query", required=True)
    app = ctx.str_param("app")
    limit = parse_limit(ctx.params.get("limit"))
    threshold = _threshold(ctx.params.get("similarity_threshold"))
    debug = bool(ctx.bool_param("debug", False))
    registry = [c for c in ctx.store.components.values() if c.registry]
    if app:
        if ctx.store.app(app) is None:
            raise not_found("app", app)
        registry = [
            c for c in registry if (c.key or "").startswith(f"{app}-") or any(p.get("app") == app for p in c.meta.props)
        ]
    by_key = {c.key: c for c in registry if c.key}
    index = TextIndex((key, _search_text(c)) for key, c in by_key.items())
    hits = index.search(query or "", threshold=threshold)
    body: dict = {
        "sources": [k for k, _ in hits if by_key[k].meta.type == "source"][:limit],
        "actions": [k for k, _ in hits if by_key[k].meta.type == "action"][:limit],
    }
    if debug:
        body["debug"] = {"similarity_threshold": threshold, "scores": {k: round(s, 4) for k, s in hits}}
    return json_response(body)


def _threshold(raw: Any) -> float:
    """`similarity_threshold` as the query string or a JSON body gives it: text, a number, even a boolean."""
    if raw is None or raw == "":
        return DEFAULT_SIMILARITY
    try:
        value = float(raw)
    except (TypeError, ValueError):
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise bad_request("similarity_threshold must be a number from 0 to 1", param="similarity_threshold")
    return value


def _search_text(comp: Component) -> str:
    meta = comp.meta
    apps = " ".join(p.get("app", "") for p in meta.props if p.get("type") == "app")
    return " ".join(filter(None, [meta.key, meta.name, meta.description, apps]))


def routes() -> list[Route]:
    return [
        api_route("/users/me", ["GET"], users_me, user_key_only=True),
        api_route("/accounts", ["GET"], list_accounts),
        api_route("/accounts/{account_id}", ["GET"], get_account),
        api_route("/workspaces/{workspace_id}/accounts", ["GET"], workspace_accounts),
        api_route("/apps", ["GET"], list_apps),
        api_route("/apps/{app_id}", ["GET"], get_app),
        api_route("/components", ["POST"], create_component, user_key_only=True),
        api_route("/components/search", ["GET"], search_components),
        api_route("/components/registry/{key}", ["GET"], registry_component),
        api_route("/components/{key}", ["GET"], get_component),
    ]
