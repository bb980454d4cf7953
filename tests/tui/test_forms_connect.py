"""Connect from the TUI: tokens, the three deletions, credentials revealed on demand; each checked through the API."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from rich.console import Console
from textual.widgets import Button, Input
from tui_helpers import FIXED_NOW, wait_for

from aftui.api.models import Account, ConnectToken
from aftui.connect import (
    MAX_EXTERNAL_ID,
    external_id_problem,
    group_end_users,
    redirect_problem,
    webhook_uri_problem,
)
from aftui.tui.forms.connect import AppAccountsForm, ConnectTokenForm, TokenScreen, countdown
from aftui.tui.modals.confirm import ConfirmScreen
from aftui.tui.screens.accounts import AccountScreen
from aftui.tui.screens.connect import EndUserScreen
from aftui.tui.widgets.credentials import MASK, CredentialsPanel
from aftui.tui.widgets.json_view import JsonView
from aftui.tui.widgets.paged_table import PagedTable

SIZE = (120, 36)
PROD = {"X-PD-Environment": "production"}
DEV = {"X-PD-Environment": "development"}


# --- the service, as the tests read it ---------------------------------------------------------------


@pytest.fixture
def base(info: dict) -> str:
    return f"/connect/{info['project_id']}"


def accounts(api: httpx.Client, base: str, headers: dict[str, str] = PROD, **params: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    after = None
    while True:
        body = api.get(
            f"{base}/accounts", params={"limit": 100, **params, **({"after": after} if after else {})}, headers=headers
        ).json()
        found += body["data"]["accounts"]
        after = body["page_info"]["end_cursor"]
        if not after:
            return found


def project_info(api: httpx.Client, base: str, headers: dict[str, str] = PROD) -> dict[str, Any]:
    return api.get(f"{base}/info", headers=headers).json()["data"]


def a_user_with(api: httpx.Client, base: str, at_least: int, headers: dict[str, str] = PROD) -> str:
    users = group_end_users([Account.model_validate(a) for a in accounts(api, base, headers)])
    return next(u.external_id for u in users if u.count >= at_least and u.external_id)


def text_of(widget: Any) -> str:
    """What a Static shows, as plain text (tables and groups included)."""
    console = Console(width=400, file=io.StringIO(), color_system=None)
    console.print(widget.content)
    return console.file.getvalue()


async def open_connect(app: Any, pilot: Any) -> PagedTable:
    await wait_for(
        pilot, lambda: bool(app.query("#connect PagedTable")) and app.query_one("#connect PagedTable").pager.done, 15
    )
    table = app.query_one("#connect PagedTable", PagedTable)
    table.table.focus()
    await pilot.pause()
    return table


async def highlight(pilot: Any, table: PagedTable, predicate: Any) -> None:
    table.table.move_cursor(row=next(i for i, row in enumerate(table.rows) if predicate(row)))
    await pilot.pause()


async def form_of(app: Any, pilot: Any, kind: type) -> Any:
    """The form of `kind` on top, its submit button there."""
    await wait_for(pilot, lambda: isinstance(app.screen, kind) and bool(app.screen.query("#submit")))
    return app.screen


async def confirm_screen(app: Any, pilot: Any) -> ConfirmScreen:
    await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), 15)
    return app.screen


# --- checks made before sending --------------------------------------------------------------------


def test_external_user_id_is_required_and_at_most_250_characters() -> None:
    assert "required" in (external_id_problem("") or "")
    assert external_id_problem("u" * MAX_EXTERNAL_ID) is None
    assert "251" in (external_id_problem("u" * (MAX_EXTERNAL_ID + 1)) or "")


def test_redirects_take_absolute_uris_but_no_script_nor_http_abroad_and_the_webhook_an_http_url() -> None:
    assert redirect_problem("") is None and webhook_uri_problem("") is None
    assert redirect_problem("myapp://connected") is None
    assert redirect_problem("https://app.example.com/done?x=1") is None
    assert redirect_problem("/done") is not None
    assert redirect_problem("https://app.example.com/a b") is not None
    # Not a place to send an end user back to: script, inline content, or a session in clear over the network.
    for unsafe in ("javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,<b>hi</b>", "file:///etc/passwd"):
        assert "no place to send the end user" in (redirect_problem(unsafe) or ""), unsafe
    assert "https" in (redirect_problem("http://app.example.com/done") or "")
    assert redirect_problem("http://localhost:3000/done") is None and redirect_problem("http://127.0.0.1/x") is None
    assert webhook_uri_problem("https://hooks.example.com/connect") is None
    assert webhook_uri_problem("myapp://connected") is not None


def test_expiry_is_read_from_iso_or_epoch_and_counts_down() -> None:
    iso = ConnectToken.model_validate({"token": "t", "expires_at": "2026-11-01T13:00:00Z"})
    epoch = ConnectToken.model_validate(
        {"token": "t", "expires_at": int(datetime(2026, 11, 1, 13, tzinfo=UTC).timestamp())}
    )
    assert iso.expires_at == epoch.expires_at
    assert "in 4h 00m 00s" in countdown(iso.expires_at, FIXED_NOW).plain
    assert "in 59s" in countdown(iso.expires_at, iso.expires_at - timedelta(seconds=59)).plain  # type: ignore[operator]
    assert "expired 2m 00s ago" in countdown(iso.expires_at, iso.expires_at + timedelta(minutes=2)).plain  # type: ignore[operator]
    assert "did not say" in countdown(None, FIXED_NOW).plain


# --- a connect token -------------------------------------------------------------------------------


async def test_a_token_is_created_shown_with_its_countdown_and_copied(make_app, api: httpx.Client, base: str) -> None:
    before = project_info(api, base)["end_user_count"]
    app = make_app(start_pane="connect")
    async with app.run_test(size=SIZE) as pilot:
        await open_connect(app, pilot)
        highlighted = app.query_one("ConnectPane PagedTable").current
        await pilot.press("t")
        form = await form_of(app, pilot, ConnectTokenForm)
        assert "production" in text_of(form.query_one("#form-note"))
        # For the end user under the cursor, selected: what is typed replaces it (another end user).
        field = form.query_one("#external_user_id", Input)
        await wait_for(pilot, lambda: app.focused is field)
        assert field.value == highlighted.external_id and field.selected_text == field.value
        await pilot.press(*"signup-4711")
        assert field.value == "signup-4711"
        form.query_one("#success", Input).value = "https://app.example.com/connected"
        form.query_one("#webhook", Input).value = "https://hooks.example.com/connect"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, TokenScreen), 15)
        shown = app.screen
        token = shown.issued.token.token
        fields = text_of(shown.query_one("#token-fields"))
        assert token.startswith("ctok_") and token in fields
        assert "in 4h 00m 00s" in fields and "signup-4711" in fields and "production" in fields
        assert "https://hooks.example.com/connect" in fields
        await wait_for(
            pilot, lambda: any("Created a connect token for signup-4711" in n.message for n in app._notifications)
        )
        assert all(token not in n.message for n in app._notifications)  # never in a notification
        await pilot.press("c")
        assert app.clipboard == token
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, TokenScreen))
        # Counted by the project, not in the list (built from accounts): the count says why they differ.
        await pilot.press("r")
        project = app.query_one("ConnectPane #project")
        await wait_for(pilot, lambda: "1 with no account yet" in text_of(project), 15)
    # Creating the token registered the end user, in production only.
    assert project_info(api, base)["end_user_count"] == before + 1
    assert api.delete(f"{base}/users/signup-4711", headers=DEV).status_code == 404
    assert api.delete(f"{base}/users/signup-4711", headers=PROD).status_code == 204


async def test_a_new_token_shows_its_connect_link_as_plain_text_and_copies_it(make_app, info: dict) -> None:
    app = make_app(start_pane="connect")
    async with app.run_test(size=SIZE) as pilot:
        await open_connect(app, pilot)
        await pilot.press("t")
        form = await form_of(app, pilot, ConnectTokenForm)
        form.query_one("#external_user_id", Input).value = "link-4712"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, TokenScreen), 15)
        shown = app.screen
        link = shown.issued.token.connect_link_url
        assert link == f"{info['root_url']}/_static/connect.html?token={shown.issued.token.token}&connectLink=true"
        fields = text_of(shown.query_one("#token-fields"))
        assert "Connect link" in fields and link in fields.replace("\n", "").replace(" ", "")
        await pilot.press("l")
        assert app.clipboard == link
        await pilot.press("escape")


async def test_an_empty_or_too_long_id_is_refused_before_sending(make_app, api: httpx.Client, base: str) -> None:
    before = project_info(api, base)["end_user_count"]
    app = make_app(start_pane="connect")
    async with app.run_test(size=SIZE) as pilot:
        await open_connect(app, pilot)
        await pilot.press("t")
        form = await form_of(app, pilot, ConnectTokenForm)
        row = form.rows()["external_user_id"]
        form.query_one("#external_user_id", Input).value = ""  # it came with the end user under the cursor
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: row.has_class("-invalid"))
        assert "required" in text_of(row.query_one(".field-error"))
        long_id = "x" * (MAX_EXTERNAL_ID + 5)
        form.query_one("#external_user_id", Input).value = long_id
        form.query_one("#webhook", Input).value = "ftp://files.example.com"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "255" in text_of(row.query_one(".field-error")))
        assert form.rows()["webhook"].has_class("-invalid")
        assert isinstance(app.screen, ConnectTokenForm)
        assert form.query_one("#external_user_id", Input).value == long_id  # nothing typed is lost
    assert project_info(api, base)["end_user_count"] == before


async def test_the_services_refusal_stays_in_the_form(make_app, emulator, api: httpx.Client, base: str) -> None:
    """100 tokens a minute per end user: the 101st is refused with the server's message, the form kept."""
    for _ in range(100):
        assert api.post(f"{base}/tokens", json={"external_user_id": "busy-user"}, headers=PROD).status_code == 200
    app = make_app(start_pane="connect")
    async with app.run_test(size=SIZE) as pilot:
        await open_connect(app, pilot)
        await pilot.press("t")
        form = await form_of(app, pilot, ConnectTokenForm)
        form.query_one("#external_user_id", Input).value = "busy-user"
        await pilot.press("ctrl+s")
        box = form.query_one("#problem")
        await wait_for(pilot, lambda: box.has_class("shown"), 15)
        assert "Throttled" in text_of(box)
        assert isinstance(app.screen, ConnectTokenForm)
        assert form.query_one("#external_user_id", Input).value == "busy-user"
        # Another end user is not throttled: the same form goes through.
        form.query_one("#external_user_id", Input).value = "calm-user"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, TokenScreen), 15)
    assert api.delete(f"{base}/users/calm-user", headers=PROD).status_code == 204


