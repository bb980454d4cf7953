"""The emulator's clock: real time when activity is on, frozen otherwise.

Every timestamp the emulator hands out (created_at, event ids, token expiry,
rate-limit windows) comes from here, so that with activity off and a fixed
seed every response is the same from run to run, and so tests can move time
forward through the control API instead of sleeping.
"""

from __future__ import annotations

import time

# 2026-11-01T09:00:00Z: the demo's fixed "now" when the clock is frozen.
DEMO_EPOCH_MS = 1_793_523_600_000


class Clock:
    def __init__(self, *, start_ms: int | None = None, running: bool = False) -> None:
        self._base_ms = start_ms if start_ms is not None else int(time.time() * 1000)
        self._mono0 = time.monotonic()
        self._running = running

    @property
    def running(self) -> bool:
        return self._running

    def now_ms(self) -> int:
        if not self._running:
            return self._base_ms
        return self._base_ms + int((time.monotonic() - self._mono0) * 1000)

    def now_s(self) -> int:
        return self.now_ms() // 1000

    def now(self) -> float:
        return self.now_ms() / 1000

    def set(self, now_ms: int) -> None:
        self._base_ms = now_ms
        self._mono0 = time.monotonic()

    def advance(self, seconds: float) -> None:
        self.set(self.now_ms() + int(seconds * 1000))

    def run(self, running: bool) -> None:
        """Freeze or release the clock, keeping the current reading."""
        self.set(self.now_ms())
        self._running = running
