"""Webhooks: the user's list, and one webhook with the subscriptions that feed it.

The service lists webhooks under `/users/me/webhooks`: every workspace of the
user at once, and (in the spec and the emulator) without saying which
workspace each belongs to. When the records do carry an `org_id`, the pane
keeps those of the current workspace; otherwise it shows them all and says
so in its title. There is no `GET /webhooks/{id}`: a webhook opened by id
is found by walking the list.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import ScrollableContainer
from textual.widget import Widget
from textual.widgets import Input, Static

from ...api import ApiError, Client, NotFoundError, iterate
from ...api.models import Page, PageInfo, Subscription, Webhook
from ...masking import url_secrets_masked
from ...subscriptions import lookup_names, subscription_key, webhook_org, workspace_subscriptions
from ..change import Guarded, perform
from ..host import session_of
from ..safe import flag, long_text, plain, when
from ..widgets.ends import channel_text, end_text
from ..widgets.fields import Ago, Fields
from ..widgets.paged_table import Column, PagedTable
from ..widgets.pane import Pane
from .detail import DetailScreen
from .subscriptions import enter_tab, open_end

NEEDS_USER_KEY = (
    "Listing webhooks needs a user API key: the service lists them only under /users/me, "
    "which a workspace OAuth token cannot read. Use a profile with a user API key."
)


def webhook_columns() -> list[Column[Webhook]]:
    """The URL takes what the pane has left beyond the other columns, as the pane's width changes; when
    narrow, the URL and the name are cut shorter first (PagedTable fits them)."""
    return [
        Column(
            "name",
            "Name",
            lambda w: plain(w.name, 60) if w.name else Text("(no name)", style="dim"),
            sort=lambda w: (w.name or "").lower(),
            width=20,
            min_width=16,
            cut="middle",
        ),
        # Masked: a Slack or Discord URL is its own credential (the detail's v shows it whole).
        Column("url", "URL", lambda w: plain(url_secrets_masked(w.url), 200), width=24, min_width=16),
        Column("active", "Active", lambda w: flag(w.active), sort=lambda w: w.active, width=6),
        Column("id", "ID", lambda w: plain(w.id, 30, "cyan"), width=12),
        Column("created", "Created", lambda w: when(w.created_at), sort=lambda w: w.created_at, width=16),
    ]


async def list_webhooks_or_explain(client: Client, **params: Any) -> Page[Webhook]:
    """GET /users/me/webhooks, which only a user API key may read: with an OAuth token, say so without asking."""
    if not client.uses_user_key:
        raise ApiError(NEEDS_USER_KEY)
    return await client.list_webhooks(**params)


async def delete_webhook(owner: Widget, webhook: Webhook) -> bool:
    """Ask (naming the subscriptions that go with it), then DELETE /webhooks/{id}; True once deleted."""
    from ..forms.webhook import confirm_webhook_delete

    client = session_of(owner).client
    try:
        feeds: int | None = sum(1 for s in await workspace_subscriptions(client) if s.listener_id == webhook.id)
    except ApiError:
        feeds = None  # the question is still worth asking without the count
    if not await owner.app.push_screen_wait(confirm_webhook_delete(webhook, feeds)):
        return False
    deleted, _ = await perform(
        owner,
        client.delete_webhook(webhook.id),
        done=f"Deleted webhook {webhook.name or webhook.id}",
        refresh=("webhooks", "subscriptions"),
        gone=f"Webhook {webhook.name or webhook.id} was already deleted: the lists are read again.",
    )
    return deleted


class WebhooksPane(Guarded, Pane):
    TITLE = "Webhooks"
    CHANGES = frozenset({"new", "delete"})
    BINDINGS = [
        Binding("n", "new", "New webhook"),
        Binding("d", "delete", "Delete"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.scoped: bool | None = None  # True: this workspace's only; False: every workspace; None: not loaded

    def compose(self) -> ComposeResult:
        yield Static(Text("Webhooks"), classes="pane-title", id="webhooks-title")
        yield Static(id="webhooks-empty", classes="empty")
        yield PagedTable(self._fetch, webhook_columns(), item_id=lambda w: w.id, noun="webhooks")

    async def _fetch(self, **params: Any) -> Page[Webhook]:
        """A page of the user's webhooks, kept to the workspace's when the records name theirs."""
        client = self.client
        first = not params.get("after")
        if first:
            self.set_class(False, "empty")
        page = await list_webhooks_or_explain(client, **params)
        scoped = bool(client.org_id) and any(webhook_org(w) for w in page.items)
        if scoped:
            # Skip pages with none of ours, so the table never stops at an empty page with more to come.
            mine = [w for w in page.items if webhook_org(w) == client.org_id]
            while not mine and page.page_info.end_cursor:
                page = await list_webhooks_or_explain(client, **{**params, "after": page.page_info.end_cursor})
                mine = [w for w in page.items if webhook_org(w) == client.org_id]
            page = Page[Webhook](items=mine, page_info=PageInfo(count=len(mine), end_cursor=page.page_info.end_cursor))
        if first:
            self._set_scope(scoped)
            self.set_class(not page.items, "empty")
        return page

    def _set_scope(self, scoped: bool) -> None:
        self.scoped = scoped
        if scoped:
            title = Text.assemble("Webhooks", (" · this workspace", "dim"))
            empty = "No webhooks in this workspace. A webhook is created with POST /webhooks?url=… and fed by a subscription; press r to reload."
        else:
            title = Text.assemble("Webhooks", (" · all your workspaces (the list does not say which)", "dim"))
            empty = (
                "No webhooks in any of your workspaces. A webhook is created with POST /webhooks?url=… "
                "and receives events once a subscription names it as listener; press r to reload."
            )
        title.no_wrap, title.overflow = True, "ellipsis"
        self.query_one("#webhooks-title", Static).update(title)
        self.query_one("#webhooks-empty", Static).update(Text(empty))

    def workspace_changed(self) -> None:
        self.query_one(PagedTable).reload()

    def action_new(self) -> None:
        from ..forms.webhook import WebhookForm

        def created(made: Webhook | None) -> None:
            if made is not None and made.id:  # where `enter` and `d` act next
                self.query_one(PagedTable).go_to(lambda hook: hook.id == made.id)

        self.app.push_screen(WebhookForm(), created)

    @work(group="change", exclusive=True, exit_on_error=False)
    async def action_delete(self) -> None:
        webhook = self.query_one(PagedTable).current
        if webhook is not None:
            await delete_webhook(self, webhook)

    def on_paged_table_opened(self, event: PagedTable.Opened) -> None:
        webhook: Webhook = event.item
        self.app.push_screen(WebhookScreen(webhook.id, ("Webhooks", webhook.name or webhook.id), record=webhook))


class FedBy(ScrollableContainer, can_focus=False):
    """The "Fed by" tab: a note over the table (taken as it is by the detail, so tab reaches the table)."""


class WebhookScreen(Guarded, DetailScreen):
    """Overview and "Fed by": the subscriptions whose listener is this webhook; enter opens the emitter."""

    CHANGES = frozenset({"delete"})
    BINDINGS = [
        Binding("d", "delete", "Delete"),
        Binding("v", "show_url", "Show/hide URL"),
        Binding("down", "enter_tab", "Into the tab", show=False),
        # Before the table's own escape (clear filter), which would keep it even with no filter to clear.
        Binding("escape", "back", "Back", priority=True),
    ]

    def __init__(self, ident: str, crumbs: tuple[str, ...], *, record: Webhook | None = None) -> None:
        super().__init__(ident, crumbs, record=record)
        self._given = record is not None
        self.names: dict[str, str] = {}
        self.url_shown = False  # v: the URL whole, tokens and all, until v again or the screen is left
        self._overview: Fields | None = None

    async def load(self) -> Webhook:
        client = self.session.client
        webhook: Webhook | None = self.record if self._given else None
        self._given = False  # `r` asks the service again
        if webhook is None:
            webhook = await self._find(client)
        return webhook

    async def _find(self, client: Client) -> Webhook:
        """There is no GET /webhooks/{id}: walk the user's list for it."""
        async for webhook in iterate(lambda **p: list_webhooks_or_explain(client, **p)):
            if webhook.id == self.ident:
                return webhook
        raise NotFoundError(f"No webhook {self.ident} among yours (it may have been deleted).")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "show_url" and isinstance(self.record, Webhook):
            # Dimmed where v would show nothing more: the URL has no token to unmask.
            return url_secrets_masked(self.record.url) != self.record.url or None
        return super().check_action(action, parameters)

    def action_show_url(self) -> None:
        self.url_shown = not self.url_shown
        if self._overview is not None:
            self._overview.set_rows(self._overview_rows())

    def json_data(self) -> Any:
        """The record with its URL's tokens masked: the JSON tab and `c` never carry them (v shows them)."""
        data = super().json_data()
        if isinstance(data, dict) and isinstance(data.get("url"), str):
            data["url"] = url_secrets_masked(data["url"])
        return data

    def _url_text(self, url: str) -> Text:
        shown = url_secrets_masked(url)
        if shown == url or self.url_shown:
            return long_text(url, 1000)
        # On a line of its own: at 80 columns, run on, it wrapped as "…/9fQk…s" over "D  masked: …".
        return Text.assemble(long_text(shown, 1000), ("\nmasked: v shows it whole", "dim"))

    def tabs(self) -> list[tuple[str, Widget]]:
        self._overview = Fields(self._overview_rows())
        fed_by = FedBy(
            Static(
                Text("Subscriptions whose listener is this webhook; enter opens the emitter."),
                classes="fed-note",
                id="fed-note",
            ),
            PagedTable(
                self._feeds,
                self._feed_columns(),
                item_id=subscription_key,
                noun="subscriptions",
                classes="fed-by",
                id="fed-by",
            ),
        )
        return [("Overview", self._overview), ("Fed by", fed_by)]

    def _overview_rows(self) -> list[tuple[str, Any]]:
        webhook: Webhook = self.record
        rows: list[tuple[str, Any]] = [
            ("ID", webhook.id),
            ("Name", webhook.name if webhook.name else Text("(no name)", style="dim")),
            ("Description", long_text(webhook.description) if webhook.description else Text("—", style="dim")),
            ("URL", self._url_text(webhook.url)),
            ("Active", flag(webhook.active)),
            ("Created", Ago(webhook.created_at, self.session.now)),
            ("Updated", Ago(webhook.updated_at, self.session.now)),
        ]
        org = webhook_org(webhook)
        if org:
            rows.append(("Workspace", org))
        if webhook.user_id:
            rows.append(("Owner", webhook.user_id))
        # Users look for an edit key to fix a URL; the API has no update of a webhook, so say the way there is.
        rows.append(
            (
                "To change",
                Text(
                    "the API cannot change a webhook: add one as it should be (n on the list), subscribe it as this one is (Fed by), then delete this one (d)",
                    style="dim",
                ),
            )
        )
        return rows

    def _feed_columns(self) -> list[Column[Subscription]]:
        return [
            Column(
                "emitter",
                "Emitter",
                lambda s: end_text(s.emitter_id, self.names),
                width=30,  # at least; PagedTable widens it to what it holds as the width allows
            ),
            Column(
                "channel", "Channel", lambda s: channel_text(s.event_name), sort=lambda s: s.event_name or "", width=10
            ),
            Column("id", "Subscription", lambda s: plain(s.id, 30, "dim"), width=14),
        ]

    async def _feeds(self, **params: Any) -> Page[Subscription]:
        """The workspace's subscriptions with this webhook as listener, their emitters named."""
        client = self.session.client
        feeds = [s for s in await workspace_subscriptions(client) if s.listener_id == self.ident]
        self.names.update(await lookup_names(client, (s.emitter_id for s in feeds if s.emitter_id not in self.names)))
        self._explain_feeds(feeds)
        return Page[Subscription](items=feeds, page_info=PageInfo(total_count=len(feeds), count=len(feeds)))

    def _explain_feeds(self, feeds: list[Subscription]) -> None:
        notes = self.query("#fed-note")
        if not notes:
            return
        if feeds:
            text = Text(
                f"{len(feeds)} subscription{'s' if len(feeds) != 1 else ''} with this webhook as listener; enter opens the emitter."
            )
        else:
            where = "this workspace" if self.session.client.org_id else "your subscriptions"
            text = Text(
                f"No subscription in {where} feeds this webhook, so it receives nothing. "
                "Subscribe it to an emitter on the Subscriptions pane: 5, then n (this webhook as the listener)."
            )
        notes.first(Static).update(text)

    def action_enter_tab(self) -> None:
        enter_tab(self)

    @work(group="change", exclusive=True, exit_on_error=False)
    async def action_delete(self) -> None:
        if isinstance(self.record, Webhook) and await delete_webhook(self, self.record):
            self.app.pop_screen()

    def action_back(self) -> None:
        """esc clears the Fed by filter if there is one, else goes back."""
        for table in self.query(PagedTable):
            if table.filter_text or table.query_one("#filter", Input).has_focus:
                table.action_clear_filter()
                return
        self.app.pop_screen()

    def on_paged_table_opened(self, event: PagedTable.Opened) -> None:
        if isinstance(event.item, Subscription):
            event.stop()
            open_end(self.app, event.item.emitter_id)
