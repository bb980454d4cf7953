"""Accounts of the management API (filterable by app), and one account's detail.

`AccountScreen` serves both APIs: the management read (`GET /accounts/{id}`)
and the Connect read (`GET /connect/{project}/accounts/{id}`, which may carry
the full app record, `external_id` and `dead`). Credentials are never
requested with the record: `include_credentials` is sent only when the user
presses `v` (the Credentials tab, masked until revealed). Connect accounts
can be deleted here, one or every account of their app.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Static, TabbedContent, TabPane

from ...api import ApiError, Client, NotFoundError
from ...api.models import Account, App
from ...connect import connect_read
from ..change import Guarded
from ..safe import flag, plain, when
from ..widgets.credentials import REVEAL_SECONDS, CredentialsPanel
from ..widgets.fields import Ago, Fields
from ..widgets.paged_table import Column, PagedTable
from ..widgets.pane import Pane
from .detail import DetailScreen

CREDENTIALS_HIDDEN = "Credentials are hidden: v fetches them into the Credentials tab, masked until you reveal them"
SECRET_FIELDS = ("credentials", "expires_at", "error", "last_refreshed_at", "next_refresh_at")


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
        Column("name", "Name", account_name, width=22, cut="middle", min_width=12),
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
    """Accounts of the management API; `/` asks the server for one app's (id or name slug), else matches the rows."""

    TITLE = "Accounts"

    def compose(self) -> ComposeResult:
        yield Static(
            Text.assemble("Accounts", ("  / filters by app id or slug, else by name", "dim")), classes="pane-title"
        )
        yield PagedTable(self._fetch, account_columns(), item_id=lambda a: a.id, server_filter="app", noun="accounts")

    async def _fetch(self, *, app: str | None = None, **params: Any) -> Any:
        return await self.client.list_accounts(app=app or None, **params)

    def workspace_changed(self) -> None:
        self.query_one(PagedTable).reload()

    def on_paged_table_opened(self, event: PagedTable.Opened) -> None:
        account: Account = event.item
        self.app.push_screen(
            AccountScreen(account.id, ("Accounts", account.name or account.id), record=account, connect=False)
        )


# --- one account ---------------------------------------------------------------------------------------------


