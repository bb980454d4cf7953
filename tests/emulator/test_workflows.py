"""Workflows of the emulator over HTTP: creation from templates, their shape,
activation, runs through their triggers, `$errors` and the e-mail rule."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from aftui.emulator.server import ServerHandle

ORDERS_TEMPLATE = "tch_3Lm9Qa"  # http trigger; steps validate, transform, emit
GITHUB_TEMPLATE = "tch_Gh5rT1"  # github source trigger; step send_message (slack)
DAY_S = 24 * 3600

GOOD_ORDER = {"order_id": "ord_100", "customer_email": "ana@shop.example", "country": "fr", "currency": "eur"}
BAD_ORDER = {"order_id": "ord_101", "country": "fr"}  # no customer_email


# --- helpers ---------------------------------------------------------------------------------------


def workflow_named(emulator: ServerHandle, name: str) -> str:
    return next(w.id for w in emulator.emulator.store.workflows.values() if w.name == name)


def create(api: httpx.Client, info: dict, **body: Any) -> httpx.Response:
    return api.post("/workflows", json={"org_id": info["org_id"], **body})


def created(api: httpx.Client, info: dict, **body: Any) -> dict[str, Any]:
    response = create(api, info, **body)
    assert response.status_code == 200, response.text
    return response.json()["data"]


def get_workflow(api: httpx.Client, workflow_id: str) -> dict[str, Any]:
    response = api.get(f"/workflows/{workflow_id}")
    assert response.status_code == 200, response.text
    return response.json()


def step(workflow: dict[str, Any], namespace: str) -> dict[str, Any]:
    return next(s for s in workflow["steps"] if s["namespace"] == namespace)


def http_key(workflow: dict[str, Any]) -> str:
    return next(t["key"] for t in workflow["triggers"] if t["id"].startswith("hi_"))


def account_of(api: httpx.Client, app: str) -> str:
    """The id of one of the user's accounts of `app`."""
    accounts = api.get("/accounts", params={"app": app, "limit": 100}).json()["data"]
    return accounts[0]["id"]


def total(api: httpx.Client, path: str) -> int:
    response = api.get(path, params={"limit": 1})
    assert response.status_code == 200, response.text
    return response.json()["page_info"]["total_count"]


def newest(api: httpx.Client, path: str) -> dict[str, Any]:
    return api.get(path, params={"limit": 1, "expand": "event"}).json()["data"][0]


def emails_of(root: httpx.Client, workflow_id: str) -> list[dict[str, Any]]:
    return [e for e in root.get("/_emulator/emails").json()["emails"] if e["workflow_id"] == workflow_id]


def listening_source(api: httpx.Client, info: dict, emitter: str, channel: str) -> str:
    """A new source subscribed to `emitter` on `channel`: it re-emits every event it is given."""
    response = api.post(
        "/sources", json={"key": "http-new-requests", "name": f"listens to {emitter}", "org_id": info["org_id"]}
    )
    assert response.status_code == 200, response.text
    listener = response.json()["data"]["id"]
    sub = api.post("/subscriptions", params={"emitter_id": emitter, "listener_id": listener, "event_name": channel})
    assert sub.status_code == 200, sub.text
    return listener


# --- creation --------------------------------------------------------------------------------------


def test_every_demo_template_creates_a_workflow(api: httpx.Client, emulator: ServerHandle, info: dict) -> None:
    templates = emulator.emulator.store.templates
    assert templates and all(t.startswith("tch_") for t in templates)
    github = account_of(api, "github")
    slack = account_of(api, "slack")
    for template_id in templates:
        body: dict[str, Any] = {"template_id": template_id}
        if template_id == GITHUB_TEMPLATE:
            body["triggers"] = [{"props": {"github": {"authProvisionId": github}, "repo": "acme/api"}}]
            body["steps"] = [
                {"namespace": "send_message", "props": {"slack": {"authProvisionId": slack}, "channel": "C1"}}
            ]
        data = created(api, info, **body)
        assert data["id"].startswith("p_")


