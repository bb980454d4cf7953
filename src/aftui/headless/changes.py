"""Changes from the command line: deploy, update, activate, deactivate, delete.

Each one refuses at once in a read-only profile (exit 2, nothing asked,
nothing sent), checks everything it can before asking (names, prop values,
files), says what it is about to do and asks on a terminal (`--yes` for
scripts; off a terminal, without `--yes`, nothing is done), then makes the
change and prints what it changed: the record of a deployed or updated
source, a line a target for the rest (stdout), with a word on stderr.
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

from ..api import Client, NotFoundError, iterate
from ..api.models import Component, Source, Workflow
from ..connect import connect_read, connect_read_all
from ..discovery import triggered_by
from ..export import ndjson
from ..masking import url_secrets_masked
from ..subscriptions import (
    channel_named,
    channel_words,
    end_label,
    ends_of,
    lookup_names,
    webhook_label,
    workspace_subscriptions,
)
from ..text import visible
from . import output, seen
from .common import OK, Refused, confirm, make_client, refuse_read_only
from .journaling import journal_path
from .names import Ambiguous, Candidate, Names, NoSuchName, match, near
from .propvalues import collect, props_for_update, split_assignments
from .records import source_record, workflow_record
from .workflows import org_key, user_known

__all__ = ["activate", "deactivate", "delete", "deploy", "update"]

MAX_CODE_BYTES = 1024 * 1024  # what the service takes as component code
EVENTS_GONE_WAIT_S = 10.0  # how long `delete events` watches for the accepted deletion to happen


# --- finding the component -----------------------------------------------------------------------------


def _looks_like_path(text: str) -> bool:
    return "/" in text or text.startswith((".", "~")) or text.endswith((".mjs", ".js", ".cjs", ".ts"))


def _local_code(text: str) -> str | None:
    """The code of a component file, when the spec names one (None when it is a key or an id)."""
    if Path(text).expanduser().is_file() or _looks_like_path(text):
        return _read_code(text)
    return None


def _read_code(text: str) -> str:
    path = Path(text).expanduser()
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ValueError(f"cannot read the component file {text}: {error.strerror or error}") from None
    if len(data) > MAX_CODE_BYTES:
        raise ValueError(f"the component file {text} is over 1 MB, which the service does not take")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"the component file {text} is not UTF-8 text") from None


async def _component(client: Client, spec: str) -> tuple[Component, dict[str, Any], str]:
    """The component a spec names, how to name it to the service, and words for the question.

    A file or a URL is saved as a component first (the service reads props only from saved code).
    """
    text = spec.strip()
    if text.startswith(("http://", "https://")):
        component = await client.create_component(url=text)
        return (
            component,
            {"component_id": component.id},
            f"the component at {visible(text, 100)} (saved as {component.id})",
        )
    code = _local_code(text)
    if code is not None:
        component = await client.create_component(code=code)
        return component, {"component_id": component.id}, f"the file {visible(text, 100)} (saved as {component.id})"
    if text.startswith("sc_"):
        component = await client.get_component(text)
        return component, {"component_id": component.id}, f"component {component.key or component.id}"
    try:
        component = await client.get_registry_component(text)
        return component, {"component_id": component.id, "key": text}, f"the registry's {visible(text, 80)}"
    except NotFoundError:
        pass
    try:
        component = await client.get_component(text)
    except NotFoundError:
        raise NotFoundError(
            f"no component {visible(text, 80)} in the registry or among yours "
            "(give a registry key, an sc_ id, a component file or a URL; aftui components WORDS searches)",
            status=404,
        ) from None
    return component, {"component_id": component.id}, f"your component {visible(text, 80)}"


async def _accounts_by_name(client: Client, component: Component, given: dict[str, list[str]]) -> dict[str, list[str]]:
    """An app prop given an account's name (not an apn_ id) gets the id of that account of the prop's app."""
    out = dict(given)
    for prop in component.configurable_props:
        texts = given.get(prop.name)
        if prop.type != "app" or not texts or texts[0].strip().startswith("apn_"):
            continue
        text = texts[0].strip()

        async def fetch(app: str | None = prop.app, **params: Any) -> Any:
            return await client.list_accounts(app=app, **params)

        pool = [
            Candidate("account", a.id, a.name or "", a.app.name or "" if a.app else "") async for a in iterate(fetch)
        ]
        found = match(text, pool)
        if len(found) > 1:
            raise Ambiguous(text, found)
        if not found:
            raise NoSuchName(text, ("account",), near(text, pool), f" of {prop.app or 'the app'} (--prop {prop.name})")
        out[prop.name] = [found[0].id]
    return out


def _shown_props(values: dict[str, Any], component: Component) -> str:
    secret = {p.name for p in component.configurable_props if p.secret}
    parts = []
    for name, value in values.items():
        shown = "••••" if name in secret else visible(value if isinstance(value, str) else ndjson(value), 40)
        parts.append(f"{name}={shown}")
    return ", ".join(parts) or "no props"


def _print_source(source: Source, args: argparse.Namespace) -> None:
    output.one_record(source_record(source), as_json=args.json)


# --- deploy and update ------------------------------------------------------------------------------------


async def deploy(args: argparse.Namespace) -> int:
    given = split_assignments(args.prop or [])
    if args.name is not None and not args.name.strip():
        raise ValueError("--name is empty")
    async with make_client(args) as client:
        refuse_read_only(client, "deploying a source")
        component, how, words = await _component(client, args.component)
        if component.type == "action":
            raise ValueError(f"{words} is an action: actions run as workflow steps, only sources are deployed")
        given = await _accounts_by_name(client, component, given)
        props = collect(component.configurable_props, given)
        name = args.name.strip() if args.name else None
        if name is not None and not args.allow_duplicate:
            await _name_is_free(client, name)
        try:
            confirm(
                f"Deploy a source{f' named {visible(name, 60)!r}' if name else ''} from {words} "
                f"with {_shown_props(props, component)}?",
                args,
            )
        except Refused:
            if "saved as" in words:
                output.say(f"the component stays saved as {component.id}; no source was deployed")
            raise
        source = await client.deploy_source(**how, name=name, configured_props=props)
    seen.remember(org_key(client), "source", [(source.id, source.name)], replace=False)
    output.say(f"deployed source {visible(source.name or source.id, 60)} ({source.id})")
    _print_source(source, args)
    return OK


async def _name_is_free(client: Client, name: str) -> None:
    """Names address sources everywhere (`aftui update NAME`, `tail NAME`): a second source of one name made
    both ambiguous, and a script's deploy run twice made a second."""
    # Regardless of case, as names are looked up: "order webhooks" beside "Order webhooks" made
    # "ORDER WEBHOOKS" ambiguous.
    folded = name.casefold()
    same = [s for s in await Names(client).sources() if (s.name or "").casefold() == folded]
    if same:
        raise ValueError(
            f"a source named {visible(same[0].name or name, 60)!r} exists already ({same[0].id}): "
            f"`aftui update {same[0].id}` changes it; --allow-duplicate deploys another of the same name"
        )


