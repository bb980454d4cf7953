"""`aftui tail`: events as they arrive, from sources (SSE) and workflows' `$errors` (polled)."""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
from functools import partial

from ..api import Client
from ..api.models import EventSummary
from ..api.poll import EventPoller
from ..api.stream import StreamState
from ..export import event_record, ndjson
from ..text import visible
from . import output
from .common import OK, make_client

# (emitter id, event) as they arrive, from every stream and poller, to the one printer.
Events = asyncio.Queue[tuple[str, EventSummary]]


async def tail(args: argparse.Namespace) -> int:
    if not args.source_ids and not args.errors:
        raise ValueError("name at least one source id, or --errors WORKFLOW_ID")
    queue: Events = asyncio.Queue()
    async with make_client(args) as client:
        tasks = [asyncio.create_task(_stream(client, sid, queue, args)) for sid in args.source_ids]
        tasks += [asyncio.create_task(_errors(client, wid, queue)) for wid in args.errors]
        printer = asyncio.create_task(_print(queue, args))
        try:
            # The first task to fail for good (bad key, unknown id) ends the tail with its error.
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
            for task in done:
                task.result()
        finally:
            for task in (*tasks, printer):
                task.cancel()
            await asyncio.gather(*tasks, printer, return_exceptions=True)
            _drain(queue, args)
    return OK


async def _stream(client: Client, source_id: str, queue: Events, args: argparse.Namespace) -> None:
    def report(state: StreamState) -> None:
        if not args.json and state.phase in ("reconnecting", "failed"):
            print(f"aftui: {source_id}: {state}", file=sys.stderr)

    async for event in client.stream_source(source_id, on_state=report):
        summary = event if isinstance(event, EventSummary) else event.parse()  # not raw: always a summary
        if args.channel is None or summary.channel == args.channel:
            await queue.put((source_id, summary))


async def _errors(client: Client, workflow_id: str, queue: Events) -> None:
    def report(error: Exception) -> None:
        print(f"aftui: {workflow_id}: polling $errors failed, backing off: {error}", file=sys.stderr)

    poller = EventPoller(partial(client.list_workflow_errors, workflow_id, expand=True), on_error=report)
    async for event in poller:
        await queue.put((workflow_id, event))


async def _print(queue: Events, args: argparse.Namespace) -> None:
    while True:
        emitter, event = await queue.get()
        _emit(emitter, event, args)


def _drain(queue: Events, args: argparse.Namespace) -> None:
    """Whatever arrived before the stop is still printed."""
    while not queue.empty():
        _emit(*queue.get_nowait(), args)


def _emit(emitter: str, event: EventSummary, args: argparse.Namespace) -> None:
    if args.json:
        line = ndjson(event_record(event, emitter))
    else:
        line = output.event_line(event, width=shutil.get_terminal_size((120, 24)).columns, emitter=visible(emitter))
    print(line, flush=True)
