"""Subscriptions made and removed from the TUI: a route, an auto-subscription, a webhook fed by an emitter.

- `SubscriptionForm`: POST /subscriptions, from the Subscriptions pane (`n`), or
  from a source's or workflow's detail with the emitter fixed ("route errors
  to…" fixes the channel to `$errors` as well).
- `SendToWebhookForm`: from a detail, pick a webhook or create one, then
  subscribe it to this emitter.
- `AutoSubscriptionForm`: POST /auto_subscriptions, which reaches only what
  is created afterwards.
- `delete_subscription`: asks, then DELETE /subscriptions with the same three
  values the subscription has (`event_name=` sent empty for the default channel).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Input, Select, Static

from ...api import ApiError, NotFoundError
from ...api.models import Subscription, Webhook
from ...masking import url_secrets_masked
from ...subscriptions import (
    GLOBS,
    Candidates,
    channel_problem,
    channel_words,
    emitter_problem,
    listener_problem,
    load_candidates,
    pair_problems,
    webhook_label,
)
from ...text import visible
from ...urls import webhook_url_problem
from ..change import describe_error, perform, said_by
from ..host import session_of
from ..modals.confirm import ConfirmScreen
from ..modals.form import FormRow, FormScreen, Invalid, problems_of
from ..session import Session
from ..widgets.ends import CUSTOM, ChannelPicker, EndPicker, emitter_options, end_text, listener_options
from ..widgets.in_order_input import InOrderInput
from ..widgets.safe_select import SafeSelect

SUBSCRIPTION_PARAMS = {"emitter_id": "emitter", "listener_id": "listener", "event_name": "channel"}
NEW_WEBHOOK = "\x00new"


def end_words(ident: str, names: dict[str, str]) -> str:
    return end_text(ident, names, limit=60).plain


def remember_workflows(session: Session, *idents: str) -> None:
    """Workflows named in a subscription aftui made are workflows it knows (the service cannot list them)."""
    for ident in idents:
        if ident.startswith("p_") and ident not in GLOBS:
            session.known.add(session.org_id or "", ident, found="subscription")


def not_found_row(error: NotFoundError, emitter: str, listener: str) -> str:
    """Which end a 404 is about, read from its message (the service names the end, not a param)."""
    message = error.message.lower()
    if listener and (listener.lower() in message or "listener" in message):
        return "listener"
    if emitter and (emitter.lower() in message or "emitter" in message):
        return "emitter"
    return ""


def channel_check(picker: ChannelPicker) -> str | None:
    if picker.choice == CUSTOM and not picker.custom_name:
        return "Type the channel's name, or choose the default channel."
    return channel_problem(picker.value)


class SubscriptionForm(FormScreen[Subscription]):
    """Emitter, channel and listener; any of them can be fixed by the screen that opens the form."""

    TITLE_TEXT = "New subscription"
    SUBMIT_LABEL = "Subscribe"
    PARAMS = SUBSCRIPTION_PARAMS
    REFRESH = ("subscriptions",)

    def __init__(
        self,
        *,
        emitter: str = "",
        listener: str = "",
        channel: str = "",
        fixed: frozenset[str] = frozenset(),
        names: dict[str, str] | None = None,
        title: str | None = None,
    ) -> None:
        super().__init__()
        self.initial = {"emitter": emitter, "listener": listener, "channel": channel}
        self.fixed = fixed
        self.names: dict[str, str] = dict(names or {})
        self._title = title
        self.found: Candidates | None = None

    def title_text(self) -> str:
        return self._title or self.TITLE_TEXT

    def note(self) -> str:
        return "Routes the emitter's events on one channel to the listener. The same route twice is one subscription."

    def fields(self) -> ComposeResult:
        if "emitter" in self.fixed:
            yield FormRow("Emitter", Static(end_text(self.initial["emitter"], self.names)), name="emitter")
        else:
            picker = EndPicker(
                role="emitter",
                value=self.initial["emitter"],
                placeholder="dc_… · p_… · p_* · dc_*",
                empty_hint="a source (dc_…) or workflow (p_…), or p_* / dc_* for all of them",
                id="emitter",
            )
            yield FormRow("Emitter", picker, name="emitter")
        if "channel" in self.fixed:
            name = self.initial["channel"]
            yield FormRow("Channel", Static(Text(channel_words(name))), name="channel")
        else:
            yield FormRow("Channel", ChannelPicker(self.initial["channel"], id="channel"), name="channel")
        picker = EndPicker(
            role="listener",
            value=self.initial["listener"],
            placeholder="p_… · dc_… · wh_…",
            empty_hint="a workflow (p_…), a source (dc_…) or a webhook (wh_…)",
            id="listener",
        )
        yield FormRow("Listener", picker, name="listener")

    @on(Input.Changed)
    @on(Select.Changed)
    @on(EndPicker.Changed)
    def _edited(self, event: Input.Changed | Select.Changed | EndPicker.Changed) -> None:
        """A field changed after a refusal: its message is about what was there before (`emitter dc_NOPE123 not
        found` stayed beside the emitter chosen from the list instead)."""
        row = next((a for a in event.control.ancestors if isinstance(a, FormRow)), None)
        if row is not None and row.has_class("-invalid"):
            row.show_error(None)

    def on_mount(self) -> None:
        first = "emitter" if "emitter" not in self.fixed else "listener"
        self.query_one(f"#{first}", EndPicker).query_one(Input).focus()
        self._offer()

    @work(group="candidates", exclusive=True, exit_on_error=False)
    async def _offer(self) -> None:
        found = await load_candidates(self.session.client, self.session.known)
        self.found = found
        self.names.update({i: n for i, n in found.sources.items() if n})
        self.names.update({i: n for i, n in found.workflows.items() if n})
        self.names.update({i: webhook_label(w) for i, w in found.webhooks.items()})
        more = " (first 500 sources; type an id for others)" if found.more_sources else ""
        for picker in self.query(EndPicker):
            options = emitter_options(found) if picker.role == "emitter" else listener_options(found)
            picker.offer(
                options, found, f"or pick one of {len(options)}{more}…" if options else "nothing to pick: type an id"
            )
        if found.problems:
            self.notify("Could not list " + "; ".join(found.problems), severity="warning", markup=False)

    # --- the values ------------------------------------------------------------------------------------

    def end(self, which: str) -> str:
        if which in self.fixed:
            return self.initial[which]
        return self.query_one(f"#{which}", EndPicker).value

    def channel(self) -> str:
        if "channel" in self.fixed:
            return self.initial["channel"]
        return self.query_one("#channel", ChannelPicker).value

    def check(self) -> tuple[str, str, str]:
        emitter, listener = self.end("emitter"), self.end("listener")
        channel_issue = None if "channel" in self.fixed else channel_check(self.query_one("#channel", ChannelPicker))
        problems = problems_of(
            [
                ("emitter", emitter_problem(emitter)),
                ("channel", channel_issue),
                ("listener", listener_problem(listener)),
            ]
        )
        channel = self.channel()
        if not problems:
            problems = pair_problems(emitter, listener, channel)
        if problems:
            raise Invalid(problems)
        return emitter, listener, channel

    async def submit(self) -> Subscription:
        emitter, listener, channel = self.check()
        try:
            sub = await self.session.client.subscribe(emitter, listener, channel or None)
        except NotFoundError as error:
            row = not_found_row(error, emitter, listener)
            if not row:
                raise
            raise Invalid({row: describe_error(error)}, by=said_by(error)) from error
        remember_workflows(self.session, emitter, listener)
        return sub

    def done(self, result: Subscription) -> str:
        return f"Subscribed {end_words(result.listener_id, self.names)} to {end_words(result.emitter_id, self.names)} on {channel_words(result.event_name or '')}"


def route_errors_form(emitter: str, names: dict[str, str]) -> SubscriptionForm:
    """ "Route errors to…": a listener for this emitter's `$errors`."""
    title = f"Route errors of {end_words(emitter, names)} to…"
    return SubscriptionForm(
        emitter=emitter, channel="$errors", fixed=frozenset({"emitter", "channel"}), names=names, title=title
    )


