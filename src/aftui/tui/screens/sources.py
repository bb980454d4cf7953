"""Sources: the workspace's list, and a source's props, code, events and subscriptions."""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any

from rich.syntax import Syntax
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.dom import DOMNode
from textual.widget import Widget
from textual.widgets import Static

from ...api import ApiError
from ...api.models import Component, EventSummary, Source, Subscription
from ...api.paging import iterate
from ...event_deletion import outcome_words, watch_deletion
from ...schedule import describe_timer
from ...text import visible
from ..change import Guarded
from ..health_cells import health_columns
from ..journaling import journaled, kept_events, kept_events_of_the_day
from ..safe import day, flag, plain
from ..widgets.fields import Ago, Fields
from ..widgets.listing import Listing
from ..widgets.paged_table import Column, PagedTable
from ..widgets.pane import Pane
from .events import EventScreen, event_columns
from .live_events import LiveEvents
from .stand_in import StandInDetail

MAX_CODE = 200_000
SECRET_MASK = "••••••••"


def is_timer(value: Any) -> bool:
    return isinstance(value, dict) and ("interval_seconds" in value or "intervalSeconds" in value or "cron" in value)


def prop_value(value: Any) -> Text:
    """A configured prop as people read it: schedules in words, accounts by id, the rest as JSON."""
    if is_timer(value):
        return Text(describe_timer(value))
    if isinstance(value, dict) and "endpoint_url" in value:
        return plain(value.get("endpoint_url") or "(no endpoint yet)", 300)
    if isinstance(value, dict) and "authProvisionId" in value:
        return Text.assemble("account ", (visible(value["authProvisionId"], 40), "cyan"))
    from ..widgets.json_view import dumps

    return plain(value if isinstance(value, str) else dumps(value, indent=None), 300)


def source_kind(source: Source) -> str:
    kinds = []
    for value in source.configured_props.values():
        if is_timer(value):
            kinds.append("timer")
        elif isinstance(value, dict) and "endpoint_url" in value:
            kinds.append("http")
        elif isinstance(value, dict) and "authProvisionId" in value:
            kinds.append("app")
    return "+".join(dict.fromkeys(kinds)) or "—"


def source_columns(now: Any, health: list[Column[Source]] | None = None) -> list[Column[Source]]:
    """The Sources list's columns; `health` (health_cells.py) go after Active."""
    return [
        Column("name", "Name", lambda s: plain(s.name, 40), width=28, min_width=16, cut="middle"),
        Column("id", "ID", lambda s: plain(s.id, 16, "cyan"), width=12, hide_rank=1),
        Column("kind", "Kind", lambda s: Text(source_kind(s)), width=9, hide_rank=2),
        Column("active", "Active", lambda s: flag(s.active), sort=lambda s: s.active, width=6),
        *(health or []),
        Column("updated", "Updated", lambda s: day(s.updated_at), sort=lambda s: s.updated_at, width=10),
    ]


def deploy_form(node: DOMNode, *, mode: str = "registry", ref: str = "") -> None:
    """Open the deploy form; once deployed, the new source's detail (to see its endpoint and first events)."""
    from ..forms.source import DeploySourceForm

    app = node.app

    def deployed(source: Source | None) -> None:
        if source is not None:
            app.push_screen(SourceScreen(source.id, ("Sources", source.name or source.id), record=source))

    app.push_screen(DeploySourceForm(mode=mode, ref=ref), deployed)


class SourcesPane(Guarded, Pane):
    TITLE = "Sources"
    CHANGES = frozenset({"toggle_active", "delete_source", "new_source"})
    BINDINGS = [
        Binding("n", "new_source", "New source"),
        Binding("t", "toggle_active", "On/off"),
        Binding("d", "delete_source", "Delete"),
    ]

    def compose(self) -> ComposeResult:
        yield Static(Text("Sources"), classes="pane-title")
        health: list[Column[Source]] = health_columns(self, lambda s: s.id)
        yield PagedTable(self._fetch, source_columns(self.session.now, health), item_id=lambda s: s.id, noun="sources")

    async def _fetch(self, **params: Any) -> Any:
        client = self.client
        if client.org_id:
            return await client.list_workspace_sources(client.org_id, **params)
        return await client.list_sources(**params)

    def workspace_changed(self) -> None:
        self.query_one(PagedTable).reload()

    def health_changed(self) -> None:
        self.query_one(PagedTable).redraw()

    def action_new_source(self) -> None:
        deploy_form(self.app)

    @work(group="change", exclusive=True, exit_on_error=False)
    async def action_toggle_active(self) -> None:
        from ..forms.lifecycle import toggle_source

        source = self.query_one(PagedTable).current
        if source is not None:
            await toggle_source(self, source)

    @work(group="change", exclusive=True, exit_on_error=False)
    async def action_delete_source(self) -> None:
        from ..forms.lifecycle import delete_source

        source = self.query_one(PagedTable).current
        if source is not None:
            await delete_source(self, source)

    def on_paged_table_opened(self, event: PagedTable.Opened) -> None:
        source: Source = event.item
        self.app.push_screen(SourceScreen(source.id, ("Sources", source.name or source.id), record=source))


