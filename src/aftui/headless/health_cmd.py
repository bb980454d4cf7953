"""`aftui health`: what is failing, since when, and is it fixed, for a script or a terminal without the TUI.

The Health pane's board (`aftui.health`), filled the same way: the journal's
day of errors and event times (`load_history`), then what the service keeps:
each known workflow's last 100 `$errors` (journaled on the way) and each
source's newest event; the hour's errors are looked up in the journal's
replay records, so a workflow whose every error of the hour was replayed ok
is `fixed`. One record a workflow and a source, what needs attention first.
Without a journal (`--no-journal`, or none can be opened) only what the
service keeps is counted, and replays are unknown: nothing reads as fixed.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

from ..api import ApiError, Client
from ..api.paging import iterate
from ..discovery import DETAILS_AT_ONCE, Discovery
from ..exitcodes import NETWORK
from ..export import ndjson
from ..health import HealthBoard, HealthRow, Subject, load_history, read_replays
from ..health.board import event_ms
from . import output
from .common import OK, make_client
from .journaling import Keeper
from .lists import source_fetch
from .output import iso_ms
from .schemas import COLUMNS, only, pick_fields
from .workflows import discover, org_key, read_details, user_known

__all__ = ["health", "health_record", "now_ms"]

MAX_ERRORS = 100  # what the service keeps of a workflow's $errors
FAILING = 1  # `--failing` found something failing
# A workflow whose errors could not be read, and that nothing read says is failing: not "ok". A check that
# said "nothing failing" and exit 0 while the service answered 503 to every read was blind and said so late.
UNKNOWN = "unknown"


async def health(args: argparse.Namespace) -> int:
    fields = pick_fields("health", args.fields)
    problems: list[str] = []
    unread: set[str] = set()  # the workflows whose errors the service did not give
    async with make_client(args) as client:
        with Keeper(not args.no_journal) as keeper:
            board, now, listed = await _filled(client, keeper, args.no_discover, problems, unread)
    for problem in problems:
        output.say(problem)
    records = [_told(health_record(r), unread) for r in board.rows(now)]
    records = [r for r in records if r["state"] in ("failing", UNKNOWN) or not args.failing]
    failing = any(r["state"] == "failing" for r in records)
    if args.json:
        for record in records:
            print(ndjson(only(record, fields)))
    elif records:
        if not args.fields:  # people: a deactivated workflow's state says so where they read it
            records = [{**r, "state": f"{r['state']} (off)"} if r["active"] is False else r for r in records]
        output.table(records, fields if args.fields else COLUMNS["health"])
    elif not listed:  # "nothing failing" of a service that did not answer read as all clear
        output.say("could not tell what is failing: see above")
    else:
        output.say("nothing failing in the last hour" if args.failing else "no workflow or source to report on")
    if not listed:  # partial: the workflows alone, and then a check cannot pass (a 1 if the journal says failing)
        return FAILING if args.failing and failing else NETWORK
    unknown = sum(r["state"] == UNKNOWN for r in records)
    if unknown and not failing:
        output.say(f"could not tell whether {unknown} workflow{'s are' if unknown != 1 else ' is'} failing: see above")
        return NETWORK if args.failing else OK
    # A check (cron, a page): with --failing, anything failing is exit 1, as a replay that failed again is.
    return FAILING if args.failing and failing else OK


def _told(record: dict[str, Any], unread: set[str]) -> dict[str, Any]:
    """A record as far as what was read can tell: `ok` from a workflow's unread errors is `unknown`."""
    if record["id"] in unread and record["state"] == "ok":
        return {**record, "state": UNKNOWN}
    return record


async def _filled(
    client: Client, keeper: Keeper, no_discover: bool, problems: list[str], unread: set[str]
) -> tuple[HealthBoard, int, bool]:
    """The board of the workspace's workflows and sources, as the Health pane has it; its now; and whether the
    sources were listed (else the board holds the workflows alone)."""
    known = user_known()
    found = Discovery() if no_discover else await discover(client, known, keeper, problems)
    await read_details(client, known, found)
    workflows = [
        Subject("workflow", ident, _name(entry) or _detail_name(found, ident))
        for ident, entry in known.in_workspace(org_key(client)).items()
    ]
    listed = await _sources(client, problems)
    sources = listed or []
    board = HealthBoard()
    for subject in [*workflows, *sources]:
        board.know(subject)
    now = now_ms()
    await _from_journal(board, keeper, [*workflows, *sources], now, problems)
    await _from_service(client, board, keeper, workflows, sources, problems, unread)
    board.prune(now)
    for ident, workflow in found.details.items():  # read above: off, no run comes to say whether it is fixed
        board.set_active(ident, workflow.active)
    await _replays(board, keeper, problems)
    return board, now, listed is not None


