"""The demo's outside world: the requests its shop makes to the demo's HTTP endpoints.

With activity on, the runtime makes one round of these every few seconds;
the demo replays rounds of them to give its workspace two hours of history.
It finds its endpoints by name in the store, so it needs nothing but the
store: the runtime can use it without knowing how the demo was built.
"""

from __future__ import annotations

import json
import random
from typing import Any

from .store import Store

ORDER_WORKFLOW = "Validate and forward orders"
ORDER_WEBHOOKS = "Order webhooks"

# None drops the field: the order workflow's validation then fails, about one order in three.
_CUSTOMERS = ["ana@shop.example", "ben@shop.example", "chen@shop.example", "dara@shop.example", None, ""]
_SKUS = ["SKU-1001", "SKU-2044", "SKU-3300", "SKU-7781"]

EndpointRequest = tuple[str, dict[str, Any]]  # (endpoint key, the request as an HTTP interface's event)


def activity_requests(store: Store, rng: random.Random) -> list[EndpointRequest]:
    """The requests the demo's outside world makes in one activity period."""
    out = []
    orders = next((w for w in store.workflows.values() if w.name == ORDER_WORKFLOW), None)
    if orders is not None:
        key = next(t.endpoint_key for t in orders.triggers if t.kind == "http")
        assert key is not None  # an HTTP trigger always has its endpoint
        out.append((key, _http_event("POST", "/", _order(rng))))
    webhooks = next((s for s in store.sources.values() if s.name == ORDER_WEBHOOKS), None)
    if webhooks is not None and webhooks.endpoint_key:
        body = {
            "type": rng.choice(["order.created", "order.paid", "order.shipped"]),
            "id": f"evt_{rng.randint(10**6, 10**7)}",
        }
        out.append((webhooks.endpoint_key, _http_event("POST", "/hooks/orders", body)))
    return out


def _order(rng: random.Random) -> dict[str, Any]:
    n = rng.randint(1000, 99999)
    body = {
        "order_id": f"ord_{n}",
        "customer_email": rng.choice(_CUSTOMERS),
        "sku": rng.choice(_SKUS),
        "quantity": rng.randint(1, 5),
        "country": "de",
        "currency": "eur",
    }
    if body["customer_email"] is None:
        del body["customer_email"]
    return body


def _http_event(method: str, path: str, body: Any) -> dict[str, Any]:
    raw = json.dumps(body)
    return {
        "method": method,
        "path": path,
        "query": {},
        "headers": {
            "content-type": "application/json",
            "user-agent": "shop-backend/4.2",
            "content-length": str(len(raw)),
        },
        "body": body,
        "bodyRaw": raw,
    }
