"""A streamed event journaled from its text (RawEvent) is stored as the parsed event would be."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aftui.api.models import EventSummary
from aftui.api.rawevent import RawEvent
from aftui.api.sse import SseEvent
from aftui.api.stream import SourceStream
from aftui.journal import Journal
from aftui.journal.rows import Row, rows_of, summary_of_row

SUMMARY = '{"id":"9-9","indexed_at_ms":9,"event":{"seq":7,"text":"été \\u00e9"},"metadata":{"emitter_id":"dc_x","emit_id":"e1","name":"alerts"}}'
SHAPES = [
    SUMMARY,
    '{"id":"9-9","event":{"a":1}}',  # no metadata
    '{"id":"9-9","event":null,"metadata":{"name":"","extra":[1,2],"truncated":true,"event_size":2048}}',
    '{"id":"9-9","event":1,"metadata":"not an object"}',  # summary-shaped, but a bare payload
    '{"id": "9-9", "event": { "a" : [1, 2] }, "metadata": {"name": null, "emit_id": null}}',  # spaces, nulls
    '{"id":"9-9","event":1,"metadata":null}',
    '{"id":"9-9","event":1,"metadata":{"name":5}}',  # a field of the wrong type: the model decides
    '{"id":"9-9","event":1,"indexed_at_ms":"12"}',  # a number as text: the model converts it
    '{"id":"9-9","event":1,"indexed_at_ms":123456789012345678901234567890}',  # beyond SQLite's integers
    '{"id":"8-8","event":1}',  # an id other than the stream's
    '{"event":{"a":1},"event":{"a":2},"id":"9-9"}',  # a repeated key: the last one wins
    '{"id":"9-9","event":1e400}',
    '{"id":"9-9","event":"\\ud800"}',  # a lone surrogate
    '{"id":"9-9","event":' + "[" * 300 + "]" * 300 + "}",  # deeper than pydantic-core parses
    '{"a": 1}',  # a bare payload object
    '{"broken": ',
]


def without_nulls(value: object) -> object:
    return {k: v for k, v in value.items() if v is not None} if isinstance(value, dict) else value


def row_of(event: EventSummary | RawEvent, emitter_id: str | None) -> Row | None:
    """The row the writer makes of `event` alone; None when it makes none."""
    rows = rows_of((event,), emitter_id, 1.0)
    return rows[0] if rows else None


def raw_of(data: str) -> RawEvent:
    event = SourceStream(None, "dc_x", raw=True)._accept_all_raw([SseEvent(data=data, id="9-9")])[0]  # type: ignore[arg-type]
    assert isinstance(event, RawEvent)
    return event


@pytest.mark.parametrize("data", SHAPES)
def test_a_raw_event_makes_the_row_its_parsed_event_makes(data: str) -> None:
    raw = raw_of(data)
    from_text = row_of(raw, None)
    from_model = row_of(raw.parse(), "dc_x")
    if from_model is None:
        assert from_text is None
        return
    assert from_text is not None
    assert from_text[:6] == from_model[:6] and from_text[8] == from_model[8]  # ids, key, channel, index time, seen
    for text, model in zip(from_text[6:8], from_model[6:8], strict=False):  # payload and metadata: the same JSON
        assert (
            text == model
            or without_nulls(json.loads(text)) == json.loads(model)
            or text.replace("1e400", "Infinity") == model
        )
    assert summary_of_row(from_text[1], from_text[5], from_text[6], from_text[7], "dc_x").model_dump() == (
        summary_of_row(from_model[1], from_model[5], from_model[6], from_model[7], "dc_x").model_dump()
    )


def test_raw_and_parsed_events_share_one_journal_without_repeats(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as journal:
        raw = raw_of(SUMMARY)
        assert journal.add([raw]) == 1
        assert journal.add([raw.parse()], "dc_x") == 0  # the same event, parsed: stored once
        (stored,) = journal.search("été")
        assert (
            stored.event == {"seq": 7, "text": "été é"}
            and stored.channel == "alerts"
            and stored.metadata.emit_id == "e1"
        )


def test_a_row_with_bad_json_reads_back_instead_of_raising() -> None:
    event = summary_of_row("1-1", None, "[" * 5000 + "]" * 5000, '{"truncated": "perhaps"}', "dc_x")
    assert event.metadata.emitter_id == "dc_x"
    assert isinstance(event.event, list)
