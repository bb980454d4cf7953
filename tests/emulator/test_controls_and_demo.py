"""The /_emulator controls (faults, clock) and the demo data set: its contents,
its determinism from a seed, and `--scale`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from aftui.emulator.clock import DEMO_EPOCH_MS
from aftui.emulator.server import Options, ServerHandle, serve_in_thread

PROD = {"X-PD-Environment": "production"}
DEV = {"X-PD-Environment": "development"}


def fault(root: httpx.Client, **spec: Any) -> None:
    response = root.post("/_emulator/faults", json=spec)
    assert response.status_code == 200, response.text


def every(
    client: httpx.Client, path: str, headers: dict[str, str] | None = None, key: str | None = None
) -> list[dict[str, Any]]:
    """Every item of a paginated list, 100 a page."""
    items: list[dict[str, Any]] = []
    params: dict[str, Any] = {"limit": 100}
    for _ in range(100):
        body = client.get(path, params=params, headers=headers).json()
        items.extend(body["data"][key] if key else body["data"])
        if not body["page_info"]["end_cursor"]:
            return items
        params["after"] = body["page_info"]["end_cursor"]
    raise AssertionError("pagination did not end")


# --- faults -------------------------------------------------------------------------------------------


def test_fault_fails_the_next_n_requests_then_lets_them_through(api: httpx.Client, root: httpx.Client) -> None:
    fault(root, path="/v1/users/me", count=2, status=503)
    assert [api.get("/users/me").status_code for _ in range(3)] == [503, 503, 200]


def test_fault_applies_only_to_its_path(api: httpx.Client, root: httpx.Client) -> None:
    fault(root, path="/v1/users/me/webhooks", status=500)
    assert api.get("/users/me").status_code == 200
    assert api.get("/users/me/webhooks").status_code == 500


def test_fault_can_be_limited_to_a_method(api: httpx.Client, root: httpx.Client) -> None:
    fault(root, path="/v1/webhooks", method="POST", status=502)
    assert api.post("/webhooks", params={"url": "https://a.example"}).status_code == 502
    assert api.post("/webhooks", params={"url": "https://a.example"}).status_code == 200


def test_fault_with_retry_after_answers_429_throttled_with_the_header(api: httpx.Client, root: httpx.Client) -> None:
    fault(root, path="/v1/users/me", status=429, retry_after=7)
    response = api.get("/users/me")
    assert response.status_code == 429
    assert response.headers["Retry-After"] == "7"
    assert response.json() == {"error": "Throttled"}


def test_fault_with_an_html_body(api: httpx.Client, root: httpx.Client) -> None:
    fault(root, path="/v1/users/me", status=502, body="html")
    response = api.get("/users/me")
    assert response.status_code == 502
    assert response.headers["content-type"].startswith("text/html")
    assert response.text.startswith("<!DOCTYPE html>")


def test_fault_with_a_malformed_json_body(api: httpx.Client, root: httpx.Client) -> None:
    fault(root, path="/v1/users/me", status=200, body="malformed")
    response = api.get("/users/me")
    assert response.status_code == 200
    with pytest.raises(json.JSONDecodeError):
        response.json()


def test_fault_with_an_empty_body(api: httpx.Client, root: httpx.Client) -> None:
    fault(root, path="/v1/users/me", status=500, body="empty")
    response = api.get("/users/me")
    assert response.status_code == 500
    assert response.content == b""


def test_fault_that_drops_the_connection_raises_on_the_client(api: httpx.Client, root: httpx.Client) -> None:
    fault(root, path="/v1/users/me/sources", drop=True)
    with pytest.raises((httpx.RemoteProtocolError, httpx.ReadError)):
        api.get("/users/me/sources")
    assert api.get("/users/me/sources").status_code == 200


def test_fault_with_a_delay_outlasts_a_short_client_timeout(
    emulator: ServerHandle, info: dict, root: httpx.Client
) -> None:
    fault(root, path="/v1/users/me", delay=2)
    headers = {"Authorization": f"Bearer {info['api_key']}"}
    with pytest.raises(httpx.ReadTimeout):
        httpx.get(f"{emulator.base_url}/users/me", headers=headers, timeout=0.2)
    assert httpx.get(f"{emulator.base_url}/users/me", headers=headers, timeout=10).status_code == 200


def test_faults_are_listed_and_cleared(api: httpx.Client, root: httpx.Client) -> None:
    fault(root, path="/v1/users/me", count=5, status=500)
    (listed,) = root.get("/_emulator/faults").json()["faults"]
    assert (listed["path"], listed["count"], listed["status"]) == ("/v1/users/me", 5, 500)
    assert root.delete("/_emulator/faults").status_code == 200
    assert root.get("/_emulator/faults").json()["faults"] == []
    assert api.get("/users/me").status_code == 200


def test_controls_are_never_faulted(root: httpx.Client) -> None:
    fault(root, path="/_emulator", count=3, status=500)
    assert root.get("/_emulator/clock").status_code == 200


@pytest.mark.parametrize(
    "spec",
    [
        {"status": 500},  # no path
        {"path": "v1/users/me", "status": 500},  # not absolute
        {"path": "/v1/users/me"},  # no way to fail
        {"path": "/v1/users/me", "status": 700},
        {"path": "/v1/users/me", "body": "xml"},
    ],
)
def test_a_bad_fault_is_400(root: httpx.Client, spec: dict[str, Any]) -> None:
    assert root.post("/_emulator/faults", json=spec).status_code == 400


# --- the clock ------------------------------------------------------------------------------------------


def test_clock_stands_still_at_the_demo_epoch(root: httpx.Client) -> None:
    first = root.get("/_emulator/clock").json()
    assert first == {"now_ms": DEMO_EPOCH_MS, "running": False}
    assert root.get("/_emulator/clock").json() == first


def test_clock_advances_by_seconds(root: httpx.Client) -> None:
    response = root.post("/_emulator/clock", json={"advance": 90})
    assert response.status_code == 200
    assert response.json()["now_ms"] == DEMO_EPOCH_MS + 90_000
    assert root.get("/_emulator/clock").json()["now_ms"] == DEMO_EPOCH_MS + 90_000


def test_clock_can_be_set(root: httpx.Client) -> None:
    target = DEMO_EPOCH_MS + 3 * 86_400_000
    assert root.post("/_emulator/clock", json={"now_ms": target}).json()["now_ms"] == target


def test_new_resources_take_their_times_from_the_clock(api: httpx.Client, root: httpx.Client) -> None:
    root.post("/_emulator/clock", json={"advance": 3600})
    data = api.post("/webhooks", params={"url": "https://a.example"}).json()["data"]
    assert data["created_at"] == (DEMO_EPOCH_MS + 3_600_000) // 1000


def test_advancing_the_clock_fires_due_timers(api: httpx.Client, root: httpx.Client, emulator: ServerHandle) -> None:
    heartbeat = next(s.id for s in emulator.emulator.store.sources.values() if s.name == "Heartbeat every 5 minutes")
    events = f"/sources/{heartbeat}/event_summaries"
    before = api.get(events, params={"limit": 1}).json()["page_info"]["total_count"]
    fired = root.post("/_emulator/clock", json={"advance": 300}).json()["timers_fired"]
    assert fired >= 1
    assert api.get(events, params={"limit": 1}).json()["page_info"]["total_count"] == before + 1


def test_a_bad_clock_value_is_400(root: httpx.Client) -> None:
    assert root.post("/_emulator/clock", json={"advance": "soon"}).status_code == 400


# --- the demo data set ----------------------------------------------------------------------------------


def test_demo_user_has_two_workspaces(api: httpx.Client) -> None:
    orgs = api.get("/users/me").json()["data"]["orgs"]
    assert len(orgs) == 2
    assert all(o["id"].startswith("o_") for o in orgs)


def test_demo_has_30_apps_of_both_auth_types(api: httpx.Client) -> None:
    apps = every(api, "/apps")
    assert len(apps) >= 30
    assert {a["auth_type"] for a in apps} == {"oauth", "keys"}


def test_demo_has_15_registry_components(api: httpx.Client, emulator: ServerHandle) -> None:
    keys = [c.key for c in emulator.emulator.store.components.values() if c.registry]
    found = [api.get(f"/components/registry/{key}") for key in keys]
    assert sum(r.status_code == 200 for r in found) >= 15
    assert {r.json()["data"]["type"] for r in found} == {"source", "action"}


def test_demo_has_25_sources_of_http_timer_and_app_kinds(api: httpx.Client) -> None:
    sources = every(api, "/users/me/sources")
    assert len(sources) >= 25
    values = [list(s["configured_props"].values()) for s in sources]

    def has(test: Any) -> int:
        return sum(any(isinstance(v, dict) and test(v) for v in props) for props in values)

    assert has(lambda v: "endpoint_url" in v) >= 3
    assert has(lambda v: "interval_seconds" in v and "cron" in v) >= 3
    assert has(lambda v: "authProvisionId" in v) >= 3


def test_demo_has_6_workflows_with_every_trigger_kind(api: httpx.Client, emulator: ServerHandle) -> None:
    ids = list(emulator.emulator.store.workflows)
    assert len(ids) >= 6
    kinds = set()
    for workflow_id in ids:
        response = api.get(f"/workflows/{workflow_id}")
        assert response.status_code == 200
        kinds |= {t["id"].split("_", 1)[0] for t in response.json()["triggers"]}
    assert kinds >= {"hi", "ti", "dc", "ei"}


def test_demo_has_webhooks_wired_by_subscriptions(api: httpx.Client) -> None:
    webhooks = {w["id"] for w in every(api, "/users/me/webhooks")}
    subscriptions = every(api, "/users/me/subscriptions")
    assert len(webhooks) >= 2
    assert len(subscriptions) >= 5
    assert {s["listener_id"] for s in subscriptions} & webhooks
    assert {s["event_name"] for s in subscriptions} >= {"", "$errors", "$logs"}


def test_demo_has_workflow_templates(emulator: ServerHandle) -> None:
    templates = emulator.emulator.store.templates
    assert len(templates) >= 5
    assert all(t.startswith("tch_") and spec["triggers"] and spec["steps"] for t, spec in templates.items())


def test_demo_connect_project_has_40_end_users_in_production_and_some_in_development(
    api: httpx.Client, info: dict
) -> None:
    base = f"/connect/{info['project_id']}"
    prod = every(api, f"{base}/accounts", PROD, key="accounts")
    dev = every(api, f"{base}/accounts", DEV, key="accounts")
    assert len({a["external_id"] for a in prod}) >= 40
    assert dev and len({a["external_id"] for a in dev}) < len({a["external_id"] for a in prod})


def test_demo_has_events_already(api: httpx.Client, emulator: ServerHandle) -> None:
    orders = emulator.emulator.demo.order_workflow_id
    assert api.get(f"/workflows/{orders}/event_summaries").json()["page_info"]["total_count"] > 0
    assert api.get(f"/workflows/{orders}/$errors/event_summaries").json()["page_info"]["total_count"] > 0


# --- determinism and scale ------------------------------------------------------------------------------


@pytest.fixture
def twin(emulator: ServerHandle) -> Iterator[ServerHandle]:
    """A second emulator with the same seed as `emulator`."""
    handle = serve_in_thread(Options(port=0))
    yield handle
    handle.stop()


def _snapshot(handle: ServerHandle) -> dict[str, bytes]:
    """The bodies of a set of GETs that cover every kind of record."""
    em = handle.emulator
    info = em.describe()
    inbox = em.demo.inbox_source_id
    orders = em.demo.order_workflow_id
    account = next(a.id for a in em.store.accounts.values() if a.project_id is None)
    base = f"/connect/{info['project_id']}"
    out: dict[str, bytes] = {}
    with httpx.Client(
        base_url=handle.base_url, headers={"Authorization": f"Bearer {info['api_key']}"}, timeout=10
    ) as api:
        cursor = api.get("/users/me/sources").json()["page_info"]["end_cursor"]
        out["second page of /users/me/sources"] = api.get("/users/me/sources", params={"after": cursor}).content
        paths = [
            "/users/me",
            "/users/me/sources",
            f"/orgs/{info['org_id']}/sources?limit=100",
            "/apps?limit=100",
            "/accounts?limit=100",
            f"/accounts/{account}?include_credentials=true",
            f"/workflows/{orders}",
            f"/workflows/{orders}/event_summaries?limit=100",
            f"/workflows/{orders}/$errors/event_summaries?expand=event",
            f"/sources/{inbox}/event_summaries?limit=100",
            "/users/me/webhooks",
            "/users/me/subscriptions?limit=100",
            f"{base}/accounts?limit=100",
            f"{base}/info",
        ]
        for path in paths:
            response = api.get(path, headers=PROD)
            assert response.status_code == 200, (path, response.text)
            out[path] = response.content
    root = handle.root_url.encode()
    return {path: body.replace(root, b"{root_url}") for path, body in out.items()}


def test_same_seed_gives_byte_identical_responses(emulator: ServerHandle, twin: ServerHandle) -> None:
    """Byte for byte, once each emulator's own address (its port differs) is taken out of URLs."""
    one, two = _snapshot(emulator), _snapshot(twin)
    assert one.keys() == two.keys()
    for path in one:
        assert one[path] == two[path], path