class SendToWebhookForm(FormScreen[Subscription]):
    """A webhook (one of the user's, or a new one) subscribed to a fixed emitter."""

    TITLE_TEXT = "Send to a webhook"
    SUBMIT_LABEL = "Send"
    PARAMS: ClassVar[dict[str, str]] = {**SUBSCRIPTION_PARAMS, "listener_id": "webhook", "url": "url", "name": "name"}
    REFRESH = ("webhooks", "subscriptions")

    def __init__(self, emitter: str, names: dict[str, str] | None = None) -> None:
        super().__init__()
        self.emitter = emitter
        self.names: dict[str, str] = dict(names or {})
        self.webhooks: dict[str, Webhook] = {}
        self.created: Webhook | None = None  # made by this form: a retry subscribes it, never makes another

    def title_text(self) -> str:
        return f"Send {end_words(self.emitter, self.names)} to a webhook"

    def note(self) -> str:
        return "The webhook receives each event as a POST to its URL. A new webhook is created first, then subscribed."

    def fields(self) -> ComposeResult:
        yield FormRow("Emitter", Static(end_text(self.emitter, self.names)), name="emitter")
        choices = SafeSelect[str](
            [("a new webhook", NEW_WEBHOOK)], allow_blank=False, value=NEW_WEBHOOK, compact=True, id="webhook"
        )
        yield FormRow("Webhook", choices, name="webhook", hint="a new one, or one of yours (loading…)")
        yield FormRow(
            "URL",
            InOrderInput(placeholder="required: https://…", compact=True, id="url"),  # not an example: read as a value
            name="url",
            hint="http or https, with a hostname",
        )
        yield FormRow("Name", InOrderInput(placeholder="optional", compact=True, id="name"), name="name")
        yield FormRow("Channel", ChannelPicker(id="channel"), name="channel")

    def on_mount(self) -> None:
        self.query_one("#url", Input).focus()
        self._offer()

    @work(group="candidates", exclusive=True, exit_on_error=False)
    async def _offer(self) -> None:
        client = self.session.client
        hint = self.rows()["webhook"].query_one(".hint", Static)
        if not client.uses_user_key:
            hint.update(Text("listing your webhooks needs a user API key: create a new one here"))
            return
        found = await load_candidates(self.session.client, self.session.known, sources=False)
        if found.problems:
            hint.update(Text("could not list your webhooks (" + "; ".join(found.problems) + "): create a new one"))
            return
        self.webhooks.update(found.webhooks)
        self._set_choices()
        count = len(found.webhooks)
        hint.update(
            Text(
                f"a new one, or one of your {count} webhook{'s' if count != 1 else ''}"
                if count
                else "you have no webhooks yet: create one"
            )
        )

    def _set_choices(self, chosen: str | None = None) -> None:
        select = self.query_one("#webhook", Select)
        keep = chosen or (select.value if isinstance(select.value, str) else NEW_WEBHOOK)
        options: list[tuple[Any, str]] = [("a new webhook", NEW_WEBHOOK)]
        options += [
            (
                Text.assemble(
                    visible(w.name or "(no name)", 40), " → ", (visible(url_secrets_masked(w.url), 80), "dim")
                ),
                w.id,
            )
            for w in self.webhooks.values()
        ]
        select.set_options(options)
        select.value = keep if keep in {value for _, value in options} else NEW_WEBHOOK
        self._show_new(select.value == NEW_WEBHOOK)

    @on(Select.Changed, "#webhook")
    def _webhook_chosen(self, event: Select.Changed) -> None:
        self._show_new(event.value == NEW_WEBHOOK)

    def _show_new(self, new: bool) -> None:
        rows = self.rows()
        for name in ("url", "name"):
            rows[name].display = new

    async def submit(self) -> Subscription:
        client = self.session.client
        choice = self.query_one("#webhook", Select).value
        new = choice == NEW_WEBHOOK
        channel_picker = self.query_one("#channel", ChannelPicker)
        url = self.query_one("#url", Input).value.strip()
        problems = problems_of(
            [("url", webhook_url_problem(url) if new else None), ("channel", channel_check(channel_picker))]
        )
        if problems:
            raise Invalid(problems)
        channel = channel_picker.value
        if new:
            name = self.query_one("#name", Input).value.strip()
            webhook = await client.create_webhook(url, name=name or None)
            self.created = webhook
            self.webhooks[webhook.id] = webhook
            self._set_choices(webhook.id)  # a retry below subscribes this one
        else:
            webhook = self.webhooks[str(choice)]
        self.names[webhook.id] = webhook_label(webhook)
        try:
            return await client.subscribe(self.emitter, webhook.id, channel or None)
        except ApiError as error:
            if not new:
                raise
            made = visible(webhook.name or webhook.id, 60)
            raise Invalid(
                {
                    "": f"Created webhook {made}, but subscribing it failed: {describe_error(error)} It is chosen above: ctrl+s tries the subscription again."
                }
            ) from error

    def done(self, result: Subscription) -> str:
        webhook = self.webhooks.get(result.listener_id)
        where = f" → {visible(url_secrets_masked(webhook.url), 80)}" if webhook else ""
        return f"Sending {end_words(self.emitter, self.names)} ({channel_words(result.event_name or '')}) to webhook {end_words(result.listener_id, self.names)}{where}"


