"""Which workflow errors are the same failure: a fingerprint of (workflow, step, error name, message).

Two runs that failed the same way rarely fail with the same words: the order
number, the customer's id, the time and the amount differ. The message is
normalised before it is compared: quoted values, timestamps, UUIDs, ids
(`ord_31826`, `dc_iBwUbtU`), e-mail addresses, long hex strings and every
number become placeholders, and runs of spaces one space. What is left is
the failure's shape: `Missing required field: customer_email` stays as it
is; `Order ord_1 total 12.50 exceeds limit 10` becomes
`Order <id> total <n> exceeds limit <n>`.

No Textual here: `aftui errors --group` and the TUI's grouping share it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .api.models import EventSummary, WorkflowError


__all__ = ["ErrorGroup", "ErrorKey", "error_key", "fingerprint", "group_errors", "normalise_message"]

MAX_MESSAGE = 2000  # characters of a message looked at: a 1 MB message must not cost a second

_QUOTED = re.compile(r""""(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`|“[^”]*”|‘[^’]*’""")
_TIME = re.compile(
    r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b"
    r"|\b\d{1,2}:\d{2}:\d{2}(?:\.\d+)?\b"
)
_UUID = re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")
_EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
# prefix_rest where the rest carries a digit or both cases: ord_31826, dc_iBwUbtU, cus_Q1x (not customer_email)
_PREFIXED = re.compile(r"\b[A-Za-z]{1,8}_[A-Za-z0-9]+\b")
_HEX = re.compile(r"\b(?=[0-9a-fA-F]*\d)(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{8,}\b")
_NUMBER = re.compile(r"[-+]?\d+(?:[.,]\d+)*")
_SPACES = re.compile(r"\s+")


def _id_like(match: re.Match[str]) -> str:
    rest = match.group(0).split("_", 1)[1]
    mixed = len(rest) >= 4 and any(c.isupper() for c in rest) and any(c.islower() for c in rest)
    if any(c.isdigit() for c in rest) or mixed:
        return "<id>"
    return match.group(0)


def normalise_message(message: str) -> str:
    """The message with what differs from run to run replaced by placeholders (see the module)."""
    text = message[:MAX_MESSAGE]
    text = _QUOTED.sub('"<value>"', text)
    text = _TIME.sub("<time>", text)
    text = _UUID.sub("<id>", text)
    text = _EMAIL.sub("<email>", text)
    text = _PREFIXED.sub(_id_like, text)
    text = _HEX.sub("<hex>", text)
    text = _NUMBER.sub("<n>", text)
    return _SPACES.sub(" ", text).strip()


@dataclass(frozen=True)
class ErrorKey:
    """What makes two errors the same failure."""

    workflow_id: str
    step: str | None  # its namespace when the workflow was read, else its id: for people
    name: str
    message: str  # normalised
    # The step's id, which the fingerprint is made of: by the namespace when the workflow could be read, the
    # fingerprint of one failure changed in an outage (and differed from Health's alerts, made without it).
    cell: str | None = field(default=None, compare=False)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.workflow_id, self.cell, self.name, self.message)


def fingerprint(workflow_id: str, step: str | None, name: str, message: str) -> str:
    """12 hex digits naming the failure; `message` is expected normalised (as `ErrorKey` holds it)."""
    text = "\x1f".join((workflow_id, step or "", name, message))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]


def name_and_message(error: WorkflowError) -> tuple[str, str]:
    """The error's name (`code`) and message; from the first line of the stack when the record lacks them."""
    name, message = error.error.code or "", error.error.msg or ""
    first = (error.error.stack or "").strip().splitlines()[0] if (error.error.stack or "").strip() else ""
    if first and (not name or not message):
        head, sep, tail = first.partition(": ")
        if not name:
            name = head if sep else "Error"
        if not message:
            message = tail if sep else first
    return name or "Error", message


def error_key(
    event: EventSummary, steps: Mapping[str, str] | None = None, workflow_id: str | None = None
) -> ErrorKey | None:
    """The key of a `$errors` event (None for an event of another shape).

    `steps` maps a step's id (`cellId`) to its namespace, read from the workflow; without it the id stands in.
    """
    error = event.error()
    if error is None:
        return None
    wf = workflow_id or error.original_context.workflow_id or event.metadata.emitter_id or ""
    cell = error.error.cellId
    step = (steps or {}).get(cell, cell) if cell else None
    name, message = name_and_message(error)
    return ErrorKey(wf, step, name, normalise_message(message), cell)


@dataclass
class ErrorGroup:
    """The errors of one failure: how many, when first and last, which ones."""

    key: ErrorKey
    events: list[EventSummary] = field(default_factory=list)
    sample: str = ""  # one message as it was, for people

    @property
    def count(self) -> int:
        return len(self.events)

    @property
    def first_ms(self) -> int | None:
        times = [t for t in (_ms(e) for e in self.events) if t is not None]
        return min(times) if times else None

    @property
    def last_ms(self) -> int | None:
        times = [t for t in (_ms(e) for e in self.events) if t is not None]
        return max(times) if times else None


def _ms(event: EventSummary) -> int | None:
    if event.indexed_at_ms is not None:
        return event.indexed_at_ms
    return event.key[0] if event.key is not None else None


def group_errors(
    events: Iterable[EventSummary], steps: Mapping[str, str] | None = None, workflow_id: str | None = None
) -> list[ErrorGroup]:
    """The errors grouped by failure: the biggest group first, then the most recent; events oldest first."""
    groups: dict[ErrorKey, ErrorGroup] = {}
    for event in events:
        key = error_key(event, steps, workflow_id)
        if key is None:
            continue
        group = groups.get(key)
        if group is None:
            error = event.error()
            group = groups[key] = ErrorGroup(key, sample=name_and_message(error)[1] if error else "")
        group.events.append(event)
    for group in groups.values():
        group.events.sort(key=lambda e: e.key or (_ms(e) or 0, 0))
    return sorted(groups.values(), key=lambda g: (-g.count, -(g.last_ms or 0), g.key.fingerprint))
