"""The SSE stream at {root_url}/sources/{id}/sse: auth, frame format, keepalive,
Last-Event-ID resume and forced drops.

Every read is bounded: the client's read timeout bounds each wait for bytes,
keepalives (0.2 s here) keep bytes coming, and every loop checks a deadline.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import httpx
import pytest
from httpx_sse import connect_sse

READ_TIMEOUT = httpx.Timeout(5.0)
DEADLINE_S = 10.0


@dataclass
class Frame:
    """One thing the stream sent: a comment, or an event with its fields."""

    comment: str | None = None
    id: str | None = None
    event: str | None = None
    data: str | None = None


def frames(response: httpx.Response, deadline: float) -> Iterator[Frame]:
    """Parse the stream by hand, line by line, until it ends or the deadline passes."""
    fields: dict[str, str] = {}
    for line in response.iter_lines():
        if time.monotonic() > deadline:
            raise AssertionError("the SSE stream did not give what was expected in time")
        if line == "":
            if fields:
                yield Frame(id=fields.get("id"), event=fields.get("event"), data=fields.get("data"))
                fields = {}
            continue
        if line.startswith(":"):
            yield Frame(comment=line[1:].strip())
            continue
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        fields[name] = f"{fields[name]}\n{value}" if name == "data" and name in fields else value


@contextmanager
def stream(root: httpx.Client, source_id: str, last_event_id: str | None = None) -> Iterator[httpx.Response]:
    headers = {"Last-Event-ID": last_event_id} if last_event_id else {}
    with root.stream("GET", f"/sources/{source_id}/sse", headers=headers, timeout=READ_TIMEOUT) as response:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        yield response


def events_until(response: httpx.Response, count: int, *, then_keepalive: bool = False) -> list[Frame]:
    """Read `count` events; with `then_keepalive`, also read on to the next keepalive
    and fail if any further event comes before it."""
    deadline = time.monotonic() + DEADLINE_S
    got: list[Frame] = []
    for frame in frames(response, deadline):
        if frame.comment is None:
            got.append(frame)
            assert len(got) <= count, f"more events than the {count} expected: {[f.id for f in got]}"
        elif frame.comment == "keepalive" and len(got) == count and then_keepalive:
            return got
        if len(got) == count and not then_keepalive:
            return got
    raise AssertionError(f"the stream ended after {len(got)} of {count} events")


def deploy(api: httpx.Client) -> str:
    response = api.post("/sources", json={"component_id": "http-new-requests", "name": "sse tests"})
    assert response.status_code == 200, response.text
    return response.json()["data"]["id"]


def inject(root: httpx.Client, source_id: str, count: int, **extra: object) -> None:
    response = root.post(f"/_emulator/sources/{source_id}/inject", json={"count": count, "wait": True, **extra})
    assert response.is_success, response.text


def retained_ids(api: httpx.Client, source_id: str) -> list[str]:
    """The source's event ids, oldest first."""
    data = api.get(f"/sources/{source_id}/event_summaries", params={"limit": 100}).json()["data"]
    return [e["id"] for e in reversed(data)]


@pytest.fixture
def src(api: httpx.Client) -> str:
    return deploy(api)


@pytest.fixture
def fast_keepalive(root: httpx.Client) -> None:
    response = root.post("/_emulator/settings", json={"keepalive_s": 0.2})
    assert response.json()["keepalive_s"] == 0.2


# --- auth ------------------------------------------------------------------------------------


def test_stream_without_auth_is_401(info: dict, src: str) -> None:
    response = httpx.get(f"{info['root_url']}/sources/{src}/sse", timeout=READ_TIMEOUT)
    assert response.status_code == 401
    assert "error" in response.json()


def test_stream_with_a_bad_key_is_401(info: dict, src: str) -> None:
    response = httpx.get(
        f"{info['root_url']}/sources/{src}/sse", headers={"Authorization": "Bearer nope"}, timeout=READ_TIMEOUT
    )
    assert response.status_code == 401


def test_stream_with_an_oauth_token_is_allowed(info: dict, oauth_token: str, fast_keepalive: None) -> None:
    # The OAuth token's workspace is Acme's; the demo's first Acme source will do.
    with httpx.Client(base_url=info["base_url"], headers={"Authorization": f"Bearer {oauth_token}"}) as client:
        source_id = client.get(f"/orgs/{info['org_id']}/sources", params={"limit": 1}).json()["data"][0]["id"]
    headers = {"Authorization": f"Bearer {oauth_token}"}
    with httpx.stream(
        "GET", f"{info['root_url']}/sources/{source_id}/sse", headers=headers, timeout=READ_TIMEOUT
    ) as response:
        assert response.status_code == 200


def test_stream_of_an_unknown_source_is_404(root: httpx.Client) -> None:
    assert root.get("/sources/dc_missing/sse", timeout=READ_TIMEOUT).status_code == 404


def test_bad_last_event_id_is_400(root: httpx.Client, src: str) -> None:
    response = root.get(f"/sources/{src}/sse", headers={"Last-Event-ID": "yesterday"}, timeout=READ_TIMEOUT)
    assert response.status_code == 400


# --- format --------------------------------------------------------------------------------


def test_events_are_unnamed_with_id_and_summary_data(api: httpx.Client, root: httpx.Client, src: str) -> None:
    received = []
    with connect_sse(root, "GET", f"/sources/{src}/sse", timeout=READ_TIMEOUT) as source:
        inject(root, src, 3)
        for sse in source.iter_sse():
            received.append(sse)
            if len(received) == 3:
                break
    expected = list(reversed(api.get(f"/sources/{src}/event_summaries", params={"expand": "event"}).json()["data"]))
    assert [sse.event for sse in received] == ["message"] * 3  # no `event:` line
    assert [sse.id for sse in received] == [e["id"] for e in expected]
    assert [sse.json() for sse in received] == expected