def test_step_props_are_given_by_namespace(api: httpx.Client, info: dict) -> None:
    data = created(
        api, info, template_id=ORDERS_TEMPLATE, steps=[{"namespace": "validate", "props": {"required_fields": ["sku"]}}]
    )
    validate = step(get_workflow(api, data["id"]), "validate")
    assert json.loads(validate["configured_props_json"]) == {"required_fields": ["sku"]}
    transform = step(get_workflow(api, data["id"]), "transform")
    assert json.loads(transform["configured_props_json"])["add_fields"]["source"] == "webshop"  # template default kept


def test_trigger_props_are_given_by_index_and_app_props_as_auth_provision_ids(api: httpx.Client, info: dict) -> None:
    github = account_of(api, "github")
    slack = account_of(api, "slack")
    data = created(
        api,
        info,
        template_id=GITHUB_TEMPLATE,
        triggers=[{"props": {"github": {"authProvisionId": github}, "repo": "acme/payments"}}],
        steps=[{"namespace": "send_message", "props": {"slack": {"authProvisionId": slack}, "channel": "C0PAYMENTS"}}],
    )
    workflow = get_workflow(api, data["id"])
    (trigger,) = workflow["triggers"]
    assert trigger["configured_props"]["github"] == {"authProvisionId": github}
    assert trigger["configured_props"]["repo"] == "acme/payments"
    send = step(workflow, "send_message")
    assert send["authProvisionIdMap"] == {"slack": slack}
    assert send["authProvisionIds"] == [slack]
    assert json.loads(send["configured_props_json"])["channel"] == "C0PAYMENTS"


@pytest.mark.parametrize(
    ("github", "problem"),
    [
        ({"authProvisionId": "apn_nothere"}, "not found"),
        ("apn_bare_string", "authProvisionId"),
        (None, "required"),
    ],
)
def test_a_bad_trigger_prop_is_400_naming_it_by_trigger_index(
    api: httpx.Client, info: dict, github: Any, problem: str
) -> None:
    slack = account_of(api, "slack")
    props: dict[str, Any] = {"repo": "acme/api"}
    if github is not None:
        props["github"] = github
    response = create(
        api,
        info,
        template_id=GITHUB_TEMPLATE,
        triggers=[{"props": props}],
        steps=[{"namespace": "send_message", "props": {"slack": {"authProvisionId": slack}, "channel": "C1"}}],
    )
    assert response.status_code == 400
    body = response.json()
    assert body["details"]["param"] == "triggers[0].props.github"
    assert body["error"].startswith("triggers[0].props.github: ")
    assert problem in body["error"]


def test_an_account_of_the_wrong_app_is_400(api: httpx.Client, info: dict) -> None:
    slack = account_of(api, "slack")
    response = create(
        api,
        info,
        template_id=GITHUB_TEMPLATE,
        triggers=[{"props": {"github": {"authProvisionId": slack}, "repo": "acme/api"}}],
        steps=[{"namespace": "send_message", "props": {"slack": {"authProvisionId": slack}, "channel": "C1"}}],
    )
    assert response.status_code == 400
    assert "expected github" in response.json()["error"]


def test_settings_name_names_the_workflow(api: httpx.Client, info: dict) -> None:
    data = created(api, info, template_id=ORDERS_TEMPLATE, settings={"name": "Orders (EU)"})
    assert data["name"] == "Orders (EU)"
    assert get_workflow(api, data["id"])["name"] == "Orders (EU)"


def test_auto_deploy_makes_the_workflow_active(api: httpx.Client, info: dict) -> None:
    data = created(api, info, template_id=ORDERS_TEMPLATE, settings={"name": "deployed", "auto_deploy": True})
    assert data["active"] is True