def test_a_different_seed_gives_different_ids(emulator: ServerHandle, info: dict) -> None:
    other = serve_in_thread(Options(port=0, seed=2))
    try:
        other_info = other.emulator.describe()
        with (
            httpx.Client(
                base_url=other.base_url, headers={"Authorization": f"Bearer {other_info['api_key']}"}, timeout=10
            ) as api2,
            httpx.Client(
                base_url=emulator.base_url, headers={"Authorization": f"Bearer {info['api_key']}"}, timeout=10
            ) as api1,
        ):
            me1, me2 = api1.get("/users/me").json()["data"], api2.get("/users/me").json()["data"]
            sources1 = {s["id"] for s in every(api1, "/users/me/sources")}
            sources2 = {s["id"] for s in every(api2, "/users/me/sources")}
        assert me1["id"] != me2["id"]
        assert other_info["api_key"] != info["api_key"]
        assert len(sources1) == len(sources2)
        assert not sources1 & sources2
    finally:
        other.stop()


def test_scale_adds_that_many_sources(api: httpx.Client) -> None:
    base_total = api.get("/users/me/sources", params={"limit": 1}).json()["page_info"]["total_count"]
    scaled = serve_in_thread(Options(port=0, scale=300))
    try:
        key = scaled.emulator.describe()["api_key"]
        with httpx.Client(base_url=scaled.base_url, headers={"Authorization": f"Bearer {key}"}, timeout=10) as big:
            body = big.get("/users/me/sources", params={"limit": 100}).json()
            assert body["page_info"]["total_count"] == base_total + 300
            assert len(every(big, "/users/me/sources")) == base_total + 300
    finally:
        scaled.stop()


