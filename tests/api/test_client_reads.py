"""The client's read methods against the emulator: the right models, the right filters."""

from __future__ import annotations

from datetime import datetime

import pytest

from aftui.api import Client, NotFoundError
from aftui.api.models import (
    Account,
    App,
    Component,
    ComponentSearch,
    CustomField,
    EventSummary,
    Page,
    Source,
    Step,
    Subscription,
    Trigger,
    User,
    Webhook,
    Workflow,
    WorkspaceAccount,
)
from aftui.emulator.server import ServerHandle

# --- users ------------------------------------------------------------------------------------------


async def test_me_is_the_free_plan_demo_user(first_org: str, client: Client, info: dict) -> None:
    me = await client.me()
    assert isinstance(me, User)
    assert me.id.startswith("u_") and me.username == "dana"
    assert me.plan == "free"
    assert me.daily_invocations_quota and me.daily_invocations_used is not None
    assert {o.id for o in me.orgs} == {first_org, info["org_id"]}
    acme = next(o for o in me.orgs if o.id == info["org_id"])
    assert acme.name == "Acme Ops" and acme.daily_credits_quota


async def test_me_of_a_paid_plan_user_has_billing_timestamps(make_client, info: dict) -> None:
    me = await make_client(api_key=info["paid_api_key"]).me()
    assert me.plan == "paid"
    assert isinstance(me.billing_period_start_ts, datetime) and isinstance(me.billing_period_end_ts, datetime)
    assert me.billing_period_start_ts < me.billing_period_end_ts
    assert me.billing_period_start_ts.tzinfo is not None


# --- accounts and apps ---------------------------------------------------------------------------------


async def test_list_accounts_without_credentials(client: Client) -> None:
    page = await client.list_accounts(limit=100)
    assert isinstance(page, Page) and page.items
    assert page.total == len(page.items)
    for account in page.items:
        assert isinstance(account, Account) and account.id.startswith("apn_")
        assert account.credentials is None and account.expires_at is None
        assert isinstance(account.created_at, datetime) and account.app and account.app.id.startswith("app_")


async def test_list_accounts_filters_by_app_slug_and_id(client: Client) -> None:
    github = await client.list_accounts(app="github", limit=100)
    assert github.items and {a.app.name for a in github.items} == {"GitHub"}
    app_id = github.items[0].app.id
    by_id = await client.list_accounts(app=app_id, limit=100)
    assert [a.id for a in by_id.items] == [a.id for a in github.items]
    everything = await client.list_accounts(limit=100)
    assert len(github.items) < len(everything.items)


async def test_list_accounts_with_credentials(client: Client) -> None:
    slack = await client.list_accounts(app="slack", include_credentials=True, limit=100)
    assert slack.items
    for account in slack.items:
        assert {"oauth_access_token", "oauth_client_id", "oauth_refresh_token", "oauth_uid"} <= set(
            account.credentials or {}
        )
        assert isinstance(account.expires_at, datetime)


async def test_list_accounts_of_a_connect_end_user_and_oauth_app(client: Client, emulator: ServerHandle) -> None:
    store = emulator.emulator.store
    target = next(a for a in store.accounts.values() if a.oauth_app_id and a.environment == "production")
    mine = await client.list_accounts(external_user_id=target.external_id, limit=100)
    assert target.id in {a.id for a in mine.items}
    assert all(a.external_id == target.external_id for a in mine.items)
    narrowed = await client.list_accounts(
        external_user_id=target.external_id, oauth_app_id=target.oauth_app_id, limit=100
    )
    assert [a.id for a in narrowed.items] == [target.id]
    none = await client.list_accounts(oauth_app_id="oa_nothing", limit=100)
    assert none.items == [] and none.total == 0


async def test_get_account_with_and_without_credentials(client: Client) -> None:
    first = (await client.list_accounts(app="stripe", limit=1)).items[0]
    plain = await client.get_account(first.id)
    assert isinstance(plain, Account) and plain.id == first.id and plain.credentials is None
    secret = await client.get_account(first.id, include_credentials=True)
    assert secret.credentials and "api_key" in secret.credentials  # Stripe is a key app: its custom fields
    assert secret.expires_at is None