def test_without_auto_deploy_the_workflow_is_inactive(api: httpx.Client, info: dict) -> None:
    assert created(api, info, template_id=ORDERS_TEMPLATE)["active"] is False
    assert created(api, info, template_id=ORDERS_TEMPLATE, settings={"auto_deploy": False})["active"] is False


def test_a_step_namespace_the_template_lacks_is_400(api: httpx.Client, info: dict) -> None:
    response = create(api, info, template_id=ORDERS_TEMPLATE, steps=[{"namespace": "no_such_step", "props": {}}])
    assert response.status_code == 400
    assert "no_such_step" in response.json()["error"]


def test_a_trigger_given_a_namespace_is_400(api: httpx.Client, info: dict) -> None:
    response = create(api, info, template_id=ORDERS_TEMPLATE, triggers=[{"namespace": "trigger", "props": {}}])
    assert response.status_code == 400
    assert "namespace" in response.json()["error"]


def test_an_unknown_template_is_404(api: httpx.Client, info: dict) -> None:
    assert create(api, info, template_id="tch_nothere").status_code == 404


def test_creation_with_a_user_key_needs_org_id(api: httpx.Client) -> None:
    response = api.post("/workflows", json={"template_id": ORDERS_TEMPLATE})
    assert response.status_code == 400
    assert "org_id" in response.json()["error"]


def test_an_unknown_workflow_is_404(api: httpx.Client) -> None:
    assert api.get("/workflows/p_nothere").status_code == 404


# --- the shape of GET /workflows/{id} -----------------------------------------------------------------


def test_http_trigger_has_key_endpoint_url_and_custom_response(api: httpx.Client, emulator: ServerHandle) -> None:
    (trigger,) = get_workflow(api, emulator.emulator.demo.order_workflow_id)["triggers"]
    assert trigger["id"].startswith("hi_")
    assert trigger["endpoint_url"] == f"{emulator.root_url}/e/{trigger['key']}"
    assert trigger["custom_response"] is False
    assert isinstance(trigger["created_at"], int) and isinstance(trigger["updated_at"], int)


def test_timer_trigger_has_its_schedule(api: httpx.Client, emulator: ServerHandle) -> None:
    (trigger,) = get_workflow(api, workflow_named(emulator, "Nightly report"))["triggers"]
    assert trigger["id"].startswith("ti_")
    assert (trigger["interval_seconds"], trigger["cron"], trigger["timezone"]) == (None, "0 2 * * *", "UTC")
    assert isinstance(trigger["schedule_changed_at"], int)
    (hourly,) = get_workflow(api, workflow_named(emulator, "Flaky partner sync"))["triggers"]
    assert (hourly["interval_seconds"], hourly["cron"]) == (3600, None)


def test_email_trigger_has_an_address(api: httpx.Client, emulator: ServerHandle) -> None:
    (trigger,) = get_workflow(api, workflow_named(emulator, "Inbound email triage"))["triggers"]
    assert trigger["id"].startswith("ei_")
    assert "@" in trigger["email_address"]
    assert isinstance(trigger["created_at"], int)


def test_source_trigger_is_the_source_with_its_configurable_props(api: httpx.Client, emulator: ServerHandle) -> None:
    (trigger,) = get_workflow(api, workflow_named(emulator, "GitHub issues to Slack"))["triggers"]
    assert trigger["id"].startswith("dc_")
    assert trigger["owner_id"].startswith("u_")
    assert trigger["configured_props"]["github"]["authProvisionId"].startswith("apn_")
    assert {p["name"] for p in trigger["configurable_props"]} >= {"github", "repo", "timer"}
    assert api.get(f"/sources/{trigger['id']}").json()["data"]["component_id"] == trigger["component_id"]


