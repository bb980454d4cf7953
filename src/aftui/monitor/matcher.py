"""`/` in the monitor: plain text (any case) or `/regex/` over payload, emitter and channel."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .records import Record


@dataclass(frozen=True)
class Matcher:
    pattern: re.Pattern[str]
    text: str  # what the user typed
    problem: str | None = None  # why a /regex/ was taken as plain text

    @classmethod
    def parse(cls, text: str) -> Matcher | None:
        """None for an empty filter. `/re/` is a regex (case-insensitive); anything else is matched literally."""
        if not text.strip():
            return None
        body = text[1:-1] if len(text) > 2 and text.startswith("/") and text.endswith("/") else None
        if body is not None:
            try:
                return cls(re.compile(body, re.IGNORECASE), text)
            except re.error as error:
                return cls(
                    re.compile(re.escape(text), re.IGNORECASE),
                    text,
                    f"not a valid regex ({error}); matching the text as typed",
                )
        return cls(re.compile(re.escape(text), re.IGNORECASE), text)

    def matches(self, record: Record) -> bool:
        return self.pattern.search(record.search_text) is not None

    def spans(self, text: str) -> list[tuple[int, int]]:
        """Where `text` matches, for highlighting (empty matches skipped)."""
        return [m.span() for m in self.pattern.finditer(text) if m.end() > m.start()]