# --- deleting ----------------------------------------------------------------------------------------


async def test_an_account_is_deleted_from_the_end_users_screen(make_app, api: httpx.Client, base: str) -> None:
    user = a_user_with(api, base, 2)
    theirs = accounts(api, base, external_user_id=user)
    app = make_app(start_pane="connect")
    async with app.run_test(size=SIZE) as pilot:
        table = await open_connect(app, pilot)
        await highlight(pilot, table, lambda u: u.external_id == user)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, EndUserScreen) and bool(app.screen.query("#accounts")))
        screen = app.screen
        listed = screen.query_one("#accounts", PagedTable)
        await wait_for(pilot, lambda: listed.pager.done and len(listed.rows) == len(theirs), 15)
        victim = listed.current
        await pilot.press("d")
        confirm = await confirm_screen(app, pilot)
        what = text_of(confirm.query_one(".what"))
        assert victim.id in what and user in what and "production" in what
        assert victim.app.name in what
        confirm.query_one("#yes", Button).press()
        await wait_for(pilot, lambda: listed.pager.done and len(listed.rows) == len(theirs) - 1, 15)
        assert isinstance(app.screen, EndUserScreen)
        await wait_for(pilot, lambda: any("Deleted" in n.message for n in app._notifications))
    left = {a["id"] for a in accounts(api, base, external_user_id=user)}
    assert victim.id not in left and left == {a["id"] for a in theirs} - {victim.id}