def test_steps_have_the_shape_of_the_spec(api: httpx.Client, emulator: ServerHandle) -> None:
    workflow = get_workflow(api, workflow_named(emulator, "GitHub issues to Slack"))
    (send,) = workflow["steps"]
    assert send["id"].startswith("c_")
    assert send["type"] == "CodeCell"
    assert send["namespace"] == "send_message"
    assert send["component_key"] == "slack-send-message"
    assert send["component"] is True
    assert {"disabled", "lang", "component_owner_id", "params_json", "appConnections"} <= set(send)
    assert {"code_raw", "codeRaw", "codeConfigJson", "text_raw", "flat_params_visibility_json"} <= set(send)
    saved = send["savedComponent"]
    assert saved["id"].startswith("sc_")
    assert saved["key"] == "slack-send-message"
    assert "export default" in saved["code"] and saved["codeHash"]
    assert {p["name"] for p in saved["configurableProps"]} >= {"slack", "channel", "text"}
    assert saved["version"]
    assert saved["apps"] == [
        {"appId": api.get("/apps/slack").json()["data"]["id"], "nameSlug": "slack", "authType": "oauth"}
    ]
    assert isinstance(send["configured_props_json"], str)
    assert json.loads(send["configured_props_json"])["slack"] == {
        "authProvisionId": send["authProvisionIdMap"]["slack"]
    }
    assert isinstance(json.loads(send["params_json"]), dict)


def test_workflow_has_id_name_and_active_beside_triggers_and_steps(api: httpx.Client, emulator: ServerHandle) -> None:
    workflow = get_workflow(api, emulator.emulator.demo.order_workflow_id)
    assert workflow["id"] == emulator.emulator.demo.order_workflow_id
    assert workflow["name"] == "Validate and forward orders"
    assert workflow["active"] is True
    assert [s["namespace"] for s in workflow["steps"]] == ["validate", "transform", "emit"]


def test_a_template_answers_in_the_workflow_shape_with_its_configurable_props(api: httpx.Client) -> None:
    template = get_workflow(api, ORDERS_TEMPLATE)
    assert (template["id"], template["name"]) == (ORDERS_TEMPLATE, "Validate and forward orders")
    assert [s["namespace"] for s in template["steps"]] == ["validate", "transform", "emit"]
    validate = step(template, "validate")
    assert validate["component_key"] == "demo-validate-fields"
    assert json.loads(validate["configured_props_json"]) == {"required_fields": ["order_id", "customer_email"]}
    assert "required_fields" in {p["name"] for p in validate["savedComponent"]["configurableProps"]}
    (http,) = template["triggers"]
    assert http["id"].startswith("hi_") and http["endpoint_url"] is None
    assert [p["name"] for p in http["configurable_props"]] == ["custom_response"]


def test_a_template_with_a_source_or_timer_trigger_names_their_props(api: httpx.Client) -> None:
    (source,) = get_workflow(api, GITHUB_TEMPLATE)["triggers"]
    assert source["id"].startswith("dc_")
    assert {p["name"] for p in source["configurable_props"]} >= {"github", "repo"}
    (timer,) = get_workflow(api, "tch_8Wd2Kc")["triggers"]
    assert (timer["cron"], timer["timezone"]) == ("0 2 * * *", "UTC")
    assert timer["configurable_props"] == [
        {"name": "timer", "type": "$.interface.timer", "default": {"cron": "0 2 * * *"}}
    ]


def test_the_props_a_template_shows_are_the_ones_creation_takes(api: httpx.Client, info: dict) -> None:
    template = get_workflow(api, ORDERS_TEMPLATE)
    steps = [{"namespace": s["namespace"], "props": json.loads(s["configured_props_json"])} for s in template["steps"]]
    workflow = created(api, info, template_id=ORDERS_TEMPLATE, steps=steps)
    assert json.loads(step(workflow, "validate")["configured_props_json"]) == {
        "required_fields": ["order_id", "customer_email"]
    }


def test_an_unknown_template_is_404_naming_it(api: httpx.Client) -> None:
    response = api.get("/workflows/tch_nothere")
    assert response.status_code == 404
    assert "tch_nothere" in response.json()["error"]


# --- activation ---------------------------------------------------------------------------------------