def test_frame_is_one_id_line_and_one_data_line(root: httpx.Client, src: str, fast_keepalive: None) -> None:
    with stream(root, src) as response:
        inject(root, src, 1)
        (frame,) = events_until(response, 1)
    assert frame.event is None
    summary = json.loads(frame.data or "")
    assert set(summary) == {"id", "indexed_at_ms", "event", "metadata"}
    assert summary["id"] == frame.id
    assert (summary["metadata"]["emitter_id"], summary["metadata"]["name"]) == (src, "default")


def test_logs_are_not_streamed(root: httpx.Client, src: str, fast_keepalive: None) -> None:
    with stream(root, src) as response:
        root.post(f"/_emulator/sources/{src}/emit", json={"event": {"log": True}, "channel": "$logs"})
        inject(root, src, 1)
        (frame,) = events_until(response, 1, then_keepalive=True)
    assert json.loads(frame.data or "")["metadata"]["name"] == "default"


def test_named_channels_are_streamed(root: httpx.Client, src: str, fast_keepalive: None) -> None:
    with stream(root, src) as response:
        inject(root, src, 1, channel="alerts")
        (frame,) = events_until(response, 1)
    assert json.loads(frame.data or "")["metadata"]["name"] == "alerts"


def test_keepalive_comment_is_sent_when_idle(root: httpx.Client, src: str, fast_keepalive: None) -> None:
    deadline = time.monotonic() + DEADLINE_S
    comments = []
    with stream(root, src) as response:
        for frame in frames(response, deadline):
            assert frame.comment is not None, "no events were emitted, so only comments may come"
            comments.append(frame.comment)
            if comments.count("keepalive") == 2:
                break
    assert comments[0] == "connected"


# --- resume ----------------------------------------------------------------------------------


def test_last_event_id_resumes_with_exactly_the_retained_events_after_it(
    api: httpx.Client, root: httpx.Client, src: str, fast_keepalive: None
) -> None:
    inject(root, src, 10)
    ids = retained_ids(api, src)
    with stream(root, src, last_event_id=ids[3]) as response:
        got = events_until(response, 6, then_keepalive=True)
    assert [f.id for f in got] == ids[4:]


def test_last_event_id_of_the_newest_event_replays_nothing(
    api: httpx.Client, root: httpx.Client, src: str, fast_keepalive: None
) -> None:
    inject(root, src, 5)
    ids = retained_ids(api, src)
    with stream(root, src, last_event_id=ids[-1]) as response:
        inject(root, src, 1)
        got = events_until(response, 1, then_keepalive=True)
    assert got[0].id == retained_ids(api, src)[-1]


def test_last_event_id_older_than_the_window_replays_all_retained(
    api: httpx.Client, root: httpx.Client, src: str, fast_keepalive: None
) -> None:
    inject(root, src, 120)
    ids = retained_ids(api, src)
    assert len(ids) == 100
    with stream(root, src, last_event_id="1-0") as response:
        got = events_until(response, 100, then_keepalive=True)
    assert [f.id for f in got] == ids


def test_stream_without_last_event_id_sends_only_new_events(
    api: httpx.Client, root: httpx.Client, src: str, fast_keepalive: None
) -> None:
    inject(root, src, 5)
    with stream(root, src) as response:
        inject(root, src, 2)
        got = events_until(response, 2, then_keepalive=True)
    assert [f.id for f in got] == retained_ids(api, src)[-2:]


# --- drops -----------------------------------------------------------------------------------


def test_drop_ends_the_stream(root: httpx.Client, src: str, fast_keepalive: None) -> None:
    deadline = time.monotonic() + DEADLINE_S
    with stream(root, src) as response:
        assert root.post("/_emulator/sse/drop", json={"source_id": src}).json() == {"dropped": 1}
        list(frames(response, deadline))  # returns only when the server ends the stream
    assert root.post("/_emulator/sse/drop", json={"source_id": src}).json() == {"dropped": 0}


def test_drop_of_another_source_leaves_the_stream_open(
    api: httpx.Client, root: httpx.Client, src: str, fast_keepalive: None
) -> None:
    other = deploy(api)
    with stream(root, src) as response:
        assert root.post("/_emulator/sse/drop", json={"source_id": other}).json() == {"dropped": 0}
        inject(root, src, 1)
        assert len(events_until(response, 1)) == 1


def test_resume_after_a_drop_loses_nothing_and_repeats_nothing(
    api: httpx.Client, root: httpx.Client, src: str, fast_keepalive: None
) -> None:
    total = 60
    received: list[str] = []
    deadline = time.monotonic() + DEADLINE_S
    with stream(root, src) as response:
        # Events keep coming (200 a second) while the stream is dropped and resumed.
        scheduled = root.post(f"/_emulator/sources/{src}/inject", json={"count": total, "rate": 200})
        assert scheduled.status_code == 202
        for frame in frames(response, deadline):
            if frame.id is not None:
                received.append(frame.id)
                if len(received) == 10:
                    assert root.post("/_emulator/sse/drop", json={"source_id": src}).json()["dropped"] == 1
        # the loop ends when the server closes the dropped stream
    assert 10 <= len(received) <= total
    with stream(root, src, last_event_id=received[-1]) as response:
        for frame in frames(response, deadline):
            if frame.id is not None:
                received.append(frame.id)
            if len(received) >= total and frame.comment == "keepalive":
                break  # a keepalive after the last event: nothing more is coming
    assert len(received) == total
    assert len(set(received)) == total
    assert received == retained_ids(api, src)
