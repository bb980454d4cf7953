"""The journal on real SQLite files: dedupe, persistence, FTS search, retention, writer, CLI."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

from aftui.api.models import EventSummary
from aftui.journal import SCHEMA_VERSION, Journal, JournalWriter, fts5_available
from aftui.journal.opening import JournalOpening, OpenedJournal
from aftui.journal.pgstore import PgJournal
from aftui.journal.replays import ReplayLog
from aftui.journal.retention import open_journal

T0 = 1_700_000_000_000


def ev(
    i: int, payload: object = None, *, channel: str | None = None, emitter: str | None = "dc_a", **meta: object
) -> EventSummary:
    metadata = {"emitter_id": emitter, "name": channel, **meta}
    return EventSummary(
        id=f"{T0 + i * 1000}-{i % 3}",
        indexed_at_ms=T0 + i * 1000,
        event={"n": i} if payload is None else payload,
        metadata={k: v for k, v in metadata.items() if v is not None},
    )


@pytest.fixture(params=["fts", "like", "postgresql"])
def journal(request: pytest.FixtureRequest, tmp_path: Path):
    """The journal suite runs on each backend: SQLite with FTS5, SQLite without, a team's PostgreSQL."""
    if request.param == "postgresql":
        with PgJournal(request.getfixturevalue("pg_url")) as pg:
            yield pg
        return
    if request.param == "fts" and not fts5_available():
        pytest.skip("SQLite without FTS5")
    with Journal(tmp_path / "j.sqlite3", fts=request.param == "fts") as j:
        yield j


@pytest.fixture(params=["sqlite", "postgresql"])
def any_journal(request: pytest.FixtureRequest, tmp_path: Path):
    """One journal of each backend, for what does not depend on SQLite's search."""
    if request.param == "postgresql":
        with PgJournal(request.getfixturevalue("pg_url")) as pg:
            yield pg
        return
    with Journal(tmp_path / "j.sqlite3") as j:
        yield j


