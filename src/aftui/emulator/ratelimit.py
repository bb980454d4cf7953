"""Sliding one-minute windows for the Connect rate limits, on the emulator's clock."""

from __future__ import annotations

import math
from collections import deque

from .clock import Clock
from .errors import ApiProblem

WINDOW_MS = 60_000


class RateLimiter:
    def __init__(self, clock: Clock, limit: int) -> None:
        self.clock = clock
        self.limit = limit
        self._hits: dict[object, deque[int]] = {}

    def hit(self, key: object) -> dict[str, str]:
        """Count one request; raise a 429 when the window is full. Returns the X-RateLimit headers."""
        now = self.clock.now_ms()
        hits = self._hits.setdefault(key, deque())
        while hits and hits[0] <= now - WINDOW_MS:
            hits.popleft()
        reset_ms = (hits[0] if hits else now) + WINDOW_MS
        if len(hits) >= self.limit:
            retry_after = max(1, math.ceil((reset_ms - now) / 1000))
            raise ApiProblem(
                429,
                "Throttled",
                code="rate_limited",
                headers={"Retry-After": str(retry_after), **self._headers(0, reset_ms)},
            )
        hits.append(now)
        return self._headers(self.limit - len(hits), reset_ms)

    def _headers(self, remaining: int, reset_ms: int) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": str(math.ceil(reset_ms / 1000)),
        }
