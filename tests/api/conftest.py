"""Fixtures of the client tests: `aftui.api.Client` against a real emulator over HTTP.

Every client here retries fast (`base_delay=0.01`) and gives up on a slow
answer within seconds, so that a test of retries or timeouts stays short.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from aftui.api import Client, RetryPolicy, Timeouts
from aftui.emulator.server import ServerHandle

FAST_RETRY = RetryPolicy(attempts=4, base_delay=0.01, max_delay=0.05, max_retry_after=5)
FAST_TIMEOUTS = Timeouts(connect=2, read=5, total=5)

MakeClient = Callable[..., Client]


@pytest.fixture
async def make_client(info: dict) -> AsyncIterator[MakeClient]:
    """A factory of clients of the fresh emulator, all closed at the end of the test.

    Defaults: the demo user's API key, the Acme workspace (`info["org_id"]`),
    the Connect project, fast retries and short timeouts. `make_client(oauth=True)`
    uses the demo OAuth client instead of the key.
    """
    clients: list[Client] = []

    def make(*, oauth: bool = False, **options: Any) -> Client:
        settings: dict[str, Any] = {
            "org_id": info["org_id"],
            "project_id": info["project_id"],
            "timeouts": FAST_TIMEOUTS,
            "retry": FAST_RETRY,
        }
        if oauth:
            settings.update(client_id=info["oauth_client_id"], client_secret=info["oauth_client_secret"])
        else:
            settings["api_key"] = info["api_key"]
        settings.update(options)
        client = Client(info["base_url"], **settings)
        clients.append(client)
        return client

    yield make
    for client in clients:
        await client.aclose()


@pytest.fixture
def client(make_client: MakeClient) -> Client:
    """The demo user's API key, Acme workspace."""
    return make_client()


@pytest.fixture
def oauth_client(make_client: MakeClient) -> Client:
    """The demo workspace OAuth client (client credentials)."""
    return make_client(oauth=True)


@pytest.fixture
def readonly_client(make_client: MakeClient) -> Client:
    return make_client(read_only=True)


@pytest.fixture
def api_prefix(info: dict) -> str:
    """The path of the versioned API ("/v1"): faults take full paths."""
    return urlsplit(info["base_url"]).path.rstrip("/")


# --- counting what goes on the wire ---------------------------------------------------------------


class Recorder(httpx.AsyncBaseTransport):
    """A real HTTP transport that notes every request it sends: `make_client(transport=recorder)`."""

    def __init__(self) -> None:
        self._inner = httpx.AsyncHTTPTransport()
        self.requests: list[tuple[str, str]] = []  # (method, path)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append((request.method, request.url.path))
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()

    def count(self, method: str | None = None, path_end: str = "") -> int:
        return sum(1 for m, p in self.requests if (method is None or m == method) and p.endswith(path_end))


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


# --- faults and other controls -------------------------------------------------------------------


class Faults:
    """`/_emulator/faults`: inject, and read what is left of, a fault."""

    def __init__(self, root: httpx.Client, prefix: str) -> None:
        self.root = root
        self.prefix = prefix

    def add(self, path: str, **fault: Any) -> int:
        """Inject a fault on `prefix + path`; returns its id."""
        response = self.root.post("/_emulator/faults", json={"path": self.prefix + path, **fault})
        assert response.status_code == 200, response.text
        return response.json()["id"]

    def remaining(self, fault_id: int) -> int:
        """How many more requests the fault will fail (0 once it is used up and gone)."""
        faults = self.root.get("/_emulator/faults").json()["faults"]
        return next((f["count"] for f in faults if f["id"] == fault_id), 0)


@pytest.fixture
def faults(root: httpx.Client, api_prefix: str) -> Faults:
    return Faults(root, api_prefix)


@pytest.fixture
def demo_workflow(emulator: ServerHandle) -> Callable[[str], str]:
    """The id of a demo workflow by name (the service has no workflow list; ids derive from the seed)."""

    def find(name: str) -> str:
        return next(w.id for w in emulator.emulator.store.workflows.values() if w.name == name)

    return find


@pytest.fixture
def first_org(emulator: ServerHandle, info: dict) -> str:
    """The demo user's first workspace ("Dana's workspace"): where a user-key create lands without org_id.

    `info["org_id"]` is the other one, Acme Ops, which the OAuth client and the Connect project belong to.
    """
    user = next(u for u in emulator.emulator.store.users.values() if u.api_key == info["api_key"])
    assert user.org_ids[0] != info["org_id"]
    return user.org_ids[0]
