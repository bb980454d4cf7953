"""The profile form: add a profile, or fix one whose key was refused; and how the app opens it.

Saving tests the credential first: `GET /users/me` with a user API key, a
token fetch with OAuth client credentials (the service answers 403 to OAuth
tokens on /users/me, so a token that works is the test). A failure shows the
server's message under the form and keeps every field as typed; only a
credential that works is written, with `save_config` (mode 0600).

Secrets are typed into masked inputs and never shown again: a saved key is
kept when its input is left empty.

With OAuth client credentials, `ctrl+o` tests what is typed without saving,
and `ctrl+r` revokes the token of the profile in use (forms/oauth.py).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from ...api import ApiError, AuthError, Client, NetworkError, RetryPolicy
from ...config import (
    DEFAULT_BASE_URL,
    ENVIRONMENTS,
    ConfigError,
    Profile,
    ProfileError,
    effective_profile,
    load_config,
    resolve_secret,
    save_config,
)
from ...text import visible
from ..forms.oauth import check_client_credentials, revocable, revoke_current_token
from ..host import host
from ..session import TUI_RETRY
from ..widgets.footer import KeyFooter
from ..widgets.in_order_input import InOrderInput
from ..widgets.safe_select import SafeSelect
from ..widgets.status import StatusHeader

KINDS = [
    ("API key", "api_key"),
    ("API key from an environment variable", "api_key_env"),
    ("API key from a command", "api_key_cmd"),
    ("OAuth client id and secret", "oauth"),
]

HINTS = {
    "api_key": "Your user API key (the service's Settings, API key). It is saved in the config file, readable by you only.",
    "api_key_env": "The name of an environment variable that holds the key; only the name is saved.",
    "api_key_cmd": "A shell command that prints the key (pass, op, security…); only the command is saved.",
    "oauth": "An OAuth client of a workspace (give its id below). The test fetches a token: OAuth tokens cannot read /users/me.",
}

# The input that holds each field of a profile, to put the cursor where a problem is.
FIELD_INPUTS = {
    "name": "name",
    "base_url": "base_url",
    "api_key": "api_key",
    "api_key_env": "api_key_env",
    "api_key_cmd": "api_key_cmd",
    "client_id": "client_id",
    "client_secret": "client_secret",
    "client_secret_env": "client_secret",
    "client_secret_cmd": "client_secret",
    "org_id": "org_id",
    "project_id": "project_id",
    "environment": "environment",
}

# One try: a mistyped URL should answer in seconds, not after four attempts with backoff.
TEST_RETRY = RetryPolicy(attempts=1)


@dataclass
class SavedProfile:
    """What the form hands back: the saved profile and a client that just worked with it."""

    profile: Profile
    client: Client


def credential_kind(profile: Profile | None) -> str:
    if profile is None:
        return "api_key"
    for kind in ("api_key", "api_key_env", "api_key_cmd"):
        if getattr(profile, kind) is not None:
            return kind
    return "oauth" if profile.client_id is not None else "api_key"


class ProfileScreen(ModalScreen[SavedProfile | None]):
    """A form for one profile: `profile` None adds one; `refused` is the server's message after a 401."""

    BINDINGS = [
        Binding("ctrl+s", "save", "Test and save", priority=True),
        Binding("ctrl+t", "reveal", "Show secret"),
        Binding("escape", "cancel", "Back"),
        Binding("ctrl+o", "test_oauth", "Test client credentials"),
        Binding("ctrl+r", "revoke_token", "Revoke token"),
    ]

    def __init__(self, profile: Profile | None = None, *, refused: str | None = None) -> None:
        super().__init__()
        self.original = profile
        self.refused = refused
        self.saving = False

    # --- the form -------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        profile = self.original
        kind = credential_kind(profile)
        yield StatusHeader()
        with VerticalScroll(id="form-scroll", can_focus=False):  # tab goes from field to field
            with Vertical(id="form"):
                if profile is None:
                    yield Static(Text("Add a profile"), classes="title")
                else:
                    yield Static(Text(f"Profile “{visible(profile.name, 40)}”"), classes="title")
                if self.refused is not None:
                    note = f"The key was refused: {visible(self.refused, 300)}. Enter one that works and save (saved secrets are not shown)."
                    yield Static(Text(note), id="note")
                yield _row("Name", InOrderInput(profile.name if profile else "default", id="name", compact=True))
                yield _row(
                    "Base URL",
                    InOrderInput(profile.base_url if profile else DEFAULT_BASE_URL, id="base_url", compact=True),
                )
                yield _row("Credential", SafeSelect(KINDS, value=kind, allow_blank=False, id="kind", compact=True))
                yield _row(
                    "API key",
                    InOrderInput(password=True, placeholder=self._kept("api_key"), id="api_key", compact=True),
                    kind="api_key",
                )
                yield _row(
                    "Variable",
                    InOrderInput(
                        _get(profile, "api_key_env"), placeholder="PIPEDREAM_API_KEY", id="api_key_env", compact=True
                    ),
                    kind="api_key_env",
                )
                yield _row(
                    "Command",
                    InOrderInput(
                        _get(profile, "api_key_cmd"),
                        placeholder="pass show pipedream/api-key",
                        id="api_key_cmd",
                        compact=True,
                    ),
                    kind="api_key_cmd",
                )
                yield _row(
                    "Client id", InOrderInput(_get(profile, "client_id"), id="client_id", compact=True), kind="oauth"
                )
                yield _row(
                    "Client secret",
                    InOrderInput(
                        password=True, placeholder=self._kept("client_secret"), id="client_secret", compact=True
                    ),
                    kind="oauth",
                )
                yield Static(Text(HINTS[kind]), id="hint")
                with Horizontal(classes="row secret kind-oauth", id="row-oauth"):
                    yield Label("OAuth")
                    yield Button("Test credentials (ctrl+o)", id="test_oauth", compact=True)
                    yield Button("Revoke current token (ctrl+r)", id="revoke_token", compact=True)
                yield Static(id="oauth-status", classes="secret kind-oauth")
                yield _row(
                    "Workspace id",
                    InOrderInput(_get(profile, "org_id"), placeholder="o_…  (optional)", id="org_id", compact=True),
                )
                yield _row(
                    "Connect project",
                    InOrderInput(
                        _get(profile, "project_id"),
                        placeholder="proj_…  (optional, for Connect)",
                        id="project_id",
                        compact=True,
                    ),
                )
                environments = [(name, name) for name in ENVIRONMENTS]
                yield _row(
                    "Environment",
                    SafeSelect(
                        environments,
                        value=profile.environment if profile else "production",
                        allow_blank=False,
                        id="environment",
                        compact=True,
                    ),
                )
                read_only = profile.read_only if profile else False
                yield _row("Read-only", Checkbox(_read_only_label(read_only), read_only, id="read_only"))
                yield Static(id="problem")
                with Horizontal(id="buttons"):
                    yield Button("Test and save", id="save", variant="primary", compact=True)
                    yield Button("Cancel", id="cancel", compact=True)
                yield Static(id="testing")
        yield KeyFooter()

    def _kept(self, field: str) -> str:
        """The placeholder of a secret input: what an empty input keeps."""
        profile = self.original
        if profile is None:
            return ""
        if getattr(profile, field) is not None:
            return "leave empty to keep the saved one"
        if field == "client_secret" and profile.client_secret_env is not None:
            return f"leave empty to keep ${profile.client_secret_env}"
        if field == "client_secret" and profile.client_secret_cmd is not None:
            return "leave empty to keep the saved command"
        return ""

    def on_mount(self) -> None:
        if host(self).session is not None:
            self.query_one(StatusHeader).sync()
        else:
            self.query_one(StatusHeader).display = False
        self._show_kind(self.query_one("#kind", Select).value)
        self.query_one("#revoke_token", Button).display = self._revocable()
        self.query_one(f"#{self._credential_input() if self.refused is not None else 'name'}", Input).focus()

    def _credential_input(self) -> str:
        """The input holding the credential of the chosen kind: where a refused key is fixed."""
        kind = str(self.query_one("#kind", Select).value)
        return "client_secret" if kind == "oauth" else kind

    def on_resize(self) -> None:
        self.set_class(self.size.height < 30, "dense")  # 80x24: the whole form on one screen

    @on(Select.Changed, "#kind")
    def _kind_changed(self, event: Select.Changed) -> None:
        self._show_kind(event.value)

    def _show_kind(self, kind: Any) -> None:
        for row in self.query(".secret"):
            row.set_class(row.has_class(f"kind-{kind}"), "shown")
        self.query_one("#hint", Static).update(Text(HINTS.get(str(kind), "")))

    @on(Checkbox.Changed, "#read_only")
    def _read_only_changed(self, event: Checkbox.Changed) -> None:
        event.checkbox.label = _read_only_label(event.value)  # said in words: NO_COLOR shows no state colours

    @on(Input.Submitted)
    def _next_field(self, event: Input.Submitted) -> None:
        event.stop()
        self.focus_next()

    @on(Button.Pressed, "#save")
    def _save_pressed(self, event: Button.Pressed) -> None:
        self.action_save()

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self, event: Button.Pressed) -> None:
        self.action_cancel()

    def action_cancel(self) -> None:
        if not self.saving:
            self.dismiss(None)

    def action_reveal(self) -> None:
        for ident in ("api_key", "client_secret"):
            box = self.query_one(f"#{ident}", Input)
            box.password = not box.password

    # --- OAuth: test what is typed, revoke the token in use ------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "test_oauth":
            return self.query_one("#kind", Select).value == "oauth"
        if action == "revoke_token":
            return self._revocable()
        return True

    @on(Select.Changed, "#kind")
    def _oauth_bindings(self, event: Select.Changed) -> None:
        self.refresh_bindings()

    def _revocable(self) -> bool:
        """The form shows the profile in use, and that profile holds an OAuth token to revoke."""
        session = host(self).session
        return bool(
            session is not None
            and self.original is not None
            and self.original.name == session.profile_name
            and revocable(session.client)
        )

    @on(Button.Pressed, "#test_oauth")
    def action_test_oauth(self) -> None:
        self._test_oauth()

    @work(group="oauth", exclusive=True, exit_on_error=False)
    async def _test_oauth(self) -> None:
        status = self.query_one("#oauth-status", Static)
        base_url, client_id = self._text("base_url"), self._text("client_id")
        if not base_url or not client_id:
            status.update(Text("Enter the base URL and the client id to test.", style="red"))
            self.query_one("#base_url" if not base_url else "#client_id").focus()
            return
        status.update(Text(f"Asking {visible(base_url, 60)} for a token…", style="dim"))
        try:
            secret = self._text("client_secret") or await self._saved_secret()
        except (ConfigError, ValueError) as error:
            status.update(Text(visible(str(error), 300), style="red"))
            return
        if secret is None:
            status.update(Text("Enter the client secret to test.", style="red"))
            self.query_one("#client_secret").focus()
            return
        session = host(self).session
        now = session.now() if session is not None else datetime.now(UTC)
        try:
            status.update(await check_client_credentials(base_url, client_id, secret, now=now))
        except ApiError as error:
            status.update(Text.assemble(("✗ ", "bold red"), visible(refusal(error), 600)))
            field = self._field_at_fault(error)
            if field is not None:
                self.query_one(f"#{field}").focus()

    async def _saved_secret(self) -> str | None:
        """The saved client secret (given, from its variable, or from its command), when the input is left empty."""
        original = self.original
        if original is None or credential_kind(original) != "oauth":
            return None
        return (await asyncio.to_thread(resolve_secret, original)).client_secret

    @on(Button.Pressed, "#revoke_token")
    def action_revoke_token(self) -> None:
        self._revoke_token()

    @work(group="oauth", exclusive=True, exit_on_error=False)
    async def _revoke_token(self) -> None:
        session = host(self).session
        if session is None or not self._revocable():
            return
        outcome = await revoke_current_token(self, session.client, session.profile_name)
        if outcome is not None:
            self.query_one("#oauth-status", Static).update(outcome)

    # --- reading the form -------------------------------------------------------------------------------

    def _text(self, ident: str) -> str | None:
        value = self.query_one(f"#{ident}", Input).value.strip()
        return value or None

    def profile_from_form(self) -> Profile:
        """The profile the form describes; `ProfileError` names the field that is wrong."""
        name = self._text("name") or ""
        if not name:
            raise ProfileError("", "name", "give the profile a name")
        if not self._text("base_url"):
            raise ProfileError(name, "base_url", f"enter the base URL of the service, such as {DEFAULT_BASE_URL}")
        kind = self.query_one("#kind", Select).value
        original = self.original if self.original is not None and credential_kind(self.original) == kind else None
        credential: dict[str, Any] = {}
        if kind == "api_key":
            credential["api_key"] = self._text("api_key") or (original.api_key if original else None)
            if credential["api_key"] is None:
                raise ProfileError(name, "api_key", "enter the API key")
        elif kind in ("api_key_env", "api_key_cmd"):
            credential[kind] = self._text(kind)
            if credential[kind] is None:
                what = (
                    "the name of the environment variable"
                    if kind == "api_key_env"
                    else "the command that prints the key"
                )
                raise ProfileError(name, kind, f"enter {what}")
        else:
            credential["client_id"] = self._text("client_id")
            if credential["client_id"] is None:
                raise ProfileError(name, "client_id", "enter the OAuth client id")
            if (secret := self._text("client_secret")) is not None:
                credential["client_secret"] = secret
            elif original is not None and any(
                getattr(original, key) is not None
                for key in ("client_secret", "client_secret_env", "client_secret_cmd")
            ):
                for key in ("client_secret", "client_secret_env", "client_secret_cmd"):
                    credential[key] = getattr(original, key)
            else:
                raise ProfileError(name, "client_secret", "enter the OAuth client secret")
            if self._text("org_id") is None:
                raise ProfileError(name, "org_id", "an OAuth client acts for one workspace: enter its id (o_…)")
        return Profile(
            name=name,
            base_url=self._text("base_url") or "",
            org_id=self._text("org_id"),
            project_id=self._text("project_id"),
            environment=str(self.query_one("#environment", Select).value),
            read_only=self.query_one("#read_only", Checkbox).value,
            production=self.original.production if self.original is not None else None,  # kept; set in the file
            **credential,
            **_kept_from(self.original),
        )

    # --- saving ---------------------------------------------------------------------------------------------

    def action_save(self) -> None:
        if not self.saving:
            self._save()

    @work(group="save", exclusive=True, exit_on_error=False)
    async def _save(self) -> None:
        self.saving = True
        self.query_one("#save", Button).disabled = True
        try:
            await self._test_and_save()
        finally:
            self.saving = False
            if self.is_mounted:
                self.query_one("#save", Button).disabled = False
                self.query_one("#testing", Static).update("")

    async def _test_and_save(self) -> None:
        try:
            profile = self.profile_from_form()
            self._check_name(profile.name)
        except ProfileError as error:
            self.problem(error.problem, field=error.key)
            return
        except ConfigError as error:
            self.problem(str(error))
            return
        self.problem(None)
        self.query_one("#testing", Static).update(
            Text(f"Testing the credential against {visible(profile.base_url, 60)}…")
        )
        try:
            client = await asyncio.to_thread(Client.from_profile, profile, retry=TEST_RETRY)  # a *_cmd may take a while
        except ProfileError as error:
            self.problem(error.problem, field=error.key)
            return
        except (ConfigError, ValueError) as error:
            self.problem(str(error))
            return
        try:
            await test_credential(client, profile)
        except ApiError as error:
            await client.aclose()
            self.problem(refusal(error), field=self._field_at_fault(error))
            return
        except ValueError as error:  # a workspace the key does not see
            await client.aclose()
            self.problem(str(error), field="org_id")
            return
        try:
            save(profile, replacing=self.original.name if self.original is not None else None)
        except ConfigError as error:
            await client.aclose()
            self.problem(f"The credential works, but the profile could not be saved: {error}")
            return
        client.retry = RetryPolicy()
        self.dismiss(SavedProfile(profile, client))

    def _field_at_fault(self, error: ApiError) -> str | None:
        if isinstance(error, NetworkError) or error.status == 404:
            return "base_url"
        return self._credential_input() if isinstance(error, AuthError) else None

    def _check_name(self, name: str) -> None:
        if self.original is not None and self.original.name == name:
            return
        if name in load_config().profiles:
            raise ProfileError(name, "name", f"a profile named “{name}” exists already: choose another name")

    def problem(self, message: str | None, *, field: str | None = None) -> None:
        """Show `message` under the form (None clears it); the cursor goes to the field at fault."""
        box = self.query_one("#problem", Static)
        box.update(Text(visible(message, 600)) if message else "")
        box.set_class(bool(message), "shown")
        if message and field in FIELD_INPUTS:
            self.query_one(f"#{FIELD_INPUTS[field]}").focus()
        if message:
            self.call_after_refresh(self.query_one("#form-scroll", VerticalScroll).scroll_to_widget, box)