def test_put_active_false_deactivates_and_true_activates(api: httpx.Client, emulator: ServerHandle) -> None:
    workflow_id = emulator.emulator.demo.order_workflow_id
    response = api.put(f"/workflows/{workflow_id}", json={"active": False})
    assert response.status_code == 200
    assert get_workflow(api, workflow_id)["active"] is False
    assert api.put(f"/workflows/{workflow_id}", json={"active": True}).status_code == 200
    assert get_workflow(api, workflow_id)["active"] is True


def test_put_activates_a_workflow_created_without_auto_deploy(api: httpx.Client, info: dict) -> None:
    data = created(api, info, template_id=ORDERS_TEMPLATE)
    assert api.put(f"/workflows/{data['id']}", json={"active": True, "org_id": info["org_id"]}).status_code == 200
    assert get_workflow(api, data["id"])["active"] is True


def test_put_without_active_is_400(api: httpx.Client, emulator: ServerHandle) -> None:
    response = api.put(f"/workflows/{emulator.emulator.demo.order_workflow_id}", json={})
    assert response.status_code == 400
    assert "active" in response.json()["error"]


def test_put_with_an_oauth_token_is_403(oauth: httpx.Client, emulator: ServerHandle) -> None:
    assert (
        oauth.put(f"/workflows/{emulator.emulator.demo.order_workflow_id}", json={"active": False}).status_code == 403
    )


def test_an_inactive_workflows_http_trigger_does_not_run_it(
    api: httpx.Client, root: httpx.Client, emulator: ServerHandle
) -> None:
    workflow_id = emulator.emulator.demo.order_workflow_id
    events = f"/workflows/{workflow_id}/event_summaries"
    before = total(api, events)
    api.put(f"/workflows/{workflow_id}", json={"active": False})
    response = root.post(f"/e/{emulator.emulator.demo.order_endpoint_key}", json=GOOD_ORDER)
    assert response.status_code >= 400
    assert total(api, events) == before
    api.put(f"/workflows/{workflow_id}", json={"active": True})
    assert root.post(f"/e/{emulator.emulator.demo.order_endpoint_key}", json=GOOD_ORDER).status_code == 200
    assert total(api, events) == before + 1


# --- runs ------------------------------------------------------------------------------------------


def test_http_trigger_runs_the_workflow_with_the_request_as_event(
    api: httpx.Client, root: httpx.Client, emulator: ServerHandle
) -> None:
    relay = workflow_named(emulator, "Acknowledge and relay webhooks")  # emits its trigger event unchanged
    key = http_key(get_workflow(api, relay))
    response = httpx.put(
        f"{emulator.root_url}/e/{key}/hooks/in?tag=a", json={"hello": "world"}, headers={"X-Caller": "test"}, timeout=10
    )
    assert response.status_code == 200
    event = newest(api, f"/workflows/{relay}/event_summaries")["event"]
    assert event["method"] == "PUT"
    assert event["path"] == "/hooks/in"
    assert event["query"] == {"tag": "a"}
    assert event["headers"]["x-caller"] == "test"
    assert event["body"] == {"hello": "world"}
    assert json.loads(event["bodyRaw"]) == {"hello": "world"}


def test_an_unknown_http_endpoint_is_404(root: httpx.Client) -> None:
    assert root.post("/e/ennothere", json={}).status_code == 404


def test_order_workflow_emits_the_transformed_order_on_success(
    api: httpx.Client, root: httpx.Client, emulator: ServerHandle
) -> None:
    workflow_id = emulator.emulator.demo.order_workflow_id
    assert root.post(f"/e/{emulator.emulator.demo.order_endpoint_key}", json=GOOD_ORDER).status_code == 200
    summary = newest(api, f"/workflows/{workflow_id}/event_summaries")
    assert summary["metadata"]["emitter_id"] == workflow_id
    assert summary["event"] == {
        **GOOD_ORDER,
        "country": "FR",
        "currency": "EUR",
        "source": "webshop",
        "pipeline": "orders-v2",
    }


