"""Subscriptions without a screen: the rules their ends and channel follow, listing them, and naming their ends.

The rules are the spec's (service-api.md, Subscriptions): an emitter is a
source (`dc_`) or a workflow (`p_`), or the glob `p_*` / `dc_*` for all of
them; a listener is a workflow, a source or a webhook (`wh_`); a channel is
the default one (no `event_name`), a custom name, `$errors` or `$logs`.
Forms check them before anything is sent, so a typo is caught beside the
field instead of coming back as a 400.

A subscription names its two ends by id only. Their names come from one
walk of the workspace's sources, the user's webhook list, the workflows
aftui knows, and a few `GET /workflows/{id}` (and `GET /sources/{id}` for a
source of another workspace). Names that cannot be found leave the id alone.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .api import ApiError, Client, iterate
from .api.models import Page, Source, Subscription, Webhook
from .api.paging import Fetch
from .known import KnownWorkflows
from .masking import url_secrets_masked
from .text import visible

GLOBS = {"p_*": "all workflows", "dc_*": "all sources"}
KINDS = (("p_", "workflow"), ("dc_", "source"), ("wh_", "webhook"))
EMITTER_PREFIXES = ("dc_", "p_")
LISTENER_PREFIXES = ("p_", "dc_", "wh_")
SPECIAL_CHANNELS = ("$errors", "$logs")
ID = re.compile(r"^(dc|p|wh)_[A-Za-z0-9]+$")
MAX_CHANNEL = 200
MAX_CHOICES = 500  # sources offered in a picker; more than that are typed as ids
MAX_LOOKUPS = 25  # distinct ends named with GET /workflows/{id} or /sources/{id} per load
LOOKUPS_AT_ONCE = 5

# What other prefixes are, so the message says why they cannot be an end.
OTHER_KINDS = {
    "sub_": "a subscription",
    "tch_": "a workflow template (create a workflow from it first)",
    "sc_": "a saved component (deploy it as a source first)",
    "hi_": "an HTTP trigger (use its workflow, p_…)",
    "ti_": "a timer trigger (use its workflow, p_…)",
    "ei_": "an email trigger (use its workflow, p_…)",
    "apn_": "a connected account",
    "app_": "an app",
    "o_": "a workspace",
    "u_": "a user",
    "proj_": "a Connect project",
}

NO_WORKSPACE = (
    "No workspace is chosen, and listing the user's own subscriptions needs a user API key. "
    "Set org_id in the profile to list its workspace's subscriptions."
)


def end_kind(ident: str | None) -> str:
    if not ident:
        return "?"
    if ident in GLOBS:
        return GLOBS[ident]
    return next((kind for prefix, kind in KINDS if ident.startswith(prefix)), "?")


def subscription_key(sub: Subscription) -> str:
    return sub.id or f"{sub.emitter_id}>{sub.listener_id}:{sub.event_name or ''}"


# --- the rules ----------------------------------------------------------------------------------------------


def _what(ident: str) -> str | None:
    return next((kind for prefix, kind in OTHER_KINDS.items() if ident.startswith(prefix)), None)


def emitter_problem(ident: str) -> str | None:
    """None when `ident` can emit: a source, a workflow, or one of the globs."""
    if not ident:
        return "An emitter is required: a source (dc_…), a workflow (p_…), or p_* / dc_* for all of them."
    if ident in GLOBS:
        return None
    if ident.startswith("wh_"):
        return "A webhook only receives events: it can be a listener, not an emitter."
    if ident.endswith("*"):
        return "The only globs are p_* (all workflows) and dc_* (all sources)."
    other = _what(ident)
    if other:
        return f"{visible(ident, 40)} is {other}; an emitter is a source (dc_…) or a workflow (p_…)."
    if not ident.startswith(EMITTER_PREFIXES) or not ID.match(ident):
        return "An emitter id starts with dc_ (source) or p_ (workflow), followed by letters and digits."
    return None


def listener_problem(ident: str) -> str | None:
    """None when `ident` can listen: a workflow, a source or a webhook (never a glob)."""
    if not ident:
        return "A listener is required: a workflow (p_…), a source (dc_…) or a webhook (wh_…)."
    if ident in GLOBS or ident.endswith("*"):
        return "A glob can only be an emitter; the listener is one workflow, source or webhook."
    other = _what(ident)
    if other:
        return f"{visible(ident, 40)} is {other}; a listener is a workflow (p_…), a source (dc_…) or a webhook (wh_…)."
    if not ident.startswith(LISTENER_PREFIXES) or not ID.match(ident):
        return "A listener id starts with p_ (workflow), dc_ (source) or wh_ (webhook), followed by letters and digits."
    return None


def channel_problem(channel: str) -> str | None:
    """A custom channel name: printable, no spaces, not too long. The empty name is the default channel."""
    if any(c.isspace() or not c.isprintable() for c in channel):
        return "A channel name has no spaces or control characters."
    if len(channel) > MAX_CHANNEL:
        return f"A channel name has at most {MAX_CHANNEL} characters."
    return None


def pair_problems(emitter: str, listener: str, channel: str) -> dict[str, str]:
    """Checks of the ends together, once each is valid on its own."""
    problems: dict[str, str] = {}
    if emitter and emitter == listener:
        problems["listener"] = "An emitter cannot listen to itself: its events would come straight back to it."
    if channel == "$logs" and (emitter.startswith("p_") or emitter == "p_*"):
        problems["channel"] = "$logs carries logs produced by sources; a workflow emits none. Pick a source (or dc_*)."
    return problems


def channel_words(event_name: str) -> str:
    return f"the {event_name} channel" if event_name else "the default channel"


def channel_named(word: str | None) -> str:
    """The event name a `--channel` word means: "default" (or none) is the default channel, `""`."""
    return "" if word in (None, "default") else word


def ends_of(sub: Subscription) -> tuple[str, str, str]:
    """What a subscription is: its emitter, listener and event name (`""`: the default channel). The service
    may answer a POST without an id, so a subscription is found again by these."""
    return sub.emitter_id, sub.listener_id, sub.event_name or ""


def end_label(ident: str, typed: str | None) -> str:
    """An end as the user named it, with its id: `Relay to inbox (wh_…)`; the id alone when it was given."""
    return f"{visible(typed, 60)} ({ident})" if typed and typed != ident else ident


# --- listing -------------------------------------------------------------------------------------------------


async def subscriptions_page(client: Client, **params: Any) -> Page[Subscription]:
    """A page of the current workspace's subscriptions (or the user's, with no workspace chosen)."""
    if client.org_id:
        return await client.list_workspace_subscriptions(client.org_id, **params)
    if not client.uses_user_key:
        raise ApiError(NO_WORKSPACE)  # /users/me/... would only answer 403
    return await client.list_subscriptions(**params)


async def workspace_subscriptions(client: Client) -> list[Subscription]:
    """All subscriptions of the current workspace (or the user's, with no workspace chosen)."""
    return [s async for s in iterate(lambda **p: subscriptions_page(client, **p))]


def webhook_label(webhook: Webhook) -> str:
    """A webhook as named wherever aftui shows it: its name, else its URL with the tokens masked (a Slack
    URL is its own credential: `masking.url_secrets_masked`)."""
    return webhook.name or url_secrets_masked(webhook.url)


def webhook_org(webhook: Webhook) -> str | None:
    """The workspace of a webhook, if the record says (the spec's record does not)."""
    extra = webhook.model_extra or {}
    value = extra.get("org_id") or extra.get("workspace_id")
    return value if isinstance(value, str) and value else None


def _workspace_sources(client: Client) -> Fetch[Source]:
    """The workspace's source list (the user's, with no workspace chosen), for `iterate`."""
    if client.org_id:

        async def fetch(**params: Any) -> Page[Source]:
            return await client.list_workspace_sources(client.org_id, **params)

        return fetch
    return client.list_sources


# --- finding names ---------------------------------------------------------------------------------------------


async def source_names(client: Client) -> dict[str, str]:
    """Every source of the workspace, in one walk of the list."""
    return {s.id: s.name for s in [s async for s in iterate(_workspace_sources(client))] if s.name}


async def webhook_names(client: Client) -> dict[str, str]:
    """The user's webhooks (the list needs a user API key: an OAuth token gets none)."""
    if not client.uses_user_key:
        return {}
    return {w.id: w.name for w in [w async for w in iterate(client.list_webhooks)] if w.name}


def known_workflow_names(known: KnownWorkflows, org: str | None) -> dict[str, str]:
    return {wid: name for wid, name in known.names_in(org).items() if name} if org else {}


async def lookup_names(client: Client, ids: Iterable[str], limit: int = MAX_LOOKUPS) -> dict[str, str]:
    """Names of a few sources or workflows, fetched one by one, a handful at a time.

    For what the list walks missed: workflows (the service cannot list them)
    and sources of another workspace. One that fails is left unnamed.
    """
    wanted = [i for i in dict.fromkeys(ids) if i.startswith(("p_", "dc_")) and i not in GLOBS][:limit]
    gate = asyncio.Semaphore(LOOKUPS_AT_ONCE)

    async def one(ident: str) -> tuple[str, str | None]:
        async with gate:
            return ident, await name_of(client, ident)

    found = await asyncio.gather(*(one(i) for i in wanted))
    return {i: name for i, name in found if name}


async def name_of(client: Client, ident: str) -> str | None:
    """One end's name, for a detail screen (a source or workflow by id; a webhook from the list)."""
    try:
        if ident in GLOBS:
            return None
        if ident.startswith("dc_"):
            return (await client.get_source(ident)).name
        if ident.startswith("p_"):
            return (await client.get_workflow(ident)).name
        if ident.startswith("wh_"):
            return (await webhook_names(client)).get(ident)
    except Exception:  # noqa: BLE001 - a name is a nicety: the id still shows
        return None
    return None


# --- what can be picked as an end ----------------------------------------------------------------------------------


@dataclass
class Candidates:
    """What the workspace offers as ends, by id: (kind, name)."""

    sources: dict[str, str] = field(default_factory=dict)
    workflows: dict[str, str] = field(default_factory=dict)
    webhooks: dict[str, Webhook] = field(default_factory=dict)
    more_sources: bool = False  # the source list was cut at MAX_CHOICES
    problems: list[str] = field(default_factory=list)

    def name(self, ident: str) -> str | None:
        if ident in self.sources:
            return self.sources[ident]
        if ident in self.workflows:
            return self.workflows[ident]
        webhook = self.webhooks.get(ident)
        if webhook is not None:
            return webhook_label(webhook)
        return None


async def load_candidates(
    client: Client, known: KnownWorkflows, *, sources: bool = True, webhooks: bool = True
) -> Candidates:
    """Known workflows, sources (the first MAX_CHOICES), and the user's webhooks (user API keys only)."""
    org = client.org_id
    found = Candidates(workflows=dict(known_workflow_names(known, org)))
    for wid in known.in_workspace(org) if org else {}:
        found.workflows.setdefault(wid, "")
    if sources:
        await _load_sources(client, found)
    if webhooks and client.uses_user_key:
        try:
            async for webhook in iterate(client.list_webhooks):
                if not client.org_id or webhook_org(webhook) in (None, client.org_id):
                    found.webhooks[webhook.id] = webhook
        except ApiError as error:
            found.problems.append(f"webhooks: {visible(error.message, 200)}")
    return found


async def _load_sources(client: Client, found: Candidates) -> None:
    try:
        async for source in iterate(_workspace_sources(client)):
            if len(found.sources) >= MAX_CHOICES:
                found.more_sources = True
                break
            found.sources[source.id] = source.name or ""
    except ApiError as error:
        found.problems.append(f"sources: {visible(error.message, 200)}")
