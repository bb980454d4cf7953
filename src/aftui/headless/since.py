"""`--since`: a duration back from now (`90s`, `15m`, `1h`, `2d`, `1w`) or a moment (ISO 8601, UTC unless it says).

Stdlib only: the parser uses it as an argparse `type`, so a bad value is a
usage error (exit 2) before anything is sent.
"""

from __future__ import annotations

import argparse
import re
import time
from dataclasses import dataclass
from datetime import UTC, datetime

__all__ = ["Since", "parse_since"]

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
_DURATION = re.compile(r"^(\d+(?:\.\d+)?)\s*(s|m|h|d|w)$")
# A moment later than now by more than this is a mistake (a date of next month, a local time read as UTC
# hours ahead): it kept nothing and exited 0, which a script reads as "no errors". Less is clock skew.
FUTURE_SLACK_MS = 5 * 60 * 1000


@dataclass(frozen=True)
class Since:
    """A lower bound in epoch milliseconds, and the words the user gave."""

    ms: int
    text: str

    def keeps(self, ms: int | None) -> bool:
        return ms is not None and ms >= self.ms


def parse_since(text: str, *, now_ms: int | None = None) -> Since:
    """`1h` -> an hour ago; `2026-11-01T08:00` or `2026-11-01` -> that moment (UTC when no offset is given)."""
    raw = text.strip()
    now = int(time.time() * 1000) if now_ms is None else now_ms
    match = _DURATION.match(raw.lower())
    if match:
        seconds = float(match.group(1)) * _UNITS[match.group(2)]
        return Since(now - int(seconds * 1000), raw)
    try:
        moment = datetime.fromisoformat(raw.replace("Z", "+00:00").replace(" ", "T", 1))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{raw!r} is neither a duration (90s, 15m, 1h, 2d, 1w) nor a time (2026-11-01T08:00:00Z)"
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    ms = int(moment.timestamp() * 1000)
    if ms - now > FUTURE_SLACK_MS:
        utc_now = datetime.fromtimestamp(now / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        raise argparse.ArgumentTypeError(
            f"{raw!r} is in the future (it is {utc_now} now): nothing could be since then "
            "(a time without an offset is UTC)"
        )
    return Since(ms, raw)
