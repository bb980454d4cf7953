"""Who replayed an error and when, in words a teammate reads before replaying it again.

A replay row names its sender (the profile's user, from `/users/me`): on a team's shared journal
everyone's replays are there, so "replayed by alice 3 min ago, succeeded" stops a second replay.
"""

from __future__ import annotations

import asyncio
import logging
import time

from ..api import ApiError, Client
from ..api.models import User
from ..journal.backend import ReplayStore
from ..journal.replays import ReplayRow
from ..text import visible
from .watch import OUTCOME_WORDS

__all__ = ["name_of", "replayed_words", "sent_by", "sign"]

log = logging.getLogger(__name__)

PENDING_WORDS = "outcome not known yet"
SIGN_S = 3.0  # longest a replay waits to learn who sends it


def name_of(user: User) -> str:
    """How a user is named on a replay: the username, else the email, else the id."""
    return user.username or user.email or user.id


async def sign(client: Client, store: ReplayStore) -> None:
    """Name the replays `store` will record with the client's user (`/users/me`), once; unnamed if it cannot be read."""
    if store.by is not None:
        return
    try:
        # Bounded as the watch's first reads are: a service that hangs must not hold the replay back.
        store.by = name_of(await asyncio.wait_for(client.me(), SIGN_S))
    except (ApiError, ValueError, TimeoutError) as error:  # the replay goes ahead; the row names nobody
        log.warning("who is replaying is not known (/users/me: %s)", error or "no answer")


def replayed_words(row: ReplayRow, now: float | None = None, me: str | None = None) -> str:
    """'replayed by alice 3 min ago, succeeded' (or 'replayed 3 min ago, …' when the row names nobody)."""
    kind = row.outcome_now  # left pending by an aftui that died: unknown, not "watching for its outcome" for good
    outcome = PENDING_WORDS if kind == "pending" else OUTCOME_WORDS.get(kind, visible(kind, 40))
    return f"replayed {sent_by(row, now, me)}, {outcome}"


def sent_by(row: ReplayRow, now: float | None = None, me: str | None = None) -> str:
    """'by alice 3 min ago' (or '3 min ago' when the row names nobody): who sent a replay, and when.

    `me`: the name this user's replays carry (`name_of`); theirs say "by you". A newcomer read "by dana",
    the demo's user, as a teammate who had got there first."""
    if not row.replayed_by:
        by = ""
    elif me is not None and row.replayed_by == me:
        by = "by you "
    else:
        by = f"by {visible(row.replayed_by, 60)} "
    return f"{by}{_ago((now or time.time()) - row.started_at)}"


def _ago(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds < 60:
        return "just now" if seconds < 10 else f"{seconds} s ago"
    for size, unit in ((86_400, "d"), (3600, "h"), (60, "min")):
        if seconds >= size:
            return f"{seconds // size} {unit} ago"
    return f"{seconds} s ago"