def _row(label: str, widget: Widget, *, kind: str | None = None) -> Horizontal:
    classes = "row" if kind is None else f"row secret kind-{kind}"
    return Horizontal(Label(label), widget, classes=classes, id=f"row-{widget.id}")


def _read_only_label(on: bool) -> str:
    return "yes: every change is refused" if on else "no: changes are allowed"


def _get(profile: Profile | None, field: str) -> str:
    value = None if profile is None else getattr(profile, field)
    return value or ""


async def test_credential(client: Client, profile: Profile) -> None:
    """Raise `ApiError` when the service refuses the credential, `ValueError` for a workspace the key cannot see."""
    if client.uses_user_key:
        user = await client.me()
        if profile.org_id and user.orgs and profile.org_id not in {org.id for org in user.orgs}:
            known = ", ".join(f"{org.id} ({org.name or org.orgname or '-'})" for org in user.orgs[:5])
            raise ValueError(f"The key works, but the workspace {profile.org_id} is not one of its workspaces: {known}")
        return
    try:
        await client.list_apps(limit=1)  # fetches a token first; a refused client is an AuthError from /oauth/token
    except AuthError as error:
        if error.status == 403 and getattr(client.auth, "token", None):
            return  # the token was issued: that is the test; what this token may read is another matter
        raise


