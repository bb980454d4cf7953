"""What a list or a detail tries again by itself: only what may pass (the network, a 429, a 5xx)."""

from __future__ import annotations

import pytest

from aftui.api import ApiError, AuthError, NetworkError, NotFoundError, RateLimitError, ServerError, ValidationError
from aftui.tui.retry import SetupProblem, is_transient


@pytest.mark.parametrize(
    "error",
    [NetworkError("reset"), RateLimitError("slow down"), ServerError("boom", status=503), ApiError("x", status=502)],
)
def test_what_may_pass_is_tried_again(error: ApiError) -> None:
    assert is_transient(error)


@pytest.mark.parametrize(
    "error",
    [
        # Raised by aftui itself, with no status: it read as a dropped connection and was tried every few seconds.
        NotFoundError("No subscription sub_x in this workspace or among yours (it may have been deleted)."),
        AuthError("bad key"),
        ValidationError("bad field"),
        SetupProblem("no project"),
        ApiError("refused", status=400),
    ],
)
def test_what_cannot_pass_is_not(error: ApiError) -> None:
    assert not is_transient(error)