def test_order_without_customer_email_raises_an_errors_event(
    api: httpx.Client, root: httpx.Client, emulator: ServerHandle
) -> None:
    workflow_id = emulator.emulator.demo.order_workflow_id
    errors = f"/workflows/{workflow_id}/$errors/event_summaries"
    before_errors, before_events = total(api, errors), total(api, f"/workflows/{workflow_id}/event_summaries")
    assert root.post(f"/e/{emulator.emulator.demo.order_endpoint_key}", json=BAD_ORDER).status_code == 200
    assert total(api, errors) == before_errors + 1
    assert total(api, f"/workflows/{workflow_id}/event_summaries") == before_events
    summary = newest(api, errors)
    assert summary["metadata"]["name"] == "$errors"
    event = summary["event"]
    assert event["original_event"]["body"] == BAD_ORDER
    context = event["original_context"]
    assert context["workflow_id"] == workflow_id
    assert {"id", "ts", "deployment_id", "source_type", "verified", "owner_id", "platform_version"} <= set(context)
    error = event["error"]
    assert error["code"] == "ValidationError"
    assert error["cellId"] == step(get_workflow(api, workflow_id), "validate")["id"]
    assert "customer_email" in error["stack"] and error["ts"]


def test_workflow_errors_reach_errors_subscribers(
    api: httpx.Client, root: httpx.Client, emulator: ServerHandle, info: dict
) -> None:
    workflow_id = emulator.emulator.demo.order_workflow_id
    listener = listening_source(api, info, workflow_id, "$errors")
    root.post(f"/e/{emulator.emulator.demo.order_endpoint_key}", json=BAD_ORDER)
    root.post(f"/e/{emulator.emulator.demo.order_endpoint_key}", json=GOOD_ORDER)  # not an error: not forwarded
    heard = api.get(f"/sources/{listener}/event_summaries", params={"expand": "event"}).json()["data"]
    assert len(heard) == 1
    assert heard[0]["event"]["error"]["msg"] == "Missing required field: customer_email"


def test_identical_errors_within_a_day_send_one_email_and_another_after_a_day(
    api: httpx.Client, root: httpx.Client, info: dict
) -> None:
    data = created(api, info, template_id=ORDERS_TEMPLATE, settings={"name": "Orders mailer", "auto_deploy": True})
    key = http_key(data)
    errors = f"/workflows/{data['id']}/$errors/event_summaries"
    root.post(f"/e/{key}", json=BAD_ORDER)
    root.post(f"/e/{key}", json=BAD_ORDER)
    assert total(api, errors) == 2  # listeners get every occurrence
    (email,) = emails_of(root, data["id"])
    assert "customer_email" in email["subject"]
    assert email["to"] == api.get("/users/me").json()["data"]["email"]
    assert root.post("/_emulator/clock", json={"advance": DAY_S - 1}).status_code == 200
    root.post(f"/e/{key}", json=BAD_ORDER)
    assert len(emails_of(root, data["id"])) == 1
    root.post("/_emulator/clock", json={"advance": 1})
    root.post(f"/e/{key}", json=BAD_ORDER)
    assert len(emails_of(root, data["id"])) == 2


def test_different_errors_are_emailed_separately(api: httpx.Client, root: httpx.Client, info: dict) -> None:
    data = created(api, info, template_id=ORDERS_TEMPLATE, settings={"name": "Orders mailer", "auto_deploy": True})
    key = http_key(data)
    root.post(f"/e/{key}", json=BAD_ORDER)
    root.post(f"/e/{key}", json={"customer_email": "a@b.example"})  # no order_id
    assert len(emails_of(root, data["id"])) == 2


