"""`aftui whoami` and `aftui events`: one request, one answer."""

from __future__ import annotations

import argparse
import shutil

from ..export import event_record, ndjson
from . import output
from .common import OK, make_client

MAX_EVENTS = 100


async def whoami(args: argparse.Namespace) -> int:
    async with make_client(args) as client:
        me = await client.me()
    if args.json:
        print(ndjson(me.model_dump(mode="json", exclude_none=True)))
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
    """The last N events of a source, oldest first as a log reads."""
    if not 1 <= args.n <= MAX_EVENTS:
        raise ValueError(f"-n must be from 1 to {MAX_EVENTS} (the service keeps the last 100 events)")
    async with make_client(args) as client:
        page = await client.list_source_events(args.source_id, limit=args.n, expand=args.json or args.full)
    width = shutil.get_terminal_size((120, 24)).columns
    for event in reversed(page.items):
        print(ndjson(event_record(event)) if args.json else output.event_line(event, width=width))
    return OK
