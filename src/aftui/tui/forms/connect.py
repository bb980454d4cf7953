"""Connect changes: a connect token for an end user, and the three deletions (account, an app's accounts, end user).

Every Connect call goes to the profile's project in the environment shown in
the header (`X-PD-Environment`), so every question asked before a deletion
names that environment: the same external id can be a different person in
production and in development.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Input, Static

from ...api import ApiError, Client, NotFoundError
from ...api.models import Account, ConnectToken
from ...connect import (
    MAX_EXTERNAL_ID,
    connect_read_all,
    external_id_problem,
    redirect_problem,
    webhook_uri_problem,
)
from ...text import visible
from ..change import perform
from ..clipboard import copy_text
from ..host import session_of
from ..modals.confirm import ConfirmScreen
from ..modals.form import FormRow, FormScreen, Invalid, problems_of
from ..widgets.footer import KeyFooter
from ..widgets.in_order_input import InOrderInput

NO_PROJECT = (
    'This profile has no Connect project, so Connect cannot be shown or changed: set project_id = "proj_…"'
    " in the profile's section of the config file (aftui config path says where), or AFTUI_PROJECT_ID=proj_…"
    " for one run, then start aftui again."
)


def where(client: Client) -> str:
    """The environment and project a Connect call goes to, in words."""
    return f"the {client.environment} environment of project {client.project_id}"


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


# --- checks ------------------------------------------------------------------------------------------


# --- the connect token ----------------------------------------------------------------------------------


@dataclass
class IssuedToken:
    """A token as the form got it, with whom and where it was issued for."""

    token: ConnectToken
    external_user_id: str
    environment: str
    project_id: str
    redirects: dict[str, str] = field(default_factory=dict)

    def __repr__(self) -> str:  # the token is a credential while it lives: never in a repr or a log
        return f"IssuedToken(external_user_id={self.external_user_id!r}, environment={self.environment!r})"


class ConnectTokenForm(FormScreen[IssuedToken]):
    """POST /connect/{project}/tokens: an external user id, optional redirects and webhook."""

    TITLE_TEXT = "New connect token"
    SUBMIT_LABEL = "Create token"
    PARAMS = {
        "external_user_id": "external_user_id",
        "success_redirect_uri": "success",
        "error_redirect_uri": "error",
        "webhook_uri": "webhook",
    }

    def __init__(self, external_user_id: str = "") -> None:
        super().__init__()
        self.external_user_id = external_user_id

    def note(self) -> Text:
        client = self.session.client
        return Text.assemble(
            "A short-lived token your frontend uses to connect an account for one end user, in ",
            (visible(where(client), 120), "bold"),
            ". Creating it registers the end user.",
        )

    def fields(self) -> ComposeResult:
        # Compact inputs (one line each): the four rows and the buttons fit in 80x24.
        yield FormRow(
            "External user id",
            InOrderInput(
                self.external_user_id, placeholder="your id for the end user", id="external_user_id", compact=True
            ),
            name="external_user_id",
            hint=f"required, at most {MAX_EXTERNAL_ID} characters",
        )
        yield FormRow(
            "Success redirect",
            InOrderInput(placeholder="optional: where the hosted page sends the user", id="success", compact=True),
            name="success",
        )
        yield FormRow("Error redirect", InOrderInput(placeholder="optional", id="error", compact=True), name="error")
        yield FormRow(
            "Webhook URI",
            InOrderInput(placeholder="optional: https://… receives the outcome", id="webhook", compact=True),
            name="webhook",
        )

    def on_mount(self) -> None:
        field = self.query_one("#external_user_id", Input)
        field.focus()
        field.select_all()  # an end user's id given: typed over for another one

    def value(self, ident: str) -> str:
        return self.query_one(f"#{ident}", Input).value.strip()

    async def submit(self) -> IssuedToken:
        client = self.session.client
        external = self.value("external_user_id")
        uris = {"success": self.value("success"), "error": self.value("error"), "webhook": self.value("webhook")}
        problems = problems_of(
            [
                ("external_user_id", external_id_problem(external)),
                ("success", redirect_problem(uris["success"])),
                ("error", redirect_problem(uris["error"])),
                ("webhook", webhook_uri_problem(uris["webhook"])),
                ("", None if client.project_id else NO_PROJECT),
            ]
        )
        if problems:
            raise Invalid(problems)
        token = await client.create_connect_token(
            external,
            success_redirect_uri=uris["success"] or None,
            error_redirect_uri=uris["error"] or None,
            webhook_uri=uris["webhook"] or None,
        )
        given = {name: uri for name, uri in uris.items() if uri}
        return IssuedToken(token, external, client.environment, client.project_id or "", given)

    def done(self, result: IssuedToken) -> str:
        return f"Created a connect token for {result.external_user_id} ({result.environment})"


def countdown(expires_at: datetime | None, now: datetime) -> Text:
    """`2026-11-01 13:00:00 UTC · in 3h 59m 59s`, or how long ago it expired, in red."""
    if expires_at is None:
        return Text("the service did not say when it expires", style="dim")
    stamp = expires_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    left = int((expires_at - now).total_seconds())
    if left <= 0:
        return Text.assemble(stamp, (f" · expired {span(-left)} ago", "bold red"))
    return Text.assemble(stamp, (f" · in {span(left)}", "bold green" if left > 300 else "bold yellow"))


def span(seconds: int) -> str:
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h {minutes:02d}m {secs:02d}s"
    if minutes:
        return f"{minutes}m {secs:02d}s"
    return f"{secs}s"


class TokenScreen(ModalScreen[None]):
    """The token just created, its expiry counting down, and a copy key.

    Shown in full, not masked: a connect token exists to be handed to a
    frontend (it ends up in a browser), it is bound to one end user of one
    environment and expires within hours; the reason to create one here is to
    copy it. What keeps it safe is that aftui never stores it, never logs it
    and never puts it in a notification: it lives on this screen only.
    """

    BINDINGS = [
        Binding("c", "copy", "Copy token"),
        Binding("l", "copy_link", "Copy link"),
        Binding("escape", "close", "Close"),
    ]

    def __init__(self, issued: IssuedToken) -> None:
        super().__init__()
        self.issued = issued

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(f"Connect token for {visible(self.issued.external_user_id, 80)}"), classes="title")
            yield Static(self._fields(), id="token-fields")
            yield Static(
                Text(
                    "Hand it to your frontend to connect an account for this end user, or send the end user the"
                    " connect link. aftui keeps no copy: copy them now (c, l)."
                ),
                classes="note",
            )
            with Horizontal():
                yield Button("Copy (c)", variant="primary", id="copy")
                yield Button("Copy link (l)", id="copy-link", disabled=not self.issued.token.connect_link_url)
                yield Button("Close (esc)", id="close")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#copy", Button).focus()
        self.set_interval(1.0, self._tick)  # the countdown; the session clock decides what it reads

    def _tick(self) -> None:
        self.query_one("#token-fields", Static).update(self._fields())

    def _fields(self) -> Table:
        issued = self.issued
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column(overflow="fold")
        table.add_row(Text("Token"), Text(visible(issued.token.token, 500), style="cyan"))
        table.add_row(Text("Expires"), countdown(issued.token.expires_at, session_of(self).now()))
        link = issued.token.connect_link_url
        table.add_row(Text("Connect link"), Text(visible(link, 2000)) if link else Text("none sent", style="dim"))
        table.add_row(Text("End user"), Text(visible(issued.external_user_id, MAX_EXTERNAL_ID)))
        table.add_row(
            Text("Environment"),
            Text.assemble((issued.environment, "bold"), f" · project {visible(issued.project_id, 60)}"),
        )
        for name, uri in issued.redirects.items():
            label = {"success": "Success redirect", "error": "Error redirect", "webhook": "Webhook URI"}[name]
            table.add_row(Text(label), Text(visible(uri, 300)))
        return table

    @on(Button.Pressed, "#copy")
    def action_copy(self) -> None:
        copy_text(self, self.issued.token.token, "the connect token")

    @on(Button.Pressed, "#copy-link")
    def action_copy_link(self) -> None:
        link = self.issued.token.connect_link_url
        if not link:
            self.notify("The service sent no connect link with this token", severity="warning", markup=False)
            return
        copy_text(self, link, "the connect link")

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(None)


def new_token(owner: Widget, external_user_id: str = "") -> None:
    """Open the token form; the token it creates is shown on its own screen."""
    if not session_of(owner).client.project_id:
        owner.notify(NO_PROJECT, severity="warning", markup=False)
        return

    def show(issued: IssuedToken | None) -> None:
        if issued is not None:
            owner.app.push_screen(TokenScreen(issued))

    owner.app.push_screen(ConnectTokenForm(external_user_id), show)


# --- deleting an account -----------------------------------------------------------------------------------


def app_words(account: Account) -> str:
    app = account.app
    if app is None:
        return "an unknown app"
    name = app.name or app.name_slug or app.id
    return f"{name} ({app.name_slug})" if app.name_slug and app.name_slug != name else name


def confirm_account_delete(account: Account, client: Client) -> ConfirmScreen:
    name = account.name or "(no name)"
    user = account.external_id if account.external_id else "(no external id)"
    return ConfirmScreen(
        "Delete this connected account?",
        [
            f"the account {name} ({account.id}) of {app_words(account)}",
            f"connected by the end user {user}",
            f"in {where(client)}",
            "workflows and sources using it lose access to the app; the end user has to connect it again",
        ],
    )


async def delete_account(owner: Widget, account: Account) -> bool:
    """Ask, then DELETE /connect/{project}/accounts/{id}; True once deleted."""
    client = session_of(owner).client
    if not await owner.app.push_screen_wait(confirm_account_delete(account, client)):
        return False
    done = f"Deleted the {app_words(account)} account {account.name or account.id} of {account.external_id or 'an end user'} ({client.environment})"
    deleted, _ = await perform(
        owner, client.delete_connect_account(account.id), done=done, refresh=("accounts", "end users")
    )
    return deleted


# --- deleting an end user ---------------------------------------------------------------------------------------


def confirm_user_delete(external_id: str, accounts: list[Account] | None, client: Client) -> ConfirmScreen:
    what = [f"the end user {external_id}, in {where(client)}"]
    if accounts is None:
        what.append("and every account they connected (they could not be counted)")
    elif accounts:
        apps = sorted({app_words(a) for a in accounts}, key=str.lower)
        what.append(f"and all their accounts: {plural(len(accounts), 'account')} ({', '.join(apps)})")
    else:
        what.append("they have no connected accounts")
    what.append("workflows using those accounts lose access; this cannot be undone")
    return ConfirmScreen("Delete this end user and all their accounts?", what, typed=external_id)


async def delete_end_user(owner: Widget, external_id: str, accounts: list[Account] | None) -> bool:
    """Ask (the external id typed back), then DELETE /connect/{project}/users/{id}; True once deleted."""
    client = session_of(owner).client
    if not external_id:
        owner.notify(
            "These accounts have no external id: there is no end user to delete. Delete them one by one.",
            severity="warning",
            markup=False,
        )
        return False
    if not await owner.app.push_screen_wait(confirm_user_delete(external_id, accounts, client)):
        return False
    count = f" and their {plural(len(accounts), 'account')}" if accounts else ""
    done = f"Deleted the end user {external_id}{count} ({client.environment})"
    deleted, _ = await perform(
        owner, client.delete_connect_user(external_id), done=done, refresh=("end users", "accounts")
    )
    return deleted


# --- deleting every account of an app -------------------------------------------------------------------------------


@dataclass
class AppAccountsDeleted:
    app_id: str
    label: str
    count: int | None
    environment: str


class AppAccountsForm(FormScreen[AppAccountsDeleted]):
    """DELETE /connect/{project}/apps/{app_id}/accounts, after counting what it removes and a typed yes.

    The service names the app by its slug for key-based apps and by the OAuth
    app id (`oa_…`) for OAuth apps; a slug of an OAuth app would delete
    nothing and still answer 204, so the form refuses it and says why.
    """

    TITLE_TEXT = "Delete every account of an app"
    SUBMIT_LABEL = "Count, then delete"
    PARAMS = {"app_id": "app"}
    REFRESH = ("accounts", "end users")

    def __init__(self, app_id: str = "", *, hint: str | None = None) -> None:
        super().__init__()
        self.app_id = app_id
        self.hint = hint

    def note(self) -> Text:
        return Text.assemble(
            "Removes every end user's account of one app, in ",
            (visible(where(self.session.client), 120), "bold"),
            ". aftui counts them and asks before anything is deleted.",
        )

    def fields(self) -> ComposeResult:
        hint = "a key-based app's name slug (openai), or an OAuth app id (oa_…) for an OAuth app"
        if self.hint:
            hint = f"{hint}. {self.hint}"
        yield FormRow(
            "App", InOrderInput(self.app_id, placeholder="slug or oa_…", id="app", compact=True), name="app", hint=hint
        )

    def on_mount(self) -> None:
        self.query_one("#app", Input).focus()

    async def submit(self) -> AppAccountsDeleted:
        client = self.session.client
        typed = self.query_one("#app", Input).value.strip()
        problems = problems_of(
            [
                ("app", None if typed else "Name the app: its slug, or its OAuth app id (oa_…)."),
                ("", None if client.project_id else NO_PROJECT),
            ]
        )
        if problems:
            raise Invalid(problems)
        app_id, label = await self._resolve(client, typed)
        accounts = await self._count(client, app_id)
        if accounts is not None and not accounts:
            raise Invalid({"app": f"No account of {label} in the {client.environment} environment: nothing to delete."})
        working = self.query_one("#working", Static)
        working.update("")  # nothing is sent while the question is open
        if not await self.app.push_screen_wait(confirm_app_delete(app_id, label, accounts, client)):
            raise Invalid({"": "Nothing was deleted."})
        working.update(Text("deleting…"))
        await client.delete_connect_app_accounts(app_id)
        return AppAccountsDeleted(app_id, label, None if accounts is None else len(accounts), client.environment)

    async def _resolve(self, client: Client, typed: str) -> tuple[str, str]:
        """The id the service deletes by, and the app in words; refuses what would silently delete nothing."""
        if typed.startswith("oa_"):
            return typed, f"the OAuth app {typed}"
        try:
            app = await client.get_app(typed)
        except NotFoundError:
            raise Invalid(
                {"app": f"No app {typed}: give a key-based app's name slug or an OAuth app id (oa_…)."}
            ) from None
        except ApiError:
            return typed, typed  # the catalogue could not be read: the service will judge the slug itself
        name = app.name or typed
        if app.auth_type == "oauth":
            raise Invalid(
                {
                    "app": f"{name} is an OAuth app: the service deletes its accounts by OAuth app id (oa_…), not by name. "
                    "Accounts connected through the default OAuth client cannot be deleted all at once."
                }
            )
        slug = app.name_slug or typed
        return slug, name if name == slug else f"{name} ({slug})"

    async def _count(self, client: Client, app_id: str) -> list[Account] | None:
        """The accounts the deletion covers; None when the listing fails (the question is still worth asking)."""
        filters = {"oauth_app_id": app_id} if app_id.startswith("oa_") else {"app": app_id}
        try:
            return [a async for a in connect_read_all(client, **filters)]
        except ApiError:
            return None

    def done(self, result: AppAccountsDeleted) -> str:
        count = "every account" if result.count is None else plural(result.count, "account")
        return f"Deleted {count} of {result.label} ({result.environment})"


def confirm_app_delete(app_id: str, label: str, accounts: list[Account] | None, client: Client) -> ConfirmScreen:
    if accounts is None:
        what = [f"every account of {label}, in {where(client)} (they could not be counted)"]
    else:
        users = len({a.external_id for a in accounts})
        what = [
            f"{plural(len(accounts), 'account')} of {label}, in {where(client)}",
            f"connected by {plural(users, 'end user')}; the end users themselves remain",
        ]
    what.append("workflows using them lose access to the app; this cannot be undone")
    action = "Delete" if accounts is None else f"Delete {plural(len(accounts), 'account')}"
    return ConfirmScreen(f"Delete every account of {label}?", what, action=action, typed=app_id)
