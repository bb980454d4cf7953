"""`aftui errors WORKFLOW [--since 1h] [--group]`: what failed, one line an error or one line a failure.

The service keeps a workflow's last 100 errors; they are read in full
(`expand=event`), journaled, and printed oldest first. With `--since`, the
errors of that span the journal saw and the service no longer keeps come
first, so the count is Health's. `--group` puts
together the errors of the same failure (`aftui.fingerprint`: the
workflow, the step, the error's name and its message with numbers, ids,
quoted values and times normalised): how many, first and last seen, and
the fingerprint that `aftui replay --fingerprint` takes.

Each error says what the journal knows of its replays (`replay.states`, as
the TUI's Errors tab): never replayed, replayed ok, failed again...; a group
says whether it is fixed (every original replayed ok). Unknown (null) when
no journal is read.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING, Any

from ..api import ApiError, Client, NotFoundError, is_transient
from ..api.models import EventSummary, Workflow
from ..exitcodes import NETWORK
from ..export import ndjson
from ..fingerprint import ErrorGroup, error_key, group_errors, name_and_message
from ..health.watch import SERVICE_KEEPS, errors_beyond_window
from ..replay.settle import look_again, record_found, unknown_of
from ..replay.states import STATE_WORDS, ReplayState, group_state, replay_states, touching_rows
from ..text import visible
from . import output
from .common import OK, make_client
from .journaling import Keeper, journal_path
from .names import Names
from .output import event_ms, iso_ms
from .schemas import COLUMNS, only, pick_fields
from .since import Since
from .workflows import discover, org_key, user_known

if TYPE_CHECKING:
    from ..journal.backend import ReplayStore
    from ..journal.replays import ReplayRow

__all__ = [
    "error_record",
    "errors",
    "errors_by_id",
    "group_record",
    "older_from_journal",
    "read_errors",
    "steps_of",
]

MAX_ERRORS = SERVICE_KEEPS  # a workflow's errors the service keeps, all read
JOURNAL_SCAN = 5000  # newest `$errors` rows of the journal looked through for an error's workflow
ERRORS_AT_ONCE = 5  # known workflows whose errors are read at once, looking for an id


async def read_errors(client: Client, workflow_id: str, keeper: Keeper) -> tuple[list[EventSummary], Workflow | None]:
    """The workflow's retained errors in full, oldest first (journaled), and the workflow when it can be read."""
    workflow: Workflow | None = None
    try:
        workflow = await client.get_workflow(workflow_id)
    except NotFoundError:
        raise
    except ApiError as error:
        output.say(f"{workflow_id}: its steps cannot be read ({error.message}): steps are shown by id")
    page = await client.list_workflow_errors(workflow_id, expand=True, limit=MAX_ERRORS)
    keeper.keep(page.items, workflow_id)
    return sorted(page.items, key=lambda e: e.key or (event_ms(e) or 0, 0)), workflow


ErrorsOf = dict[str, tuple[list[EventSummary], Workflow | None]]  # workflow id -> its errors, and it when read


