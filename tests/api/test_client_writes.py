"""The client's mutating methods against the emulator; every result checked back through the API."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import httpx
import pytest

from aftui.api import Client, NotFoundError, ValidationError
from aftui.api.models import Component, ConnectToken, EventSummary, Source, Subscription, Webhook, Workflow
from aftui.emulator.server import ServerHandle

ORDERS_TEMPLATE = "tch_3Lm9Qa"  # HTTP trigger; steps validate, transform, emit

COUNTER = """\
export default {
  key: "test-counter",
  name: "Test Counter",
  description: "Counts ticks for the client tests.",
  version: "0.0.1",
  type: "source",
  props: {
    timer: { type: "$.interface.timer", default: { intervalSeconds: 60 } },
    label: { type: "string", label: "Label", optional: true },
    count: { type: "integer", label: "Count", min: 1, max: 10 },
  },
  hooks: {
    async deploy() {},
    async activate() {},
    async deactivate() {},
  },
  async run() {
    this.$emit({ tick: true });
  },
};
"""

T = TypeVar("T")


async def eventually(fetch: Callable[[], Awaitable[T]], ok: Callable[[T], bool], *, timeout: float = 3.0) -> T:
    """Fetch until `ok` holds, for at most `timeout` seconds; the last value either way."""
    deadline = time.monotonic() + timeout
    while True:
        value = await fetch()
        if ok(value) or time.monotonic() >= deadline:
            return value
        await asyncio.sleep(0.02)


async def expect(error: type[Exception], call: Awaitable[Any]) -> Any:
    with pytest.raises(error) as caught:
        await call
    return caught.value


# --- components ------------------------------------------------------------------------------------------


async def test_create_component_and_get_it_by_id_and_key(client: Client) -> None:
    comp = await client.create_component(code=COUNTER)
    assert isinstance(comp, Component) and comp.id.startswith("sc_")
    assert (
        comp.key == "test-counter" and comp.name == "Test Counter" and comp.version == "0.0.1" and comp.code == COUNTER
    )
    props = {p.name: p for p in comp.configurable_props}
    assert props["timer"].type == "$.interface.timer"
    assert props["count"].min == 1 and props["count"].max == 10 and props["label"].optional is True
    assert (await client.get_component(comp.id)).id == comp.id
    assert (await client.get_component("test-counter")).id == comp.id  # the caller's latest with that key


async def test_create_component_from_a_registry_url(client: Client) -> None:
    comp = await client.create_component(url="https://github.example/components/github-new-issue.mjs")
    assert comp.key == "github-new-issue" and comp.code


async def test_create_component_with_bad_code_names_the_parameter(client: Client) -> None:
    error = await expect(ValidationError, client.create_component(code="export default { name: 'x' }"))
    assert error.status == 400 and error.param == "component_code" and "component" in error.message


# --- sources -----------------------------------------------------------------------------------------------


async def test_deploy_update_activate_and_delete_a_source(first_org: str, client: Client, info: dict) -> None:
    comp = await client.create_component(code=COUNTER)
    source = await client.deploy_source(
        component_id=comp.id, name="Ticks", configured_props={"timer": {"intervalSeconds": 120}, "count": 3}
    )
    assert isinstance(source, Source) and source.id.startswith("dc_")
    assert (
        source.component_id == comp.id
        and source.active is True
        and source.name == "Ticks"
        and source.name_slug == "ticks"
    )
    assert source.configured_props["timer"] == {"cron": None, "interval_seconds": 120}
    assert source.configured_props["count"] == 3
    assert await client.get_source(source.id) == source
    assert source.id in {s.id for s in (await client.list_sources(limit=100)).items}
    assert source.id in {s.id for s in (await client.list_workspace_sources(info["org_id"], limit=100)).items}
    assert source.id not in {s.id for s in (await client.list_workspace_sources(first_org, limit=100)).items}

    renamed = await client.update_source(
        source.id, name="Ticks renamed", configured_props={"timer": {"cron": "*/5 * * * *"}, "count": 4}
    )
    assert renamed is not None and renamed.name == "Ticks renamed"
    got = await client.get_source(source.id)
    assert (
        got.name == "Ticks renamed"
        and got.configured_props["timer"]["cron"] == "*/5 * * * *"
        and got.configured_props["count"] == 4
    )

    paused = await client.set_source_active(source.id, False)
    assert paused is not None and paused.active is False
    assert (await client.get_source(source.id)).active is False
    renamed_again = await client.update_source(source.id, name="Still paused")
    assert renamed_again is not None and renamed_again.active is False  # a PUT without active leaves it
    await client.set_source_active(source.id, True)
    assert (await client.get_source(source.id)).active is True

    # the hooks ran in the spec's order, each a line on $logs
    logs = await client.list_source_events(source.id, channel="$logs", limit=100, expand=True)
    assert logs.items and all(e.channel == "$logs" for e in logs.items)

    await client.delete_source(source.id)
    await expect(NotFoundError, client.get_source(source.id))
    assert source.id not in {s.id for s in (await client.list_sources(limit=100)).items}


async def test_deploy_from_a_registry_key_and_from_code(client: Client) -> None:
    http = await client.deploy_source(key="http-new-requests", name="Inbox for tests")
    assert http.endpoint_url and http.name == "Inbox for tests"
    coded = await client.deploy_source(component_code=COUNTER, configured_props={"count": 1})
    assert coded.name_slug == "test_counter" and coded.component_id and coded.component_id.startswith("sc_")


async def test_deploy_with_a_bad_prop_names_it(client: Client) -> None:
    comp = await client.create_component(code=COUNTER)
    error = await expect(ValidationError, client.deploy_source(component_id=comp.id, configured_props={"count": 50}))
    assert error.param == "configured_props.count" and error.status == 400


# --- events ---------------------------------------------------------------------------------------------------


async def test_delete_source_events_one_range_and_all(client: Client, root: httpx.Client) -> None:
    root.post("/_emulator/settings", json={"events_delete_delay_s": 0})
    source = await client.deploy_source(key="http-new-requests", name="events to delete")
    emitted = root.post(
        f"/_emulator/sources/{source.id}/emit",
        json={"events": [{"event": {"n": n}, "ts": 1_000 + n} for n in range(5)]},
    )
    assert emitted.status_code == 200, emitted.text
    ids = emitted.json()["emitted"]
    assert len(ids) == 5

    def event_ids() -> Callable[[], Awaitable[list[str]]]:
        async def fetch() -> list[str]:
            return [e.id for e in (await client.list_source_events(source.id, limit=100)).items if e.id]

        return fetch

    await client.delete_source_events(source.id, start_id=ids[2], end_id=ids[2])
    left = await eventually(event_ids(), lambda got: ids[2] not in got)
    assert sorted(left) == sorted(ids[:2] + ids[3:])

    await client.delete_source_events(source.id, start_id=ids[3])
    left = await eventually(event_ids(), lambda got: ids[4] not in got)
    assert sorted(left) == sorted(ids[:2])

    await client.delete_source_events(source.id)
    assert await eventually(event_ids(), lambda got: not got) == []


async def test_delete_source_events_with_start_after_end_is_400(client: Client, root: httpx.Client) -> None:
    source = await client.deploy_source(key="http-new-requests")
    ids = root.post(
        f"/_emulator/sources/{source.id}/emit",
        json={"events": [{"event": {"n": n}, "ts": 1_000 + n} for n in range(2)]},
    ).json()["emitted"]
    error = await expect(ValidationError, client.delete_source_events(source.id, start_id=ids[1], end_id=ids[0]))
    assert error.param == "start_id"


# --- subscriptions and webhooks --------------------------------------------------------------------------------


async def test_create_list_and_delete_a_webhook(client: Client) -> None:
    hook = await client.create_webhook(
        "https://hooks.example.com:8443/in?x=1", name="Test hook", description="for the tests"
    )
    assert isinstance(hook, Webhook) and hook.id.startswith("wh_")
    assert (
        hook.url == "https://hooks.example.com:8443/in?x=1"
        and hook.name == "Test hook"
        and hook.description == "for the tests"
    )
    assert hook.active is True and isinstance(hook.created_at, datetime)
    listed = {h.id: h for h in (await client.list_webhooks(limit=100)).items}
    assert listed[hook.id] == hook
    await client.delete_webhook(hook.id)
    assert hook.id not in {h.id for h in (await client.list_webhooks(limit=100)).items}
    await expect(NotFoundError, client.delete_webhook(hook.id))


async def test_create_webhook_with_a_bad_url_names_the_parameter(client: Client) -> None:
    error = await expect(ValidationError, client.create_webhook("ftp://files.example.com/in"))
    assert error.param == "url" and error.status == 400 and "url" in error.message.lower()


async def test_subscribe_and_unsubscribe_on_the_default_channel(client: Client, info: dict) -> None:
    source = await client.deploy_source(key="http-new-requests", name="emitter")
    hook = await client.create_webhook("https://hooks.example.com/in")
    sub = await client.subscribe(source.id, hook.id)
    assert isinstance(sub, Subscription) and sub.id and sub.id.startswith("sub_")
    assert (sub.emitter_id, sub.listener_id, sub.event_name) == (source.id, hook.id, "")
    assert sub.id in {s.id for s in (await client.list_subscriptions(limit=100)).items}
    assert sub.id in {s.id for s in (await client.list_workspace_subscriptions(info["org_id"], limit=100)).items}
    assert (await client.subscribe(source.id, hook.id)).id == sub.id  # the same triple twice: the same subscription

    await client.unsubscribe(source.id, hook.id)  # event_name= (empty) is sent for the default channel
    assert sub.id not in {s.id for s in (await client.list_subscriptions(limit=100)).items}
    await expect(NotFoundError, client.unsubscribe(source.id, hook.id))


async def test_subscribe_on_a_named_channel(client: Client) -> None:
    source = await client.deploy_source(key="http-new-requests", name="emitter")
    hook = await client.create_webhook("https://hooks.example.com/errors")
    errors = await client.subscribe(source.id, hook.id, "$errors")
    default = await client.subscribe(source.id, hook.id)
    assert errors.event_name == "$errors" and errors.id != default.id
    await client.unsubscribe(source.id, hook.id, "$errors")
    left = {(s.emitter_id, s.listener_id, s.event_name) for s in (await client.list_subscriptions(limit=100)).items}
    assert (source.id, hook.id, "") in left and (source.id, hook.id, "$errors") not in left


async def test_subscribe_to_an_unknown_emitter_is_not_found(client: Client) -> None:
    hook = await client.create_webhook("https://hooks.example.com/in")
    await expect(NotFoundError, client.subscribe("dc_nothing", hook.id))


async def test_auto_subscribe_reaches_only_later_sources(client: Client) -> None:
    before = await client.deploy_source(key="http-new-requests", name="before")
    hook = await client.create_webhook("https://hooks.example.com/logs")
    auto = await client.auto_subscribe("$logs", hook.id)
    assert auto["event_name"] == "$logs" and auto["listener_id"] == hook.id
    after = await client.deploy_source(key="http-new-requests", name="after")
    subs = {(s.emitter_id, s.listener_id, s.event_name) for s in (await client.list_subscriptions(limit=100)).items}
    assert (after.id, hook.id, "$logs") in subs
    assert (before.id, hook.id, "$logs") not in subs


async def test_auto_subscribe_needs_a_special_channel(client: Client) -> None:
    hook = await client.create_webhook("https://hooks.example.com/logs")
    error = await expect(ValidationError, client.auto_subscribe("orders", hook.id))
    assert error.param == "event_name"


async def test_org_id_is_added_on_creates_with_a_user_key(
    first_org: str, make_client, emulator: ServerHandle, info: dict
) -> None:
    store = emulator.emulator.store
    in_acme = await make_client(org_id=info["org_id"]).create_webhook("https://hooks.example.com/acme")
    in_dana = await make_client(org_id=first_org).create_webhook("https://hooks.example.com/dana")
    unnamed = await make_client(org_id=None).create_webhook("https://hooks.example.com/first")
    assert store.webhooks[in_acme.id].org_id == info["org_id"]
    assert store.webhooks[in_dana.id].org_id == first_org
    assert store.webhooks[unnamed.id].org_id == first_org  # without org_id: the user's first workspace
    # seen through the API: the Acme OAuth client can delete only the Acme one
    oauth = make_client(oauth=True)
    await expect(NotFoundError, oauth.delete_webhook(in_dana.id))
    await oauth.delete_webhook(in_acme.id)
    remaining = {h.id for h in (await make_client().list_webhooks(limit=100)).items}
    assert in_acme.id not in remaining and in_dana.id in remaining


async def test_oauth_creates_land_in_the_token_workspace(
    first_org: str, make_client, emulator: ServerHandle, info: dict
) -> None:
    hook = await make_client(oauth=True, org_id=first_org).create_webhook("https://hooks.example.com/oauth")
    assert emulator.emulator.store.webhooks[hook.id].org_id == info["org_id"]


# --- workflows -----------------------------------------------------------------------------------------------------


async def test_create_workflow_run_it_and_read_its_events_and_errors(client: Client) -> None:
    workflow = await client.create_workflow(
        ORDERS_TEMPLATE,
        name="Orders for tests",
        auto_deploy=True,
        steps=[{"namespace": "validate", "props": {"required_fields": ["order_id", "customer_email", "sku"]}}],
    )
    assert isinstance(workflow, Workflow) and workflow.id and workflow.id.startswith("p_")
    assert workflow.name == "Orders for tests" and workflow.active is True
    got = await client.get_workflow(workflow.id)
    assert got.id == workflow.id and [t.kind for t in got.triggers] == ["http"]
    validate = next(s for s in got.steps if s.namespace == "validate")
    assert validate.configured_props() == {"required_fields": ["order_id", "customer_email", "sku"]}

    endpoint = got.triggers[0].endpoint_url
    assert endpoint
    async with httpx.AsyncClient(timeout=5) as http:
        good = await http.post(
            endpoint, json={"order_id": "o1", "customer_email": "a@b.example", "sku": "S1", "country": "fr"}
        )
        bad = await http.post(endpoint, json={"order_id": "o2", "sku": "S2"})
    assert good.status_code == 200 and bad.status_code == 200

    events = await client.list_workflow_events(workflow.id, expand=True)
    assert len(events.items) == 1 and isinstance(events.items[0], EventSummary)
    assert events.items[0].event["order_id"] == "o1" and events.items[0].event["country"] == "FR"
    errors = await client.list_workflow_errors(workflow.id, expand=True)
    assert len(errors.items) == 1
    error = errors.items[0].error()
    assert error is not None and error.error.code == "ValidationError" and "customer_email" in (error.error.msg or "")
    assert error.original_event["body"] == {"order_id": "o2", "sku": "S2"}
    assert error.original_context.workflow_id == workflow.id and error.error.cellId == validate.id


async def test_set_workflow_active(client: Client) -> None:
    workflow = await client.create_workflow(ORDERS_TEMPLATE, auto_deploy=False)
    assert workflow.id and workflow.active is False
    await client.set_workflow_active(workflow.id, True)
    assert (await client.get_workflow(workflow.id)).active is True
    await client.set_workflow_active(workflow.id, False)
    assert (await client.get_workflow(workflow.id)).active is False


async def test_create_workflow_without_org_id_names_the_parameter(make_client) -> None:
    error = await expect(ValidationError, make_client(org_id=None).create_workflow(ORDERS_TEMPLATE))
    assert error.param == "org_id"


async def test_create_workflow_with_unknown_template(client: Client) -> None:
    error = await expect(NotFoundError, client.create_workflow("tch_nothing"))
    assert "tch_nothing" in error.message


# --- Connect -----------------------------------------------------------------------------------------------------------


def emulator_now(root: httpx.Client) -> datetime:
    return datetime.fromtimestamp(root.get("/_emulator/clock").json()["now_ms"] / 1000, tz=UTC)


async def test_create_connect_token_registers_the_end_user(client: Client, root: httpx.Client) -> None:
    before = (await client.connect_info()).model_extra["end_user_count"]
    token = await client.create_connect_token(
        "ext-test-1", success_redirect_uri="https://app.example/ok", webhook_uri="https://app.example/hook"
    )
    assert isinstance(token, ConnectToken) and token.token.startswith("ctok_")
    assert isinstance(token.expires_at, datetime)
    assert token.expires_at - emulator_now(root) == timedelta(hours=4)
    assert "ctok_" not in repr(token)  # never printed
    assert (await client.connect_info()).model_extra["end_user_count"] == before + 1


async def test_create_connect_token_with_a_too_long_external_id(client: Client) -> None:
    error = await expect(ValidationError, client.create_connect_token("x" * 251))
    assert error.param == "external_user_id"


async def test_delete_connect_user_in_one_environment_only(make_client) -> None:
    production, development = make_client(), make_client(environment="development")
    await production.create_connect_token("ext-both")
    await development.create_connect_token("ext-both")
    counts = [(await c.connect_info()).model_extra["end_user_count"] for c in (production, development)]
    await development.delete_connect_user("ext-both")
    assert (await development.connect_info()).model_extra["end_user_count"] == counts[1] - 1
    assert (await production.connect_info()).model_extra["end_user_count"] == counts[0]
    await expect(NotFoundError, development.delete_connect_user("ext-both"))


async def test_delete_connect_user_with_accounts(client: Client) -> None:
    account = (await client.list_connect_accounts(limit=1)).items[0]
    user = account.external_id
    assert user and (await client.list_connect_accounts(external_user_id=user, limit=100)).items
    await client.delete_connect_user(user)
    assert (await client.list_connect_accounts(external_user_id=user, limit=100)).items == []
    await expect(NotFoundError, client.get_connect_account(account.id))


@pytest.mark.parametrize("external_id", ["team/ana smith", "who?what#x", "50%+1 & more"])
async def test_delete_connect_user_whose_id_needs_escaping(client: Client, external_id: str) -> None:
    before = (await client.connect_info()).model_extra["end_user_count"]
    await client.create_connect_token(external_id)
    assert (await client.connect_info()).model_extra["end_user_count"] == before + 1
    await client.delete_connect_user(external_id)
    assert (await client.connect_info()).model_extra["end_user_count"] == before


async def test_delete_connect_account(client: Client) -> None:
    account = (await client.list_connect_accounts(limit=1)).items[0]
    total = (await client.list_connect_accounts(limit=1)).total
    await client.delete_connect_account(account.id)
    await expect(NotFoundError, client.get_connect_account(account.id))
    assert (await client.list_connect_accounts(limit=1)).total == total - 1
    await expect(NotFoundError, client.delete_connect_account(account.id))


async def test_delete_connect_app_accounts_of_a_key_app(make_client) -> None:
    production, development = make_client(), make_client(environment="development")
    assert (await production.list_connect_accounts(app="openai", limit=100)).items
    dev_before = (await development.list_connect_accounts(app="openai", limit=100)).total
    await production.delete_connect_app_accounts("openai")
    assert (await production.list_connect_accounts(app="openai", limit=100)).items == []
    assert (await development.list_connect_accounts(app="openai", limit=100)).total == dev_before


async def test_delete_connect_app_accounts_of_an_oauth_app(client: Client, emulator: ServerHandle) -> None:
    store = emulator.emulator.store
    target = next(a for a in store.accounts.values() if a.oauth_app_id and a.environment == "production")
    assert [a.id for a in (await client.list_connect_accounts(oauth_app_id=target.oauth_app_id)).items] == [target.id]
    await client.delete_connect_app_accounts(target.oauth_app_id)
    assert (await client.list_connect_accounts(oauth_app_id=target.oauth_app_id)).items == []
    await expect(NotFoundError, client.get_connect_account(target.id))


async def test_connect_without_a_project_is_refused_before_sending(make_client) -> None:
    with pytest.raises(ValueError, match="project_id"):
        await make_client(project_id=None).connect_info()
