"""Replays sent with the outcome unknown, looked for again once the service answers.

A replay's outcome is watched for 20 s after it is sent (`watch.OutcomeWatcher`). In an outage the looks
fail, and a slow run may take longer: the replay is then recorded "unknown", and an error with an unknown
replay is left out of every selection, since it may have run. Left so, it stayed unknown for good, and
every later replay of it asked "it may have run" with nothing more to go on.

Its traces are still there to find while the service keeps them (its last 100 errors and events of the
workflow): an error whose request carries the replay's `x-aftui-replay` id is the replay failing again; an
emitted event that carries the id, or the payload sent, is the replay run through. Found, the journal's
row takes that outcome, the same as if the watch had seen it (`states` reads it like any other).
Not found, it stays unknown: nothing is guessed.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..api import Client
from ..api.models import EventSummary
from .request import payload_of
from .watch import Outcome, outcome_in, replay_header

if TYPE_CHECKING:
    from ..journal.backend import ReplayStore
    from ..journal.replays import ReplayRow

log = logging.getLogger(__name__)

__all__ = ["Found", "look_again", "record_found", "unknown_of"]

LOOKED_AT = 100  # events of each list read: as many as the service keeps
# A payload match counts from this long before the send: the service's clock and this machine's may differ by
# a little, and a run is indexed by the service's. Earlier runs of the same payload are other replays' (taken).
CLOCK_SLACK_S = 60.0


@dataclass(frozen=True)
class Found:
    """The outcome of a replay that was unknown, found later: failed again or succeeded, with the event that
    tells (the new error, or the event emitted)."""

    row: ReplayRow
    outcome: Outcome

    @property
    def event(self) -> EventSummary:
        assert self.outcome.event is not None  # `outcome_in` names the event it found
        return self.outcome.event


def unknown_of(rows: Iterable[ReplayRow]) -> list[ReplayRow]:
    """The replays among `rows` whose outcome is still to be found (with a workflow to look in): unknown, or left
    pending by an aftui that died."""
    return [r for r in rows if r.outcome_now == "unknown" and r.workflow_id]


async def look_again(client: Client, rows: Iterable[ReplayRow], originals: Mapping[str, EventSummary]) -> list[Found]:
    """The outcomes now to be seen of the unknown replays among `rows` (two reads a workflow, none if none).

    `rows`: the replays touching the errors at hand (an outcome already another's is not taken twice);
    `originals`: the errors they replayed, by id, whose payload tells a replay not edited by its body.
    Raises `ApiError` when the service does not answer: they stay unknown.
    """
    rows = list(rows)
    wanted = unknown_of(rows)
    if not wanted:
        return []
    taken: set[str | None] = {r.outcome_event_id for r in rows if r.outcome_event_id}
    by_workflow: dict[str, list[ReplayRow]] = defaultdict(list)
    for row in wanted:
        by_workflow[row.workflow_id or ""].append(row)
    found: list[Found] = []
    for workflow_id, its_rows in by_workflow.items():
        errors = (await client.list_workflow_errors(workflow_id, limit=LOOKED_AT, expand=True)).items
        emitted = (await client.list_workflow_events(workflow_id, limit=LOOKED_AT, expand=True)).items
        for row in sorted(its_rows, key=lambda r: r.started_at):  # the oldest first takes what matches both
            seen = _seen(row, errors, emitted, _sent_body(row, originals), taken)
            if seen is not None:
                taken.add(seen.event.id)
                found.append(seen)
    return found


def record_found(store: ReplayStore, found: Iterable[Found]) -> list[Found]:
    """Write what was found into the journal; those recorded (not settled meanwhile by a teammate's aftui).
    Blocking (SQLite, the team's server)."""
    recorded = [
        f
        for f in found
        if store.settled(
            f.row.replay_id,
            outcome=f.outcome.kind,
            detail=f.outcome.detail,
            outcome_emitter_id=f.event.metadata.emitter_id or f.row.workflow_id or "",
            outcome_event_id=f.event.id or "",
        )
    ]
    if recorded:
        log.info("replays settled after an unknown outcome: %s", ", ".join(f.row.replay_id for f in recorded))
    return recorded


def _sent_body(row: ReplayRow, originals: Mapping[str, EventSummary]) -> Any:
    """The payload the replay sent, as far as it is known: the original's. An edited replay's edit is not kept
    (the journal records that it was edited, not its body); an edit mostly mends a field and keeps the ids,
    and `carries` asks for every id and half of the other fields, so the original still tells its run."""
    original = originals.get(row.event_id)
    error = original.error() if original is not None else None
    return payload_of(error.original_event) if error is not None else None


def _seen(
    row: ReplayRow, errors: list[EventSummary], emitted: list[EventSummary], sent_body: Any, taken: set[str | None]
) -> Found | None:
    """What the lists show of the replay `row`, or None when nothing of it is there.

    Only what came after it was sent counts, and nothing another replay's outcome already is: a payload
    match alone (a workflow that passes on only the body) would otherwise take the run of an earlier send."""
    since_ms = int((row.started_at - CLOCK_SLACK_S) * 1000)

    def ours(event: EventSummary, request: Any) -> bool:
        """Matched by the replay's own id; or by its payload alone, and then only an event after the send."""
        if event.id in taken:
            return False
        return replay_header(request) == row.replay_id or (event.indexed_at_ms or 0) >= since_ms

    outcome = outcome_in(errors, emitted, row.replay_id, sent_body, accept=ours)
    if outcome is None:
        return None
    later = " (found later: unknown when sent)" if outcome.kind == "failed" else " (found later)"
    return Found(row, replace(outcome, detail=outcome.detail + later))