async def _sources(client: Client, problems: list[str]) -> list[Subject] | None:
    """The workspace's, as `aftui sources` and the Health pane list them; None when the service does not give
    them. In an outage the whole command failed on them, where the journal had the workflows' errors."""
    try:
        return [Subject("source", s.id, s.name or "") async for s in iterate(source_fetch(client))]
    except ApiError as error:
        problems.append(f"the sources could not be listed: only workflows are reported ({error.message})")
        return None


def now_ms() -> int:
    """The board's now (the service's clock is the machine's; tests set the emulator's)."""
    return int(time.time() * 1000)


def health_record(row: HealthRow) -> dict[str, Any]:
    subject = row.subject
    return {
        "kind": "health",
        "id": subject.id,
        "name": subject.name or None,
        "type": subject.kind,
        "state": row.state,
        "active": row.active,
        "errors_1h": row.errors_1h,
        "errors_24h": row.errors_24h,
        "replayed_ok_1h": row.replayed_ok_1h,
        "originals_1h": row.originals_1h,
        "last_error_at": iso_ms(row.last_error_ms),
        "last_error": row.last_error or None,
        "last_event_at": iso_ms(row.last_event_ms),
        "events_15m": sum(row.per_minute),
    }


async def _from_journal(
    board: HealthBoard, keeper: Keeper, subjects: list[Subject], now: int, problems: list[str]
) -> None:
    """What the journal holds: errors beyond the service's 100, and the times of events seen before."""
    journal = keeper.journal
    if journal is None:
        return
    try:
        history = await asyncio.to_thread(load_history, journal, subjects, now)
    except journal.errors as error:
        problems.append(f"the journal could not be read: only what the service keeps is counted ({error})")
        return
    history.fill(board)


async def _from_service(
    client: Client,
    board: HealthBoard,
    keeper: Keeper,
    workflows: list[Subject],
    sources: list[Subject],
    problems: list[str],
    unread: set[str],
) -> None:
    """Each workflow's retained `$errors`, and each one's and each source's newest event, a few requests at a time."""
    limit = asyncio.Semaphore(DETAILS_AT_ONCE)
    failed: dict[tuple[str, str], list[str]] = {}  # (what, the service's message): whose could not be read

    async def errors(subject: Subject) -> None:
        async with limit:
            try:
                page = await client.list_workflow_errors(subject.id, expand=True, limit=MAX_ERRORS)
            except ApiError as error:
                failed.setdefault(("errors", error.message), []).append(subject.name or subject.id)
                unread.add(subject.id)
                return
        keeper.keep(page.items, subject.id)
        for event in page.items:
            board.add_error(subject.id, event)

    async def newest(subject: Subject) -> None:
        read = client.list_source_events if subject.kind == "source" else client.list_workflow_events
        async with limit:
            try:
                page = await read(subject.id, limit=1)
            except ApiError as error:
                failed.setdefault(("events", error.message), []).append(subject.name or subject.id)
                return
        for event in page.items:
            board.note_last_event(subject.id, event_ms(event))

    await asyncio.gather(*(errors(s) for s in workflows), *(newest(s) for s in [*workflows, *sources]))
    problems.extend(_unread_words(what, message, names) for (what, message), names in failed.items())


def _unread_words(what: str, message: str, names: list[str]) -> str:
    """One line for the reads that failed alike: in an outage, a line per workflow and source filled stderr."""
    if len(names) == 1:
        return f"{names[0]}: its {what} could not be read: {message}"
    shown = ", ".join(sorted(names)[:3]) + (", …" if len(names) > 3 else "")
    whose = "workflows" if what == "errors" else "workflows and sources"
    return f"the {what} of {len(names)} {whose} could not be read: {message} ({shown})"


async def _replays(board: HealthBoard, keeper: Keeper, problems: list[str]) -> None:
    """The hour's errors looked up in the replay records: which were replayed ok (a teammate's too)."""
    journal, errors = keeper.journal, board.hour_errors()
    if journal is None or not errors:
        return
    try:
        log = await asyncio.to_thread(journal.replays)
        try:
            found = await asyncio.to_thread(read_replays, log, errors)
        finally:
            log.close()
    except journal.errors as error:
        problems.append(f"the journal's replays could not be read: none counts as fixed ({error})")
        return
    for subject_id, kinds in found.items():
        board.note_replays(subject_id, kinds)


def _name(entry: object) -> str:
    return str(entry.get("name") or "") if isinstance(entry, dict) else ""


def _detail_name(found: Discovery, ident: str) -> str:
    workflow = found.details.get(ident)
    return (workflow.name or "") if workflow is not None else ""
