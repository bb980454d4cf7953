"""Whether an error was replayed, and how that went: read from the journal's replay records.

Every replay aftui sends (from the TUI or `aftui replay`) has a row in the
journal's `replays` table, keyed by the error it replayed and completed with
its outcome and the event that showed it. So for a list of errors:

- an error's own state is its newest replay's outcome: never replayed,
  pending (sent, outcome not in yet), succeeded, failed again, or another
  outcome (refused, unknown, not sent); but once any replay of it succeeded,
  it is replayed ok whatever came after (a run went through: sending it
  again is a second order, not a fix); else, once one was sent with its
  outcome unknown, it is unknown (it may have run);
- an error that a replay led to (the replay failed again) is a replay of the
  original: found by the row's outcome event, or by the `x-aftui-replay`
  header the replayed request carried (then even a replay whose outcome was
  never recorded is recognised);
- the link goes both ways: the original lists the errors its replays became.

A group of errors is fixed when every original in it was last replayed with
success; the errors its replays became do not count as failures of their own.

No Textual here: the Errors tab and its groups share it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..api.models import EventSummary
from ..fingerprint import ErrorGroup
from ..journal.replays import ReplayRow
from .request import REPLAY_HEADER

if TYPE_CHECKING:
    from ..journal.backend import ReplayStore

__all__ = [
    "STATE_WORDS",
    "GroupState",
    "ReplayState",
    "group_state",
    "needs_replay",
    "read_states",
    "replay_id_of",
    "replay_states",
    "still_failing",
    "touching_rows",
]

STATE_WORDS: dict[str, str] = {
    "never": "never replayed",
    "pending": "replay pending",
    "succeeded": "replayed ok",
    "failed": "failed again",
    "rejected": "replay refused",
    "unknown": "replay outcome unknown",
    "not sent": "replay not sent",
    "skipped": "not replayable",
}


@dataclass(frozen=True)
class ReplayState:
    """What the journal knows of one error's replays."""

    kind: str = "never"  # "never", "succeeded" if any replay was, else the newest's outcome ("pending", "failed", ...)
    replays: tuple[ReplayRow, ...] = ()  # of this error, newest first
    replay_of: str | None = None  # this error is what a replay of that error led to (its id)
    replay_id: str | None = None  # ... and that replay's id
    became: tuple[str, ...] = ()  # the errors this error's replays led to (failed again), newest first

    @property
    def words(self) -> str:
        return STATE_WORDS.get(self.kind, self.kind)

    @property
    def is_replay(self) -> bool:
        return self.replay_id is not None


def replay_id_of(event: EventSummary) -> str | None:
    """The replay id an error's original request carried (`x-aftui-replay`), if it was a replay."""
    error = event.error()
    original: Any = error.original_event if error is not None else None
    headers = original.get("headers") if isinstance(original, dict) else None
    if not isinstance(headers, dict):
        return None
    for name, value in headers.items():
        if str(name).lower() == REPLAY_HEADER and isinstance(value, str) and value:
            return value
    return None


def replay_states(events: Iterable[EventSummary], rows: Iterable[ReplayRow]) -> dict[str, ReplayState]:
    """Each error's state by its id, from the replay rows that touch them (`ReplayLog.touching`)."""
    listed = list(events)
    by_event: dict[str, list[ReplayRow]] = {}
    by_replay: dict[str, ReplayRow] = {}
    by_outcome: dict[str, ReplayRow] = {}
    for row in rows:
        by_event.setdefault(row.event_id, []).append(row)
        by_replay[row.replay_id] = row
        if row.outcome_event_id:
            by_outcome[row.outcome_event_id] = row
    for newest_first in by_event.values():
        newest_first.sort(key=lambda r: r.started_at, reverse=True)
    states: dict[str, ReplayState] = {}
    for event in listed:
        ident = event.id or ""
        replays = tuple(by_event.get(ident, []))
        header = replay_id_of(event)
        parent = by_outcome.get(ident) or (by_replay.get(header) if header else None)
        became = tuple(r.outcome_event_id for r in replays if r.outcome == "failed" and r.outcome_event_id)
        states[ident] = ReplayState(
            kind=_kind(replays),
            replays=replays,
            replay_of=parent.event_id if parent is not None else None,
            replay_id=(parent.replay_id if parent is not None else None) or header,
            became=became,
        )
    return {ident: _followed(ident, states) for ident in states}


