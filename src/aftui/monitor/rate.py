"""Events per second over the last minute, for the header's sparkline."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

WINDOW = 60  # seconds kept


class RateCounter:
    """`add()` per event; `history()` gives the counts of the last whole seconds, oldest first.

    The clock is injectable: snapshot tests freeze it, so no live rate reaches the picture.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._second = int(clock())
        self._count = 0
        self._done: deque[int] = deque([0] * WINDOW, maxlen=WINDOW)

    def add(self, n: int = 1) -> None:
        self._roll()
        self._count += n

    def _roll(self) -> None:
        second = int(self._clock())
        if second == self._second:
            return
        gap = second - self._second
        self._done.append(self._count)
        for _ in range(min(gap - 1, WINDOW)):
            self._done.append(0)  # seconds in which nothing arrived
        self._second, self._count = second, 0

    def history(self) -> list[int]:
        self._roll()
        return list(self._done)

    @property
    def last(self) -> int:
        """Events in the last whole second."""
        return self.history()[-1]
