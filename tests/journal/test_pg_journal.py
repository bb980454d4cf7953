"""The team journal on a real PostgreSQL (started by the suite): many writers, one history; schema; the opener."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import psycopg
import pytest

from aftui.api.models import EventSummary
from aftui.journal.opening import JournalConfig
from aftui.journal.pgschema import PG_SCHEMA_VERSION, PRUNE_LOCK, SchemaTooNew
from aftui.journal.pgstore import PgJournal
from aftui.journal.retention import Retention, open_journal
from aftui.masking import url_masked as masked

T0 = 1_700_000_000_000

# A writer process: the same events as its twin, through a JournalWriter, as two monitors would.
WRITER = """
import sys
from aftui.api.models import EventSummary
from aftui.journal.pgstore import PgJournal
from aftui.journal.writer import JournalWriter

url, n = sys.argv[1], int(sys.argv[2])
with PgJournal(url) as journal:
    writer = JournalWriter(journal, batch_size=500, interval=0.01)
    for start in range(0, n, 250):
        writer.add(
            [EventSummary(id=f"{1_700_000_000_000 + i}-0", event={"n": i, "w": f"word{i}"}, metadata={"emitter_id": "dc_a"})
             for i in range(start, min(n, start + 250))]
        )
    writer.close()
    print(writer.written, writer.last_error)
