"""OAuth in the profile form: test typed client credentials without saving; revoke the token in use."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from textual.widgets import Button, Input, Select
from tui_helpers import wait_for

from aftui.config import Config, Profile, save_config
from aftui.emulator.server import ServerHandle
from aftui.tui import run
from aftui.tui.modals.confirm import ConfirmScreen
from aftui.tui.screens.profile import ProfileScreen, edit_profile, stored_profile
from aftui.tui.widgets.paged_table import PagedTable


def status_text(screen: ProfileScreen) -> str:
    console = Console(width=400, file=io.StringIO(), color_system=None)
    console.print(screen.query_one("#oauth-status").content)
    return console.file.getvalue()


async def oauth_form(app: Any, pilot: Any, emulator: ServerHandle, client_id: str, secret: str) -> ProfileScreen:
    app.push_screen(ProfileScreen())
    await wait_for(pilot, lambda: isinstance(app.screen, ProfileScreen) and bool(app.screen.query("#oauth-status")))
    screen = app.screen
    screen.query_one("#kind", Select).value = "oauth"
    await pilot.pause()
    for ident, value in {
        "name": "ci",
        "base_url": emulator.base_url,
        "client_id": client_id,
        "client_secret": secret,
    }.items():
        screen.query_one(f"#{ident}", Input).value = value
    return screen


async def test_good_client_credentials_say_ok_with_the_expiry_and_nothing_is_saved(
    config_file: Path, make_app, emulator: ServerHandle, info: dict
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await oauth_form(app, pilot, emulator, info["oauth_client_id"], info["oauth_client_secret"])
        assert screen.check_action("test_oauth", ()) is True
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: "OK" in status_text(screen), 15)
        said = status_text(screen)
        assert "valid for 1 h" in said and "Nothing was saved" in said and "revoked again" in said
        assert info["oauth_client_secret"] not in said
        assert isinstance(app.screen, ProfileScreen)  # the form stays open, as typed
        assert screen.query_one("#client_id", Input).value == info["oauth_client_id"]
    assert not config_file.exists()


async def test_a_wrong_secret_shows_the_servers_message(
    config_file: Path, make_app, emulator: ServerHandle, info: dict
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        screen = await oauth_form(app, pilot, emulator, info["oauth_client_id"], "not-the-secret")
        screen.query_one("#test_oauth", Button).press()
        await wait_for(pilot, lambda: "✗" in status_text(screen), 15)
        assert "The service said: OAuth client credentials refused" in status_text(screen)
        # Focus moves a message after the status is written (Widget.focus is deferred): waited for, not raced.
        secret = screen.query_one("#client_secret", Input)
        await wait_for(pilot, lambda: secret.has_focus, 5, says=lambda: f"focus on {app.focused!r}")
        assert screen.query_one("#client_secret", Input).value == "not-the-secret"
        screen.query_one("#base_url", Input).value = emulator.root_url  # without /v1: no token endpoint there
        screen.query_one("#client_secret", Input).value = info["oauth_client_secret"]
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: "base URL right" in status_text(screen), 15)
        base_url = screen.query_one("#base_url", Input)
        await wait_for(pilot, lambda: base_url.has_focus, 5, says=lambda: f"focus on {app.focused!r}")
        screen.query_one("#client_id", Input).value = ""
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: "client id" in status_text(screen))
        client_id = screen.query_one("#client_id", Input)
        await wait_for(pilot, lambda: client_id.has_focus, 5, says=lambda: f"focus on {app.focused!r}")
    assert not config_file.exists()


async def test_the_test_is_offered_for_oauth_only_and_revoke_for_the_profile_in_use(make_app) -> None:
    app = make_app()  # the demo signs in with a user API key
    async with app.run_test(size=(120, 36)) as pilot:
        app.push_screen(ProfileScreen())
        await wait_for(pilot, lambda: isinstance(app.screen, ProfileScreen) and bool(app.screen.query("#oauth-status")))
        screen = app.screen
        assert screen.check_action("test_oauth", ()) is False
        assert screen.check_action("revoke_token", ()) is False
        assert not screen.query_one("#revoke_token", Button).display
        screen.query_one("#kind", Select).value = "oauth"
        await pilot.pause()
        assert screen.check_action("test_oauth", ()) is True
        assert screen.check_action("revoke_token", ()) is False


async def oauth_app(emulator: ServerHandle, info: dict) -> Any:
    profile = Profile(
        name="ops",
        base_url=emulator.base_url,
        client_id=info["oauth_client_id"],
        client_secret=info["oauth_client_secret"],
        org_id=info["org_id"],
        project_id=info["project_id"],
    )
    save_config(Config(default="ops", profiles={"ops": profile}))
    app = run.make_app()
    app.start_pane = "sources"  # aftui opens on Health; these tests read the Sources list
    return app


async def sources_loaded(app: Any, pilot: Any) -> None:
    await wait_for(
        pilot,
        lambda: bool(app.query("#sources PagedTable")) and app.query_one("#sources PagedTable", PagedTable).pager.done,
        15,
    )


async def test_revoking_the_current_token_asks_then_the_next_call_gets_a_new_one(
    config_file: Path, emulator: ServerHandle, info: dict
) -> None:
    app = await oauth_app(emulator, info)
    async with app.run_test(size=(120, 36)) as pilot:
        await sources_loaded(app, pilot)
        client = app.session.client
        old = client.auth.token
        assert old
        edit_profile(app, stored_profile(app.profile))
        await wait_for(pilot, lambda: isinstance(app.screen, ProfileScreen) and bool(app.screen.query("#oauth-status")))
        screen = app.screen
        assert screen.check_action("revoke_token", ()) is True and screen.query_one("#revoke_token", Button).display
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        what = str(app.screen.query_one(".what").render())
        assert info["oauth_client_id"] in what and "new token" in what
        await pilot.press("escape")  # no: the token still works
        await wait_for(pilot, lambda: app.screen is screen)
        assert (
            httpx.get(
                f"{emulator.base_url}/apps", params={"limit": 1}, headers={"Authorization": f"Bearer {old}"}
            ).status_code
            == 200
        )
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        app.screen.query_one("#yes", Button).press()
        await wait_for(pilot, lambda: "Revoked" in status_text(screen), 15)
        assert "next call fetches a new token" in status_text(screen)
        await wait_for(pilot, lambda: any("next call fetches a new one" in n.message for n in app._notifications))
        assert client.auth.token is None
        # The service no longer takes the old token; the session's next call fetches a new one and works.
        assert (
            httpx.get(
                f"{emulator.base_url}/apps", params={"limit": 1}, headers={"Authorization": f"Bearer {old}"}
            ).status_code
            == 401
        )
        fetched = client.auth.fetches
        await client.list_apps(limit=1)
        assert client.auth.fetches == fetched + 1 and client.auth.token not in (None, old)


async def test_editing_a_profile_keeps_its_team_journal(make_app) -> None:
    team = Profile(
        name="oncall", api_key="pd_team_key_0123456789", journal="postgresql://oncall@db.team/aftui",
        journal_max_rows=5000, journal_max_days=30,
    )  # fmt: skip
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        app.push_screen(ProfileScreen(team))
        await wait_for(pilot, lambda: isinstance(app.screen, ProfileScreen) and bool(app.screen.query("#name")))
        edited = app.screen.profile_from_form()
    assert (edited.journal, edited.journal_max_rows, edited.journal_max_days) == (team.journal, 5000, 30)