class AutoSubscriptionForm(FormScreen[dict]):
    """POST /auto_subscriptions: `$errors` or `$logs` of every source and workflow created from now on."""

    TITLE_TEXT = "New auto-subscription"
    SUBMIT_LABEL = "Auto-subscribe"
    PARAMS: ClassVar[dict[str, str]] = {"event_name": "channel", "listener_id": "listener"}
    REFRESH = ("subscriptions",)

    def note(self) -> Text:
        return Text.assemble(
            ("Applies only to sources and workflows created after this. ", "bold"),
            "Existing ones are not subscribed (use n on the Subscriptions pane for those). "
            "The service does not list auto-subscriptions, and its API has no way to remove one.",
        )

    def fields(self) -> ComposeResult:
        options = [("$errors: errors of workflows and sources", "$errors"), ("$logs: logs of sources", "$logs")]
        yield FormRow(
            "Channel",
            SafeSelect[str](options, allow_blank=False, value="$errors", compact=True, id="channel"),
            name="channel",
        )
        picker = EndPicker(
            role="listener",
            placeholder="p_… · dc_… · wh_…",
            empty_hint="a workflow (p_…), a source (dc_…) or a webhook (wh_…)",
            id="listener",
        )
        yield FormRow("Listener", picker, name="listener")

    def on_mount(self) -> None:
        self.query_one("#listener", EndPicker).query_one(Input).focus()
        self._offer()

    @work(group="candidates", exclusive=True, exit_on_error=False)
    async def _offer(self) -> None:
        found = await load_candidates(self.session.client, self.session.known)
        options = listener_options(found)
        self.query_one("#listener", EndPicker).offer(
            options, found, f"or pick one of {len(options)}…" if options else "nothing to pick: type an id"
        )

    async def submit(self) -> dict:
        listener = self.query_one("#listener", EndPicker).value
        channel = self.query_one("#channel", Select).value
        problems = problems_of([("listener", listener_problem(listener))])
        if problems:
            raise Invalid(problems)
        answer = await self.session.client.auto_subscribe(str(channel), listener)
        return {"event_name": str(channel), "listener_id": listener, **answer}

    def done(self, result: dict) -> str:
        picker = self.query_one("#listener", EndPicker)
        found = picker.found
        name = found.name(result["listener_id"]) if found else None
        who = f"{visible(name, 60)} ({result['listener_id']})" if name else result["listener_id"]
        return f"Auto-subscribed {who} to {result['event_name']} of sources and workflows created from now on; existing ones are unchanged"