async def test_an_account_deleted_from_its_own_screen_goes_back(make_app, api: httpx.Client, base: str) -> None:
    victim = accounts(api, base)[0]
    app = make_app(start_pane="connect")
    async with app.run_test(size=SIZE) as pilot:
        await open_connect(app, pilot)
        app.push_screen(AccountScreen(victim["id"], ("Connect", victim["id"]), connect=True))
        await wait_for(pilot, lambda: isinstance(app.screen, AccountScreen) and app.screen.query(CredentialsPanel), 15)
        await pilot.press("d")
        confirm = await confirm_screen(app, pilot)
        await pilot.press("escape")  # no: nothing happens
        await wait_for(pilot, lambda: isinstance(app.screen, AccountScreen))
        assert api.get(f"{base}/accounts/{victim['id']}", headers=PROD).status_code == 200
        await pilot.press("d")
        confirm = await confirm_screen(app, pilot)
        confirm.query_one("#yes", Button).press()
        await wait_for(pilot, lambda: not isinstance(app.screen, (ConfirmScreen, AccountScreen)), 15)
    assert api.get(f"{base}/accounts/{victim['id']}", headers=PROD).status_code == 404


async def test_an_end_user_is_deleted_only_once_their_id_is_typed(make_app, api: httpx.Client, base: str) -> None:
    user = a_user_with(api, base, 2)
    count = len(accounts(api, base, external_user_id=user))
    app = make_app(start_pane="connect")
    async with app.run_test(size=SIZE) as pilot:
        table = await open_connect(app, pilot)
        await highlight(pilot, table, lambda u: u.external_id == user)
        await pilot.press("d")
        confirm = await confirm_screen(app, pilot)
        what = text_of(confirm.query_one(".what"))
        assert user in what and f"{count} accounts" in what and "production" in what
        yes = confirm.query_one("#yes", Button)
        assert yes.disabled
        typed = confirm.query_one("#typed", Input)
        typed.value = user[:-1]
        await pilot.pause()
        assert yes.disabled
        await pilot.press("enter")  # the wrong id submitted: nothing done, and said where it is typed
        assert isinstance(app.screen, ConfirmScreen)
        await wait_for(pilot, lambda: "does not match it yet" in text_of(confirm.query_one(".typed-hint")))
        assert accounts(api, base, external_user_id=user)
        typed.value = user
        await pilot.pause()
        assert not yes.disabled
        yes.press()
        await wait_for(pilot, lambda: table.pager.done and all(u.external_id != user for u in table.rows), 15)
        await wait_for(pilot, lambda: any(user in n.message and "Deleted" in n.message for n in app._notifications))
    assert accounts(api, base, external_user_id=user) == []
    assert api.delete(f"{base}/users/{user}", headers=PROD).status_code == 404  # gone already


