"""Made from the command line: a webhook, a subscription of a listener to an emitter's channel, and a
Connect token for an end user.

As the other changes (changes.py): refused at once in a read-only profile,
checked before anything is asked (the URL as the service checks it, the
ends by name or id), asked on a terminal (`--yes` for scripts), then made
and printed: a line (or the record, with --json) on stdout, a word on
stderr. On call, `create webhook` then `create subscription --channel
'$errors'` sends a workflow's errors to a pager's URL.
"""

from __future__ import annotations

import argparse

from ..api import Client
from ..api.models import Subscription
from ..connect import external_id_problem, redirect_problem, webhook_uri_problem
from ..export import ndjson
from ..subscriptions import channel_named, channel_words, end_label, ends_of, webhook_label, workspace_subscriptions
from ..text import visible
from ..urls import webhook_url_problem
from . import output, seen
from .common import OK, confirm, make_client, refuse_read_only
from .journaling import journal_path
from .names import Names
from .output import iso
from .records import subscription_record, webhook_record
from .workflows import org_key, user_known

__all__ = ["create"]


async def create(args: argparse.Namespace) -> int:
    handlers = {"webhook": _create_webhook, "subscription": _create_subscription, "token": _create_token}
    async with make_client(args) as client:
        refuse_read_only(client, f"creating a {args.what}")
        await handlers[args.what](client, args)
    return OK


async def _create_webhook(client: Client, args: argparse.Namespace) -> None:
    url = args.url.strip()
    problem = webhook_url_problem(url)
    if problem is not None:
        raise ValueError(problem)
    # A second webhook to one URL sends every event subscribed to both twice: a script run twice made one.
    same = [w for w in await Names(client).webhooks() if w.url == url]
    if same and not args.allow_duplicate:
        raise ValueError(
            f"a webhook to this URL exists already ({same[0].id}); "
            "`aftui create subscription --listener` takes it; --allow-duplicate creates another"
        )
    named = f" named {visible(args.name, 60)!r}" if args.name else ""
    confirm(f"Create a webhook{named} to {visible(url, 200)}?", args)
    webhook = await client.create_webhook(url, name=args.name, description=args.description)
    seen.remember(org_key(client), "webhook", [(webhook.id, webhook.name)], replace=False)
    output.say(f"created webhook {visible(webhook_label(webhook) or webhook.id, 60)} ({webhook.id})")
    output.one_record(webhook_record(webhook), as_json=args.json)


async def _create_subscription(client: Client, args: argparse.Namespace) -> None:
    names = Names(client, known=user_known(), journal=journal_path())
    emitter = await names.id_of(args.emitter, ("source", "workflow"), globs=True)
    listener = await names.id_of(args.listener, ("workflow", "source", "webhook"))
    channel = channel_named(args.channel)
    labels = {emitter: end_label(emitter, args.emitter), listener: end_label(listener, args.listener)}
    ends = (emitter, listener, channel)
    existing = next((s for s in await workspace_subscriptions(client) if ends_of(s) == ends), None)
    if existing is not None:  # a subscription is its ends: asked for again, it is there, and nothing is sent
        output.say(f"{labels[listener]} is subscribed to {channel_words(channel)} of {labels[emitter]} already")
        _print_subscription(existing, args)
        return
    confirm(f"Subscribe {labels[listener]} to {channel_words(channel)} of {labels[emitter]}?", args)
    sub = await client.subscribe(emitter, listener, channel or None)
    output.say(f"subscribed {labels[listener]} to {channel_words(channel)} of {labels[emitter]}")
    _print_subscription(sub, args)


def _print_subscription(sub: Subscription, args: argparse.Namespace) -> None:
    """As `aftui subscriptions` lists it: its id, ends and channel (the service may not give an id back)."""
    if args.json:
        typed = ((sub.emitter_id, args.emitter), (sub.listener_id, args.listener))
        print(ndjson(subscription_record(sub, {ident: name for ident, name in typed if name != ident})))
        return
    print(f"{sub.id or '-'}  {sub.emitter_id} > {sub.listener_id} {sub.event_name or '(default)'}")


async def _create_token(client: Client, args: argparse.Namespace) -> None:
    """A token your backend hands its frontend to connect one end user's account. It is a credential while it
    lives (a few hours): printed on stdout, for the script that asked, and never logged."""
    external = args.external_user_id
    checks = [
        ("EXTERNAL_USER_ID", external_id_problem(external)),
        ("--success-redirect", redirect_problem(args.success_redirect or "")),
        ("--error-redirect", redirect_problem(args.error_redirect or "")),
        ("--webhook", webhook_uri_problem(args.webhook or "")),
    ]
    for option, problem in checks:
        if problem is not None:
            raise ValueError(f"{option}: {problem}")
    where = f"the {client.environment} environment of project {client.project_id or '(none)'}"
    confirm(f"Create a connect token for end user {visible(external, 60)!r} in {where}? It registers the user.", args)
    token = await client.create_connect_token(
        external,
        success_redirect_uri=args.success_redirect,
        error_redirect_uri=args.error_redirect,
        webhook_uri=args.webhook,
    )
    expires = f", valid until {iso(token.expires_at)}" if token.expires_at else ""
    output.say(f"created a connect token for {visible(external, 60)!r} in {where}{expires}")
    record = {
        "kind": "connect_token",
        "token": token.token,
        "expires_at": iso(token.expires_at),
        "connect_link_url": token.connect_link_url,
        "external_user_id": external,
        "environment": client.environment,
        "project_id": client.project_id,
    }
    output.one_record(record, as_json=args.json)
