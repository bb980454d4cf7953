"""Fixtures for the monitor's core: a real emulator, a journal on disk, a monitor on both."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from aftui.api import Client
from aftui.emulator.server import ServerHandle
from aftui.journal import Journal, JournalWriter
from aftui.monitor import Monitor, Record, Tap


def deploy(api: httpx.Client, name: str = "monitor tests") -> str:
    """A fresh HTTP source of the demo user, with no events yet."""
    response = api.post("/sources", json={"component_id": "http-new-requests", "name": name})
    assert response.status_code == 200, response.text
    return response.json()["data"]["id"]


def inject(emulator: ServerHandle, source_id: str, count: int, **extra: Any) -> httpx.Response:
    body = {"count": count, "wait": "rate" not in extra, **extra}
    response = httpx.post(f"{emulator.root_url}/_emulator/sources/{source_id}/inject", json=body, timeout=30)
    assert response.is_success, response.text
    return response


class Taker:
    """Takes a monitor's batches into one list, as the UI would."""

    def __init__(self, monitor: Monitor | Tap) -> None:
        self.monitor = monitor
        self.records: list[Record] = []
        self.states: dict[str, Any] = {}

    def take(self) -> None:
        batch = self.monitor.take()
        self.records += batch.records
        self.states = batch.states

    def until(self, predicate: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            self.take()
            if predicate():
                return
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"timed out waiting for {what}; have {len(self.records)} records, states {self.states}"
                )
            time.sleep(0.02)

    def phase(self, key: str) -> str | None:
        pair = self.states.get(key)
        return pair[1].phase if pair else None

    @property
    def ids(self) -> list[str]:
        return [r.event.id or "" for r in self.records]


@pytest.fixture
def client(info: dict) -> Client:
    # The monitor makes its own twin of this client for its thread; this one is never used in a loop.
    return Client(info["base_url"], api_key=info["api_key"], org_id=info["org_id"])


@pytest.fixture
def journal_path(tmp_path: Path) -> Path:
    return tmp_path / "journal.sqlite3"


@pytest.fixture
def make_monitor(client: Client, journal_path: Path) -> Iterator[Callable[..., tuple[Monitor, JournalWriter]]]:
    """`make_monitor(**options)`: a monitor journaling to `journal_path`; closed (monitor, then writer) at the end."""
    made: list[tuple[Monitor, JournalWriter]] = []

    def make(**options: Any) -> tuple[Monitor, JournalWriter]:
        writer = JournalWriter(Journal(journal_path), interval=0.05)
        monitor = Monitor(client, writer=writer, **{"poll_interval_s": 0.1, **options})
        made.append((monitor, writer))
        return monitor, writer

    yield make
    for monitor, writer in made:
        monitor.close()
        writer.close()
        writer.journal.close()