async def test_every_account_of_a_key_app_is_counted_then_deleted(make_app, api: httpx.Client, base: str) -> None:
    in_prod = accounts(api, base, app="openai")
    in_dev = accounts(api, base, DEV, app="openai")
    assert in_prod and in_dev
    app = make_app(start_pane="connect")
    async with app.run_test(size=SIZE) as pilot:
        table = await open_connect(app, pilot)
        await pilot.press("a")
        form = await form_of(app, pilot, AppAccountsForm)
        form.query_one("#app", Input).value = "openai"
        await pilot.press("ctrl+s")
        confirm = await confirm_screen(app, pilot)
        what = text_of(confirm.query_one(".what"))
        assert f"{len(in_prod)} accounts of OpenAI" in what and "production" in what
        await pilot.press("escape")  # no: the form says nothing was deleted and keeps the app
        await wait_for(
            pilot, lambda: isinstance(app.screen, AppAccountsForm) and form.query_one("#problem").has_class("shown")
        )
        assert "Nothing was deleted" in text_of(form.query_one("#problem"))
        assert len(accounts(api, base, app="openai")) == len(in_prod)
        await pilot.press("ctrl+s")
        confirm = await confirm_screen(app, pilot)
        confirm.query_one("#typed", Input).value = "openai"
        await pilot.pause()
        confirm.query_one("#yes", Button).press()
        await wait_for(pilot, lambda: not isinstance(app.screen, (ConfirmScreen, AppAccountsForm)), 15)
        await wait_for(pilot, lambda: table.pager.done, 15)
        await wait_for(
            pilot, lambda: any(f"Deleted {len(in_prod)} accounts of OpenAI" in n.message for n in app._notifications)
        )
    assert accounts(api, base, app="openai") == []
    assert len(accounts(api, base, DEV, app="openai")) == len(in_dev)  # the other environment is untouched