def refusal(error: ApiError) -> str:
    """The server's message, with a hint where one helps."""
    if isinstance(error, NetworkError):  # nothing answered: say where aftui tried, not what no one said
        return f"Could not reach {error.url or 'the service'}: {error.message} (is the base URL right?)"
    message = f"The service said: {error.message}"
    if error.status == 404:
        return f"{message} (is the base URL right? It usually ends in /v1)"
    return message


def save(profile: Profile, *, replacing: str | None = None) -> None:
    """Add or replace `profile` in the config file (`replacing`: its name before an edit); the default when there is none."""
    config = load_config()
    if replacing is not None and replacing != profile.name and replacing in config.profiles:
        was_default = config.default == replacing
        config.remove(replacing)  # renamed on the form: the profile moves to its new name
        if was_default:
            config.default = profile.name
    config.add(profile, overwrite=True)
    if config.default is None:
        config.default = profile.name
    save_config(config)


def stored_profile(profile: Profile) -> Profile:
    """The profile as the config file has it (without AFTUI_* overrides), else as given."""
    try:
        return load_config().profiles.get(profile.name, profile)
    except ConfigError:
        return profile


# --- what the app does with it ------------------------------------------------------------------------------


def fix_profile(node: DOMNode, error: ApiError) -> bool:
    """After a refused credential: the profile screen, pre-filled. False when there is no profile to fix here.

    The demo has no profile, and a 403 is about what a credential may do, not whether it is valid.
    `node`: the app, or any widget of it.
    """
    app, session, profile = node.app, host(node).session, host(node).profile
    if error.status == 403 or session is None or session.demo or profile is None:
        return False
    if not any(isinstance(screen, ProfileScreen) for screen in app.screen_stack):
        app.push_screen(ProfileScreen(stored_profile(profile), refused=error.message), partial(_use_saved, node))
    return True


