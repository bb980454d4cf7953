"""Start: the start screen with nothing configured, the profile form, a refused key mid-session, themes."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import httpx
import pytest
from textual.command import CommandList, CommandPalette
from textual.widgets import ContentSwitcher, Input, OptionList, Select, Static
from tui_helpers import wait_for

from aftui import cli
from aftui.config import Config, Profile, load_config, save_config
from aftui.config.demo import RUNNING_NAME, demo_folder
from aftui.emulator.server import ServerHandle
from aftui.tui import run
from aftui.tui.screens.profile import ProfileScreen
from aftui.tui.screens.start import StartScreen
from aftui.tui.widgets.paged_table import PagedTable
from aftui.tui.widgets.status import StatusHeader


def profile_screen(app) -> ProfileScreen:
    assert isinstance(app.screen, ProfileScreen)
    return app.screen


def fill(screen: ProfileScreen, **values: str) -> None:
    for ident, value in values.items():
        screen.query_one(f"#{ident}", Input).value = value


def problem_text(screen: ProfileScreen) -> str:
    box = screen.query_one("#problem", Static)
    return str(box.render()) if box.has_class("shown") else ""


async def sources_loaded(app, pilot) -> PagedTable:
    """The Sources list with rows. `aftui` opens on Health: the list is shown once the main screen is up."""
    await wait_for(pilot, lambda: len(app.screen_stack) == 1 and bool(app.query("#health") or app.query("#sources")))
    app.show_pane("sources")
    await wait_for(
        pilot,
        lambda: (
            len(app.screen_stack) == 1
            and bool(app.query("#sources PagedTable"))
            and bool(app.query_one("#sources PagedTable", PagedTable).pager.items)
        ),
    )
    return app.query_one("#sources PagedTable", PagedTable)


async def test_with_nothing_configured_the_start_screen_offers_the_demo_and_a_profile(config_file: Path) -> None:
    app = run.make_app()
    assert app.session is None
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
        options = app.screen.query_one(OptionList)
        assert [options.get_option_at_index(i).id for i in range(options.option_count)] == ["demo", "add"]
        prompts = " ".join(str(options.get_option_at_index(i).prompt) for i in range(options.option_count))
        assert "Try the demo" in prompts and "Add a profile" in prompts
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, ProfileScreen))
        screen = profile_screen(app)
        assert screen.query_one("#base_url", Input).value == "https://api.pipedream.com/v1"
        assert screen.query_one("#api_key", Input).password  # masked
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
    assert not config_file.exists()


async def test_a_bad_key_shows_the_servers_message_and_keeps_every_field(
    config_file: Path, emulator: ServerHandle, info: dict
) -> None:
    app = run.make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, ProfileScreen))
        screen = profile_screen(app)
        fill(screen, name="local", base_url=emulator.base_url, org_id=info["org_id"])
        screen.query_one("#api_key", Input).focus()
        await pilot.press(*"not-the-key")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "invalid API key" in problem_text(screen))
        assert app.screen is screen
        assert screen.query_one("#name", Input).value == "local"
        assert screen.query_one("#base_url", Input).value == emulator.base_url
        assert screen.query_one("#api_key", Input).value == "not-the-key"
        assert screen.query_one("#org_id", Input).value == info["org_id"]
        assert screen.query_one("#api_key", Input).has_focus  # where the fix goes
    assert not config_file.exists()


async def test_a_good_key_is_saved_privately_and_the_app_opens_on_health(
    config_file: Path, emulator: ServerHandle, info: dict
) -> None:
    app = run.make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, ProfileScreen))
        screen = profile_screen(app)
        fill(screen, name="local", base_url=emulator.base_url, api_key=info["api_key"], org_id=info["org_id"])
        await pilot.click("#save")
        await wait_for(pilot, lambda: len(app.screen_stack) == 1 and bool(app.query("#panes")))
        await wait_for(pilot, lambda: app.query_one("#panes", ContentSwitcher).current == "health")
        table = await sources_loaded(app, pilot)
        assert len(table.rows) == 26
        assert app.session.profile_name == "local" and not app.session.demo
        assert app.screen_stack[0].query_one(StatusHeader).profile == "local"
    assert stat.S_IMODE(config_file.stat().st_mode) == 0o600
    config = load_config(config_file)
    assert config.default == "local"
    assert config.profiles["local"].api_key == info["api_key"]
    assert config.profiles["local"].org_id == info["org_id"]


async def test_oauth_client_credentials_are_tested_with_a_token(
    config_file: Path, emulator: ServerHandle, info: dict
) -> None:
    app = run.make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
        await pilot.press("a")
        await wait_for(pilot, lambda: isinstance(app.screen, ProfileScreen))
        screen = profile_screen(app)
        screen.query_one("#kind", Select).value = "oauth"
        await pilot.pause()
        assert screen.query_one("#row-client_secret").display and not screen.query_one("#row-api_key").display
        fill(
            screen,
            name="ci",
            base_url=emulator.base_url,
            client_id=info["oauth_client_id"],
            client_secret="wrong",
            org_id=info["org_id"],
        )
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "refused" in problem_text(screen))
        assert not config_file.exists()
        fill(screen, client_secret=info["oauth_client_secret"])
        await pilot.press("ctrl+s")
        await sources_loaded(app, pilot)
    profile = load_config(config_file).profiles["ci"]
    assert profile.client_id == info["oauth_client_id"] and profile.client_secret == info["oauth_client_secret"]


async def test_a_key_revoked_mid_session_leads_to_the_profile_screen(
    config_file: Path, emulator: ServerHandle, info: dict
) -> None:
    profile = Profile(name="local", base_url=emulator.base_url, api_key=info["api_key"], org_id=info["org_id"])
    save_config(Config(default="local", profiles={"local": profile}))
    app = run.make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await sources_loaded(app, pilot)
        # Health names the workflows it found after its first paint: a GET of those, once the key is revoked,
        # would open the profile screen before `r` does (and `r` be typed into it).
        await wait_for(pilot, lambda: app.health is not None and app.health.started)
        revoked = httpx.post(
            f"{emulator.root_url}/_emulator/users/{emulator.emulator.demo.user_id}/revoke_key",
            headers={"Authorization": f"Bearer {info['api_key']}"},
        )
        revoked.raise_for_status()
        new_key = revoked.json()["api_key"]
        table.table.focus()
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, ProfileScreen))
        screen = profile_screen(app)
        note = str(screen.query_one("#note", Static).render())
        assert "the key was refused" in note.lower() and "revoked" in note
        assert screen.query_one("#name", Input).value == "local"
        assert screen.query_one("#base_url", Input).value == emulator.base_url
        assert screen.query_one("#api_key", Input).value == ""  # the saved key is not shown
        assert screen.query_one("#api_key", Input).has_focus
        fill(screen, api_key=new_key)
        await pilot.press("ctrl+s")
        table = await sources_loaded(app, pilot)
        assert len(table.rows) == 26
        assert app.session.client is not None and app._connection == "ok"
    assert load_config(config_file).profiles["local"].api_key == new_key


async def test_a_profile_whose_key_is_refused_at_start_opens_on_the_profile_screen(
    config_file: Path, emulator: ServerHandle, info: dict
) -> None:
    save_config(
        Config(profiles={"old": Profile(name="old", base_url=emulator.base_url, api_key="stale-key-0123456789")})
    )
    app = run.make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ProfileScreen))
        await pilot.pause(0.2)
        assert (
            sum(isinstance(screen, ProfileScreen) for screen in app.screen_stack) == 1
        )  # once, however many requests failed
        assert "invalid API key" in str(app.screen.query_one("#note", Static).render())
        fill(app.screen, api_key=info["api_key"])
        await pilot.press("ctrl+s")
        await sources_loaded(app, pilot)
    assert load_config(config_file).profiles["old"].api_key == info["api_key"]


async def test_a_refused_key_in_the_demo_only_notifies(make_app, emulator: ServerHandle, info: dict) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await sources_loaded(app, pilot)
        httpx.post(
            f"{emulator.root_url}/_emulator/users/{emulator.emulator.demo.user_id}/revoke_key",
            headers={"Authorization": f"Bearer {info['api_key']}"},
        ).raise_for_status()
        table.table.focus()
        await pilot.press("r")
        await wait_for(pilot, lambda: table.has_class("failed"))
        await wait_for(pilot, lambda: any("revoked" in str(n.message) for n in app._notifications))
        assert not isinstance(app.screen, ProfileScreen)


async def test_the_demo_from_the_start_screen_runs_until_the_app_exits(
    config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stopped: list[bool] = []
    real_start = run.start_demo

    def start_quietly(seed: int = 1, activity: bool = True):
        session, stop = real_start(seed, activity=False)
        return session, lambda: (stop(), stopped.append(True))

    monkeypatch.setattr(run, "start_demo", start_quietly)
    app = run.make_app()
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, StartScreen))
            await pilot.press("enter")  # the first choice: the demo
            await sources_loaded(app, pilot)
            assert app.session.demo and app.screen.query_one(StatusHeader).demo
            assert not stopped
            running = json.loads((demo_folder() / RUNNING_NAME).read_text())  # for `aftui -p demo COMMAND`
            assert running["base_url"] == app.session.client.base_url
    finally:
        app.run_cleanups()
    assert stopped == [True]
    assert not (demo_folder() / RUNNING_NAME).exists()


async def test_read_only_is_forced_on_the_chosen_profile(config_file: Path, emulator: ServerHandle, info: dict) -> None:
    save_config(Config(default="local", profiles={
        "local": Profile(name="local", base_url=emulator.base_url, api_key=info["api_key"]),
        "other": Profile(name="other", base_url=emulator.base_url, api_key="x" * 20),
    }))  # fmt: skip
    app = run.make_app(read_only=True)
    assert app.session.profile_name == "local" and app.session.read_only
    assert run.make_app("other").session.profile_name == "other"


def test_a_malformed_config_is_named_and_aftui_exits_2(config_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config_file.parent.mkdir(parents=True)
    config_file.write_text('[profiles.local]\nbase_url = "http://x/v1"\nenvironment = "prod"\n')
    assert cli.main([]) == 2
    err = capsys.readouterr().err
    assert "line 3" in err and "environment" in err and "Traceback" not in err
    config_file.write_text('[profiles.local]\nbase_url = "http://x/v1"\napi_key = "k"\n')
    assert cli.main(["-p", "nope"]) == 2
    assert 'unknown profile "nope"' in capsys.readouterr().err


async def test_the_palette_changes_the_theme(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await sources_loaded(app, pilot)
        await pilot.press("ctrl+p", *"theme")
        await wait_for(pilot, lambda: "Change the current theme" in hits(app))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette) and "nord" in hits(app))
        await pilot.press(*"nord")
        await wait_for(pilot, lambda: hits(app).startswith("nord"))
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.theme == "nord")


def hits(app) -> str:
    """The palette's hits as text, the highlighted one first."""
    if not isinstance(app.screen, CommandPalette):
        return ""
    options = app.screen.query_one(CommandList)
    if options.highlighted is None:
        return ""
    texts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
    return "\n".join([texts[options.highlighted], *texts])


def test_each_demo_starts_with_an_empty_journal(config_file: Path, emulator: ServerHandle) -> None:
    """A demo is a new emulator, with new ids: the last demo's journal counted its errors a second time beside
    the new ones. It is begun afresh as it opens; the remembered workflows (the seed's, the same each time)
    stay, as do the UI's choices. (`config_file`: the data dir is the test's own, not the user's.)"""
    from aftui.config import data_dir

    folder = data_dir() / "demo"
    assert folder.is_relative_to(config_file.parent.parent)
    folder.mkdir(parents=True, exist_ok=True)
    left = ["journal.sqlite3", "journal.sqlite3-wal", "journal.sqlite3-shm", "journal.sqlite3-journal"]
    for name in [*left, "known_workflows.json", "other.txt"]:
        (folder / name).write_text("from the last demo")
    session = run.demo_session(emulator.base_url, emulator.emulator.describe())
    assert session.data == folder
    session.start_journal()
    try:
        assert session.opened_journal.writer is not None  # a new journal, not the last one moved aside
    finally:
        session.close_journal()
    old = {p.name for p in folder.iterdir() if p.is_file() and b"from the last demo" in p.read_bytes()}
    assert old == {"known_workflows.json", "other.txt"}