def test_scaled_sources_are_timers_that_fire_when_due() -> None:
    scaled = serve_in_thread(Options(port=0, scale=3))
    try:
        key = scaled.emulator.describe()["api_key"]
        with httpx.Client(base_url=scaled.base_url, headers={"Authorization": f"Bearer {key}"}, timeout=10) as api:
            newest = api.get("/users/me/sources", params={"limit": 1}).json()["data"][0]
            assert newest["configured_props"]["timer"]["interval_seconds"] == 3600
            httpx.post(f"{scaled.root_url}/_emulator/clock", json={"advance": 3600}, timeout=10).raise_for_status()
            events = api.get(f"/sources/{newest['id']}/event_summaries").json()
            assert events["page_info"]["total_count"] == 1
    finally:
        scaled.stop()


def test_a_request_cut_short_by_the_shutdown_or_its_client_is_no_traceback_in_the_log() -> None:
    """The demo's log filled with twenty-line tracebacks of requests held by a delay fault: cancelled when the
    demo quit, or left by a client that timed out. Neither is a failure of the emulator."""
    import logging
    import threading

    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    server_log, keep = logging.getLogger("uvicorn.error"), Keep()
    server_log.addHandler(keep)
    handle = serve_in_thread(Options(port=0, seed=1))
    try:
        httpx.post(f"{handle.root_url}/_emulator/faults", json={"path": "/v1/users/me", "delay": 30, "count": 5})
        with pytest.raises(httpx.ReadTimeout):  # its client leaves
            httpx.get(f"{handle.base_url}/users/me", timeout=0.2)
        held = threading.Thread(target=lambda: httpx.get(f"{handle.base_url}/users/me", timeout=30), daemon=True)
        held.start()  # still waiting when the server stops
        threading.Event().wait(0.5)  # room for its request to reach the delay
    finally:
        handle.stop()
        server_log.removeHandler(keep)
    assert not [r for r in records if r.exc_info], [r.getMessage() for r in records]
