"""Apps: the catalogue, searched by the server (`q`), and an app's fields, custom fields and accounts."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Static

from ...api.models import Account, App, CustomField
from ..safe import long_text, plain
from ..widgets.fields import Fields
from ..widgets.paged_table import Column, PagedTable
from ..widgets.pane import Pane
from .accounts import AccountScreen, app_accounts_table
from .detail import DetailScreen


def app_columns() -> list[Column[App]]:
    return [
        Column("name", "Name", lambda a: plain(a.name, 40), width=18, cut="middle"),
        Column("slug", "Slug", lambda a: plain(a.name_slug, 40, "cyan"), width=16),
        Column("auth", "Auth", lambda a: plain(a.auth_type, 12), width=6),
        Column("categories", "Categories", lambda a: plain(", ".join(a.categories), 80), width=20, min_width=10),
    ]


class AppsPane(Pane):
    """The catalogue, 100 at a time; `/` searches it on the server (`q`: name, slug, description)."""

    TITLE = "Apps"

    def compose(self) -> ComposeResult:
        yield Static(Text.assemble("Apps", ("  / searches the catalogue", "dim")), classes="pane-title")
        yield PagedTable(self._fetch, app_columns(), item_id=lambda a: a.id, server_filter="q", noun="apps")

    async def _fetch(self, *, q: str | None = None, **params: Any) -> Any:
        return await self.client.list_apps(q=q or None, **params)

    def on_paged_table_opened(self, event: PagedTable.Opened) -> None:
        app: App = event.item
        self.app.push_screen(AppScreen(app.id, ("Apps", app.name or app.id), record=app))


def custom_fields_of(app: App) -> tuple[list[CustomField], str | None]:
    """The parsed custom fields, and a note when `custom_fields_json` is there but unreadable."""
    raw = app.custom_fields_json
    if not raw:
        return [], None
    try:
        parsed = json.loads(raw)
    except ValueError:
        return [], "custom_fields_json is not valid JSON; the JSON tab shows it as sent"
    if not isinstance(parsed, list):
        return [], "custom_fields_json is not a list; the JSON tab shows it as sent"
    try:
        return app.custom_fields(), None
    except Exception:  # noqa: BLE001 - a malformed entry must not hide the app
        return [], "custom_fields_json has entries aftui cannot read; the JSON tab shows it as sent"


def custom_fields_table(fields: list[CustomField]) -> Table:
    table = Table(expand=True, show_edge=False, pad_edge=False, header_style="bold")
    table.add_column("Name", no_wrap=True, style="cyan")
    table.add_column("Label", no_wrap=True)
    table.add_column("Type", no_wrap=True)
    table.add_column("Optional", no_wrap=True)
    with_default = any(f.default is not None for f in fields)
    if with_default:
        table.add_column("Default", no_wrap=True)
    table.add_column("Description", ratio=1)
    for field in fields:
        row: list[Text] = [plain(field.name, 40), plain(field.label, 40), plain(field.type or "string", 20)]
        row.append(Text("yes") if field.optional else Text("no", style="bold"))
        if with_default:
            row.append(
                plain(field.default if isinstance(field.default, str) else json.dumps(field.default, default=str), 40)
            )
        row.append(long_text(field.description, 600) if field.description else Text("—", style="dim"))
        table.add_row(*row)
    return table


class AppScreen(DetailScreen):
    """An app of the catalogue: its fields, the custom fields an account of it needs, and its accounts."""

    async def load(self) -> App:
        return await self.session.client.get_app(quote(self.ident, safe=""))

    def tabs(self) -> list[tuple[str, Widget]]:
        app: App = self.record
        fields, problem = custom_fields_of(app)
        self.custom_fields = fields
        if fields:
            custom: Widget = Static(custom_fields_table(fields), id="custom-fields")
        else:
            custom = Static(
                Text(problem or "This app has no custom fields.", style="yellow" if problem else "dim"),
                id="custom-fields",
            )
        return [
            ("Overview", Fields(self._overview(app))),
            (f"Custom fields ({len(fields)})", custom),
            ("Accounts", app_accounts_table(self.session.client, app.id)),
        ]

    def _overview(self, app: App) -> list[tuple[str, Any]]:
        return [
            ("Name", app.name),
            ("ID", app.id),
            ("Slug", app.name_slug),
            ("Auth type", app.auth_type),
            ("Categories", ", ".join(app.categories) if app.categories else None),
            ("Logo", app.img_src),
            ("Description", long_text(app.description, 2000) if app.description else None),
        ]

    def on_paged_table_opened(self, event: PagedTable.Opened) -> None:
        account: Account = event.item
        crumbs = (*self.crumbs, account.name or account.id)
        self.app.push_screen(AccountScreen(account.id, crumbs, record=account, connect=False))