def _kind(replays: tuple[ReplayRow, ...]) -> str:
    """The state of an error with these replays (newest first). A replay that succeeded is not undone by a later
    one that failed: the newest alone said "failed again" of an error whose order had gone through, and the
    group's bulk replay sent it a third time."""
    if not replays:
        return "never"
    if any(r.outcome == "succeeded" for r in replays):
        return "succeeded"
    # Sent, and nothing seen of it (the service did not answer the watch, in an outage; its aftui died while it
    # watched): it may have run. A later replay that failed said "failed again", and the next bulk replay
    # forwarded the order a second time.
    if any(r.outcome_now == "unknown" for r in replays):
        return "unknown"
    return replays[0].outcome


def read_states(log: ReplayStore, workflow_id: str, events: list[EventSummary]) -> dict[str, ReplayState]:
    """What `log` knows of a workflow's errors, by id. Blocking (SQLite, the team's server)."""
    return replay_states(events, touching_rows(log, workflow_id, events))


def touching_rows(log: ReplayStore, workflow_id: str, events: list[EventSummary]) -> list[ReplayRow]:
    """The replay rows touching a workflow's errors (`ReplayStore.touching`: their replays, those that led to them,
    those their requests name), newest first. Blocking."""
    ids = [e.id for e in events if e.id]
    carried = [r for r in (replay_id_of(e) for e in events) if r]
    return log.touching(workflow_id, ids, carried)


def _followed(ident: str, states: dict[str, ReplayState]) -> ReplayState:
    """An error whose replay failed again takes the state of the error that replay became, when that one was
    replayed in turn: fixed on the second try is fixed."""
    state = states[ident]
    seen = {ident}
    current = state
    while current.kind == "failed" and current.became and current.became[0] in states:
        nxt = current.became[0]
        if nxt in seen:
            break
        seen.add(nxt)
        current = states[nxt]
        if current.kind == "never":
            return state
    if current is state or current.kind == "never":
        return state
    return ReplayState(current.kind, state.replays, state.replay_of, state.replay_id, state.became)


@dataclass
class GroupState:
    """A group's errors by replay state: the originals only (an error a replay led to is counted in `replays`)."""

    counts: dict[str, int] = field(default_factory=dict)
    replays: int = 0

    @property
    def originals(self) -> int:
        return sum(self.counts.values())

    def count(self, kind: str) -> int:
        return self.counts.get(kind, 0)

    @property
    def fixed(self) -> bool:
        return self.originals > 0 and self.count("succeeded") == self.originals

    def words(self) -> str:
        """`fixed`, or what is left: `2 failed again · 1 pending · 3 never replayed`."""
        if self.fixed:
            return "fixed (all replayed ok)"
        order = ("failed", "pending", "never", "succeeded", "rejected", "unknown", "not sent", "skipped")
        parts = [f"{self.count(k)} {STATE_WORDS.get(k, k)}" for k in order if self.count(k)] + [
            f"{k}: {n}" for k, n in self.counts.items() if k not in order and n
        ]
        if self.replays:  # in the group's count, not in these: "41" beside parts that made 40 read as a slip
            parts.append(f"{self.replays} a failed replay's own")
        return " · ".join(parts) or "no errors"


def group_state(group: ErrorGroup, states: Mapping[str, ReplayState]) -> GroupState:
    result = GroupState()
    for event in group.events:
        state = states.get(event.id or "", ReplayState())
        if state.is_replay:
            result.replays += 1
            continue
        result.counts[state.kind] = result.counts.get(state.kind, 0) + 1
    return result


def needs_replay(state: ReplayState | None) -> bool:
    """Not replayed ok, not waiting for an outcome, not sent with an outcome unknown (it may have run), and not
    itself what a replay led to (its original is replayed)."""
    return state is None or (not state.is_replay and state.kind not in ("succeeded", "pending", "unknown"))


def still_failing(group: ErrorGroup, states: Mapping[str, ReplayState]) -> list[EventSummary]:
    """What replaying a group sends: its originals not already replayed with success (nor pending)."""
    return [event for event in group.events if needs_replay(states.get(event.id or ""))]
