"""`aftui replay ERROR_ID... | --workflow WORKFLOW --since 1h [--patch JSON] [--set 'PATH = VALUE'] [--dry-run]`.

The same replay as the TUI's (`aftui.replay`): the request that started the
failed run is sent again to the workflow's HTTP trigger or the HTTP source
that fed it, with only safe headers and an `x-aftui-replay` header, one at
a time, oldest first; its outcome is read from the workflow's events and
`$errors`. Each replay is recorded in the journal's `replays` table before
it is sent and completed with its outcome, as the TUI records it; the
errors read and the events seen on the way go to the journal too.

Errors are named by id (their workflow is found in the journal, else among
the known workflows' errors, else given with --workflow), or as a
workflow's errors since a time, optionally only those of one failure
(`--fingerprint`, from `aftui errors --group`). Such a selection leaves out
what the journal says needs no replay (replayed ok, pending, or the error a
replay led to), so running the same command twice sends nothing twice;
`--again` keeps them. Errors named by id are sent as named, but for one
whose replay's outcome is unknown (it may have run): `--again` sends that. `--patch` (an RFC 7386
merge patch) and `--set` (path = value) edit each payload; every edit is
checked on every payload before anything is sent. `--dry-run` shows what
would be sent and sends nothing (a read-only profile allows that, and
nothing else). On a terminal it asks first; `--yes` for scripts.

Exit 0 when every replay succeeded; 1 when one failed again, was refused,
was not sent, could not be replayed or its outcome is unknown; 5 when the
service stopped the run before every error was sent.
"""

from __future__ import annotations

import argparse
import logging
import sqlite3
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..api import Client, NotFoundError, ReadOnlyError
from ..api.eventid import event_key
from ..api.models import EventSummary
from ..exitcodes import NETWORK
from ..export import ndjson
from ..fingerprint import error_key
from ..replay import Planner, ReplayPlan, ReplayResult, full_errors, original_order, replay_one
from ..replay.patch import PatchError, apply_edits, parse_assignment, parse_patch
from ..replay.states import ReplayState, needs_replay
from ..text import visible
from . import output
from .common import FAILED, OK, confirm, make_client
from .errors_cmd import errors_by_id, older_from_journal, read_errors, read_replay_states, steps_of
from .journaling import Keeper
from .names import Names
from .output import event_ms
from .schemas import only, pick_fields
from .since import Since
from .workflows import user_known

if TYPE_CHECKING:
    from ..journal.backend import ReplayStore

log = logging.getLogger(__name__)

__all__ = ["replay"]

BODY_SHOWN = 4000  # characters of a body a dry run shows (--json has it whole)


