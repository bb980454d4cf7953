"""Lines and tables for people, NDJSON for pipes; times with their dates; colour only where it may go.

stdout carries data only (rows, events, records); every message goes to
stderr (`say`). Everything the service sent is passed through
`aftui.text.visible` before it reaches a terminal. Colour is used only on a
terminal, never with `NO_COLOR` set (https://no-color.org) nor with
`TERM=dumb`, and never in `--json` output.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, TextIO

from rich.cells import cell_len

from ..api.models import EventSummary
from ..export import ndjson
from ..text import clip, pad, visible

__all__ = [
    "colour",
    "event_line",
    "iso",
    "say",
    "table",
    "terminal_width",
    "when",
]

BOLD, DIM, RED, GREEN, YELLOW, RESET = "\x1b[1m", "\x1b[2m", "\x1b[31m", "\x1b[32m", "\x1b[33m", "\x1b[0m"
MAX_CELL = 60  # characters a table cell is cut to when the line has no room for more; --json has the whole value
WIDE_CELL = 400  # the most of one cell a table shows, however wide the room


def colour_enabled(stream: TextIO) -> bool:
    """Whether escape sequences of colour may be written to `stream`."""
    if os.environ.get("NO_COLOR", ""):
        return False
    if os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or odd stream
        return False


def colour(text: str, style: str, stream: TextIO | None = None) -> str:
    """`text` in `style` when `stream` (stdout by default) is a terminal that takes colour."""
    return f"{style}{text}{RESET}" if colour_enabled(stream or sys.stdout) else text


def say(message: str, *, style: str | None = None) -> None:
    """A message for the person at the terminal: on stderr, never on stdout."""
    text = colour(message, style, sys.stderr) if style else message
    print(f"aftui: {text}", file=sys.stderr, flush=True)


PIPE_WIDTH = 1000  # a line for people going to a file or a pipe: cut only what no one reads on one line


def terminal_width() -> int:
    """The width lines are cut to: the terminal's (or $COLUMNS), else wide for a pipe or a file (grep sees it all)."""
    if os.environ.get("COLUMNS", "").isdigit():
        return int(os.environ["COLUMNS"])
    try:
        tty = sys.stdout.isatty()
    except (AttributeError, ValueError):
        tty = False
    return shutil.get_terminal_size((120, 24)).columns if tty else PIPE_WIDTH


# --- times -------------------------------------------------------------------------------------------


def iso(value: datetime | None) -> str | None:
    """A timestamp as the --json records carry it: ISO 8601 in UTC with a `Z`, or None."""
    if value is None:
        return None
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def iso_ms(ms: int | None) -> str | None:
    return iso(datetime.fromtimestamp(ms / 1000, tz=UTC)) if ms is not None else None


def when(ms: int | None) -> str:
    """`YYYY-MM-DD HH:MM:SS` in UTC, for people; dashes when the time is not known."""
    if ms is None:
        return "----------  --:--:--"
    try:
        return datetime.fromtimestamp(ms / 1000, tz=UTC).strftime("%Y-%m-%d %H:%M:%S")
    except (OverflowError, OSError, ValueError):
        return "?"


def event_ms(event: EventSummary) -> int | None:
    """When an event was emitted: its indexed time, else the time its `<ms>-<seq>` id carries."""
    if event.indexed_at_ms is not None:
        return event.indexed_at_ms
    key = event.key
    return key[0] if key is not None else None


# --- events --------------------------------------------------------------------------------------------


def event_line(event: EventSummary, *, width: int = 100, who: str | None = None, styled: bool = False) -> str:
    """`YYYY-MM-DD HH:MM:SS  id  emitter  channel  payload` (UTC), the payload as compact JSON clipped to the width.

    `who`: what names the emitter (its name, where the caller knows it), else its id. `styled`: an error's
    line in red (the caller knows whether its stream takes colour).
    """
    who = who or event.metadata.emitter_id or "?"
    head = (
        f"{when(event_ms(event))}  {visible(event.id or '-', 24)}  {visible(who, 16):<16}  {visible(event.channel, 16)}"
    )
    payload = _summary(event)
    room = max(20, width - len(head) - 2)
    line = f"{head}  {visible(payload, room)}"
    return f"{RED}{line}{RESET}" if styled and event.error() is not None else line


def _summary(event: EventSummary) -> str:
    error = event.error()
    if error is not None:
        name = error.original_context.workflow_name or error.original_context.workflow_id or ""
        return f"ERROR {error.error.code or ''}: {error.error.msg or ''} [{name}]"
    payload = event.event
    text = (
        payload
        if isinstance(payload, str)
        else json.dumps(payload, ensure_ascii=False, separators=(",", ":"), default=str)
    )
    return f"(truncated) {text}" if event.truncated else text