async def errors_by_id(
    client: Client, wanted: list[str], keeper: Keeper, *, whole: bool, hint: str, also: str | None = None
) -> ErrorsOf:
    """Errors by id, by workflow (with the workflow when it can be read), in `wanted`'s order.

    Each error's workflow is found in the journal first, else among the known workflows' retained
    errors, else among those the workspace's subscriptions and errors name (a discovery, as `aftui
    workflows` runs). An error the service no longer keeps (it keeps a workflow's last 100) is the
    journal's copy; `whole` leaves out a copy the journal cut (a replay needs the payload whole).
    `hint` ends the message of an id found nowhere. `also` is a workflow to look in with the known ones
    (`replay --workflow`), first among them.
    """
    found = await _journaled_by_workflow(client, wanted, keeper, whole)
    known, looked = user_known(), set(found)
    for discovering in (False, True):
        missing = [i for i in wanted if not any(e.id == i for es, _ in found.values() for e in es)]
        if not missing:
            break
        if discovering:
            await discover(client, known, None, [])
        places = [also] if also is not None else []
        todo = [wf for wf in dict.fromkeys([*places, *known.in_workspace(org_key(client))]) if wf not in looked]
        looked.update(todo)
        found.update(await _retained(client, todo, set(missing), keeper))
    seen = {e.id for es, _ in found.values() for e in es}
    still = [i for i in wanted if i not in seen]
    if still:
        raise NotFoundError(
            f"no error {', '.join(still)} in the journal or among the workspace's workflows' last "
            f"{MAX_ERRORS} errors; {hint}"
        )
    order = {ident: n for n, ident in enumerate(wanted)}
    return {wf: (sorted(es, key=lambda e: order[e.id or ""]), w) for wf, (es, w) in found.items() if es}


async def _journaled_by_workflow(client: Client, wanted: list[str], keeper: Keeper, whole: bool) -> ErrorsOf:
    """The wanted errors the journal saw, by workflow: the service's copy while it keeps it, else the journal's."""
    journaled = _journaled_errors(keeper, set(wanted))
    found: ErrorsOf = {}
    for wf in dict.fromkeys(wf for wf, _ in journaled.values()):
        try:
            events, workflow = await read_errors(client, wf, keeper)
        except ApiError as error:
            if not is_transient(error):
                raise
            # In an outage the journal's copy is what there is: `get ERROR_ID` failed with the 503 itself.
            output.say(f"{wf}: its errors could not be read ({error.message}): the journal's copies are given")
            events, workflow = [], None
        ids = [i for i in wanted if i in journaled and journaled[i][0] == wf]
        retained = {e.id: e for e in events if e.id in ids}
        kept = [retained.get(i) or journaled[i][1] for i in ids]
        found[wf] = ([e for e in kept if e.error() is not None and not (whole and e.truncated)], workflow)
    return found


async def _retained(client: Client, workflows: list[str], wanted: set[str], keeper: Keeper) -> ErrorsOf:
    """Each workflow's retained errors among `wanted` (a workflow not found has none), read a few at once."""
    gate = asyncio.Semaphore(ERRORS_AT_ONCE)

    async def look(wf: str) -> tuple[str, list[EventSummary], Workflow | None]:
        async with gate:
            try:
                events, workflow = await read_errors(client, wf, keeper)
            except NotFoundError:
                return wf, [], None
            return wf, [e for e in events if e.id in wanted], workflow

    looked = await asyncio.gather(*(look(wf) for wf in workflows))
    return {wf: (events, workflow) for wf, events, workflow in looked if events}


def _journaled_errors(keeper: Keeper, wanted: set[str]) -> dict[str, tuple[str, EventSummary]]:
    """error id -> (the workflow whose `$errors` the journal saw it on, the journal's copy)."""
    journal = keeper.journal
    if journal is None:
        return {}
    try:
        rows = journal.search("", channel="$errors", limit=JOURNAL_SCAN)
    except journal.errors:
        return {}
    return {e.id: (e.metadata.emitter_id, e) for e in rows if e.id in wanted and e.metadata.emitter_id}


def older_from_journal(keeper: Keeper, workflow_id: str, since: Since, kept: list[EventSummary]) -> list[EventSummary]:
    """The workflow's errors since `since` that the journal has and the service no longer keeps, oldest first
    (`errors_beyond_window`): an hour of more than 100 errors is listed, counted and replayed whole."""
    journal = keeper.journal
    if journal is None:
        return []
    try:
        older = errors_beyond_window(journal, workflow_id, kept, since.ms)
    except journal.errors as error:
        output.say(f"the journal could not be read for older errors ({error}): only the service's {MAX_ERRORS}")
        return []
    return [e for e in reversed(older) if e.error() is not None and since.keeps(event_ms(e))]


