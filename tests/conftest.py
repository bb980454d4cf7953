"""Shared fixtures: a real emulator on 127.0.0.1, HTTP clients of it, and a private config file."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import pytest

from aftui.config import paths
from aftui.emulator.server import Options, ServerHandle, serve_in_thread

if TYPE_CHECKING:
    from aftui.testing.postgres import PostgresServer

# Every variable that picks or overrides a profile: a test of the config must not see the caller's.
AFTUI_VARIABLES = (
    "AFTUI_PROFILE", "AFTUI_API_KEY", "AFTUI_CLIENT_ID", "AFTUI_CLIENT_SECRET", "AFTUI_BASE_URL",
    "AFTUI_ORG_ID", "AFTUI_PROJECT_ID", "AFTUI_ENVIRONMENT", "AFTUI_READ_ONLY", "AFTUI_LOG_LEVEL",
    "AFTUI_JOURNAL_URL",
)  # fmt: skip


@pytest.fixture
def config_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private, empty place for the config file (returned) and the data dir, and no AFTUI_* variables."""
    for variable in AFTUI_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    path = tmp_path / "config" / "config.toml"
    monkeypatch.setenv("AFTUI_CONFIG", str(path))
    monkeypatch.setenv("AFTUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setattr(paths, "_chosen", [])  # a command on the running demo (`-p demo`) chose the demo's
    return path


MOUNT_WAIT_S = 5.0


@pytest.fixture(autouse=True)
def end_on_a_mounted_screen(monkeypatch: pytest.MonkeyPatch) -> None:
    """A test's app is shut down once the screen on top is mounted, as a person's quit key waits for it.

    Textual goes on mounting a screen closed while it mounts, into nothing: the monitor's and Textual's
    palette's `on_mount` then find none of their widgets, and the error fails the test. A test that ends just
    after it saw a screen opened (a type on the stack, not yet mounted) failed so, now and then."""
    from textual.app import App

    run_test = App.run_test

    @asynccontextmanager
    async def settled(self: App, *args: object, **kwargs: object) -> AsyncIterator[object]:
        async with run_test(self, *args, **kwargs) as pilot:  # type: ignore[arg-type]
            yield pilot
            loop = asyncio.get_running_loop()
            deadline = loop.time() + MOUNT_WAIT_S
            while self.is_running and self.screen_stack and not self.screen.is_mounted and loop.time() < deadline:
                await asyncio.sleep(0.01)

    monkeypatch.setattr(App, "run_test", settled)


def start_emulator(**options: object) -> ServerHandle:
    return serve_in_thread(Options(port=0, **options))  # type: ignore[arg-type]


@pytest.fixture
def emulator() -> Iterator[ServerHandle]:
    """A fresh demo emulator (seed 1, activity off: the clock stands still)."""
    handle = start_emulator()
    yield handle
    handle.stop()


@pytest.fixture
def info(emulator: ServerHandle) -> dict:
    return emulator.emulator.describe()


def _client(base_url: str, token: str | None) -> httpx.Client:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.Client(base_url=base_url, headers=headers, timeout=10)


@pytest.fixture
def api(emulator: ServerHandle, info: dict) -> Iterator[httpx.Client]:
    """The versioned API with the demo user's API key."""
    with _client(emulator.base_url, info["api_key"]) as client:
        yield client


@pytest.fixture
def oauth_token(emulator: ServerHandle, info: dict) -> str:
    response = httpx.post(
        f"{emulator.base_url}/oauth/token",
        json={
            "grant_type": "client_credentials",
            "client_id": info["oauth_client_id"],
            "client_secret": info["oauth_client_secret"],
        },
    )
    response.raise_for_status()
    return response.json()["access_token"]


@pytest.fixture
def oauth(emulator: ServerHandle, oauth_token: str) -> Iterator[httpx.Client]:
    """The versioned API with a workspace OAuth token."""
    with _client(emulator.base_url, oauth_token) as client:
        yield client


@pytest.fixture
def root(emulator: ServerHandle, info: dict) -> Iterator[httpx.Client]:
    """The unversioned root (SSE, HTTP endpoints, /_emulator controls), with the user key."""
    with _client(emulator.root_url, info["api_key"]) as client:
        yield client


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A real PostgreSQL server of this machine's binaries, one per test process (xdist worker), started on
    first use. One that cannot start fails the tests that need it: it is never skipped."""
    from aftui.testing.postgres import PostgresServer

    server = PostgresServer().start()
    yield server
    server.stop()


@pytest.fixture
def pg_url(postgres: PostgresServer) -> str:
    """The URL of a fresh, empty place on the test server (a schema of its own, first on the search path)."""
    return postgres.schema()
