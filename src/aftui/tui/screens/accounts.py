"""Accounts of the management API (filterable by app), and one account's detail.

`AccountScreen` serves both APIs: the management read (`GET /accounts/{id}`)
and the Connect read (`GET /connect/{project}/accounts/{id}`, which may carry
the full app record, `external_id` and `dead`). Credentials are never
requested here: `include_credentials` is sent only on the explicit reveal the
forms add.
"""

from __future__ import annotations

from collections.abc import Awaitable
from functools import partial
from typing import Any, TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Static

from ...api import NotFoundError, RateLimitError
from ...api.models import Account, App
from ..safe import flag, plain, when
from ..widgets.fields import Fields
from ..widgets.paged_table import Column, PagedTable
from ..widgets.pane import Pane
from .detail import DetailScreen

R = TypeVar("R")
T = TypeVar("T")

CREDENTIALS_HIDDEN = "Credentials are hidden (aftui never asks the service for them here)"
SECRET_FIELDS = ("credentials", "expires_at", "error", "last_refreshed_at", "next_refresh_at")


# --- Connect's rate limit ------------------------------------------------------------------------------


def throttled(error: RateLimitError) -> RateLimitError:
    """The server's message with how long to wait, for showing in place of what could not load."""
    wait = f"; try again in {error.retry_after:g} s" if error.retry_after is not None else "; try again in a minute"
    message = f"{error.message} — Connect allows 100 account reads a minute{wait}"
    return RateLimitError(message, retry_after=error.retry_after, status=error.status, method=error.method, url=error.url, request_id=error.request_id)


async def connect_read(call: Awaitable[R]) -> R:
    """Await a Connect account read; a 429 comes back with the retry-after in its message."""
    try:
        return await call
    except RateLimitError as error:
        raise throttled(error) from None


# --- tables ------------------------------------------------------------------------------------------------


# --- columns ----------------------------------------------------------------------------------------------


def app_label(app: App | None) -> Text:
    if app is None:
        return Text("—", style="dim")
    return plain(app.name or app.name_slug or app.id, 40)


def account_name(account: Account) -> Text:
    return plain(account.name, 60) if account.name else Text("(no name)", style="dim")


def dead_flag(value: bool | None) -> Text:
    if value is None:
        return Text("—", style="dim")
    return Text("dead", style="bold red") if value else Text("no", style="green")


def account_columns(*, connect: bool = False) -> list[Column[Account]]:
    columns: list[Column[Account]] = [
        Column("name", "Name", account_name, width=22),
        Column("app", "App", lambda a: app_label(a.app), width=14),
        Column("healthy", "Healthy", lambda a: flag(a.healthy), sort=lambda a: a.healthy, width=7),
    ]
    if connect:
        columns.append(Column("dead", "Dead", lambda a: dead_flag(a.dead), sort=lambda a: a.dead, width=5))
    columns += [
        Column("id", "ID", lambda a: plain(a.id, 24, "cyan"), width=12),
        Column("updated", "Updated", lambda a: when(a.updated_at), sort=lambda a: a.updated_at, width=16),
    ]
    return columns


# --- the pane -------------------------------------------------------------------------------------------


class AccountsPane(Pane):
    """Accounts of the management API; `/` asks the server for one app's (id or name slug)."""

    TITLE = "Accounts"

    def compose(self) -> ComposeResult:
        yield Static(Text.assemble("Accounts", ("  / filters by app id or slug", "dim")), classes="pane-title")
        yield PagedTable(self._fetch, account_columns(), item_id=lambda a: a.id, server_filter="app", noun="accounts")

    async def _fetch(self, *, app: str | None = None, **params: Any) -> Any:
        return await self.client.list_accounts(app=app or None, **params)

    def workspace_changed(self) -> None:
        self.query_one(PagedTable).reload()

    def on_paged_table_opened(self, event: PagedTable.Opened) -> None:
        account: Account = event.item
        self.app.push_screen(AccountScreen(account.id, ("Accounts", account.name or account.id), record=account, connect=False))


# --- one account ---------------------------------------------------------------------------------------------


class AccountScreen(DetailScreen):
    """One account, without its credentials.

    `connect`: True reads it through Connect (the environment in the header),
    False through the management API, None (opened by id) tries the
    management API first and Connect after a 404.
    """

    def __init__(self, ident: str, crumbs: tuple[str, ...], *, record: Account | None = None, connect: bool | None = False) -> None:
        super().__init__(ident, crumbs, record=record)
        self.connect = connect

    async def load(self) -> Account:
        client = self.session.client
        if self.connect:
            return await connect_read(client.get_connect_account(self.ident))
        try:
            return await client.get_account(self.ident)
        except NotFoundError:
            if self.connect is False or not client.project_id:
                raise
        account = await connect_read(client.get_connect_account(self.ident))
        self.connect = True
        return account

    def tabs(self) -> list[tuple[str, Widget]]:
        account: Account = self.record
        return [("Overview", Fields(self._overview(account)))]

    def _overview(self, account: Account) -> list[tuple[str, Any]]:
        now = self.session.now()
        app = account.app
        rows: list[tuple[str, Any]] = [
            ("Name", account_name(account)),
            ("ID", account.id),
            ("App", Text.assemble(app_label(app), "  ", plain(app.name_slug or app.id, 40, "cyan")) if app else app_label(None)),
        ]
        if app is not None and app.auth_type:
            rows.append(("Auth type", app.auth_type))
        if app is not None and app.categories:
            rows.append(("Categories", ", ".join(app.categories)))
        rows.append(("Healthy", flag(account.healthy)))
        if self.connect or account.external_id is not None:  # a Connect end user's account, however it was read
            rows += [("Dead", dead_flag(account.dead)), ("External id", account.external_id)]
        if self.connect:
            rows.append(("Environment", self.session.environment))
        rows += [
            ("Created", when(account.created_at, now)),
            ("Updated", when(account.updated_at, now)),
            ("Credentials", Text(CREDENTIALS_HIDDEN, style="italic yellow")),
            ("API", "Connect" if self.connect else "management"),
        ]
        return rows

    def json_data(self) -> Any:
        account: Account = self.record
        data = account.model_dump(mode="json", exclude_unset=True)  # the fields the server sent
        for name in SECRET_FIELDS:  # never requested; dropped anyway should a server send them unasked
            data.pop(name, None)
        return data


def app_accounts_table(client: Any, app_id: str) -> PagedTable[Account]:
    """The management accounts of one app (the app detail's Accounts tab)."""
    return PagedTable(partial(client.list_accounts, app=app_id), account_columns(), item_id=lambda a: a.id, noun="accounts", id="app-accounts")