def test_pragmas_and_schema(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3"):
        pass
    db = sqlite3.connect(tmp_path / "j.sqlite3")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("SELECT version FROM schema_version").fetchall() == [(SCHEMA_VERSION,)]
    columns = [row[1] for row in db.execute("PRAGMA table_info(events)")]
    assert columns == [
        "emitter_id",
        "event_id",
        "ms",
        "seq",
        "channel",
        "indexed_at_ms",
        "payload",
        "metadata",
        "seen_at",
    ]
    db.close()


def test_add_dedupes_across_calls(journal: Journal) -> None:
    assert journal.add([ev(1), ev(2), ev(2)]) == 2
    assert journal.add([ev(2), ev(3)]) == 1
    assert journal.add([]) == 0
    assert journal.count() == 3
    # the same event id from another emitter is another event
    assert journal.add([ev(1)], emitter_id="p_other") == 1
    assert journal.count() == 4 and journal.count("p_other") == 1


def test_batches_of_any_size_store_each_new_row_once_in_a_few_statements(tmp_path: Path) -> None:
    """Rows go in 128 at a time, the rest in halves (64, 32, ... 1), never a statement a row."""
    from aftui.journal import store

    store._insert_of.cache_clear()
    with Journal(tmp_path / "j.sqlite3") as j:
        kept: set[str | None] = set()
        top = 0
        for size in (1, 127, 128, 129, 255, 1000, 1001):
            batch = [ev(i) for i in range(max(0, top - size // 2), top + size - size // 2)]  # half kept already
            assert j.add(batch) == len({e.id for e in batch} - kept), size
            kept |= {e.id for e in batch}
            top += size - size // 2
            assert j.count() == len(kept), size
    assert store._insert_of.cache_info().currsize <= 8


def test_events_without_id_or_emitter_are_skipped(journal: Journal) -> None:
    assert journal.add([EventSummary(event={"x": 1}), ev(1, emitter=None)]) == 0
    assert journal.add([ev(1, emitter=None)], emitter_id="dc_b") == 1


def test_round_trip_and_newest_first(journal: Journal) -> None:
    journal.add([ev(2, {"b": "ü"}, channel="orders"), ev(1), ev(3)])
    got = journal.recent(limit=10)
    assert [e.id for e in got] == [ev(3).id, ev(2).id, ev(1).id]
    middle = got[1]
    assert middle.event == {"b": "ü"} and middle.channel == "orders"
    assert middle.metadata.emitter_id == "dc_a" and middle.indexed_at_ms == T0 + 2000
    assert [e.id for e in journal.recent("dc_a", limit=1)] == [ev(3).id]
    assert journal.recent("nobody") == []


def test_the_health_boards_history_on_every_backend(journal: Journal) -> None:
    """What the Health pane reads at start: errors of the last day, event times, the last event's time."""
    journal.add([ev(1), ev(2, channel="$errors"), ev(3, channel="$logs"), ev(4), ev(5, channel="$errors")])
    journal.add([ev(6, emitter="dc_b")])
    assert [e.id for e in journal.errors_since("dc_a", T0 + 3000)] == [ev(5).id]
    assert [e.id for e in journal.errors_since("dc_a", T0)] == [ev(5).id, ev(2).id]
    assert journal.event_times("dc_a", T0 + 2000) == [(ev(4).id, T0 + 4000)]  # no $errors, no $logs
    assert journal.last_event_ms("dc_a") == T0 + 4000
    assert journal.last_event_ms("nobody") is None


def test_where_a_feed_resumes_and_the_gaps_on_every_backend(any_journal: Journal) -> None:
    """The queries both backends build from one place (journal/queries.py) answer alike."""
    from aftui.journal.store import Gap

    j = any_journal
    j.add([ev(1), ev(2, channel="$errors"), ev(3, channel="$logs"), ev(4, emitter="dc_b")])
    assert j.last_event_id("dc_a") == ev(1).id  # neither $errors nor $logs
    assert j.last_event_id("dc_a", errors=True) == ev(2).id
    assert j.last_event_id("nobody") is None
    a, b = j.add_gaps([Gap("dc_a", "1-0", "5-0", 5, "disk full"), Gap("dc_b", "7-0", "7-0", 1, "disk full")])
    assert [g.emitter_id for g in j.gaps()] == ["dc_a", "dc_b"]
    assert [g.count for g in j.gaps("dc_b")] == [1]
    assert a.id is not None and b.id is not None
    j.settle_gap(a.id, 2)
    j.settle_gap(b.id, 0)
    assert [(g.emitter_id, g.count) for g in j.gaps()] == [("dc_a", 2)]


def test_the_replays_touching_events_on_every_backend(any_journal: Journal) -> None:
    """A replay is found by the event it replayed, by the error it led to, and by its own id; newest first."""
    log = any_journal.replays()
    for replay_id, event_id in [("rp_1", "1-0"), ("rp_2", "2-0"), ("rp_3", "3-0"), ("rp_4", "4-0")]:
        log.started(
            replay_id, emitter_id="dc_a", event_id=event_id, workflow_id="p_wf",
            method="POST", target_url="https://e.test/", edited=replay_id == "rp_2",
        )  # fmt: skip
    log.finished("rp_1", outcome="failed", status_code=500, outcome_emitter_id="dc_a", outcome_event_id="9-0")

    def ids(rows: list) -> list[str]:
        return [row.replay_id for row in rows]

    assert ids(log.touching("dc_a", ["2-0", "2-0"])) == ["rp_2"]
    assert ids(log.touching("dc_a", ["9-0"])) == ["rp_1"]  # it led to 9-0 (it failed again)
    assert ids(log.touching("dc_a", [], ["rp_3"])) == ["rp_3"]
    assert ids(log.touching("dc_a", ["2-0", "9-0"], ["rp_4"])) == ["rp_4", "rp_2", "rp_1"]
    assert log.touching("dc_b", ["2-0"]) == [] and log.touching("dc_a", []) == []
    [edited] = log.of_event("dc_a", "2-0")
    assert edited.edited is True and edited.outcome == "pending"
    assert ids(log.recent(limit=2)) == ["rp_4", "rp_3"]
    log.close()


def test_an_unknown_outcome_is_settled_once_on_every_backend(any_journal: Journal) -> None:
    """A replay sent with its outcome unknown takes the outcome found later, once: a second finding (a teammate's
    aftui looking at the same time) changes nothing, and an outcome already known is never overwritten."""
    log = any_journal.replays()
    tag = uuid.uuid4().hex[:8]  # the team's server is one for the whole run
    for replay_id in (f"rp_u{tag}", f"rp_k{tag}"):
        log.started(
            replay_id, emitter_id="p_wf", event_id=f"{replay_id}-0", workflow_id="p_wf",
            method="POST", target_url="https://e.test/", edited=False,
        )  # fmt: skip
    log.finished(f"rp_u{tag}", outcome="unknown", status_code=200, detail="no look answered")
    log.finished(f"rp_k{tag}", outcome="failed", status_code=200, outcome_emitter_id="p_wf", outcome_event_id="5-0")
    found = {"outcome": "succeeded", "detail": "found later", "outcome_emitter_id": "p_wf", "outcome_event_id": "7-0"}
    assert log.settled(f"rp_u{tag}", **found) is True
    assert log.settled(f"rp_u{tag}", **{**found, "outcome": "failed"}) is False
    assert log.settled(f"rp_k{tag}", **found) is False
    [settled] = log.of_event("p_wf", f"rp_u{tag}-0")
    assert (settled.outcome, settled.outcome_event_id, settled.status_code) == ("succeeded", "7-0", 200)
    [kept] = log.of_event("p_wf", f"rp_k{tag}-0")
    assert (kept.outcome, kept.outcome_event_id) == ("failed", "5-0")
    log.close()


def test_one_replay_of_an_event_at_a_time_whoever_sends_it(any_journal: Journal) -> None:
    """Two aftuis (a cron job, a teammate) replaying the same errors at once: each error is claimed by one of them,
    the other is told by whom and sends nothing. A claim lasts while pending, and at most CLAIM_S."""
    first, second = any_journal.replays(), any_journal.replays()
    first.by, second.by = "dana", "sam"
    tag = uuid.uuid4().hex[:8]  # the team's server is one for the whole run

    def start(log, replay_id: str, event_id: str):
        return log.started(
            replay_id, emitter_id="p_wf", event_id=event_id, workflow_id="p_wf",
            method="POST", target_url="https://e.test/", edited=False,
        )  # fmt: skip

    assert start(first, f"rp_a{tag}", f"1-{tag}") is None
    held = start(second, f"rp_b{tag}", f"1-{tag}")
    assert held is not None and (held.replay_id, held.replayed_by) == (f"rp_a{tag}", "dana")
    assert [r.replay_id for r in first.of_event("p_wf", f"1-{tag}")] == [f"rp_a{tag}"], "nothing recorded for sam"
    first.finished(f"rp_a{tag}", outcome="failed")
    assert start(second, f"rp_c{tag}", f"1-{tag}") is None, "done: it can be replayed again"

    # At the same moment, from two threads: every event claimed exactly once.
    events = [f"{n}-{tag}x" for n in range(60)]
    won: dict[str, list[str]] = {"dana": [], "sam": []}

    def race(log, who: str) -> None:
        for event_id in events:
            if start(log, f"rp_{who}{event_id}", event_id) is None:
                won[who].append(event_id)

    threads = [threading.Thread(target=race, args=(log, who)) for log, who in ((first, "dana"), (second, "sam"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(won["dana"] + won["sam"]) == sorted(events)
    first.close()
    second.close()


def test_a_pending_replay_older_than_the_claim_holds_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An aftui that died before its outcome came leaves a pending row: CLAIM_S later it no longer holds the event."""
    from aftui.journal import replays

    with Journal(tmp_path / "j.sqlite3") as journal, journal.replays() as log:
        clock = [1000.0]
        monkeypatch.setattr(replays.time, "time", lambda: clock[0])
        kwargs = {"emitter_id": "p_wf", "event_id": "1-0", "workflow_id": "p_wf", "method": "POST"}
        assert log.started("rp_1", **kwargs, target_url="https://e.test/", edited=False) is None
        clock[0] += replays.CLAIM_S - 1
        assert log.started("rp_2", **kwargs, target_url="https://e.test/", edited=False) is not None
        clock[0] += 2
        assert log.started("rp_3", **kwargs, target_url="https://e.test/", edited=False) is None


def test_persists_across_reopen(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal(path) as j:
        j.add([ev(i, {"word": f"kiwi{i}"}) for i in range(5)])
    with Journal(path) as j:
        assert j.count() == 5
        assert j.add([ev(4), ev(5)]) == 1
        assert [e.event for e in j.search("kiwi3")] == [{"word": "kiwi3"}]


def test_search_finds_payload_words_only(journal: Journal) -> None:
    journal.add(
        [
            ev(1, {"customer": "Alice Smith", "total": 12}),
            ev(2, {"customer": "Bob"}, emit_id="alicehidden"),
            ev(3, "plain string payload with banana"),
        ]
    )
    assert [e.id for e in journal.search("alice")] == [ev(1).id]  # case-insensitive, metadata not indexed
    assert [e.id for e in journal.search("banana")] == [ev(3).id]
    assert journal.search("alicehidden") == []
    assert journal.search("nothing-like-this") == []
    assert len(journal.search("")) == 3  # empty query: the newest events


def test_search_on_emitter_and_channel_text(journal: Journal) -> None:
    journal.add([ev(1, channel="orders"), ev(2, channel="refunds")], emitter_id="dc_shop")
    assert [e.id for e in journal.search("refunds")] == [ev(2).id]
    assert len(journal.search("dc_shop")) == 2


def test_fts_syntax(any_journal: Journal) -> None:
    with any_journal as j:
        j.add([ev(1, {"t": "red apple"}), ev(2, {"t": "green apple"}), ev(3, {"t": "red pepper"})])
        assert [e.id for e in j.search("red NOT pepper")] == [ev(1).id]
        assert [e.id for e in j.search('"green apple"')] == [ev(2).id]
        assert [e.id for e in j.search("pep*")] == [ev(3).id]
        assert {e.id for e in j.search("green OR pepper")} == {ev(2).id, ev(3).id}
        assert j.stats()["fts"] is True


@pytest.mark.parametrize(
    "query", ['"unbalanced', "AND", "foo(", "payload:", "nosuchcolumn:x", "*", "a + - ^", "NEAR(", "'\"'"]
)
def test_bad_fts_syntax_never_raises(journal: Journal, query: str) -> None:
    journal.add([ev(1, {"t": "foo( bar"})])
    assert isinstance(journal.search(query), list)


def test_search_since_keeps_the_newer_matches_on_each_backend(journal: Journal) -> None:
    """`journal search --since 1h`: a script asked for the last hour's matches and could only cut the newest N."""
    journal.add([ev(1, {"t": "refund"}), ev(2, {"t": "refund"}), ev(3, {"t": "other"}), ev(4, {"t": "refund"})])
    since = T0 + 2 * 1000
    assert [e.id for e in journal.search("refund", since_ms=since)] == [ev(4).id, ev(2).id]
    assert [e.id for e in journal.search("", since_ms=since)] == [ev(4).id, ev(3).id, ev(2).id]
    assert journal.search("refund", since_ms=T0 + 5000) == []


def test_bad_syntax_is_searched_as_a_phrase(journal: Journal) -> None:
    journal.add([ev(1, {"t": "error: foo( bar"}), ev(2, {"t": "bar foo"})])
    assert [e.id for e in journal.search("foo( bar")] == [ev(1).id]


def test_filters(journal: Journal) -> None:
    journal.add([ev(1, {"t": "x"}, channel="a"), ev(2, {"t": "x"}, channel="b")], emitter_id="e1")
    journal.add([ev(3, {"t": "x"}, channel="a")], emitter_id="e2")
    assert [e.id for e in journal.search("x", channel="a")] == [ev(3).id, ev(1).id]
    assert [e.id for e in journal.search("x", emitter_id="e1")] == [ev(2).id, ev(1).id]
    assert [e.id for e in journal.search("x", emitter_id="e1", channel="a")] == [ev(1).id]
    assert len(journal.search("x", limit=1)) == 1
    default_channel = journal.search("x", channel="default")
    assert default_channel == []


def test_prune_by_rows_removes_oldest(journal: Journal) -> None:
    journal.add([ev(i, {"w": f"word{i}"}) for i in range(50)])
    assert journal.prune(max_rows=10) == 40
    assert journal.count() == 10
    assert [e.id for e in journal.recent(limit=100)][-1] == ev(40).id
    assert journal.search("word5") == []  # the index forgot the pruned rows
    assert [e.id for e in journal.search("word45")] == [ev(45).id]
    assert journal.prune(max_rows=10) == 0
    assert journal.prune(max_rows=0) == 10 and journal.count() == 0


def test_prune_by_mb(tmp_path: Path) -> None:
    """SQLite only: a server's disk is its team's to size (PostgreSQL prunes by rows and age)."""
    journal = Journal(tmp_path / "j.sqlite3")
    blob = "lorem ipsum dolor " * 200  # ~3.6 KB a row
    journal.add([ev(i, {"text": blob, "i": i}) for i in range(1000)])
    before = journal.stats()
    assert before["used_bytes"] > 3 * 1024 * 1024
    removed = journal.prune(max_mb=1.0)
    after = journal.stats()
    assert removed > 0 and after["rows"] == 1000 - removed
    assert after["used_bytes"] <= 1024 * 1024
    assert after["rows"] > 100  # oldest first, not everything
    assert after["oldest_ms"] == T0 + removed * 1000  # the newest survive
    assert after["newest_ms"] == T0 + 999 * 1000
    assert journal.prune(max_mb=1.0) == 0
    journal.close()


def test_prune_by_age(journal: Journal) -> None:
    import time

    now_ms = int(time.time() * 1000)
    old = [
        EventSummary(id=f"{now_ms - (10 - i) * 86_400_000}-0", event={"day": i}, metadata={"emitter_id": "dc_a"})
        for i in range(10)
    ]  # one a day, the newest today
    journal.add(old)
    assert journal.prune(max_age_s=3.5 * 86_400) == 7  # older than three and a half days
    assert sorted(e.event["day"] for e in journal.recent(limit=20)) == [7, 8, 9]
    assert journal.prune(max_age_s=3.5 * 86_400) == 0


def test_stats(journal: Journal) -> None:
    empty = journal.stats()
    assert empty["rows"] == 0 and empty["oldest_ms"] is None and empty["emitters"] == {}
    journal.add([ev(1), ev(5)], emitter_id="e1")
    journal.add([ev(3)], emitter_id="e2")
    stats = journal.stats()
    assert stats["rows"] == 3 and stats["bytes"] > 0
    assert stats["oldest_ms"] == T0 + 1000 and stats["newest_ms"] == T0 + 5000
    assert stats["emitters"] == {"e1": 2, "e2": 1}
    assert stats["fts"] is journal.fts
    expected = "tsvector" if isinstance(journal, PgJournal) else "fts5" if journal.fts else "like"
    assert stats["search"].startswith(expected)
    json.dumps(stats)


def test_fts_catches_up_after_a_run_without_it(tmp_path: Path) -> None:
    if not fts5_available():
        pytest.skip("SQLite without FTS5")
    path = tmp_path / "j.sqlite3"
    with Journal(path) as j:
        j.add([ev(1, {"t": "before"})])
    with Journal(path, fts=False) as j:  # as on a Python whose SQLite lacks FTS5
        assert j.add([ev(2, {"t": "during"})]) == 1
        assert [e.id for e in j.search("during")] == [ev(2).id]
    with Journal(path) as j:
        assert [e.id for e in j.search("during")] == [ev(2).id]
        assert [e.id for e in j.search("before")] == [ev(1).id]


def test_a_journal_opening_on_its_thread_is_waited_for_and_a_failure_is_a_problem(tmp_path: Path) -> None:
    may_open = threading.Event()
    began = threading.Event()

    def slow_open() -> OpenedJournal:
        began.set()
        may_open.wait(10)
        return open_journal(tmp_path / "journal.sqlite3")

    opening = JournalOpening(slow_open)
    assert not began.wait(0.1) and not opening.done  # made, not begun: nothing needs the journal yet
    opening.start()
    opening.start()  # again: still the one open
    assert began.wait(5) and not opening.done  # the caller went on while the file is opened
    may_open.set()
    opened = opening.result()
    assert opening.done and opened.writer is not None and opened.problem is None
    assert opening.result() is opened  # asked again: the same, at once
    opened.close()

    def broken_open() -> OpenedJournal:
        raise RuntimeError("a bug of ours")

    failed = JournalOpening(broken_open).result()  # begun by the first who needs it
    assert failed.writer is None and failed.problem == "the journal could not be opened (a bug of ours)"


def test_a_journal_opening_forgone_before_it_began_never_opens(tmp_path: Path) -> None:
    """An exit before anything needed the journal: nothing is opened just to be closed."""
    opened = []
    opening = JournalOpening(lambda: opened.append(1) or open_journal(tmp_path / "journal.sqlite3"))
    assert opening.forgo() and opening.done
    opening.start()
    assert opening.result().writer is None and not opened and not (tmp_path / "journal.sqlite3").exists()
    begun = JournalOpening(lambda: open_journal(tmp_path / "journal.sqlite3"))
    begun.start()
    assert not begun.forgo()  # begun: it is waited for and closed like any other
    begun.result().close()


def test_writer_flushes_on_close(any_journal: Journal) -> None:
    with any_journal as j:
        writer = JournalWriter(j, batch_size=10_000, interval=60)
        writer.add([ev(i) for i in range(5)])
        writer.add([ev(4), ev(5)], emitter_id="dc_a")
        assert writer.pending == 7
        writer.close()
        writer.close()  # twice is fine
        assert j.count() == 6 and writer.written == 6 and writer.pending == 0
        with pytest.raises(RuntimeError):
            writer.add([ev(9)])


def test_writer_flushes_by_size_and_by_time(any_journal: Journal) -> None:
    with any_journal as j:
        with JournalWriter(j, batch_size=10, interval=60) as writer:
            writer.add([ev(i) for i in range(10)])
            _wait(lambda: j.count() == 10)
        with JournalWriter(j, batch_size=10_000, interval=0.05) as writer:
            writer.add([ev(100)])
            _wait(lambda: j.count() == 11)


def test_writer_from_many_threads(any_journal: Journal) -> None:
    with any_journal as j:
        with JournalWriter(j, batch_size=50, interval=0.01) as writer:

            def produce(k: int) -> None:
                for i in range(200):
                    writer.add([ev(k * 1000 + i)])
                    if i % 50 == 0:
                        j.search("n")  # reads while the writer writes

            threads = [threading.Thread(target=produce, args=(k,)) for k in range(4)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        assert j.count() == 800 and writer.last_error is None


def test_writer_with_retention(any_journal: Journal) -> None:
    with any_journal as j:
        with JournalWriter(j, batch_size=10, interval=0.01, max_rows=5, prune_every=0) as writer:
            writer.add([ev(i) for i in range(20)])
        assert j.count() == 5


def _wait(condition, timeout: float = 5.0) -> None:
    import time

    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


# --- the headless commands ---------------------------------------------------------------------------


def aftui(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AFTUI_", "XDG_"))}
    env.update(AFTUI_DATA_DIR=str(data), AFTUI_CONFIG=str(data / "none.toml"), COLUMNS="120")
    return subprocess.run(
        [sys.executable, "-m", "aftui.cli", *args], check=False, env=env, capture_output=True, text=True, timeout=30
    )


@pytest.fixture
def data(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    data.mkdir()
    with Journal(data / "journal.sqlite3") as j:
        j.add(
            [
                ev(1, {"msg": "payment failed"}, channel="billing"),
                ev(2, {"msg": "payment ok"}),
                ev(3, {"msg": "shipped \x1b[31m"}),
            ]
        )
    return data


def test_cli_search_json(data: Path) -> None:
    done = aftui("journal", "search", "payment", "--json", data=data)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["id"] for r in records] == [ev(1).id, ev(2).id]  # oldest first
    assert records[0]["event"] == {"msg": "payment failed"} and records[0]["metadata"]["emitter_id"] == "dc_a"
    one = aftui("journal", "search", "payment", "--json", "-n", "1", data=data)
    assert [json.loads(line)["id"] for line in one.stdout.splitlines()] == [ev(2).id]  # the newest


def test_cli_search_people(data: Path) -> None:
    done = aftui("journal", "search", "shipped", data=data)
    assert done.returncode == 0, done.stderr
    assert "shipped" in done.stdout and "\x1b" not in done.stdout  # escapes made visible
    assert aftui("journal", "search", 'foo("', data=data).returncode == 0
    recent = aftui("journal", "search", "payment", "--json", "--since", "2023-11-14T22:13:22Z", data=data)
    assert [json.loads(line)["id"] for line in recent.stdout.splitlines()] == [ev(2).id], recent.stderr
    assert aftui("journal", "search", "payment", "--since", "soon", data=data).returncode == 2
    none = aftui("journal", "search", "zebra", data=data)
    assert none.returncode == 0 and none.stdout == "" and "no events match" in none.stderr
    assert aftui("journal", "search", "x", "-n", "0", data=data).returncode == 2


def test_cli_stats(data: Path) -> None:
    done = aftui("journal", "stats", "--json", data=data)
    assert done.returncode == 0, done.stderr
    stats = json.loads(done.stdout)
    assert stats["rows"] == 3 and stats["emitters"] == {"dc_a": 3} and stats["fts"] is fts5_available()
    people = aftui("journal", "stats", data=data)
    assert people.returncode == 0 and "events    3" in people.stdout and "dc_a" in people.stdout


def test_cli_stats_read_by_a_reader_that_stops_early_is_no_journal_problem(tmp_path: Path) -> None:
    """`aftui journal stats | head -1` said "aftui: journal: [Errno 32] Broken pipe", and logged it."""
    data = tmp_path / "data"
    with Journal(data / "journal.sqlite3") as journal:  # more lines than a pipe holds: the reader leaves first
        journal.add([ev(i, emitter=f"dc_{i:05}") for i in range(3000)])
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AFTUI_", "XDG_"))}
    env.update(AFTUI_DATA_DIR=str(data), AFTUI_CONFIG=str(data / "none.toml"))
    aftui_cmd = f"{sys.executable} -m aftui.cli journal stats --offline"
    done = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {aftui_cmd} | head -c 1 >/dev/null"],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Broken pipe" not in done.stderr


def test_cli_on_a_fresh_data_dir(tmp_path: Path) -> None:
    done = aftui("journal", "stats", "--json", data=tmp_path / "new")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["rows"] == 0


def test_events_tried_again_still_wait_while_the_retry_runs(tmp_path: Path) -> None:
    """The status says what waits all along a failing spell, retries included: it told "disk full" alone while
    each retry ran."""
    retrying, go_on = threading.Event(), threading.Event()

    class FullOnce(Journal):
        failed = False

        def add(self, events: object, emitter_id: str | None = None) -> int:
            if not self.failed:
                self.failed = True
                raise sqlite3.OperationalError("database or disk is full")
            retrying.set()
            go_on.wait(10)
            return super().add(events, emitter_id)  # type: ignore[arg-type]

    with FullOnce(tmp_path / "journal.sqlite3") as journal:
        writer = JournalWriter(journal, interval=0.05)
        try:
            writer.add([ev(i) for i in range(10)], "dc_full")
            assert retrying.wait(10), "the writer tries again"
            status = writer.status()
            assert status.state == "failing" and status.waiting == 10 and "10 waiting" in status.text()
            go_on.set()
            deadline = time.monotonic() + 10
            while writer.pending or not writer.status().ok:
                assert time.monotonic() < deadline, "the retry stores them"
                time.sleep(0.02)
            assert journal.count() == 10
        finally:
            go_on.set()
            writer.close()


def test_another_process_closing_the_journal_leaves_this_ones_wal_alone(tmp_path: Path) -> None:
    """Opening the replay log (a second connection) dropped the first's locks, and another aftui closing the
    same journal then deleted the `-wal` and `-shm` under it: "disk I/O error", and replays not recorded."""
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as mine, ReplayLog(path):
        mine.add([ev(1)])
        other = "import sys; from aftui.journal import Journal; Journal(sys.argv[1]).close()"
        subprocess.run([sys.executable, "-c", other, str(path)], check=True, timeout=30)
        assert path.with_name(path.name + "-wal").exists()
        mine.add([ev(2)])  # raised sqlite3.OperationalError: disk I/O error
        assert mine.count() == 2