async def test_an_oauth_apps_slug_and_an_unknown_app_are_refused_beside_the_field(
    make_app, api: httpx.Client, base: str
) -> None:
    before = len(accounts(api, base))
    app = make_app(start_pane="connect")
    async with app.run_test(size=SIZE) as pilot:
        await open_connect(app, pilot)
        await pilot.press("a")
        form = await form_of(app, pilot, AppAccountsForm)
        row = form.rows()["app"]
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: row.has_class("-invalid"))
        form.query_one("#app", Input).value = "slack"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "OAuth app" in text_of(row.query_one(".field-error")), 15)
        form.query_one("#app", Input).value = "no_such_app"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "No app no_such_app" in text_of(row.query_one(".field-error")), 15)
        assert not isinstance(app.screen, ConfirmScreen)
    assert len(accounts(api, base)) == before


async def test_the_development_environment_is_said_and_used(make_app, api: httpx.Client, base: str) -> None:
    user = a_user_with(api, base, 1, DEV)
    prod_before = len(accounts(api, base))
    app = make_app(start_pane="connect")
    async with app.run_test(size=SIZE) as pilot:
        table = await open_connect(app, pilot)
        app.set_environment("development")
        await wait_for(pilot, lambda: table.pager.done and any(u.external_id == user for u in table.rows), 15)
        table.table.focus()
        await highlight(pilot, table, lambda u: u.external_id == user)
        await pilot.press("d")
        confirm = await confirm_screen(app, pilot)
        assert "development" in text_of(confirm.query_one(".what"))
        confirm.query_one("#typed", Input).value = user
        await pilot.pause()
        confirm.query_one("#yes", Button).press()
        await wait_for(pilot, lambda: table.pager.done and all(u.external_id != user for u in table.rows), 15)
    assert accounts(api, base, DEV, external_user_id=user) == []
    assert len(accounts(api, base)) == prod_before


async def test_read_only_dims_every_connect_change_and_says_why(make_app, api: httpx.Client, base: str) -> None:
    before = len(accounts(api, base))
    app = make_app(start_pane="connect")
    app.session.client.read_only = True
    async with app.run_test(size=SIZE) as pilot:
        table = await open_connect(app, pilot)
        pane = app.query_one("#connect")
        assert all(pane.check_action(a, ()) is None for a in ("new_token", "delete_user", "delete_app_accounts"))
        for key in ("t", "d", "a"):
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is app.screen_stack[0]  # no form, no question
        await wait_for(pilot, lambda: sum("read-only" in n.message for n in app._notifications) == 3)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, EndUserScreen))
        assert all(app.screen.check_action(a, ()) is None for a in ("new_token", "delete_account", "delete_user"))
        account = table.rows[0].accounts[0]
        app.push_screen(AccountScreen(account.id, ("Connect", account.id), connect=True))
        await wait_for(pilot, lambda: isinstance(app.screen, AccountScreen) and app.screen.query(CredentialsPanel), 15)
        screen = app.screen
        assert (
            screen.check_action("delete_account", ()) is None and screen.check_action("delete_app_accounts", ()) is None
        )
        assert screen.check_action("credentials", ()) is True  # reading them is not a change
        await pilot.press("d")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen)
        app.push_screen(ConnectTokenForm("someone"))
        await wait_for(pilot, lambda: isinstance(app.screen, ConnectTokenForm) and bool(app.screen.query("#submit")))
        assert app.screen.query_one("#submit", Button).disabled
    assert len(accounts(api, base)) == before


