"""Connect: the project, its environment, its end users, a user's accounts.

The Connect API has no list of end users: they are built from one listing
pass over the accounts (`GET /accounts/`, every page), grouped by
`external_id` (aftui/connect.py). A 429 shows the server's message and how
long to wait, where the list would be.

Changes (forms/connect.py): `t` creates a connect token, `d` deletes the end
user (typed back), `a` every account of an app; on an end user's screen `d`
deletes the highlighted account and `D` the end user.
"""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Static

from ...api import ApiError
from ...api.models import Account, ConnectInfo, Page, PageInfo
from ...api.paging import iterate
from ...connect import EndUser, connect_read, group_end_users
from ...text import visible
from ..change import Guarded
from ..forms.connect import NO_PROJECT, AppAccountsForm, delete_account, delete_end_user, new_token
from ..host import host
from ..retry import SetupProblem
from ..safe import plain
from ..widgets.fields import Fields
from ..widgets.paged_table import Column, PagedTable
from ..widgets.pane import Pane
from .accounts import AccountScreen, account_columns
from .detail import DetailScreen

ENVIRONMENTS = ("production", "development")


def _count(value: int, style: str) -> Text:
    return Text(str(value), style=style if value else "dim")


def end_user_columns() -> list[Column[EndUser]]:
    return [
        Column(
            "external_id",
            "External id",
            lambda u: plain(u.external_id, 80) if u.external_id else Text("(none)", style="dim"),
            width=24,
        ),
        Column("accounts", "Accts", lambda u: Text(str(u.count)), sort=lambda u: u.count, width=5),
        # What is wrong, counted: with only Healthy and Dead, "2 1 0" left an account unaccounted for.
        Column("failing", "Failing", lambda u: _count(u.failing, "yellow"), sort=lambda u: u.failing, width=7),
        Column("dead", "Dead", lambda u: _count(u.dead, "bold red"), sort=lambda u: u.dead, width=4),
        Column("apps", "Apps", lambda u: plain(", ".join(u.apps), 120), width=16, min_width=8),
    ]


class ConnectPane(Guarded, Pane):
    """Project info on top, the environment (`e` switches it), and the end users."""

    TITLE = "Connect"
    CHANGES = frozenset({"new_token", "delete_user", "delete_app_accounts"})
    BINDINGS = [
        Binding("e", "switch_environment", "Environment"),
        Binding("t", "new_token", "Connect token"),
        Binding("d", "delete_user", "Delete user"),
        Binding("a", "delete_app_accounts", "Delete all of app"),
    ]

    _listed: int | None = None  # end users the list holds (built from accounts), once listed

    # Each needs a Connect project: without one, the footer offered them and they said what the top says.
    NEEDS_PROJECT = frozenset({"switch_environment", "new_token", "delete_user", "delete_app_accounts"})

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.NEEDS_PROJECT and not self.client.project_id:
            return False
        return super().check_action(action, parameters)

    def compose(self) -> ComposeResult:
        yield Static(Text("Connect"), classes="pane-title")
        yield Static(Text("loading the project…", style="dim"), id="project")
        yield PagedTable(
            self._end_users, end_user_columns(), item_id=lambda u: u.external_id or "(none)", noun="end users"
        )

    def on_mount(self) -> None:  # Pane's own on_mount (focus the list) runs as well
        self._environment = self.session.environment
        # Without a project the note above says what to set: the list would only say it again, in red.
        self.query_one(PagedTable).display = bool(self.client.project_id)
        self._load_info()

    # --- the project ---------------------------------------------------------------------------

    @work(group="connect-info", exclusive=True, exit_on_error=False)
    async def _load_info(self) -> None:
        box = self.query_one("#project", Static)
        client = self.client
        if not client.project_id:
            box.update(Text(NO_PROJECT, style="yellow"))
            return
        box.update(self._project(None, note=Text("loading the project…", style="dim")))
        try:
            info = await client.connect_info()
        except ApiError as error:
            box.update(
                self._project(
                    None,
                    note=Text.assemble(
                        ("Could not read the project: ", "bold red"), (visible(error.message, 200), "red")
                    ),
                )
            )
            return
        box.update(self._project(info))

    def _project(self, info: ConnectInfo | None, *, note: Text | None = None) -> Table:
        environment = self.session.environment
        other = _other(environment)
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        if info is not None:
            table.add_row(
                Text("Project"),
                Text.assemble(plain(info.name, 60), "  ", plain(info.id or self.client.project_id, 40, "cyan")),
            )
            if info.app_name:
                table.add_row(Text("App name"), plain(info.app_name, 60))
        else:
            table.add_row(Text("Project"), plain(self.client.project_id, 40, "cyan"))
        env_style = "bold magenta" if environment == "development" else "bold"
        table.add_row(
            Text("Environment"), Text.assemble((environment, env_style), (f"   e switches to {other}", "dim"))
        )
        if info is not None:
            extra = info.model_extra or {}
            users = extra.get("end_user_count")
            counts = [
                f"{users} end users{self._unlisted(users)}" if isinstance(users, int) else "",
                f"{extra['account_count']} accounts" if isinstance(extra.get("account_count"), int) else "",
                f"{len(extra['apps'])} apps" if isinstance(extra.get("apps"), list) else "",
            ]
            shown = " · ".join(c for c in counts if c)
            if shown:
                table.add_row(Text("Counts"), Text(shown))
        if note is not None:
            table.add_row(Text(""), note)
        return table

    def _unlisted(self, users: int) -> str:
        """Why the list has fewer: an end user made by a token, with no account yet, is counted by the project
        but cannot be listed (the API lists end users only through their accounts)."""
        listed = self._listed
        if listed is None or users <= listed:
            return ""
        return f" ({users - listed} with no account yet: not in the list, which the API builds from accounts)"

    def action_switch_environment(self) -> None:
        host(self).set_environment(_other(self.session.environment))

    def workspace_changed(self) -> None:
        """Connect projects do not follow the workspace; only a new environment reloads."""
        if self.session.environment != getattr(self, "_environment", None):
            self._environment = self.session.environment
            self._load_info()
            self.query_one(PagedTable).reload()

    # --- the end users ---------------------------------------------------------------------------

    async def _end_users(self, **_: Any) -> Page[EndUser]:
        """Every account (all pages, one pass), grouped by external id, as one page of end users."""
        client = self.client
        if not client.project_id:
            raise SetupProblem("this profile has no Connect project (what to set is said above)")
        accounts = await connect_read(_all(iterate(client.list_connect_accounts)))
        users = group_end_users(accounts)
        self._listed = len(users)
        self._load_info()  # the counts above the list change with it (a deletion, a token's new end user)
        return Page[EndUser](items=users, page_info=PageInfo(total_count=len(users), count=len(users)))

    # --- changes -------------------------------------------------------------------------------------

    def action_new_token(self) -> None:
        """For the end user under the cursor, typed over (the field's text is selected) for another one."""
        user: EndUser | None = self.query_one(PagedTable).current
        new_token(self, user.external_id if user is not None else "")

    @work(group="change", exclusive=True, exit_on_error=False)
    async def action_delete_user(self) -> None:
        user: EndUser | None = self.query_one(PagedTable).current
        if user is not None:
            await delete_end_user(self, user.external_id, user.accounts)

    def action_delete_app_accounts(self) -> None:
        if not self.client.project_id:
            self.notify(NO_PROJECT, severity="warning", markup=False)
            return
        self.app.push_screen(AppAccountsForm())

    def on_paged_table_opened(self, event: PagedTable.Opened) -> None:
        user: EndUser = event.item
        self.app.push_screen(EndUserScreen(user.external_id, ("Connect", user.external_id or "(none)"), record=user))


