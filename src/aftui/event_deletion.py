"""Deleting a source's events: which events a choice covers, and watching the service remove them.

The spec's rules (DELETE /sources/{id}/events): no ids deletes all; only
`start_id` deletes it and every later event; only `end_id` it and every
earlier one; both the inclusive range; both equal, one event. Ids order by
time as `<epoch-ms>-<seq>` number pairs.

A count of what a choice covers is made among the events the service lists
now (it keeps the last 100), and is an estimate when the list could not be
read to its end. The service answers 202 and removes the events afterwards,
so once accepted the list is read again until the covered events are gone
or `WAIT_S` has passed, and the user is told which.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Literal

from .api import ApiError, Client
from .api.models import EventSummary, event_key
from .text import visible

WAIT_S = 10.0  # how long the list is watched after the 202
POLL_S = 0.3
MAX_READ = 1000  # events read for the preview (the service keeps 100; a bigger answer is cut here)

Key = tuple[int, int]


@dataclass(frozen=True)
class Choice:
    mode: str
    start_id: str | None
    end_id: str | None

    @property
    def bounds(self) -> tuple[Key | None, Key | None]:
        return event_key(self.start_id), event_key(self.end_id)

    def covers(self, event: EventSummary) -> bool:
        key = event.key
        if key is None:
            return False
        start, end = self.bounds
        return (start is None or key >= start) and (end is None or key <= end)

    def words(self) -> str:
        if self.mode == "all":
            return "every event"
        if self.mode == "one":
            return f"the event {self.start_id}"
        if self.mode == "from":
            return f"{self.start_id} and every later event"
        if self.mode == "upto":
            return f"{self.end_id} and every earlier event"
        return f"{self.start_id} to {self.end_id}, both included"


@dataclass(frozen=True)
class Deletion:
    """An accepted deletion: what was asked, and the ids listed at the time that it covers."""

    source_id: str
    choice: Choice
    covered: tuple[str, ...]
    listed: int
    complete: bool


async def retained_events(client: Client, source_id: str, *, expand: bool = False) -> tuple[list[EventSummary], bool]:
    """The events the service lists for the source, and whether the list was read to its end."""
    events: list[EventSummary] = []
    after: str | None = None
    while len(events) < MAX_READ:
        page = await client.list_source_events(
            source_id, limit=min(100, MAX_READ - len(events)), after=after, expand=expand
        )
        events.extend(page.items)
        after = page.page_info.end_cursor or None
        if not after or not page.items:
            return events, True
    return events, False


def id_problem(value: str, what: str) -> str | None:
    if not value:
        return f"Give the {what} (an event id, <epoch-ms>-<seq>; the Events tab lists them)."
    if event_key(value) is None:
        return f"{visible(value, 40)} is not an event id: they read <epoch-ms>-<seq>, as 1762000000000-0."
    return None


def covered_words(count: int, listed: int, complete: bool) -> str:
    noun = "event" if count == 1 else "events"
    text = f"{count} {noun} of the {listed} the service lists now"
    if not complete:
        text += f" (an estimate: only the first {listed} could be read)"
    return text


async def watch_deletion(client: Client, deletion: Deletion, *, wait_s: float | None = None) -> int | None:
    """Read the list until none of the covered events is in it; how many still are at the end (None: unreadable)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + (WAIT_S if wait_s is None else wait_s)
    covered = set(deletion.covered)
    while True:
        try:
            events, _ = await retained_events(client, deletion.source_id)
        except ApiError:
            return None
        left = sum(1 for e in events if e.id in covered)
        if not left or loop.time() >= deadline:
            return left
        await asyncio.sleep(POLL_S)


def outcome_words(
    deletion: Deletion, left: int | None, name: str, waited_s: float = WAIT_S
) -> tuple[str, Literal["information", "warning"]]:
    """The notification after watching: (message, severity)."""
    gone = len(deletion.covered) - (left or 0)
    if not deletion.covered:
        return (
            f"The service accepted the deletion of {deletion.choice.words()} of {name} (202); none of it was listed to count.",
            "information",
        )
    if left is None:
        return (
            f"The deletion was accepted, but the events of {name} could not be listed again to check it; press r to look.",
            "warning",
        )
    if left:
        message = (
            f"The service accepted the deletion, but {left} of the {len(deletion.covered)} events were still listed after {waited_s:g} s "
            "(deletion is asynchronous); press r on the Events tab to look again."
        )
        return message, "warning"
    return f"Deleted {gone} event{'s' if gone != 1 else ''} of {name}: {deletion.choice.words()}.", "information"
