"""Retries and time limits, with faults injected into the emulator.

Idempotent requests are retried on a dropped connection, a 5xx and a 429; a
POST only after a 429 (the service refused it before doing anything). The
number of attempts and the time of one attempt are bounded. The clients of
these tests back off for ~10 ms, so only a Retry-After costs real time.
"""

from __future__ import annotations

from typing import Any

import pytest

from aftui.api import Client, NetworkError, RateLimitError, RetryPolicy, ServerError, Timeouts

FAST = RetryPolicy(attempts=4, base_delay=0.01, max_delay=0.05, max_retry_after=5)


async def expect(error: type[Exception], call: Any) -> Any:
    with pytest.raises(error) as caught:
        await call
    return caught.value


async def webhook_count(client: Client) -> int:
    return len((await client.list_webhooks(limit=100)).items)


# --- idempotent requests ------------------------------------------------------------------------------


async def test_get_is_retried_on_500_twice_then_succeeds(make_client, faults, recorder) -> None:
    fault = faults.add("/users/me", count=2, status=500)
    me = await make_client(transport=recorder).me()
    assert me.username == "dana"
    assert recorder.count("GET", "/users/me") == 3
    assert faults.remaining(fault) == 0


async def test_get_is_retried_on_a_dropped_connection(make_client, faults, recorder) -> None:
    fault = faults.add("/users/me/sources", count=2, drop=True)
    page = await make_client(transport=recorder).list_sources(limit=5)
    assert len(page.items) == 5
    assert recorder.count("GET", "/users/me/sources") == 3 and faults.remaining(fault) == 0


async def test_get_is_retried_on_html_and_empty_5xx(make_client, faults, recorder) -> None:
    faults.add("/apps", status=502, body="html")
    faults.add("/apps", status=503, body="empty")
    page = await make_client(transport=recorder).list_apps(limit=3)
    assert len(page.items) == 3 and recorder.count("GET", "/apps") == 3


async def test_put_and_delete_are_retried_on_500(make_client, faults, recorder) -> None:
    client = make_client(transport=recorder)
    source = await client.deploy_source(key="http-new-requests", name="retry me")
    hook = await client.create_webhook("https://hooks.example.com/in")
    faults.add(f"/sources/{source.id}", count=2, status=500, method="PUT")
    faults.add(f"/webhooks/{hook.id}", count=1, status=503, method="DELETE")
    paused = await client.set_source_active(source.id, False)
    assert paused is not None and paused.active is False
    await client.delete_webhook(hook.id)
    assert recorder.count("PUT") == 3 and recorder.count("DELETE") == 2
    assert hook.id not in {h.id for h in (await client.list_webhooks(limit=100)).items}


async def test_attempts_are_bounded(make_client, faults, recorder) -> None:
    fault = faults.add("/users/me", count=10, status=500)
    error = await expect(ServerError, make_client(transport=recorder).me())
    assert error.status == 500
    assert recorder.count("GET", "/users/me") == FAST.attempts == 4
    assert faults.remaining(fault) == 10 - FAST.attempts


async def test_attempts_follow_the_policy(make_client, faults) -> None:
    fault = faults.add("/users/me", count=10, drop=True)
    await expect(NetworkError, make_client(retry=RetryPolicy(attempts=2, base_delay=0.01)).me())
    assert faults.remaining(fault) == 8


async def test_a_4xx_is_not_retried(make_client, faults, recorder) -> None:
    fault = faults.add("/users/me", count=3, status=404)
    await expect(Exception, make_client(transport=recorder).me())
    assert recorder.count() == 1 and faults.remaining(fault) == 2


# --- 429 and Retry-After ------------------------------------------------------------------------------


async def test_429_retry_after_is_honoured(make_client, faults, recorder) -> None:
    faults.add("/users/me", count=1, status=429, retry_after=3)
    client = make_client(transport=recorder)
    waits: list[float] = []

    async def note(seconds: float) -> None:
        waits.append(seconds)

    client._pause = note
    me = await client.me()
    assert me.username == "dana" and recorder.count() == 2
    assert waits == [3.0]  # exactly what the server asked for