def kept_errors(keeper: Keeper, workflow_id: str, since: Since | None) -> list[EventSummary]:
    """The workflow's errors the journal has, oldest first: since `since`, else its newest MAX_ERRORS (as many
    as the service keeps)."""
    journal = keeper.journal
    if journal is None:
        return []
    try:
        if since is not None:
            found = journal.errors_since(workflow_id, since.ms, JOURNAL_SCAN)
        else:
            found = journal.errors_since(workflow_id, 0, MAX_ERRORS)
    except journal.errors as error:
        output.say(f"the journal could not be read ({error})")
        return []
    return sorted(found, key=lambda e: e.key or (event_ms(e) or 0, 0))


def steps_of(workflow: Workflow | None) -> dict[str, str]:
    """A step's id (`cellId` in an error) -> its namespace."""
    return {s.id: s.namespace for s in (workflow.steps if workflow else []) if s.id}


async def read_replay_states(
    keeper: Keeper, workflow_id: str, events: list[EventSummary], *, client: Client | None = None
) -> dict[str, ReplayState] | None:
    """What the journal knows of the replays of `events`, by error id; None when there is no journal to read.

    With `client`, a replay sent with its outcome unknown is looked for again first (`replay.settle`): an
    outage's unknown replays otherwise stayed unknown, left out of every selection for good."""
    journal = keeper.journal
    if journal is None:
        return None
    try:
        log = journal.replays()
        try:
            rows = touching_rows(log, workflow_id, events)
            if client is not None and unknown_of(rows) and await _settled(client, log, rows, events):
                rows = touching_rows(log, workflow_id, events)
            return replay_states(events, rows)
        finally:
            log.close()
    except journal.errors as error:
        output.say(f"the journal's replays cannot be read: replay states unknown ({error})")
        return None


async def _settled(client: Client, log: ReplayStore, rows: list[ReplayRow], events: list[EventSummary]) -> bool:
    """Look again for the outcomes of the unknown replays among `rows`; each found is said and recorded."""
    unknown = unknown_of(rows)
    try:
        found = await look_again(client, rows, {e.id: e for e in events if e.id})
    except ApiError as error:
        output.say(f"{_replays(len(unknown))} with an unknown outcome: not looked for again ({error.message})")
        return False
    recorded = record_found(log, found)
    for f in recorded:
        words = STATE_WORDS["succeeded" if f.outcome.kind == "succeeded" else "failed"]
        output.say(
            f"{f.row.event_id}: its replay {f.row.replay_id}, sent with the outcome unknown, is now seen: {words}"
        )
    left = len(unknown) - len(recorded)
    if left:
        output.say(
            f"{_replays(left)} still with an unknown outcome: nothing of it in the service's last errors and events"
        )
    return bool(recorded)


def _replays(n: int) -> str:
    return "1 replay" if n == 1 else f"{n} replays"


def error_record(
    event: EventSummary, workflow_id: str, workflow: Workflow | None, states: dict[str, ReplayState] | None = None
) -> dict[str, Any]:
    error = event.error()
    key = error_key(event, steps_of(workflow), workflow_id)
    state = states.get(event.id or "", ReplayState()) if states is not None else None
    name, message = name_and_message(error) if error else ("", "")
    context = error.original_context if error else None
    return {
        "kind": "error",
        "id": event.id,
        "workflow_id": workflow_id,
        "workflow_name": (workflow.name if workflow else None) or (context.workflow_name if context else None),
        "at": iso_ms(event_ms(event)),
        "step": key.step if key else None,
        "error": name or None,
        "message": message,
        "fingerprint": key.fingerprint if key else None,
        "source_type": context.source_type if context else None,
        "trigger_id": context.emitter_id if context else None,
        "replay": state.kind if state is not None else None,
        "replay_of": state.replay_of if state is not None else None,
        # What `get` prints for people: a script had it only from --raw, whose shape is the service's.
        "stack": (error.error.stack or None) if error else None,
        "original_event": error.original_event if error else None,
    }