async def _all(items: Any) -> list[Account]:
    return [item async for item in items]


def _other(environment: str) -> str:
    return "development" if environment == "production" else "production"


class EndUserScreen(Guarded, DetailScreen):
    """One end user's accounts (`external_user_id=`), fresh from the service; enter opens one."""

    CHANGES = frozenset({"new_token", "delete_account", "delete_user"})
    BINDINGS = [
        Binding("t", "new_token", "Token"),
        Binding("d", "delete_account", "Delete account"),
        Binding("D", "delete_user", "Delete user"),
    ]

    def tabs(self) -> list[tuple[str, Widget]]:
        user: EndUser = self.record
        accounts = PagedTable(
            self._accounts, account_columns(connect=True), item_id=lambda a: a.id, noun="accounts", id="accounts"
        )
        overview = Fields(
            [
                ("External id", user.external_id or Text("(none)", style="dim")),
                ("Environment", self.session.environment),
                ("Accounts", str(user.count)),
                ("Healthy", str(user.healthy)),
                ("Failing", f"{user.failing} (not healthy, not dead)"),
                ("Dead", str(user.dead)),
                ("Apps", ", ".join(user.apps)),
            ]
        )
        return [("Accounts", accounts), ("Overview", overview)]

    def loaded(self) -> None:
        """The point of this screen is the list: focus it now if it is in, else as soon as it is."""
        table = self.query_one("#accounts", PagedTable)
        table.focus_on_load = True
        if table.pager.total is not None and not table.table.loading:
            table.table.focus()

    async def _accounts(self, **params: Any) -> Any:
        user: EndUser = self.record
        if not user.external_id:  # accounts without an external id cannot be asked for by it
            return Page[Account](items=user.accounts, page_info=PageInfo(total_count=user.count, count=user.count))
        client = self.session.client
        return await connect_read(client.list_connect_accounts(external_user_id=self.ident, **params))

    def json_data(self) -> Any:
        user: EndUser = self.record
        return {
            "external_id": user.external_id,
            "accounts": [a.model_dump(mode="json", exclude_unset=True, exclude={"credentials"}) for a in user.accounts],
        }

    def action_new_token(self) -> None:
        new_token(self, self.record.external_id if isinstance(self.record, EndUser) else "")

    @work(group="change", exclusive=True, exit_on_error=False)
    async def action_delete_account(self) -> None:
        tables = self.query("#accounts")
        account = tables.first(PagedTable).current if tables else None
        if isinstance(account, Account):
            await delete_account(self, account)

    @work(group="change", exclusive=True, exit_on_error=False)
    async def action_delete_user(self) -> None:
        user = self.record
        if not isinstance(user, EndUser):
            return
        tables = self.query("#accounts")
        shown = tables.first(PagedTable).pager if tables else None
        # The list on screen is fresher than the record the pane handed over, once it has loaded whole.
        accounts = list(shown.items) if shown is not None and shown.done else user.accounts
        if await delete_end_user(self, user.external_id, accounts):
            self.app.pop_screen()

    def on_paged_table_opened(self, event: PagedTable.Opened) -> None:
        account: Account = event.item
        crumbs = (*self.crumbs, account.name or account.id)
        self.app.push_screen(AccountScreen(account.id, crumbs, record=account, connect=True))