async def test_a_management_account_offers_no_connect_deletion_but_reveals_through_its_own_api(
    make_app, api: httpx.Client
) -> None:
    mine = api.get("/accounts", params={"limit": 1}).json()["data"][0]
    secret = api.get(f"/accounts/{mine['id']}", params={"include_credentials": "true"}).json()["data"]["credentials"]
    app = make_app(start_pane="accounts")
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(AccountScreen(mine["id"], ("Accounts", mine["id"]), connect=False))
        await wait_for(pilot, lambda: isinstance(app.screen, AccountScreen) and bool(app.screen.query(JsonView)), 15)
        screen = app.screen
        assert screen.check_action("delete_account", ()) is False
        assert screen.check_action("delete_app_accounts", ()) is False
        panel = screen.query_one(CredentialsPanel)
        await pilot.press("v")
        await wait_for(pilot, lambda: panel.state == "masked", 15)
        await pilot.press("v")
        await wait_for(pilot, lambda: panel.state == "revealed")
        assert all(str(value) in text_of(panel) for value in secret.values())


# --- credentials ------------------------------------------------------------------------------------------


class Clock:
    """The session clock, moved by hand: the reveal times out without the test waiting for it."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


async def open_account(app: Any, pilot: Any, account_id: str) -> AccountScreen:
    app.push_screen(AccountScreen(account_id, ("Connect", account_id), connect=True))
    await wait_for(pilot, lambda: isinstance(app.screen, AccountScreen) and bool(app.screen.query(JsonView)), 15)
    return app.screen


async def masked_credentials(app: Any, pilot: Any, account_id: str) -> CredentialsPanel:
    """The account opened from the Connect pane, its credentials fetched (`v`) and shown masked."""
    await open_connect(app, pilot)
    screen = await open_account(app, pilot, account_id)
    panel = screen.query_one(CredentialsPanel)
    await pilot.press("v")
    await wait_for(pilot, lambda: panel.state == "masked", 15)
    return panel


def json_text(screen: AccountScreen) -> str:
    return screen.query_one(JsonView).json_text()


async def test_credentials_are_fetched_on_v_masked_revealed_then_hidden_again(
    make_app, api: httpx.Client, base: str
) -> None:
    target = accounts(api, base)[0]
    secret = api.get(f"{base}/accounts/{target['id']}", params={"include_credentials": "true"}, headers=PROD).json()[
        "data"
    ]["credentials"]
    values = [v for v in secret.values() if isinstance(v, str) and len(v) > 6]
    assert values
    app = make_app(start_pane="connect")
    clock = Clock(FIXED_NOW)
    app.session.now = clock
    asked: list[bool] = []
    client = app.session.client
    real = client.get_connect_account

    async def spy(account_id: str, *, include_credentials: bool = False) -> Account:
        asked.append(include_credentials)
        return await real(account_id, include_credentials=include_credentials)

    client.get_connect_account = spy
    async with app.run_test(size=SIZE) as pilot:
        await open_connect(app, pilot)
        screen = await open_account(app, pilot, target["id"])
        panel = screen.query_one(CredentialsPanel)
        assert asked == [False] and panel.state == "idle"  # the record is read without them
        assert "credentials" not in json_text(screen)

        await pilot.press("v")
        await wait_for(pilot, lambda: panel.state == "masked", 15)
        assert asked == [False, True]
        shown = text_of(panel)
        assert MASK in shown and all(key in shown for key in secret) and not any(v in shown for v in values)

        await pilot.press("v")
        await wait_for(pilot, lambda: panel.state == "revealed")
        shown = text_of(panel)
        assert all(v in shown for v in values) and "hidden again in 30 s" in shown
        assert not any(v in json_text(screen) for v in values)  # the JSON tab (and copy JSON) never has them
        await pilot.press("c")
        assert not any(v in app.clipboard for v in values)

        clock.now = FIXED_NOW + timedelta(seconds=12)
        await wait_for(pilot, lambda: "hidden again in 18 s" in text_of(panel))
        clock.now = FIXED_NOW + timedelta(seconds=31)
        await wait_for(pilot, lambda: panel.state == "masked")
        shown = text_of(panel)
        assert not panel.held and MASK in shown and not any(v in shown for v in values)

        await pilot.press("v")  # the values were forgotten: this fetches again and reveals
        await wait_for(pilot, lambda: panel.state == "revealed", 15)
        assert asked == [False, True, True]
        assert all(v in text_of(panel) for v in values)
        assert all(not any(v in n.message for v in values) for n in app._notifications)


async def test_the_times_beside_masked_credentials_move_on(make_app, api: httpx.Client, base: str, monkeypatch) -> None:
    """ "Expires … (in 42m)" stayed at 42m while the values were masked: only the reveal's tick drew it."""
    from aftui.tui.widgets import credentials

    monkeypatch.setattr(credentials, "AGES_S", 0.05)
    target = accounts(api, base)[0]
    app = make_app(start_pane="connect")
    clock = Clock(FIXED_NOW)
    app.session.now = clock
    async with app.run_test(size=SIZE) as pilot:
        panel = await masked_credentials(app, pilot, target["id"])
        expires = panel._about.get("expires_at")
        assert isinstance(expires, datetime) and expires > FIXED_NOW, "the demo's account should expire later"
        before = text_of(panel)
        clock.now = FIXED_NOW + timedelta(minutes=2)
        await wait_for(pilot, lambda: text_of(panel) != before)
        assert panel.state == "masked"


