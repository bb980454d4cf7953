"""Connect's forms pinned at 80x24 and 120x36: the token form and its result, a confirm, credentials masked and revealed.

Each test gets a fresh demo emulator on the same fixed port: ids (the
connect token's too) come from the seeded generator in the order things
are created, so a fresh one per test keeps every picture the same whichever
tests run. The clock is fixed (FIXED_NOW), so the countdowns stand still.
Update with `pytest tests/tui/test_connect_snapshots.py --snapshot-update`
after looking at the new pictures.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input
from tui_helpers import (
    SIZES,
    Step,
    idle,
    serve_fixed,
    snapshot_app_factory,
    still,
    wait_for,
)
from tui_helpers import press as press_keys

from aftui.emulator.server import ServerHandle
from aftui.tui.app import AftuiApp
from aftui.tui.modals.confirm import ConfirmScreen

SNAPSHOT_PORT = 27861


@pytest.fixture
def fixed_emulator() -> Iterator[ServerHandle]:
    handle = serve_fixed(SNAPSHOT_PORT)
    yield handle
    handle.stop()


@pytest.fixture
def app(fixed_emulator: ServerHandle, tmp_path: Path) -> Callable[..., AftuiApp]:
    return snapshot_app_factory(fixed_emulator, tmp_path)


def press(*keys: str) -> Step:
    """Press keys, waiting until the app is idle after each."""
    return press_keys(*keys, wait=idle)


def asking(*keys: str) -> Step:
    """Press keys that end in a question: the worker that asked waits for the answer, so wait for the screen instead."""

    async def run(pilot: Pilot) -> None:
        await pilot.press(*keys)
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen), 15)
        await still(pilot)

    return run


def typed(selector: str, value: str) -> Step:
    async def run(pilot: Pilot) -> None:
        pilot.app.screen.query_one(selector, Input).value = value
        await idle(pilot)

    return run


async def end_users(pilot: Pilot) -> None:
    await wait_for(
        pilot,
        lambda: bool(pilot.app.query("#connect PagedTable")) and pilot.app.query_one("#connect PagedTable").pager.done,
        15,
    )
    await idle(pilot)


def steps(*parts: Step) -> Step:
    async def run(pilot: Pilot) -> None:
        await end_users(pilot)
        for part in parts:
            await part(pilot)

    return run


@pytest.mark.parametrize("size", SIZES)
def test_token_form(snap_compare, app, size) -> None:
    assert snap_compare(
        app(start_pane="connect"),
        terminal_size=size,
        run_before=steps(press("t"), press(*"signup-4711")),  # typed over the end user under the cursor
    )


@pytest.mark.parametrize("size", SIZES)
def test_token_form_refusing_an_empty_id(snap_compare, app, size) -> None:
    run = steps(press("t"), typed("#external_user_id", ""), press("ctrl+s"))  # it came with the user under the cursor
    assert snap_compare(app(start_pane="connect"), terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_token_result(snap_compare, app, size) -> None:
    run = steps(
        press("t"),
        typed("#external_user_id", "signup-4711"),
        typed("#webhook", "https://hooks.example.com/connect"),
        press("ctrl+s"),
    )
    assert snap_compare(app(start_pane="connect"), terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_delete_end_user_confirm(snap_compare, app, size) -> None:
    assert snap_compare(app(start_pane="connect"), terminal_size=size, run_before=steps(asking("d")))


@pytest.mark.parametrize("size", SIZES)
def test_delete_app_accounts_confirm(snap_compare, app, size) -> None:
    assert snap_compare(
        app(start_pane="connect"),
        terminal_size=size,
        run_before=steps(press("a"), typed("#app", "openai"), asking("ctrl+s")),
    )


# ada.0's account: Connect › ada.0@customers.example › its only account (a key app, one field).
ACCOUNT = (press("enter"), press("enter"))


@pytest.mark.parametrize("size", SIZES)
def test_credentials_masked(snap_compare, app, size) -> None:
    assert snap_compare(app(start_pane="connect"), terminal_size=size, run_before=steps(*ACCOUNT, press("v")))


@pytest.mark.parametrize("size", SIZES)
def test_credentials_revealed(snap_compare, app, size) -> None:
    assert snap_compare(app(start_pane="connect"), terminal_size=size, run_before=steps(*ACCOUNT, press("v", "v")))