async def test_429_without_retry_after_backs_off_and_retries(make_client, faults, recorder) -> None:
    faults.add("/apps", count=2, status=429)
    assert (await make_client(transport=recorder).list_apps(limit=1)).items
    assert recorder.count() == 3


async def test_429_with_a_long_retry_after_is_the_callers_to_wait(make_client, faults, recorder) -> None:
    faults.add("/users/me", count=1, status=429, retry_after=120)
    error = await expect(RateLimitError, make_client(transport=recorder).me())
    assert error.retry_after == 120 and recorder.count() == 1


async def test_429_on_the_last_attempt_is_raised(make_client, faults) -> None:
    fault = faults.add("/users/me", count=5, status=429, retry_after=0)
    error = await expect(RateLimitError, make_client().me())
    assert error.retry_after == 0 and faults.remaining(fault) == 1


# --- POST ----------------------------------------------------------------------------------------------


async def test_post_is_not_retried_on_500(make_client, faults, recorder) -> None:
    client = make_client(transport=recorder)
    before = await webhook_count(client)
    fault = faults.add("/webhooks", count=2, status=500, method="POST")
    await expect(ServerError, client.create_webhook("https://hooks.example.com/once"))
    assert faults.remaining(fault) == 1  # exactly one attempt
    assert recorder.count("POST") == 1
    assert await webhook_count(client) == before


async def test_post_is_not_retried_on_a_dropped_connection(make_client, faults, recorder) -> None:
    client = make_client(transport=recorder)
    fault = faults.add("/webhooks", count=2, drop=True, method="POST")
    error = await expect(NetworkError, client.create_webhook("https://hooks.example.com/once"))
    assert "dropped" in error.message or "broke" in error.message
    assert faults.remaining(fault) == 1 and recorder.count("POST") == 1


async def test_post_is_not_retried_after_a_timeout(make_client, faults) -> None:
    fault = faults.add("/subscriptions", count=2, delay=0.8, method="POST")
    client = make_client(timeouts=Timeouts(connect=2, read=5, total=0.2))
    await expect(NetworkError, client.subscribe("dc_x", "wh_x"))
    assert faults.remaining(fault) == 1


async def test_post_is_retried_after_a_429(make_client, faults, recorder) -> None:
    client = make_client(transport=recorder)
    before = await webhook_count(client)
    fault = faults.add("/webhooks", count=2, status=429, retry_after=0, method="POST")
    hook = await client.create_webhook("https://hooks.example.com/after-429")
    assert hook.id.startswith("wh_") and faults.remaining(fault) == 0
    assert recorder.count("POST") == 3
    assert await webhook_count(client) == before + 1  # created once


# --- time limits ---------------------------------------------------------------------------------------


async def test_a_slow_answer_beyond_the_total_limit_is_network_error_quickly(make_client, faults) -> None:
    faults.add("/users/me", count=1, delay=0.8)
    client = make_client(
        timeouts=Timeouts(connect=2, read=10, total=0.2), retry=RetryPolicy(attempts=1, base_delay=0.01)
    )
    error = await expect(NetworkError, client.me())
    assert "0.2" in error.message  # the total limit, not the read timeout, ended it


async def test_a_slow_answer_beyond_the_read_limit_is_network_error(make_client, faults) -> None:
    faults.add("/users/me", count=1, delay=0.8)
    client = make_client(
        timeouts=Timeouts(connect=2, read=0.2, total=10), retry=RetryPolicy(attempts=1, base_delay=0.01)
    )
    error = await expect(NetworkError, client.me())
    assert "timed out" in error.message


async def test_a_slow_get_is_retried_and_the_next_attempt_succeeds(make_client, faults, recorder) -> None:
    faults.add("/users/me", count=1, delay=0.8)
    client = make_client(transport=recorder, timeouts=Timeouts(connect=2, read=10, total=0.2))
    assert (await client.me()).username == "dana"
    assert recorder.count() == 2


