"""`aftui tail`: events as they arrive, from sources (SSE) and workflows' `$errors` (polled), until Ctrl-C.

Sources and workflows are named by id or by name; people's lines call them
by name. `--since` first prints what the service still keeps from then on
(a source's last 100 events, a workflow's last 100 errors), then follows
from there: the stream resumes after the newest one listed
(`Last-Event-ID`), the poll counts only errors after it, so nothing is lost
in between and nothing is printed twice.
It runs until Ctrl-C or SIGTERM, both a clean stop with exit code 0.

The connection's state goes to stderr, one line a change: connected (and
from which event it resumes), lost and reconnecting (and why), resumed
after a drop from which event, failed. `--quiet` keeps only failures.
Everything seen is journaled, as the TUI journals it (`--no-journal`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..api import ApiError, Client
from ..api.client import KEPT_EVENTS
from ..api.models import EventSummary, Page
from ..api.poll import EventPoller
from ..api.stream import SourceStream, StreamState
from ..export import event_record, ndjson
from ..text import visible
from . import output
from .common import OK, make_client
from .journaling import Keeper, journal_path
from .names import Candidate, Names
from .output import event_ms
from .since import Since
from .workflows import user_known

# (emitter id, event) as they arrive, from every stream and poller, to the one printer.
Events = asyncio.Queue[tuple[str, EventSummary]]

POLL_INTERVAL_S = 2.0
MAX_RETAINED = KEPT_EVENTS  # what the service keeps of each emitter, all read for --since


async def tail(args: argparse.Namespace) -> int:
    if not args.source_ids and not args.errors:
        raise ValueError("name at least one source (id or name), or --errors WORKFLOW")
    queue: Events = asyncio.Queue()
    async with make_client(args) as client:
        client.deadline_ends_all = False  # a tail never gives up: --max-time bounds each reconnect, refuses none
        names = Names(client, known=user_known(), journal=journal_path())
        sources = [await names.resolve(text, ("source",)) for text in args.source_ids]
        workflows = [await names.resolve(text, ("workflow",)) for text in args.errors]
        labels = await _labels(names, sources, workflows)
        source_ids = list(dict.fromkeys(s.id for s in sources))
        workflow_ids = list(dict.fromkeys(w.id for w in workflows))
        with Keeper(not args.no_journal) as keeper:
            printer = Printer(args, keeper, labels)
            starts = Starts()
            if args.since is not None:
                starts = await _backlog(client, args, keeper, source_ids, workflow_ids, queue)
            tasks = [
                asyncio.create_task(_stream(client, sid, queue, args, keeper, labels[sid], starts.events.get(sid)))
                for sid in source_ids
            ]
            tasks += [
                asyncio.create_task(_errors(client, wid, queue, args, labels[wid], starts.errors.get(wid)))
                for wid in workflow_ids
            ]
            printing = asyncio.create_task(printer.run(queue))
            try:
                # The printer too: a reader gone (`| head -1`, `| grep -m1`) ends the tail, not only a signal.
                await _until_stopped([*tasks, printing])
            finally:
                for task in (*tasks, printing):
                    task.cancel()
                await asyncio.gather(*tasks, printing, return_exceptions=True)
                printer.drain(queue)
    return OK


async def _labels(names: Names, sources: list[Candidate], workflows: list[Candidate]) -> dict[str, str]:
    """Each emitter's id -> what people's lines call it."""
    return {chosen.id: await names.label(chosen) for chosen in (*sources, *workflows)}


async def _until_stopped(tasks: list[asyncio.Task[None]]) -> None:
    """Follow until Ctrl-C (the runner cancels us), SIGTERM (`kill`, a service manager, `timeout`: the same
    clean stop, what arrived printed and journaled), or the first task to fail for good (bad key, unknown id),
    whose error ends the tail."""
    stopped = asyncio.Event()
    with _on_sigterm(stopped.set):
        stopping = asyncio.create_task(stopped.wait())
        waiting: set[asyncio.Task[Any]] = {*tasks, stopping}
        try:
            while stopping in waiting and len(waiting) > 1:
                done, waiting = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    task.result()
        finally:
            stopping.cancel()


@contextlib.contextmanager
def _on_sigterm(stop: Callable[[], None]) -> Iterator[None]:
    loop = asyncio.get_running_loop()
    try:
        loop.add_signal_handler(signal.SIGTERM, stop)
    except (ValueError, RuntimeError, NotImplementedError):  # not the main thread, or no signals here
        yield
        return
    try:
        yield
    finally:
        loop.remove_signal_handler(signal.SIGTERM)


def _who(label: str, ident: str) -> str:
    """An emitter as the connection's lines name it: by name and id (the id is what other commands take)."""
    return ident if label == ident else f"{visible(label, 60)} ({ident})"


def _state(args: argparse.Namespace, who: str, words: str, *, failure: bool = False) -> None:
    """A line about a connection on stderr (failures even with --quiet)."""
    if failure or not args.quiet:
        output.say(f"{who}: {words}", style=output.RED if failure else output.DIM)


@dataclass
class Starts:
    """Where each live feed starts: past what `--since` printed (nothing there: from now)."""

    events: dict[str, str | None] = field(default_factory=dict)  # a source's newest event id, its stream's resume
    errors: dict[str, tuple[int, int] | None] = field(default_factory=dict)  # a workflow's newest error key


