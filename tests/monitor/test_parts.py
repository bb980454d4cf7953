"""The monitor's pure parts: dedupe, rates, matching, summaries, export, retention settings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aftui.api.models import EventSummary
from aftui.api.rawevent import RawEvent
from aftui.export import export_ndjson
from aftui.journal import Journal
from aftui.journal.retention import Retention, open_writer
from aftui.monitor import Matcher, Record, Target
from aftui.monitor.dedupe import OTHER_IDS, FeedCursor
from aftui.monitor.rate import WINDOW, RateCounter, rate_words

SRC = Target("source", "dc_abc", "Orders inbox")
ERR = Target("errors", "p_xyz", "Validate orders")


def ev(event_id: str | None, payload: object = None, channel: str = "default", **meta: object) -> EventSummary:
    return EventSummary(
        id=event_id, event=payload if payload is not None else {"n": 1}, metadata={"name": channel, **meta}
    )


def rec(n: int, event: EventSummary, target: Target = SRC) -> Record:
    return Record(n, target, event, 1_793_523_600.0)


def test_the_cursor_drops_what_is_at_or_before_the_newest_key() -> None:
    cursor = FeedCursor()
    assert cursor.fresh(ev("100-0")) and cursor.fresh(ev("100-1")) and cursor.fresh(ev("101-0"))
    assert not cursor.fresh(ev("100-1")) and not cursor.fresh(ev("101-0"))
    assert cursor.last_id == "101-0"
    # keys compare as numbers: 99-5 is older than 100-0 though "99-5" > "100-0" as text
    assert not cursor.fresh(ev("99-5"))


def test_the_cursor_lets_a_chunk_through_as_fresh_would_one_by_one() -> None:
    one_by_one, at_once = FeedCursor(), FeedCursor()
    chunks = [["5-1", "5-2", "5-2", "4-9"], ["5-10", "evt_x", "5-3", "evt_x", "6-0"], []]
    for ids in chunks:
        events = [ev(i) for i in ids]
        expected = [e for e in events if one_by_one.fresh(e)]
        assert at_once.fresh_of(events) == expected
    assert [at_once.last_id, at_once.last_key] == ["6-0", (6, 0)]


def test_the_cursor_remembers_other_ids_in_a_bounded_set() -> None:
    cursor = FeedCursor()
    assert cursor.fresh(ev("evt_a")) and not cursor.fresh(ev("evt_a"))
    for i in range(OTHER_IDS):
        cursor.fresh(ev(f"evt_{i}"))
    assert cursor.fresh(ev("evt_a")), "the oldest was forgotten: the set stays bounded"
    assert cursor.fresh(ev(None)) and cursor.fresh(ev(None)), "an event without an id cannot be deduplicated"


def test_rates_count_whole_seconds_and_fill_gaps() -> None:
    now = [100.2]
    rate = RateCounter(lambda: now[0])
    rate.add(3)
    assert rate.last == 0, "the current second is not over"
    now[0] = 101.0
    rate.add()
    now[0] = 103.5
    history = rate.history()
    assert len(history) == WINDOW and history[-3:] == [3, 1, 0]
    now[0] = 1000.0
    assert rate.history() == [0] * WINDOW


def test_plain_text_matches_any_case_and_regexes_need_slashes() -> None:
    event = rec(1, ev("1-0", {"customer": "ACME Corp", "total": 42}))
    assert Matcher.parse("acme").matches(event)
    assert Matcher.parse("Orders inbox").matches(event), "the emitter's name is searched"
    assert Matcher.parse("dc_abc").matches(event) and Matcher.parse("default").matches(event)
    assert not Matcher.parse("a.me").matches(event), "plain text is literal"
    assert Matcher.parse("/a.me/").matches(event)
    assert Matcher.parse('/total":4[0-9]/').matches(event)
    assert Matcher.parse("   ") is None


def test_a_broken_regex_is_matched_as_text_and_says_why() -> None:
    matcher = Matcher.parse("/[oops/")
    assert matcher is not None and matcher.problem and "regex" in matcher.problem
    assert matcher.matches(rec(1, ev("1-0", {"note": "/[oops/"})))
    assert Matcher.parse("ab").spans("xABxab") == [(1, 3), (4, 6)]


def test_summaries_are_one_safe_line() -> None:
    assert rec(1, ev("1-0", "x\x1b[2Jy\u202e")).summary == "x\\e[2Jy\\u202e", (
        "a bare string payload, escapes made visible"
    )
    assert rec(1, ev("1-0", {"a": "x\x1b"})).summary == '{"a":"x\\u001b"}'
    cut = rec(2, ev("1-1", '{"a": "xx', truncated=True, event_size=5000))
    assert cut.summary.startswith("[cut, 5,000 B] ")
    error = {
        "original_event": {},
        "original_context": {"workflow_name": "Validate orders"},
        "error": {"code": "ValidationError", "msg": "Missing required field: customer_email"},
    }
    failed = rec(3, ev("1-2", error, channel="$errors"), ERR)
    assert failed.is_error
    assert failed.summary == "✖ ValidationError: Missing required field: customer_email  [Validate orders]"
    # The error a replay led to (its request carried aftui's replay header) is told from a new failure.
    again = {**error, "original_event": {"headers": {"X-Aftui-Replay": "rp_1"}, "body": {}}}
    assert rec(5, ev("1-3", again, channel="$errors"), ERR).summary == (
        "✖ ↻ replay failed · ValidationError: Missing required field: customer_email  [Validate orders]"
    )
    assert rec(4, ev("1793523600000-0")).clock() == "09:00:00"
    assert rec(4, ev("1793523600000-0")).stamp() == "11-01 09:00:00"  # the detail's: with its day


def test_export_writes_one_json_object_a_line_privately(tmp_path: Path) -> None:
    records = [rec(1, ev("1-0", {"text": "line\nbreak \u202e"})), rec(2, ev("1-1", {"n": 2}), ERR)]
    folder = tmp_path / "exports"
    path, count = export_ndjson((r.as_json() for r in records), folder, "monitor")
    assert path.parent == folder and path.suffix == ".ndjson" and path.name.startswith("monitor-")
    assert count == 2 and path.stat().st_mode & 0o777 == 0o600
    assert folder.stat().st_mode & 0o777 == 0o700, "the folder it made is the owner's alone too"
    lines = path.read_text().splitlines()
    assert len(lines) == 2 and all(line.isascii() for line in lines)
    first, second = (json.loads(line) for line in lines)
    assert first["event"] == {"text": "line\nbreak \u202e"} and first["metadata"]["emitter_id"] == "dc_abc"
    assert second["metadata"]["emitter_id"] == "p_xyz" and second["id"] == "1-1"
    again, _ = export_ndjson([], folder, "monitor")
    assert again != path and path.exists(), "a second export in the same second gets a name of its own"
    assert list(folder.glob(".*.tmp")) == [], "no temporary file is left behind"


@pytest.mark.parametrize(
    ("rows", "mb", "expected"),
    [
        (None, None, Retention()),
        ("5000", "0.5", Retention(5000, 0.5)),
        ("off", "0", Retention(None, None)),
        ("lots", "", Retention()),
        ("1_000", "-1", Retention(1000, None)),
    ],
)
def test_retention_comes_from_the_environment(
    monkeypatch: pytest.MonkeyPatch, rows: str | None, mb: str | None, expected: Retention
) -> None:
    for name, value in (("AFTUI_JOURNAL_MAX_ROWS", rows), ("AFTUI_JOURNAL_MAX_MB", mb)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    assert Retention.from_env() == expected


def test_the_writer_prunes_to_the_cap_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        journal.add([ev(f"{1000 + i}-0", {"i": i}) for i in range(50)], emitter_id="dc_abc")
    writer = open_writer(path, Retention(max_rows=20, max_mb=None))
    assert writer is not None
    try:
        import time

        deadline = time.monotonic() + 5
        while writer.journal.count() > 20 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert writer.journal.count() == 20
        assert [e.id for e in writer.journal.recent(limit=1)] == ["1049-0"], "the oldest went first"
    finally:
        writer.close()
        writer.journal.close()


def test_a_journal_that_cannot_be_opened_gives_no_writer(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert open_writer(blocker / "journal.sqlite3", Retention()) is None


def test_a_streamed_record_is_parsed_only_when_looked_at() -> None:
    data = '{"id":"1700000000000-3","indexed_at_ms":1700000000000,"event":{"n":1},"metadata":{"name":"alerts"}}'
    raw = RawEvent("1700000000000-3", (1700000000000, 3), data, "message", "dc_a")
    record = Record(0, Target("source", "dc_a", "A"), raw, seen=5.0)
    assert (record.id, record.time_ms, record.clock()) == ("1700000000000-3", 1700000000000, "22:13:20")
    cursor = FeedCursor()
    assert cursor.fresh(raw) and not cursor.fresh(raw)
    assert raw._parsed is None  # ordering, dedupe and the clock did not parse it
    assert record.channel == "alerts" and record.event.event == {"n": 1} and record.summary == '{"n":1}'
    assert record.event is record.event


def test_the_rate_shown_reads_right_at_low_rates() -> None:
    clumped = [0, 2, 0, 1, 1, 0, 2, 1, 0, 3] * 6  # one a second on average, in clumps
    assert rate_words(clumped) == "1.0/s"
    assert rate_words([0] * 50 + [1, 0, 0, 0, 0, 1, 0, 0, 0, 0]) == "2/min"
    assert rate_words([0] * WINDOW) == "0/s"
    assert rate_words([0] * WINDOW, watched_s=1) == "…/s"  # just opened: nothing counted is not a quiet stream yet
    assert rate_words([0] * WINDOW, watched_s=3) == "…/s"  # nor is it after a gap between two clumps
    assert rate_words([0] * WINDOW, watched_s=10) == "0/s"
    assert rate_words([1200] * WINDOW) == "1,200/s"
    assert rate_words([0] * 40 + [3] * 20) == "3.0/s"


def test_the_rate_is_of_the_seconds_watched_and_its_unit_does_not_flip_with_every_clump() -> None:
    every_3_s = [1, 0, 0]
    assert rate_words([0] * 51 + every_3_s * 3, watched_s=9) == "20/min"  # not 3/min: 51 seconds nobody saw
    assert rate_words([0] * 51 + every_3_s * 3) == "3/min"  # the same history, watched for the whole minute
    # Half a minute at about 0.7 a second, then a clump: still per minute, as the minute's rate says.
    steady = [1, 0, 1] * 10 + [0] * 20 + [5, 4, 3, 2, 1, 0, 0, 0, 0, 0]
    assert rate_words(steady) == "35/min"
    clock = [100.0]
    rate = RateCounter(lambda: clock[0])
    rate.add(2)
    clock[0] = 104.5
    assert rate.watched_s == 4 and rate.history()[-4:] == [2, 0, 0, 0]


def test_a_workflows_two_feeds_read_apart_in_the_monitors_line_however_long_its_name() -> None:
    from aftui.api import StreamState
    from aftui.tui.screens.monitor_lines import LABEL_LIMIT, streams_text

    name = "Validate and forward orders to the warehouse"
    events, errors = Target("events", "p_orders", name), Target("errors", "p_orders", name)
    other = Target("source", "dc_inbox", "Inbox")
    live = StreamState("live")
    line = streams_text({t.key: (t, live) for t in (events, errors, other)}).plain
    assert "… $errors" in line and "… events" in line
    assert all(len(part.split(" live")[0]) <= LABEL_LIMIT + 2 for part in line.split("  "))
    # One workflow's two feeds alone: its name once, then each by its kind, in the room 80 columns leave (44).
    line = streams_text({t.key: (t, live) for t in (events, errors)}).plain
    assert line == "● Validate and forw…: $errors, events live" and len(line) <= 44
    # Its width known, the name takes the room the feeds' states leave: at 120 columns (84) all of it.
    wide = streams_text({t.key: (t, live) for t in (events, errors)}, 84).plain
    assert wide == f"● {name}: $errors, events live"
    assert len(streams_text({t.key: (t, live) for t in (events, errors)}, 44).plain) == 44
    failing = StreamState("reconnecting", 2, "HTTP 502")
    line = streams_text({events.key: (events, live), errors.key: (errors, failing)}).plain
    assert line.startswith("Validate and forw…: ◌ $errors reconnecting") and line.endswith("● events live")


def test_a_troubled_stream_among_many_comes_first_in_the_monitors_line_with_its_reason() -> None:
    from aftui.api import StreamState
    from aftui.tui.screens.monitor_lines import streams_text

    sources = [Target("source", f"dc_{n:02}", f"Source {n:02}") for n in range(30)]
    states = {t.key: (t, StreamState("live")) for t in sources}
    states[sources[7].key] = (sources[7], StreamState("reconnecting", 3, "HTTP 503"))
    line = streams_text(states).plain
    # First, so that what 80 columns leave the line (about 44 cells) says which stream and why.
    assert line.startswith("◌ Source 07 reconnecting 3 (HTTP 503)  ● 29 feeds live")
    assert line.endswith("● 29 feeds live  ◌ 1 feed reconnecting")  # of what: "● 29 live" did not say


def test_an_http_events_line_shows_its_credential_headers_masked() -> None:
    from aftui.monitor.records import summary_of

    event = EventSummary.model_validate(
        {"id": "1-0", "event": {"method": "POST", "headers": {"cookie": "session=SECRET", "accept": "*/*"}}}
    )
    line = summary_of(event)
    assert "SECRET" not in line and '"cookie":"****"' in line and '"accept":"*/*"' in line
