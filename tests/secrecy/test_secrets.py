"""No key, client secret, token or credential reaches the screen, the logs or the screenshots unless revealed.

The secrets are the demo's own (seed 1: the same in the screenshots, the
snapshots and these tests): the user's API keys, the OAuth client secret,
and every stored credential of every account.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from aftui.config import Config, Profile, save_config
from aftui.emulator.server import ServerHandle
from aftui.testing.pilot import walk_tabs
from aftui.testing.terminal import CapturingDriver, output_of
from aftui.tui import run
from aftui.tui.opener import open_resource
from aftui.tui.screens.detail import DetailScreen
from aftui.tui.screens.profile import edit_profile

ROOT = Path(__file__).resolve().parents[2]
SIZE = (120, 36)
MIN_SECRET = 12  # shorter values (an OAuth uid) are not secrets and could match by chance


def secrets_of(emulator: ServerHandle) -> set[str]:
    em = emulator.emulator
    info = em.describe()
    found = {info["api_key"], info["paid_api_key"], info["oauth_client_secret"]}
    for account in em.store.accounts.values():
        found.update(str(v) for v in account.credentials.values() if len(str(v)) >= MIN_SECRET)
    return found


def leaks(text: str, secrets: set[str]) -> list[str]:
    return sorted(s[:6] + "…" for s in secrets if s in text)


def test_the_screenshots_and_snapshots_show_no_secret(emulator: ServerHandle) -> None:
    secrets = secrets_of(emulator)
    # A snapshot of credentials revealed on purpose shows them: that is the one exception.
    pictures = [
        p
        for p in (*ROOT.glob("screenshots/*.svg"), *ROOT.glob("tests/**/__snapshots__/**/*.svg"))
        if "revealed" not in p.name
    ]
    assert pictures, "the screenshots and snapshots are where the test looks"
    found = {p.name: leaks(p.read_text(errors="replace"), secrets) for p in pictures}
    assert {name: hit for name, hit in found.items() if hit} == {}


async def test_a_walk_through_accounts_and_the_profile_form_shows_and_logs_no_secret(
    config_file: Path, emulator: ServerHandle, info: dict, caplog: pytest.LogCaptureFixture
) -> None:
    """Every account's detail (credentials not asked for), the Connect pane and the profile form, rendered to bytes."""
    save_config(Config(default="work", profiles={"work": Profile(
        name="work", base_url=emulator.base_url, api_key=info["api_key"], org_id=info["org_id"], project_id=info["project_id"],
    )}))  # fmt: skip
    secrets = secrets_of(emulator)
    caplog.set_level(logging.DEBUG)
    app = run.make_app()
    app.driver_class = CapturingDriver
    # One account of each kind of credential (OAuth or key, management or Connect), not all 80 of them.
    by_kind = {
        (a.app_id, a.project_id is None): a.id for a in emulator.emulator.store.accounts.values() if a.credentials
    }
    accounts = list(by_kind.values())[:8]
    async with app.run_test(headless=False, size=SIZE) as pilot:
        for pane in ("accounts", "connect", "workspaces"):
            app.show_pane(pane)
            await pilot.pause(0.6)
        for ident in accounts:
            assert open_resource(app, ident)
            for _ in range(50):
                if isinstance(app.screen, DetailScreen) and app.screen.ident == ident:
                    break
                await pilot.pause(0.05)
            await walk_tabs(pilot)
            app.pop_screen()
        edit_profile(app, app.profile)
        await pilot.pause(0.5)
        await pilot.press("ctrl+t")  # "show secret" shows what is typed; the saved key is never put back in the form
        await pilot.pause(0.3)
    assert len(output_of(app)) > 50_000
    assert leaks(output_of(app), secrets) == []
    assert leaks("\n".join(r.getMessage() for r in caplog.records), secrets) == []
