"""Read-only clients: every mutating call refused before a byte is sent; reads and logging out still work."""

from __future__ import annotations

import inspect
from typing import Any

import httpx
import pytest

from aftui.api import MUTATING, ApiError, Client, ReadOnlyError

# One call of each mutating method; the test below fails when MUTATING gains a name this does not know.
CALLS: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {
    "create_component": ((), {"code": "export default {}"}),
    "deploy_source": ((), {"key": "http-new-requests"}),
    "update_source": (("dc_x",), {"name": "n"}),
    "set_source_active": (("dc_x", False), {}),
    "delete_source": (("dc_x",), {}),
    "delete_source_events": (("dc_x",), {}),
    "subscribe": (("dc_x", "wh_x"), {}),
    "unsubscribe": (("dc_x", "wh_x"), {}),
    "auto_subscribe": (("$errors", "wh_x"), {}),
    "create_webhook": (("https://hooks.example.com/in",), {}),
    "delete_webhook": (("wh_x",), {}),
    "create_workflow": (("tch_3Lm9Qa",), {}),
    "set_workflow_active": (("p_x", True), {}),
    "create_connect_token": (("ext",), {}),
    "delete_connect_account": (("apn_x",), {}),
    "delete_connect_app_accounts": (("slack",), {}),
    "delete_connect_user": (("ext",), {}),
}


def refusing_transport(sent: list[httpx.Request]) -> httpx.MockTransport:
    """A transport that records, and fails, anything that reaches it."""

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        raise AssertionError(f"a read-only client sent {request.method} {request.url}")

    return httpx.MockTransport(handler)


def offline_client(transport: httpx.AsyncBaseTransport, *, oauth: bool = False, read_only: bool = True) -> Client:
    credentials: dict[str, str] = {"client_id": "id", "client_secret": "secret"} if oauth else {"api_key": "k" * 32}
    return Client(
        "http://service.test/v1",
        org_id="o_x",
        project_id="proj_x",
        read_only=read_only,
        transport=transport,
        **credentials,
    )


def test_calls_cover_every_mutating_name() -> None:
    assert set(CALLS) == MUTATING
    for name in MUTATING:
        assert inspect.iscoroutinefunction(getattr(Client, name)), name


@pytest.mark.parametrize("oauth", [False, True], ids=["api_key", "oauth"])
@pytest.mark.parametrize("name", sorted(CALLS))
async def test_a_mutating_call_is_refused_before_anything_is_sent(name: str, oauth: bool) -> None:
    sent: list[httpx.Request] = []
    async with offline_client(refusing_transport(sent), oauth=oauth) as client:
        args, kwargs = CALLS[name]
        with pytest.raises(ReadOnlyError) as caught:
            await getattr(client, name)(*args, **kwargs)
    assert sent == []  # not even a token was asked for
    assert caught.value.action and "read-only" in str(caught.value)
    assert not isinstance(caught.value, ApiError)  # nothing reached the service: not a service error


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
async def test_the_raw_request_method_is_read_only_too(method: str) -> None:
    sent: list[httpx.Request] = []
    async with offline_client(refusing_transport(sent)) as client:
        with pytest.raises(ReadOnlyError):
            await client.request(method, "/webhooks/wh_x")
    assert sent == []


async def test_every_method_that_changes_the_service_is_in_mutating() -> None:
    """Call every public method of a writable client on a mocked service and see what it sends."""
    sent: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        if request.url.path.endswith("/oauth/token"):
            return httpx.Response(200, json={"access_token": "t", "expires_in": 3600})
        return httpx.Response(200, json={})

    senders: dict[str, set[str]] = {}
    async with offline_client(httpx.MockTransport(handler), read_only=False) as client:
        for name, member in inspect.getmembers(Client, inspect.iscoroutinefunction):
            if name.startswith("_") or name in {"request", "aclose", "__aenter__", "__aexit__"}:
                continue
            args, kwargs = CALLS.get(name, ((), {}))
            if not args and not kwargs:
                required = [
                    p
                    for p in inspect.signature(member).parameters.values()
                    if p.name != "self" and p.default is p.empty and p.kind is not p.VAR_KEYWORD
                ]
                args = tuple("x_1" for _ in required)
            sent.clear()
            try:
                await getattr(client, name)(*args, **kwargs)
            except (ApiError, ValueError):
                pass  # `{}` is not every answer's shape; what matters is what was sent
            senders[name] = {r.method for r in sent if not r.url.path.startswith("/v1/oauth/")}
    changing = {name for name, methods in senders.items() if methods - {"GET", "HEAD", "OPTIONS"}}
    assert changing, "the probe found nothing: it is broken"
    assert changing <= MUTATING, (
        f"methods that change the service but are not marked mutating: {sorted(changing - MUTATING)}"
    )
    assert "revoke" not in MUTATING  # logging out is allowed in a read-only profile


# --- against the emulator ----------------------------------------------------------------------------------


async def test_reads_still_work(readonly_client: Client, demo_workflow) -> None:
    assert (await readonly_client.me()).username == "dana"
    sources = await readonly_client.list_sources(limit=3)
    assert len(sources.items) == 3
    assert (await readonly_client.get_source(sources.items[0].id)).id == sources.items[0].id
    assert (await readonly_client.list_source_events(sources.items[0].id, limit=1)) is not None
    assert (await readonly_client.get_workflow(demo_workflow("Nightly report"))).triggers
    assert (await readonly_client.list_connect_accounts(limit=1)).items
    assert (await readonly_client.connect_info()).id
    assert (await readonly_client.search_components("github issue")).sources


async def test_mutations_leave_the_emulator_untouched(make_client, recorder) -> None:
    client = make_client(read_only=True, transport=recorder)
    hooks = await client.list_webhooks(limit=100)
    with pytest.raises(ReadOnlyError):
        await client.create_webhook("https://hooks.example.com/never")
    with pytest.raises(ReadOnlyError):
        await client.delete_webhook(hooks.items[0].id)
    assert recorder.count() == 1  # only the listing
    assert await client.list_webhooks(limit=100) == hooks


async def test_revoke_is_allowed_read_only(make_client, info: dict) -> None:
    client = make_client(oauth=True, read_only=True)
    await client.list_apps(limit=1)
    token = client.auth.token
    await client.revoke()
    raw = httpx.get(info["base_url"] + "/apps", headers={"Authorization": f"Bearer {token}"}, timeout=5)
    assert raw.status_code == 401