def group_record(group: ErrorGroup, states: dict[str, ReplayState] | None = None) -> dict[str, Any]:
    state = group_state(group, states) if states is not None else None
    return {
        "kind": "error_group",
        "fingerprint": group.key.fingerprint,
        "workflow_id": group.key.workflow_id,
        "step": group.key.step,
        "error": group.key.name,
        "message": group.key.message,
        "sample": group.sample,
        "count": group.count,
        "replay": state.words() if state is not None else None,
        "fixed": state.fixed if state is not None else None,
        "first_at": iso_ms(group.first_ms),
        "last_at": iso_ms(group.last_ms),
        "error_ids": [e.id for e in group.events],
    }


async def errors(args: argparse.Namespace) -> int:
    kind = "error_group" if args.group else "error"
    fields = pick_fields(kind, args.fields)
    count: int | None = args.n
    if count is not None and count < 1:
        raise ValueError("-n must be at least 1")
    since: Since | None = args.since
    async with make_client(args) as client:
        names = Names(client, known=user_known(), journal=journal_path())
        workflow_id = await names.workflow(args.workflow)
        with Keeper(not args.no_journal) as keeper:
            down: ApiError | None = None
            try:
                events, workflow = await read_errors(client, workflow_id, keeper)
            except ApiError as error:
                if not is_transient(error) or keeper.journal is None:
                    raise
                down, workflow = error, None  # in an outage, what the journal kept: the command failed on the 503
                events = kept_errors(keeper, workflow_id, since)
            if since is not None and down is None:  # past the service's window, what the journal saw (as Health)
                events = older_from_journal(keeper, workflow_id, since, events) + events
            # All of them, not only those shown: a replay's error links to its original, shown or not.
            states = await read_replay_states(keeper, workflow_id, events, client=None if down else client)
    shown = [e for e in events if e.error() is not None and (since is None or since.keeps(event_ms(e)))]
    if count is not None:
        shown = shown[-count:]
    if args.group:
        records = [group_record(g, states) for g in group_errors(shown, steps_of(workflow), workflow_id)]
    else:
        records = [error_record(e, workflow_id, workflow, states) for e in shown]
    if args.json:
        for record in records:
            print(ndjson(only(record, fields)))
    elif args.group or args.fields:
        output.table(records, fields if args.fields else COLUMNS[kind])
    else:
        _lines(records)
    if not records and not args.json:
        named = (
            f"{visible(workflow.name, 80)} ({workflow_id})" if workflow is not None and workflow.name else workflow_id
        )
        output.say(f"no errors of {named}" + (f" since {since.text}" if since else ""))
    if down is not None:  # partial: what the service kept since the journal last read it is not known
        span = f"since {since.text}" if since else f"(its newest {MAX_ERRORS} at most)"
        output.say(f"the service did not answer ({down.message}): these are the journal's errors {span}")
        return NETWORK
    return OK


def _lines(records: list[dict[str, Any]]) -> None:
    """`YYYY-MM-DD HH:MM:SS  id  step  Name: message`, in red on a terminal."""
    width = output.terminal_width()
    red = output.colour_enabled(sys.stdout)
    for record in records:
        when = (record["at"] or "")[:19].replace("T", " ") or "-"
        head = f"{when}  {visible(record['id'] or '-', 24)}  {visible(record['step'] or '-', 20)}"
        text = f"{record['error'] or 'Error'}: {record['message']}"
        replay = record["replay"]
        if record["replay_of"]:
            text = f"[a replay of {record['replay_of']}] {text}"
        elif replay not in (None, "never"):
            text = f"[{STATE_WORDS.get(replay, replay)}] {text}"
        line = f"{head}  {visible(text, max(20, width - len(head) - 2))}"
        print(output.colour(line, output.RED) if red else line)
