"""Helpers of the replay tests (imported as `from replay_helpers import ...`)."""

from __future__ import annotations

from typing import Any

import httpx

from aftui.api import Client
from aftui.api.models import EventSummary
from aftui.emulator.server import ServerHandle
from aftui.replay import ReplayPlan, plan_replay


async def post_order(emulator: ServerHandle, endpoint_key: str, body: dict[str, Any], path: str = "") -> httpx.Response:
    """An order as the shop sends it: with a credential and a cookie the replay must not pass on."""
    headers = {
        "Authorization": "Bearer shop-secret",
        "Cookie": "sid=abc",
        "X-Shop-Signature": "sig",
        "User-Agent": "shop-backend/4.2",
    }
    return await post(f"{emulator.root_url}/e/{endpoint_key}{path}", json=body, headers=headers, params={"src": "shop"})


async def post(url: str, **kwargs: Any) -> httpx.Response:
    async with httpx.AsyncClient(timeout=10) as http:
        return await http.post(url, **kwargs)


async def newest_error(client: Client, workflow_id: str, order_id: str) -> EventSummary:
    page = await client.list_workflow_errors(workflow_id, expand=True, limit=100)
    for event in page.items:
        error = event.error()
        original = error.original_event if error else None
        if (
            isinstance(original, dict)
            and isinstance(original.get("body"), dict)
            and original["body"].get("order_id") == order_id
        ):
            return event
    raise AssertionError(f"no error for {order_id}")


async def failed_order(emulator: ServerHandle, client: Client, demo: Any, n: int) -> tuple[EventSummary, ReplayPlan]:
    """Order `n` posted to the demo's order workflow, which fails it (no customer email): its error, and the
    plan to replay it."""
    await post_order(emulator, demo.order_endpoint_key, order(n))
    error = await newest_error(client, demo.order_workflow_id, f"ord_{n}")
    return error, await plan_replay(client, error, demo.order_workflow_id)


def order(n: int | str, **extra: Any) -> dict[str, Any]:
    return {"order_id": f"ord_{n}", "sku": "SKU-1001", "quantity": 1, "country": "de", "currency": "eur", **extra}
