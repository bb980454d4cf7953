"""The props forms pinned at 80x24 and 120x36: every prop type (four scroll positions), deploy, update, template.

Same style as test_snapshots.py, on an emulator of our own on a fixed port
(endpoint URLs are on screen) with the demo seed and a fixed clock. Update
with `pytest tests/tui/test_forms_snapshots.py --snapshot-update` after
looking at the pictures (`snapshot_report.html`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from props_fixture import EVERY_PROP_CODE
from textual.pilot import Pilot
from textual.widgets import Input, Tabs, TextArea
from tui_helpers import SIZES, quiet, serve_fixed, snapshot_app_factory, still, wait_for

from aftui.emulator.server import ServerHandle
from aftui.tui.app import AftuiApp
from aftui.tui.forms.props import PropsSection
from aftui.tui.forms.source import DeploySourceForm, UpdateSourceForm
from aftui.tui.forms.workflow import TemplateWorkflowForm
from aftui.tui.screens.sources import SourceScreen
from aftui.tui.widgets.prop_special import AccountField

SNAPSHOT_PORT = 27841


@pytest.fixture(scope="module")
def fixed_emulator() -> Iterator[ServerHandle]:
    handle = serve_fixed(SNAPSHOT_PORT)
    yield handle
    handle.stop()


@pytest.fixture
def app(fixed_emulator: ServerHandle, tmp_path: Path) -> AftuiApp:
    return snapshot_app_factory(fixed_emulator, tmp_path)(start_pane="sources")


async def steady(pilot: Pilot) -> None:
    """Nothing running or loading, the accounts listed, no cursor blinking: the picture stays put."""
    app = pilot.app
    await wait_for(pilot, lambda: quiet(app), timeout=10)
    await wait_for(pilot, lambda: all(f.loaded for f in app.screen.query(AccountField)), timeout=10)
    await still(pilot, (Input, TextArea))


async def open_form(pilot: Pilot, form: object) -> None:
    app = pilot.app
    await wait_for(
        pilot, lambda: bool(app.query("#sources PagedTable")) and app.query_one("#sources PagedTable").pager.done, 15
    )
    app.push_screen(form)  # type: ignore[arg-type]
    await wait_for(pilot, lambda: app.screen is form and bool(app.screen.query(PropsSection)), 15)
    await steady(pilot)


@pytest.mark.parametrize("where", ["top", "third", "two-thirds", "end"])
@pytest.mark.parametrize("size", SIZES)
def test_every_prop_type(snap_compare, app: AftuiApp, size: tuple[int, int], where: str) -> None:
    """Pasted code with one prop of each type, after ctrl+s: the required ones say so beside them."""

    async def run(pilot: Pilot) -> None:
        await open_form(pilot, DeploySourceForm(mode="code", ref=EVERY_PROP_CODE))
        await pilot.press("ctrl+s")
        form = pilot.app.screen
        await wait_for(pilot, lambda: form.rows()["configured_props.title"].has_class("-invalid"), 15)
        await steady(pilot)
        # ctrl+s focuses the first field in error, and the frame scrolls to it in its own time: let that
        # finish, then put the frame where this picture wants it, whatever the focus did.
        await pilot.wait_for_scheduled_animations()
        rows = form.query_one("#rows")
        if where == "top":
            rows.scroll_home(animate=False)
        elif where == "third":
            rows.scroll_to(y=rows.max_scroll_y // 3, animate=False)
        elif where == "two-thirds":
            rows.scroll_to(y=rows.max_scroll_y * 2 // 3, animate=False)
        elif where == "end":
            rows.scroll_end(animate=False)
        await steady(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_deploy_form(snap_compare, app: AftuiApp, size: tuple[int, int]) -> None:
    async def run(pilot: Pilot) -> None:
        await open_form(pilot, DeploySourceForm(ref="rss-new-item-in-feed"))
        pilot.app.screen.query_one("#component-ref", Input).focus()
        await steady(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_update_form(snap_compare, fixed_emulator: ServerHandle, app: AftuiApp, size: tuple[int, int]) -> None:
    """An HTTP source: its endpoint read-only, its props filled in."""
    describe = fixed_emulator.emulator.describe()
    with httpx.Client(
        base_url=fixed_emulator.base_url, headers={"Authorization": f"Bearer {describe['api_key']}"}
    ) as api:
        component = api.get("/components/registry/http-new-requests").json()["data"]["id"]
        source = min(
            (
                s
                for s in api.get("/users/me/sources", params={"limit": 100}).json()["data"]
                if s["component_id"] == component
            ),
            key=lambda s: s["created_at"],
        )

    async def run(pilot: Pilot) -> None:
        app = pilot.app
        await wait_for(
            pilot,
            lambda: bool(app.query("#sources PagedTable")) and app.query_one("#sources PagedTable").pager.done,
            15,
        )
        app.push_screen(SourceScreen(source["id"], ("Sources", source["name"])))
        # The tab bar is focused once every tab is in: the form's backdrop shows it so, whenever u comes.
        await wait_for(pilot, lambda: isinstance(app.screen, SourceScreen) and isinstance(app.focused, Tabs), 15)
        await pilot.press("u")
        await wait_for(
            pilot, lambda: isinstance(app.screen, UpdateSourceForm) and bool(app.screen.query(PropsSection)), 15
        )
        await steady(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_template_form(snap_compare, app: AftuiApp, size: tuple[int, int]) -> None:
    async def run(pilot: Pilot) -> None:
        await open_form(pilot, TemplateWorkflowForm("tch_8Wd2Kc"))
        pilot.app.screen.query_one("#template", Input).focus()
        await steady(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run)