async def update(args: argparse.Namespace) -> int:
    given = split_assignments(args.prop or [])
    if not given and args.name is None and args.component is None:
        raise ValueError("nothing to change: give --prop name=value, --name NAME or --component")
    if args.name is not None and not args.name.strip():
        raise ValueError("--name is empty")
    async with make_client(args) as client:
        refuse_read_only(client, "updating a source")
        source_id = await Names(client).source(args.source)
        source = await client.get_source(source_id)
        if args.component is not None:
            component, how, words = await _component(client, args.component)
            how.pop("key", None)  # PUT names the component by id only
        else:
            component = await client.get_component(source.component_id or "")
            how, words = {"component_id": component.id}, ""
        props: dict[str, Any] | None = None
        given = await _accounts_by_name(client, component, given)
        if given or args.component is not None:
            start = props_for_update(source.configured_props, component.configurable_props)
            names = {p.name for p in component.configurable_props}
            props = collect(component.configurable_props, given, {k: v for k, v in start.items() if k in names})
        name = args.name.strip() if args.name else None
        changes = []
        if name is not None and name != source.name:
            changes.append(f"name → {visible(name, 60)!r}")
        if words:
            changes.append(f"code from {words}")
        if given:
            changes.append(_shown_props({k: v for k, v in (props or {}).items() if k in given}, component))
        confirm(
            f"Update source {visible(source.name or source.id, 60)} ({source.id}): {'; '.join(changes) or 'as it is'}?",
            args,
        )
        answer = await client.update_source(
            source.id, **how, name=name if name != source.name else None, configured_props=props
        )
        updated = answer if isinstance(answer, Source) else await client.get_source(source.id)
    output.say(f"updated source {visible(updated.name or updated.id, 60)} ({updated.id})")
    _print_source(updated, args)
    return OK


