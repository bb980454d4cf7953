"""Typed errors: one ApiError subclass per case, the server's own message whatever the body."""

from __future__ import annotations

import json
import socket
from typing import Any

import httpx
import pytest

from aftui.api import (
    ApiError,
    AuthError,
    Client,
    NetworkError,
    NotFoundError,
    RateLimitError,
    RetryPolicy,
    ServerError,
    ValidationError,
)

NO_RETRY = RetryPolicy(attempts=1, base_delay=0.01)


async def expect(error: type[Exception], call: Any) -> Any:
    with pytest.raises(error) as caught:
        await call
    return caught.value


# --- from the emulator's own JSON errors -------------------------------------------------------------


async def test_unknown_key_is_auth_error_401_with_the_server_message(make_client, recorder) -> None:
    client = make_client(api_key="0" * 32, transport=recorder)
    error = await expect(AuthError, client.me())
    assert error.status == 401 and error.message and "key" in error.message.lower()
    assert error.method == "GET" and error.url.endswith("/users/me")
    assert recorder.count() == 1  # a 401 with a user key is final: not retried, nothing to refresh


async def test_revoked_key_is_auth_error_with_the_server_message(make_client, root: httpx.Client, info: dict) -> None:
    client = make_client()
    me = await client.me()
    new_key = root.post(f"/_emulator/users/{me.id}/revoke_key").json()["api_key"]
    error = await expect(AuthError, client.me())
    assert error.status == 401 and "revoked" in error.message
    assert (await make_client(api_key=new_key).me()).id == me.id


async def test_user_key_endpoint_with_oauth_is_auth_error_403(oauth_client: Client) -> None:
    error = await expect(AuthError, oauth_client.me())
    assert error.status == 403 and error.message and "key" in error.message.lower()


async def test_unknown_id_is_not_found(client: Client) -> None:
    error = await expect(NotFoundError, client.get_source("dc_nothing"))
    assert error.status == 404 and "dc_nothing" in error.message
    assert isinstance(error, ApiError) and "404" in str(error) and "dc_nothing" in str(error)


async def test_bad_parameter_is_validation_error_naming_it(client: Client) -> None:
    error = await expect(ValidationError, client.list_apps(limit=1000))
    assert error.status == 400 and error.param == "limit" and "limit" in error.message
    assert isinstance(error.body, dict) and error.body["error"] == error.message


async def test_missing_parameter_names_it(client: Client) -> None:
    error = await expect(ValidationError, client.search_components(""))
    assert error.param == "query"


async def test_connect_rate_limit_is_rate_limit_error_with_retry_after(make_client, root: httpx.Client) -> None:
    client = make_client(environment="development")  # max_retry_after 5 s: a 60 s wait is the caller's
    for _ in range(100):  # the budget: 100 account requests a minute per project and environment
        await client.list_connect_accounts(limit=1)
    error = await expect(RateLimitError, client.list_connect_accounts(limit=1))
    assert error.status == 429 and error.message == "Throttled"
    assert error.retry_after == 60  # the clock stands still: the whole window is left
    # the budget is per environment; and it comes back once the window has passed
    assert (await make_client().list_connect_accounts(limit=1)).items
    root.post("/_emulator/clock", json={"advance": 61})
    assert (await client.list_connect_accounts(limit=1)).items


# --- from injected bodies -----------------------------------------------------------------------------


async def test_message_from_an_html_error_page(make_client, faults) -> None:
    faults.add("/users/me", status=502, body="html")
    error = await expect(ServerError, make_client(retry=NO_RETRY).me())
    assert error.status == 502 and error.message == "502 Bad Gateway"
    assert "<" not in error.message


async def test_message_from_an_html_page_on_a_4xx(make_client, faults) -> None:
    faults.add("/apps", status=400, body="html")
    error = await expect(ValidationError, make_client(retry=NO_RETRY).list_apps())
    assert error.message == "502 Bad Gateway" and error.param is None


async def test_message_from_an_empty_body_is_the_reason_phrase(make_client, faults) -> None:
    faults.add("/users/me", status=503, body="empty")
    error = await expect(ServerError, make_client(retry=NO_RETRY).me())
    assert error.status == 503 and error.message == "Service Unavailable"


async def test_message_from_an_injected_json_error(make_client, faults) -> None:
    faults.add("/users/me", status=500)
    error = await expect(ServerError, make_client(retry=NO_RETRY).me())
    assert error.status == 500 and error.message == "injected fault: the service failed"


async def test_malformed_body_on_an_error_status(make_client, faults) -> None:
    faults.add("/users/me", status=500, body="malformed")
    error = await expect(ServerError, make_client(retry=NO_RETRY).me())
    assert error.status == 500 and error.message.startswith('{"data"')