class Edits:
    """What --patch and --set do to each payload; read (and a bad one refused) before anything is asked."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.patch: Any = None
        self.assignments: list[str] = list(args.set or [])
        text: str | None = args.patch
        if text is not None:
            if text.startswith("@"):
                try:
                    text = Path(text[1:]).expanduser().read_text(encoding="utf-8")
                except (OSError, UnicodeDecodeError) as error:
                    raise ValueError(f"--patch {text}: the file cannot be read ({error})") from None
            try:
                self.patch = parse_patch(text)
            except PatchError as error:
                raise ValueError(f"--patch: {error}") from None
        for assignment in self.assignments:  # its form is read now: it was said against the first error only
            try:
                parse_assignment(assignment)
            except PatchError as error:
                raise ValueError(f"--set: {error}") from None

    @property
    def any(self) -> bool:
        return self.patch is not None or bool(self.assignments)

    def body(self, plan: ReplayPlan) -> Any:
        try:
            return apply_edits(plan.payload, self.patch, self.assignments)
        except PatchError as error:
            raise ValueError(f"error {plan.event_id}: the edit cannot be made: {error}; nothing was sent") from None


async def replay(args: argparse.Namespace) -> int:
    edits = Edits(args)  # a bad patch is said before anything else
    fields = pick_fields("replay_plan" if args.dry_run else "replay", args.fields)
    if not args.error_ids and not args.workflow:
        raise ValueError("name the errors to replay (ERROR_ID...), or a workflow with --workflow WORKFLOW --since WHEN")
    if not args.error_ids and args.since is None and args.fingerprint is None:
        raise ValueError("--workflow replays the errors --since a time (or of one --fingerprint): say which")
    if args.error_ids and (args.since is not None or args.fingerprint is not None):
        # Ids are sent as named: the filter was ignored, and an error outside it was sent all the same.
        given = "--since" if args.since is not None else "--fingerprint"
        raise ValueError(
            f"{given} chooses among a workflow's errors (with --workflow), and errors named by id are replayed "
            "as named: give the ids, or the selection, not both"
        )
    malformed = [i for i in args.error_ids if event_key(i) is None]
    if malformed:
        raise ValueError(
            f"{visible(malformed[0], 80)!r} is not an error id: they read like 1795896786205-0 "
            "(`aftui errors WORKFLOW` lists them)"
        )
    if args.timeout <= 0:
        raise ValueError("--timeout must be a positive number of seconds")
    async with make_client(args) as client:
        if client.read_only and not args.dry_run:
            raise ReadOnlyError("replaying errors (--dry-run shows what would be sent)")
        known = user_known()
        with Keeper(True) as keeper:
            names = Names(client, known=known, journal=keeper.path)
            workflow_id = await names.workflow(args.workflow) if args.workflow else None
            held = _Held()
            errors = await _errors(client, args, workflow_id, keeper)
            batches = await _needing_replay(client, errors, keeper, args, held)
            planner = Planner(client)
            plans: list[ReplayPlan] = []
            for wf, events in batches.items():
                for event in original_order(await full_errors(client, events, wf)):
                    plans.append(await planner.plan(event, wf))
            bodies = [edits.body(plan) if edits.any and plan.replayable else None for plan in plans]
            if not plans:
                output.say("no errors to replay" + (f" since {args.since.text}" if args.since else ""))
                return FAILED if held.unknown else OK
            # A plan the service's outage stopped (a 503 reading the workflow) is no refusal: exit 5, as any
            # command the service did not answer, so a script tries again rather than give the error up.
            down = NETWORK if any(p.transient for p in plans) else FAILED
            if args.dry_run:
                _show_plans(plans, bodies, edits, args, fields)
                # As the same command without --dry-run would end: an error that cannot be replayed is a 1.
                return OK if all(p.replayable for p in plans) else down
            replayable = sum(1 for p in plans if p.replayable)
            targets = ", ".join(sorted({p.workflow_name or p.workflow_id for p in plans}))
            if replayable:  # "Replay 0 errors …?" was asked of a run with none to send
                confirm(
                    f"Replay {replayable} error{'s' if replayable != 1 else ''} of {visible(targets, 80)}"
                    + (" with the edit" if edits.any else " as they were" if replayable != 1 else " as it was")
                    + _left_out(plans)
                    + "? Each runs the workflow again.",
                    args,
                )
            results = await _send_all(client, plans, bodies, edits, keeper, args, fields)
    _summary(results)
    reached = {r.plan.event_id for r in results}
    if any(p.replayable and p.event_id not in reached for p in plans):
        return NETWORK  # stopped by an outage before sending them all: those not sent are tried again
    # An outcome unknown is a 1, as the help says: it was sent and may have run. A 5 read as "try again", and a
    # retry sent the order again; a second run now leaves it out (`_needing_replay`).
    ok = results and all(r.outcome.kind == "succeeded" for r in results) and not held.unknown
    return OK if ok else down


# --- which errors -----------------------------------------------------------------------------------------


async def _errors(
    client: Client, args: argparse.Namespace, workflow_id: str | None, keeper: Keeper
) -> dict[str, list[EventSummary]]:
    """The errors to replay, by workflow."""
    since: Since | None = args.since
    if args.error_ids:
        # Found where the journal saw them first, --workflow only among the places looked in: read alone, it
        # missed an error past its last 100 that the journal had, and one of another workflow was "not found".
        found = await errors_by_id(
            client,
            list(dict.fromkeys(args.error_ids)),
            keeper,
            whole=True,
            hint="name its workflow with --workflow",
            also=workflow_id,
        )
        for wf, (events, _) in found.items():
            if workflow_id is not None and wf != workflow_id:
                output.say(
                    f"{', '.join(e.id or '' for e in events)}: an error of {wf}, not of {workflow_id}; taken as {wf}'s"
                )
        return {wf: events for wf, (events, _) in found.items()}
    assert workflow_id is not None  # `replay` refused a call with neither ids nor --workflow
    events, workflow = await read_errors(client, workflow_id, keeper)
    chosen = [e for e in events if e.error() is not None and (since is None or since.keeps(event_ms(e)))]
    if since is not None:
        chosen = older_from_journal(keeper, workflow_id, since, events) + chosen
    if args.fingerprint:
        steps = steps_of(workflow)
        known = [e for e in events if e.error() is not None] + chosen
        if not any(_fingerprint(e, steps, workflow_id).startswith(args.fingerprint) for e in known):
            # A typo in a script read as "nothing left to replay" (exit 0).
            raise NotFoundError(
                f"no error of {workflow_id} has a fingerprint starting {args.fingerprint!r}: "
                f"aftui errors {workflow_id} --group lists them"
            )
        chosen = [e for e in chosen if _fingerprint(e, steps, workflow_id).startswith(args.fingerprint)]
    return {workflow_id: chosen} if chosen else {}


def _left_out(plans: list[ReplayPlan]) -> str:
    """` (1 cannot be replayed, 2 not ready: the service did not answer)`, or "" when every plan can be sent."""
    not_ready = sum(1 for p in plans if not p.replayable and p.transient)
    cannot = sum(1 for p in plans if not p.replayable) - not_ready
    parts = [f"{cannot} cannot be replayed"] if cannot else []
    if not_ready:  # in an outage: "cannot be replayed" read as final
        parts.append(f"{not_ready} not ready: the service did not answer")
    return f" ({', '.join(parts)})" if parts else ""


class _Held:
    """Errors named by id left out because a replay of theirs may have run (its outcome unknown)."""

    unknown = 0


async def _needing_replay(
    client: Client, batches: dict[str, list[EventSummary]], keeper: Keeper, args: argparse.Namespace, held: _Held
) -> dict[str, list[EventSummary]]:
    """What a selection (--since, --fingerprint) sends: not the errors already replayed ok or still pending, nor those
    a replay led to (their original is in the count), as the TUI's group replay; said on stderr, `--again` keeps
    them. Errors named by id are sent as asked, with a word for those replayed before; not those whose replay
    may have run (outcome unknown, after a look for it), unless `--again`: a script that tried again sent the
    order twice."""
    chosen = bool(args.error_ids) or args.again
    out: dict[str, list[EventSummary]] = {}
    for workflow_id, events in batches.items():
        states = await read_replay_states(keeper, workflow_id, events, client=client)
        if states is None:  # no journal to read (said): what was replayed cannot be told apart
            out[workflow_id] = events
            continue
        done = {e.id: states[e.id] for e in events if e.id and not needs_replay(states.get(e.id))}
        if args.error_ids and not args.again:
            unknown = {i for i, s in done.items() if s.kind == "unknown" and not s.is_replay}
            for event_id in unknown:
                output.say(
                    f"{event_id}: {_replayed_words(done[event_id])}: it may have run, so it is not sent again; "
                    "--again sends it (aftui get ERROR_ID looks for its outcome)"
                )
            held.unknown += len(unknown)
            events = [e for e in events if e.id not in unknown]
            done = {i: s for i, s in done.items() if i not in unknown}
        if chosen:
            # Never a replay's own error beside its original: the same request twice in one run.
            twice = {i for i, s in done.items() if s.is_replay and s.replay_of in states}
            # Said before the question: "sent again, as asked" read as done, and as asked for, before either.
            why = "named" if args.error_ids else "--again"
            verb = f"{why}: it would be sent again" if args.dry_run else f"{why}: it is sent again once confirmed"
            for event_id, state in done.items():
                if event_id in twice:
                    output.say(f"{event_id}: {_replayed_words(state)}, which is sent instead")
                else:
                    output.say(f"{event_id}: {_replayed_words(state)}; {verb} (a new run of the workflow)")
            out[workflow_id] = [e for e in events if e.id not in twice]
            continue
        if done:
            counts = Counter("a replay's own error" if s.is_replay else s.words for s in done.values())
            what = ", ".join(f"{n} {words}" for words, n in counts.items())
            output.say(f"{len(done)} of {len(events)} left out ({what}); --again sends them too")
        out[workflow_id] = [e for e in events if e.id not in done]
    return {workflow_id: events for workflow_id, events in out.items() if events}


def _replayed_words(state: ReplayState) -> str:
    if state.is_replay:
        return f"the error of a replay of {state.replay_of}" if state.replay_of else "the error of a replay"
    return state.words


def _fingerprint(event: EventSummary, steps: dict[str, str], workflow_id: str) -> str:
    key = error_key(event, steps, workflow_id)
    return key.fingerprint if key else ""


# --- dry run ---------------------------------------------------------------------------------------------


def _plan_record(plan: ReplayPlan, body: Any, edits: Edits) -> dict[str, Any]:
    request = plan.request
    if request is not None and edits.any:
        request = request.with_body(body)
    return {
        "kind": "replay_plan",
        "error_id": plan.event_id,
        "workflow_id": plan.workflow_id,
        "replayable": plan.replayable,
        "trigger": plan.trigger,
        "reason": plan.reason,
        "warning": plan.warning,
        "method": request.method if request else None,
        "url": request.full_url if request else None,
        "headers": request.headers if request else None,
        "body": request.body if request else None,
        "edited": bool(request and request.edited),
    }


def _show_plans(
    plans: list[ReplayPlan], bodies: list[Any], edits: Edits, args: argparse.Namespace, fields: tuple[str, ...]
) -> None:
    records = [_plan_record(plan, body, edits) for plan, body in zip(plans, bodies, strict=True)]
    plan_of = {plan.event_id: plan for plan in plans}
    if args.json:
        for record in records:
            print(ndjson(only(record, fields)))
    elif args.fields:
        output.table(records, fields)
    else:
        for record in records:
            if record["replayable"]:
                edited = " (edited)" if record["edited"] else ""
                print(f"{record['error_id']}  would send {record['method']} {visible(record['url'], 200)}{edited}")
                print(f"  via   {visible(record['trigger'], 200)}")
                body = record["body"]
                text = body if isinstance(body, str) else ndjson(body)
                print(f"  body  {visible(text, BODY_SHOWN)}")
                if record["warning"]:
                    print(f"  note  {visible(record['warning'], 300)}")
            elif plan_of[record["error_id"]].transient:
                why = visible(record["reason"] or "", 300)
                print(f"{record['error_id']}  not ready to replay: {why}; the service may be down for a moment")
            else:
                print(f"{record['error_id']}  cannot be replayed: {visible(record['reason'] or '', 300)}")
    replayable = sum(1 for p in plans if p.replayable)
    output.say(f"dry run: {replayable} of {len(plans)} would be sent; nothing was sent")


# --- sending ---------------------------------------------------------------------------------------------


def _replay_log(keeper: Keeper) -> ReplayStore | None:
    """The journal's replay log (the team's, on a shared journal); the user's file when no journal is open."""
    from ..journal.location import default_path
    from ..journal.replays import ReplayLog

    journal = keeper.journal
    errors = journal.errors if journal is not None else (sqlite3.Error, OSError)
    try:
        return journal.replays() if journal is not None else ReplayLog(default_path())
    except errors as error:
        output.say(f"the journal cannot be opened: the replays are sent but not recorded ({error})")
        return None