async def test_leaving_the_screen_hides_the_credentials(make_app, api: httpx.Client, base: str) -> None:
    target = accounts(api, base)[0]
    app = make_app(start_pane="connect")
    async with app.run_test(size=SIZE) as pilot:
        panel = await masked_credentials(app, pilot, target["id"])
        screen = app.screen
        await pilot.press("v")
        await wait_for(pilot, lambda: panel.state == "revealed")
        await pilot.press("question_mark")  # another screen on top
        await wait_for(pilot, lambda: app.screen is not screen)
        assert panel.state == "masked" and not panel.held
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.press("v")
        await wait_for(pilot, lambda: panel.state == "revealed", 15)
        await pilot.press("escape")  # back: the panel goes, and the values with it
        await wait_for(pilot, lambda: app.screen is not screen)
        assert not panel.held


async def test_a_failed_fetch_says_why_in_the_tab(make_app, emulator, api: httpx.Client, base: str, info: dict) -> None:
    target = accounts(api, base)[0]
    app = make_app(start_pane="connect")
    async with app.run_test(size=SIZE) as pilot:
        await open_connect(app, pilot)
        screen = await open_account(app, pilot, target["id"])
        panel = screen.query_one(CredentialsPanel)
        path = f"/v1/connect/{info['project_id']}/accounts/{target['id']}"
        httpx.post(
            f"{emulator.root_url}/_emulator/faults", json={"path": path, "method": "GET", "status": 403, "count": 1}
        ).raise_for_status()
        await pilot.press("v")
        await wait_for(pilot, lambda: panel.state == "failed", 15)
        assert "injected fault" in text_of(panel)
        await pilot.press("v")  # the fault has passed
        await wait_for(pilot, lambda: panel.state == "masked", 15)


# --- no project -------------------------------------------------------------------------------------


async def test_no_project_says_what_to_set_and_does_not_retry(make_app) -> None:
    """A setup problem no retry can fix: the pane says what to set (key, variable), once, and asks nothing again."""
    app = make_app(start_pane="connect")
    app.session.client.project_id = None
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.query("#connect PagedTable")))
        table = app.query_one("#connect PagedTable", PagedTable)
        await wait_for(pilot, lambda: table.has_class("failed"), 15)
        # The project line is told by its own request, which can answer after the list's: wait for it too.
        await wait_for(pilot, lambda: "project_id" in text_of(app.query_one("#connect #project")), 15)
        project = text_of(app.query_one("#connect #project"))
        assert "project_id" in project and "AFTUI_PROJECT_ID" in project and "aftui config path" in project
        error = text_of(table.query_one(".error"))
        assert "trying again" not in error and "press r" not in error
        assert table._retry._timer is None and table._retry.failures == 0
        # A token needs a project too: the key is not offered (the line above says what to set), and does nothing.
        await pilot.press("t")
        await pilot.pause()
        assert app.screen is app.screen_stack[0] and not app._notifications