# --- activate and deactivate -------------------------------------------------------------------------------


async def activate(args: argparse.Namespace) -> int:
    return await _switch(args, True)


async def deactivate(args: argparse.Namespace) -> int:
    return await _switch(args, False)


async def _switch(args: argparse.Namespace, active: bool) -> int:
    verb = "activate" if active else "deactivate"
    state = "active" if active else "inactive"
    async with make_client(args) as client:
        refuse_read_only(client, f"{verb.replace('ate', 'ating')} sources and workflows")
        names = Names(client, known=user_known(), journal=journal_path())
        targets = [await names.resolve(text, ("source", "workflow")) for text in args.targets]
        targets = list({t.id: t for t in targets}.values())
        # Each as it is now: one already so is said so, not counted as switched ("1 activated" of an active one).
        now = {t.id: await _read(client, t.kind, t.id) for t in targets}
        labels = [(t, t.name or now[t.id].name) for t in targets]
        changing = [(t, n) for t, n in labels if bool(now[t.id].active) != active]
        to_switch = {t.id for t, _ in changing}
        if changing:
            listed = ", ".join(f"{t.kind} {visible(n or t.id, 60)} ({t.id})" for t, n in changing)
            nothing_deleted = "" if active else " It stops running; nothing is deleted."
            confirm(f"{verb.capitalize()} {listed}?{nothing_deleted}", args)
        records = []
        for target, target_name in labels:
            if target.id in to_switch:
                if target.kind == "source":
                    await client.set_source_active(target.id, active)
                else:
                    await client.set_workflow_active(target.id, active)
                now[target.id] = await _read(client, target.kind, target.id)
            read = now[target.id]
            if isinstance(read, Source):
                records.append(source_record(read))
            else:
                records.append(workflow_record(target.id, read, name=target_name))
    for record in records:
        if args.json:
            print(ndjson(record))
        else:
            shown = "active" if record["active"] else "inactive"
            print(f"{record['id']}  {record['kind']:<8}  {shown:<8}  {visible(record['name'] or '', 60)}")
    already = len(records) - len(changing)
    output.say(f"{len(changing)} {verb}d" + (f", {already} already {state}" if already else ""))
    return OK


async def _read(client: Client, kind: str, ident: str) -> Source | Workflow:
    if kind == "source":
        return await client.get_source(ident)
    return await client.get_workflow(ident)


# --- delete ---------------------------------------------------------------------------------------------------


async def delete(args: argparse.Namespace) -> int:
    handlers = {
        "source": _delete_sources,
        "webhook": _delete_webhooks,
        "subscription": _delete_subscription,
        "events": _delete_events,
        "account": _delete_accounts,
        "end-user": _delete_end_users,
        "app-accounts": _delete_app_accounts,
    }
    async with make_client(args) as client:
        refuse_read_only(client, "deleting", args)
        await handlers[args.what](client, args)
    return OK


def _done(lines: list[str], message: str) -> None:
    for line in lines:
        print(line)
    output.say(message)


async def _delete_sources(client: Client, args: argparse.Namespace) -> None:
    names = Names(client)
    chosen = [await names.resolve(text, ("source",)) for text in args.targets]
    chosen = list({c.id: c for c in chosen}.values())
    labels = [(c.id, c.name or (await _read(client, "source", c.id)).name) for c in chosen]
    listed = ", ".join(f"{visible(n or i, 60)} ({i})" for i, n in labels)
    known = list(user_known().in_workspace(org_key(client)))
    broken = await triggered_by(client, known, {ident for ident, _ in labels})  # each workflow read once
    triggers = "".join(
        f" It triggers the workflow {visible(w.name or '(no name)', 60)} ({w.id}), which loses that trigger."
        for w in broken
    )
    confirm(
        f"Delete source{'s' if len(labels) > 1 else ''} {listed}? Its events and subscriptions go with it."
        f"{triggers} This cannot be undone.",
        args,
    )
    for ident, _ in labels:
        await client.delete_source(ident)
        seen.forget(org_key(client), "source", ident)
    _done([f"{i}  deleted  {visible(n or '', 60)}" for i, n in labels], f"{len(labels)} source(s) deleted")


