"""Subscriptions, auto-subscriptions and webhooks of the emulator, over HTTP.

Delivery is checked end to end: a tiny HTTP server on 127.0.0.1 records
what the emulator POSTs to a webhook URL.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest

from aftui.emulator.server import ServerHandle

WAIT_S = 5.0
FAST_RETRIES = {"webhook_retry_delays": [0.05, 0.05, 0.05]}


# --- a webhook receiver ---------------------------------------------------------------------------


class Recorder:
    """Records every POST it gets; answers 500 to the first `fail_first`, then 200."""

    def __init__(self, fail_first: int = 0) -> None:
        self.fail_first = fail_first
        self.attempts = 0
        self.received: list[dict[str, Any]] = []
        self._changed = threading.Condition()
        recorder = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                with recorder._changed:
                    recorder.attempts += 1
                    failing = recorder.attempts <= recorder.fail_first
                    if not failing:
                        recorder.received.append(
                            {
                                "path": self.path,
                                "headers": {k.lower(): v for k, v in self.headers.items()},
                                "body": json.loads(raw),
                            }
                        )
                    recorder._changed.notify_all()
                self.send_response(500 if failing else 200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/hook"
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,), daemon=True)
        self._thread.start()

    def wait_for(self, count: int, timeout: float = WAIT_S) -> list[dict[str, Any]]:
        """The first `count` successful deliveries; fails the test after `timeout` seconds."""
        with self._changed:
            if not self._changed.wait_for(lambda: len(self.received) >= count, timeout):
                pytest.fail(f"expected {count} deliveries within {timeout}s, got {len(self.received)}")
            return list(self.received)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=WAIT_S)


@pytest.fixture
def recorder() -> Iterator[Recorder]:
    rec = Recorder()
    yield rec
    rec.close()


@pytest.fixture
def fast_retries(root: httpx.Client) -> None:
    assert root.post("/_emulator/settings", json=FAST_RETRIES).status_code == 200


# --- helpers ---------------------------------------------------------------------------------------


def source_id(emulator: ServerHandle, name: str) -> str:
    return next(s.id for s in emulator.emulator.store.sources.values() if s.name == name)


def workflow_id(emulator: ServerHandle, name: str) -> str:
    return next(w.id for w in emulator.emulator.store.workflows.values() if w.name == name)


def webhook_id(emulator: ServerHandle, name: str) -> str:
    return next(w.id for w in emulator.emulator.store.webhooks.values() if w.name == name)


def make_webhook(api: httpx.Client, url: str, org_id: str, name: str = "test hook") -> str:
    response = api.post("/webhooks", params={"url": url, "name": name, "org_id": org_id})
    assert response.status_code == 200, response.text
    return response.json()["data"]["id"]


def subscribe(
    api: httpx.Client, emitter: str, listener: str, event_name: str | None = None, **extra: str
) -> dict[str, Any]:
    params = {"emitter_id": emitter, "listener_id": listener, **extra}
    if event_name is not None:
        params["event_name"] = event_name
    response = api.post("/subscriptions", params=params)
    assert response.status_code == 200, response.text
    return response.json()["data"]


def emit(root: httpx.Client, source: str, event: Any, channel: str | None = None) -> str:
    body: dict[str, Any] = {"event": event}
    if channel is not None:
        body["channel"] = channel
    response = root.post(f"/_emulator/sources/{source}/emit", json=body)
    assert response.status_code == 200, response.text
    (event_id,) = response.json()["emitted"]
    return event_id


def deliveries_to(root: httpx.Client, webhook: str) -> list[dict[str, Any]]:
    return [d for d in root.get("/_emulator/deliveries").json()["deliveries"] if d["webhook_id"] == webhook]


def finished_delivery(root: httpx.Client, webhook: str, timeout: float = WAIT_S) -> dict[str, Any]:
    """The one delivery to `webhook`, once the emulator has recorded its outcome."""
    deadline = threading.Event()
    for _ in range(int(timeout / 0.02)):
        (delivery,) = deliveries_to(root, webhook)
        if "delivered" in delivery:
            return delivery
        deadline.wait(0.02)
    pytest.fail(f"the delivery to {webhook} did not finish within {timeout}s")


def all_pages(client: httpx.Client, path: str, limit: int = 3) -> tuple[list[dict[str, Any]], int]:
    """Every item of a paginated list, following end_cursor; and total_count."""
    items: list[dict[str, Any]] = []
    params: dict[str, Any] = {"limit": limit}
    for _ in range(1000):
        response = client.get(path, params=params)
        assert response.status_code == 200, response.text
        body = response.json()
        items.extend(body["data"])
        assert body["page_info"]["count"] == len(body["data"]) <= limit
        cursor = body["page_info"]["end_cursor"]
        if not cursor:
            return items, body["page_info"]["total_count"]
        params = {"limit": limit, "after": cursor}
    raise AssertionError("pagination did not end")


# --- creating subscriptions -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("emitter_name", "listener_name"),
    [
        (("source", "Intercom conversations"), ("workflow", "Acknowledge and relay webhooks")),
        (("source", "Intercom conversations"), ("source", "Shopify order events")),
        (("source", "Intercom conversations"), ("webhook", "Ops intake")),
        (("workflow", "Nightly report"), ("workflow", "Acknowledge and relay webhooks")),
        (("workflow", "Nightly report"), ("source", "Shopify order events")),
        (("workflow", "Nightly report"), ("webhook", "Ops intake")),
    ],
)
def test_subscription_routes_a_source_or_workflow_to_a_workflow_source_or_webhook(
    api: httpx.Client, emulator: ServerHandle, emitter_name: tuple[str, str], listener_name: tuple[str, str]
) -> None:
    finders = {"source": source_id, "workflow": workflow_id, "webhook": webhook_id}
    emitter = finders[emitter_name[0]](emulator, emitter_name[1])
    listener = finders[listener_name[0]](emulator, listener_name[1])
    data = subscribe(api, emitter, listener)
    assert data["id"].startswith("sub_")
    assert data["emitter_id"] == emitter
    assert data["listener_id"] == listener
    assert data["event_name"] == ""


@pytest.mark.parametrize("channel", ["orders", "$errors", "$logs"])
def test_subscription_keeps_the_named_channel(api: httpx.Client, emulator: ServerHandle, channel: str) -> None:
    data = subscribe(api, workflow_id(emulator, "Nightly report"), webhook_id(emulator, "Ops intake"), channel)
    assert data["event_name"] == channel


@pytest.mark.parametrize("glob", ["p_*", "dc_*"])
def test_subscription_accepts_a_glob_emitter(api: httpx.Client, emulator: ServerHandle, info: dict, glob: str) -> None:
    data = subscribe(api, glob, webhook_id(emulator, "Ops intake"), org_id=info["org_id"])
    assert data["emitter_id"] == glob


@pytest.mark.parametrize("missing", ["emitter_id", "listener_id"])
def test_subscription_without_a_required_id_is_400_naming_it(
    api: httpx.Client, emulator: ServerHandle, missing: str
) -> None:
    params = {"emitter_id": source_id(emulator, "Stripe payments"), "listener_id": webhook_id(emulator, "Ops intake")}
    del params[missing]
    response = api.post("/subscriptions", params=params)
    assert response.status_code == 400
    assert missing in response.json()["error"]


@pytest.mark.parametrize("unknown", ["emitter_id", "listener_id"])
def test_subscription_with_an_unknown_id_is_404(api: httpx.Client, emulator: ServerHandle, unknown: str) -> None:
    params = {"emitter_id": source_id(emulator, "Stripe payments"), "listener_id": webhook_id(emulator, "Ops intake")}
    params[unknown] = {"emitter_id": "dc_doesNotExist", "listener_id": "wh_doesNotExist"}[unknown]
    assert api.post("/subscriptions", params=params).status_code == 404


# --- deleting and listing ---------------------------------------------------------------------------


def test_deleting_a_subscription_without_event_name_param_is_400_that_says_so(
    api: httpx.Client, emulator: ServerHandle
) -> None:
    emitter, listener = source_id(emulator, "Intercom conversations"), webhook_id(emulator, "Ops intake")
    subscribe(api, emitter, listener)
    response = api.delete("/subscriptions", params={"emitter_id": emitter, "listener_id": listener})
    assert response.status_code == 400
    assert "event_name=" in response.json()["error"]


def test_deleting_an_unnamed_subscription_with_empty_event_name_removes_it(
    api: httpx.Client, emulator: ServerHandle
) -> None:
    emitter, listener = source_id(emulator, "Intercom conversations"), webhook_id(emulator, "Ops intake")
    sub = subscribe(api, emitter, listener)
    response = api.delete("/subscriptions", params={"emitter_id": emitter, "listener_id": listener, "event_name": ""})
    assert response.status_code == 200
    listed, _ = all_pages(api, "/users/me/subscriptions", limit=100)
    assert sub["id"] not in {s["id"] for s in listed}


def test_deleting_a_named_subscription_needs_its_name(api: httpx.Client, emulator: ServerHandle) -> None:
    emitter, listener = source_id(emulator, "Intercom conversations"), webhook_id(emulator, "Ops intake")
    subscribe(api, emitter, listener, "orders")
    assert (
        api.delete(
            "/subscriptions", params={"emitter_id": emitter, "listener_id": listener, "event_name": ""}
        ).status_code
        == 404
    )
    assert (
        api.delete(
            "/subscriptions", params={"emitter_id": emitter, "listener_id": listener, "event_name": "orders"}
        ).status_code
        == 200
    )


def test_user_subscriptions_are_listed_page_by_page(api: httpx.Client, emulator: ServerHandle) -> None:
    sub = subscribe(api, source_id(emulator, "Intercom conversations"), webhook_id(emulator, "Ops intake"))
    listed, total = all_pages(api, "/users/me/subscriptions", limit=3)
    assert len(listed) == total > 3
    assert len({s["id"] for s in listed}) == total
    assert sub in listed
    assert all(set(s) == {"id", "emitter_id", "listener_id", "event_name"} for s in listed)


def test_workspace_subscriptions_are_listed_page_by_page(api: httpx.Client, emulator: ServerHandle, info: dict) -> None:
    sub = subscribe(api, source_id(emulator, "Intercom conversations"), webhook_id(emulator, "Ops intake"))
    listed, total = all_pages(api, f"/orgs/{info['org_id']}/subscriptions", limit=4)
    assert len(listed) == total > 4
    assert sub in listed


def test_subscriptions_of_an_unknown_workspace_are_404(api: httpx.Client) -> None:
    assert api.get("/orgs/o_nothere/subscriptions").status_code == 404


# --- routing events through subscriptions ---------------------------------------------------------


def test_unnamed_subscription_carries_the_default_channel_only(
    api: httpx.Client, root: httpx.Client, emulator: ServerHandle, info: dict, recorder: Recorder
) -> None:
    source = source_id(emulator, "Intercom conversations")
    hook = make_webhook(api, recorder.url, info["org_id"])
    subscribe(api, source, hook)
    other = emit(root, source, {"n": 1}, channel="refunds")
    default = emit(root, source, {"n": 2})
    (got,) = recorder.wait_for(1)
    assert got["body"]["id"] == default
    assert got["headers"]["x-event-name"] == "default"
    assert other not in {d["event_id"] for d in deliveries_to(root, hook)}


def test_named_subscription_carries_its_channel_only(
    api: httpx.Client, root: httpx.Client, emulator: ServerHandle, info: dict, recorder: Recorder
) -> None:
    source = source_id(emulator, "Intercom conversations")
    hook = make_webhook(api, recorder.url, info["org_id"])
    subscribe(api, source, hook, "refunds")
    default = emit(root, source, {"n": 1})
    named = emit(root, source, {"n": 2}, channel="refunds")
    (got,) = recorder.wait_for(1)
    assert got["body"]["id"] == named
    assert got["body"]["metadata"]["name"] == "refunds"
    assert default not in {d["event_id"] for d in deliveries_to(root, hook)}


def test_logs_subscription_carries_a_sources_logs(
    api: httpx.Client, root: httpx.Client, emulator: ServerHandle, info: dict, recorder: Recorder
) -> None:
    source = source_id(emulator, "Intercom conversations")
    hook = make_webhook(api, recorder.url, info["org_id"])
    subscribe(api, source, hook, "$logs")
    logged = emit(root, source, {"message": "hello from the source"}, channel="$logs")
    (got,) = recorder.wait_for(1)
    assert got["body"]["id"] == logged
    assert got["headers"]["x-event-name"] == "$logs"


def test_errors_subscription_carries_a_workflows_errors(
    api: httpx.Client, root: httpx.Client, emulator: ServerHandle, info: dict, recorder: Recorder
) -> None:
    orders = emulator.emulator.demo.order_workflow_id
    hook = make_webhook(api, recorder.url, info["org_id"])
    subscribe(api, orders, hook, "$errors")
    response = root.post(f"/e/{emulator.emulator.demo.order_endpoint_key}", json={"order_id": "ord_1"})
    assert response.status_code == 200
    (got,) = recorder.wait_for(1)
    assert got["headers"]["x-event-name"] == "$errors"
    assert got["headers"]["x-emitter-id"] == orders
    assert got["body"]["event"]["error"]["msg"] == "Missing required field: customer_email"
    assert got["body"]["event"]["original_event"]["body"] == {"order_id": "ord_1"}


def test_source_glob_reaches_every_source_of_the_workspace(
    api: httpx.Client, root: httpx.Client, emulator: ServerHandle, info: dict, recorder: Recorder
) -> None:
    hook = make_webhook(api, recorder.url, info["org_id"])
    subscribe(api, "dc_*", hook, org_id=info["org_id"])
    first, second = source_id(emulator, "Intercom conversations"), source_id(emulator, "Status page callbacks")
    emit(root, first, {"n": 1})
    emit(root, second, {"n": 2})
    got = recorder.wait_for(2)
    assert {g["headers"]["x-emitter-id"] for g in got} == {first, second}


def test_source_glob_does_not_reach_another_workspace(
    api: httpx.Client, root: httpx.Client, emulator: ServerHandle, info: dict, recorder: Recorder
) -> None:
    hook = make_webhook(api, recorder.url, info["org_id"])
    subscribe(api, "dc_*", hook, org_id=info["org_id"])
    elsewhere = source_id(emulator, "Sandbox endpoint")  # in the personal workspace
    assert emulator.emulator.store.sources[elsewhere].org_id != info["org_id"]
    outside = emit(root, elsewhere, {"n": 1})
    inside = emit(root, source_id(emulator, "Status page callbacks"), {"n": 2})
    (got,) = recorder.wait_for(1)
    assert got["body"]["id"] == inside
    assert (elsewhere, outside) not in {(d["emitter_id"], d["event_id"]) for d in deliveries_to(root, hook)}


def test_workflow_glob_reaches_every_workflow_of_the_workspace(
    api: httpx.Client, root: httpx.Client, emulator: ServerHandle, info: dict, recorder: Recorder
) -> None:
    hook = make_webhook(api, recorder.url, info["org_id"])
    subscribe(api, "p_*", hook, org_id=info["org_id"])
    orders = emulator.emulator.demo.order_workflow_id
    relay = workflow_id(emulator, "Acknowledge and relay webhooks")
    order_key = emulator.emulator.demo.order_endpoint_key
    relay_key = next(t.endpoint_key for t in emulator.emulator.store.workflows[relay].triggers if t.kind == "http")
    assert root.post(f"/e/{order_key}", json={"order_id": "ord_9", "customer_email": "a@b.example"}).status_code == 200
    assert root.post(f"/e/{relay_key}", json={"ping": True}).status_code == 200
    got = recorder.wait_for(2)
    assert {g["headers"]["x-emitter-id"] for g in got} == {orders, relay}


def test_a_workflow_listener_runs_with_each_event(
    api: httpx.Client, root: httpx.Client, emulator: ServerHandle
) -> None:
    source = source_id(emulator, "Intercom conversations")
    orders = emulator.emulator.demo.order_workflow_id
    subscribe(api, source, orders)
    events = f"/workflows/{orders}/event_summaries"
    before = api.get(events, params={"limit": 1}).json()["page_info"]["total_count"]
    emit(root, source, {"order_id": "ord_77", "customer_email": "kim@shop.example", "country": "nl"})
    for _ in range(int(WAIT_S / 0.02)):  # the run is started in the background
        body = api.get(events, params={"limit": 1}).json()
        if body["page_info"]["total_count"] > before:
            break
        threading.Event().wait(0.02)
    else:
        pytest.fail(f"the workflow did not run within {WAIT_S}s")
    assert body["data"][0]["event"]["order_id"] == "ord_77"
    assert body["data"][0]["event"]["country"] == "NL"


# --- auto-subscriptions ---------------------------------------------------------------------------


def test_auto_subscription_needs_event_name(api: httpx.Client, emulator: ServerHandle) -> None:
    response = api.post("/auto_subscriptions", params={"listener_id": webhook_id(emulator, "Ops intake")})
    assert response.status_code == 400
    assert "event_name" in response.json()["error"]


def test_auto_subscription_takes_only_errors_or_logs(api: httpx.Client, emulator: ServerHandle) -> None:
    response = api.post(
        "/auto_subscriptions", params={"event_name": "orders", "listener_id": webhook_id(emulator, "Ops intake")}
    )
    assert response.status_code == 400


def test_auto_subscription_needs_listener_id(api: httpx.Client) -> None:
    response = api.post("/auto_subscriptions", params={"event_name": "$errors"})
    assert response.status_code == 400
    assert "listener_id" in response.json()["error"]


def _new_source(api: httpx.Client, org_id: str, name: str) -> str:
    response = api.post("/sources", json={"key": "http-new-requests", "name": name, "org_id": org_id})
    assert response.status_code == 200, response.text
    return response.json()["data"]["id"]


def _new_workflow(api: httpx.Client, org_id: str, name: str) -> str:
    response = api.post("/workflows", json={"org_id": org_id, "template_id": "tch_3Lm9Qa", "settings": {"name": name}})
    assert response.status_code == 200, response.text
    return response.json()["data"]["id"]


def test_auto_subscription_applies_only_to_sources_created_after_it(
    api: httpx.Client, emulator: ServerHandle, info: dict
) -> None:
    hook = webhook_id(emulator, "Ops intake")
    before = _new_source(api, info["org_id"], "made before")
    response = api.post(
        "/auto_subscriptions", params={"event_name": "$logs", "listener_id": hook, "org_id": info["org_id"]}
    )
    assert response.status_code == 200
    after = _new_source(api, info["org_id"], "made after")
    listed, _ = all_pages(api, f"/orgs/{info['org_id']}/subscriptions", limit=100)
    routed = {(s["emitter_id"], s["event_name"]) for s in listed if s["listener_id"] == hook}
    assert (after, "$logs") in routed
    assert not any(emitter == before for emitter, _ in routed)


def test_auto_subscription_applies_only_to_workflows_created_after_it(
    api: httpx.Client, emulator: ServerHandle, info: dict
) -> None:
    hook = webhook_id(emulator, "Ops intake")
    before = _new_workflow(api, info["org_id"], "made before")
    response = api.post(
        "/auto_subscriptions", params={"event_name": "$errors", "listener_id": hook, "org_id": info["org_id"]}
    )
    assert response.status_code == 200
    after = _new_workflow(api, info["org_id"], "made after")
    listed, _ = all_pages(api, f"/orgs/{info['org_id']}/subscriptions", limit=100)
    routed = {(s["emitter_id"], s["event_name"]) for s in listed if s["listener_id"] == hook}
    assert (after, "$errors") in routed
    assert not any(emitter == before for emitter, _ in routed)


# --- webhooks --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com",
        "https://hooks.example.com",
        "https://hooks.example.com:8443",
        "https://hooks.example.com/path/to/hook?x=1",
        "http://127.0.0.1:9000/events",
    ],
)
def test_webhook_url_with_http_or_https_and_a_hostname_is_accepted(api: httpx.Client, url: str) -> None:
    response = api.post("/webhooks", params={"url": url})
    assert response.status_code == 200, response.text
    assert response.json()["data"]["url"] == url


@pytest.mark.parametrize(
    "url",
    [
        "hooks.example.com/events",
        "ftp://files.example.com/drop",
        "http://",
        "https:///path-only",
        "",
        " https://hooks.example.com",
        "http://hooks example.com/x",
        "https://hooks.example.com:99999/x",
    ],
)
def test_webhook_url_without_protocol_or_host_or_with_another_protocol_is_400(api: httpx.Client, url: str) -> None:
    response = api.post("/webhooks", params={"url": url})
    assert response.status_code == 400
    assert "url" in response.json()["error"]


def test_webhook_without_url_is_400(api: httpx.Client) -> None:
    assert api.post("/webhooks", params={"name": "no url"}).status_code == 400


def test_webhook_record_has_name_description_id_and_epoch_second_times(
    api: httpx.Client, root: httpx.Client, info: dict
) -> None:
    response = api.post(
        "/webhooks", params={"url": "https://hooks.example.com/x", "name": "Audit", "description": "for the auditors"}
    )
    data = response.json()["data"]
    now_s = root.get("/_emulator/clock").json()["now_ms"] // 1000
    assert data["id"].startswith("wh_")
    assert data["user_id"].startswith("u_")
    assert (data["name"], data["description"], data["active"]) == ("Audit", "for the auditors", True)
    assert data["created_at"] == data["updated_at"] == now_s
    assert isinstance(data["created_at"], int)


def test_webhook_without_name_or_description_has_nulls(api: httpx.Client) -> None:
    data = api.post("/webhooks", params={"url": "https://hooks.example.com/x"}).json()["data"]
    assert data["name"] is None
    assert data["description"] is None


def test_new_webhook_is_listed_under_users_me(api: httpx.Client) -> None:
    created = api.post("/webhooks", params={"url": "https://hooks.example.com/x", "name": "listed"}).json()["data"]
    listed, total = all_pages(api, "/users/me/webhooks", limit=2)
    assert created in listed
    assert len(listed) == total


def test_deleted_webhook_is_gone_with_its_subscriptions(api: httpx.Client, emulator: ServerHandle, info: dict) -> None:
    hook = make_webhook(api, "https://hooks.example.com/x", info["org_id"])
    subscribe(api, source_id(emulator, "Intercom conversations"), hook)
    assert api.delete(f"/webhooks/{hook}").status_code == 200
    webhooks, _ = all_pages(api, "/users/me/webhooks", limit=100)
    subs, _ = all_pages(api, "/users/me/subscriptions", limit=100)
    assert hook not in {w["id"] for w in webhooks}
    assert hook not in {s["listener_id"] for s in subs}
    assert api.delete(f"/webhooks/{hook}").status_code == 404


# --- webhook delivery ------------------------------------------------------------------------------


def test_webhook_gets_the_event_summary_with_emitter_channel_and_event_id_headers(
    api: httpx.Client, root: httpx.Client, emulator: ServerHandle, info: dict, recorder: Recorder
) -> None:
    source = source_id(emulator, "Status page callbacks")
    hook = make_webhook(api, recorder.url, info["org_id"])
    subscribe(api, source, hook)
    event_id = emit(root, source, {"status": "degraded", "component": "api"})
    (got,) = recorder.wait_for(1)
    summary = api.get(f"/sources/{source}/event_summaries", params={"limit": 1, "expand": "event"}).json()["data"][0]
    assert got["body"] == summary
    assert got["body"]["id"] == event_id
    assert got["body"]["event"] == {"status": "degraded", "component": "api"}
    assert got["headers"]["x-emitter-id"] == source
    assert got["headers"]["x-event-name"] == "default"
    assert got["headers"]["x-event-id"] == event_id
    assert got["headers"]["content-type"].startswith("application/json")


def test_webhook_delivery_is_retried_until_the_receiver_accepts(
    api: httpx.Client, root: httpx.Client, emulator: ServerHandle, info: dict, fast_retries: None
) -> None:
    flaky = Recorder(fail_first=2)
    try:
        source = source_id(emulator, "Status page callbacks")
        hook = make_webhook(api, flaky.url, info["org_id"])
        subscribe(api, source, hook)
        event_id = emit(root, source, {"attempt": "me"})
        (got,) = flaky.wait_for(1)
        assert got["body"]["id"] == event_id
        assert flaky.attempts == 3
        delivery = finished_delivery(root, hook)
        assert delivery["event_id"] == event_id
        assert delivery["delivered"] is True
        assert [a["status"] for a in delivery["attempts"]] == [500, 500, 200]
    finally:
        flaky.close()


def test_webhook_delivery_gives_up_after_the_last_retry(
    api: httpx.Client, root: httpx.Client, emulator: ServerHandle, info: dict, fast_retries: None
) -> None:
    broken = Recorder(fail_first=10**6)
    try:
        source = source_id(emulator, "Status page callbacks")
        hook = make_webhook(api, broken.url, info["org_id"])
        subscribe(api, source, hook)
        emit(root, source, {"doomed": True})
        delivery = finished_delivery(root, hook)
        assert delivery["delivered"] is False
        assert [a["status"] for a in delivery["attempts"]] == [500, 500, 500, 500]
    finally:
        broken.close()


def test_two_webhooks_on_one_emitter_both_get_the_event(
    api: httpx.Client, root: httpx.Client, emulator: ServerHandle, info: dict
) -> None:
    first, second = Recorder(), Recorder()
    try:
        source = source_id(emulator, "Status page callbacks")
        for rec in (first, second):
            subscribe(api, source, make_webhook(api, rec.url, info["org_id"]))
        event_id = emit(root, source, {"fan": "out"})
        assert [g["body"]["id"] for g in first.wait_for(1)] == [event_id]
        assert [g["body"]["id"] for g in second.wait_for(1)] == [event_id]
    finally:
        first.close()
        second.close()


def test_delivery_to_a_url_no_request_can_be_made_to_fails_its_attempts(
    api: httpx.Client, root: httpx.Client, emulator: ServerHandle, info: dict, fast_retries: None
) -> None:
    source = source_id(emulator, "Status page callbacks")
    hook = make_webhook(api, "http://xn--.example/hook", info["org_id"])  # a malformed IDNA host
    subscribe(api, source, hook)
    emit(root, source, {"unreachable": True})
    delivery = finished_delivery(root, hook)
    assert delivery["delivered"] is False
    assert len(delivery["attempts"]) == 4
    assert all("error" in a for a in delivery["attempts"])