def say_if_cut(event_id: str | None, line: str) -> None:
    """On stderr, that an event's payload was cut at aftui's nesting depth: the line alone does not say it."""
    from ..api.jsontext import CUT_NOTE, KEPT_DEPTH

    if CUT_NOTE.lstrip("… ") in line:  # its words: JSON lines escape the ellipsis
        say(f"event {visible(event_id or '?', 40)} is nested deeper than {KEPT_DEPTH} levels: what is deeper is cut")


# --- tables ----------------------------------------------------------------------------------------------


# A subscription to the default channel has an empty event_name: people read the word `--channel` takes
# for it, not a blank (the JSON keeps "").
DEFAULT_CHANNEL = "default"


def cell(value: Any, field: str = "", limit: int = MAX_CELL, *, short_times: bool = True) -> str:
    """One value of a record as a table shows it: plain, on one line, control characters made visible.

    `short_times`: an ISO time to the minute, as a table has room for (one record's lines give it whole)."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if field == "event_name" and value == "":
        return DEFAULT_CHANNEL
    if isinstance(value, str) and _iso_time(field, value):
        if short_times:
            return value[:10] + " " + value[11:16]  # an ISO time of a record: minutes are enough in a table
        if value.endswith("Z"):  # whole, as the tables write their times: "T" and "Z" read as noise
            return value[:10] + " " + value[11:-1] + " UTC"
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, dict) and isinstance(v.get("kind"), str) for v in value):
            return visible(", ".join(v["kind"] for v in value), limit)  # a workflow's triggers: their kinds
        if all(isinstance(v, (str, int, float)) for v in value):
            return visible(", ".join(str(v) for v in value), limit)
        return visible(json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str), limit)
    if isinstance(value, dict):
        return visible(json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str), limit)
    return visible(value, limit)


def _iso_time(field: str, value: str) -> bool:
    """An ISO time of a record (`at`, `created_at`, `last_error_at`...), as `iso` writes them."""
    return (field == "at" or field.endswith("_at")) and len(value) >= 16 and value[10:11] == "T"


def fitted(widths: Sequence[int], room: int) -> list[int]:
    """Column widths within `room`: the widest cut first, none below MAX_CELL (the line may be longer then).

    Cells were cut to MAX_CELL whatever the room: a wide terminal (or COLUMNS=250) still read
    "https://hooks.slack.example/services/…", where the whole URL had fitted."""
    caps = list(widths)
    while sum(caps) > room:
        widest = max(range(len(caps)), key=caps.__getitem__)
        if caps[widest] <= MAX_CELL:
            break
        caps[widest] = max(MAX_CELL, caps[widest] - (sum(caps) - room))
    return caps


def table(records: Iterable[Mapping[str, Any]], fields: Sequence[str], *, out: TextIO | None = None) -> int:
    """Print `records` as plain aligned columns under a header of the field names; return the row count.

    The last column is not padded, so lines end where their text does.
    """
    stream = out or sys.stdout
    rows = [[cell(record.get(field), field, WIDE_CELL) for field in fields] for record in records]
    if not rows:
        return 0
    headers = [field.upper() for field in fields]
    widths = [max(cell_len(headers[i]), *(cell_len(row[i]) for row in rows)) for i in range(len(fields))]
    caps = fitted(widths, terminal_width() - 2 * (len(fields) - 1))
    if caps != widths:
        rows = [[clip(value, cap) for value, cap in zip(row, caps, strict=True)] for row in rows]
        widths = [max(cell_len(headers[i]), *(cell_len(row[i]) for row in rows)) for i in range(len(fields))]
    header = "  ".join(pad(h, w) for h, w in zip(headers, widths, strict=True)).rstrip()
    print(colour(header, BOLD, stream), file=stream)
    for row in rows:
        print("  ".join(pad(c, w) for c, w in zip(row, widths, strict=True)).rstrip(), file=stream)
    return len(rows)


def one_record(record: Mapping[str, Any], *, as_json: bool) -> None:
    """What a change made, on stdout: one NDJSON line for a script (`--json`), else `field  value` lines."""
    if as_json:
        print(ndjson(record))
    else:
        key_values(record, list(record))


def key_values(record: Mapping[str, Any], fields: Sequence[str], *, out: TextIO | None = None) -> None:
    """One record for people: `field  value` a line, nested values as compact JSON (cut at the terminal)."""
    stream = out or sys.stdout
    width = max((len(f) for f in fields), default=0)
    room = max(40, terminal_width() - width - 2)
    for field in fields:
        shown = cell(record.get(field), field, room * 4, short_times=False)
        print(f"{field.ljust(width)}  {clip(shown, room)}", file=stream)