async def _delete_webhooks(client: Client, args: argparse.Namespace) -> None:
    names = Names(client)
    chosen = [await names.resolve(text, ("webhook",)) for text in args.targets]
    chosen = list({c.id: c for c in chosen}.values())
    webhooks = {w.id: w for w in await names.webhooks()}
    for c in chosen:
        if c.id not in webhooks:
            raise NotFoundError(f"no webhook {c.id} among the user's webhooks", status=404)
    listed = ", ".join(f"{visible(webhook_label(webhooks[c.id]), 60)} ({c.id})" for c in chosen)
    confirm(f"Delete webhook{'s' if len(chosen) > 1 else ''} {listed}? Nothing is delivered there afterwards.", args)
    for c in chosen:
        await client.delete_webhook(c.id)
        seen.forget(org_key(client), "webhook", c.id)
    _done(
        [f"{c.id}  deleted  {visible(url_secrets_masked(webhooks[c.id].url), 100)}" for c in chosen],
        f"{len(chosen)} webhook(s) deleted",
    )


async def _delete_subscription(client: Client, args: argparse.Namespace) -> None:
    names = Names(client, known=user_known(), journal=journal_path())
    if args.subscription:
        if args.emitter or args.listener:
            raise ValueError("name a subscription by its id, or by --emitter and --listener, not both")
        subs = await workspace_subscriptions(client)
        sub = next((s for s in subs if s.id == args.subscription), None)
        if sub is None:
            raise NotFoundError(f"no subscription {visible(args.subscription, 40)} in this workspace", status=404)
        emitter, listener, channel = sub.emitter_id, sub.listener_id, sub.event_name or ""
    else:
        if not (args.emitter and args.listener):
            raise ValueError("name the subscription: its id (sub_...), or --emitter and --listener (and --channel)")
        emitter = await names.id_of(args.emitter, ("source", "workflow"), globs=True)
        listener = await names.id_of(args.listener, ("workflow", "source", "webhook"))
        channel = channel_named(args.channel)
        # Its id for the result line, where the list has it (a script keeps ids, not ends).
        wanted = (emitter, listener, channel)
        sub = next((s for s in await workspace_subscriptions(client) if ends_of(s) == wanted), None)
    # By id, the ends were said by id alone: their names are looked up, as the list shows them.
    unnamed = [end for end, typed in ((emitter, args.emitter), (listener, args.listener)) if not typed]
    found = await lookup_names(client, [end for end in unnamed if not end.startswith("wh_")])
    if any(end.startswith("wh_") for end in unnamed):  # webhooks have no GET by id: the user's list names them
        found.update({w.id: webhook_label(w) for w in await names.webhooks()})
    ends = {
        end: end_label(end, typed or found.get(end))
        for end, typed in ((emitter, args.emitter), (listener, args.listener))
    }
    confirm(f"Delete the subscription of {ends[listener]} to {channel_words(channel)} of {ends[emitter]}?", args)
    await client.unsubscribe(emitter, listener, channel)
    _done(
        [f"{sub.id if sub else '-'}  deleted  {emitter} > {listener} {channel or '(default)'}"],
        "1 subscription deleted",
    )