# --- removing one ------------------------------------------------------------------------------------------


def confirm_subscription_delete(sub: Subscription, names: dict[str, str]) -> ConfirmScreen:
    listener = end_words(sub.listener_id, names)
    what = [
        f"the subscription {sub.id}" if sub.id else "this subscription",
        f"from {end_words(sub.emitter_id, names)}, {channel_words(sub.event_name or '')}",
        f"to {listener}",
        f"{listener} then receives no more of these events; both ends and their events stay",
    ]
    return ConfirmScreen("Delete this subscription?", what)


async def delete_subscription(owner: Widget, sub: Subscription, names: dict[str, str]) -> bool:
    """Ask, then DELETE /subscriptions with the subscription's own three values; True once deleted."""
    if not await owner.app.push_screen_wait(confirm_subscription_delete(sub, names)):
        return False
    client = session_of(owner).client
    # unsubscribe sends `event_name=` (empty) for the default channel: the service needs it present.
    call = client.unsubscribe(sub.emitter_id, sub.listener_id, sub.event_name or "")
    done = f"Deleted the subscription from {end_words(sub.emitter_id, names)} to {end_words(sub.listener_id, names)} ({channel_words(sub.event_name or '')})"
    gone = "That subscription was already deleted (by someone or something else): the lists are read again."
    deleted, _ = await perform(owner, call, done=done, refresh=("subscriptions",), gone=gone)
    return deleted