async def test_status_listeners_hear_a_503_then_ok_once_its_retry_is_answered(make_client, faults) -> None:
    faults.add("/users/me", count=1, status=503)
    client = make_client()
    heard: list[str] = []
    client.add_status_listener(heard.append)
    await client.me()
    assert heard == ["failing 503", "ok"]


async def test_a_request_held_from_before_the_service_came_back_does_not_say_it_is_down(make_client, faults) -> None:
    """A hanging service's held requests kept the header at "waiting 29 s for an answer" after it was back, then
    "unreachable" for 20 s over lists that loaded. A request sent before one answered after a failure is old news;
    one endpoint that hangs while the others answer is still told."""
    import asyncio

    client = make_client(timeouts=Timeouts(connect=2, read=0.4, total=10), retry=RetryPolicy(attempts=1))
    heard: list[str] = []
    client.add_status_listener(heard.append)
    faults.add("/users/me", count=1, delay=0.8)
    slow = asyncio.ensure_future(client.me())
    while not client.waiting_for():  # sent (a first request builds its models first: 50 ms on a busy machine)
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.1)
    assert not client.answered_since_oldest_wait()  # nothing sent after it answered: the service may be gone
    await client.list_apps()  # answered while all was well: the slow one is still waited on
    assert client.waiting_for() >= 0.1
    # ... and said apart: the service answers, only not that one ("waiting 55 s" after a hang was cleared).
    assert client.answered_since_oldest_wait()
    await expect(NetworkError, slow)
    assert not client.answered_since_oldest_wait()  # none waits
    faults.add("/users/me", count=1, drop=True)
    await expect(NetworkError, client.me())  # the service fails
    faults.add("/users/me", count=1, delay=0.8)
    held = asyncio.ensure_future(client.me())
    await asyncio.sleep(0.1)
    await client.list_apps()  # sent after the held one, answered: the service is back
    assert client.waiting_for() == 0.0, "the held one waits still, but says nothing of the service now"
    await expect(NetworkError, held)
    assert heard == ["ok", "offline", "ok"] and client.status == "ok"
    faults.add("/users/me", count=1, drop=True)
    await expect(NetworkError, client.me())  # sent after the last answer: news
    assert heard == ["ok", "offline", "ok", "offline"]


async def test_status_listeners_hear_a_service_that_answers_with_its_own_failure_then_recovers(
    make_client, faults
) -> None:
    """Every request failing with a 503 read "ok": the service answered."""
    faults.add("/users/me", count=4, status=503)  # every attempt of one request (FAST_RETRY: 4)
    client = make_client()
    heard: list[str] = []
    client.add_status_listener(heard.append)
    await expect(ServerError, client.me())
    await client.me()
    assert heard == ["failing 503", "ok"]


async def test_in_a_steady_outage_the_next_requests_retries_do_not_say_reconnecting(make_client, faults) -> None:
    """Each request's first 503 said "retrying" again over "failing 503": in a steady outage the header flipped to
    "reconnecting" and back every few seconds. A 429 meanwhile does not hide the failure either."""
    faults.add("/users/me", count=12, status=503)  # three requests, every attempt
    client = make_client()
    heard: list[str] = []
    client.add_status_listener(heard.append)
    for _ in range(3):
        await expect(ServerError, client.me())
    faults.add("/users/me", count=4, status=502)
    await expect(ServerError, client.me())  # another failure: told
    faults.add("/users/me", count=1, status=429)
    await client.me()  # a 429, then answered
    assert heard == ["failing 503", "failing 502", "ok"]


async def test_status_listeners_hear_offline() -> None:
    async with Client("http://127.0.0.1:9/v1", api_key="k", retry=RetryPolicy(attempts=2, base_delay=0.01)) as client:
        heard: list[str] = []
        client.add_status_listener(heard.append)
        await expect(NetworkError, client.me())
    assert heard == ["retrying", "offline"]
