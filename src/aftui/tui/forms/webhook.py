"""Create a webhook, and delete one after saying what goes with it."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Input

from ...api.models import Webhook
from ...masking import url_secrets_masked
from ...text import visible
from ...urls import webhook_url_problem
from ..modals.confirm import ConfirmScreen
from ..modals.form import FormRow, FormScreen, Invalid, problems_of
from ..widgets.in_order_input import InOrderInput


class WebhookForm(FormScreen[Webhook]):
    """POST /webhooks: a URL (checked as the service checks it), a name, a description."""

    TITLE_TEXT = "New webhook"
    SUBMIT_LABEL = "Create"
    REFRESH = ("webhooks",)

    def note(self) -> str:
        return "A webhook receives events once a subscription names it as listener (Subscriptions, n)."

    def fields(self) -> ComposeResult:
        yield FormRow(
            "URL",
            # Not an example URL: shown grey in the field, it read as a value already there.
            InOrderInput(placeholder="required: https://…", id="url", compact=True),
            name="url",
            hint="http or https, with a hostname; a port and a path are allowed",
        )
        yield FormRow("Name", InOrderInput(placeholder="optional", id="name", compact=True), name="name")
        yield FormRow(
            "Description", InOrderInput(placeholder="optional", id="description", compact=True), name="description"
        )

    def on_mount(self) -> None:
        self.query_one("#url", Input).focus()

    def value(self, ident: str) -> str:
        return self.query_one(f"#{ident}", Input).value.strip()

    async def submit(self) -> Webhook:
        url = self.value("url")
        problems = problems_of([("url", webhook_url_problem(url))])
        if problems:
            raise Invalid(problems)
        return await self.session.client.create_webhook(
            url, name=self.value("name") or None, description=self.value("description") or None
        )

    def done(self, result: Webhook) -> str:
        return f"Created webhook {result.name or result.id} → {url_secrets_masked(result.url)}"


def confirm_webhook_delete(webhook: Webhook, feeds: int | None) -> ConfirmScreen:
    what = [
        f"the webhook {visible(webhook.name or '(no name)', 80)} ({webhook.id})",
        f"which delivers to {visible(url_secrets_masked(webhook.url), 200)}",
    ]
    if feeds:
        what.append(f"and the {feeds} subscription{'s that feed' if feeds != 1 else ' that feeds'} it")
    return ConfirmScreen("Delete this webhook?", what)
