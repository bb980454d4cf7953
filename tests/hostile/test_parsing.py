"""What the service sends, however hostile, parses into models or a clear error: never a crash.

Property-based: the models and the SSE parser take arbitrary JSON and
arbitrary text; `jsontext` takes documents nested far beyond Python's
recursion limit.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from aftui.api import jsontext, models
from aftui.api.sse import SseEvent
from aftui.api.stream import SourceStream, parse_event

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
# Keys the models look at, so the properties reach their validators, not only `extra`.
FIELDS = st.sampled_from(
    [
        "id",
        "name",
        "event",
        "metadata",
        "indexed_at_ms",
        "created_at",
        "updated_at",
        "active",
        "configured_props",
        "configured_props_json",
        "custom_fields_json",
        "emitter_id",
        "listener_id",
        "event_name",
        "url",
        "app",
        "credentials",
        "expires_at",
        "error",
        "original_event",
        "original_context",
        "page_info",
        "data",
        "ts",
        "stack",
    ]
)
RECORDS = st.dictionaries(FIELDS | st.text(max_size=6), JSON, max_size=8)
MODELS = [
    getattr(models, name)
    for name in ("EventSummary", "Source", "Webhook", "Subscription", "Account", "App", "Component", "Workflow", "User")
]


def _depth(value: object) -> int:
    depth, level = 0, [value]
    while level:
        depth += 1
        level = [c for v in level for c in (v.values() if isinstance(v, dict) else v if isinstance(v, list) else ())]
    return depth


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(record=RECORDS, model=st.sampled_from(MODELS))
def test_models_take_any_json_object_or_refuse_it_cleanly(record: dict, model: type) -> None:
    try:
        parsed = model.model_validate(record)
    except ValidationError:
        return
    parsed.model_dump(mode="json")  # and what was accepted can be shown again


@settings(max_examples=300)
@given(data=st.text(max_size=300), ident=st.text(max_size=30), name=st.sampled_from(["message", "", "x"]))
def test_the_sse_parser_takes_any_text(data: str, ident: str, name: str) -> None:
    event = parse_event(SseEvent(event=name, data=data, id=ident), "dc_1")
    assert isinstance(event, models.EventSummary)


@settings(max_examples=200)
@given(payload=JSON, ident=st.text(max_size=20))
def test_the_stream_accepts_any_summary_once(payload: object, ident: str) -> None:
    stream = SourceStream.__new__(SourceStream)
    stream.source_id, stream._last_key, stream.last_event_id = "dc_1", None, None
    text = json.dumps({"id": ident, "event": payload, "metadata": {}})
    first = stream._accept(SseEvent(data=text, id=ident))
    assert first is not None
    assert first.event == payload


def test_json_nested_ten_thousand_deep_is_parsed_and_cut() -> None:
    text = '{"a":' * 10_000 + "1" + "}" * 10_000
    value = jsontext.loads(text)
    assert _depth(value) == jsontext.KEPT_DEPTH + 1  # the containers, then the note in place of the rest
    assert jsontext.CUT_NOTE in json.dumps(value, ensure_ascii=False)


def test_json_nested_beyond_the_parse_bound_is_refused_as_not_json() -> None:
    with pytest.raises(ValueError, match="nested deeper"):
        jsontext.loads("[" * (2 * jsontext.PARSE_DEPTH) + "]" * (2 * jsontext.PARSE_DEPTH))


def test_a_deep_sse_event_arrives_cut_rather_than_ending_the_stream() -> None:
    deep = "[" * 10_000 + "]" * 10_000
    event = parse_event(SseEvent(data='{"id":"1-0","event":' + deep + ',"metadata":{}}', id="1-0"), "dc_1")
    assert event.id == "1-0"
    assert jsontext.CUT_NOTE in json.dumps(event.event, ensure_ascii=False)


@given(value=JSON)
def test_ordinary_json_comes_back_unchanged(value: object) -> None:
    assert jsontext.loads(json.dumps(value)) == value