async def test_list_workspace_accounts_and_query(first_org: str, client: Client, info: dict) -> None:
    page = await client.list_workspace_accounts(info["org_id"], limit=100)
    assert page.items and all(isinstance(a, WorkspaceAccount) and a.name for a in page.items)
    slack = await client.list_workspace_accounts(info["org_id"], query="slack")
    assert slack.items and all(a.id in {x.id for x in page.items} for a in slack.items)
    assert len(slack.items) < len(page.items)
    dana = await client.list_workspace_accounts(first_org, limit=100)
    assert not {a.id for a in dana.items} & {a.id for a in page.items}


async def test_list_apps_and_filter(client: Client, emulator: ServerHandle) -> None:
    page = await client.list_apps(limit=100)
    assert page.total == len(page.items) == len(emulator.emulator.store.apps)
    names = [a.name.lower() for a in page.items]
    assert names == sorted(names)
    assert {a.auth_type for a in page.items} == {"oauth", "keys"}
    git = await client.list_apps(q="git")
    assert git.items and all("git" in (a.name + (a.name_slug or "") + (a.description or "")).lower() for a in git.items)


async def test_get_app_by_slug_and_id_and_custom_fields(client: Client) -> None:
    airtable = await client.get_app("airtable")
    assert isinstance(airtable, App) and airtable.auth_type == "keys" and airtable.categories
    assert await client.get_app(airtable.id) == airtable
    fields = airtable.custom_fields()
    assert fields and all(isinstance(f, CustomField) for f in fields)
    assert fields[0].name == "api_key" and fields[0].type == "password" and fields[0].optional is False
    slack = await client.get_app("slack")
    assert slack.auth_type == "oauth" and slack.custom_fields() == []


async def test_get_unknown_app_is_not_found(client: Client) -> None:
    with pytest.raises(NotFoundError) as caught:
        await client.get_app("no-such-app")
    assert caught.value.status == 404 and "no-such-app" in caught.value.message


# --- components -----------------------------------------------------------------------------------------


async def test_get_registry_component(client: Client) -> None:
    comp = await client.get_registry_component("http-new-requests")
    assert isinstance(comp, Component) and comp.id.startswith("sc_")
    assert comp.key == "http-new-requests" and comp.version == "0.1.3" and comp.code and comp.code_hash
    assert {p.name: p.type for p in comp.configurable_props}["http"] == "$.interface.http"
    assert isinstance(comp.created_at, datetime)
    # GET /components/{key} falls back on the registry
    assert (await client.get_component("http-new-requests")).id == comp.id


async def test_search_components(client: Client) -> None:
    found = await client.search_components("new issue opened in a github repository")
    assert isinstance(found, ComponentSearch)
    assert "github-new-issue" in found.sources
    assert "github-new-issue" not in found.actions
    actions = await client.search_components("send a message to slack", app="slack", limit=1, debug=True)
    assert actions.actions == ["slack-send-message"]
    assert len(actions.sources) <= 1
    assert "scores" in (actions.model_extra or {}).get("debug", {})  # an unknown field, kept
    nothing = await client.search_components("github issue", similarity_threshold=1.0)
    assert nothing.sources == [] and nothing.actions == []


# --- sources, events ---------------------------------------------------------------------------------------


async def test_list_sources_and_workspace_sources(
    first_org: str, client: Client, info: dict, emulator: ServerHandle
) -> None:
    store = emulator.emulator.store
    mine = await client.list_sources(limit=100)
    assert mine.total == len(mine.items) == len(store.sources)
    assert all(isinstance(s, Source) and s.id.startswith("dc_") for s in mine.items)
    assert {s.id for s in mine.items if s.active is False} == {s.id for s in store.sources.values() if not s.active}
    acme = await client.list_workspace_sources(limit=100)  # the client's org_id
    dana = await client.list_workspace_sources(first_org, limit=100)
    assert {s.id for s in acme.items} | {s.id for s in dana.items} == {s.id for s in mine.items}
    assert not {s.id for s in acme.items} & {s.id for s in dana.items}
    timer = next(s for s in mine.items if "timer" in s.configured_props)
    assert set(timer.configured_props["timer"]) == {"cron", "interval_seconds"}
    http = next(s for s in mine.items if s.endpoint_url)
    assert http.endpoint_url.startswith(info["root_url"] + "/e/")


async def test_get_source(client: Client) -> None:
    first = (await client.list_sources(limit=1)).items[0]
    source = await client.get_source(first.id)
    assert source == first
    assert isinstance(source.created_at, datetime) and source.name_slug


