"""Credentials that stop working mid-session: a revoked key fixed in place, an OAuth token that expires."""

from __future__ import annotations

from pathlib import Path

import httpx
from textual.widgets import Input

from aftui.config import Config, Profile, save_config
from aftui.emulator.server import ServerHandle
from aftui.tui import run
from aftui.tui.forms.webhook import WebhookForm
from aftui.tui.screens.profile import ProfileScreen
from aftui.tui.widgets.paged_table import PagedTable

from .conftest import SIZE, until


async def test_a_revoked_key_fixed_in_the_profile_form_keeps_the_open_form(
    config_file: Path, emulator: ServerHandle, info: dict, root: httpx.Client, api: httpx.Client
) -> None:
    user_id = api.get("/users/me").json()["data"]["id"]
    save_config(
        Config(
            default="work",
            profiles={
                "work": Profile(name="work", base_url=emulator.base_url, api_key=info["api_key"], org_id=info["org_id"])
            },
        )
    )
    app = run.make_app()
    app.start_pane = "webhooks"
    async with app.run_test(size=SIZE) as pilot:
        await until(
            pilot,
            lambda: (
                bool(app.query("#webhooks PagedTable")) and app.query_one("#webhooks PagedTable", PagedTable).pager.done
            ),
        )
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, WebhookForm) and bool(app.screen.query("#submit")))
        form = app.screen
        form.query_one("#url", Input).value = "https://hooks.example.com/after-revocation"
        new_key = root.post(f"/_emulator/users/{user_id}/revoke_key").json()["api_key"]
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, ProfileScreen))
        app.screen.query_one("#api_key", Input).value = new_key
        await pilot.press("ctrl+s")  # test the new key and save it
        await until(pilot, lambda: app.screen is form, 30)
        assert form.query_one("#url", Input).value == "https://hooks.example.com/after-revocation"
        await pilot.press("ctrl+s")  # the same form, sent again with the fixed key
        await until(pilot, lambda: app.screen is not form, 30)
    made = httpx.get(f"{emulator.base_url}/users/me/webhooks", headers={"Authorization": f"Bearer {new_key}"}).json()[
        "data"
    ]
    assert any(w["url"] == "https://hooks.example.com/after-revocation" for w in made)


async def test_an_expiring_oauth_token_is_renewed_without_the_user(
    config_file: Path, emulator: ServerHandle, info: dict, root: httpx.Client
) -> None:
    root.post("/_emulator/settings", json={"token_lifetime": 1}).raise_for_status()
    save_config(Config(default="ci", profiles={"ci": Profile(
        name="ci", base_url=emulator.base_url, client_id=info["oauth_client_id"], client_secret=info["oauth_client_secret"], org_id=info["org_id"],
    )}))  # fmt: skip
    app = run.make_app()
    app.start_pane = "sources"  # aftui opens on Health; this test reads the Sources list
    async with app.run_test(size=SIZE) as pilot:
        table = None
        await until(
            pilot,
            lambda: (
                bool(app.query("#sources PagedTable")) and app.query_one("#sources PagedTable", PagedTable).pager.done
            ),
        )
        table = app.query_one("#sources PagedTable", PagedTable)
        first = [s.id for s in table.rows]
        for _ in range(3):  # each reload comes after the last token has expired
            await pilot.pause(1.2)
            table.reload()
            await until(pilot, lambda: table.pager.done and not table.has_class("failed"))
            assert [s.id for s in table.rows] == first
        assert not isinstance(app.screen, ProfileScreen)