def edit_profile(node: DOMNode, profile: Profile | None = None) -> None:
    node.app.push_screen(ProfileScreen(profile), partial(_use_saved, node))


def _use_saved(node: DOMNode, saved: SavedProfile | None) -> None:
    if saved is not None:
        node.app.run_worker(
            host(node).use_profile(saved.profile, saved.client), group="profile", exclusive=True, exit_on_error=False
        )
        node.app.notify(f"Profile “{visible(saved.profile.name, 40)}” saved", markup=False)


def switch_profile(node: DOMNode, name: str) -> None:
    node.app.run_worker(_switch(node, name), group="profile", exclusive=True, exit_on_error=False)


async def _switch(node: DOMNode, name: str) -> None:
    app = node.app
    try:
        profile = effective_profile(load_config(), name)
        client = await asyncio.to_thread(Client.from_profile, profile, retry=TUI_RETRY)
    except (ConfigError, ValueError) as error:
        app.notify(visible(str(error), 300), title="Cannot switch profile", severity="error", markup=False)
        return
    await host(node).use_profile(profile, client)
    app.notify(f"Profile: {visible(name, 40)}", markup=False)


def _kept_from(original: Profile | None) -> dict[str, Any]:
    """What the form does not show and must not drop on saving: the profile's team journal and its caps (TOML only)."""
    if original is None:
        return {}
    keys = ("journal", "journal_max_rows", "journal_max_days")
    return {key: getattr(original, key) for key in keys if getattr(original, key) is not None}
