"""A streamed event kept as the text it came in, parsed only when someone looks.

The monitor takes in tens of thousands of events a second and shows the few
dozen that fit on screen; validating each into an `EventSummary` cost more
than reading it off the network. A `RawEvent` carries what the hot path needs
without parsing (the id, its ordering key, the emitter) and the SSE `data`
text, which the journal reads its row from (journal/rows.py) and the UI
parses on first use with `parse()`, by the same rules as every other event.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from . import jsontext

if TYPE_CHECKING:
    from .models import EventSummary


@cache
def summary_validator() -> Callable[[str], EventSummary]:
    """`EventSummary.model_validate_json` without the per-call cost of its Python wrapper.

    The validator's own method: a summary from JSON text in one pass, with no Python frame of ours
    around it. Built on first use, not at import: building it cost the start about 10 ms, and the
    first screen shows no event.
    """
    from .models import EventSummary  # here, as everywhere on the stream's path: pydantic is not imported at start

    return EventSummary.__pydantic_validator__.validate_json


@dataclass(slots=True, eq=False)
class RawEvent:
    """An SSE event whose id is `<ms>-<seq>` and whose data looks like a JSON object, not parsed yet."""

    id: str
    key: tuple[int, int]
    data: str
    name: str  # the SSE `event:` field ("message" when absent): the channel of a bare payload
    emitter_id: str
    _parsed: EventSummary | None = field(default=None, repr=False)

    def parse(self) -> EventSummary:
        """The summary, parsed once (a bare payload, or JSON that is not JSON, becomes a summary too)."""
        if self._parsed is None:
            self._parsed = summary_of_data(self.data, self.id, self.name, self.emitter_id)
        return self._parsed


def summary_of_data(data: str, event_id: str | None, name: str, source_id: str) -> EventSummary:
    """A summary from a stream's `data:`, or a bare payload as the real service may send it."""
    if data.startswith("{"):
        try:
            summary = summary_validator()(data)
        except ValueError:
            pass
        else:
            given = summary.__pydantic_fields_set__
            if "event" in given and ("id" in given or "metadata" in given):
                return summary
    return other_event(data, event_id, name, source_id)


def other_event(data: str, event_id: str | None, name: str, source_id: str) -> EventSummary:
    """What is not a summary: a summary-shaped dict pydantic-core would not parse, or a bare payload."""
    from .models import EventMetadata, EventSummary, without_nulls

    try:
        value: Any = jsontext.loads(data)
    except ValueError:
        value = data
    if isinstance(value, dict) and "event" in value and ("id" in value or "metadata" in value):
        for attempt in (value, without_nulls(EventSummary, value)):  # then with `metadata: null` read as none
            try:
                return EventSummary.model_validate(attempt)
            except ValueError:
                continue
    channel = name if name != "message" else None
    return EventSummary(id=event_id or None, event=value, metadata=EventMetadata(emitter_id=source_id, name=channel))
