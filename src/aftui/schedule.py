"""Timer schedules in words, for people: "every 15 minutes", "weekdays at 09:00 (UTC)"."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any


def describe_timer(timer: Mapping[str, Any]) -> str:
    """Human words for a timer: "every 15 minutes", "weekdays at 09:00 (UTC)", "cron ... (UTC)".

    Takes either form, `{intervalSeconds}`/`{cron}` or `{cron, interval_seconds}`.
    A cron schedule always names its zone because its fields are wall-clock
    times; an interval names it only when a zone other than UTC was given.
    """
    zone = timer.get("timezone")
    cron = timer.get("cron")
    if isinstance(cron, str) and cron:
        return f"{_describe_cron(' '.join(cron.split()))} ({zone or 'UTC'})"
    interval = timer.get("interval_seconds", timer.get("intervalSeconds"))
    if not isinstance(interval, int) or isinstance(interval, bool) or interval <= 0:
        return "no schedule"
    text = _describe_interval(interval)
    return text if zone in (None, "UTC") else f"{text} ({zone})"


def _every(count: int, unit: str) -> str:
    return f"every {unit}" if count == 1 else f"every {count} {unit}s"


def _describe_interval(seconds: int) -> str:
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds % size == 0:
            return _every(seconds // size, unit)
    return _every(seconds, "second")


def _clock(hour: str, minute: str) -> str:
    return f"{int(hour):02d}:{int(minute):02d}"


_DAY_NAMES = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
# Common cron shapes in words; anything else is shown as the expression itself.
_CRON_WORDS: tuple[tuple[re.Pattern[str], Callable[..., str]], ...] = tuple(
    (re.compile(pattern), words)
    for pattern, words in (
        (r"\* \* \* \* \*", lambda: "every minute"),
        (r"\*/(\d+) \* \* \* \*", lambda n: _every(int(n), "minute")),
        (r"0 \* \* \* \*", lambda: "every hour"),
        (r"0 \*/(\d+) \* \* \*", lambda n: _every(int(n), "hour")),
        (r"(\d+) (\d+) \* \* \*", lambda m, h: f"every day at {_clock(h, m)}"),
        (r"(\d+) (\d+) \* \* 1-5", lambda m, h: f"weekdays at {_clock(h, m)}"),
        (r"(\d+) (\d+) \* \* ([0-7])", lambda m, h, d: f"every {_DAY_NAMES[int(d) % 7]} at {_clock(h, m)}"),
        (r"(\d+) (\d+) (\d+) \* \*", lambda m, h, d: f"every month on day {int(d)} at {_clock(h, m)}"),
    )
)


def _describe_cron(expression: str) -> str:
    for pattern, words in _CRON_WORDS:
        if match := pattern.fullmatch(expression):
            return words(*match.groups())
    return f"cron {expression}"