def _result_record(result: ReplayResult) -> dict[str, Any]:
    plan, request, outcome = result.plan, result.request, result.outcome
    return {
        "kind": "replay",
        "replay_id": result.replay_id,
        "error_id": plan.event_id,
        "workflow_id": plan.workflow_id,
        "outcome": outcome.kind,
        "detail": outcome.detail,
        "status_code": result.sent.status if result.sent else None,
        "edited": bool(request and request.edited),
        "url": request.full_url if request else None,
        "outcome_event_id": outcome.event.id if outcome.event else None,
    }


async def _send_all(
    client: Client,
    plans: list[ReplayPlan],
    bodies: list[Any],
    edits: Edits,
    keeper: Keeper,
    args: argparse.Namespace,
    fields: tuple[str, ...],
) -> list[ReplayResult]:
    replay_log = _replay_log(keeper)
    results: list[ReplayResult] = []
    styled = not args.json and output.colour_enabled(sys.stdout)
    try:
        for index, (plan, body) in enumerate(zip(plans, bodies, strict=True), 1):
            if not args.json and plan.replayable:  # one that cannot be is said by its result line, not "replaying"
                output.say(f"[{index}/{len(plans)}] {plan.event_id}: replaying…", style=output.DIM)
            result = await replay_one(
                client,
                plan,
                body=body,
                edited=edits.any and plan.replayable,
                log=replay_log,
                on_seen=_seen(keeper, plan.workflow_id),
                watch_timeout=args.timeout,
            )
            results.append(result)
            record = _result_record(result)
            if args.json:
                print(ndjson(only(record, fields)), flush=True)
            elif not args.fields:
                print(_result_line(record, styled), flush=True)
            if result.outcome.blind and index < len(plans):  # sending on would send blind (an outage)
                left = len(plans) - index
                output.say(f"stopped: the service did not answer, so its outcome could not be seen; {left} not sent")
                break
    finally:
        if replay_log is not None:
            replay_log.close()
    if args.fields and not args.json:
        output.table([_result_record(r) for r in results], fields)
    return results


def _seen(keeper: Keeper, workflow_id: str) -> Callable[[list[EventSummary]], None]:
    """What the outcome watcher calls with the workflow's new events and errors: into the journal."""

    def keep(events: list[EventSummary]) -> None:
        keeper.keep(events, workflow_id)

    return keep


def _result_line(record: dict[str, Any], styled: bool) -> str:
    from ..replay import OUTCOME_WORDS

    words = OUTCOME_WORDS.get(record["outcome"], record["outcome"])
    mark = f"{words:<23}"
    if styled:
        mark = output.colour(mark, output.GREEN if record["outcome"] == "succeeded" else output.RED)
    tail = f"  ({record['replay_id']})" if record["replay_id"] else ""
    return f"{record['error_id']}  {mark}  {visible(record['detail'], 300)}{tail}"


def _summary(results: list[ReplayResult]) -> None:
    from ..replay import BulkSummary

    summary = BulkSummary(total=len(results), results=results)
    output.say(summary.line())
