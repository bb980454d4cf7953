"""Events over HTTP: ids, the window of 100, truncation, paging, deletion, `$emit`
semantics (channels, ts, dedupe), workflow events and `$errors`, HTTP interfaces
and timers."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable

import httpx
import pytest

from aftui.emulator.server import ServerHandle


def deploy(api: httpx.Client, **body: object) -> dict:
    response = api.post("/sources", json=body)
    assert response.status_code == 200, response.text
    return response.json()["data"]


def source_of_code(api: httpx.Client, *, dedupe: str | None = None) -> str:
    dedupe_line = f'dedupe: "{dedupe}",' if dedupe else ""
    code = f"""export default {{
  name: "Emitter {dedupe or "plain"}",
  version: "0.0.1",
  {dedupe_line}
  props: {{}},
  async run() {{ this.$emit({{}}, {{ id: 1 }}); }},
}};"""
    return deploy(api, component_code=code)["id"]


def inject(root: httpx.Client, source_id: str, count: int, **extra: object) -> None:
    response = root.post(f"/_emulator/sources/{source_id}/inject", json={"count": count, "wait": True, **extra})
    assert response.status_code == 200, response.text


def emit(root: httpx.Client, source_id: str, **call: object) -> list[str]:
    response = root.post(f"/_emulator/sources/{source_id}/emit", json=call)
    assert response.status_code == 200, response.text
    return response.json()["emitted"]


def summaries(api: httpx.Client, source_id: str, **params: object) -> list[dict]:
    response = api.get(f"/sources/{source_id}/event_summaries", params={"limit": 100, **params})
    assert response.status_code == 200, response.text
    return response.json()["data"]


def seqs(events: list[dict]) -> list[int]:
    return [e["event"]["seq"] for e in events]


def key(event_id: str) -> tuple[int, int]:
    ms, seq = event_id.split("-")
    return int(ms), int(seq)


def eventually(check: Callable[[], bool], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.02)
    return check()


@pytest.fixture
def src(api: httpx.Client) -> str:
    """A fresh HTTP source with no events."""
    return deploy(api, component_id="http-new-requests", name="event tests")["id"]


# --- ids and the retained window ------------------------------------------------------------------


def test_event_ids_are_epoch_ms_dash_sequence(api: httpx.Client, root: httpx.Client, src: str) -> None:
    inject(root, src, 3)
    for event in summaries(api, src):
        assert re.fullmatch(r"\d+-\d+", event["id"])
        assert key(event["id"])[0] == event["indexed_at_ms"]


def test_event_ids_order_by_time_newest_first(api: httpx.Client, root: httpx.Client, src: str) -> None:
    inject(root, src, 3)
    root.post("/_emulator/clock", json={"advance": 2})
    inject(root, src, 3)
    events = summaries(api, src)
    keys = [key(e["id"]) for e in events]
    assert keys == sorted(keys, reverse=True)
    assert keys[0][0] - keys[-1][0] == 2000
    assert seqs(events) == [2, 1, 0, 2, 1, 0]


def test_ids_keep_increasing_while_the_clock_stands_still(api: httpx.Client, root: httpx.Client, src: str) -> None:
    inject(root, src, 12)
    keys = [key(e["id"]) for e in summaries(api, src)]
    assert len(set(keys)) == 12
    assert keys == sorted(keys, reverse=True)


def test_only_the_last_100_events_are_kept(api: httpx.Client, root: httpx.Client, src: str) -> None:
    inject(root, src, 150)
    page = api.get(f"/sources/{src}/event_summaries", params={"limit": 100}).json()
    assert page["page_info"]["total_count"] == 100
    assert seqs(page["data"]) == list(range(149, 49, -1))


def test_limit_returns_the_last_n(api: httpx.Client, root: httpx.Client, src: str) -> None:
    inject(root, src, 30)
    assert seqs(summaries(api, src, limit=5)) == [29, 28, 27, 26, 25]


def test_default_page_is_10(api: httpx.Client, root: httpx.Client, src: str) -> None:
    inject(root, src, 30)
    assert len(api.get(f"/sources/{src}/event_summaries").json()["data"]) == 10


@pytest.mark.parametrize("limit", [0, 101, "x"])
def test_limit_out_of_range_is_400(api: httpx.Client, src: str, limit: object) -> None:
    assert api.get(f"/sources/{src}/event_summaries", params={"limit": limit}).status_code == 400


def test_paging_with_after_walks_back_without_overlap(api: httpx.Client, root: httpx.Client, src: str) -> None:
    inject(root, src, 25)
    seen: list[int] = []
    params: dict[str, object] = {"limit": 10}
    pages = 0
    while True:
        page = api.get(f"/sources/{src}/event_summaries", params=params).json()
        seen += seqs(page["data"])
        pages += 1
        if not page["page_info"]["end_cursor"]:
            break
        params["after"] = page["page_info"]["end_cursor"]
        assert pages < 10
    assert pages == 3
    assert seen == list(range(24, -1, -1))


def test_summaries_of_an_unknown_source_are_404(api: httpx.Client) -> None:
    assert api.get("/sources/dc_missing/event_summaries").status_code == 404


# --- truncation -------------------------------------------------------------------------------------


def test_summary_over_1_kb_is_truncated(api: httpx.Client, root: httpx.Client, src: str) -> None:
    inject(root, src, 1, size=2000)
    event = summaries(api, src)[0]
    # The emulator's shape: `event` becomes the first 1024 characters of the JSON text.
    assert isinstance(event["event"], str)
    assert len(event["event"]) == 1024
    assert event["event"].startswith('{"seq":0')
    assert event["metadata"]["truncated"] is True
    assert event["metadata"]["event_size"] > 2000


def test_expand_event_gives_the_full_event(api: httpx.Client, root: httpx.Client, src: str) -> None:
    inject(root, src, 1, size=2000)
    event = summaries(api, src, expand="event")[0]
    assert event["event"] == {"seq": 0, "injected": True, "data": "x" * 2000}
    assert "truncated" not in event["metadata"]


def test_summary_under_1_kb_is_whole(api: httpx.Client, root: httpx.Client, src: str) -> None:
    inject(root, src, 1, size=100)
    event = summaries(api, src)[0]
    assert event["event"] == {"seq": 0, "injected": True, "data": "x" * 100}
    assert "truncated" not in event["metadata"]


# --- deletion ----------------------------------------------------------------------------------------


@pytest.fixture
def ten(api: httpx.Client, root: httpx.Client, src: str) -> list[str]:
    """Ten events in `src`; their ids oldest first."""
    inject(root, src, 10)
    return [e["id"] for e in reversed(summaries(api, src))]


def delete_and_wait(api: httpx.Client, src: str, expect: int, **params: str) -> list[int]:
    response = api.delete(f"/sources/{src}/events", params=params)
    assert response.status_code == 202, response.text
    assert eventually(lambda: len(summaries(api, src)) == expect), summaries(api, src)
    return sorted(seqs(summaries(api, src)))


def test_delete_without_ids_removes_all(api: httpx.Client, src: str, ten: list[str]) -> None:
    assert delete_and_wait(api, src, 0) == []


def test_delete_with_only_start_id_removes_it_and_later(api: httpx.Client, src: str, ten: list[str]) -> None:
    assert delete_and_wait(api, src, 4, start_id=ten[4]) == [0, 1, 2, 3]


def test_delete_with_only_end_id_removes_it_and_earlier(api: httpx.Client, src: str, ten: list[str]) -> None:
    assert delete_and_wait(api, src, 5, end_id=ten[4]) == [5, 6, 7, 8, 9]


def test_delete_with_both_removes_the_inclusive_range(api: httpx.Client, src: str, ten: list[str]) -> None:
    assert delete_and_wait(api, src, 6, start_id=ten[2], end_id=ten[5]) == [0, 1, 6, 7, 8, 9]


def test_delete_with_both_equal_removes_one(api: httpx.Client, src: str, ten: list[str]) -> None:
    assert delete_and_wait(api, src, 9, start_id=ten[3], end_id=ten[3]) == [0, 1, 2, 4, 5, 6, 7, 8, 9]


def test_delete_is_accepted_then_done_asynchronously(
    api: httpx.Client, root: httpx.Client, src: str, ten: list[str]
) -> None:
    root.post("/_emulator/settings", json={"events_delete_delay_s": 1.0})
    response = api.delete(f"/sources/{src}/events")
    assert response.status_code == 202
    assert len(summaries(api, src)) == 10  # still there right after
    assert eventually(lambda: summaries(api, src) == [], timeout=5)


def test_delete_leaves_the_logs(api: httpx.Client, src: str, ten: list[str]) -> None:
    logs_before = summaries(api, src, channel="$logs")
    delete_and_wait(api, src, 0)
    assert summaries(api, src, channel="$logs") == logs_before


@pytest.mark.parametrize(
    "params",
    [
        {"start_id": "abc"},
        {"end_id": "12"},
        {"start_id": "1-x"},
        {"start_id": "1793523600000-5", "end_id": "1793523600000-2"},
    ],
)
def test_delete_with_bad_ids_is_400(api: httpx.Client, src: str, ten: list[str], params: dict[str, str]) -> None:
    assert api.delete(f"/sources/{src}/events", params=params).status_code == 400
    assert len(summaries(api, src)) == 10


def test_delete_events_of_an_unknown_source_is_404(api: httpx.Client) -> None:
    assert api.delete("/sources/dc_missing/events").status_code == 404


# --- $emit semantics ---------------------------------------------------------------------------------


def test_emit_goes_to_the_default_channel(api: httpx.Client, root: httpx.Client) -> None:
    sid = source_of_code(api)
    emit(root, sid, event={"a": 1})
    metadata = summaries(api, sid)[0]["metadata"]
    assert (metadata["name"], metadata["emitter_id"]) == ("default", sid)


def test_emit_to_a_named_channel(api: httpx.Client, root: httpx.Client) -> None:
    sid = source_of_code(api)
    emit(root, sid, event={"a": 1})
    emit(root, sid, event={"b": 2}, channel="alerts")
    alerts = summaries(api, sid, channel="alerts")
    assert [(e["event"], e["metadata"]["name"]) for e in alerts] == [({"b": 2}, "alerts")]
    assert [e["metadata"]["name"] for e in summaries(api, sid, channel="default")] == ["default"]
    assert len(summaries(api, sid)) == 2  # every user channel together


def test_emit_id_is_kept_in_metadata(api: httpx.Client, root: httpx.Client) -> None:
    sid = source_of_code(api)
    emit(root, sid, event={"a": 1}, id="order-7")
    assert summaries(api, sid)[0]["metadata"]["emit_id"] == "order-7"


def test_events_of_one_run_with_ts_are_emitted_oldest_first(api: httpx.Client, root: httpx.Client) -> None:
    sid = source_of_code(api)
    calls = [{"event": {"n": n}, "ts": ts} for n, ts in (("c", 3000), ("a", 1000), ("b", 2000))]
    emitted = emit(root, sid, events=calls)
    assert len(emitted) == 3
    oldest_first = [e["event"]["n"] for e in reversed(summaries(api, sid))]
    assert oldest_first == ["a", "b", "c"]


def test_dedupe_unique_drops_a_repeated_id(api: httpx.Client, root: httpx.Client) -> None:
    sid = source_of_code(api, dedupe="unique")
    assert len(emit(root, sid, event={"n": 1}, id="a")) == 1
    assert emit(root, sid, event={"n": 2}, id="a") == []
    assert len(emit(root, sid, event={"n": 3}, id="b")) == 1
    assert [e["event"]["n"] for e in summaries(api, sid)] == [3, 1]


def test_dedupe_unique_treats_number_and_string_ids_alike(api: httpx.Client, root: httpx.Client) -> None:
    sid = source_of_code(api, dedupe="unique")
    assert len(emit(root, sid, event={"n": 1}, id=5)) == 1
    assert emit(root, sid, event={"n": 2}, id=5) == []
    assert emit(root, sid, event={"n": 3}, id="5") == []


def test_dedupe_unique_drops_repeats_within_one_run(api: httpx.Client, root: httpx.Client) -> None:
    sid = source_of_code(api, dedupe="unique")
    assert len(emit(root, sid, events=[{"event": {}, "id": 1}, {"event": {}, "id": 1}, {"event": {}, "id": 2}])) == 2


def test_dedupe_unique_window_is_100_ids_first_in_first_out(api: httpx.Client, root: httpx.Client) -> None:
    sid = source_of_code(api, dedupe="unique")
    assert len(emit(root, sid, events=[{"event": {"n": i}, "id": i} for i in range(101)])) == 101
    # id 0 was pushed out by id 100; ids 1..100 are the cached 100
    assert len(emit(root, sid, event={"n": "again"}, id=0)) == 1
    assert emit(root, sid, event={"n": "again"}, id=100) == []
    # emitting 0 again pushed out 1, the oldest; 2..100 and 0 remain
    assert len(emit(root, sid, event={"n": "again"}, id=1)) == 1
    assert emit(root, sid, event={"n": "again"}, id=50) == []


def test_dedupe_unique_drops_events_without_id(api: httpx.Client, root: httpx.Client) -> None:
    sid = source_of_code(api, dedupe="unique")
    assert emit(root, sid, event={"n": 1}) == []
    assert summaries(api, sid) == []


def test_dedupe_greatest_emits_only_larger_ids(api: httpx.Client, root: httpx.Client) -> None:
    sid = source_of_code(api, dedupe="greatest")
    kept = [n for n in (5, 3, 7, "7", 6, "10", 9) if emit(root, sid, event={"n": n}, id=n)]
    assert kept == [5, 7, "10"]


def test_dedupe_last_emits_what_follows_the_cached_last_id(api: httpx.Client, root: httpx.Client) -> None:
    sid = source_of_code(api, dedupe="last")

    def run(*ids: str) -> list[str]:
        emitted = emit(root, sid, events=[{"event": {"id": i}, "id": i} for i in ids])
        return [e["event"]["id"] for e in summaries(api, sid) if e["id"] in emitted][::-1]

    assert run("a", "b", "c") == ["a", "b", "c"]
    assert run("b", "c", "d") == ["d"]  # c was the last id seen
    assert run("x", "y") == ["x", "y"]  # d not found: everything


# --- workflow events and $errors ------------------------------------------------------------------------


def order_endpoint(api: httpx.Client, workflow_id: str) -> str:
    workflow = api.get(f"/workflows/{workflow_id}").json()
    return next(t["endpoint_url"] for t in workflow["triggers"] if t["id"].startswith("hi_"))


def test_workflow_event_summaries_list_what_it_emitted(emulator: ServerHandle, api: httpx.Client) -> None:
    wid = emulator.emulator.demo.order_workflow_id
    url = order_endpoint(api, wid)
    order = {"order_id": "ord_t1", "customer_email": "t@shop.example", "country": "de", "currency": "eur"}
    assert httpx.post(url, json=order).status_code == 200
    latest = api.get(f"/workflows/{wid}/event_summaries", params={"limit": 1, "expand": "event"}).json()["data"][0]
    assert latest["event"]["order_id"] == "ord_t1"
    assert latest["event"]["country"] == "DE"  # the transform step ran
    assert latest["metadata"]["emitter_id"] == wid
    assert latest["metadata"]["name"] == "default"


def test_workflow_error_becomes_an_errors_event(emulator: ServerHandle, api: httpx.Client) -> None:
    wid = emulator.emulator.demo.order_workflow_id
    workflow = api.get(f"/workflows/{wid}").json()
    url = order_endpoint(api, wid)
    order = {"order_id": "ord_noemail", "sku": "SKU-1001"}
    httpx.post(url, json=order)
    page = api.get(f"/workflows/{wid}/$errors/event_summaries", params={"limit": 1, "expand": "event"}).json()
    error_event = page["data"][0]
    assert error_event["metadata"]["name"] == "$errors"
    event = error_event["event"]
    assert event["original_event"]["body"] == order
    assert event["original_event"]["method"] == "POST"
    context = event["original_context"]
    for field in (
        "id",
        "ts",
        "workflow_id",
        "deployment_id",
        "source_type",
        "verified",
        "owner_id",
        "platform_version",
    ):
        assert field in context, field
    assert context["workflow_id"] == wid
    assert context["workflow_name"] == workflow["name"]
    assert context["source_type"] == "HTTP"
    error = event["error"]
    assert error["code"] == "ValidationError"
    assert error["cellId"] == workflow["steps"][0]["id"]
    assert "customer_email" in error["stack"]
    assert isinstance(error["ts"], str)


def test_workflow_errors_are_not_in_the_workflow_event_list(emulator: ServerHandle, api: httpx.Client) -> None:
    wid = emulator.emulator.demo.order_workflow_id
    httpx.post(order_endpoint(api, wid), json={"order_id": "ord_noemail2"})
    events = api.get(f"/workflows/{wid}/event_summaries", params={"limit": 100}).json()["data"]
    assert all(e["metadata"]["name"] != "$errors" for e in events)


def test_workflow_event_lists_of_unknown_workflow_are_404(api: httpx.Client) -> None:
    assert api.get("/workflows/p_missing/event_summaries").status_code == 404
    assert api.get("/workflows/p_missing/$errors/event_summaries").status_code == 404


# --- HTTP interfaces -----------------------------------------------------------------------------------------


def endpoint_of(source: dict) -> str:
    return source["configured_props"]["http"]["endpoint_url"]


def test_http_request_is_emitted_as_an_event(api: httpx.Client) -> None:
    source = deploy(api, component_id="http-new-requests")
    body = {"order": 42, "items": ["a"]}
    response = httpx.post(
        endpoint_of(source) + "/hooks/orders", params={"x": "1", "y": "two"}, headers={"X-Test": "yes"}, json=body
    )
    assert response.status_code == 200
    event = summaries(api, source["id"], expand="event")[0]["event"]
    assert event["method"] == "POST"
    assert event["path"] == "/hooks/orders"
    assert event["query"] == {"x": "1", "y": "two"}
    assert event["headers"]["x-test"] == "yes"
    assert event["headers"]["content-type"] == "application/json"
    assert event["body"] == body
    assert json.loads(event["bodyRaw"]) == body


@pytest.mark.parametrize("method", ["GET", "PUT", "PATCH", "DELETE"])
def test_http_endpoint_takes_any_method(api: httpx.Client, method: str) -> None:
    source = deploy(api, component_id="http-new-requests")
    assert httpx.request(method, endpoint_of(source)).status_code == 200
    event = summaries(api, source["id"])[0]["event"]
    assert (event["method"], event["path"], event["body"], event["bodyRaw"]) == (method, "/", None, "")


def test_http_endpoint_without_custom_response_answers_200_at_once(api: httpx.Client) -> None:
    source = deploy(api, component_id="http-new-requests")
    response = httpx.post(endpoint_of(source), content=b"plain text", headers={"Content-Type": "text/plain"})
    assert response.status_code == 200
    assert summaries(api, source["id"])[0]["event"]["body"] == "plain text"


def test_http_custom_response_uses_the_configured_status_and_body(api: httpx.Client) -> None:
    source = deploy(api, component_id="http-custom-response", configured_props={"status": 201, "body": "created"})
    response = httpx.post(endpoint_of(source), json={"a": 1})
    assert (response.status_code, response.text) == (201, "created")
    assert summaries(api, source["id"], expand="event")[0]["event"]["body"] == {"a": 1}


def test_http_custom_response_default_is_the_components_respond(api: httpx.Client) -> None:
    source = deploy(api, component_id="http-custom-response")
    response = httpx.post(endpoint_of(source), json={"a": 1})
    assert response.status_code == 200
    assert response.json() == {"received": True}


def test_inactive_http_source_does_not_process_requests(api: httpx.Client) -> None:
    source = deploy(api, component_id="http-new-requests")
    api.put(f"/sources/{source['id']}", json={"active": False})
    response = httpx.post(endpoint_of(source), json={"a": 1})
    assert not response.is_success
    assert summaries(api, source["id"]) == []


def test_unknown_endpoint_is_404(info: dict) -> None:
    assert httpx.post(f"{info['root_url']}/e/nosuchendpoint", json={}).status_code == 404


# --- timers -------------------------------------------------------------------------------------------


def test_running_a_timer_emits_a_tick(api: httpx.Client, root: httpx.Client) -> None:
    source = deploy(api, component_id="schedule-every-interval", configured_props={"timer": {"intervalSeconds": 60}})
    response = root.post(f"/_emulator/timers/{source['id']}/run")
    assert response.status_code == 200, response.text
    events = summaries(api, source["id"])
    assert [e["id"] for e in events] == response.json()["emitted"]
    now_s = root.get("/_emulator/clock").json()["now_ms"] // 1000
    assert events[0]["event"]["timestamp"] == now_s
    assert events[0]["event"]["interval_seconds"] == 60


def test_advancing_the_clock_fires_due_timers(api: httpx.Client, root: httpx.Client) -> None:
    source = deploy(api, component_id="schedule-every-interval", configured_props={"timer": {"intervalSeconds": 900}})
    root.post("/_emulator/clock", json={"advance": 899})
    assert summaries(api, source["id"]) == []
    root.post("/_emulator/clock", json={"advance": 1})
    events = summaries(api, source["id"])
    assert len(events) == 1
    assert events[0]["event"]["interval_seconds"] == 900


def test_inactive_timer_source_does_not_fire(api: httpx.Client, root: httpx.Client) -> None:
    source = deploy(api, component_id="schedule-every-interval", configured_props={"timer": {"intervalSeconds": 900}})
    api.put(f"/sources/{source['id']}", json={"active": False})
    root.post("/_emulator/clock", json={"advance": 1800})
    assert summaries(api, source["id"]) == []


def test_running_an_unknown_timer_is_404(root: httpx.Client) -> None:
    assert root.post("/_emulator/timers/dc_missing/run").status_code == 404