"""


def ev(i: int, word: str = "parcel") -> EventSummary:
    return EventSummary(id=f"{T0 + i}-0", event={"note": f"{word} {i}"}, metadata={"emitter_id": "dc_a"})


def test_two_processes_writing_the_same_events_store_each_once(pg_url: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")}
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, pg_url, "5000"], stdout=subprocess.PIPE, text=True, env=env)
        for _ in range(2)
    ]
    outs = [proc.communicate(timeout=120)[0].split() for proc in procs]
    assert all(proc.returncode == 0 for proc in procs)
    assert all(out[1] == "None" for out in outs)  # no write failed
    assert sum(int(out[0]) for out in outs) == 5000  # between them, each event was new once
    with PgJournal(pg_url) as journal:
        assert journal.count() == 5000
        assert [e.id for e in journal.search("word4321")] == [f"{T0 + 4321}-0"]


def test_everyones_events_are_seen_by_everyone(pg_url: str) -> None:
    with PgJournal(pg_url) as alice, PgJournal(pg_url) as bob:
        alice.add([ev(1, "kiwi")])
        bob.add([ev(1, "kiwi"), ev(2, "mango")])
        assert alice.count() == bob.count() == 2
        assert [e.id for e in alice.search("mango")] == [ev(2).id]
        assert alice.last_event_id("dc_a") == ev(2).id


def test_the_schema_is_made_once_with_its_version(pg_url: str) -> None:
    opened: list[PgJournal] = []
    threads = [threading.Thread(target=lambda: opened.append(PgJournal(pg_url))) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(opened) == 4  # four aftuis starting at once: none failed on the others' tables
    for journal in opened:
        journal.close()
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT version FROM aftui_schema_version").fetchall() == [(PG_SCHEMA_VERSION,)]
        index = conn.execute("SELECT indexdef FROM pg_indexes WHERE indexname = 'aftui_events_search'").fetchone()
    assert index is not None and "gin" in index[0].lower()


def test_a_schema_of_a_newer_aftui_is_refused_and_left_alone(pg_url: str) -> None:
    PgJournal(pg_url).close()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE aftui_schema_version SET version = 99")
    with pytest.raises(SchemaTooNew, match="newer than this aftui knows"):
        PgJournal(pg_url)
    opened = open_journal(config=JournalConfig(url=pg_url))
    assert opened.writer is None and opened.problem is not None and "99" in opened.problem
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT version FROM aftui_schema_version").fetchall() == [(99,)]


def test_events_persist_across_reopen(pg_url: str) -> None:
    with PgJournal(pg_url) as journal:
        journal.add([ev(i, "kiwi") for i in range(5)])
    with PgJournal(pg_url) as journal:
        assert journal.count() == 5 and journal.add([ev(4), ev(5)]) == 1


def test_hostile_text_is_stored_and_read_back(pg_url: str) -> None:
    nasty = {
        "quote": "'; DROP TABLE aftui_events; --", "nul": "a\x00b", "esc": "\x1b[31m", "lone": "x\ud800y",
        "huge": "x" * 2_000_000,
    }  # fmt: skip
    with PgJournal(pg_url) as journal:
        assert journal.add([EventSummary(id=f"{T0}-0", event=nasty, metadata={"emitter_id": "dc_a"})]) == 1
        assert journal.add([EventSummary(id=f"{T0}-\x00\ud800", event={}, metadata={"emitter_id": "dc_\x00"})]) == 1
        [back] = journal.recent("dc_a")
        assert back.event["esc"] == "\x1b[31m" and back.event["quote"] == nasty["quote"]
        assert back.event["nul"] == "a\x00b" and len(back.event["huge"]) == 2_000_000
        # past a tsvector's 1 MB: the first 200 KB are searched, the rest is kept
        assert journal.search("DROP TABLE") and journal.count() == 2


def test_prune_is_left_to_the_one_that_holds_the_lock(pg_url: str) -> None:
    with PgJournal(pg_url) as journal:
        journal.add([ev(i) for i in range(20)])
        with psycopg.connect(pg_url, autocommit=True) as other:
            other.execute("SELECT pg_advisory_lock(%s)", (PRUNE_LOCK,))  # another aftui is pruning
            assert journal.prune(max_rows=5) == 0 and journal.count() == 20
            other.execute("SELECT pg_advisory_unlock(%s)", (PRUNE_LOCK,))
        assert journal.prune(max_rows=5) == 15 and journal.count() == 5


def test_the_opener_takes_the_url_from_the_environment_before_the_profile(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AFTUI_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("AFTUI_JOURNAL_URL", pg_url)
    opened = open_journal(config=JournalConfig(url="postgresql://nobody@127.0.0.1:1/none"))
    try:
        assert opened.writer is not None and isinstance(opened.writer.journal, PgJournal)
        opened.writer.add([ev(1)])
        opened.writer.flush()
    finally:
        opened.close()
    assert not (tmp_path / "journal.sqlite3").exists()  # nothing went to the local file
    with PgJournal(pg_url) as journal:
        assert journal.count() == 1


def test_a_server_that_cannot_be_reached_is_said_and_costs_only_the_journal(caplog: pytest.LogCaptureFixture) -> None:
    url = "postgresql://team:s3cret@127.0.0.1:1/journal?connect_timeout=1"
    with caplog.at_level(logging.WARNING):
        started = time.monotonic()
        opened = open_journal(config=JournalConfig(url=url))
    assert opened.writer is None and opened.problem is not None
    assert "127.0.0.1" in opened.problem and "s3cret" not in opened.problem and "s3cret" not in caplog.text
    assert time.monotonic() - started < 15
    assert masked(url) == "postgresql://team:****@127.0.0.1:1/journal?connect_timeout=1"


def test_team_retention_comes_from_the_profile_and_the_environment_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("AFTUI_JOURNAL_MAX_ROWS", "AFTUI_JOURNAL_MAX_DAYS", "AFTUI_JOURNAL_MAX_MB"):
        monkeypatch.delenv(variable, raising=False)
    team = JournalConfig(url=None, max_rows=5000, max_days=14)
    assert Retention.from_env(team).max_rows == 5000 and Retention.from_env(team).max_age_s == 14 * 86_400
    assert Retention.from_env().max_age_s is None  # no age cap unless one is asked for
    monkeypatch.setenv("AFTUI_JOURNAL_MAX_DAYS", "2")
    assert Retention.from_env(team).max_age_s == 2 * 86_400


def test_the_writer_applies_the_team_retention_on_the_server(pg_url: str) -> None:
    from aftui.journal.writer import JournalWriter

    now_ms = int(time.time() * 1000)
    with PgJournal(pg_url) as journal:
        writer = JournalWriter(journal, batch_size=10, interval=0.01, max_age_s=86_400, prune_every=0)
        writer.add([EventSummary(id=f"{now_ms - 3 * 86_400_000}-0", event={}, metadata={"emitter_id": "dc_a"}), ev(0)])
        writer.add([EventSummary(id=f"{now_ms}-0", event={}, metadata={"emitter_id": "dc_a"})])
        writer.close()
        assert [e.id for e in journal.recent()] == [f"{now_ms}-0"]


def test_a_server_lost_and_back_is_ridden_out_as_a_full_disk_is(postgres, pg_url: str) -> None:
    from aftui.journal.writer import JournalWriter

    with PgJournal(pg_url) as journal:
        writer = JournalWriter(journal, batch_size=10, interval=0.05)
        writer.add([ev(0)])
        writer.flush()
        postgres.stop_server()
        try:
            writer.add([ev(i) for i in range(1, 50)])
            deadline = time.monotonic() + 30
            while writer.status().state != "failing":
                assert time.monotonic() < deadline, "the lost server was never said"
                time.sleep(0.05)
            assert writer.status().waiting == 49
        finally:
            postgres.start_server()
        deadline = time.monotonic() + 60
        while writer.status().state != "ok" or writer.pending:
            assert time.monotonic() < deadline, f"never wrote again: {writer.status()}"
            time.sleep(0.1)
        writer.close()
        assert journal.count() == 50


def test_a_tui_session_on_a_profile_journals_to_its_team_journal(
    pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from aftui.api import Client
    from aftui.config.profiles import Profile
    from aftui.tui.session import open_session

    monkeypatch.setenv("AFTUI_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("AFTUI_JOURNAL_URL", raising=False)
    profile = Profile(name="oncall", api_key="pd_0123456789abcdef", journal=pg_url)
    session = open_session(
        Client("http://127.0.0.1:1/v1", api_key="k"), "oncall", journal=JournalConfig.of_profile(profile)
    )
    try:
        assert session.journal is not None and isinstance(session.journal.journal, PgJournal)
        session.journal_events([ev(7, "teamwide")], "dc_a")
        session.journal.flush()
    finally:
        session.close_journal()
    with PgJournal(pg_url) as journal:
        assert [e.id for e in journal.search("teamwide")] == [ev(7).id]
    assert not (tmp_path / "journal.sqlite3").exists()
