"""Loads that failed for a passing reason try again by themselves, with backoff.

An engineer on call should not have to keep pressing `r` while the service
recovers from a 503 or the VPN comes back: a list or detail whose load
failed with a network error, a timeout, a 429 or a 5xx schedules its own
retry (2, 4, 8, 16, then every 30 seconds) and says when. A refusal that
will not pass by itself (401, 403, 404, a bad parameter, a `SetupProblem`)
is left to the user. Once the service answers again (the header's
"connected"), every retry waiting goes at once (`retry_all_now`): after a
long outage the wait had grown to 30 s, and a list said "Could not load"
under a header that said connected.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable

from textual.timer import Timer
from textual.widget import Widget

from ..api import ApiError
from ..api import is_transient as api_is_transient

FIRST_S = 2.0
MOST_S = 30.0

_waiting: weakref.WeakSet[AutoRetry] = weakref.WeakSet()  # the retries scheduled and not yet made


class SetupProblem(ApiError):
    """A load that cannot work until the user changes the setup (a missing project_id): never retried.

    Nothing was sent, so it has no status, which would otherwise read as a network failure.
    """


def is_transient(error: BaseException) -> bool:
    """`api.is_transient`, but never a `SetupProblem` (no status, as a dropped connection has none)."""
    return not isinstance(error, SetupProblem) and api_is_transient(error)


class AutoRetry:
    """Owned by a widget or screen: `schedule` after a failure, `succeeded` after a load that worked."""

    def __init__(self, owner: Widget, retry: Callable[[], object], *, now_key: str | None = "r") -> None:
        """`now_key`: the owner's key that tries again at once, said in the note (None: it has none)."""
        self.owner = owner
        self.retry = retry
        self.now_key = now_key
        self.failures = 0
        self._timer: Timer | None = None

    def delay(self) -> float:
        return min(MOST_S, FIRST_S * 2 ** max(0, self.failures - 1))

    def schedule(self, error: BaseException) -> str | None:
        """Arrange the next try if `error` may pass; the note to show beside the message, or None."""
        self.cancel()
        if not is_transient(error):
            self.failures = 0
            return None
        self.failures += 1
        wait = self.delay()
        retry_after = getattr(error, "retry_after", None)
        if isinstance(retry_after, (int, float)) and retry_after > wait:
            wait = min(float(retry_after), 300.0)
        self._timer = self.owner.set_timer(wait, self._fire)
        _waiting.add(self)
        return f"trying again in {wait:.0f} s" + (f" ({self.now_key}: now)" if self.now_key else "")

    def succeeded(self) -> None:
        self.cancel()
        self.failures = 0

    def cancel(self) -> None:
        _waiting.discard(self)
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def now(self) -> None:
        """The retry at once, if one is waiting."""
        if self._timer is not None:
            self.cancel()
            self._fire()

    def _fire(self) -> None:
        _waiting.discard(self)
        self._timer = None
        if self.owner.is_attached:
            self.retry()


def retry_all_now() -> None:
    """Every retry waiting, made now: the service answers again."""
    for retry in list(_waiting):
        retry.now()