async def _delete_events(client: Client, args: argparse.Namespace) -> None:
    if not (args.all or args.start or args.end or args.id):
        raise ValueError("say which events: --all, --from ID, --to ID (both: a range) or --id ID")
    if args.all and (args.start or args.end or args.id):
        raise ValueError("--all deletes every event: give it alone")
    if args.id and (args.start or args.end):
        raise ValueError("--id deletes one event: give it alone")
    start, end = (args.id, args.id) if args.id else (args.start, args.end)
    source_id = await Names(client).source(args.source)
    retained = (await client.list_source_events(source_id, limit=100)).items
    covered = [e for e in retained if _in_range(e.id, start, end)]
    if args.id and not covered:  # a typo in an id, or an event gone already: nothing would be deleted
        raise NotFoundError(
            f"no event {visible(args.id, 40)} among the {len(retained)} source {source_id} keeps", status=404
        )
    what = (
        "every event"
        if not (start or end)
        else f"event {start}"
        if start == end
        else f"the events from {start or 'the first'} to {end or 'the last'}"
    )
    confirm(
        f"Delete {what} of source {source_id}? That is {len(covered)} of the {len(retained)} it keeps.",
        args,
    )
    await client.delete_source_events(source_id, start_id=start, end_id=end)
    gone = await _events_gone(client, source_id, start, end)
    state = "deleted" if gone else "accepted (the service is still removing them)"
    _done([f"{source_id}  {len(covered)} event(s)  {state}"], f"{len(covered)} event(s) of {source_id} {state}")


def _key(event_id: str | None) -> tuple[int, int] | None:
    from ..api.models import event_key

    return event_key(event_id)


def _in_range(event_id: str | None, start: str | None, end: str | None) -> bool:
    key = _key(event_id)
    if key is None:
        return False
    low, high = _key(start), _key(end)
    return (low is None or key >= low) and (high is None or key <= high)


async def _events_gone(client: Client, source_id: str, start: str | None, end: str | None) -> bool:
    """The deletion is accepted at once (202) and done shortly after: watch the list until it is done."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + EVENTS_GONE_WAIT_S
    while True:
        events = (await client.list_source_events(source_id, limit=100)).items
        if not any(_in_range(e.id, start, end) for e in events):
            return True
        if loop.time() >= deadline:
            return False
        await asyncio.sleep(0.2)


def _environment(client: Client) -> str:
    return f"the {client.environment} environment"


async def _delete_accounts(client: Client, args: argparse.Namespace) -> None:
    accounts = []
    for ident in dict.fromkeys(args.targets):
        if not ident.startswith("apn_"):
            raise ValueError(
                f"{visible(ident, 40)} is not an account id (apn_...): aftui accounts --connect lists them"
            )
        accounts.append(await connect_read(client.get_connect_account(ident)))
    listed = ", ".join(
        f"{a.id} ({visible(a.app.name if a.app else '?', 30)} of {visible(a.external_id or '?', 40)})" for a in accounts
    )
    confirm(f"Delete the Connect account{'s' if len(accounts) > 1 else ''} {listed} in {_environment(client)}?", args)
    for account in accounts:
        await client.delete_connect_account(account.id)
    _done([f"{a.id}  deleted" for a in accounts], f"{len(accounts)} Connect account(s) deleted")


async def _delete_end_users(client: Client, args: argparse.Namespace) -> None:
    users = list(dict.fromkeys(args.targets))
    counts = {}
    for user in users:
        found = [a async for a in connect_read_all(client, external_user_id=user)]
        counts[user] = len(found)
    # The API has no read of an end user: one without an account cannot be told from one that does not exist.
    listed = ", ".join(
        f"{visible(u, 60)} ({counts[u]} account{'s' if counts[u] != 1 else ''})"
        if counts[u]
        else f"{visible(u, 60)} (no account: the service has no read to tell whether this end user exists)"
        for u in users
    )
    confirm(
        f"Delete the end user{'s' if len(users) > 1 else ''} {listed} and all their accounts in {_environment(client)}?",
        args,
    )
    for user in users:
        await client.delete_connect_user(user)
    _done([f"{visible(u, 100)}  deleted  {counts[u]} account(s)" for u in users], f"{len(users)} end user(s) deleted")


async def _delete_app_accounts(client: Client, args: argparse.Namespace) -> None:
    app = args.app
    if not app.startswith("oa_"):  # a key app's slug can be read (an OAuth app's id cannot): a typo is said now
        await client.get_app(app)
    found = [a async for a in connect_read_all(client, app=app)]
    confirm(
        f"Delete every Connect account of {visible(app, 60)} in {_environment(client)}: {len(found)} account(s)?", args
    )
    await client.delete_connect_app_accounts(app)
    _done(
        [f"{visible(app, 60)}  deleted  {len(found)} account(s)"],
        f"{len(found)} account(s) of {visible(app, 60)} deleted",
    )