class AccountScreen(Guarded, DetailScreen):
    """One account, its credentials only on `v`; a Connect account can be deleted (`d`), or all of its app's (`a`).

    `connect`: True reads it through Connect (the environment in the header),
    False through the management API, None (opened by id) tries the
    management API first and Connect after a 404.
    """

    CHANGES = frozenset({"delete_account", "delete_app_accounts"})
    CONNECT_ONLY = frozenset({"delete_account", "delete_app_accounts"})
    BINDINGS = [
        Binding("v", "credentials", "Credentials"),
        Binding("d", "delete_account", "Delete"),
        Binding("a", "delete_app_accounts", "Delete all of app"),
    ]
    # How long revealed credentials stay on screen; a test may shorten it.
    reveal_seconds: float = REVEAL_SECONDS

    def __init__(
        self, ident: str, crumbs: tuple[str, ...], *, record: Account | None = None, connect: bool | None = False
    ) -> None:
        super().__init__(ident, crumbs, record=record)
        self.connect = connect

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.CONNECT_ONLY and not self.connect:
            return False  # the management API deletes no accounts
        return super().check_action(action, parameters)

    async def load(self) -> Account:
        client = self.session.client
        if self.connect:
            return await connect_read(client.get_connect_account(self.ident))
        try:
            account = await client.get_account(self.ident)
        except NotFoundError:
            if self.connect is False or not client.project_id:
                raise
        else:
            if self.connect is not None or account.external_id is None or not client.project_id:
                return account
            # An end user's account, opened by id (the palette): the management read has no environment and
            # no Connect delete. Read through Connect, as the Connect pane opens it; where Connect does not
            # have it (another environment), the management read stands.
            try:
                account = await connect_read(client.get_connect_account(self.ident))
            except ApiError:
                return account
            self.connect = True
            return account
        account = await connect_read(client.get_connect_account(self.ident))
        self.connect = True
        return account

    def tabs(self) -> list[tuple[str, Widget]]:
        account: Account = self.record
        credentials = CredentialsPanel(
            self._credentials, clock=lambda: self.session.now(), reveal_seconds=self.reveal_seconds, id="credentials"
        )
        return [("Overview", Fields(self._overview(account))), ("Credentials", credentials)]

    def loaded(self) -> None:
        self.refresh_bindings()  # opened by id, the account's API (and so its Connect keys) is known only now

    async def _credentials(self) -> Account:
        """The one read with `include_credentials`, made only when the user asks (`v`)."""
        client = self.session.client
        if self.connect:
            return await connect_read(client.get_connect_account(self.ident, include_credentials=True))
        return await client.get_account(self.ident, include_credentials=True)

    def action_credentials(self) -> None:
        panels = self.query(CredentialsPanel)
        if not panels:
            self.notify("The account is still loading.", markup=False)
            return
        panel = panels.first()
        pane = next((a for a in panel.ancestors if isinstance(a, TabPane)), None)
        if pane is not None and pane.id:
            self.query_one(TabbedContent).active = pane.id
        panel.step()

    def on_screen_suspend(self, event: events.ScreenSuspend) -> None:
        """Another screen on top (help, palette, a confirm): revealed credentials do not wait under it."""
        for panel in self.query(CredentialsPanel):
            panel.hide()

    @work(group="change", exclusive=True, exit_on_error=False)
    async def action_delete_account(self) -> None:
        from ..forms.connect import delete_account

        if isinstance(self.record, Account) and await delete_account(self, self.record):
            self.app.pop_screen()

    def action_delete_app_accounts(self) -> None:
        from ..forms.connect import AppAccountsForm

        if not isinstance(self.record, Account):
            return
        app_id, hint = app_to_delete_by(self.record)
        self.app.push_screen(AppAccountsForm(app_id, hint=hint))

    def _overview(self, account: Account) -> list[tuple[str, Any]]:
        app = account.app
        rows: list[tuple[str, Any]] = [
            ("Name", account_name(account)),
            ("ID", account.id),
            (
                "App",
                Text.assemble(app_label(app), "  ", plain(app.name_slug or app.id, 40, "cyan"))
                if app
                else app_label(None),
            ),
        ]
        if app is not None and app.auth_type:
            rows.append(("Auth type", app.auth_type))
        if app is not None and app.categories:
            rows.append(("Categories", ", ".join(app.categories)))
        healthy = flag(account.healthy)
        if account.healthy is False:  # the reason comes only with the credentials: "Healthy no" said nothing more
            healthy = Text.assemble(healthy, ("   why: v fetches the credentials, with the service's error", "dim"))
        rows.append(("Healthy", healthy))
        if self.connect or account.external_id is not None:  # a Connect end user's account, however it was read
            rows += [("Dead", dead_flag(account.dead)), ("External id", account.external_id)]
        if self.connect:
            rows.append(("Environment", self.session.environment))
        rows += [
            ("Created", Ago(account.created_at, self.session.now)),
            ("Updated", Ago(account.updated_at, self.session.now)),
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


def app_to_delete_by(account: Account) -> tuple[str, str | None]:
    """What the app's bulk deletion is addressed by: a key app's slug, an OAuth app's oauth_app_id (when the record has it)."""
    app = account.app
    if app is None:
        return "", None
    name = app.name or app.name_slug or app.id
    if app.auth_type == "oauth":
        oauth_app_id = (account.model_extra or {}).get("oauth_app_id")
        if isinstance(oauth_app_id, str) and oauth_app_id:
            return oauth_app_id, None
        return "", f"{name} is an OAuth app and this account does not say its OAuth app id"
    return app.name_slug or app.id, None


def app_accounts_table(client: Client, app_id: str) -> PagedTable[Account]:
    """The management accounts of one app (the app detail's Accounts tab)."""
    return PagedTable(
        partial(client.list_accounts, app=app_id),
        account_columns(),
        item_id=lambda a: a.id,
        noun="accounts",
        id="app-accounts",
    )
