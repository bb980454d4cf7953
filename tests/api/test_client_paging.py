"""Cursor paging: `iterate` and `Pager` over hundreds of records, `before` cursors, odd last pages."""

from __future__ import annotations

import functools
import math
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from aftui.api import Client, Pager, RetryPolicy, ServerError, iterate
from aftui.api.models import Page, PageInfo, Source, event_key
from aftui.emulator.server import Options, ServerHandle, serve_in_thread

SCALE = 300  # timer sources added to the Acme workspace


@pytest.fixture(scope="module")
def big() -> Iterator[ServerHandle]:
    """One emulator with 300 more sources, shared by this module's tests (they only read)."""
    handle = serve_in_thread(Options(port=0, scale=SCALE))
    yield handle
    handle.stop()


@pytest.fixture
async def big_client(big: ServerHandle) -> AsyncIterator[Client]:
    described = big.emulator.describe()
    client = Client(
        described["base_url"],
        api_key=described["api_key"],
        org_id=described["org_id"],
        project_id=described["project_id"],
        retry=RetryPolicy(base_delay=0.01),
    )
    async with client:
        yield client


def acme_source_ids(big: ServerHandle) -> set[str]:
    org = big.emulator.describe()["org_id"]
    return {s.id for s in big.emulator.store.sources.values() if s.org_id == org}


async def test_iterate_walks_every_page_without_gap_or_duplicate(big_client: Client, big: ServerHandle) -> None:
    expected = acme_source_ids(big)
    assert len(expected) >= SCALE
    ids = [s.id async for s in iterate(big_client.list_workspace_sources, page_size=100)]
    assert len(ids) == len(set(ids)) == len(expected)
    assert set(ids) == expected


async def test_the_json_list_walks_every_page_and_stops_at_most(big_client: Client, big: ServerHandle) -> None:
    """Health's lists (`list_json`): every page without a gap or a duplicate, or only the first `most` items."""
    expected = acme_source_ids(big)
    found = [item["id"] for item in await big_client.list_json("sources")]
    assert len(found) == len(set(found)) == len(expected) and set(found) == expected
    first = [s.id for s in (await big_client.list_workspace_sources(limit=100)).items]
    assert [item["id"] for item in await big_client.list_json("sources", most=50)] == first[:50]
    assert [item["id"] for item in await big_client.list_json("sources", most=150)][:100] == first
    big_client.org_id = None  # no workspace chosen: the user's own, as the models' lists read them
    mine = [item["id"] for item in await big_client.list_json("sources")]
    assert len(mine) == len(big.emulator.store.sources)


async def test_iterate_the_users_sources(big_client: Client, big: ServerHandle) -> None:
    sources = [s async for s in iterate(big_client.list_sources)]
    assert all(isinstance(s, Source) for s in sources)
    assert len({s.id for s in sources}) == len(sources) == len(big.emulator.store.sources) > SCALE


async def test_pager_counts_pages_and_total(big_client: Client, big: ServerHandle) -> None:
    expected = acme_source_ids(big)
    pager: Pager[Source] = Pager(big_client.list_workspace_sources, page_size=37)
    assert pager.total is None and not pager.done
    pages = 0
    while not pager.done and pages < 100:  # bounded: a pager that never ends fails here, not hangs
        got = await pager.load_more()
        pages += 1
        assert got and pager.items[-len(got) :] == got
        assert pager.total == len(expected)
    assert pager.done and pages == math.ceil(len(expected) / 37)
    assert [s.id for s in pager.items] == list(dict.fromkeys(s.id for s in pager.items))  # no duplicate
    assert {s.id for s in pager.items} == expected
    assert await pager.load_more() == [] and len(pager.items) == len(expected)


async def test_pager_reset_with_a_new_filter(big_client: Client, big: ServerHandle) -> None:
    pager = Pager(big_client.list_apps, page_size=7)
    await pager.load_more()
    apps = len(big.emulator.store.apps)
    assert pager.total == apps and len(pager.items) == 7
    pager.reset(q="google")
    assert pager.items == [] and pager.total is None and not pager.done
    while not pager.done:
        await pager.load_more()
    assert pager.items and pager.total == len(pager.items) < apps
    assert all("google" in (a.name + (a.description or "")).lower() for a in pager.items)


async def test_iterate_passes_filters(big_client: Client) -> None:
    paged = [a.id async for a in iterate(big_client.list_apps, page_size=4, q="a")]
    whole = await big_client.list_apps(q="a", limit=100)
    assert paged == [a.id for a in whole.items]


async def test_iterate_connect_accounts_nested_in_data(big_client: Client) -> None:
    ids = [a.id async for a in iterate(big_client.list_connect_accounts, page_size=10)]
    whole = await big_client.list_connect_accounts(limit=100)
    assert len(ids) == len(set(ids)) == whole.total == len(whole.items) > 10
    assert ids == [a.id for a in whole.items]


