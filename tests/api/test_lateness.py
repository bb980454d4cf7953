"""`answered`: the one wait behind a feed's "no answer in N s" and the workflow detail's fallback to the journal."""

from __future__ import annotations

import asyncio

import pytest

from aftui.api.lateness import answered


async def hung(cancelled: asyncio.Event) -> None:
    """A request that never answers; `cancelled` is set when it is given up."""
    try:
        await asyncio.sleep(60)
    except asyncio.CancelledError:
        cancelled.set()
        raise


async def test_a_late_answer_is_still_taken_after_saying_so() -> None:
    said: list[str] = []

    async def slow_request() -> str:
        await asyncio.sleep(0.2)
        return "answer"

    async def on_late() -> None:
        said.append("late")

    assert await answered(slow_request(), 0.05, on_late) == "answer"
    assert said == ["late"]


async def test_a_prompt_answer_says_nothing() -> None:
    said: list[str] = []

    async def quick() -> int:
        return 7

    async def on_late() -> None:
        said.append("late")

    assert await answered(quick(), 1.0, on_late) == 7
    assert said == []


async def test_giving_way_cancels_the_request() -> None:
    cancelled = asyncio.Event()

    async def give_way() -> None:
        raise TimeoutError("given up")

    with pytest.raises(TimeoutError):
        await answered(hung(cancelled), 0.05, give_way)
    await asyncio.sleep(0)  # the cancellation is delivered at the request's next step
    assert cancelled.is_set()


async def test_a_cancelled_caller_takes_the_request_with_it() -> None:
    cancelled = asyncio.Event()

    async def on_late() -> None:
        pass

    waiter = asyncio.ensure_future(answered(hung(cancelled), 10.0, on_late))
    await asyncio.sleep(0.05)
    waiter.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiter
    await asyncio.sleep(0)
    assert cancelled.is_set()