async def test_malformed_json_on_200_is_server_error(client: Client, faults) -> None:
    for call, path in (("me", "/users/me"), ("list_sources", "/users/me/sources"), ("list_apps", "/apps")):
        faults.add(path, body="malformed")
        error = await expect(ServerError, getattr(client, call)())
        assert error.status == 200 and "not valid JSON" in error.message, call


async def test_html_on_200_is_server_error(client: Client, faults) -> None:
    faults.add("/users/me", status=200, body="html")
    error = await expect(ServerError, client.me())
    assert error.status == 200


async def test_empty_200_for_a_record_is_server_error(client: Client, faults) -> None:
    faults.add("/users/me", status=200, body="empty")
    await expect(ServerError, client.me())


FAULTS = [
    {"status": s, "body": b} for s in (400, 401, 404, 429, 500, 502) for b in ("json", "html", "malformed", "empty")
] + [{"drop": True}]


async def test_every_fault_is_an_api_error(make_client, faults) -> None:
    """Whatever comes back, the caller sees an ApiError subclass, never httpx's or json's."""
    expected = {
        400: ValidationError,
        401: AuthError,
        404: NotFoundError,
        429: RateLimitError,
        500: ServerError,
        502: ServerError,
    }
    client = make_client(retry=NO_RETRY)
    for fault in FAULTS:
        faults.add("/users/me", **fault)
        with pytest.raises(ApiError) as caught:
            await client.me()
        error = caught.value
        assert isinstance(error, NetworkError if fault.get("drop") else expected[fault["status"]]), fault
        assert error.message, fault
    assert (await client.me()).username == "dana"  # every fault used up, nothing left behind


# --- answers of the wrong shape (a mocked service: the emulator never sends these) ------------------------


def mocked(answer: Any, status: int = 200) -> Client:
    """A client of a mocked service that always gives `answer` (JSON-encoded unless bytes)."""

    def handler(request: httpx.Request) -> httpx.Response:
        content = answer if isinstance(answer, bytes) else json.dumps(answer).encode()
        return httpx.Response(status, content=content, headers={"content-type": "application/json"})

    return Client("http://service.test/v1", api_key="k" * 32, retry=NO_RETRY, transport=httpx.MockTransport(handler))


@pytest.mark.parametrize(
    "answer",
    [
        [1, 2, 3],
        {"data": [1, 2]},
        {"data": {"username": "no id"}},
        {"data": {"id": 7, "orgs": "not a list"}},
        "a string",
        None,
    ],
)
async def test_a_record_of_the_wrong_shape_is_server_error(answer: Any) -> None:
    error = await expect(ServerError, mocked(answer).me())
    assert "User" in error.message or "JSON" in error.message


@pytest.mark.parametrize(
    "answer",
    [
        {"data": {"not": "a list"}},
        {"data": [{"no_id": True}]},
        {"data": [], "page_info": {"total_count": "many"}},
        [],
        "text",
    ],
)
async def test_a_list_of_the_wrong_shape_is_server_error(answer: Any) -> None:
    await expect(ServerError, mocked(answer).list_sources())


async def test_a_list_without_page_info_is_one_last_page() -> None:
    page = await mocked({"data": [{"id": "dc_1"}]}).list_sources()
    assert [s.id for s in page.items] == ["dc_1"] and not page.has_more and page.total is None


async def test_an_error_message_is_capped() -> None:
    error = await expect(ValidationError, mocked({"error": "x" * 5000}, status=400).me())
    assert len(error.message) <= 500


@pytest.mark.parametrize(
    ("body", "message", "param"),
    [
        ({"error": {"message": "nested message"}}, "nested message", None),
        ({"message": "plain message", "param": "name"}, "plain message", "name"),
        ({"errors": [{"message": "first"}, "second"]}, "first; second", None),
        ({"detail": "from detail", "details": {"param": "url"}}, "from detail", "url"),
        ({}, "Bad Request", None),
    ],
)
async def test_message_from_other_json_error_shapes(body: dict, message: str, param: str | None) -> None:
    error = await expect(ValidationError, mocked(body, status=400).me())
    assert error.message == message and error.param == param


async def test_connection_refused_is_network_error() -> None:
    with socket.socket() as sock:  # a port nobody listens on once closed
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    async with Client(
        f"http://127.0.0.1:{port}/v1", api_key="k" * 32, retry=RetryPolicy(attempts=2, base_delay=0.01)
    ) as client:
        error = await expect(NetworkError, client.me())
    assert "connect" in error.message and error.method == "GET"