async def test_before_gives_the_items_just_before_a_cursor(big_client: Client) -> None:
    first = await big_client.list_workspace_sources(limit=50)
    second = await big_client.list_workspace_sources(limit=50, after=first.page_info.end_cursor)
    assert not {s.id for s in first.items} & {s.id for s in second.items}
    back = await big_client.list_workspace_sources(limit=50, before=second.page_info.start_cursor)
    assert [s.id for s in back.items] == [s.id for s in first.items]
    third = await big_client.list_workspace_sources(limit=50, after=second.page_info.end_cursor)
    tail = await big_client.list_workspace_sources(limit=20, before=third.page_info.start_cursor)
    assert [s.id for s in tail.items] == [s.id for s in second.items][-20:]


async def test_before_the_first_item_is_empty(big_client: Client) -> None:
    first = await big_client.list_apps(limit=5)
    none = await big_client.list_apps(limit=5, before=first.page_info.start_cursor)
    assert none.items == []


async def test_the_last_page_has_no_end_cursor(big_client: Client) -> None:
    page = await big_client.list_webhooks(limit=100)
    assert page.items and not page.has_more and not page.page_info.end_cursor
    assert page.page_info.count == len(page.items) == page.total


async def test_events_page_in_id_order(big_client: Client, big: ServerHandle) -> None:
    source = next(iter(big.emulator.store.sources.values()))
    with httpx.Client(base_url=big.root_url, timeout=10) as root:
        assert root.post(f"/_emulator/sources/{source.id}/inject", json={"count": 120, "wait": True}).status_code == 200
    events = [e async for e in iterate(functools.partial(big_client.list_source_events, source.id), page_size=30)]
    keys = [e.key for e in events]
    assert len(events) == len(set(keys)) == 100  # the last 100 are kept
    assert keys == sorted(keys, reverse=True)


# --- pagers on a service that misbehaves (fake fetch functions) ------------------------------------------------


def fake_pages(pages: list[tuple[list[str], str | None]]):
    """A fetch that hands out the given pages in order, whatever the cursor, and counts calls."""
    calls: list[dict[str, Any]] = []

    async def fetch(**params: Any) -> Page[str]:
        calls.append(params)
        items, cursor = pages[min(len(calls) - 1, len(pages) - 1)]
        return Page[str](items=items, page_info=PageInfo(end_cursor=cursor, count=len(items)))

    return fetch, calls


@pytest.mark.parametrize("last_cursor", [None, ""])
async def test_a_last_page_with_null_or_empty_cursor_ends(last_cursor: str | None) -> None:
    fetch, calls = fake_pages([(["a", "b"], "c1"), (["c"], last_cursor)])
    assert [x async for x in iterate(fetch, page_size=2)] == ["a", "b", "c"]
    assert calls == [{"limit": 2}, {"limit": 2, "after": "c1"}]


async def test_a_cursor_handed_back_twice_does_not_loop() -> None:
    fetch, calls = fake_pages([(["a"], "same"), (["b"], "same"), (["c"], "same")])
    assert [x async for x in iterate(fetch, page_size=1)] == ["a", "b"]
    assert len(calls) == 2


async def test_an_empty_page_with_a_cursor_ends() -> None:
    fetch, calls = fake_pages([(["a"], "c1"), ([], "c2"), (["never"], None)])
    assert [x async for x in iterate(fetch)] == ["a"]
    assert len(calls) == 2


async def test_a_failed_page_can_be_loaded_again() -> None:
    fetch, calls = fake_pages([(["a"], "c1"), (["b"], None)])
    failures = [ServerError("down", status=503)]

    async def flaky(**params: Any) -> Page[str]:
        if len(calls) == 1 and failures:
            raise failures.pop()
        return await fetch(**params)

    pager = Pager(flaky, page_size=1)
    assert await pager.load_more() == ["a"]
    with pytest.raises(ServerError):
        await pager.load_more()
    assert not pager.done and pager.items == ["a"]
    assert await pager.load_more() == ["b"]
    assert pager.done and pager.items == ["a", "b"]
    assert calls[-1] == {"limit": 1, "after": "c1"}


def test_event_key_orders_as_number_pairs() -> None:
    ids = ["1793523360000-10", "1793523360000-9", "999-0", "1793523360001-0"]
    assert sorted(ids, key=event_key) == ["999-0", "1793523360000-9", "1793523360000-10", "1793523360001-0"]
    assert event_key("not-an-id") is None and event_key(None) is None and event_key("12-") is None


async def test_a_pages_models_share_their_sets_of_given_fields_and_their_equal_values(big_client: Client) -> None:
    """Memory of long lists: one set of given fields per page and shape, not one per model; a copy with a
    change gets its own, so the others still say what the service sent them."""
    page = await big_client.list_sources(limit=100)
    timers = [s for s in page.items if s.id.startswith("dc_") and s.component_id == page.items[-1].component_id]
    assert len(timers) > 50
    assert len({id(s.model_fields_set) for s in timers}) == 1
    assert "owner_id" not in timers[0].model_fields_set  # the emulator does not send it
    copied = timers[0].model_copy(update={"owner_id": "o_someone"})
    assert "owner_id" in copied.model_fields_set
    assert "owner_id" not in timers[1].model_fields_set
    assert "owner_id" not in timers[1].model_dump(exclude_unset=True)
    assert timers[0].user_id is timers[1].user_id and timers[0].created_at is timers[1].created_at  # alike: one
