"""Subscriptions: the workspace's routes from emitters to listeners, and one route in full.

A subscription names its two ends by id only. The list shows each end with
its kind (read from the id prefix) and, once a background load has found it,
its name (aftui/subscriptions.py says where names come from). Names that
cannot be found leave the id on its own.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.dom import DOMNode
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ...api import ApiError, Client, NotFoundError, iterate
from ...api.models import Subscription
from ...subscriptions import (
    GLOBS,
    end_kind,
    ends_of,
    known_workflow_names,
    lookup_names,
    name_of,
    source_names,
    subscription_key,
    subscriptions_page,
    webhook_names,
    workspace_subscriptions,
)
from ...text import visible
from ..change import Guarded
from ..host import host
from ..safe import plain
from ..widgets.ends import channel_note, channel_text, end_text
from ..widgets.fields import Fields
from ..widgets.paged_table import Column, PagedTable
from ..widgets.pane import Pane
from .detail import DetailScreen


def pane_width(app: App[object]) -> int:
    """The width a pane gets beside the sidebar; column widths are chosen from it when a pane is built."""
    width = app.size.width
    try:
        sidebar = app.query_one("#sidebar")
    except Exception:  # noqa: BLE001 - no sidebar (a test app): the whole width
        return width
    return width - sidebar.outer_size.width if sidebar.display else width


def enter_tab(screen: Screen[None]) -> None:
    """From the tab bar, `down` goes into the shown tab: its list, else whatever takes focus first."""
    from textual.widgets import DataTable, TabbedContent, Tree

    from ..widgets.board import Board

    tabbed = screen.query(TabbedContent)
    pane = tabbed.first().active_pane if tabbed else None
    if pane is None:
        return
    focusable = [w for w in pane.query("*") if w.focusable]
    chosen = next((w for w in focusable if isinstance(w, (Board, DataTable, OptionList, Tree))), None) or next(
        iter(focusable), None
    )
    if chosen is not None:
        chosen.focus()


def open_end(node: DOMNode, ident: str | None) -> None:
    """Open one end of a subscription (`node`: the screen asking); a glob has none to open."""
    if not ident:
        return
    if ident in GLOBS:
        node.app.notify(
            f"{ident} stands for {GLOBS[ident]} of the workspace: there is no one resource to open.",
            severity="warning",
            markup=False,
        )
        return
    host(node).open_id(ident)


# --- the list --------------------------------------------------------------------------------------------


class SubscriptionsPane(Guarded, Pane):
    TITLE = "Subscriptions"
    CHANGES = frozenset({"new", "delete", "auto"})
    BINDINGS = [
        Binding("n", "new", "New"),
        Binding("d", "delete", "Delete"),
        Binding("A", "auto", "Auto-subscribe"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.names: dict[str, str] = {}
        self._short = False

    def compose(self) -> ComposeResult:
        yield Static(Text("Subscriptions"), classes="pane-title")
        yield Static(
            Text(
                "No subscriptions in this workspace. A subscription routes an emitter's events "
                "(a source or workflow, on a channel) to a listener (a workflow, source or webhook); "
                "press n to create one (POST /subscriptions; A auto-subscribes what is created later). Press 1 to choose another workspace, r to reload."
            ),
            classes="empty",
        )
        yield PagedTable(self._fetch, self.columns(), item_id=subscription_key, noun="subscriptions")

    def columns(self) -> list[Column[Subscription]]:
        """The two ends share what the pane has (the id scrolls off to the right when narrow)."""
        ends = max(22, min(48, (pane_width(self.app) - 7 - 12 - 2 * 4 - 2) // 2))
        self._short = ends < 32
        return [
            Column("emitter", "Emitter", lambda s: self._end(s.emitter_id), width=ends),
            Column(
                "channel", "Channel", lambda s: channel_text(s.event_name), sort=lambda s: s.event_name or "", width=7
            ),
            Column("listener", "Listener", lambda s: self._end(s.listener_id), width=ends),
            Column("id", "ID", lambda s: plain(s.id, 30, "dim"), width=12),
        ]

    def _end(self, ident: str | None) -> Text:
        return end_text(ident, self.names, short=self._short)

    async def _fetch(self, **params: Any) -> Any:
        client = self.client
        first = not params.get("after")
        if first:
            self.set_class(False, "empty")
        page = await subscriptions_page(client, **params)
        if first:
            self.set_class(not page.items, "empty")
            self._find_names(page.items)
        return page

    @work(group="names", exclusive=True, exit_on_error=False)
    async def _find_names(self, first_page: list[Subscription]) -> None:
        """Sources in one walk, webhooks from the user's list, the rest (workflows) known or looked up."""
        client = self.client
        names = dict(known_workflow_names(self.session.known, self.session.org_id))
        self._show_names(names)
        for finder in (source_names, webhook_names):
            try:
                names.update(await finder(client))
            except ApiError:
                continue  # the id alone still shows
            self._show_names(names)
        ends = [
            e for s in [*self.query_one(PagedTable).pager.items, *first_page] for e in (s.emitter_id, s.listener_id)
        ]
        names.update(await lookup_names(client, (e for e in ends if e not in names)))
        self._show_names(names)

    def _show_names(self, names: dict[str, str]) -> None:
        """Redraw the end columns of the rows already shown (filter and sort read the names too)."""
        self.names.update(names)
        self.query_one(PagedTable).redraw()

    def workspace_changed(self) -> None:
        self.names.clear()
        self.query_one(PagedTable).reload()

    def action_new(self) -> None:
        from ..forms.subscription import SubscriptionForm

        def created(made: Subscription | None) -> None:
            if made is not None:  # where `enter` and `d` act next; the service's answer may carry no id
                ends = ends_of(made)
                self.query_one(PagedTable).go_to(lambda sub: ends_of(sub) == ends)

        self.app.push_screen(SubscriptionForm(names=dict(self.names)), created)

    def action_auto(self) -> None:
        from ..forms.subscription import AutoSubscriptionForm

        self.app.push_screen(AutoSubscriptionForm())

    @work(group="change", exclusive=True, exit_on_error=False)
    async def action_delete(self) -> None:
        from ..forms.subscription import delete_subscription

        sub = self.query_one(PagedTable).current
        if sub is None:
            self.notify("No subscription is selected.", severity="warning", markup=False)
            return
        await delete_subscription(self, sub, self.names)

    def on_paged_table_opened(self, event: PagedTable.Opened) -> None:
        sub: Subscription = event.item
        crumbs = ("Subscriptions", sub.id or subscription_key(sub))
        self.app.push_screen(SubscriptionScreen(sub.id or "", crumbs, record=sub, names=dict(self.names)))