class SourceScreen(Guarded, StandInDetail):
    """Overview, configured props, the component's code, recent events, subscriptions."""

    CHANGES = frozenset(
        {"toggle_active", "delete_source", "delete_events", "send_to_webhook", "route_errors", "update_source"}
    )
    BINDINGS = [
        Binding("u", "update_source", "Update"),
        Binding("t", "toggle_active", "On/off"),
        Binding("d", "delete_source", "Delete source"),
        Binding("D", "delete_events", "Delete events"),
        Binding("w", "send_to_webhook", "To webhook"),
        Binding("E", "route_errors", "Route errors"),
    ]

    component: Component | None = None

    async def read(self) -> Source:
        client = self.session.client
        source = await client.get_source(self.ident)
        self.component = None
        if source.component_id:
            try:
                self.component = await client.get_component(source.component_id)
            except Exception:  # noqa: BLE001 - the source is still worth showing without its code
                self.component = None
        return source

    # The service did not answer and the journal has the source's events of the day: they are shown, from the
    # journal, with its name (`StandInDetail`). In an outage Health showed when it last emitted, and opening
    # it said "Could not load" alone.

    async def kept(self) -> bool:
        return bool(await asyncio.to_thread(kept_events_of_the_day, self.session, self.ident, 1))

    def stand_in(self) -> Source:
        self.component = None
        return Source(id=self.ident, name=self.crumbs[-1] if len(self.crumbs) > 1 else None)

    def down_tabs(self, down: ApiError) -> list[tuple[str, Widget]]:
        """The source as the journal knows it: its name and events, and why that is all."""
        said = self.down_said("its props, code and subscriptions", "Its events")
        note = self.kept_note("its events")
        events = LiveEvents(
            kept_events(self.session, self.ident),
            event_columns(),
            peek=partial(self.session.client.list_source_events, self.ident),
            noun="events",
            id="events",
        )
        overview = [("Name", self.record.name), ("ID", self.ident), ("", said)]
        return [("Overview", Fields(overview)), ("Events", Listing(note, events))]

    def full_tabs(self) -> list[tuple[str, Widget]]:
        source: Source = self.record
        return [
            ("Overview", Fields(self._overview(source))),
            ("Props", Fields(self._props(source))),
            ("Code", Static(self._code(), classes="code")),
            (
                "Events",
                LiveEvents(
                    journaled(self.session, partial(self.session.client.list_source_events, source.id), source.id),
                    event_columns(),
                    peek=partial(self.session.client.list_source_events, source.id),
                    noun="events",
                    id="events",
                ),
            ),
            (
                "Subscriptions",
                PagedTable(
                    self._subscriptions,
                    _subscription_columns(source.id),
                    item_id=lambda s: s.id or f"{s.emitter_id}>{s.listener_id}",
                    noun="subscriptions",
                ),
            ),
        ]

    def _overview(self, source: Source) -> list[tuple[str, Any]]:
        comp = self.component
        rows: list[tuple[str, Any]] = [
            ("Name", source.name),
            ("ID", source.id),
            ("Slug", source.name_slug),
            ("Active", flag(source.active)),
            ("Component", f"{comp.name} ({comp.key or comp.id}, v{comp.version})" if comp else source.component_id),
            ("Created", Ago(source.created_at, self.session.now)),
            ("Updated", Ago(source.updated_at, self.session.now)),
        ]
        if source.endpoint_url:
            rows.append(("HTTP endpoint", source.endpoint_url))
        for name, value in source.configured_props.items():
            if is_timer(value):
                rows.append((f"Schedule ({name})", describe_timer(value)))
        return rows

    def _props(self, source: Source) -> list[tuple[str, Any]]:
        types = {p.name: p.type for p in self.component.configurable_props} if self.component else {}
        secret = self._secret_props()
        rows: list[tuple[str, Any]] = []
        for name, value in source.configured_props.items():
            shown = (
                Text(SECRET_MASK + " (secret)", style="dim")
                if name in secret and value not in (None, "")
                else prop_value(value)
            )
            rows.append((f"{name} ({types.get(name, '?')})", shown))
        return rows or [("", Text("no configured props", style="dim"))]

    def _secret_props(self) -> set[str]:
        return {p.name for p in self.component.configurable_props if p.secret} if self.component else set()

    def json_data(self) -> Any:
        """The record with the values of secret props masked: the JSON tab and `c` never carry them."""
        data = super().json_data()
        secret = self._secret_props()
        props = data.get("configured_props") if isinstance(data, dict) else None
        if secret and isinstance(props, dict):
            data["configured_props"] = {
                k: SECRET_MASK if k in secret and v not in (None, "") else v for k, v in props.items()
            }
        return data

    def _code(self) -> Any:
        if self.component is None or not self.component.code:
            return Text("The component's code is not available.", style="dim")
        code = self.component.code[:MAX_CODE]
        safe = "\n".join(visible(line.replace("\t", "    ")) for line in code.split("\n"))
        return Syntax(safe, "javascript", line_numbers=True, word_wrap=False, theme="ansi_dark")

    async def _subscriptions(self, **params: Any) -> Any:
        """Where this source is emitter or listener (the service lists all; we filter)."""
        from ...api.models import Page, PageInfo

        client = self.session.client
        fetch = (
            partial(client.list_workspace_subscriptions, client.org_id) if client.org_id else client.list_subscriptions
        )
        mine = [
            s async for s in iterate(fetch) if self.ident in (s.emitter_id, s.listener_id) or s.emitter_id == "dc_*"
        ]
        return Page[Subscription](items=mine, page_info=PageInfo(total_count=len(mine), count=len(mine)))

    def on_paged_table_opened(self, event: PagedTable.Opened) -> None:
        if isinstance(event.item, EventSummary):
            crumbs = (*self.crumbs, "event " + (event.item.id or ""))
            self.app.push_screen(EventScreen(event.item.id or "", crumbs, record=event.item, source_id=self.ident))

    # --- changes (forms/lifecycle.py, forms/source_events.py, forms/subscription.py) ----------------------

    def _names(self) -> dict[str, str]:
        return {self.ident: self.record.name} if isinstance(self.record, Source) and self.record.name else {}

    def action_update_source(self) -> None:
        """The update form, filled with this source's name and props; the detail reloads after a change."""
        from ..forms.source import UpdateSourceForm

        if isinstance(self.record, Source):
            self.app.push_screen(
                UpdateSourceForm(self.record, getattr(self, "component", None)),
                lambda changed: self.action_reload() if changed else None,
            )

    @work(group="change", exclusive=True, exit_on_error=False)
    async def action_toggle_active(self) -> None:
        from ..forms.lifecycle import toggle_source

        if isinstance(self.record, Source) and await toggle_source(self, self.record) is not None:
            self.action_reload()

    @work(group="change", exclusive=True, exit_on_error=False)
    async def action_delete_source(self) -> None:
        from ..forms.lifecycle import delete_source

        if isinstance(self.record, Source) and await delete_source(self, self.record):
            self.app.pop_screen()

    @work(group="change", exclusive=True, exit_on_error=False)
    async def action_delete_events(self) -> None:
        """The form (with the Events tab's highlighted event, if that tab is shown), then the 202 watched."""
        from ..forms.source_events import DeleteEventsForm

        source = self.record
        if not isinstance(source, Source):
            return
        deletion = await self.app.push_screen_wait(DeleteEventsForm(source, selected=self._selected_event()))
        if deletion is None:
            return
        left = await watch_deletion(self.session.client, deletion)
        message, severity = outcome_words(deletion, left, source.name or source.id)
        self.notify(message, severity=severity, markup=False)
        for table in self.query("#events").results(PagedTable):
            table.reload()

    def _selected_event(self) -> str | None:
        from textual.widgets import TabbedContent

        tabs = self.query(TabbedContent)
        pane = tabs.first().active_pane if tabs else None
        events = pane.query("#events").results(PagedTable) if pane is not None else []
        current = next(iter(events), None)
        item = current.current if current is not None else None
        return item.id if isinstance(item, EventSummary) else None

    def action_send_to_webhook(self) -> None:
        from ..forms.subscription import SendToWebhookForm

        self.app.push_screen(SendToWebhookForm(self.ident, self._names()))

    def action_route_errors(self) -> None:
        from ..forms.subscription import route_errors_form

        self.app.push_screen(route_errors_form(self.ident, self._names()))


def _subscription_columns(source_id: str) -> list[Column[Subscription]]:
    return [
        Column(
            "role",
            "Role",
            lambda s: Text("emits to" if s.emitter_id in (source_id, "dc_*") else "listens to"),
            width=10,
        ),
        Column(
            "other",
            "Other end",
            lambda s: plain(s.listener_id if s.emitter_id in (source_id, "dc_*") else s.emitter_id, 30, "cyan"),
            width=16,
        ),
        Column("channel", "Channel", lambda s: plain(s.event_name or "default", 30), width=12),
        Column("id", "Subscription", lambda s: plain(s.id, 20), width=14),
    ]
