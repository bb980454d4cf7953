"""OAuth client credentials: the token is cached, refreshed before expiry and once after a 401, revoked on request."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from aftui.api import AuthError, Client, NetworkError, RetryPolicy, ServerError, Timeouts
from aftui.api.auth import REFRESH_MARGIN_S, OAuthAuth


async def expect(error: type[Exception], call: Any) -> Any:
    with pytest.raises(error) as caught:
        await call
    return caught.value


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def with_clock(client: Client, info: dict, clock: FakeClock, **options: Any) -> OAuthAuth:
    auth = OAuthAuth(info["base_url"], info["oauth_client_id"], info["oauth_client_secret"], clock=clock, **options)
    client.auth = auth
    return auth


def raw_get(info: dict, token: str, path: str = "/apps") -> httpx.Response:
    return httpx.get(
        info["base_url"] + path, headers={"Authorization": f"Bearer {token}"}, params={"limit": 1}, timeout=5
    )


# --- caching and refreshing ----------------------------------------------------------------------------


async def test_the_token_is_fetched_once_and_cached(oauth_client: Client) -> None:
    auth = oauth_client.auth
    assert isinstance(auth, OAuthAuth) and auth.fetches == 0 and auth.token is None
    await oauth_client.list_apps(limit=1)
    await oauth_client.get_app("slack")
    await oauth_client.list_connect_accounts(limit=1)
    await oauth_client.list_workspace_sources(limit=1)
    assert auth.fetches == 1 and auth.token


async def test_concurrent_requests_share_one_token(oauth_client: Client) -> None:
    await asyncio.gather(*(oauth_client.list_apps(limit=1) for _ in range(8)))
    assert oauth_client.auth.fetches == 1


async def test_a_short_lived_token_is_refreshed_on_every_request(oauth_client: Client, root: httpx.Client) -> None:
    root.post("/_emulator/settings", json={"token_lifetime": 100})  # under the 120 s margin
    tokens = set()
    for _ in range(3):
        await oauth_client.list_apps(limit=1)
        tokens.add(oauth_client.auth.token)
    assert oauth_client.auth.fetches == 3 and len(tokens) == 3


async def test_the_refresh_margin_exactly(oauth_client: Client, info: dict) -> None:
    clock = FakeClock()
    auth = with_clock(oauth_client, info, clock)
    await oauth_client.list_apps(limit=1)
    assert auth.fetches == 1
    first = auth.token
    clock.now += 3600 - REFRESH_MARGIN_S - 0.001  # just before the margin: still good
    await oauth_client.list_apps(limit=1)
    assert auth.fetches == 1 and auth.token == first
    clock.now += 0.001  # the margin reached: fetched anew before the request
    await oauth_client.list_apps(limit=1)
    assert auth.fetches == 2 and auth.token != first
    clock.now += 3600 - REFRESH_MARGIN_S - 1  # counted from the new fetch
    await oauth_client.list_apps(limit=1)
    assert auth.fetches == 2


async def test_a_custom_margin_and_the_server_lifetime(oauth_client: Client, info: dict, root: httpx.Client) -> None:
    root.post("/_emulator/settings", json={"token_lifetime": 300})
    clock = FakeClock()
    auth = with_clock(oauth_client, info, clock, margin_s=10)
    await oauth_client.list_apps(limit=1)
    clock.now += 289.9
    await oauth_client.list_apps(limit=1)
    assert auth.fetches == 1
    clock.now += 0.1
    await oauth_client.list_apps(limit=1)
    assert auth.fetches == 2


async def test_a_token_revoked_behind_our_back_is_replaced_once(oauth_client: Client, info: dict, recorder) -> None:
    await oauth_client.list_apps(limit=1)
    old = oauth_client.auth.token
    revoked = httpx.post(
        info["base_url"] + "/oauth/revoke",
        json={"token": old, "client_id": info["oauth_client_id"], "client_secret": info["oauth_client_secret"]},
        timeout=5,
    )
    assert revoked.status_code == 200 and revoked.json() == {}
    assert raw_get(info, old).status_code == 401
    page = await oauth_client.list_apps(limit=1)
    assert page.items and oauth_client.auth.fetches == 2 and oauth_client.auth.token != old


async def test_a_token_expired_by_the_service_clock_is_replaced(oauth_client: Client, root: httpx.Client) -> None:
    await oauth_client.list_connect_accounts(limit=1)
    old = oauth_client.auth.token
    root.post("/_emulator/clock", json={"advance": 4000})  # our monotonic clock still thinks it is fresh
    assert (await oauth_client.list_connect_accounts(limit=1)).items
    assert oauth_client.auth.fetches == 2 and oauth_client.auth.token != old


async def test_a_401_is_refreshed_only_once(make_client, faults, recorder) -> None:
    client = make_client(oauth=True, transport=recorder)
    fault = faults.add("/apps", count=5, status=401)
    error = await expect(AuthError, client.list_apps(limit=1))
    assert error.status == 401
    assert recorder.count("GET", "/apps") == 2  # the first try and one with a fresh token
    assert recorder.count("POST", "/oauth/token") == 2 and client.auth.fetches == 2
    assert faults.remaining(fault) == 3


async def test_a_403_does_not_refresh(oauth_client: Client) -> None:
    error = await expect(AuthError, oauth_client.me())
    assert error.status == 403 and oauth_client.auth.fetches == 1


# --- revoking, bad credentials --------------------------------------------------------------------------


async def test_revoke_then_the_old_token_is_refused(oauth_client: Client, info: dict) -> None:
    await oauth_client.list_apps(limit=1)
    old = oauth_client.auth.token
    assert old and raw_get(info, old).status_code == 200
    await oauth_client.revoke()
    assert oauth_client.auth.token is None
    assert raw_get(info, old).status_code == 401
    assert (await oauth_client.list_apps(limit=1)).items  # a later call signs in again
    assert oauth_client.auth.fetches == 2 and oauth_client.auth.token != old


async def test_revoke_before_any_token_sends_nothing(make_client, recorder) -> None:
    client = make_client(oauth=True, transport=recorder)
    await client.revoke()
    assert recorder.requests == []


async def test_revoke_with_a_user_key_is_a_no_op(make_client, recorder) -> None:
    client = make_client(transport=recorder)
    await client.revoke()
    assert recorder.requests == [] and (await client.me()).username == "dana"


async def test_a_bad_secret_is_auth_error_with_the_server_message(make_client, recorder) -> None:
    client = make_client(oauth=True, client_secret="wrong", transport=recorder)
    error = await expect(AuthError, client.list_apps())
    assert error.status == 401 and "invalid client_id or client_secret" in error.message
    assert recorder.count("GET", "/apps") == 0  # nothing sent without a token
    assert "wrong" not in str(error) and "wrong" not in repr(client.auth)


async def test_an_unknown_client_id_is_auth_error(make_client) -> None:
    error = await expect(AuthError, make_client(oauth=True, client_id="nobody").list_apps())
    assert "invalid client_id" in error.message


async def test_a_token_endpoint_failure_is_typed(make_client, faults) -> None:
    faults.add("/oauth/token", status=500, body="html")
    error = await expect(Exception, make_client(oauth=True).list_apps())
    assert not isinstance(error, AuthError) and error.message == "502 Bad Gateway"


async def test_the_token_endpoint_sending_malformed_json_is_server_error(make_client, faults) -> None:
    faults.add("/oauth/token", body="malformed")
    error = await expect(ServerError, make_client(oauth=True).list_apps())
    assert error.status == 200


@pytest.mark.parametrize("answer", [{}, {"access_token": 5, "expires_in": "soon"}, [], "token"])
async def test_a_token_answer_of_the_wrong_shape_is_server_error(answer: Any) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        assert request.url.path.endswith("/oauth/token"), "nothing is sent without a token"
        return httpx.Response(200, json=answer)

    client = Client(
        "http://service.test/v1", client_id="id", client_secret="secret", transport=httpx.MockTransport(handler)
    )
    async with client:
        error = await expect(ServerError, client.list_apps())
    assert "token" in error.message


async def test_a_post_with_an_expired_token_is_sent_again_with_a_new_one(
    oauth_client: Client, root: httpx.Client, emulator
) -> None:
    await oauth_client.list_apps(limit=1)
    root.post("/_emulator/clock", json={"advance": 4000})
    hook = await oauth_client.create_webhook("https://hooks.example.com/after-expiry")
    assert oauth_client.auth.fetches == 2
    assert (
        sum(1 for w in emulator.emulator.store.webhooks.values() if w.url == "https://hooks.example.com/after-expiry")
        == 1
    )
    assert hook.id in emulator.emulator.store.webhooks


async def test_a_dropped_token_request_is_retried_for_a_get(make_client, faults, recorder) -> None:
    fault = faults.add("/oauth/token", drop=True)
    client = make_client(oauth=True, transport=recorder)
    assert (await client.list_apps(limit=1)).items
    assert faults.remaining(fault) == 0 and recorder.count("POST", "/oauth/token") == 2 and client.auth.fetches == 1


async def test_a_slow_token_endpoint_is_bounded_by_the_total_limit(make_client, faults) -> None:
    faults.add("/oauth/token", delay=0.8)
    client = make_client(
        oauth=True, timeouts=Timeouts(connect=2, read=10, total=0.2), retry=RetryPolicy(attempts=1, base_delay=0.01)
    )
    error = await expect(NetworkError, client.list_apps(limit=1))
    assert "0.2" in error.message  # the total limit bounds the token request too


async def test_oauth_uses_its_workspace(oauth_client: Client, info: dict) -> None:
    sources = await oauth_client.list_workspace_sources(limit=100)
    assert sources.items
    info_ = await oauth_client.connect_info()
    assert info_.model_extra["org_id"] == info["org_id"]