# --- one subscription ------------------------------------------------------------------------------------


class SubscriptionScreen(Guarded, DetailScreen):
    """Both ends with kind, name and id, and the channel; `e`/`l` (or enter on an end) open them."""

    CHANGES = frozenset({"delete"})
    BINDINGS = [
        Binding("d", "delete", "Delete"),
        Binding("e", "open_end('emitter')", "Open emitter"),
        Binding("l", "open_end('listener')", "Open listener"),
        Binding("down", "enter_tab", "Into the tab", show=False),
    ]

    def __init__(
        self,
        ident: str,
        crumbs: tuple[str, ...],
        *,
        record: Subscription | None = None,
        names: dict[str, str] | None = None,
    ) -> None:
        super().__init__(ident, crumbs, record=record)
        self.names: dict[str, str] = dict(names or {})
        self._given = record is not None

    async def load(self) -> Subscription:
        client = self.session.client
        sub: Subscription | None = self.record if self._given else None
        self._given = False  # `r` asks the service again
        if sub is None:
            sub = await self._find(client)
        for end in (sub.emitter_id, sub.listener_id):
            if end not in self.names:
                name = await name_of(client, end)
                if name:
                    self.names[end] = name
        return sub

    async def _find(self, client: Client) -> Subscription:
        """There is no GET /subscriptions/{id}: look for it in the workspace's list, then the user's."""
        found = next((s for s in await workspace_subscriptions(client) if s.id == self.ident), None)
        if found is None and client.org_id and client.uses_user_key:
            found = next((s for s in [s async for s in iterate(client.list_subscriptions)] if s.id == self.ident), None)
        if found is None:
            raise NotFoundError(
                f"No subscription {self.ident} in this workspace or among yours (it may have been deleted)."
            )
        return found

    def tabs(self) -> list[tuple[str, Widget]]:
        sub: Subscription = self.record
        rows: list[tuple[str, Any]] = [
            ("ID", sub.id),
            ("Emitter", self._end(sub.emitter_id)),
            ("Channel", channel_note(sub.event_name)),
            ("Listener", self._end(sub.listener_id)),
        ]
        if sub.emitter_id in GLOBS:
            rows.append(
                (
                    "",
                    Text(
                        f"{sub.emitter_id} matches {GLOBS[sub.emitter_id]} of the workspace, new ones included.",
                        style="dim",
                    ),
                )
            )
        # The API has no update of a subscription: its ends or channel change by making another.
        rows.append(
            (
                "To change",
                Text(
                    "the API cannot change a subscription: add the one you want (n on the list), then delete this one (d)",
                    style="dim",
                ),
            )
        )
        ends = OptionList(
            Option(Text.assemble(("emitter   ", "bold"), end_text(sub.emitter_id, self.names)), id="emitter"),
            Option(Text.assemble(("listener  ", "bold"), end_text(sub.listener_id, self.names)), id="listener"),
            id="ends",
        )
        overview = Vertical(
            Fields(rows),
            Static(Text.assemble("Open an end ", ("(enter, or e / l)", "dim")), classes="ends-title"),
            ends,
        )
        overview.styles.height = "auto"
        return [("Overview", overview)]

    def _end(self, ident: str) -> Text:
        kind = end_kind(ident)
        text = Text(kind, style="bold")
        name = self.names.get(ident)
        if ident in GLOBS:
            text.append(f"  {ident}", style="cyan")
            return text
        if name:
            text.append("  ")
            text.append(visible(name, 200))
        text.append("  ")
        text.append(visible(ident, 60), style="cyan")
        return text

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "ends" and event.option.id:
            event.stop()
            self.action_open_end(event.option.id)

    def action_enter_tab(self) -> None:
        enter_tab(self)

    @work(group="change", exclusive=True, exit_on_error=False)
    async def action_delete(self) -> None:
        from ..forms.subscription import delete_subscription

        if isinstance(self.record, Subscription) and await delete_subscription(self, self.record, self.names):
            self.app.pop_screen()

    def action_open_end(self, which: str) -> None:
        sub = self.record
        if not isinstance(sub, Subscription):
            return
        open_end(self.app, sub.emitter_id if which == "emitter" else sub.listener_id)
