"""Events per second over the last minute, for the header's sparkline."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

WINDOW = 60  # seconds kept
AVERAGE = 10  # seconds the shown rate is averaged over: one event a second reads 1/s, not 0, 2, 0, 1


class RateCounter:
    """`add()` per event; `history()` gives the counts of the last whole seconds, oldest first.

    The clock is injectable: snapshot tests freeze it, so no live rate reaches the picture.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._second = self._first = int(clock())
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
    def watched_s(self) -> int:
        """Whole seconds counted so far (at most WINDOW): the history before them is zeros nobody saw."""
        self._roll()
        return min(WINDOW, self._second - self._first)

    @property
    def last(self) -> int:
        """Events in the last whole second."""
        return self.history()[-1]


# Seconds watched before no events counted reads 0/s. It was 3: the demo's streams send a clump every 3 s,
# and one opened just after a clump read "0/s" over rows still arriving (the clump is counted once its
# second is over). Quiet for the shown average's span is quiet.
FIRST_S = AVERAGE


def rate_words(history: list[int], watched_s: int = WINDOW) -> str:
    """The rate to show, from `history()` and the seconds it has watched: per second (averaged over the last
    seconds) from one a second up, else per minute.

    The last whole second alone reads 0/s half the time for one event a second (events come in clumps); an
    average says what is going on. Over the seconds watched, not the whole window: a stream of one event
    every 3 s, watched for 9, read 3/min. The unit follows the minute's rate, which moves slowly: chosen by
    the 10-second average, it flipped between 1.4/s and 26/min from one second to the next.
    """
    span = max(1, min(WINDOW, watched_s))
    per_minute = sum(history[-span:]) * 60 / span
    if not per_minute and watched_s < FIRST_S:
        return "…/s"  # nothing counted yet, a moment after opening: "0/s" read as a quiet stream while events came
    if per_minute >= 60:
        recent = sum(history[-AVERAGE:]) / min(AVERAGE, span)
        return f"{recent:,.0f}/s" if recent >= 10 else f"{recent:.1f}/s"
    return f"{per_minute:.0f}/min" if per_minute else "0/s"