def test_test_runs_are_neither_emailed_nor_forwarded(api: httpx.Client, root: httpx.Client, info: dict) -> None:
    data = created(api, info, template_id=ORDERS_TEMPLATE, settings={"name": "Orders under test", "auto_deploy": True})
    listener = listening_source(api, info, data["id"], "$errors")
    response = root.post(f"/_emulator/workflows/{data['id']}/test", json={"event": {"body": BAD_ORDER}})
    assert response.status_code == 200
    run = response.json()
    assert run["status"] == "error"
    assert run["error"]["code"] == "ValidationError"
    assert emails_of(root, data["id"]) == []
    assert total(api, f"/workflows/{data['id']}/$errors/event_summaries") == 0
    assert total(api, f"/sources/{listener}/event_summaries") == 0


def test_successful_test_run_does_not_emit(api: httpx.Client, root: httpx.Client, info: dict) -> None:
    data = created(api, info, template_id=ORDERS_TEMPLATE, settings={"auto_deploy": True})
    run = root.post(f"/_emulator/workflows/{data['id']}/test", json={"event": {"body": GOOD_ORDER}}).json()
    assert run["status"] == "success"
    assert run["value"]["source"] == "webshop"
    assert total(api, f"/workflows/{data['id']}/event_summaries") == 0


def test_email_to_the_trigger_address_runs_the_workflow(
    api: httpx.Client, root: httpx.Client, emulator: ServerHandle
) -> None:
    workflow_id = workflow_named(emulator, "Inbound email triage")
    (trigger,) = get_workflow(api, workflow_id)["triggers"]
    mail = {
        "to": trigger["email_address"],
        "from": "customer@example.com",
        "subject": "Refund please",
        "text": "Order 42",
    }
    response = root.post("/_emulator/email", json=mail)
    assert response.status_code == 200
    assert response.json()["status"] == "success"
    event = newest(api, f"/workflows/{workflow_id}/event_summaries")["event"]
    assert event == {**mail, "queue": "support", "triaged": True}


def test_email_without_subject_is_a_workflow_error(
    api: httpx.Client, root: httpx.Client, emulator: ServerHandle
) -> None:
    workflow_id = workflow_named(emulator, "Inbound email triage")
    (trigger,) = get_workflow(api, workflow_id)["triggers"]
    errors = f"/workflows/{workflow_id}/$errors/event_summaries"
    before = total(api, errors)
    response = root.post(
        "/_emulator/email", json={"to": trigger["email_address"], "from": "customer@example.com", "text": "hi"}
    )
    assert response.json()["status"] == "error"
    assert total(api, errors) == before + 1
    assert newest(api, errors)["event"]["original_context"]["source_type"] == "EMAIL"


def test_email_to_an_unknown_address_is_404(root: httpx.Client) -> None:
    assert root.post("/_emulator/email", json={"to": "nobody@upload.emulator.local", "subject": "x"}).status_code == 404


@pytest.mark.parametrize("name", ["Nightly report", "Flaky partner sync"])
def test_running_a_timer_trigger_runs_its_workflow(root: httpx.Client, emulator: ServerHandle, name: str) -> None:
    response = root.post(f"/_emulator/timers/{workflow_named(emulator, name)}/run")
    assert response.status_code == 200
    (status,) = response.json()["runs"]
    assert status in ("success", "error")


def test_a_step_calling_a_url_no_request_can_be_made_to_raises_an_errors_event(
    api: httpx.Client, root: httpx.Client, info: dict
) -> None:
    data = created(
        api,
        info,
        template_id="tch_8Wd2Kc",
        settings={"auto_deploy": True},
        steps=[
            {"namespace": "fetch_metrics", "props": {"url": "http://xn--.example/metrics"}}
        ],  # a malformed IDNA host
    )
    response = root.post(f"/_emulator/timers/{data['id']}/run")
    assert response.status_code == 200
    assert response.json()["runs"] == ["error"]
    error = newest(api, f"/workflows/{data['id']}/$errors/event_summaries")["event"]["error"]
    assert error["code"] == "RequestError"
    assert error["cellId"] == step(get_workflow(api, data["id"]), "fetch_metrics")["id"]
