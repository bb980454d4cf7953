"""`aftui sources|workflows|webhooks|subscriptions|accounts|end-users|components|apps` and `aftui get`.

Each list prints a table for people (plain aligned columns, what the
service sent made visible) or, with `--json`, one record a line in the
resource's stable schema (`records.py`, docs/headless.md). `--fields`
picks the columns and the keys. Filters the API offers are sent to it;
the rest (`--active`, `--emitter`, ...) are applied to what it sent.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Iterable
from typing import Any

from ..api import ApiError, Client, NotFoundError, iterate
from ..api.eventid import event_key
from ..api.models import Account, Source
from ..api.paging import Fetch
from ..connect import connect_read, connect_read_all, group_end_users
from ..export import ndjson
from ..ids import KINDS
from ..masking import masked, url_secrets_masked
from ..subscriptions import channel_named, known_workflow_names, lookup_names, webhook_label, workspace_subscriptions
from ..text import visible
from . import output, seen
from .common import OK, exit_code, make_client
from .errors_cmd import error_record, errors_by_id, read_replay_states
from .journaling import Keeper, journal_path
from .names import Names, kind_of
from .records import (
    account_record,
    app_record,
    component_record,
    end_user_record,
    source_record,
    subscription_record,
    webhook_record,
    workflow_record,
)
from .schemas import COLUMNS, only, pick_fields
from .workflows import discover, org_key, read_details, user_known

__all__ = [
    "accounts",
    "apps",
    "components",
    "end_users",
    "get",
    "source_fetch",
    "sources",
    "subscriptions",
    "webhooks",
    "workflows",
]

STACK_LINES = 30  # of an error's stack `get` prints for people
COMPONENTS_AT_ONCE = 5  # registry components read at once to fill a search's table


def emit(kind: str, records: Iterable[dict[str, Any]], args: argparse.Namespace, org: str | None = None) -> int:
    """Print the records as NDJSON (`--json`) or as a table; return how many were printed.

    With `org`, their ids and names are kept for shell completion (`seen.py`).
    """
    fields = pick_fields(kind, args.fields)
    rows = list(records)
    if org is not None:
        pairs = [(str(r.get("id") or r.get("key") or r.get("external_id") or ""), r.get("name")) for r in rows]
        seen.remember(org, kind, pairs, replace=not _filtered(args) and getattr(args, "limit", None) is None)
    if args.json:
        for record in rows:
            print(ndjson(only(record, fields)))
        return len(rows)
    columns = fields if args.fields else COLUMNS[kind]
    count = output.table(rows, columns)
    if not count:
        output.say(f"no {kind.replace('_', ' ')}s" + (" match" if _filtered(args) else ""))
    return count


def _filtered(args: argparse.Namespace) -> bool:
    return any(
        getattr(args, name, None) for name in ("active", "inactive", "emitter", "listener", "channel", "app", "query")
    )


def _capped(args: argparse.Namespace) -> int | None:
    limit: int | None = getattr(args, "limit", None)
    if limit is not None and limit < 1:
        raise ValueError("--limit must be at least 1")
    return limit


async def _take(items: Any, limit: int | None) -> list[Any]:
    out: list[Any] = []
    async for item in items:
        out.append(item)
        if limit is not None and len(out) >= limit:
            break
    return out


def source_fetch(client: Client) -> Fetch[Source]:
    if client.org_id:
        org = client.org_id

        async def fetch(**params: Any) -> Any:
            return await client.list_workspace_sources(org, **params)

        return fetch
    return client.list_sources


# --- the lists --------------------------------------------------------------------------------------------


async def sources(args: argparse.Namespace) -> int:
    pick_fields("source", args.fields)  # a bad --fields is said before any request
    limit = _capped(args)
    async with make_client(args) as client:
        found: list[Source] = []
        async for source in iterate(source_fetch(client)):
            if args.active and source.active is not True:
                continue
            if args.inactive and source.active is not False:
                continue
            found.append(source)
            if limit is not None and len(found) >= limit:
                break
    emit("source", (source_record(s) for s in found), args, org_key(client))
    return OK


async def workflows(args: argparse.Namespace) -> int:
    pick_fields("workflow", args.fields)
    known = user_known()
    problems: list[str] = []
    async with make_client(args) as client:
        with Keeper(not args.no_journal) as keeper:
            if args.no_discover:
                from ..discovery import Discovery

                found = Discovery()
            else:
                found = await discover(client, known, keeper, problems)
            await read_details(client, known, found)
        org = org_key(client)
    records = []
    for ident, entry in known.in_workspace(org).items():
        workflow = found.details.get(ident)
        if args.active and (workflow is None or workflow.active is not True):
            continue
        if args.inactive and (workflow is None or workflow.active is not False):
            continue
        records.append(
            workflow_record(
                ident,
                workflow,
                name=entry.get("name") if isinstance(entry, dict) else None,
                found=str(entry.get("found")) if isinstance(entry, dict) and entry.get("found") else None,
                problem=found.problems.get(ident),
            )
        )
    records.sort(key=lambda r: ((r["name"] or "\uffff").casefold(), r["id"]))
    for problem in problems:
        output.say(problem)
    emit("workflow", records, args, org)
    # What could be listed is; a read the service failed (down, a bad key, a 503) is the script's exit code.
    return exit_code(found.failure) if found.failure is not None else OK


async def webhooks(args: argparse.Namespace) -> int:
    pick_fields("webhook", args.fields)
    async with make_client(args) as client:
        found = await _take(iterate(client.list_webhooks), _capped(args))
    emit("webhook", (webhook_record(w, show_secrets=args.show_secrets) for w in found), args, org_key(client))
    return OK


async def subscriptions(args: argparse.Namespace) -> int:
    pick_fields("subscription", args.fields)
    known = user_known()
    async with make_client(args) as client:
        names = Names(client, known=known)
        emitter = await names.id_of(args.emitter, ("source", "workflow"), globs=True) if args.emitter else None
        listener = await names.id_of(args.listener, ("workflow", "source", "webhook")) if args.listener else None
        subs = await workspace_subscriptions(client)
        subs = [
            s
            for s in subs
            if (emitter is None or s.emitter_id == emitter)
            and (listener is None or s.listener_id == listener)
            and (args.channel is None or (s.event_name or "") == channel_named(args.channel))
        ]
        labels = await _end_names(client, names, known, [i for s in subs for i in (s.emitter_id, s.listener_id)])
    emit("subscription", (subscription_record(s, labels) for s in subs), args, org_key(client))
    return OK


async def _end_names(client: Client, names: Names, known: Any, ids: list[str]) -> dict[str, str]:
    """Names of subscription ends: the workspace's sources, the user's webhooks, known workflows, then a few GETs."""
    labels: dict[str, str] = {"p_*": "all workflows", "dc_*": "all sources"}
    labels.update(known_workflow_names(known, client.org_id))
    try:
        labels.update({s.id: s.name for s in await names.sources() if s.name})
    except ApiError as error:
        output.say(f"source names could not be read: {error.message}")
    try:
        labels.update({w.id: webhook_label(w) for w in await names.webhooks()})
    except ApiError as error:
        output.say(f"webhook names could not be read: {error.message}")
    labels.update(await lookup_names(client, [i for i in ids if i not in labels]))
    return labels


async def accounts(args: argparse.Namespace) -> int:
    pick_fields("account", args.fields)
    filters = {"app": args.app, "oauth_app_id": args.oauth_app_id, "external_user_id": args.external_user_id}
    limit = _capped(args)
    async with make_client(args) as client:
        found: list[Account]
        if args.connect:
            found = await _take(connect_read_all(client, **filters), limit)
            if not found:
                await _app_exists(client, args.app)
        else:

            async def fetch(**params: Any) -> Any:
                return await client.list_accounts(**filters, **params)

            found = await _take(iterate(fetch), limit)
    emit("account", (account_record(a) for a in found), args, org_key(client))
    return OK


async def end_users(args: argparse.Namespace) -> int:
    pick_fields("end_user", args.fields)
    async with make_client(args) as client:
        found = [a async for a in connect_read_all(client, app=args.app)]
        if not found:
            await _app_exists(client, args.app)
    emit("end_user", (end_user_record(u) for u in group_end_users(found)), args, org_key(client))
    return OK


async def _app_exists(client: Client, app: str | None) -> None:
    """A Connect read filtered by an app no one has is empty, where /accounts says 404: an app that does not
    exist is said so (exit 4), not taken for one without accounts."""
    if app:
        await client.get_app(app)


async def components(args: argparse.Namespace) -> int:
    pick_fields("component", args.fields)
    async with make_client(args) as client:
        result = await client.search_components(
            args.query, app=args.app, similarity_threshold=args.threshold, limit=_capped(args)
        )
        keys = result.actions if args.actions else result.sources
        if args.all:
            keys = result.sources + result.actions
        gate = asyncio.Semaphore(COMPONENTS_AT_ONCE)

        async def one(key: str) -> dict[str, Any]:
            async with gate:
                try:
                    return component_record(await client.get_registry_component(key), key)
                except NotFoundError:
                    return {"kind": "component", "key": key, "type": "action" if key in result.actions else "source"}

        records = await asyncio.gather(*(one(k) for k in keys))
    emit("component", records, args)
    return OK


async def apps(args: argparse.Namespace) -> int:
    pick_fields("app", args.fields)
    async with make_client(args) as client:

        async def fetch(**params: Any) -> Any:
            return await client.list_apps(q=args.query, **params)

        found = await _take(iterate(fetch), _capped(args))
    emit("app", (app_record(a) for a in found), args, org_key(client))
    return OK


# --- aftui get -----------------------------------------------------------------------------------------------


async def get(args: argparse.Namespace) -> int:
    """Any id (or a source's, workflow's or webhook's name): its record, or the service's answer as is with --raw."""
    known = user_known()
    text: str = args.id.strip()
    if event_key(text) is not None:
        return await _get_error(args, text)
    async with make_client(args) as client:
        kind = kind_of(text)
        if kind is None:
            if not text:
                raise ValueError(f"give an id ({', '.join(KINDS)}) or the name of a source, workflow or webhook")
            names = Names(client, known=known, journal=journal_path())
            chosen = await names.resolve(text, ("source", "workflow", "webhook"))
            kind, text = chosen.kind, chosen.id
        record, raw = await _fetch_one(client, kind, text, show_secrets=args.show_secrets)
        if kind == "workflow":
            known.add(org_key(client), text, name=record.get("name"), found="opened")
    if args.raw:
        print(ndjson(raw))
        return OK
    fields = pick_fields(record["kind"], args.fields) if record.get("kind") in COLUMNS else tuple(record)
    if args.json:
        print(ndjson(only(record, fields)))
    else:
        output.key_values(record, fields)
    return OK


async def _get_error(args: argparse.Namespace, error_id: str) -> int:
    """A workflow error by its id (`<ms>-<seq>`), found as `aftui replay ERROR_ID` finds it; its stack below."""
    async with make_client(args) as client:
        with Keeper(True) as keeper:
            found = await errors_by_id(
                client,
                [error_id],
                keeper,
                whole=False,
                hint="`aftui errors WORKFLOW` lists a workflow's errors with their ids",
            )
            wf, (events, workflow) = next(iter(found.items()))
            states = await read_replay_states(keeper, wf, events, client=client)
    event = events[0]
    record = error_record(event, wf, workflow, states)
    if args.raw:
        print(ndjson(event.model_dump(mode="json")))
        return OK
    fields = pick_fields("error", args.fields)
    if args.json:
        print(ndjson(only(record, fields)))
        return OK
    # For people, a caller's credential headers are masked, as the TUI shows them; --json and --raw give the
    # event as it is, for the script that asked.
    inline = fields if args.fields is not None else [f for f in fields if f != "stack"]  # it has lines of its own
    output.key_values({**record, "original_event": masked(record["original_event"])}, inline)
    stack = record["stack"]
    if stack and args.fields is None:  # below the rest, a line a frame
        lines = stack.splitlines()
        print("stack")
        for line in lines[:STACK_LINES]:
            print(f"  {visible(line, output.terminal_width() - 2)}")
        if len(lines) > STACK_LINES:
            print(f"  … {len(lines) - STACK_LINES} more lines (--json has the stack whole)")
    return OK


async def _fetch_one(
    client: Client, kind: str, ident: str, *, show_secrets: bool = False
) -> tuple[dict[str, Any], Any]:
    """The record of one id and the service's answer, by the id's kind: the fields it sent (`exclude_unset`:
    none the model only defaults), as parsed (times in ISO 8601). A webhook's URL is masked in both unless
    `show_secrets`."""
    if kind == "source":
        source = await client.get_source(ident)
        return source_record(source), source.model_dump(mode="json", exclude_unset=True)
    if kind in ("workflow", "workflow template"):
        workflow = await client.get_workflow(ident)
        # Where aftui learned of it, as `aftui workflows` says ("found -" here beside "subscription" there).
        entry = user_known().in_workspace(org_key(client)).get(ident)
        found = str(entry.get("found")) if isinstance(entry, dict) and entry.get("found") else None
        record = workflow_record(ident, workflow, found=found)
        if kind == "workflow template":
            record["kind"] = "workflow_template"
        return record, workflow.model_dump(mode="json", exclude_unset=True)
    if kind == "webhook":
        for webhook in [w async for w in iterate(client.list_webhooks)]:
            if webhook.id == ident:
                raw = webhook.model_dump(mode="json", exclude_unset=True)
                if not show_secrets and isinstance(raw.get("url"), str):
                    raw["url"] = url_secrets_masked(raw["url"])
                return webhook_record(webhook, show_secrets=show_secrets), raw
        raise NotFoundError(f"no webhook {ident} among the user's webhooks", status=404)
    if kind == "subscription":
        for sub in await workspace_subscriptions(client):
            if sub.id == ident:
                labels = await lookup_names(client, [sub.emitter_id, sub.listener_id])
                return subscription_record(sub, labels), sub.model_dump(mode="json", exclude_unset=True)
        raise NotFoundError(f"no subscription {ident} in this workspace", status=404)
    if kind == "account":
        try:
            account = await client.get_account(ident)
        except NotFoundError:
            if not client.project_id:
                raise
            account = await connect_read(client.get_connect_account(ident))  # an end user's account
        return account_record(account), account.model_dump(mode="json", exclude={"credentials"}, exclude_unset=True)
    if kind == "app":
        app = await client.get_app(ident)
        return app_record(app), app.model_dump(mode="json", exclude_unset=True)
    if kind == "component":
        component = await client.get_component(ident)
        return component_record(component), component.model_dump(mode="json", exclude_unset=True)
    if kind == "workspace":
        me = await client.me()
        for org in me.orgs:
            if org.id == ident:
                dumped = org.model_dump(mode="json", exclude_unset=True)
                return {"kind": "workspace", **dumped}, dumped
        raise NotFoundError(f"{ident} is not one of this user's workspaces", status=404)
    if kind == "user":
        me = await client.me()
        if me.id != ident:
            raise NotFoundError(
                f"{ident} is not the user of this key ({me.id}); the API shows no other user", status=404
            )
        dumped = me.model_dump(mode="json", exclude_none=True)
        return {"kind": "user", **dumped}, dumped
    raise ValueError(
        f"{ident} is a {kind} id; the API has no way to read one on its own"
        + (" (see its workflow with `aftui get p_...`)" if kind.endswith("trigger") else "")
    )
