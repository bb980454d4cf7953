"""The emulator serves the hostile data set as a broken upstream would, and the client reads all of it."""

from __future__ import annotations

import json

import httpx

from aftui.api import Client, jsontext
from aftui.emulator import hostile as data
from aftui.emulator.server import ServerHandle


def _client(emulator: ServerHandle, info: dict) -> Client:
    return Client(emulator.base_url, api_key=info["api_key"], org_id=info["org_id"], project_id=info["project_id"])


def test_the_raw_documents_reach_the_wire_as_they_are(api: httpx.Client, hostile: dict) -> None:
    body = api.get(f"/sources/{hostile['source_id']}/event_summaries", params={"expand": "event", "limit": 100}).content
    assert b'"bad \xff\xfe bytes' in body  # not valid UTF-8: sent as a hostile upstream would
    assert b'{"deep":' * 10_000 in body


async def test_the_client_lists_every_hostile_event(emulator: ServerHandle, info: dict, hostile: dict) -> None:
    async with _client(emulator, info) as client:
        summaries = (await client.list_source_events(hostile["source_id"], limit=100)).items
        full = (await client.list_source_events(hostile["source_id"], expand="event", limit=100)).items
    assert len(summaries) == len(full) == len(data.SAMPLES) + 3
    texts = {e.event.get("kind"): e.event.get("text") for e in full if isinstance(e.event, dict)}
    assert texts["markup"] == data.SAMPLES["markup"]  # kept as it is: made safe where shown, not here
    assert texts["big"] == data.BIG_TEXT
    assert "\ufffd" in texts["invalid_utf8"]
    deep = next(e.event for e in full if isinstance(e.event, dict) and "deep" in e.event)
    assert jsontext.CUT_NOTE in json.dumps(deep, ensure_ascii=False)


async def test_the_stream_carries_the_deep_and_broken_events(emulator: ServerHandle, info: dict, hostile: dict) -> None:
    """Resuming from the start replays the retained events over SSE: none of them ends the stream."""
    async with _client(emulator, info) as client:
        stream = client.stream_source(hostile["source_id"], last_event_id="0-0")
        got = []
        async for event in stream:
            got.append(event)
            if len(got) == len(data.SAMPLES) + 3:
                break
    kinds = [e.event.get("kind") if isinstance(e.event, dict) else None for e in got]
    assert "invalid_utf8" in kinds and "big" in kinds and kinds.count(None) == 1  # the deep one has no kind


async def test_hostile_errors_accounts_and_apps_are_readable(emulator: ServerHandle, info: dict, hostile: dict) -> None:
    async with _client(emulator, info) as client:
        errors = (await client.list_workflow_errors(hostile["workflow_id"], limit=100, expand="event")).items
        app = await client.get_app(hostile["app_id"])
        source = await client.get_source(hostile["source_id"])
    assert {e.error().error.msg for e in errors if e.error()} >= set(data.SAMPLES.values())
    assert app.name == data.ALL_IN_ONE
    assert source.name == data.ALL_IN_ONE


def test_bodies_too_deep_are_refused_not_a_500(api: httpx.Client, root: httpx.Client, info: dict) -> None:
    deep = '{"a":' * 50_000 + "1" + "}" * 50_000
    refused = api.post("/webhooks", content=deep, headers={"content-type": "application/json"})
    assert refused.status_code == 400 and "nested" in refused.json()["error"]
    endpoint = root.post(
        f"/e/{info.get('order_endpoint_key') or 'none'}", content=deep, headers={"content-type": "application/json"}
    )
    assert endpoint.status_code < 500