async def test_list_source_events_expand_and_channel(client: Client, root) -> None:
    source = (await client.list_sources(limit=1)).items[0]
    big = root.post(f"/_emulator/sources/{source.id}/inject", json={"count": 2, "size": 2000, "wait": True})
    assert big.status_code == 200, big.text
    alerts = root.post(f"/_emulator/sources/{source.id}/inject", json={"count": 3, "channel": "alerts", "wait": True})
    assert alerts.status_code == 200, alerts.text

    on_alerts = await client.list_source_events(source.id, channel="alerts", limit=100)
    assert len(on_alerts.items) == 3
    assert all(
        isinstance(e, EventSummary) and e.channel == "alerts" and e.metadata.emitter_id == source.id
        for e in on_alerts.items
    )
    keys = [e.key for e in on_alerts.items]
    assert keys == sorted(keys, reverse=True)  # newest first; ids order by time

    summaries = await client.list_source_events(source.id, limit=5)
    large = [e for e in summaries.items if e.channel == "default"][:2]
    assert len(large) == 2 and all(
        e.truncated and isinstance(e.event, str) and e.metadata.event_size > 1024 for e in large
    )
    expanded = await client.list_source_events(source.id, limit=5, expand=True)
    full = [e for e in expanded.items if e.channel == "default"][:2]
    assert all(isinstance(e.event, dict) and not e.truncated for e in full)
    assert [e.id for e in full] == [e.id for e in large]


async def test_list_workflow_events(client: Client, demo_workflow) -> None:
    workflow_id = demo_workflow("Validate and forward orders")
    page = await client.list_workflow_events(workflow_id, limit=3, expand=True)
    assert len(page.items) == 3 and page.total and page.total > 3
    for event in page.items:
        assert event.metadata.emitter_id == workflow_id and event.channel == "default"
        assert event.event["pipeline"] == "orders-v2"
        assert event.error() is None


async def test_list_workflow_errors_and_error_shape(client: Client, demo_workflow) -> None:
    workflow_id = demo_workflow("Validate and forward orders")
    page = await client.list_workflow_errors(workflow_id, limit=2, expand=True)
    assert len(page.items) == 2
    for summary in page.items:
        assert summary.channel == "$errors"
        error = summary.error()
        assert error is not None
        assert error.error.code == "ValidationError" and "customer_email" in (error.error.msg or "")
        assert error.error.cellId and error.error.cellId.startswith("c_") and error.error.stack
        assert isinstance(error.error.ts, datetime)
        assert error.original_context.workflow_id == workflow_id and error.original_context.source_type == "HTTP"
        assert isinstance(error.original_context.ts, datetime)
        assert "order_id" in error.original_event["body"]  # what a replay sends again


# --- subscriptions and webhooks ---------------------------------------------------------------------------------


async def test_list_subscriptions_and_workspace_subscriptions(
    first_org: str, client: Client, info: dict, emulator: ServerHandle
) -> None:
    mine = await client.list_subscriptions(limit=100)
    assert mine.total == len(mine.items) == len(emulator.emulator.store.subscriptions)
    assert all(isinstance(s, Subscription) and s.id and s.id.startswith("sub_") for s in mine.items)
    assert any(s.event_name == "" for s in mine.items)  # the default channel
    assert any(s.emitter_id == "p_*" and s.event_name == "$errors" for s in mine.items)
    acme = await client.list_workspace_subscriptions(limit=100)
    dana = await client.list_workspace_subscriptions(first_org, limit=100)
    assert {s.id for s in acme.items} | {s.id for s in dana.items} == {s.id for s in mine.items}


async def test_list_webhooks(client: Client, emulator: ServerHandle) -> None:
    page = await client.list_webhooks(limit=100)
    assert page.total == len(page.items) == len(emulator.emulator.store.webhooks)
    for hook in page.items:
        assert isinstance(hook, Webhook) and hook.id.startswith("wh_") and hook.url.startswith("http")
        assert isinstance(hook.created_at, datetime)


# --- workflows --------------------------------------------------------------------------------------------------


