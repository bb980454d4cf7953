"""Every answer of the service in the other shapes it is known to send, read by the client without a crash.

The emulator serves each variant for real (`POST /_emulator/variants`, see emulator/variants.py):
single records bare or in `{data}`, lists as `data: [...]` or `data: {<name>: [...]}`, nulls
where the spec gives values (a record's fields, or every value in it), fields no spec names, and
kinds (`auth_type`, `type`, ...) no spec lists. Each read and write of the client is called with
each, and what it gives back is compared with the documented answer's; the writes that give back
nothing (deletes, on/off switches) are called on something made for them and must take every shape.
The client's requests that are not reads or writes of records: `revoke` (OAuth's, not the API's)
and `stream_source` (SSE, never rewritten; see test_stream.py).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import httpx
import pytest
from pydantic import BaseModel

from aftui.api import Client, ServerError
from aftui.api.models import Page
from aftui.api.rawevent import summary_of_data
from aftui.emulator.server import ServerHandle

Call = Callable[[Client, dict[str, str]], Awaitable[Any]]

READS: dict[str, Call] = {
    "me": lambda c, ids: c.me(),
    "list_accounts": lambda c, ids: c.list_accounts(limit=5),
    "get_account": lambda c, ids: c.get_account(ids["account"], include_credentials=True),
    "list_workspace_accounts": lambda c, ids: c.list_workspace_accounts(ids["org"], limit=5),
    "list_apps": lambda c, ids: c.list_apps(limit=5),
    "get_app": lambda c, ids: c.get_app(ids["app"]),
    "get_component": lambda c, ids: c.get_component("http-new-requests"),
    "get_registry_component": lambda c, ids: c.get_registry_component("http-new-requests"),
    "search_components": lambda c, ids: c.search_components("github issue"),
    "get_source": lambda c, ids: c.get_source(ids["source"]),
    "list_sources": lambda c, ids: c.list_sources(limit=5),
    "list_workspace_sources": lambda c, ids: c.list_workspace_sources(limit=5),
    "list_source_events": lambda c, ids: c.list_source_events(ids["source"], limit=5, expand=True),
    "list_workflow_events": lambda c, ids: c.list_workflow_events(ids["workflow"], limit=5),
    "list_workflow_errors": lambda c, ids: c.list_workflow_errors(ids["workflow"], limit=5, expand=True),
    "list_subscriptions": lambda c, ids: c.list_subscriptions(limit=5),
    "list_workspace_subscriptions": lambda c, ids: c.list_workspace_subscriptions(limit=5),
    "list_webhooks": lambda c, ids: c.list_webhooks(limit=5),
    "get_workflow": lambda c, ids: c.get_workflow(ids["workflow"]),
    "get_template": lambda c, ids: c.get_workflow(ids["template"]),
    "list_connect_accounts": lambda c, ids: c.list_connect_accounts(limit=5),
    "get_connect_account": lambda c, ids: c.get_connect_account(ids["connect_account"], include_credentials=True),
    "connect_info": lambda c, ids: c.connect_info(),
}

COMPONENT = """\
export default {
  key: "variant-counter",
  name: "Variant Counter",
  version: "0.0.1",
  type: "source",
  props: { count: { type: "integer", label: "Count", optional: true } },
  async run() { this.$emit({ tick: true }); },
};
"""

WRITES: dict[str, Call] = {
    "create_component": lambda c, ids: c.create_component(code=COMPONENT),
    "deploy_source": lambda c, ids: c.deploy_source(component_id="http-new-requests", name="variant"),
    "update_source": lambda c, ids: c.update_source(ids["source"], name="renamed by a variant"),
    "set_source_active": lambda c, ids: c.set_source_active(ids["source"], False),
    "create_webhook": lambda c, ids: c.create_webhook("https://hooks.example/variant", name="variant"),
    "subscribe": lambda c, ids: c.subscribe(ids["source"], ids["workflow"], "variant"),
    "auto_subscribe": lambda c, ids: c.auto_subscribe("$errors", ids["workflow"]),
    "create_workflow": lambda c, ids: c.create_workflow(ids["template"], name="variant", auto_deploy=False),
    "create_connect_token": lambda c, ids: c.create_connect_token("variant-user"),
}


async def new_source(c: Client, ids: dict[str, str]) -> str:
    return (await c.deploy_source(component_id="http-new-requests", name="to be deleted")).id


async def new_webhook(c: Client, ids: dict[str, str]) -> str:
    return (await c.create_webhook("https://hooks.example/to-be-deleted")).id


async def new_subscription(c: Client, ids: dict[str, str]) -> str:
    await c.subscribe(ids["source"], ids["workflow"], "to be deleted")
    return ids["source"]


async def connect_account(c: Client, ids: dict[str, str]) -> Any:
    return await c.get_connect_account(ids["connect_account"])


async def connect_app(c: Client, ids: dict[str, str]) -> str:
    account = await connect_account(c, ids)
    assert account.app is not None and account.app.name_slug
    return str(account.app.name_slug)


async def connect_user(c: Client, ids: dict[str, str]) -> str:
    account = await connect_account(c, ids)
    assert account.external_id
    return str(account.external_id)


def named(key: str) -> Callable[[Client, dict[str, str]], Awaitable[str]]:
    async def given(c: Client, ids: dict[str, str]) -> str:
        return ids[key]

    return given


Prepare = Callable[[Client, dict[str, str]], Awaitable[str]]
Act = Callable[[Client, dict[str, str], str], Awaitable[Any]]

# The writes that give back nothing: what each acts on is made (or looked up) before the variant is on.
SILENT_WRITES: dict[str, tuple[Prepare, Act]] = {
    "delete_source": (new_source, lambda c, ids, target: c.delete_source(target)),
    "delete_source_events": (named("source"), lambda c, ids, target: c.delete_source_events(target)),
    "unsubscribe": (new_subscription, lambda c, ids, target: c.unsubscribe(target, ids["workflow"], "to be deleted")),
    "delete_webhook": (new_webhook, lambda c, ids, target: c.delete_webhook(target)),
    "set_workflow_active": (named("workflow"), lambda c, ids, target: c.set_workflow_active(target, False)),
    "delete_connect_account": (named("connect_account"), lambda c, ids, target: c.delete_connect_account(target)),
    "delete_connect_app_accounts": (connect_app, lambda c, ids, target: c.delete_connect_app_accounts(target)),
    "delete_connect_user": (connect_user, lambda c, ids, target: c.delete_connect_user(target)),
}

VARIANTS: dict[str, list[str]] = {
    "bare": ["bare"],
    "nested": ["nested"],
    "nulls": ["nulls"],
    "null leaves": ["null_leaves"],
    "unknown fields": ["extra"],
    "unknown kinds": ["enums"],
    "all at once": ["bare", "nested", "nulls", "extra", "enums"],
    "bare nested null leaves": ["bare", "nested", "null_leaves"],
}


def records(result: Any) -> list[BaseModel]:
    if isinstance(result, Page):
        return list(result.items)
    return [result] if isinstance(result, BaseModel) else []


def record_id(record: BaseModel) -> Any:
    return getattr(record, "id", None) or getattr(record, "token", None)


@pytest.fixture
async def ids(
    client: Client, info: dict, demo_workflow: Callable[[str], str], emulator: ServerHandle
) -> dict[str, str]:
    account = (await client.list_accounts(limit=1)).items[0].id
    app = (await client.list_apps(limit=1)).items[0].id
    source = (await client.list_workspace_sources(limit=1)).items[0].id
    connect_account = (await client.list_connect_accounts(limit=1)).items[0].id
    template = next(iter(emulator.emulator.store.templates))
    return {
        "account": account,
        "app": app,
        "source": source,
        "connect_account": connect_account,
        "org": info["org_id"],
        "workflow": demo_workflow("Validate and forward orders"),
        "template": template,
    }


def set_variant(emulator: ServerHandle, shapes: list[str] | None) -> None:
    url = f"{emulator.root_url}/_emulator/variants"
    response = httpx.post(url, json={"shapes": shapes}) if shapes else httpx.delete(url)
    assert response.status_code == 200, response.text


@pytest.mark.parametrize("variant", list(VARIANTS), ids=list(VARIANTS))
@pytest.mark.parametrize("name", list(READS), ids=list(READS))
async def test_every_read_takes_every_shape(
    emulator: ServerHandle, client: Client, ids: dict[str, str], name: str, variant: str
) -> None:
    documented = records(await READS[name](client, ids))
    set_variant(emulator, VARIANTS[variant])
    try:
        got = records(await READS[name](client, ids))
    finally:
        set_variant(emulator, None)
    shapes = VARIANTS[variant]
    assert type(got[0]) is type(documented[0]) if documented else not got
    # The same records, known by their ids: nothing dropped or made up by a change of shape or a null.
    assert [record_id(r) for r in got] == [record_id(r) for r in documented] or all(
        record_id(r) is None for r in documented
    )
    if "extra" in shapes:
        for record in got:
            assert record.model_extra is not None and record.model_extra.get("x_added") == {
                "by": "a newer service",
                "n": 1,
            }, f"{name}: the unknown field was not kept"
    if "enums" in shapes and "nulls" not in shapes:
        before = json.dumps([r.model_dump(mode="json") for r in documented])
        after = json.dumps([r.model_dump(mode="json") for r in got])
        kinds = ('"auth_type": "', '"type": "', '"source_type": "', '"environment": "', '"lang": "')
        if any(kind in before for kind in kinds):
            assert "_from_the_future" in after, f"{name}: an unknown kind was not kept as text"


async def test_unknown_kinds_are_kept_as_the_text_the_service_sent(
    emulator: ServerHandle, client: Client, ids: dict[str, str]
) -> None:
    set_variant(emulator, ["enums"])
    try:
        apps = (await client.list_apps(limit=20)).items
        workflow = await client.get_workflow(ids["workflow"])
        info = await client.connect_info()
    finally:
        set_variant(emulator, None)
    assert {a.auth_type for a in apps} <= {"oauth_from_the_future", "keys_from_the_future", None}
    assert any(a.auth_type for a in apps)
    assert all(step.type is None or step.type.endswith("_from_the_future") for step in workflow.steps)
    assert info.environment is not None and info.environment.endswith("_from_the_future")


async def test_a_record_of_nulls_reads_as_its_defaults(
    emulator: ServerHandle, client: Client, ids: dict[str, str]
) -> None:
    set_variant(emulator, ["nulls"])
    try:
        source = await client.get_source(ids["source"])
        apps = (await client.list_apps(limit=3)).items
        events = (await client.list_workflow_errors(ids["workflow"], limit=3)).items
        me = await client.me()
    finally:
        set_variant(emulator, None)
    assert source.id == ids["source"] and source.configured_props == {} and source.endpoint_url is None
    assert all(a.categories == [] and a.custom_fields() == [] for a in apps)
    assert events and all(e.id and e.metadata.emitter_id is None and e.channel == "default" for e in events)
    assert me.orgs == [] and me.plan == "free"


@pytest.mark.parametrize("variant", list(VARIANTS), ids=list(VARIANTS))
@pytest.mark.parametrize("name", list(WRITES), ids=list(WRITES))
async def test_every_write_takes_every_shape(
    emulator: ServerHandle, client: Client, ids: dict[str, str], name: str, variant: str
) -> None:
    set_variant(emulator, VARIANTS[variant])
    try:
        if name == "create_connect_token" and {"nulls", "null_leaves"} & set(VARIANTS[variant]):
            # A token of null is no token: said plainly, not handed on as "" for the next request to fail on.
            with pytest.raises(ServerError, match="a connect token without its token"):
                await WRITES[name](client, ids)
            return
        result = await WRITES[name](client, ids)
    finally:
        set_variant(emulator, None)
    if name in ("update_source", "set_source_active"):
        assert result is None or result.id == ids["source"]
        return
    if name == "auto_subscribe":  # a plain object: what was asked for where the answer is silent
        assert result["id"] and (result["event_name"], result["listener_id"]) == ("$errors", ids["workflow"])
        if "extra" in VARIANTS[variant]:
            assert "x_added" in result
        return
    (record,) = records(result)
    assert record_id(record), f"{name}: the new record lost its id"
    if "extra" in VARIANTS[variant] and name != "subscribe":
        assert record.model_extra is not None and "x_added" in record.model_extra


@pytest.mark.parametrize("variant", list(VARIANTS), ids=list(VARIANTS))
@pytest.mark.parametrize("name", list(SILENT_WRITES), ids=list(SILENT_WRITES))
async def test_every_write_without_an_answer_takes_every_shape(
    emulator: ServerHandle, client: Client, ids: dict[str, str], name: str, variant: str
) -> None:
    prepare, act = SILENT_WRITES[name]
    target = await prepare(client, ids)
    set_variant(emulator, VARIANTS[variant])
    try:
        result = await act(client, ids, target)
    finally:
        set_variant(emulator, None)
    assert result is None


async def test_the_variant_control_refuses_unknown_shapes(emulator: ServerHandle) -> None:
    response = httpx.post(f"{emulator.root_url}/_emulator/variants", json={"shapes": ["sideways"]})
    assert response.status_code == 400 and response.json()["details"]["param"] == "shapes"


def test_a_streamed_summary_with_null_metadata_stays_a_summary() -> None:
    """The stream's own reader (no HTTP answer to vary): `metadata: null` is read as none, not taken for a bare payload."""
    event = summary_of_data('{"id": "1700000000000-3", "event": {"n": 1}, "metadata": null}', None, "message", "dc_s")
    assert event.id == "1700000000000-3" and event.event == {"n": 1} and event.channel == "default"


@pytest.mark.parametrize("variant", list(VARIANTS), ids=list(VARIANTS))
@pytest.mark.parametrize("what", ["sources", "subscriptions"])
async def test_the_first_screens_json_lists_take_every_shape(
    emulator: ServerHandle, client: Client, what: Literal["sources", "subscriptions"], variant: str
) -> None:
    """`list_json` (Health's lists, read before any model is built) finds what the models' lists find, in the same
    shape: the same records, and the same ends of each subscription (a null read as none either way)."""
    models = client.list_workspace_sources if what == "sources" else client.list_workspace_subscriptions
    set_variant(emulator, VARIANTS[variant])
    try:
        got = await client.list_json(what)
        documented = (await models(limit=100)).items
    finally:
        set_variant(emulator, None)
    assert got and [item.get("id") for item in got] == [record.id for record in documented]
    if what == "subscriptions":
        ends = [(item.get("emitter_id") or None, item.get("listener_id") or None) for item in got]
        assert ends == [(s.emitter_id or None, s.listener_id or None) for s in documented]
