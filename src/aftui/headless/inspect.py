"""`aftui whoami` and `aftui events`: one request, one answer."""

from __future__ import annotations

import argparse
import sys

from ..export import event_record, ndjson
from . import output
from .common import OK, make_client
from .journaling import Keeper
from .names import Names
from .output import event_ms
from .since import Since
from .workflows import user_known

MAX_EVENTS = 100
DEFAULT_EVENTS = 20


async def whoami(args: argparse.Namespace) -> int:
    async with make_client(args) as client:
        me = await client.me()
    if args.json:
        # What the people's lines say too: which workspace is in use (their *), where, and whether read-only.
        context = {"current_org_id": client.org_id, "base_url": client.base_url, "read_only": client.read_only}
        print(ndjson({"kind": "user", **me.model_dump(mode="json", exclude_none=True), **context}))
        return OK
    from ..text import visible

    print(f"{visible(me.username or '?')} <{visible(me.email or '?')}>  {me.id}  ({me.plan} plan)")
    print(f"base URL  {client.base_url}{'  (read-only)' if client.read_only else ''}")
    for org in me.orgs:
        mark = "*" if org.id == client.org_id else " "
        credits = (
            f"{org.daily_credits_used or 0}/{org.daily_credits_quota or 0} credits today"
            if org.daily_credits_quota
            else ""
        )
        print(f" {mark} {org.id}  {visible(org.name or org.orgname or '', 40)}  {credits}")
    return OK


async def events(args: argparse.Namespace) -> int:
    """The last N events of a source (or those since a time), oldest first as a log reads; journaled."""
    count: int | None = args.n
    if count is not None and not 1 <= count <= MAX_EVENTS:
        raise ValueError(f"-n must be from 1 to {MAX_EVENTS} (the service keeps the last 100 events)")
    since: Since | None = args.since
    limit = count or (MAX_EVENTS if since else DEFAULT_EVENTS)
    async with make_client(args) as client:
        # The known workflows only to say so when the name is a workflow's (`aftui events "Validate orders"`).
        names = Names(client, known=user_known())
        source = await names.resolve(args.source, ("source",))
        source_id, label = source.id, await names.label(source)
        page = await client.list_source_events(
            source_id, limit=limit, expand=args.json or args.full, channel=args.channel
        )
    with Keeper(not args.no_journal) as keeper:
        keeper.keep(page.items, source_id)
    shown = [e for e in page.items if since is None or since.keeps(event_ms(e))]
    width = output.terminal_width()
    styled = not args.json and output.colour_enabled(sys.stdout)
    for event in reversed(shown):
        if args.json:
            line = ndjson(event_record(event, source_id))
            print(line)
            output.say_if_cut(event.id, line)
        else:
            print(output.event_line(event, width=width, who=label, styled=styled))
    if not shown and not args.json:
        output.say(f"no events of {source_id}" + (f" since {since.text}" if since else ""))
    return OK