async def test_get_workflow_trigger_kinds_and_step_props(client: Client, demo_workflow) -> None:
    kinds = {}
    for name in ("Validate and forward orders", "Nightly report", "GitHub issues to Slack", "Inbound email triage"):
        workflow = await client.get_workflow(demo_workflow(name))
        assert isinstance(workflow, Workflow) and workflow.name == name and workflow.active is True
        assert all(isinstance(t, Trigger) for t in workflow.triggers) and all(
            isinstance(s, Step) for s in workflow.steps
        )
        kinds[name] = {t.kind for t in workflow.triggers}
    assert kinds == {
        "Validate and forward orders": {"http"},
        "Nightly report": {"timer"},
        "GitHub issues to Slack": {"source"},
        "Inbound email triage": {"email"},
    }
    orders = await client.get_workflow(demo_workflow("Validate and forward orders"))
    http = orders.triggers[0]
    assert http.endpoint_url and http.key and http.custom_response is False
    validate = next(s for s in orders.steps if s.namespace == "validate")
    assert validate.configured_props() == {"required_fields": ["order_id", "customer_email"]}
    assert validate.savedComponent and validate.savedComponent.key == "demo-validate-fields"
    assert [p.name for p in validate.savedComponent.configurableProps] == ["required_fields"]
    assert "params_json" in (validate.model_extra or {})  # fields the model does not name are kept
    nightly = await client.get_workflow(demo_workflow("Nightly report"))
    assert nightly.triggers[0].cron == "0 2 * * *"
    email = await client.get_workflow(demo_workflow("Inbound email triage"))
    assert email.triggers[0].email_address and "@" in email.triggers[0].email_address


async def test_get_unknown_workflow_is_not_found(client: Client) -> None:
    with pytest.raises(NotFoundError) as caught:
        await client.get_workflow("p_nothing")
    assert caught.value.status == 404


# --- Connect reads ------------------------------------------------------------------------------------------------


def store_counts(emulator: ServerHandle, environment: str) -> tuple[int, int]:
    """(end users, accounts) of the demo project in one environment, from the emulator's own store."""
    store = emulator.emulator.store
    accounts = [a for a in store.accounts.values() if a.project_id and a.environment == environment]
    users = {a.external_id for a in accounts} | {
        u.external_id for u in store.end_users.values() if u.environment == environment
    }
    return len(users), len(accounts)


async def test_connect_info_differs_by_environment(make_client, emulator: ServerHandle) -> None:
    production = await make_client().connect_info()
    development = await make_client(environment="development").connect_info()
    assert production.environment == "production" and development.environment == "development"
    assert production.id == development.id and production.name == "Acme Customer Portal"
    for record in (production, development):
        extra = record.model_extra or {}
        assert (extra["end_user_count"], extra["account_count"]) == store_counts(emulator, record.environment)
    assert production.model_extra["account_count"] != development.model_extra["account_count"]


async def test_list_connect_accounts_by_environment(make_client, emulator: ServerHandle) -> None:
    production = await make_client().list_connect_accounts(limit=100)
    development = await make_client(environment="development").list_connect_accounts(limit=100)
    assert production.items and development.items
    assert production.total == len(production.items) == store_counts(emulator, "production")[1]
    assert development.total == len(development.items) == store_counts(emulator, "development")[1]
    assert not {a.id for a in production.items} & {a.id for a in development.items}
    assert all(isinstance(a, Account) and a.external_id and a.dead is not None for a in production.items)


async def test_list_connect_accounts_filters(client: Client, emulator: ServerHandle) -> None:
    store = emulator.emulator.store
    target = next(a for a in store.accounts.values() if a.oauth_app_id and a.environment == "production")
    of_user = await client.list_connect_accounts(external_user_id=target.external_id, limit=100)
    assert target.id in {a.id for a in of_user.items} and {a.external_id for a in of_user.items} == {target.external_id}
    of_app = await client.list_connect_accounts(oauth_app_id=target.oauth_app_id, limit=100)
    assert [a.id for a in of_app.items] == [target.id]
    slack = await client.list_connect_accounts(app="slack", include_credentials=True, limit=100)
    assert slack.items and all(a.app.name == "Slack" and a.credentials for a in slack.items)


async def test_get_connect_account(client: Client) -> None:
    first = (await client.list_connect_accounts(limit=1)).items[0]
    plain = await client.get_connect_account(first.id)
    assert plain.id == first.id and plain.credentials is None
    assert plain.app and plain.app.name_slug and plain.app.auth_type  # a single account has the full app
    full = await client.get_connect_account(first.id, include_credentials=True)
    assert full.credentials and isinstance(full.project_id, int) and full.user_id == first.external_id
    assert isinstance(full.next_refresh_at, datetime)


async def test_connect_account_of_the_other_environment_is_not_found(make_client) -> None:
    first = (await make_client().list_connect_accounts(limit=1)).items[0]
    with pytest.raises(NotFoundError):
        await make_client(environment="development").get_connect_account(first.id)
