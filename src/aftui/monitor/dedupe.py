"""Per-feed memory of what was delivered, so nothing appears twice.

Event ids of the service are `<epoch-ms>-<seq>` and grow per emitter, so the
largest key seen is enough: a stream that reconnects, a poll that overlaps
the previous one, or history read from the journal that overlaps the first
poll all fall at or below it. Ids of another form (the real service may send
them) are remembered in a bounded set instead.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..api.eventid import event_key
from ..api.rawevent import RawEvent

if TYPE_CHECKING:
    from ..api.models import EventSummary

OTHER_IDS = 2000  # ids without a key remembered per feed


class FeedCursor:
    def __init__(self) -> None:
        self.last_key: tuple[int, int] | None = None
        self.last_id: str | None = None  # the id of `last_key`, to resume a stream from
        self._others: OrderedDict[str, None] = OrderedDict()

    def resume_from(self, event_id: str) -> None:
        """Stand after `event_id` (the newest journaled): events up to it are not delivered again."""
        key = event_key(event_id)
        if key is not None and (self.last_key is None or key > self.last_key):
            self.last_key, self.last_id = key, event_id
        elif key is None and self.last_id is None:
            self.last_id = event_id  # an id of another form: the stream resumes from it; dedupe by the set
            self._others[event_id] = None

    def fresh_of(self, events: Iterable[EventSummary | RawEvent]) -> list[EventSummary | RawEvent]:
        """The events offered for the first time, in their order (each is then remembered)."""
        fresh = self.fresh
        return [event for event in events if fresh(event)]

    def fresh(self, event: EventSummary | RawEvent) -> bool:
        """True the first time an event is offered; it is then remembered."""
        event_id = event.id
        key = event.key
        if key is not None:
            if self.last_key is not None and key <= self.last_key:
                return False
            self.last_key, self.last_id = key, event_id
            return True
        if not event_id:
            return True  # nothing to know it by: shown, never deduplicated
        if event_id in self._others:
            return False
        self._others[event_id] = None
        if len(self._others) > OTHER_IDS:
            self._others.popitem(last=False)
        return True