async def _backlog(
    client: Client,
    args: argparse.Namespace,
    keeper: Keeper,
    source_ids: list[str],
    workflow_ids: list[str],
    queue: Events,
) -> Starts:
    """`--since`: what every feed's service still keeps from then on, merged oldest first before any live event;
    and where each live feed starts, past it.

    Each feed's own backlog put in as it was read printed a source's events, then older errors: a script keeping
    the last id it saw was misled."""
    since: Since = args.since
    starts = Starts()
    found: list[tuple[str, EventSummary]] = []
    for source_id in source_ids:
        kept = await client.kept_source_events(source_id)
        keeper.keep(kept, source_id)
        newest = max((e for e in kept if e.key is not None), key=lambda e: e.key or (0, 0), default=None)
        starts.events[source_id] = newest.id if newest is not None else None
        found += [
            (source_id, e)
            for e in kept
            if since.keeps(event_ms(e)) and (args.channel is None or e.channel == args.channel)
        ]
    for workflow_id in workflow_ids:
        page = await client.list_workflow_errors(workflow_id, expand=True, limit=MAX_RETAINED)
        listed = [e for e in page.items if e.key is not None]
        starts.errors[workflow_id] = max((e.key for e in listed if e.key is not None), default=None)
        found += [(workflow_id, e) for e in listed if since.keeps(event_ms(e))]
    for item in sorted(found, key=lambda item: item[1].key or (event_ms(item[1]) or 0, 0)):
        queue.put_nowait(item)
    return starts


async def _stream(
    client: Client,
    source_id: str,
    queue: Events,
    args: argparse.Namespace,
    keeper: Keeper,
    label: str,
    resume: str | None,
) -> None:
    """The source's live events, after `resume` (the newest `--since` printed; None: from now)."""
    stream: SourceStream = client.stream_source(source_id, last_event_id=resume)
    who = _who(label, source_id)

    def report(state: StreamState) -> None:
        if state.phase == "live":
            if stream.connections == 1:
                start = f", resuming after {resume}" if resume else ", from now"
                _state(args, who, f"connected{start}")
            else:
                # The stream reads what the service kept, so a source that had none is read from its first.
                after = f"after {stream.last_event_id}" if stream.last_event_id else "from the source's first event"
                _state(args, who, f"reconnected, resumed {after}")
        elif state.phase == "reconnecting":
            why = f" ({state.reason})" if state.reason else ""
            _state(args, who, f"connection lost{why}; reconnecting (attempt {state.attempt})")
        elif state.phase == "failed":
            _state(args, who, f"stream failed: {state.reason}", failure=True)

    stream.add_listener(report)
    async for arrived in stream:
        summary = arrived if isinstance(arrived, EventSummary) else arrived.parse()  # not raw: always a summary
        keeper.keep([summary], source_id)
        if args.channel is None or summary.channel == args.channel:
            await queue.put((source_id, summary))


async def _errors(
    client: Client,
    workflow_id: str,
    queue: Events,
    args: argparse.Namespace,
    label: str,
    last_key: tuple[int, int] | None,
) -> None:
    """The workflow's new errors, polled, after `last_key` (the newest `--since` printed; None: from now)."""
    failing = False
    first = True
    who = _who(label, workflow_id)

    async def fetch(**params: Any) -> Page[EventSummary]:
        nonlocal failing, first
        page = await client.list_workflow_errors(workflow_id, expand=True, **params)
        if first or failing:
            _state(
                args,
                who,
                ("polling $errors again" if failing else "polling $errors") + f" every {POLL_INTERVAL_S:g} s",
            )
        first = failing = False
        return page

    def report(error: ApiError) -> None:
        nonlocal failing
        failing = True
        _state(args, who, f"polling $errors failed, backing off: {error.message}")

    poller = EventPoller(fetch, interval_s=POLL_INTERVAL_S, from_now=args.since is None, on_error=report)
    if last_key is not None:
        poller.last_key = last_key
    async for event in poller:
        await queue.put((workflow_id, event))


class Printer:
    """The one writer of stdout: a line for people or NDJSON, flushed at once (a pipe reads it live)."""

    def __init__(self, args: argparse.Namespace, keeper: Keeper, labels: dict[str, str]) -> None:
        self.args = args
        self.keeper = keeper
        self.labels = labels  # emitter id -> its name, for people's lines (the JSON keeps ids)
        self.styled = not args.json and output.colour_enabled(sys.stdout)

    async def run(self, queue: Events) -> None:
        while True:
            emitter, event = await queue.get()
            self.emit(emitter, event)

    def drain(self, queue: Events) -> None:
        """Whatever arrived before the stop is still printed (and journaled, even once no one reads)."""
        while not queue.empty():
            with contextlib.suppress(BrokenPipeError):
                self.emit(*queue.get_nowait())

    def emit(self, emitter: str, event: EventSummary) -> None:
        """Journal a polled error and print the line; BrokenPipeError once the reader has gone."""
        if emitter.startswith("p_"):
            self.keeper.keep([event], emitter)  # polled errors; streamed events were kept as they came
        if self.args.json:
            line = ndjson(event_record(event, emitter))
            output.say_if_cut(event.id, line)
        else:
            label = self.labels.get(emitter, emitter)
            line = output.event_line(event, width=output.terminal_width(), who=label, styled=self.styled)
        print(line, flush=True)
